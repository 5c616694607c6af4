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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report changes, write nothing")
    args = parser.parse_args()
    binary = kubectl()
    if binary is None or not ORACLE.exists() or shutil.which("git") is None:
        print("kubectl.1.32 and ../shared/bin/ssa-oracle are needed", file=sys.stderr)
        return 2
    text = json.dumps(record(binary), indent=1, sort_keys=True) + "\n"
    if OUT.exists() and OUT.read_text(encoding="utf-8") == text:
        return 0
    print(f"changed: {OUT.relative_to(ROOT)}")
    if args.check:
        return 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
