"""Kinds of older API versions, strategic-merged as kubectl's own scheme does.

kubectl 1.32 still knows ``autoscaling/v2beta2``, ``batch/v1beta1``,
``networking.k8s.io/v1alpha1`` and other API versions the current API dropped, and
patches them with the struct tags of *their* Go types (``autoscaling/v2beta2``'s
``status.conditions`` has no merge key, ``autoscaling/v2``'s merges by ``type``).
``tests/data/kube/older-gvks/cases.jsonl`` is recorded by ``scripts/record_kube_gvks.py``
from kubectl 1.32, 1.27-1.33: one case per list field of each older kind plus one per
kind touching every list, and the unversioned kinds under custom apiVersions.  Every
case is replayed through ``cfgpatch kube patch`` (no kubectl needed): the same exit
code, the same standard output byte for byte, standard error starting with kubectl's.
(A version whose error changed between repeated runs, Go's map order choosing which of
two unknown fields it names first, is listed under ``unstable``.)
The live test asks the installed kubectl binaries again for a sample (required in CI).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cfgpatch.cli import main
from conftest import require

DATA = Path(__file__).resolve().parent / "data" / "kube" / "older-gvks"
VERSIONS = ("1.32", "1.27", "1.28", "1.29", "1.30", "1.31", "1.33")
#: Runs again of a refused case whose error differs from the recording (Go's random map
#: order can pick another of two unknown fields to name; the recorder ran each 5 times).
RETRIES = 8


def load_cases() -> list[dict]:
    lines = (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


CASES = load_cases()


def argv_of(case: dict) -> list[str]:
    return [case["patch"] if arg == "{PATCH}" else arg for arg in case["argv"]]


def run_cfgpatch(case: dict) -> dict:
    """``cfgpatch kube <argv>`` in a scratch folder holding obj.json."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.json").write_text(case["object"], encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        here = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["kube", *argv_of(case)])
        finally:
            os.chdir(here)
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "exit_code": code}


def run_kubectl(kubectl: str, case: dict) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.json").write_text(case["object"], encoding="utf-8")
        proc = subprocess.run([kubectl, *argv_of(case)], cwd=folder, capture_output=True,
                              text=True, timeout=120)
    stderr = proc.stderr
    if proc.returncode == 2 and "panic:" in stderr:
        stderr = stderr[stderr.index("panic:"):].split("\n", 1)[0]
    return {"exit_code": proc.returncode, "stdout": proc.stdout, "stderr": stderr}


def answer(case: dict, version: str) -> dict:
    if version in case["kubectl"]:
        return case["kubectl"][version]
    assert version in case["same_in"], (case["id"], version)
    return case["kubectl"]["1.32"]


def assert_agrees(ours: dict, kubectl: dict) -> None:
    assert ours["exit_code"] == kubectl["exit_code"], (ours["stderr"], kubectl["stderr"])
    assert ours["stdout"] == kubectl["stdout"]
    assert ours["stderr"].startswith(kubectl["stderr"]), ours["stderr"]
    if kubectl["exit_code"] == 0:
        assert ours["stderr"] == kubectl["stderr"]


def test_recording_covers_the_older_versions() -> None:
    assert len(CASES) > 500
    api_versions = {c["api_version"] for c in CASES}
    for needed in ("autoscaling/v2beta1", "autoscaling/v2beta2", "batch/v1beta1",
                   "policy/v1beta1", "extensions/v1beta1", "apps/v1beta1", "apps/v1beta2",
                   "networking.k8s.io/v1beta1", "networking.k8s.io/v1alpha1",
                   "storage.k8s.io/v1beta1", "flowcontrol.apiserver.k8s.io/v1beta3",
                   "discovery.k8s.io/v1beta1", "events.k8s.io/v1beta1",
                   "node.k8s.io/v1beta1", "rbac.authorization.k8s.io/v1alpha1",
                   "scheduling.k8s.io/v1alpha1", "admissionregistration.k8s.io/v1beta1",
                   "coordination.k8s.io/v1beta1", "certificates.k8s.io/v1beta1",
                   "resource.k8s.io/v1alpha3", "storagemigration.k8s.io/v1alpha1"):
        assert needed in api_versions, needed
    for case in CASES:
        versions = set(case["kubectl"]) | set(case["same_in"])
        assert versions in (set(VERSIONS), {"1.32", "1.27", "1.33"}), case["id"]
        assert "1.32" not in case["unstable"], case["id"]
    merged = [c for c in CASES if c["kubectl"]["1.32"]["exit_code"] == 0]
    assert len(merged) > 0.8 * len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_matches_kubectl(case: dict) -> None:
    assert_agrees(run_cfgpatch(case), case["kubectl"]["1.32"])


def _case(case_id: str) -> dict:
    return next(c for c in CASES if c["id"] == case_id)


