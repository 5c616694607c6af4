"""Where each field of a YAML document was written: JSON pointer -> (line, column).

Computed from :class:`~cfgpatch.kube.io.kyaml.Node` trees as read; a map member's
position is the position of its key, a list element's the position of the element.
Used for blame (``kube build --explain``) and for messages naming a kustomization line.
"""

from __future__ import annotations

from ..io.kyaml import MAPPING, SEQUENCE, Node


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def node_positions(node: Node) -> dict[str, tuple[int, int]]:
    """Every pointer of ``node`` with the line and column it was read at.

    >>> from cfgpatch.kube.io.kyaml_read import read_document
    >>> node_positions(read_document("a:\\n  b: [1, 2]\\n"))["/a/b/1"]
    (2, 10)
    """
    out: dict[str, tuple[int, int]] = {"": (node.line, node.column)}
    stack: list[tuple[str, Node]] = [("", node)]
    seen: set[int] = set()
    while stack:
        pointer, current = stack.pop()
        if id(current) in seen:  # an alias met again
            continue
        seen.add(id(current))
        if current.kind == MAPPING:
            for key, value in current.pairs():
                child = f"{pointer}/{escape(key.value)}"
                out.setdefault(child, (key.line, key.column))
                stack.append((child, value))
        elif current.kind == SEQUENCE:
            for index, item in enumerate(current.content):
                child = f"{pointer}/{index}"
                out.setdefault(child, (item.line, item.column))
                stack.append((child, item))
    return out


def node_at(node: Node | None, pointer: str) -> Node | None:
    """The node at ``pointer`` (``None`` when there is none)."""
    current = node
    for token in [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]:
        if current is None:
            return None
        if current.kind == MAPPING:
            current = current.get(token)
        elif current.kind == SEQUENCE and token.isdigit() and int(token) < len(current.content):
            current = current.content[int(token)]
        else:
            return None
    return current


def shifted(positions: dict[str, tuple[int, int]], lines: int) -> dict[str, tuple[int, int]]:
    """``positions`` moved down by ``lines`` (a text embedded in another file)."""
    return {p: (line + lines, column) for p, (line, column) in positions.items()}
