"""Which kubectl the page answers as, and the recorded differences of 1.27-1.33
(cfgpatch.web.versions, table generated from the recorded corpora)."""

from __future__ import annotations

import json

from cfgpatch.web.versions import differences, span, versions_view
from cfgpatch.web.versions_table import DIFFERENCES, MESSAGES
from conftest import ROOT

DEPLOYMENT = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "x"}}


def test_a_field_older_kubectls_do_not_know():
    found = differences(DEPLOYMENT, {"spec": {"template": {"spec": {"resources": {}}}}},
                        "strategic")
    assert [(d["versions"], d["said"]) for d in found] == [
        ("1.27", 'error: unable to find api field in struct PodSpec for the json field '
                 '"resources"')]
    assert differences(DEPLOYMENT, {"spec": {"replicas": 2}}, "strategic") == []
    assert differences(DEPLOYMENT, {"spec": {"template": {"spec": {"resources": {}}}}},
                       "merge") == []


def test_a_kind_older_kubectls_cannot_strategic_merge():
    obj = {"apiVersion": "admissionregistration.k8s.io/v1alpha1",
           "kind": "MutatingAdmissionPolicy"}
    found = differences(obj, {"metadata": {"labels": {"a": "b"}}}, "strategic")
    assert found[0]["versions"] == "1.27\u20131.31"
    assert "strategic merge patch is not supported" in found[0]["said"]
    assert versions_view(obj, {}, "strategic")["answers_as"] == "1.32"


def test_the_table_is_the_recorded_corpora():
    """Every entry is a recorded case whose answers differ from kubectl 1.32's."""
    cases = {}
    for corpus in ("older-gvks", "schema-shapes"):
        for line in (ROOT / "tests/data/kube" / corpus / "cases.jsonl").read_text().splitlines():
            case = json.loads(line)
            cases.setdefault((case["api_version"], case["kind"], case["path"]), []).append(case)
    for key, answers in DIFFERENCES.items():
        assert key in cases
        assert len(set(answers.values())) > 1
        assert all(0 <= index < len(MESSAGES) for index in answers.values())


def test_span():
    assert span(["1.27", "1.28", "1.29", "1.33"]) == "1.27\u20131.29 and 1.33"
    assert span(["1.27", "1.29"]) == "1.27 and 1.29"
