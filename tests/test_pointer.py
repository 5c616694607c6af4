"""JSON Pointer: syntax, escapes, index grammar, walking and corrected pointers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError
from cfgpatch.pointer import (
    escape_token,
    format_pointer,
    is_index,
    is_proper_prefix,
    parse_pointer,
    resolve,
    suggest_split_key,
    unescape_token,
)


@pytest.mark.parametrize(
    "text,tokens",
    [
        ("", []),
        ("/", [""]),
        ("/a/b", ["a", "b"]),
        ("/a~1b", ["a/b"]),
        ("/m~0n", ["m~n"]),
        ("/~01", ["~1"]),  # ~1 is decoded first: ~01 is the two characters ~1
        ("/~10", ["/0"]),
        ("/~0~1", ["~/"]),
        ("//", ["", ""]),
        ("/ ", [" "]),
    ],
)
def test_parse_pointer(text, tokens):
    assert parse_pointer(text) == tokens
    assert format_pointer(tokens) == text


@pytest.mark.parametrize("text", ["a", "a/b", "/a~", "/a~2", "/~a", "/x/~", "#/a"])
def test_invalid_pointers(text):
    with pytest.raises(CfgPatchError) as info:
        parse_pointer(text)
    assert info.value.code == "invalid pointer"


def test_key_literally_named_tilde_one_is_reachable():
    doc = {"~1": "tilde-one", "/": "slash"}
    assert resolve(doc, parse_pointer("/~01")) == "tilde-one"
    assert resolve(doc, parse_pointer("/~1")) == "slash"


@pytest.mark.parametrize("token", ["0", "1", "10", "999"])
def test_valid_indices(token):
    assert is_index(token)


@pytest.mark.parametrize("token", ["-1", "+1", "01", "00", "1.0", " 1", "1 ", "", "-", "１", "٣", "1e0"])
def test_invalid_indices(token):
    assert not is_index(token)


@pytest.mark.parametrize(
    "pointer,code",
    [
        ("/a/5", "path not found"),
        ("/a/-1", "invalid index"),
        ("/a/01", "invalid index"),
        ("/a/-", "invalid index"),
        ("/nope/0", "path not found"),
        ("/s/x", "path not found"),
        ("/n/0", "path not found"),
        ("/a/x/0", "invalid index"),  # the first failing token decides
    ],
)
def test_walking_errors(pointer, code):
    doc = {"a": [1, 2], "s": "text", "n": None}
    with pytest.raises(CfgPatchError) as info:
        resolve(doc, parse_pointer(pointer))
    assert info.value.code == code


def test_proper_prefix_is_token_by_token():
    assert is_proper_prefix(["a"], ["a", "b"])
    assert not is_proper_prefix(["a"], ["ab"])
    assert not is_proper_prefix(["a"], ["a"])


def test_split_annotation_key_gets_a_corrected_pointer():
    annotations = {"kubernetes.io/ingress.class": "nginx"}
    tokens = parse_pointer("/metadata/annotations/kubernetes.io/ingress.class")
    assert (
        suggest_split_key(annotations, tokens, 2)
        == "/metadata/annotations/kubernetes.io~1ingress.class"
    )
    with pytest.raises(CfgPatchError) as info:
        resolve({"metadata": {"annotations": annotations}}, tokens)
    assert "kubernetes.io~1ingress.class" in info.value.hint


def test_split_key_followed_by_more_tokens():
    obj = {"a/b": {"c": 1}}
    assert suggest_split_key(obj, ["a", "b", "c"], 0) == "/a~1b/c"
    assert suggest_split_key(obj, ["x", "y"], 0) is None


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(max_size=6), max_size=6))
def test_format_then_parse_round_trips(tokens):
    assert parse_pointer(format_pointer(tokens)) == tokens


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=10))
def test_escape_round_trips(token):
    assert unescape_token(escape_token(token)) == token
    assert "/" not in escape_token(token)


def test_new_domain_key_split_by_slash_gets_a_hint():
    tokens = parse_pointer("/metadata/labels/app.kubernetes.io/name")
    with pytest.raises(CfgPatchError) as info:
        resolve({"metadata": {"labels": {}}}, tokens)
    assert "/metadata/labels/app.kubernetes.io~1name" in info.value.hint


def test_index_below_never_converts_an_index_longer_than_the_size():
    from cfgpatch.pointer import index_below

    assert index_below("1" * 100_000, 10) is None
    assert index_below("9", 10) == 9
    assert index_below("10", 10) is None
    assert index_below("0", 0) is None


class _Counting:
    """A stand-in pattern counting its searches."""

    def __init__(self, pattern):
        self.pattern, self.searched = pattern, 0

    def search(self, text):
        self.searched += 1
        return self.pattern.search(text)


def test_a_pointer_is_split_once_and_each_call_gets_its_own_list(monkeypatch):
    import re

    from cfgpatch import pointer

    counting = _Counting(re.compile(r"~(?![01])"))
    monkeypatch.setattr(pointer, "_BAD_ESCAPE", counting)
    monkeypatch.setattr(pointer, "_PARSED", {})
    first = parse_pointer("/x~1y/0")
    first.append("changed")
    assert parse_pointer("/x~1y/0") == ["x/y", "0"] and counting.searched == 1
    long = "/" + "a" * pointer.PARSED_CHARS
    parse_pointer(long)
    parse_pointer(long)
    assert counting.searched == 3  # a long pointer is not kept
    with pytest.raises(CfgPatchError):
        parse_pointer("/a~2")
    with pytest.raises(CfgPatchError):
        parse_pointer("/a~2")  # a refusal is not kept either
    monkeypatch.setattr(pointer, "PARSED_POINTERS", 3)
    for index in range(10):
        parse_pointer(f"/{index}")
        assert len(pointer._PARSED) <= 3


def test_a_checked_operation_is_an_immutable_tuple():
    from cfgpatch.jsonpatch import check_operation

    op = check_operation({"op": "move", "from": "/a~1b", "path": "/c", "value": 1})
    assert isinstance(op, tuple) and (op.op, op.path, op.from_) == ("move", ["c"], ["a/b"])
    with pytest.raises(AttributeError):
        op.op = "copy"  # type: ignore[misc]
