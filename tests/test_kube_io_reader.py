"""Reading objects and patches, and printing results, exactly as ``kubectl patch`` does.

Expectations come from kubectl 1.32 (``tests/data/kube/cases`` and the notes in
``docs/kube-inputs.md``); the live test at the end asks kubectl itself.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.engine import jsonpatch, mergepatch
from cfgpatch.kube.go import yaml as goyaml
from cfgpatch.kube.io import reader, writer
from conftest import require

CASES = Path(__file__).resolve().parent / "data" / "kube" / "cases"
HEAD = "apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\n"


def spec(body: str) -> tuple[dict, list]:
    obj, notes = reader.load_object(HEAD + "spec:\n" + body)
    return obj["spec"], notes


@pytest.mark.parametrize(("written", "value"), [
    ("yes", True), ("Yes", True), ("YES", True), ("y", True), ("Y", True), ("on", True),
    ("On", True), ("true", True), ("True", True), ("no", False), ("n", False), ("N", False),
    ("off", False), ("OFF", False), ("false", False), ("~", None), ("null", None),
    ("Null", None), ("", None), ("010", 8), ("0755", 493), ("08", 8), ("0x1F", 31),
    ("0o17", 15), ("0b101", 5), ("1_000", 1000), ("+1", 1), ("-0", 0), ("1e3", 1000),
    ("1.5e-7", 1.5e-7), (".5", 0.5), ("1.0", 1), ("1.10", 1.1),
    ("9223372036854775808", 9223372036854775808.0), ("yEs", "yEs"), ("NaN", "NaN"),
    ("2024-01-01", "2024-01-01"), ("12:30", "12:30"), ("0x", "0x"), ("1e400", "1e400"),
    ("abc", "abc"), ("1.2.3", "1.2.3"),
])
def test_plain_scalars_read_as_kubectl_does(written: str, value: object) -> None:
    got, _ = spec(f"  v: {written}\n")
    assert got["v"] == value
    assert type(got["v"]) is type(value)


def test_quoted_and_tagged_scalars_stay_as_written() -> None:
    got, notes = spec('  a: "yes"\n  b: \'010\'\n  c: !!str 1e3\n  d: !!float 1\n  e: |\n    x\n'
                      "  f: !!binary aGVsbG8=\n")
    assert got == {"a": "yes", "b": "010", "c": "1e3", "d": 1, "e": "x\n", "f": "hello"}
    assert notes == []


def test_type_notes_name_each_changed_scalar() -> None:
    _, notes = spec("  enabled: yes\n  mode: 0755\n  count: 3\n  flag: true\n  tilde: ~\n"
                    "  big: 12345678901234567890\n  on: x\n")
    got = {(n.pointer, n.written, n.where) for n in notes}
    assert got == {("/spec/enabled", "yes", "value"), ("/spec/mode", "0755", "value"),
                   ("/spec/tilde", "~", "value"), ("/spec/big", "12345678901234567890", "value"),
                   ("/spec/true", "on", "key")}
    assert next(n for n in notes if n.where == "key").value == "true"


def test_keys_become_strings() -> None:
    got, _ = spec("  yes: a\n  1: b\n  1.5: c\n  off: d\n")
    assert got == {"true": "a", "1": "b", "1.5": "c", "false": "d"}


def test_null_key_is_refused_with_kubectl_text() -> None:
    with pytest.raises(KubeError) as info:
        reader.load_object(HEAD + "spec:\n  ~: x\n", "o.yaml")
    assert info.value.message == ('error parsing o.yaml: error converting YAML to JSON: '
                                  'unsupported map key of type: %!s(<nil>), key: <nil>, '
                                  'value: "x"')


def test_merge_keys_and_anchors() -> None:
    got, _ = spec("  base: &b {a: 1, b: 2}\n  child:\n    <<: *b\n    b: 3\n")
    assert got["child"] == {"a": 1, "b": 3}
    # go-yaml v2 applies members in order: a merge overwrites a key written before it,
    # and in a list of maps the first map wins (both checked against kubectl)
    got, _ = spec("  b: &b {a: 1, c: 3}\n  o: &o {a: 9, d: 4}\n  p:\n    a: 0\n    <<: *b\n"
                  "  q:\n    <<: [*b, *o]\n    c: 5\n")
    assert (got["p"], got["q"]) == ({"a": 1, "c": 3}, {"a": 1, "c": 5, "d": 4})


def test_an_anchor_defined_again_replaces_the_earlier_one() -> None:
    # kubectl 1.27-1.33 (tests/data/kube/object-text: anchor-*): the latest wins
    got, _ = spec("  a: &v one\n  b: *v\n  c: &v two\n  d: *v\n")
    assert got == {"a": "one", "b": "one", "c": "two", "d": "two"}
    with pytest.raises(KubeError) as info:
        spec("  a: &v one\n  b: &v [*v]\n")
    assert info.value.message.endswith("yaml: anchor 'v' value contains itself")


@pytest.mark.parametrize(("body", "value"), [
    ("  a: x\t# note\n", {"a": "x"}),
    ("  a:\tx\n", {"a": "x"}),
    ("  a: x\ty\n", {"a": "x\ty"}),
    ("  a: {b:\tc,\td: e}\n", {"a": {"b": "c", "d": "e"}}),
    ("  a: !!str\t1\n", {"a": "1"}),
    ('  a: "x\\\'y"\n', {"a": "x'y"}),
    ('  a: "\\e\\N\\_\\L\\P\\x41\\u00e9\\U0001F600\\ "\n',
     {"a": "\x1b\x85\xa0\u2028\u2029A\u00e9\U0001F600 "}),
])
def test_the_object_file_is_read_by_go_yamls_rules(body: str, value: dict) -> None:
    assert spec(body)[0] == value


def test_the_last_line_of_the_file_ends_as_kubectl_reads_it() -> None:
    # kubectl's line reader ends every line with \n: a literal block on the last line of
    # a file without a final newline keeps one (lines-eof-* in tests/data/kube/object-text)
    assert spec("  a: |\n    x")[0] == {"a": "x\n"}  # the line by line reader
    assert spec("  z: &v [1]\n  a: |\n    x")[0] == {"z": [1], "a": "x\n"}  # the full one
    # the -p text goes to go-yaml as it is
    assert reader.load_patch("data:\n  c: |\n    x", "merge")[0] == {"data": {"c": "x"}}


def test_json_file_is_read_as_json() -> None:
    obj, notes = reader.load_object('{"apiVersion":"v1","kind":"K","v":1.0,"d":1,"d":2,'
                                    '"big":18446744073709551616}')
    assert (obj["v"], obj["d"], obj["big"], notes) == (1, 2, 18446744073709551616.0, [])


@pytest.mark.parametrize(("text", "message"), [
    ("", "no objects passed to patch"),
    ("# nothing\n", "no objects passed to patch"),
    ("apiVersion: v1\nmetadata:\n  name: x\n",
     "unable to decode \"o.yaml\": Object 'Kind' is missing in "
     "'{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}'"),
    ("- a\n", 'unable to decode "o.yaml": json: cannot unmarshal array into Go value of type '
     "unstructured.detector"),
    ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    on: yes\n",
     'unable to decode "o.yaml": json: cannot unmarshal bool into Go struct field '
     "ObjectMeta.metadata.labels of type string"),
    ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 5\n",
     'unable to decode "o.yaml": json: cannot unmarshal number into Go struct field '
     "ObjectMeta.metadata.name of type string"),
    ("apiVersion: v1\nkind: ConfigMap\nmetadata: [1]\n",
     'unable to decode "o.yaml": json: cannot unmarshal array into Go struct field '
     "metadataOnlyObject.metadata of type v1.ObjectMeta"),
    ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n b: c\n",
     "error parsing o.yaml: error converting YAML to JSON: yaml: line 4: did not find "
     "expected key"),
    ('{"apiVersion":"v1",\n"kind":"K",}', "error parsing o.yaml: json: offset 32: invalid "
     "character '}' looking for beginning of object key string"),
    (HEAD + "spec:\n  v: .nan\n",
     "error parsing o.yaml: error converting YAML to JSON: json: unsupported value: NaN"),
    (HEAD + 'spec:\n  v: "a\\/b"\n',
     "error parsing o.yaml: error converting YAML to JSON: yaml: line 6: found unknown escape "
     "character"),
    (HEAD + "spec:\n\tv: x\n", "error parsing o.yaml: error converting YAML to JSON: yaml: "
     "line 6: found character that cannot start any token"),
    ("%YAML 1.1\n---\n" + HEAD, "error parsing o.yaml: error converting YAML to JSON: yaml: "
     "line 1: did not find expected <document start>"),
    ("# c\n%TAG !e! tag:e.com,2000:\n---\n" + HEAD, "error parsing o.yaml: error converting "
     "YAML to JSON: yaml: line 2: did not find expected <document start>"),
    ("---x\n" + HEAD, "error parsing o.yaml: invalid Yaml document separator: x"),
    ("---\n---\n" + HEAD + "a: [\n", "error parsing o.yaml: error converting YAML to JSON: "
     "yaml: line 5: did not find expected node content"),  # lines count from the piece
])
def test_object_errors(text: str, message: str) -> None:
    with pytest.raises(KubeError) as info:
        reader.load_object(text, "o.yaml")
    assert info.value.message == message


def test_multiple_documents_are_refused_by_the_one_object_reader() -> None:
    two = HEAD + "---\n" + HEAD
    with pytest.raises(KubeError) as info:
        reader.load_object(two, "o.yaml")
    assert info.value.code == "multiple documents"
    assert "each object" in info.value.hint
    one, _ = reader.load_object("---\n" + HEAD + "---\n")  # empty documents are skipped
    assert reader.load_object("---\n%YAML 1.1\n---\n" + HEAD)[0] == one  # an empty piece
    assert reader.load_object(HEAD + "...\nx: [\n")[0] == one  # past the first document
    assert one["kind"] == "Thing"


@pytest.mark.parametrize(("text", "ptype", "value"), [
    ('{"a":1.0,"b":[1,2]}', "merge", {"a": 1.0, "b": [1, 2]}),
    ('  {"a":1}', "merge", {"a": 1}),
    ("a: yes", "merge", {"a": True}),
    ('[{"op":"test","path":"/x","value":1.0}]', "json",
     [{"op": "test", "path": "/x", "value": 1}]),
    ("- op: add\n  path: /x\n  value: on\n", "json", [{"op": "add", "path": "/x", "value": True}]),
    ("spec: {replicas: 5} # comment", "strategic", {"spec": {"replicas": 5}}),
    ("~", "merge", None),
])
def test_patch_reading(text: str, ptype: str, value: object) -> None:
    assert reader.load_patch(text, ptype)[0] == value


def test_yaml_patch_keys_come_sorted_as_from_go_json() -> None:
    """kubectl turns a YAML patch into JSON through a Go map: keys sorted by bytes, which
    decides whether $deleteFromPrimitiveList/f or f is usually handled first."""
    patch, _ = reader.load_patch("metadata:\n  finalizers: [b]\n  $deleteFromPrimitiveList/"
                                 "finalizers: [c]\n  B: 1\n", "strategic")
    assert list(patch["metadata"]) == ["$deleteFromPrimitiveList/finalizers", "B", "finalizers"]
    json_patch, _ = reader.load_patch('{"b": 1, "a": 2}', "strategic")
    assert list(json_patch) == ["b", "a"]  # JSON text keeps its order


@pytest.mark.parametrize(("text", "ptype", "message"), [
    ("", "merge", "must specify --patch or --patch-file containing the contents of the patch"),
    ('{"a":1,}', "strategic", "invalid JSON document"),
    ('{"a":1,}', "merge", "Invalid JSON Patch"),
    ('{"a":1,}', "json", "invalid character '}' looking for beginning of object key string"),
    ('{"a":', "json", "unexpected end of JSON input"),
    ("a: [1, 2", "merge", 'unable to parse "a: [1, 2": yaml: line 1: did not find expected '
     "',' or ']'"),
    ("a: *x", "merge", "unable to parse \"a: *x\": yaml: unknown anchor 'x' referenced"),
    ("a: b: c", "merge", 'unable to parse "a: b: c": yaml: mapping values are not allowed in '
     "this context"),
])
def test_patch_errors(text: str, ptype: str, message: str) -> None:
    with pytest.raises(KubeError) as info:
        reader.load_patch(text, ptype)
    assert info.value.message == message


def test_dump_drops_managed_fields_only_when_printing() -> None:
    obj = {"apiVersion": "v1", "kind": "K",
           "metadata": {"name": "x", "managedFields": [{"manager": "kubectl"}]}}
    assert "managedFields" not in writer.dump(obj, "json")
    assert "managedFields" not in writer.dump(obj, "yaml")
    assert obj["metadata"]["managedFields"]


def test_yaml_printer_style() -> None:
    obj = {"kind": "K", "spec": {
        "k10": 1, "k9": 2, "a_b": 3, "aB": 4, "y": "y", "on": "on", "date": "2024-01-01",
        "hash": "#x", "lead": " x", "empty": "", "multi": "a\nb\n", "trail": "a  \nb",
        "emoji": "ok 😀", "ls": "a\u2028b", "float": 1e21, "small": 1e-7, "mid": 1234567.5,
        "big": 2.0**64, "list": [], "map": {}, "nested": [{"a": 1}, [1, 2]],
        "long": "word " * 20 + "end"}}
    # kubectl 1.32 printed exactly this for the same object
    assert writer.dump(obj, "yaml") == (
        "kind: K\n"
        "spec:\n"
        "  a_b: 3\n"
        "  aB: 4\n"
        "  big: 1.8446744073709552e+19\n"
        '  date: "2024-01-01"\n'
        '  emoji: "ok \\U0001F600"\n'
        '  empty: ""\n'
        "  float: 1e+21\n"
        "  hash: '#x'\n"
        "  k9: 2\n"
        "  k10: 1\n"
        "  lead: ' x'\n"
        "  list: []\n"
        "  long: word word word word word word word word word word word word word word word\n"
        "    word word word word word end\n"
        "  ls: 'a\u2028    b'\n"
        "  map: {}\n"
        "  mid: 1.2345675e+06\n"
        "  multi: |\n"
        "    a\n"
        "    b\n"
        "  nested:\n"
        "  - a: 1\n"
        "  - - 1\n"
        "    - 2\n"
        '  "on": "on"\n'
        "  small: 1e-07\n"
        '  trail: "a  \\nb"\n'
        '  "y": "y"\n'
    )


def test_yaml_printer_refuses_what_go_yaml_cannot_read() -> None:
    with pytest.raises(KubeError) as info:
        writer.dump({"kind": "K", "x": "a\x7fb"}, "yaml")
    assert info.value.message == "yaml: control characters are not allowed"
    assert writer.dump({"kind": "K", "x": "a\x85b"}, "yaml") == "kind: K\nx: a b\n"


# --- the recorded corpus through these modules (json and merge types) --------------------


def _recorded(ptype: str) -> list[dict]:
    cases = [json.loads(p.read_text()) for p in sorted(CASES.glob("*.json"))]
    return [c for c in cases if c["type"] == ptype]


def _replay(case: dict) -> tuple[str, str, int]:
    apply = {"json": jsonpatch.apply, "merge": mergepatch.apply}[case["type"]]
    try:
        obj, _ = reader.load_object(case["object"], case["manifest"])
        patch, _ = reader.load_patch(case["patch"], case["type"])
        return writer.dump(apply(obj, patch), case["output"]), "", 0
    except KubeError as err:
        if err.code == "kubectl crash":
            return "", err.message + "\n", 2
        if err.code == "kubectl unprefixed":  # kubectl prints it without "error: "
            return "", err.message + "\n", 1
        return "", f"error: {err.message}\n", 1


@pytest.mark.parametrize("case", _recorded("json") + _recorded("merge"), ids=lambda c: c["id"])
def test_recorded_case(case: dict) -> None:
    assert _replay(case) == (case["stdout"], case["stderr"], case["exit_code"])


# --- round trips -----------------------------------------------------------------------------

_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x85"),
                max_size=12).filter(lambda s: not goyaml.NOT_YAML.search(s))
_scalar = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), _text,
                    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: f != 0))
_value = st.recursive(_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_text, inner, max_size=3)), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(_text, _value, max_size=4).filter(lambda d: "<<" not in json.dumps(d)))
def test_printed_output_reads_back(spec_value: dict) -> None:
    # (a "<<" key is printed plain by kubectl too, and then reads back as a merge key)
    obj = mergepatch.apply({"apiVersion": "v1", "kind": "Thing"}, {"spec": spec_value})
    for fmt in ("json", "yaml"):
        again, _ = reader.load_object(writer.dump(obj, fmt))
        assert again == obj


# --- live: kubectl itself reads and prints random documents -------------------------------

_WORDS = ["yes", "no", "on", "Off", "y", "~", "", "010", "0x1F", "08", "1e3", "1_000", "+1",
          "-0", "1.0", "2024-01-01", "12:30", "abc", "a: b", "#x", " lead", "x" * 90,
          "word " * 18, "multi\nline\n", "trail  \nx", "é", "emoji 😀", "<&>", "k10", "k9",
          "9223372036854775808", "1e21", "0.000001", "it's", "\u2028", "\ufeffbom", "-"]


def _random_document(rnd: random.Random) -> str:
    lines = [HEAD.rstrip("\n"), "spec:"]
    # keys that stay distinct after kubectl turns them into strings (keys that collide,
    # such as 1.0 and +1, come out in Go's random map order)
    keys = ["yes", "Off", "010", "1e3", "+1", "abc", "k10", "k9", "port9", "port10", "a_b",
            "aB", "2024-01-01", "12:30", "é", "0x1F", "1.5"]
    for index, key in enumerate(rnd.sample(keys, rnd.randint(3, 9))):
        value = rnd.choice(_WORDS)
        if rnd.random() < 0.5 or not value.strip() or "\n" in value or value[0] in "#-" \
                or ": " in value or value != value.strip():
            value = json.dumps(value, ensure_ascii=rnd.random() < 0.3)
        lines.append(f"  {key}{index}: {value}" if rnd.random() < 0.2 else f"  {key}: {value}")
    return "\n".join(lines) + "\n"


def test_live_reading_and_printing_match_kubectl() -> None:
    kubectl = shutil.which("kubectl")
    require(kubectl is not None, "kubectl not installed")
    rnd = random.Random(20261202)
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(30):
            text = _random_document(rnd)
            (Path(folder) / "doc.yaml").write_text(text)
            output = rnd.choice(["json", "yaml"])
            proc = subprocess.run([kubectl, "patch", "--local", "-f", "doc.yaml", "--type",
                                   "merge", "-p", "{}", "-o", output], cwd=folder,
                                  capture_output=True, text=True, timeout=60)
            case = {"type": "merge", "object": text, "manifest": "doc.yaml", "patch": "{}",
                    "output": output}
            assert _replay(case) == (proc.stdout, proc.stderr, proc.returncode), text


@pytest.mark.parametrize("text", ["kind: K\nx: " + "[" * 3000 + "]" * 3000,
                                  '{"kind":"K","x":' + "[" * 3000 + "]" * 3000 + "}"])
def test_very_deep_nesting_is_a_clear_error(text: str) -> None:
    for load in (lambda: reader.load_object(text), lambda: reader.load_patch(text, "merge")):
        with pytest.raises(KubeError) as info:
            load()
        assert info.value.code == "nesting too deep"


def test_junk_input_raises_only_kube_errors() -> None:
    rnd = random.Random(7)
    pieces = list("ab:{}[]-,#&*!|>'\"%@` \n\t~0189.eE+_x\\") + [
        "yes", "kind: K\n", "<<", "---\n", "\u2028", "\x85", "\x7f", "\ufeff", "? "]
    for _ in range(400):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        for load, args in ((reader.load_object, (text,)), (reader.load_patch, (text, "json"))):
            try:
                value = load(*args)[0]
            except KubeError:
                continue
            if isinstance(value, dict):
                writer.dump(value, "yaml")


def test_an_object_with_items_is_read_as_a_list() -> None:
    one = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n"
           "  metadata: {name: a}\n")
    assert reader.load_object(one)[0] == {"apiVersion": "v1", "kind": "ConfigMap",
                                          "metadata": {"name": "a"}}
    inferred = "apiVersion: v1\nkind: PodList\nitems:\n- metadata: {name: p}\n  x: yes\n"
    obj, notes = reader.load_object(inferred)
    assert obj["kind"] == "Pod"
    assert [(n.pointer, n.written) for n in notes] == [("/x", "yes")]
    for empty in ("apiVersion: v1\nkind: List\nitems: []\n",
                  "apiVersion: v1\nkind: ConfigMap\nitems: null\n"):
        with pytest.raises(KubeError) as info:
            reader.load_object(empty)
        assert info.value.message == "no objects passed to patch"
    with pytest.raises(KubeError) as info:
        reader.load_object("apiVersion: v1\nkind: List\nitems: [1]\n", "l.yaml")
    assert info.value.message == ('unable to decode "l.yaml": json: cannot unmarshal number '
                                  "into Go value of type map[string]interface {}")


def test_inputs_fail_in_kubectl_order() -> None:
    bad_object = "kind: ["
    good_object = HEAD
    # a YAML patch that does not parse wins over a bad object (kubectl converts it first)
    with pytest.raises(KubeError) as info:
        reader.load_inputs(bad_object, "o.yaml", "a: [", "merge")
    assert info.value.message.startswith('unable to parse "a: ["')
    # a bad object wins over a JSON patch that does not parse (parsed only when applied)
    with pytest.raises(KubeError) as info:
        reader.load_inputs(bad_object, "o.yaml", '{"a":1,}', "merge")
    assert info.value.message.startswith("error parsing o.yaml")
    # ... and the check runs before the JSON patch error
    def unsupported(obj: dict) -> None:
        raise KubeError(f"not supported: {obj['kind']}")

    with pytest.raises(KubeError) as info:
        reader.load_inputs(good_object, "o.yaml", '{"a":1,}', "strategic", unsupported)
    assert info.value.message == "not supported: Thing"
    with pytest.raises(KubeError) as info:
        reader.load_inputs(good_object, "o.yaml", '{"a":1,}', "strategic")
    assert info.value.message == "invalid JSON document"
    obj, _, patch, _ = reader.load_inputs(good_object, "o.yaml", "spec: {a: on}", "merge")
    assert (obj["kind"], patch) == ("Thing", {"spec": {"a": True}})


def test_printer_details_checked_against_kubectl() -> None:
    # an empty key is a simple key; a kept-newline block at the end gets no "..." marker;
    # a string starting with a BOM is escaped in full (NBSP as \_)
    obj = {"kind": "K", "s": {"": "x", "z": "a\n\n"}, "t": "\ufeffa\xa0"}
    assert writer.dump(obj, "yaml") == (
        'kind: K\ns:\n  "": x\n  z: |+\n    a\n\nt: "\\uFEFF\\x61\\_"\n')


def test_composing_then_converting_is_load_object_in_two_steps():
    text = "---\n# empty document first\n---\napiVersion: v1\nkind: ConfigMap\ndata:\n  on: yes\n  n: 012\n"
    nodes = reader.compose_documents(text)
    assert reader.object_from_nodes(nodes) == reader.load_object(text)
    obj, notes = reader.object_from_nodes(nodes)
    assert obj["data"] == {"true": True, "false": 10}  # what kubectl 1.32 prints for this file
    assert [(n.pointer, n.written) for n in notes] == [
        ("/data/true", "on"), ("/data/true", "yes"), ("/data/false", "n"), ("/data/false", "012")]
    with pytest.raises(KubeError) as info:
        reader.compose_documents("a: [1, 2\n", source="obj.yaml")
    assert info.value.message.startswith("error parsing obj.yaml: error converting YAML to JSON: yaml:")


def test_load_objects_reads_on_after_an_object_error_and_stops_at_a_syntax_error() -> None:
    text = (HEAD + "---\n" + "metadata: {name: n}\n---\n"
            + "kind: ConfigMapList\napiVersion: v1\nitems: [{metadata: {name: i}}]\n"
            + "---\n" + HEAD + "x: [\n---\n" + HEAD)
    items = reader.load_objects(text, "o.yaml")
    first = next(items)
    assert first[0] == reader.load_object(HEAD)[0]
    assert "Object 'Kind' is missing" in next(items).message
    listed = next(items)
    assert listed[0] == {"metadata": {"name": "i"}, "apiVersion": "v1", "kind": "ConfigMap"}
    with pytest.raises(KubeError) as info:
        next(items)
    assert info.value.message.startswith("error parsing o.yaml: error converting YAML to JSON")


def test_load_objects_reads_a_json_stream() -> None:
    text = '{"apiVersion":"v1","kind":"A","metadata":{"name":"a"}} ["x"] {"apiVersion":'
    items = reader.load_objects(text, "o.json")
    assert next(items)[0]["kind"] == "A"
    assert "cannot unmarshal array" in next(items).message
    with pytest.raises(KubeError) as info:
        next(items)
    assert info.value.message == "error parsing o.json: unexpected EOF"