def test_older_versions_merge_with_their_own_tags() -> None:
    """autoscaling/v2beta2's status.conditions has no merge key (replaced); v2 has one,
    so the same patch on an autoscaling/v2 object merges (checked on our engine)."""
    case = _case("autoscaling-v2beta2-HorizontalPodAutoscaler-status.conditions")
    out = json.loads(case["kubectl"]["1.32"]["stdout"])
    assert len(out["status"]["conditions"]) == 1
    v2 = dict(case, object=case["object"].replace('"autoscaling/v2beta2"', '"autoscaling/v2"'))
    ours = json.loads(run_cfgpatch(v2)["stdout"])
    assert len(ours["status"]["conditions"]) == 2


def test_kinds_a_version_does_not_know_are_refused_by_it() -> None:
    """The recording says which versions know a kind: PodSecurityPolicy only 1.27's,
    ServiceCIDR of networking.k8s.io/v1alpha1 from 1.29 (we follow 1.32)."""
    psp = _case("policy-v1beta1-PodSecurityPolicy-all")
    assert psp["kubectl"]["1.27"]["exit_code"] == 0
    assert "not supported" in psp["kubectl"]["1.32"]["stderr"]
    cidr = _case("networking.k8s.io-v1alpha1-ServiceCIDR-all")
    assert cidr["kubectl"]["1.32"]["exit_code"] == 0
    assert "not supported" in cidr["kubectl"]["1.27"]["stderr"]


# ------------------------------------------------------------------------- live


def _binaries() -> dict[str, str]:
    found = shutil.which("kubectl")
    folder = Path(os.path.realpath(found)).parent if found else Path(".")
    return {v: str(folder / f"kubectl.{v}") for v in VERSIONS
            if (folder / f"kubectl.{v}").exists()}


def test_live_older_kinds_match_kubectl() -> None:
    """A sample of the recording asked again of every kubectl: each answers as recorded
    (but for the versions whose error was seen to change between runs), and cfgpatch as
    1.32 does now."""
    binaries = _binaries()
    require(set(binaries) == set(VERSIONS), f"kubectl {', '.join(VERSIONS)} next to the "
                                            "kubectl on PATH")
    failures = []
    for case in CASES[::17]:
        versions = set(case["kubectl"]) | set(case["same_in"])
        for version in sorted(versions - set(case["unstable"])):
            live = run_kubectl(binaries[version], case)
            recorded = answer(case, version)
            for _ in range(RETRIES if live != recorded and recorded["exit_code"] else 0):
                if run_kubectl(binaries[version], case) == recorded:
                    live = recorded  # one of the errors Go's map order chooses between
                    break
            if live != recorded:
                failures.append(f"kubectl {version} drifted from the recording: {case['id']}")
            if version == "1.32":
                try:
                    assert_agrees(run_cfgpatch(case), live)
                except AssertionError as err:
                    failures.append(f"{case['id']}: {err}")
    assert not failures, "\n".join(failures[:20])


# ------------------------------------------------------------------ kustomize's view

KYAML_PROBES = [("example.com/v1", "Status"), ("v1", "APIGroup"), ("apps/v1", "Status"),
                ("autoscaling/v2beta2", "HorizontalPodAutoscaler"),
                ("autoscaling/v2beta1", "HorizontalPodAutoscaler"),
                ("networking.k8s.io/v1alpha1", "ServiceCIDR"),
                ("storagemigration.k8s.io/v1alpha1", "StorageVersionMigration"),
                ("meta.k8s.io/v1", "Table")]
#: kubectl kustomize 1.32 (kyaml's v1.21 schema) on a finalizers patch of each probe:
#: merged (known kind) or replaced (unknown: no unversioned kinds, nothing newer than 1.21).
KYAML_KNOWS = {("autoscaling/v2beta2", "HorizontalPodAutoscaler"),
               ("autoscaling/v2beta1", "HorizontalPodAutoscaler")}


def test_kustomize_view_knows_neither_unversioned_nor_newer_kinds() -> None:
    from cfgpatch.kube.kustomize import KustomizeSchema

    schema = KustomizeSchema.builtin()
    for gvk in KYAML_PROBES:
        assert (schema.for_type(*gvk) is not None) == (gvk in KYAML_KNOWS), gvk


def test_live_kustomize_view_of_older_and_unversioned_kinds(tmp_path: Path) -> None:
    kubectl = _binaries().get("1.32")
    require(kubectl is not None, "kubectl.1.32 next to the kubectl on PATH")
    for index, (api_version, kind) in enumerate(KYAML_PROBES):
        for name, finalizer in (("r", "a"), ("p", "b")):
            (tmp_path / f"{name}{index}.yaml").write_text(json.dumps(
                {"apiVersion": api_version, "kind": kind,
                 "metadata": {"name": f"k{index}", "finalizers": [finalizer]}}) + "\n")
    (tmp_path / "kustomization.yaml").write_text(json.dumps(
        {"resources": [f"r{i}.yaml" for i in range(len(KYAML_PROBES))],
         "patches": [{"path": f"p{i}.yaml"} for i in range(len(KYAML_PROBES))]}) + "\n")
    proc = subprocess.run([kubectl, "kustomize", str(tmp_path)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["kube", "build", str(tmp_path)])
    assert code == 0, err.getvalue()
    assert out.getvalue() == proc.stdout
    merged = proc.stdout.count("- b\n  - a\n")
    assert merged == len(KYAML_KNOWS)
