#!/usr/bin/env python3
"""Record the server-side apply case of ``kube preview --live DIR --server-side``.

A small repository at two refs (``app/``: a Deployment and a ConfigMap, namespace
``shop``).  The head render is ``kubectl.1.32 kustomize app`` on the head files; the live
objects are made by the API server's own field manager (``../shared/bin/ssa-oracle``,
Kubernetes 1.32): the Deployment applied by ``kubectl`` from the base render, then its
``spec.replicas`` written by ``hpa-controller`` (an Update, as an autoscaler does); the
ConfigMap applied by ``kubectl`` from an older configuration that also sent
``data.OLD_FLAG``.  Then the oracle applies each head object onto its live object as
``kubectl``, without and with ``force``, and its answers (the server's conflict text, or
the stored object) go to ``tests/data/preview/ssa-case.json`` with the files, the head
render and the live objects; tests/test_preview_ssa.py replays them.

The stuck-field case (``tests/data/preview/ssa-stuck-case.json``, same repository layout,
a Deployment only): the live Deployment was written by client-side ``kubectl apply`` (an
Update by ``kubectl-client-side-apply`` of the base render with its last-applied
annotation, ``minReadySeconds: 10`` included); the head render drops
``minReadySeconds``.  The oracle applies it as ``helm`` (Helm 4: one server-side apply)
and as ``kubectl`` (kubectl 1.32's requests: the apply, the apply of the annotation by
``kubectl-last-applied``, the JSON patch moving ``kubectl-client-side-apply``'s fields to
``kubectl`` (an Update carrying the new managedFields) and the apply again, each decided
from the server's previous answer as kubectl decides it).

Usage: scripts/record_preview_ssa.py [--check]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_kustomize_helm import kubectl  # noqa: E402
from record_ssa import ORACLE, SMD_SCHEMA, _NoDates  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "preview" / "ssa-case.json"
STUCK_OUT = ROOT / "tests" / "data" / "preview" / "ssa-stuck-case.json"

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: {replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:{tag}
"""
SETTINGS = """apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  LOG_LEVEL: {level}
"""
KUSTOMIZATION = "namespace: shop\nresources:\n- deployment.yaml\n- settings.yaml\n"


def files(replicas: int, tag: str, level: str) -> dict[str, str]:
    return {"app/kustomization.yaml": KUSTOMIZATION,
            "app/deployment.yaml": DEPLOYMENT.format(replicas=replicas, tag=tag),
            "app/settings.yaml": SETTINGS.format(level=level)}


BASE, HEAD = files(2, "1.25", "info"), files(3, "1.27", "debug")
STUCK_KUSTOMIZATION = "namespace: shop\nresources:\n- deployment.yaml\n"


def stuck_files(min_ready: bool) -> dict[str, str]:
    text = DEPLOYMENT.format(replicas=2, tag="1.27")
    if min_ready:
        text = text.replace("  replicas: 2\n", "  replicas: 2\n  minReadySeconds: 10\n")
    return {"app/kustomization.yaml": STUCK_KUSTOMIZATION, "app/deployment.yaml": text}


STUCK_BASE, STUCK_HEAD = stuck_files(True), stuck_files(False)


def render(binary: str, tree: dict[str, str]) -> list[dict]:
    with tempfile.TemporaryDirectory() as work:
        for name, text in tree.items():
            path = Path(work) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        done = subprocess.run([binary, "kustomize", str(Path(work) / "app")],
                              capture_output=True, text=True, check=True)
    return [d for d in yaml.safe_load_all(done.stdout) if d]


def oracle(live: dict | None, ops: list[dict]) -> list[dict]:
    case = {"ops": ops} if live is None else {"live": live, "ops": ops}
    done = subprocess.run([str(ORACLE), "-smd-schema", str(SMD_SCHEMA)],
                          input=json.dumps(case), capture_output=True, text=True, check=True)
    return yaml.load(done.stdout, Loader=_NoDates)


