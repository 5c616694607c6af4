"""The plain-JSON reading of ``[...]`` patches gives what the full (PyYAML) reading gives."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.io import flowjson, reader

TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x7f), max_size=6) | st.sampled_from(
    ["on", "yes", "~", "1", "0x1F", "a: b", "# c", "- x", "&a", "*a", "!t", "<<", "é", "\u2028"])
SCALARS = (st.none() | st.booleans() | st.integers(-(2**64), 2**64) | TEXT
           | st.floats(allow_nan=False, allow_infinity=False))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(TEXT, inner, max_size=4), max_leaves=12)


def _both(text: str, patch_type: str, monkeypatch: pytest.MonkeyPatch) -> tuple:
    def outcome() -> tuple:
        try:
            return reader.load_patch(text, patch_type)
        except KubeError as err:
            return ("error", err.message)

    fast = outcome()
    with monkeypatch.context() as patched:
        patched.setattr(flowjson, "read", lambda _text: None)
        full = outcome()
    return fast, full


@settings(max_examples=300, deadline=None)
@given(st.lists(VALUES, max_size=4), st.sampled_from([None, 1, 2]), st.booleans(),
       st.sampled_from(["json", "merge", "strategic"]))
def test_plain_json_patches_read_as_yaml_reads_them(items, indent, compact, patch_type):
    separators = (",", ":") if compact else None
    text = json.dumps(items, indent=indent, separators=separators, ensure_ascii=compact)
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, full = _both(text, patch_type, monkeypatch)
    assert fast == full, text


@pytest.mark.parametrize("text", [
    '[{"op": "add", "path": "/a", "value": {"b": [1, true, null, "x"]}}]',
    '[{"a": 1, "a": 2}]', '[{"a"\n: 1}]', '[{"a"' + ' ' * 40 + ': 1}]', '[1.0]', '[1e3]',
    '["\\u00e9"]', '[\t1]', '[1]\r\n', '[9223372036854775808]', '[-0]', '  [ ]  \n',
    '[{"' + 'k' * 1100 + '": 1}]', '[' * 150 + ']' * 150, '[NaN]', '[1] # c', '[1]\n---\n[2]',
])
def test_edge_cases_read_as_yaml_reads_them(text, monkeypatch):
    fast, full = _both(text, "json", monkeypatch)
    assert fast == full

