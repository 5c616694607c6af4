"""The error hierarchy: wire forms, descriptions, JSON form."""

from __future__ import annotations

from cfgpatch.errors import ALL_CODES, CfgPatchError, MergeConflict, PatchFailed


def test_wire_forms():
    error = PatchFailed("no key", code="path not found")
    assert str(error) == "path not found"
    error.at_op(2, {"op": "remove", "path": "/x"})
    assert str(error) == "path not found at op 2"
    assert MergeConflict(pointer="/b/x").wire() == "conflict at /b/x"
    assert MergeConflict(pointer="").wire() == "conflict at (root)"


def test_describe_names_the_operation_and_hint():
    error = PatchFailed('no key "x" in /spec', code="path not found", hint="try /a~1b")
    error.at_op(0, {"op": "move", "from": "/a", "path": "/b"})
    assert error.describe() == 'op 0 (move /a -> /b): path not found: no key "x" in /spec; try /a~1b'


def test_to_dict_and_hierarchy():
    error = PatchFailed("m", code="path not found", pointer="/a", token="a").at_op(1, None)
    assert error.to_dict() == {
        "code": "path not found",
        "message": "m",
        "op_index": 1,
        "pointer": "/a",
        "token": "a",
    }
    assert isinstance(error, CfgPatchError)
    assert len(set(ALL_CODES)) == len(ALL_CODES)


def _code_arguments():
    """(file, line, node) for every ``code=...`` argument and ``.code ==/in`` comparison in src."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "src" / "cfgpatch"
    for path in sorted(package.rglob("*.py")):
        if "static" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "code":
                yield path.name, node.value.lineno, node.value
            elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) \
                    and node.left.attr == "code" and isinstance(node.left.value, ast.Name) \
                    and node.left.value.id in ("exc", "error", "err"):  # not a finding's code
                for right in node.comparators:
                    if isinstance(right, ast.Name) and right.id.endswith("_CODES"):
                        continue  # a named set of declared codes (checked where it is built)
                    items = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) \
                        else [right]
                    for item in items:
                        yield path.name, item.lineno, item


def test_every_code_used_anywhere_is_declared_in_errors():
    """No code is spelled as a literal outside errors.py: each is a declared constant."""
    import ast

    from cfgpatch import errors

    declared = set(ALL_CODES) | set(errors.OTHER_CODES)
    constants = {name for name in dir(errors)
                 if isinstance(getattr(errors, name), str) and getattr(errors, name) in declared}
    seen = []
    for filename, line, value in _code_arguments():
        if isinstance(value, ast.Constant):
            assert value.value is None, f"{filename}:{line}: code {value.value!r} is a literal"
        elif isinstance(value, ast.Name) and value.id.isupper():
            assert value.id in constants, f"{filename}:{line}: {value.id} is not declared"
            seen.append(value.id)
    assert len(seen) > 50  # the scan sees the codes


def test_kube_errors_declare_their_findings():
    from cfgpatch.errors import KubeError

    assert KubeError("x").findings == []
    assert KubeError("x", findings=["f"]).findings == ["f"]
