"""The document model kubectl's JSON Patch library walks: indices, escapes, containers."""

from __future__ import annotations

import pytest

from cfgpatch.kube.engine.jsonpatch_doc import (
    GoError,
    add_in,
    atoi,
    decode_key,
    find_container,
    get_in,
    remove_in,
)


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("+7", 7), ("-12", -12), ("007", 7)])
def test_atoi(text: str, value: int) -> None:
    assert atoi(text) == value


@pytest.mark.parametrize(("text", "error"), [
    ("", 'strconv.Atoi: parsing "": invalid syntax'),
    ("1.0", 'strconv.Atoi: parsing "1.0": invalid syntax'),
    ("9223372036854775808", 'strconv.Atoi: parsing "9223372036854775808": value out of range'),
])
def test_atoi_errors_are_go_texts(text: str, error: str) -> None:
    with pytest.raises(GoError) as info:
        atoi(text)
    assert str(info.value) == error


def test_escapes_are_decoded_in_one_pass() -> None:
    assert decode_key("kubernetes.io~1ingress.class") == "kubernetes.io/ingress.class"
    assert decode_key("a~0b") == "a~b"
    assert decode_key("~01") == "~1"
    assert decode_key("a~2b") == "a~2b"


def test_negative_indices_count_from_the_end() -> None:
    items = ["a", "b", "c"]
    assert get_in(items, "-1") == "c"
    add_in(items, "-1", "x")  # -1 of the list grown by one: appends
    assert items == ["a", "b", "c", "x"]
    remove_in(items, "-4")
    assert items == ["b", "c", "x"]
    with pytest.raises(GoError, match="invalid index referenced"):
        get_in(items, "3")


def test_find_container_ignores_the_first_segment() -> None:
    root = [{"data": {"k": 1}}]
    assert find_container(root, "/data/k") == ({"k": 1}, "k")
    assert find_container(root, "data/k") == (root[0], "k")  # the first segment is skipped
    assert find_container(root, "nopath") is None
