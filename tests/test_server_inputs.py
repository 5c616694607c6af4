"""Request checks: names, versions, If-Match, entity tags, content types, raw targets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError
from cfgpatch.server.inputs import (
    check_message,
    check_name,
    entity_tags,
    parse_if_match,
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


@pytest.mark.parametrize(("header", "version"),
                         [(None, None), ("*", None), (' "3" ', 3), ("3", 3), ('"12"', 12)])
def test_if_match(header, version):
    assert parse_if_match(header) == version


@pytest.mark.parametrize("header", ['"0"', '"-1"', 'W/"1"', '"1", "2"', '"01"', "x", '""'])
def test_bad_if_match(header):
    with pytest.raises(CfgPatchError) as caught:
        parse_if_match(header)
    assert caught.value.code == "invalid arguments"


def test_versions_and_tags():
    assert parse_version("7", "version") == 7
    for bad in ("0", "-1", "1e3", " 1", "07", "9" * 19):
        with pytest.raises(CfgPatchError):
            parse_version(bad, "version")
    assert entity_tags(None) == []
    assert entity_tags('W/"1", "2"') == ['"1"', '"2"']


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
