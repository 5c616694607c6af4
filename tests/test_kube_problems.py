"""The readers' problems as values (``cfgpatch.kube.problems``), and the split between
reading (``kube/io``, ``kube/go``: records, no words) and wording (``kube/compat``).

The words themselves are held to kubectl's by the recorded-corpus tests
(test_kube_io_*, test_cli_kube*, ...); here: the records carry what and where.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube import compat, problems
from cfgpatch.kube.go import jsondecode
from cfgpatch.kube.io import kyaml_read, reader, yamlbytes
from cfgpatch.kube.problems import (
    BadBytes,
    Decoding,
    JsonSyntax,
    MissingKind,
    Parsing,
    ProblemError,
    Unmarshal,
    YamlSyntax,
)
from phrase_support import string_literals

KUBE = Path(__file__).resolve().parent.parent / "src" / "cfgpatch" / "kube"


def _problem(call, *args):
    with pytest.raises(KubeError) as info:
        call(*args)
    assert isinstance(info.value, ProblemError), info.value.message
    return info.value


def test_invalid_utf8_in_a_patch():
    error = _problem(reader.load_patch, b"a: 1\nb: \xff\n")
    problem = error.problem
    assert isinstance(problem, Parsing) and problem.code == "patch"
    assert problem.cause == BadBytes("invalid-leading-utf8", 8, 2, 4)
    assert error.message == 'unable to parse "a: 1\\nb: \\xff\\n": yaml: invalid leading UTF-8 octet'


def test_utf16_with_a_lone_low_surrogate():
    data = "\ufeffa: b\n".encode("utf-16-le") + b"\x00\xdc"
    text, unread = yamlbytes.decode_bytes(data)
    assert text == "a: b\n" and unread is not None
    assert unread.problem == BadBytes("unexpected-low-surrogate", 12, 2, 1)
    assert compat.word(unread.problem) == "yaml: unexpected low surrogate area"


def test_a_control_character_in_the_object_file():
    error = _problem(reader.load_object, "kind: A\nname: x\x01y\n", "o.yaml")
    assert error.problem == Parsing("o.yaml", "yaml", BadBytes("control-character", 15, 2, 8))
    assert error.message == ("error parsing o.yaml: error converting YAML to JSON: yaml: "
                             "control characters are not allowed")


def test_bad_indentation():
    error = _problem(reader.load_object, "kind: A\nspec:\n  a: 1\n b: 2\n", "o.yaml")
    problem = error.problem
    assert problem.source == "o.yaml" and problem.code == "yaml"
    cause = problem.cause
    assert isinstance(cause, YamlSyntax) and cause.stage == "parser"
    assert (cause.line, cause.column) == (3, 1)  # from 0, as YAML marks count
    assert error.message.startswith("error parsing o.yaml: error converting YAML to JSON: "
                                    "yaml: line ")


def test_a_label_of_the_wrong_type():
    error = _problem(reader.load_object,
                     "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    a: 1\n", "p.yaml")
    assert error.problem == Decoding("p.yaml", Unmarshal("number", "string",
                                                         "ObjectMeta.metadata.labels"))
    assert error.message == ('unable to decode "p.yaml": json: cannot unmarshal number into '
                             "Go struct field ObjectMeta.metadata.labels of type string")


def test_malformed_json_carries_line_and_column():
    error = _problem(reader.load_object, '{"kind": "A",\n  "b": }', "o.json")
    cause = error.problem.cause
    assert cause == JsonSyntax("value", ord("}"), 22, 2, 8)
    assert error.message == ("error parsing o.json: json: offset 22: invalid character '}' "
                             "looking for beginning of value")


def test_no_kind():
    error = _problem(reader.load_object, "apiVersion: v1\n", "o.yaml")
    assert error.problem == Decoding("o.yaml", MissingKind('{"apiVersion":"v1"}'))


def test_kustomize_reading_carries_the_record():
    with pytest.raises(KubeError) as info:
        kyaml_read.read_documents("a: b\nc: \x01\n", "k.yaml")
    assert info.value.problem == BadBytes("control-character", 8, 2, 4)
    assert info.value.message == "yaml: control characters are not allowed"


def test_without_compat_the_records_are_described_not_worded():
    problem = Decoding("p.yaml", Unmarshal("number", "string", "ObjectMeta.metadata.labels"))
    error = ProblemError(problem)
    try:
        problems.use_wording(problems.describe)
        assert "cannot unmarshal" not in error.message
        assert error.message == ("decoding(source='p.yaml', cause=unmarshal(json_type='number', "
                                 "go_type='string', field='ObjectMeta.metadata.labels', "
                                 "number=None))")
    finally:
        problems.use_wording(compat.word)
    assert error.message.startswith('unable to decode "p.yaml": json: cannot unmarshal')


def test_a_message_set_by_a_caller_wins():
    error = ProblemError(MissingKind("null"))
    error.message = "x: " + error.message
    assert error.message == "x: Object 'Kind' is missing in 'null'"


@given(st.binary(max_size=40).filter(lambda b: not b.startswith((b"\xff\xfe", b"\xfe\xff"))))
def test_refused_bytes_are_placed_after_the_text_read(data):
    text, unread = yamlbytes.decode_bytes(data)
    if unread is None:
        return
    problem = unread.problem
    assert problem.code in compat.goyaml._BYTES
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    assert problem.offset == start + len(text.encode("utf-8"))
    assert (problem.line, problem.column) == (text.count("\n") + 1,
                                               len(text) - text.rfind("\n"))


@given(st.text(alphabet='{}[]":, \n0123456789truefalsn\\-.eE', max_size=30))
def test_json_syntax_records_point_at_the_offending_byte(text):
    data = text.encode()
    error = jsondecode.syntax_error(data)
    if error is None:
        return
    problem = error.problem
    if problem.code == "end":
        assert problem.offset == len(data) and problem.byte is None
    else:
        assert data[problem.offset - 1] == problem.byte
        assert (problem.line, problem.column) == problems.line_column(data, problem.offset - 1)
    assert compat.word(problem) == error.message


#: Phrases of kubectl's, go-yaml's and Go's error texts: they belong in kube/compat.
WORDING = ("cannot unmarshal", "yaml: line", "invalid character", "is missing in",
           "UTF-8 octet", "UTF-16", "surrogate area", "control characters are not allowed",
           "unexpected end of JSON input", "unable to decode", "error converting YAML",
           "error parsing", "looking for beginning", "unable to parse", "did not find expected",
           "unexpected EOF", "unable to get type info", "cannot decode !!", "map merge requires",
           "invalid map key", "unsupported map key", "invalid base64", "value contains itself",
           "anchor refers to itself", "invalid map merge", "duplicate merge key",
           # kubectl's document reader and command, kustomize's reader
           "invalid Yaml document separator", "invalid document separator",
           "must specify --patch", "invalid JSON document", "Invalid JSON Patch",
           "unable to match a printer", "no objects passed to patch", "already defined at line")
# (PyYAML-style scanner problems the GoYamlMixin raises, such as "found invalid Unicode
# character escape code", are the scanner's vocabulary that YamlSyntax.problem carries.)


@pytest.mark.parametrize("path", sorted([*KUBE.glob("io/*.py"), *KUBE.glob("go/*.py"),
                                         KUBE / "problems.py"]), ids=lambda p: p.name)
def test_readers_hold_no_tool_wording(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in string_literals(tree):
        for phrase in WORDING:
            assert phrase not in node.value, (
                f"{path.relative_to(KUBE)}:{node.lineno} holds {phrase!r}: return a record of "
                "cfgpatch.kube.problems and word it in cfgpatch.kube.compat")


def test_the_wording_check_would_find_a_phrase():
    tree = ast.parse('"""yaml: line 1 in a docstring is fine"""\nx = f"json: cannot unmarshal {k}"\n')
    assert [n.value for n in string_literals(tree)] == ["json: cannot unmarshal "]


def test_compat_words_every_phrase_it_owns():
    text = "".join(path.read_text(encoding="utf-8") for path in KUBE.glob("compat/**/*.py"))
    for phrase in WORDING:
        assert phrase in text, phrase
