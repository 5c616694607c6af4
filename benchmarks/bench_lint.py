#!/usr/bin/env python3
"""``cfgpatch lint`` on a generated repository, side by side with ``kubectl kustomize``.

The tree: ``--apps`` applications (default 50), each a base (Deployment, Service,
ConfigMap; 2 patches) and three overlays (dev, staging, prod; 6 patches each: strategic
inline and from files, JSON 6902 with and without ``test`` guards, selectors by name and
by label), so 200 kustomizations and 1,000 patches by default, with a few planted
mistakes.  Timed in one run, interleaved, best of ``--rounds``:

* ``lint (process)``: ``cfgpatch lint --format json`` over the whole tree (one process
  started as the installed ``cfgpatch`` script, kube build on disk), and ``lint (in-process)`` the same work without starting Python;
* ``lint, no read cache``: in-process, with kube build's read cache turned off
  (``cfgpatch.lint.linter.READ_CACHE``): each base's files composed again per overlay;
* ``lint in memory``: in-process over the files read into memory first (kube build over
  its in-memory file system, what the page runs);
* ``kubectl kustomize``: one ``kubectl kustomize DIR`` per kustomization (kustomize has
  no way to build many in one process), which only builds: it checks nothing.

    python benchmarks/bench_lint.py [--apps 50] [--rounds 3] [--kubectl PATH]
    python benchmarks/bench_lint.py --repo DIR [--rounds 3] [--kubectl PATH]

``--repo DIR``: a real repository instead of the generated tree: ``cfgpatch lint`` of the
whole repository (one process, kubectl not asked) side by side with ``kubectl kustomize``
of every kustomization lint linted there, once each (the folders whose build exits 0 or
not alike: kubectl is timed whatever it answers).

The ratio column is ours / kubectl's (below 1: lint is faster than just building).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from cfgpatch.lint import DiskFiles, MemoryFiles, lint_files  # noqa: E402

BASE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {app}
  labels: {{app: {app}, tier: web}}
spec:
  replicas: 1
  selector:
    matchLabels: {{app: {app}}}
  template:
    metadata:
      labels: {{app: {app}, tier: web}}
    spec:
      containers:
        - name: {app}
          image: ghcr.io/acme/{app}:1.0.0
          env:
            - {{name: LOG_LEVEL, value: info}}
        - name: proxy
          image: ghcr.io/acme/proxy:2.0.0
---
apiVersion: v1
kind: Service
metadata:
  name: {app}
  labels: {{app: {app}}}
spec:
  selector: {{app: {app}}}
  ports:
    - {{name: http, port: 80, targetPort: 8080}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: {app}-settings
data:
  mode: normal
"""

BASE_KUSTOMIZATION = """\
resources:
  - resources.yaml
patches:
  - target: {{kind: Deployment, name: {app}}}
    patch: |-
      - op: test
        path: /spec/template/spec/containers/0/name
        value: {app}
      - op: replace
        path: /spec/template/spec/containers/0/image
        value: ghcr.io/acme/{app}:1.0.1
  - patch: |-
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: {app}-settings
      data:
        region: eu-west-1
"""

OVERLAY = """\
namePrefix: {env}-
namespace: {app}-{env}
resources:
  - ../../base
patches:
  - path: replicas.yaml
  - path: resources.yaml
  - target: {{kind: Service, name: {app}}}
    patch: |-
      - op: add
        path: /metadata/annotations
        value: {{env: {env}}}
  - target: {{labelSelector: "app={app}", kind: Deployment}}
    patch: |-
      - op: add
        path: /spec/template/spec/containers/0/env/-
        value: {{name: ENV, value: {env}}}
  - target: {{kind: Deployment, name: {target}}}
    patch: |-
      - op: replace
        path: /spec/revisionHistoryLimit
        value: 5
patchesJson6902:
  - target: {{group: apps, version: v1, kind: Deployment, name: {env}-{app}}}
    patch: |-
      - op: add
        path: /spec/minReadySeconds
        value: 10
"""

REPLICAS = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {app}
spec:
  replicas: {replicas}
"""

RESOURCES = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {app}
spec:
  template:
    spec:
      containers:
        - name: {app}
          resources:
            limits: {{memory: 512Mi}}
"""


def generate(root: Path, apps: int) -> tuple[int, int]:
    """Write the tree; returns (kustomizations, patches)."""
    kustomizations = patches = 0
    for number in range(apps):
        app = f"app{number:03d}"
        base = root / "apps" / app / "base"
        base.mkdir(parents=True)
        (base / "resources.yaml").write_text(BASE.format(app=app))
        (base / "kustomization.yaml").write_text(BASE_KUSTOMIZATION.format(app=app))
        kustomizations += 1
        patches += 2
        for env, replicas in (("dev", 1), ("staging", 2), ("prod", 4)):
            overlay = root / "apps" / app / "overlays" / env
            overlay.mkdir(parents=True)
            # every tenth prod overlay names a Deployment that does not exist (planted)
            target = f"{app}-old" if env == "prod" and number % 10 == 0 else app
            (overlay / "kustomization.yaml").write_text(
                OVERLAY.format(app=app, env=env, target=target))
            (overlay / "replicas.yaml").write_text(REPLICAS.format(app=app, replicas=replicas))
            (overlay / "resources.yaml").write_text(RESOURCES.format(app=app))
            kustomizations += 1
            patches += 6
    return kustomizations, patches


