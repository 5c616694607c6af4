"""Request checks: names, versions, If-Match, entity tags, content types, raw targets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError
from cfgpatch.preconditions import TagList
from cfgpatch.server.inputs import (
    check_message,
    check_name,
    parse_tag_list,
    parse_version,
    raw_target_error,
)


@pytest.mark.parametrize("name", ["cfg", "team-a.gateway_v2", "A", "9", "a" * 200, "a..b"])
def test_good_names(name):
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["", ".", "..", ".x", "-x", "a/b", "a\\b", "a b", "é",
                                  "a" * 201, "a@1", "a\x00"])
def test_bad_names(name):
    with pytest.raises(CfgPatchError) as caught:
        check_name(name)
    assert caught.value.code == "invalid name"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_accepted_names_cannot_leave_their_folder(name):
    try:
        check_name(name)
    except CfgPatchError:
        return
    assert "/" not in name and "\\" not in name and not name.startswith(".")
    assert name.isascii() and name.isprintable() and "@" not in name


@pytest.mark.parametrize(("lines", "tags"), [
    ([], None),
    (["*"], TagList(any=True)),
    ([" * "], TagList(any=True)),
    (['"3"'], TagList(strong=frozenset({3}))),
    ([' "3" , W/"4"'], TagList(strong=frozenset({3}), weak=frozenset({4}))),
    (['"3"', 'W/"3"'], TagList(strong=frozenset({3}), weak=frozenset({3}))),  # two lines
    (['"0", "01", "abc", ""'], TagList()),   # valid tags that name no version
    (['"a,b", , "7",'], TagList(strong=frozenset({7}))),
    ([""], TagList()),
])
def test_tag_lists(lines, tags):
    assert parse_tag_list(lines, "If-Match") == tags


@pytest.mark.parametrize("header", ["3", '"3', 'w/"3"', 'W/ "3"', '"3" "4"', '*, "3"', "**",
                                    '"a"b"', b'"\x7f"'.decode("unicode_escape")])
def test_bad_tag_lists(header):
    with pytest.raises(CfgPatchError) as caught:
        parse_tag_list([header], "If-Match")
    assert caught.value.code == "invalid arguments"


_TAGS = st.tuples(st.booleans(), st.one_of(st.integers(1, 10**6).map(str),
                                           st.text("abc019,/", max_size=4)))


@settings(max_examples=300, deadline=None)
@given(st.lists(_TAGS, max_size=6), st.sampled_from([",", ", ", " ,\t", ",,"]))
def test_every_listed_version_is_found(tags, separator):
    text = separator.join(('W/' if weak else "") + f'"{tag}"' for weak, tag in tags)
    parsed = parse_tag_list([text], "If-None-Match")
    def versions(weak):
        return {int(t) for w, t in tags if w == weak and t.isdigit() and t[0] != "0"}
    assert parsed == TagList(strong=frozenset(versions(False)), weak=frozenset(versions(True)))


def test_versions():
    assert parse_version("7", "version") == 7
    for bad in ("0", "-1", "1e3", " 1", "07", "9" * 19):
        with pytest.raises(CfgPatchError):
            parse_version(bad, "version")


def test_messages():
    assert check_message(None, 10) is None
    assert check_message("", 10) is None
    assert check_message("two\nlines\tok", 20) == "two\nlines\tok"
    for bad in ("x" * 11, "bell\x07", "nul\x00", "del\x7f"):
        with pytest.raises(CfgPatchError):
            check_message(bad, 10)


@pytest.mark.parametrize(("raw_path", "query", "refused"), [
    (b"/v1/documents/cfg", b"version=1", False),
    (b"/v1/documents/a%2Fb", b"", True),
    (b"/v1/documents/a%2fb", b"", True),
    (b"/v1/documents/a%5Cb", b"", True),
    (b"/v1/documents/%00", b"", True),
    (b"/v1/documents/../x", b"", True),
    (b"/v1/documents/./x", b"", True),
    (b"/v1/documents/%FF", b"", True),
    (b"/v1/documents/cfg", b"message=%C3%A9", False),
    (b"/v1/documents/cfg", b"message=%C3", True),
])
def test_raw_targets(raw_path, query, refused):
    error = raw_target_error({"raw_path": raw_path, "query_string": query})
    assert (error is not None) == refused


class _Unsearchable:
    def search(self, text):
        raise AssertionError(f"searched {text!r}")


@pytest.mark.parametrize(("raw_path", "query"), [
    (b"/v1/documents/cfg", b""), (b"/v1/documents/cfg", b"force=1&message=a+b"), (b"/", b""),
])
def test_a_plain_target_is_passed_without_a_search(monkeypatch, raw_path, query):
    from cfgpatch.server import inputs

    monkeypatch.setattr(inputs, "_RAW_PATH_FORBIDDEN", _Unsearchable())
    assert raw_target_error({"raw_path": raw_path, "query_string": query}) is None


def test_a_request_without_conditions_shares_the_empty_preconditions():
    from starlette.requests import Request

    from cfgpatch.preconditions import NONE
    from cfgpatch.server.inputs import preconditions

    plain = {"type": "http", "headers": [(b"content-type", b"application/json")]}
    assert preconditions(Request(plain)) is NONE
    tagged = {"type": "http", "headers": [(b"if-match", b'"3"')]}
    assert preconditions(Request(tagged)).if_match is not None
