"""Live: kustomize's strategic merge against real ``kubectl kustomize`` (required in CI).

* random realistic resources and patches (tests/kustomize_merge_support.Generator:
  keyed lists on one and two keys, lists of scalars, replaced lists, nulls, every
  directive) are built by kubectl 1.32, a batch of resources with one patch each per
  run, and must print byte-identically to our result;
* the recorded cases are rebuilt with kubectl 1.32 (the recordings are still true);
* the measured schema facts are measured again (scripts/record_kustomize_merge.py
  --schema --check must find nothing to change).

Bounded: a handful of kubectl runs, well under a minute.  Locally these tests skip when
kubectl is absent; with ``CI=true`` they fail instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import require
from kustomize_merge_support import (
    MERGE_DATA,
    RECORDED,
    Answer,
    Generator,
    case_texts,
    our_answer,
    same,
)

ROOT = Path(__file__).resolve().parent.parent
BATCH = 8


def kubectl() -> str:
    found = shutil.which("kubectl")
    require(bool(found), "kubectl is not installed")
    folder = Path(os.path.realpath(found)).parent
    oracle = folder / "kubectl.1.32"
    return str(oracle if oracle.exists() else found)


def build(binary: str, files: dict[str, str], kustomization: str) -> Answer:
    with tempfile.TemporaryDirectory(prefix="kmerge-live-") as folder:
        for name, text in files.items():
            (Path(folder) / name).write_text(text, encoding="utf-8")
        (Path(folder) / "kustomization.yaml").write_text(kustomization, encoding="utf-8")
        proc = subprocess.run([binary, "kustomize", folder], capture_output=True, text=True,
                              timeout=60)
    return Answer.from_kubectl(proc.returncode, proc.stdout, proc.stderr.replace(folder, "$TREE"))


def _text(value: object, block: bool = False) -> str:
    """JSON (every string double-quoted, as kustomize then holds it) or block YAML
    (strings plain where YAML allows)."""
    if block:
        import yaml

        return yaml.safe_dump(value, sort_keys=False)
    return json.dumps(value, indent=1) + "\n"  # JSON is YAML


def build_batch(binary: str, cases: list[tuple[dict, dict]], block: bool = False) -> Answer:
    files = {}
    for index, (resource, patch) in enumerate(cases):
        files[f"r{index}.yaml"] = _text(resource, block)
        files[f"p{index}.yaml"] = _text(patch, block)
    kustomization = _text({"resources": [f"r{i}.yaml" for i in range(len(cases))],
                           "patches": [{"path": f"p{i}.yaml"} for i in range(len(cases))]})
    return build(binary, files, kustomization)


def one_by_one(binary: str, cases: list[tuple[dict, dict]], block: bool) -> list[str]:
    failures = []
    for resource, patch in cases:
        theirs = build_batch(binary, [(resource, patch)], block)
        ours = our_answer(_text(resource, block), _text(patch, block), None)
        if not same(ours, theirs):
            failures.append(f"resource:\n{_text(resource)}patch:\n{_text(patch)}"
                            f"kubectl:\n{theirs}\nours:\n{ours}")
    return failures


@settings(max_examples=int(os.environ.get("KUSTOMIZE_LIVE_EXAMPLES", "5")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_random_patches_match_kubectl_kustomize(seed):
    binary = kubectl()
    generator = Generator(seed)
    cases = [generator.case(f"r{index}") for index in range(BATCH)]
    block = seed % 2 == 1
    theirs = build_batch(binary, cases, block)
    ours_docs: list[str] = []
    failed = theirs.exit_code != 0
    for resource, patch in cases:
        ours = our_answer(_text(resource, block), _text(patch, block), None)
        failed = failed or ours.exit_code != 0
        ours_docs.extend(ours.documents)
    if failed or sorted(ours_docs) != sorted(theirs.documents):
        failures = one_by_one(binary, cases, block)
        assert not failures, f"seed {seed}:\n" + "\n\n".join(failures)


def test_recorded_cases_still_hold():
    binary = kubectl()
    failures = []
    for name in sorted(RECORDED):
        resource, patch, openapi = case_texts(name)
        files = {"resource.yaml": resource, "patch.yaml": patch}
        kustomization = "resources:\n- resource.yaml\npatches:\n- path: patch.yaml\n"
        if openapi is not None:
            files["openapi.yaml"] = openapi
            kustomization += "openapi:\n  path: openapi.yaml\n"
        theirs = build(binary, files, kustomization)
        recorded = RECORDED[name]
        if not same(theirs, Answer.from_kubectl(recorded["exit_code"], recorded["stdout"],
                                                recorded["stderr"])):
            failures.append(name)
    assert not failures, f"re-record with scripts/record_kustomize_merge.py: {failures}"


def test_schema_facts_still_hold():
    kubectl()
    script = ROOT / "scripts" / "record_kustomize_merge.py"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.run([sys.executable, str(script), "--schema", "--check"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (MERGE_DATA / "recorded.json").exists()
