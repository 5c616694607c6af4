"""Strategic merge against kubectl 1.32's recorded answers, plus invariants.

``tests/data/kube_strategic/cases.jsonl`` holds objects, patches and what kubectl
1.32 printed (result, error text or crash), recorded by
``scripts/record_kube_strategic.py``.  The live test at the end replays fresh
random cases through every kubectl found (skipped locally without kubectl,
required when ``CI=true``).
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import KubeError
from cfgpatch.kube.engine.strategic import strategic_merge
from cfgpatch.kube.go.json import go_float_g
from cfgpatch.kube.go.runtime import (
    dedupe_in_place,
    dedupe_in_place_slow,
    go_format,
    stable_sort,
)
from cfgpatch.kube.schema.node import builtin_schema

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "kube_strategic"
CASES = [json.loads(line) for line in (DATA / "cases.jsonl").read_text().splitlines() if line]

#: Where we knowingly differ from kubectl (see docs/kube-strategic.md): none at present.
KNOWN_DEVIATIONS: dict[str, str] = {}


def engine(obj: dict, patch: dict) -> dict:
    """Our answer in the recorded form."""
    node = builtin_schema().for_kind(obj.get("apiVersion", ""), obj.get("kind", ""))
    if node is None:
        api_version = obj["apiVersion"] if "/" in obj["apiVersion"] else "/" + obj["apiVersion"]
        return {"error": f"strategic merge patch is not supported for {api_version}, "
                         f"Kind={obj['kind']} locally, try --type merge"}
    try:
        result = strategic_merge(obj, patch, node)
    except KubeError as exc:
        return {"crash" if exc.code == "kubectl crash" else "error": exc.message}
    if isinstance(result.get("metadata"), dict):  # kubectl's printer drops it (kube.io.writer's job)
        result["metadata"].pop("managedFields", None)
    return {"result": result}


def recorded(case: dict) -> dict:
    return {key: case[key] for key in ("result", "error", "crash") if key in case}


def _param(case: dict):
    reason = KNOWN_DEVIATIONS.get(case["id"])
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(case, id=case["id"], marks=marks)


def test_corpus_is_large_and_varied():
    assert len(CASES) >= 400
    kinds = {"result": 0, "error": 0, "crash": 0}
    for case in CASES:
        for key in kinds:
            kinds[key] += key in case
    assert kinds["result"] > 200 and kinds["error"] > 30 and kinds["crash"] >= 1


@pytest.mark.parametrize("case", [_param(c) for c in CASES])
def test_agrees_with_kubectl(case):
    assert engine(case["object"], case["patch"]) == recorded(case)


def by_id(case_id: str) -> dict:
    return next(c for c in CASES if c["id"] == case_id)


def names(case_id: str) -> list[str]:
    out = engine(by_id(case_id)["object"], by_id(case_id)["patch"])["result"]
    return [c["name"] for c in out["spec"]["template"]["spec"]["containers"]]


def test_list_order_new_items_go_first_unless_after_an_existing_one():
    assert names("S36") == ["side", "app", "metrics"]
    assert names("S37") == ["app", "metrics", "side"]
    assert names("S38") == ["app", "side", "metrics"]
    assert names("S39") == ["metrics", "app"]


def test_set_element_order_reorders_and_inserts():
    assert names("S31") == ["metrics", "app"]
    assert names("S32") == ["app", "side", "metrics"]
    assert names("S33") == ["side", "app", "metrics"]


def test_duplicates_quirk_follows_go_slice_capacity():
    results = {c["id"]: engine(c["object"], c["patch"])["result"]["metadata"]["finalizers"]
               for c in CASES if c["id"].startswith("F14-")}
    assert results == {"F14-aa": ["c", "a"], "F14-aab": ["a", "c", "b"],
                       "F14-aba": ["a", "b", "c"], "F14-abx": ["c", "a", "b", "x"],
                       "F14-aabb": ["c", "a", "b"], "F14-baa": ["b", "a", "c"]}


def test_deletion_first_leaves_room_that_the_union_appends_into():
    """[a,a,c] minus c is a new slice of capacity 3: appending b writes into it, and the
    de-duplication's overwrite keeps a before b (kubectl: [a,b] in either order)."""
    for cid in ("primitive-fixed-0-delete-first", "primitive-fixed-1-delete-first"):
        out = engine(by_id(cid)["object"], by_id(cid)["patch"])
        assert out["result"]["metadata"]["finalizers"] == ["a", "b"]


def test_errors_carry_kubectl_text_and_a_pointer():
    case = by_id("S03")
    node = builtin_schema().for_kind("apps/v1", "Deployment")
    with pytest.raises(KubeError) as caught:
        strategic_merge(case["object"], case["patch"], node)
    assert caught.value.message == "map: map[image:x] does not contain declared merge key: name"
    assert caught.value.pointer == "/spec/template/spec/containers"
    assert caught.value.hint


def test_set_element_order_on_atomic_list_of_maps_is_a_kubectl_crash():
    case = by_id("S35")
    node = builtin_schema().for_kind("apps/v1", "Deployment")
    with pytest.raises(KubeError) as caught:
        strategic_merge(case["object"], case["patch"], node)
    assert caught.value.code == "kubectl crash"
    assert "hash of unhashable type map[string]interface {}" in caught.value.message


