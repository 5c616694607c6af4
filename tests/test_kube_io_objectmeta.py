"""The object file's ``metadata`` read into kubectl's typed ObjectMeta, held to kubectl.

``tests/data/kube/object-meta/cases.jsonl`` is recorded by
``scripts/record_kube_object_meta.py`` from kubectl 1.32 (1.27 and 1.33 alike, or stored
where not): every typed ObjectMeta field, and every scalar field of ``ownerReferences`` /
``managedFields`` elements, given each JSON type, as JSON and as YAML.  Each case is
replayed through ``cfgpatch kube patch``: same exit code, same standard output, standard
error starting with kubectl's.  Known gaps are listed in :data:`NOT_MODELLED`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_support import run_kube_in_folder

DATA = Path(__file__).resolve().parent / "data" / "kube" / "object-meta"
CASES = [json.loads(line) for line in
         (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line]
#: Where cfgpatch does not (yet) answer as kubectl, and what kubectl does there: a
#: non-integer number in an int64 field (refused, Go quoting the number as written:
#: "cannot unmarshal number 1.5 into ..."), a timestamp text that is not RFC 3339
#: (refused: "parsing time "s" as ..."), ``namespace: null`` (accepted, but kubectl's
#: output leaves the null namespace out).
NOT_MODELLED = {f"{name}-{suffix}" for name in ("generation-float",
                                                 "deletionGracePeriodSeconds-float",
                                                 "deletionTimestamp-string", "namespace-null")
                for suffix in ("json", "yaml")}


def run_cfgpatch(case: dict) -> dict:
    return run_kube_in_folder({case["file"]: case["object"]}, case["argv"])


def test_recording_refuses_most_and_covers_both_formats() -> None:
    assert len(CASES) > 300
    assert {c["file"] for c in CASES} == {"obj.json", "obj.yaml"}
    refused = [c for c in CASES if c["kubectl"]["1.32"]["exit_code"] != 0]
    assert len(refused) > 200
    assert any("OwnerReference.metadata.ownerReferences.uid of type types.UID"
               in c["kubectl"]["1.32"]["stderr"] for c in refused)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_matches_kubectl(case: dict) -> None:
    ours, kubectl = run_cfgpatch(case), case["kubectl"]["1.32"]
    if case["id"] in NOT_MODELLED:
        assert ours["exit_code"] == 0 and ours["stdout"] != kubectl["stdout"]
        return
    assert ours["exit_code"] == kubectl["exit_code"], (ours["stderr"], kubectl["stderr"])
    assert ours["stdout"] == kubectl["stdout"]
    assert ours["stderr"].startswith(kubectl["stderr"]), ours["stderr"]


# ---------------------------------------------------------------- check_metadata itself


def test_first_problem_follows_the_text_order_or_the_sorted_order():
    from cfgpatch.errors import KubeError
    from cfgpatch.kube.io.objectmeta import check_metadata

    obj = {"apiVersion": "v1", "metadata": {"name": 5, "labels": {"a": 1}}}
    with pytest.raises(KubeError) as as_written:
        check_metadata(obj, "f.json", ordered=True)
    assert "field ObjectMeta.metadata.name of type string" in as_written.value.message
    with pytest.raises(KubeError) as sorted_:  # YAML: kubectl's JSON has sorted keys
        check_metadata(obj, "f.yaml")
    assert "cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of " \
           "type string" in sorted_.value.message
    assert "quote them" in sorted_.value.hint


def test_good_metadata_and_nulls_pass():
    from cfgpatch.kube.io.objectmeta import check_metadata

    check_metadata({"apiVersion": "v1", "metadata": {
        "name": "x", "labels": {"a": "b", "n": None}, "generation": 3, "uid": None,
        "ownerReferences": [{"name": "o", "controller": True}, None],
        "finalizers": ["f"]}}, "f.json")
    check_metadata({"apiVersion": None, "metadata": None}, "f.json")