def record(binary: str) -> dict:
    base = {o["kind"]: o for o in render(binary, BASE)}
    head = render(binary, HEAD)
    older = json.loads(json.dumps(base["ConfigMap"]))
    older["data"]["OLD_FLAG"] = "1"
    history = {
        "Deployment": oracle(None, [
            {"op": "apply", "manager": "kubectl", "force": False, "object": base["Deployment"]},
            {"op": "update", "manager": "hpa-controller",
             "patchLive": {"spec": {"replicas": 5}}}]),
        "ConfigMap": oracle(None, [
            {"op": "apply", "manager": "kubectl", "force": False, "object": older}]),
    }
    live = {kind: results[-1]["object"] for kind, results in history.items()}
    outcomes = {}
    for obj in head:
        kind = obj["kind"]
        outcomes[kind] = {
            mode: oracle(live[kind], [{"op": "apply", "manager": "kubectl", "force": force,
                                       "object": obj}])[-1]
            for mode, force in (("apply", False), ("force", True))}
    return {"base_files": BASE, "head_files": HEAD, "head_objects": head,
            "live": [live["Deployment"], live["ConfigMap"]], "outcomes": outcomes}


def _op(kind: str, manager: str, obj: dict) -> dict:
    return {"op": kind, "manager": manager, "object": obj} if kind == "update" else \
        {"op": kind, "manager": manager, "force": False, "object": obj}


def client_side_applied(obj: dict) -> dict:
    """``obj`` as client-side ``kubectl apply`` sends it: with its last-applied annotation."""
    sent = json.loads(json.dumps(obj))
    text = json.dumps(obj, sort_keys=True, separators=(",", ":")) + "\n"
    sent["metadata"].setdefault("annotations", {})[
        "kubectl.kubernetes.io/last-applied-configuration"] = text
    return sent


def kubectl_flow(live: dict, obj: dict) -> list[dict]:
    """kubectl 1.32's requests of ``kubectl apply --server-side`` (field manager
    ``kubectl``), each decided from the server's answer to the ones before."""
    from cfgpatch.kube.ssa.csaupgrade import (
        LAST_APPLIED,
        LAST_APPLIED_PATH,
        find_fields_owners,
        upgraded_entries,
    )

    ops = [_op("apply", "kubectl", obj)]
    current = oracle(live, ops)[-1]["object"]
    meta = current["metadata"]
    annotation = (meta.get("annotations") or {}).get(LAST_APPLIED)
    if annotation is not None and not find_fields_owners(
            meta.get("managedFields") or [], "Apply", LAST_APPLIED_PATH):
        just_meta = {k: meta[k] for k in ("name", "namespace") if k in meta}
        just_meta["annotations"] = {LAST_APPLIED: annotation}
        ops.append(_op("apply", "kubectl-last-applied", {
            "apiVersion": current["apiVersion"], "kind": current["kind"],
            "metadata": just_meta}))
        current = oracle(live, ops)[-1]["object"]
    entries = current["metadata"].get("managedFields") or []
    names = sorted({e.get("manager", "") for e in find_fields_owners(
        entries, "Update", LAST_APPLIED_PATH)})
    after = upgraded_entries(entries, names, "kubectl")
    if names and after != entries:
        sent = json.loads(json.dumps(current))
        sent["metadata"]["managedFields"] = after or []
        ops += [_op("update", "kubectl", sent), _op("apply", "kubectl", obj)]
    return oracle(live, ops)


def record_stuck(binary: str) -> dict:
    [base] = render(binary, STUCK_BASE)
    [head] = render(binary, STUCK_HEAD)
    live = oracle(None, [_op("update", "kubectl-client-side-apply",
                             client_side_applied(base))])[-1]["object"]
    helm = oracle(live, [_op("apply", "helm", head)])
    kubectl_answers = kubectl_flow(live, head)
    return {"base_files": STUCK_BASE, "head_files": STUCK_HEAD, "head_objects": [head],
            "live": [live], "outcomes": {"helm": helm[-1], "kubectl": kubectl_answers[-1]},
            "kubectl_ops": [a["op"] for a in kubectl_answers]}


def _write(path: Path, data: dict, check: bool) -> int:
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return 0
    print(f"changed: {path.relative_to(ROOT)}")
    if check:
        return 1
    path.write_text(text, encoding="utf-8")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report changes, write nothing")
    args = parser.parse_args()
    binary = kubectl()
    if binary is None or not ORACLE.exists() or shutil.which("git") is None:
        print("kubectl.1.32 and ../shared/bin/ssa-oracle are needed", file=sys.stderr)
        return 2
    return max(_write(OUT, record(binary), args.check),
               _write(STUCK_OUT, record_stuck(binary), args.check))


if __name__ == "__main__":
    sys.exit(main())