def test_set_element_order_holding_a_string_is_refused_in_kubectls_words():
    # tests/data/kube/cases/pod-strategic-26.json (kubectl 1.27, 1.32, 1.33): no period
    node = builtin_schema().for_kind("v1", "Pod")
    obj = {"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": "a"}]}}
    with pytest.raises(KubeError) as caught:
        strategic_merge(obj, {"spec": {"$setElementOrder/containers": ["x"]}}, node)
    assert caught.value.message == "value for key 0 is not a map"


def test_patch_that_is_not_an_object_is_refused():
    node = builtin_schema().for_kind("v1", "Namespace")
    with pytest.raises(KubeError) as caught:
        strategic_merge({"kind": "Namespace"}, [1], node)
    assert caught.value.message == "invalid JSON document"
    assert strategic_merge({"kind": "Namespace"}, None, node) == {"kind": "Namespace"}


# ------------------------------------------------------------------ invariants

SCALARS = st.one_of(st.sampled_from(["a", "b", "c"]), st.integers(0, 3), st.booleans())
CONTAINER = st.fixed_dictionaries({"name": st.sampled_from(["a", "b", "c", "d"])},
                                  optional={"image": SCALARS})
POD = st.fixed_dictionaries(
    {"apiVersion": st.just("v1"), "kind": st.just("Pod")},
    optional={"metadata": st.fixed_dictionaries({}, optional={
                  "finalizers": st.lists(st.sampled_from("abcd"), max_size=6),
                  "labels": st.dictionaries(st.sampled_from("xyz"), st.sampled_from("ab"))}),
              "spec": st.fixed_dictionaries({}, optional={
                  "containers": st.lists(CONTAINER, max_size=5),
                  "tolerations": st.lists(st.fixed_dictionaries({"key": SCALARS}), max_size=3)})})


@settings(max_examples=150, deadline=None)
@given(POD, POD)
def test_inputs_are_never_modified_and_results_repeat(obj, patch):
    node = builtin_schema().for_kind("v1", "Pod")
    before_obj, before_patch = copy.deepcopy(obj), copy.deepcopy(patch)
    try:
        first = strategic_merge(obj, patch, node)
    except KubeError as exc:
        first = exc.message
    assert obj == before_obj and patch == before_patch
    try:
        second = strategic_merge(obj, patch, node)
    except KubeError as exc:
        second = exc.message
    assert first == second


@settings(max_examples=150, deadline=None)
@given(POD)
def test_empty_patch_changes_nothing(obj):
    node = builtin_schema().for_kind("v1", "Pod")
    assert strategic_merge(obj, {}, node) == obj


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers()), max_size=90))
def test_go_stable_sort_is_a_stable_sort_for_a_proper_order(items):
    ours = list(items)
    stable_sort(ours, lambda a, b: a[0] < b[0])
    assert ours == sorted(items, key=lambda item: item[0])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from("abcde"), st.sampled_from([0, 1, 1.0, True, None])),
                max_size=30))
def test_fast_dedupe_makes_exactly_go_s_moves(items):
    fast, slow = list(items), list(items)
    assert dedupe_in_place(fast) == dedupe_in_place_slow(slow)
    assert fast == slow  # the whole array, overwritten slots included


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_go_float_text_reads_back(number):
    assert float(go_format(number)) == number == float(go_float_g(number))


def test_go_formatting_of_values():
    assert go_format({"b": [1, None], "a": {"c": True}}) == "map[a:map[c:true] b:[1 <nil>]]"
    assert [go_format(x) for x in (1.5, 1e6, 123456.0, 1e-5, 0.0001, 1e21)] == [
        "1.5", "1e+06", "123456", "1e-05", "0.0001", "1e+21"]
    assert go_format(1, "s") == "%!s(int64=1)"


# ------------------------------------------------------------------ live


def _kubectl_binaries() -> list[str]:
    found = shutil.which("kubectl")
    if not found:
        return []
    folder = Path(os.path.realpath(found)).parent
    versioned = sorted(str(p) for p in folder.glob("kubectl.1.*")
                       if p.name.split(".")[-1].isdigit() and int(p.name.split(".")[-1]) >= 28)
    return versioned or [found]


def test_live_random_cases_agree_with_installed_kubectl():
    binaries = _kubectl_binaries()
    if not binaries:
        if os.environ.get("CI") == "true":
            pytest.fail("kubectl is required in CI for the live strategic-merge check")
        pytest.skip("kubectl not installed")
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from record_kube_strategic import Generator, run_kubectl
    finally:
        sys.path.pop(0)
    gen = Generator(seed=int(os.environ.get("KUBE_LIVE_SEED", "20261202")))
    cases = [gen.case() for _ in range(12)] + [gen.list_case(["a", "b", "c"], 5)
                                               for _ in range(8)]
    disagreements = []
    for binary in binaries:
        for obj, patch in cases:
            answers = [run_kubectl(binary, obj, patch) for _ in range(2)]
            if answers[0] != answers[1]:
                continue  # kubectl itself is not deterministic here (Go map order)
            if engine(obj, patch) != answers[0]:
                disagreements.append((binary, obj, patch, answers[0]))
    assert not disagreements, json.dumps(disagreements[:3])[:2000]

