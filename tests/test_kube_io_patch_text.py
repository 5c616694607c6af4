"""kube/io/patch_text.py: the patch text up to YAML nodes as go-yaml v2 reads it.

The whole behaviour is held to kubectl by the recorded corpus in
``test_kube_io_reader_patch_text.py``; these are the pieces, with the facts measured
there written out.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.compat import word
from cfgpatch.kube.io import patch_text, reader


def test_a_tab_in_a_json_patch_is_read_as_kubectl_reads_it() -> None:
    """Issue 16: JSON arrays go through YAML, where tabs separate flow tokens."""
    text = '[\t{"op":\t"add", "path": "/data/c",\t"value": "d"}]\t\n'
    assert reader.load_patch(text, "json")[0] == [{"op": "add", "path": "/data/c",
                                                  "value": "d"}]
    assert reader.load_patch("[\n\t{\n\t\t\"op\": \"remove\",\n\t\t\"path\": \"/a\"\n\t}\n]",
                             "json")[0] == [{"op": "remove", "path": "/a"}]


@pytest.mark.parametrize(("text", "value"), [
    ("data:\n  c:\td\n", {"data": {"c": "d"}}),         # after a simple key's ':'
    ("data:\n  c: a\tb\n", {"data": {"c": "a\tb"}}),    # inside a plain scalar
    ("data:\n  c: d\t\n", {"data": {"c": "d"}}),        # after a value
    ("data: {c:\td}\n", {"data": {"c": "d"}}),          # flow context
    ("data:\n  c: d\n---\n[", {"data": {"c": "d"}}),    # a second document is not parsed
    ("[1]x", [1]),                                      # nor what follows the first value
    ('c: "\\\'"', {"c": "'"}),                          # \' is an escape in go-yaml v2
    ("c: !!str\td\n", {"c": "d"}),                      # after a tag
    ("c: |-\t# x\n  d\n", {"c": "d"}),                  # after a block scalar's indicators
    ("c: |\n  a\tb\n  \td\n", {"c": "a\tb\n\td\n"}),   # inside a block scalar's content
    ("a: &v one\nb: &v two\nc: *v\n", {"a": "one", "b": "two", "c": "two"}),  # latest anchor
    ("a: &v one\nb: *v\nc: [x, &v two]\nd: *v\n",
     {"a": "one", "b": "one", "c": ["x", "two"], "d": "two"}),
])
def test_go_yaml_reads(text: str, value: object) -> None:
    assert reader.load_patch(text, "merge")[0] == value


@pytest.mark.parametrize(("text", "message"), [
    ("data:\n\tc: d\n", "found character that cannot start any token"),  # indentation
    ('c: "\\/"', "found unknown escape character"),
    ("%YAML 1.2\n---\na: b", "yaml: found incompatible YAML document"),
    ("%FOO x\n---\na: b", "yaml: found unknown directive name"),
    ("data:\n  c: a\n\tb\n", "found a tab character that violates indentation"),
    ("a:\n  [b]: c", 'yaml: invalid map key: []interface {}{"b"}'),
    ("data:\n  c: d\nx", "yaml: line 4: could not find expected ':'"),
    ("'", 'unable to parse "\'": yaml: found unexpected end of stream'),
    ("c: |\n\td\n", "yaml: line 2: found a tab character where an indentation space is expected"),
    ("c: |\n  \td\n", "yaml: line 2: found a tab character where an indentation space is expected"),
    ("c: |\n  d\n\te: f\n", "yaml: line 3: found a tab character where an indentation space "
     "is expected"),
    ('x: 1\nc: "\\U00110000"\n', "yaml: line 2: found invalid Unicode character escape code"),
    ("a: &v [*v]\n", "yaml: anchor 'v' value contains itself"),
    ("x: &v 1\na: &v {b: [*v]}\n", "yaml: anchor 'v' value contains itself"),  # the latest
    ("x: 1\nc: |x\n", "yaml: line 2: did not find expected comment or line break"),
    ("x: 1\nc: *[\n", "yaml: line 2: did not find expected alphabetic or numeric character"),
    ("x: 1\nc: !<a>d\n", "yaml: line 2: did not find expected whitespace or line break"),
    ("%YAML 1.1\n", "yaml: line 1: did not find expected <document start>"),
])
def test_go_yaml_refuses(text: str, message: str) -> None:
    with pytest.raises(KubeError) as err:
        reader.load_patch(text, "merge")
    assert message in err.value.message


@pytest.mark.parametrize(("data", "message"), [
    (b"a: \xff", "invalid leading UTF-8 octet"),
    (b"a: caf\xe9", "incomplete UTF-8 octet sequence"),
    (b'a: "caf\xe9"\n', "invalid trailing UTF-8 octet"),
    (b"a: \xc0\xaf", "invalid length of a UTF-8 sequence"),
    (b"a: \xed\xa0\x80", "invalid Unicode character"),
    (b"a: \x01", "control characters are not allowed"),
])
def test_bytes_go_yaml_refuses(data: bytes, message: str) -> None:
    text, unread = patch_text.decode_bytes(data)
    assert data.startswith(text.encode()) and len(text) < len(data)
    assert unread is not None and word(unread.problem) == f"yaml: {message}"
    with pytest.raises(KubeError) as err:
        reader.load_patch(data, "strategic")
    assert err.value.message == f"unable to parse {patch_text.go_quote_bytes(data)}: " \
                                f"yaml: {message}"


def test_a_self_containing_anchor_is_found_only_through_its_own_value() -> None:
    loader = reader._patch_loader_class()
    for text, found in (("a: &v [*v]\n", "v"), ("a: &v [&v x, *v]\n", None),
                        ("a: &v [x]\nb: [*v]\n", None), ("a: &w {b: &v [*w]}\n", "w")):
        assert patch_text.self_containing_anchor(patch_text.compose_first(text, loader)) == found


def test_bad_bytes_past_the_chunks_the_scanner_reads_are_never_seen() -> None:
    data = b"a: b\n---\n" + b"# pad\n" * 100 + b"x: \xff\n"
    assert patch_text.decode_bytes(data)[1].char == patch_text.CHUNK
    assert reader.load_patch(data, "merge")[0] == {"a": "b"}
    with pytest.raises(KubeError) as err:
        reader.load_patch(b"a: [\n" + b"# pad\n" * 100 + b"\xff]", "merge")
    assert err.value.message.endswith("yaml: invalid leading UTF-8 octet")


def test_utf16_and_byte_order_marks() -> None:
    body = "data:\n  c: d\n"
    for data in (b"\xff\xfe" + body.encode("utf-16-le"), b"\xfe\xff" + body.encode("utf-16-be"),
                 b"\xef\xbb\xbf" + body.encode()):
        assert reader.load_patch(data, "merge")[0] == {"data": {"c": "d"}}


def test_a_patch_file_is_quoted_as_empty_and_may_be_empty() -> None:
    assert reader.load_patch(b"", "merge", shown="")[0] is None
    with pytest.raises(KubeError) as err:
        reader.load_patch(b"", "merge")
    assert err.value.message.startswith("must specify --patch")
    with pytest.raises(KubeError) as err:
        reader.load_patch(b"a: [", "merge", shown="")
    assert err.value.message.startswith('unable to parse "": yaml:')


def test_json_prefix_is_gos_white_space_then_a_brace() -> None:
    assert patch_text.has_json_prefix(b"\xc2\xa0\xe3\x80\x80\n{")
    assert not patch_text.has_json_prefix("\x1c{")  # Python's isspace, not Go's
    assert not patch_text.has_json_prefix("\ufeff{")
    assert not patch_text.has_json_prefix(b"")


def _go_unquote(quoted: str) -> bytes:
    """Go's strconv.Unquote, for the escapes go_quote writes."""
    singles = {"a": b"\a", "b": b"\b", "f": b"\f", "n": b"\n", "r": b"\r", "t": b"\t",
               "v": b"\v", '"': b'"', "\\": b"\\"}
    out, body, at = b"", quoted[1:-1], 0
    while at < len(body):
        if body[at] != "\\":
            out, at = out + body[at].encode("utf-8", "surrogatepass"), at + 1
        elif body[at + 1] in singles:
            out, at = out + singles[body[at + 1]], at + 2
        else:
            size = {"x": 2, "u": 4, "U": 8}[body[at + 1]]
            code = int(body[at + 2:at + 2 + size], 16)
            out += bytes([code]) if size == 2 else chr(code).encode("utf-8", "surrogatepass")
            at += 2 + size
    return out


@given(st.binary(max_size=40) | st.text(max_size=20).map(lambda t: t.encode("utf-8", "replace")))
def test_go_quote_bytes_reads_back_to_the_bytes(data: bytes) -> None:
    quoted = patch_text.go_quote_bytes(data)
    assert quoted.startswith('"') and quoted.endswith('"')
    assert _go_unquote(quoted) == data


@given(st.text(max_size=60))
def test_text_go_yaml_accepts_decodes_to_itself(text: str) -> None:
    decoded, unread = patch_text.decode_bytes(text.encode("utf-8", "surrogatepass"))
    if unread is None:
        assert decoded == text.removeprefix("\ufeff")
    else:
        assert text.startswith(decoded)