def best(rounds: int, run) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def children_cpu() -> float:
    """CPU seconds (user + system) the finished child processes have used so far: on a
    loaded machine the wall clock says more about the others' work than about ours."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kubectl", default=shutil.which("kubectl"))
    parser.add_argument("--repo", help="a repository to lint instead of the generated tree")
    args = parser.parse_args()
    if args.repo:
        return repository(Path(args.repo).resolve(), args.rounds, args.kubectl)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        kustomizations, patches = generate(root, args.apps)
        dirs = sorted(str(p.parent) for p in root.rglob("kustomization.yaml"))
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

        def lint_process() -> None:
            done = subprocess.run([*_ours(), "lint", "--root", folder,
                                   "--format", "json", "--no-kubectl"], env=env,
                                  capture_output=True, text=True, check=False)
            assert done.returncode in (0, 1), done.stderr

        def lint_inprocess() -> None:
            lint_files(DiskFiles(folder))

        def lint_uncached() -> None:
            import cfgpatch.lint.linter as linter
            linter.READ_CACHE = False
            try:
                lint_files(DiskFiles(folder))
            finally:
                linter.READ_CACHE = True

        def lint_memory() -> None:
            disk = DiskFiles(folder)
            texts = {}
            for name in disk.walk(""):
                try:
                    texts[name] = disk[name]
                except (KeyError, OSError, UnicodeDecodeError):
                    continue
            lint_files(MemoryFiles(texts))

        def kustomize() -> None:
            for directory in dirs:
                subprocess.run([args.kubectl, "kustomize", directory], capture_output=True,
                               check=True)

        report = lint_files(DiskFiles(folder))
        found = report.counts()
        rows = []
        times = {"lint (process)": [], "lint (in-process)": [], "lint, no read cache": [],
                 "lint in memory": [], "kubectl kustomize": []}
        for _ in range(args.rounds):  # interleaved
            times["lint (process)"].append(best(1, lint_process))
            times["lint (in-process)"].append(best(1, lint_inprocess))
            times["lint, no read cache"].append(best(1, lint_uncached))
            times["lint in memory"].append(best(1, lint_memory))
            if args.kubectl:
                times["kubectl kustomize"].append(best(1, kustomize))
        reference = min(times["kubectl kustomize"]) if times["kubectl kustomize"] else None
        for name, values in times.items():
            if not values:
                continue
            total = min(values)
            ratio = f"{total / reference:6.2f}" if reference else "     -"
            rows.append(f"{name:22} {total:8.2f} s {total / patches * 1000:9.2f} ms {ratio}")
        print(f"tree: {kustomizations} kustomizations, {patches} patches "
              f"({args.apps} apps); best of {args.rounds}, interleaved")
        print(f"lint found: {found['error']} errors, {found['warning']} warnings, "
              f"{found['note']} notes")
        print(f"{'':22} {'total':>10} {'per patch':>12} {'ratio':>6}")
        print("\n".join(rows))
        cached, uncached = min(times["lint (in-process)"]), min(times["lint, no read cache"])
        print(f"kube build's read cache (kube.io.kyaml_read.cached_reads): in-process lint "
              f"{cached:.2f} s with it, {uncached:.2f} s without (ratio {cached / uncached:.2f})")
    return 0


def _ours() -> list[str]:
    """The command as people run it: the installed ``cfgpatch`` script beside this
    Python (``python -m cfgpatch`` would add runpy's imports, about 8 ms, that the
    script does not pay); ``PYTHONPATH`` says which source tree it runs."""
    script = Path(sys.executable).parent / "cfgpatch"
    return [str(script)] if script.exists() else [sys.executable, "-m", "cfgpatch"]


def repository(root: Path, rounds: int, kubectl: str | None) -> int:
    """Lint of ``root`` vs ``kubectl kustomize`` of each kustomization lint linted."""
    # the checkout's code with its byte code cached, as an installed package runs
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
           "PYTHONPATH": str(ROOT / "src")}
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    report = lint_files(DiskFiles(str(root)))
    dirs = sorted({str(root / os.path.dirname(t["path"])) for t in report.targets
                   if t["kind"] == "kustomization"})

    def lint_process() -> None:
        done = subprocess.run([*_ours(), "lint", "--root", str(root),
                               "--format", "json", "--no-kubectl"], env=env,
                              capture_output=True, text=True, check=False)
        assert done.returncode in (0, 1, 2), done.stderr

    def kustomize() -> None:
        for directory in dirs:
            subprocess.run([kubectl, "kustomize", directory], capture_output=True,
                           check=False, timeout=120)

    linted, built, lint_cpu, kube_cpu = [], [], [], []
    for _ in range(rounds):  # interleaved
        start = children_cpu()
        linted.append(best(1, lint_process))
        lint_cpu.append(children_cpu() - start)
        if kubectl:
            start = children_cpu()
            built.append(best(1, kustomize))
            kube_cpu.append(children_cpu() - start)
    found = report.counts()
    print(f"repository: {root.name}: {len(dirs)} kustomizations, {report.patch_count()} "
          f"patches; lint found {found['error']} errors, {found['warning']} warnings, "
          f"{found['note']} notes; best of {rounds}, interleaved")
    lint_time = min(linted)
    if not dirs:
        print(f"lint (process) {lint_time:8.2f} s   (no kustomization: nothing for kubectl "
              "to build, no ratio)")
    elif built:
        kube_time = min(built)
        print(f"lint (process) {lint_time:8.2f} s   kubectl kustomize x{len(dirs)} "
              f"{kube_time:8.2f} s   ratio {lint_time / kube_time:.2f}")
        print(f"CPU (user+sys) {min(lint_cpu):8.2f} s   kubectl kustomize x{len(dirs)} "
              f"{min(kube_cpu):8.2f} s   ratio {min(lint_cpu) / min(kube_cpu):.2f}")
    else:
        print(f"lint (process) {lint_time:8.2f} s   (no kubectl)")
    print(f"load average {load_before} -> {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
