"""kube preview of a 500-object repository at two refs vs kubectl kustomize (target 1.5x).

A generated git repository: a base of 100 objects (Deployments with a Service and a
generated ConfigMap each) and 5 overlays (namePrefix, labels, images, a strategic
patch), so each ref renders 500 objects; the head commit changes the base (a resource
file, a generator literal) so every entry point is reached.  Side by side in one run:

* ``kube preview``: both refs read from git objects, rendered with blame, paired,
  diffed, attributed to lines and commits (in process, best of --runs);
* ``kubectl.1.32 kustomize`` of the 5 entry points at both refs (10 builds, trees
  written out before the clock starts; best of --runs).

    python benchmarks/bench_preview.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from cfgpatch.preview.engine import Options, preview  # noqa: E402
from cfgpatch.preview.gittree import GitRepo  # noqa: E402
from preview_support import commit, new_repo  # noqa: E402

APPS = 33  # 3 objects each, plus one Namespace: 100 objects per entry point
OVERLAYS = 5


def app(index: int, port: int) -> str:
    return f"""apiVersion: apps/v1
kind: Deployment
metadata:
  name: app{index}
spec:
  replicas: 1
  selector:
    matchLabels: {{app: app{index}}}
  template:
    metadata:
      labels: {{app: app{index}}}
    spec:
      containers:
      - name: main
        image: registry.example/app{index}:1.0.0
        ports:
        - containerPort: {port}
        envFrom:
        - configMapRef: {{name: app{index}-env}}
---
apiVersion: v1
kind: Service
metadata:
  name: app{index}
spec:
  selector: {{app: app{index}}}
  ports:
  - port: 80
    targetPort: {port}
"""


def files(port: int, level: str) -> dict[str, str]:
    out = {"base/namespace.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n"}
    resources = ["namespace.yaml"]
    generators = []
    for index in range(APPS):
        out[f"base/app{index}.yaml"] = app(index, port if index % 3 == 0 else 8080)
        resources.append(f"app{index}.yaml")
        generators.append(f"- name: app{index}-env\n  literals:\n  - LEVEL={level}\n"
                          f"  - INDEX={index}\n")
    out["base/kustomization.yaml"] = ("resources:\n" + "".join(f"- {r}\n" for r in resources)
                                      + "configMapGenerator:\n" + "".join(generators))
    for number in range(OVERLAYS):
        out[f"overlays/env{number}/kustomization.yaml"] = f"""resources:
- ../../base
namePrefix: env{number}-
labels:
- pairs: {{env: env{number}}}
images:
- name: registry.example/app1
  newTag: "2.{number}"
patches:
- path: replicas.yaml
  target: {{kind: Deployment}}
"""
        out[f"overlays/env{number}/replicas.yaml"] = (
            f"- op: replace\n  path: /spec/replicas\n  value: {number + 2}\n")
    return out


def best(runs: int, action) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    found = shutil.which("kubectl")
    if not found:
        print("kubectl is not installed")
        return 2
    kubectl = os.path.join(os.path.dirname(os.path.realpath(found)), "kubectl.1.32")
    with tempfile.TemporaryDirectory(prefix="bench-preview-") as scratch:
        root = Path(scratch) / "repo"
        base = new_repo(root, files(8080, "info"))
        head = commit(root, "change", files(9090, "debug"))
        repo = GitRepo.at(str(root))
        trees = []
        for ref in (base, head):
            folder = os.path.join(scratch, ref)
            repo.tree(ref).materialize(folder)
            trees.append(folder)
        report: dict = {}

        def ours() -> None:
            report.update(preview(Options(str(root), base, head)))

        def theirs() -> None:
            for folder in trees:
                for number in range(OVERLAYS):
                    subprocess.run([kubectl, "kustomize", f"{folder}/overlays/env{number}"],
                                   check=True, capture_output=True)

        kubectl_time = best(args.runs, theirs)
        preview_time = best(args.runs, ours)
    rendered = sum(e["head_objects"] for e in report["entry_points"])
    print(f"objects rendered per ref: {rendered}; changed objects: {len(report['objects'])}")
    print(f"kubectl.1.32 kustomize, {OVERLAYS} entry points x 2 refs: {kubectl_time:.3f} s")
    print(f"kube preview (both refs, diff, attribution):   {preview_time:.3f} s")
    print(f"ratio preview/kubectl: {preview_time / kubectl_time:.2f}x (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
