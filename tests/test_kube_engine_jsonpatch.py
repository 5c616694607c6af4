"""kubectl's JSON Patch (evanphx/json-patch v4.12.0): results and exact error texts.

The expectations are kubectl 1.32's answers (``shared/k8s/lab/log-1.32.txt`` and our own
recordings in ``tests/data/kube/cases``).
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError, KubeError
from cfgpatch.jsonpatch import apply_patch
from cfgpatch.kube.engine import jsonpatch
from cfgpatch.kube.io import reader, writer
from cfgpatch.kube.io.unstructured import normalize
from conftest import require
from kube_support import kubectl_patch_local

DOC = {
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {"name": "c", "annotations": {"kubernetes.io/ingress.class": "nginx",
                                              "a~b": "tilde", "~1": "lit"}},
    "data": {"k": "v"},
    "list": ["a", "b", "c"],
    "n": {"i": 1, "f": 1.5, "t": True, "z": 0, "arr": [1]},
}


def run(*ops: dict) -> dict:
    return jsonpatch.apply(DOC, list(ops))


def error(*ops: dict) -> KubeError:
    with pytest.raises(KubeError) as info:
        jsonpatch.apply(DOC, list(ops))
    return info.value


@pytest.mark.parametrize(("path", "expected"), [
    ("/list/01", ["a", "X", "b", "c"]),       # J01: leading zero accepted
    ("/list/+1", ["a", "X", "b", "c"]),       # J08: plus sign accepted
    ("/list/-1", ["a", "b", "c", "X"]),       # J03: -1 appends
    ("/list/-3", ["a", "X", "b", "c"]),       # J06
    ("/list/-4", ["X", "a", "b", "c"]),       # J07
    ("/list/3", ["a", "b", "c", "X"]),        # J09
    ("/list/-", ["a", "b", "c", "X"]),        # J11
])
def test_add_index_forms(path: str, expected: list) -> None:
    assert run({"op": "add", "path": path, "value": "X"})["list"] == expected


def test_replace_and_remove_negative_index() -> None:
    assert run({"op": "replace", "path": "/list/-1", "value": "X"})["list"] == ["a", "b", "X"]
    assert run({"op": "remove", "path": "/list/-1"})["list"] == ["a", "b"]
    assert run({"op": "replace", "path": "/list/01", "value": "X"})["list"] == ["a", "X", "c"]


@pytest.mark.parametrize(("op", "message"), [
    ({"op": "add", "path": "/list/4", "value": "X"},
     "error in add for path: '/list/4': Unable to access invalid index: 4: invalid index "
     "referenced"),
    ({"op": "remove", "path": "/list/-"},
     "error in remove for path: '/list/-': strconv.Atoi: parsing \"-\": invalid syntax"),
    ({"op": "replace", "path": "/list/-", "value": "X"},
     "Object to be patched is missing field (/list/-: missing value)"),
    ({"op": "remove", "path": "/list/3"},
     "error in remove for path: '/list/3': Unable to access invalid index: 3: invalid index "
     "referenced"),
    ({"op": "replace", "path": "/list/3", "value": "X"},
     "Object to be patched is missing field (/list/3: missing value)"),
    ({"op": "add", "path": "/list/1.0", "value": "X"},
     "error in add for path: '/list/1.0': value was not a proper array index: '1.0': "
     "strconv.Atoi: parsing \"1.0\": invalid syntax"),
    ({"op": "add", "path": "/list/99999999999999999999", "value": 1},
     "error in add for path: '/list/99999999999999999999': value was not a proper array "
     "index: '99999999999999999999': strconv.Atoi: parsing \"99999999999999999999\": value "
     "out of range"),
    ({"op": "test", "path": "/n/i", "value": True}, "testing value /n/i failed: test failed"),
    ({"op": "test", "path": "/n/z", "value": False}, "testing value /n/z failed: test failed"),
    ({"op": "test", "path": "/n/i", "value": "1"}, "testing value /n/i failed: test failed"),
    ({"op": "test", "path": "/n/i"}, "testing value /n/i failed: test failed"),
    ({"op": "test", "path": "", "value": {"a": 1}}, "testing value  failed: test failed"),
    ({"op": "move", "from": "/n", "path": "/n/child"},
     "move operation does not apply: doc is missing destination path: /n/child: missing "
     "value"),
    ({"op": "move", "from": "/data/nope", "path": "/data/x"},
     "error in move for path: 'nope': Unable to remove nonexistent key: nope: missing value"),
    ({"op": "replace", "path": "/metadata/annotations/kubernetes.io/ingress.class",
      "value": "x"},
     "replace operation does not apply: doc is missing path: "
     "/metadata/annotations/kubernetes.io/ingress.class: missing value"),
    ({"op": "add", "path": "/metadata/annotations/kubernetes.io/ingress.class", "value": "x"},
     'add operation does not apply: doc is missing path: '
     '"/metadata/annotations/kubernetes.io/ingress.class": missing value'),
    ({"op": "remove", "path": "/metadata/annotations/kubernetes.io/ingress.class"},
     'remove operation does not apply: doc is missing path: '
     '"/metadata/annotations/kubernetes.io/ingress.class": missing value'),
    ({"op": "add", "path": "/metadata/labels/app", "value": "x"},
     'add operation does not apply: doc is missing path: "/metadata/labels/app": missing '
     'value'),
    ({"op": "remove", "path": "/metadata/labels"},
     "error in remove for path: '/metadata/labels': Unable to remove nonexistent key: "
     "labels: missing value"),
    ({"op": "frob", "path": "/data/k"}, "Unexpected kind: frob"),
    ({"path": "/data/k"}, "Unexpected kind: unknown"),
    ({"op": "add", "value": 1}, "add operation failed to decode path: missing value"),
    ({"op": "replace", "path": 5, "value": 1},
     "replace operation failed to decode path: json: cannot unmarshal number into Go value "
     "of type string"),
    ({"op": "move", "path": "/x"},
     "move operation failed to decode from: operation, missing from field: missing value"),
    ({"op": "add", "path": "k2", "value": "w"},
     'add operation does not apply: doc is missing path: "k2": missing value'),
    ({"op": "add", "path": "/n/i/x", "value": 1},
     'add operation does not apply: doc is missing path: "/n/i/x": missing value'),
    ({"op": "test", "path": "/nope/x", "value": 1},
     "test operation does not apply: is missing path: /nope/x: missing value"),
    ({"op": "copy", "from": "/nope/x", "path": "/x"},
     "copy operation does not apply: doc is missing from path: /nope/x: missing value"),
])
def test_error_texts(op: dict, message: str) -> None:
    err = error(op)
    assert err.message == message
    assert err.code == "kubectl error"


def test_a_failing_test_applies_nothing() -> None:  # J22
    err = error({"op": "replace", "path": "/list/0", "value": "Z"},
                {"op": "test", "path": "/n/i", "value": 2})
    assert err.message == "testing value /n/i failed: test failed"
    assert DOC["list"] == ["a", "b", "c"]


def test_test_compares_numbers_by_their_json_text() -> None:  # J17, J40
    assert run({"op": "test", "path": "/n/i", "value": 1.0})["n"]["i"] == 1
    run({"op": "test", "path": "/n/arr", "value": [1.0]})
    run({"op": "test", "path": "/n/f", "value": 1.5})


def test_test_missing_member_equals_null() -> None:  # J21
    assert run({"op": "test", "path": "/n/nope", "value": None}) == DOC


def test_leniencies() -> None:
    assert run({"op": "replace", "path": "/metadata/nope", "value": 1})["metadata"]["nope"] == 1
    assert run({"op": "add", "path": "data/k2", "value": "w"})["k2"] == "w"       # J36
    assert run({"op": "add", "path": "/data/k3"})["data"]["k3"] is None          # J38
    assert run({"op": "copy", "from": "/data/nope", "path": "/data/x"})["data"]["x"] is None
    assert run({"op": "move", "from": "/n", "path": "/n"})["n"] == DOC["n"]       # J25
    copied = run({"op": "copy", "from": "/n", "path": "/n/child"})["n"]["child"]  # J24
    assert copied == DOC["n"]


def test_escapes_are_decoded_in_one_pass() -> None:  # J29-J32
    notes = run({"op": "replace", "path": "/metadata/annotations/~01", "value": "x"})
    assert notes["metadata"]["annotations"]["~1"] == "x"
    added = run({"op": "add", "path": "/metadata/annotations/a~2b", "value": "x"})
    assert added["metadata"]["annotations"]["a~2b"] == "x"


def test_root_replace() -> None:  # J41
    new = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "q"}}
    assert run({"op": "replace", "path": "", "value": new}) == new
    assert run({"op": "replace", "path": "", "value": 5}) == DOC  # error wraps nil: no-op
    err = error({"op": "replace", "path": "", "value": [1]})
    assert err.message == "json: cannot unmarshal array into Go value of type unstructured.detector"


def test_removing_kind_fails_to_decode() -> None:
    err = error({"op": "remove", "path": "/kind"})
    assert err.message.startswith("Object 'Kind' is missing in '{\"apiVersion\":\"v1\",")


@pytest.mark.parametrize("ops", [
    [{"op": "test", "path": "/n/arr", "value": [None]}],
    [{"op": "replace", "path": ""}],
    [{"op": "test", "path": ""}],
    [{"op": "test", "path": "/n/nope"}],
    [{"op": "add", "path": "/spec", "value": None}, {"op": "add", "path": "/spec/x", "value": 1}],
])
def test_kubectl_crashes(ops: list) -> None:
    with pytest.raises(KubeError) as info:
        jsonpatch.apply(DOC, ops)
    assert info.value.code == "kubectl crash"
    assert info.value.message.startswith("panic: runtime error")


def test_stored_null_is_not_an_original_null() -> None:
    with_null = jsonpatch.apply(DOC, [{"op": "add", "path": "/x", "value": None}])
    assert with_null["x"] is None
    # a null read from the object: a path through it is simply missing
    err = pytest.raises(KubeError, jsonpatch.apply, with_null,
                        [{"op": "add", "path": "/x/y", "value": 1}]).value
    assert err.code == "kubectl error" and "doc is missing path" in err.message
    # a stored null passes a test against null, but not a test without value
    jsonpatch.apply(DOC, [{"op": "add", "path": "/x", "value": None},
                          {"op": "test", "path": "/x", "value": None}])
    with pytest.raises(KubeError):
        jsonpatch.apply(DOC, [{"op": "add", "path": "/x", "value": None},
                              {"op": "test", "path": "/x"}])


@pytest.mark.parametrize(("ops", "message"), [
    ({"op": "add"}, "json: cannot unmarshal object into Go value of type jsonpatch.Patch"),
    ("x", "json: cannot unmarshal string into Go value of type jsonpatch.Patch"),
    (["x"], "json: cannot unmarshal string into Go value of type jsonpatch.Operation"),
    ([[1]], "json: cannot unmarshal array into Go value of type jsonpatch.Operation"),
    ([None], "Unexpected kind: unknown"),
])
def test_patch_shape(ops: object, message: str) -> None:
    with pytest.raises(KubeError) as info:
        jsonpatch.apply(DOC, ops)
    assert info.value.message == message


def test_null_patch_changes_nothing() -> None:
    assert jsonpatch.apply(DOC, None) == DOC
    assert jsonpatch.apply(DOC, []) == DOC


def test_input_is_not_mutated() -> None:
    before = copy.deepcopy(DOC)
    run({"op": "add", "path": "/list/0", "value": "q"}, {"op": "remove", "path": "/n/arr/0"})
    assert before == DOC


# --- property: where RFC 6902 succeeds on plain input, kubectl agrees ----------------------

_keys = st.sampled_from(["a", "b", "c", "d"])
_scalars = st.one_of(st.booleans(), st.integers(-1000, 1000), st.text("xyz", max_size=3),
                     st.floats(-1e3, 1e3, allow_nan=False).filter(lambda f: f != 0))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=3)), max_leaves=8)


def _pointers(value: object, base: str = "/spec") -> list[str]:
    out = [base]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _pointers(item, f"{base}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _pointers(item, f"{base}/{index}")
    return out


@st.composite
def _case(draw: st.DrawFn) -> tuple[dict, list]:
    spec = draw(st.dictionaries(_keys, _values, min_size=1, max_size=4))
    pointers = _pointers(spec)
    ops = []
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(["add", "remove", "replace", "move", "copy", "test"]))
        path = draw(st.sampled_from(pointers[1:] + [p + "/-" for p in pointers]
                                    + [p + "/e" for p in pointers]))
        op = {"op": name, "path": path}
        if name in ("move", "copy"):
            op["from"] = draw(st.sampled_from(pointers[1:]))
        if name in ("add", "replace", "test"):
            op["value"] = draw(_values)
        ops.append(op)
    return {"apiVersion": "v1", "kind": "Thing", "spec": spec}, ops


@settings(max_examples=300, deadline=None)
@given(_case())
def test_agrees_with_rfc6902_where_the_rfc_succeeds(case: tuple[dict, list]) -> None:
    doc, ops = case
    try:
        expected = apply_patch(doc, ops)
    except CfgPatchError:
        return
    assert jsonpatch.apply(doc, ops) == normalize(expected)


# --- live: random patches through real kubectl ----------------------------------------------

_LIVE_DOC = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c",
             "annotations": {"a/b": "x", "a~b": "y"}}, "list": ["a", "b", "c"],
             "nest": [[1, 2], {"k": [None, 3]}], "n": {"i": 1, "f": 1.5, "z": None, "e": {}}}
_SEGMENTS = ["list", "nest", "n", "metadata", "annotations", "i", "f", "z", "e", "k", "0", "1",
             "2", "3", "-", "-1", "-4", "01", "+1", "x", "a~1b", "a~0b", "a~2b", "", "kind"]
_LIVE_VALUES = [1, 1.0, 1.5, "a", None, True, [1], [1.0], {"a": None}, [None], {}, 0, "1"]


def _random_ops(rnd: random.Random) -> list:
    def path() -> str:
        text = "".join("/" + rnd.choice(_SEGMENTS) for _ in range(rnd.randint(0, 4)))
        return text if rnd.random() > 0.05 else text.lstrip("/")

    ops = []
    for _ in range(rnd.randint(1, 3)):
        op: dict = {"op": rnd.choice(["add", "remove", "replace", "move", "copy", "test"])}
        if rnd.random() > 0.03:
            op["path"] = path()
        if op["op"] in ("move", "copy"):
            op["from"] = path()
        if op["op"] in ("add", "replace", "test") and rnd.random() > 0.1:
            op["value"] = rnd.choice(_LIVE_VALUES)
        ops.append(op)
    return ops


def test_live_random_patches_match_kubectl() -> None:
    kubectl = shutil.which("kubectl")
    require(kubectl is not None, "kubectl not installed")
    rnd = random.Random(6902)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "doc.json").write_text(json.dumps(_LIVE_DOC))
        for _ in range(40):
            text = json.dumps(_random_ops(rnd))
            proc = kubectl_patch_local(kubectl, folder, "json", text)
            try:
                ops, _ = reader.load_patch(text, "json")
                got = (writer.dump(jsonpatch.apply(_LIVE_DOC, ops), "json"), "", 0)
            except KubeError as err:
                crash = err.code == "kubectl crash"
                got = ("", (err.message if crash else f"error: {err.message}") + "\n",
                       2 if crash else 1)
            stderr = proc.stderr.splitlines()[0] + "\n" if proc.returncode == 2 else proc.stderr
            assert got == (proc.stdout, stderr, proc.returncode), text
