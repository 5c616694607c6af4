"""The string literals of a module, for the tests that keep a tool's wording in one place."""

from __future__ import annotations

import ast
from collections.abc import Iterator


def string_literals(tree: ast.AST) -> Iterator[ast.Constant]:
    """Every string constant of ``tree`` but docstrings (bare string statements)."""
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            yield node
