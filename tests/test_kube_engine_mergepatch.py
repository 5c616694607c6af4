"""kubectl's JSON Merge Patch (evanphx/json-patch v4.12.0), checked against kubectl's answers
(``shared/k8s/lab`` cases M01-M09 and our recordings) and against RFC 7386."""

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

from cfgpatch.errors import KubeError
from cfgpatch.kube.engine import mergepatch
from cfgpatch.kube.io import reader, writer
from cfgpatch.kube.io.unstructured import normalize
from cfgpatch.mergepatch import apply_merge_patch
from conftest import require
from kube_support import kubectl_patch_local

DOC = {
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {"name": "c"},
    "data": {"k": "v"},
    "list": ["a", "b", "c"],
    "n": {"i": 1, "f": 1.5},
}


def test_null_deletes_and_missing_null_is_a_no_op() -> None:  # M01, M02
    assert mergepatch.apply(DOC, {"data": {"k": None}})["data"] == {}
    assert mergepatch.apply(DOC, {"data": {"nope": None}})["data"] == {"k": "v"}


def test_lists_are_replaced() -> None:  # M03
    assert mergepatch.apply(DOC, {"list": ["z"]})["list"] == ["z"]


def test_nulls_inside_arrays_of_objects_are_dropped() -> None:  # M04, M05
    assert mergepatch.apply(DOC, {"nest": [{"a": {"b": None}}]})["nest"] == [{"a": {}}]
    assert mergepatch.apply(DOC, {"list": [None, {"a": None}]})["list"] == [None, {}]


def test_value_replacing_an_object_keeps_its_nulls() -> None:
    # an existing object replaced by a non-object: the library stores the value untouched
    assert mergepatch.apply(DOC, {"n": [{"a": None}]})["n"] == [{"a": None}]


def test_object_replaces_scalar_and_empty_patch() -> None:  # M07, M09
    assert mergepatch.apply(DOC, {"n": {"i": {"x": 1}}})["n"]["i"] == {"x": 1}
    assert mergepatch.apply(DOC, {"data": {}})["data"] == {"k": "v"}
    assert mergepatch.apply(DOC, {}) == DOC


def test_metadata_null_deletes_metadata() -> None:  # M08
    assert "metadata" not in mergepatch.apply(DOC, {"metadata": None})


@pytest.mark.parametrize(("patch", "message"), [
    ([1, 2], "json: cannot unmarshal array into Go value of type unstructured.detector"),  # M06
    (None, "Invalid JSON Patch"),
    ("text", "Invalid JSON Patch"),
    (5, "Invalid JSON Patch"),
    ({"kind": None}, "Object 'Kind' is missing in "
     "'{\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"list\":[\"a\",\"b\",\"c\"],"
     "\"metadata\":{\"name\":\"c\"},\"n\":{\"f\":1.5,\"i\":1}}'"),
])
def test_errors(patch: object, message: str) -> None:
    with pytest.raises(KubeError) as info:
        mergepatch.apply(DOC, patch)
    assert info.value.message == message


def test_inputs_are_not_mutated() -> None:
    before, patch = copy.deepcopy(DOC), {"n": {"i": None}, "x": [{"a": None}]}
    patch_before = copy.deepcopy(patch)
    mergepatch.apply(DOC, patch)
    assert (DOC, patch) == (before, patch_before)


def test_negative_zero_in_a_json_patch_text_survives() -> None:
    # kubectl keeps the merge patch's own JSON text: -0.0 prints as -0
    result = mergepatch.apply(DOC, {"z": -0.0})
    assert str(result["z"]) == "-0.0"


def test_departures_names_the_values_kubectl_changes() -> None:
    assert mergepatch.departures(DOC, {"nest": [{"a": None}], "data": {"x": None}}) == ["/nest"]
    assert mergepatch.departures(DOC, {"n": [{"a": None}]}) == []
    assert mergepatch.departures(DOC, {"list": [None, 1]}) == []


# --- property: RFC 7386 plus the null rule ----------------------------------------------

_keys = st.sampled_from(["a", "b", "c", "kind2"])
_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text("xy", max_size=2))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=3)), max_leaves=10)
_docs = st.dictionaries(_keys, _values, max_size=4).map(lambda d: {**d, "kind": "K"})
_patches = st.dictionaries(_keys, _values, max_size=4)


@settings(max_examples=300, deadline=None)
@given(_docs, _patches)
def test_matches_rfc7386_except_where_departures_says(doc: dict, patch: dict) -> None:
    ours = mergepatch.apply(doc, patch)
    rfc = normalize(apply_merge_patch(doc, patch))
    assert (ours == rfc) == (not mergepatch.departures(doc, patch))
    assert ours == normalize(apply_merge_patch(doc, _rfc_view(doc, patch)))


def _rfc_view(doc: object, patch: object) -> object:
    """The patch rewritten so RFC 7386 gives kubectl's result: prune where kubectl prunes."""
    if not isinstance(patch, dict):
        return patch
    out = {}
    for key, value in patch.items():
        current = doc.get(key) if isinstance(doc, dict) else None
        if isinstance(current, dict) and isinstance(value, dict):
            out[key] = _rfc_view(current, value)
        elif isinstance(current, dict) or value is None:
            out[key] = value
        else:
            out[key] = mergepatch.prune_nulls(value)
    return out


# --- live: random merge patches through real kubectl --------------------------------------

_LIVE_DOC = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
             "spec": {"a": {"x": 1, "y": [1, {"q": None}]}, "b": [1, 2], "c": "s", "d": None}}


def _random_patch(rnd: random.Random, depth: int = 0) -> object:
    if depth > 2 or rnd.random() < 0.35:
        return rnd.choice([None, "x", 1, 1.5, True, [None, {"a": None}], [1, 2], {"z": None},
                           [{"a": {"b": None}}], {}, -0.0])
    keys = ["a", "b", "c", "d", "e", "x", "y"]
    return {rnd.choice(keys): _random_patch(rnd, depth + 1) for _ in range(rnd.randint(1, 3))}


def test_live_random_merge_patches_match_kubectl() -> None:
    kubectl = shutil.which("kubectl")
    require(kubectl is not None, "kubectl not installed")
    rnd = random.Random(7386)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "doc.json").write_text(json.dumps(_LIVE_DOC))
        for _ in range(40):
            text = json.dumps({"spec": _random_patch(rnd)})
            proc = kubectl_patch_local(kubectl, folder, "merge", text)
            try:
                patch, _ = reader.load_patch(text, "merge")
                got = (writer.dump(mergepatch.apply(_LIVE_DOC, patch), "json"), "", 0)
            except KubeError as err:
                got = ("", f"error: {err.message}\n", 1)
            assert got == (proc.stdout, proc.stderr, proc.returncode), text
