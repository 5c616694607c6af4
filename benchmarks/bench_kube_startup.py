#!/usr/bin/env python3
"""A small ``kube build`` as a whole process, side by side with ``kubectl kustomize``.

The folder is what issue 33's start-up target counts as small: two resource files, a
name prefix, labels, annotations and a generated ConfigMap.  The commands run in turn
(A B A B ...), after one warm-up each, and their output is checked identical first:

* ``python -c pass`` (the interpreter's own start-up),
* ``cfgpatch kube build DIR`` (the installed entry point next to the interpreter, else
  ``python -m cfgpatch``),
* ``kubectl kustomize DIR``, and ``kubectl version --client`` (kubectl's process start).

Prints the median and the minimum of each, in CPU time (user + system of the child,
which a busy machine disturbs less) and in wall time, and ours / kubectl kustomize's.
``bench_kube.py --part build`` runs it first.

``--against SRC`` adds ``cfgpatch kube build`` from another tree's ``src`` (a checkout
or ``git archive`` of the base commit) to the rounds, with its output checked identical,
and prints ours / theirs: whether a change makes the start-up slower.

    python benchmarks/bench_kube_startup.py [--rounds 15] [--kubectl PATH] [--against SRC]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}

SMALL_FOLDER = {
    "kustomization.yaml": (
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
        "namePrefix: dev-\nlabels:\n- pairs:\n    app: web\n  includeSelectors: true\n"
        "commonAnnotations:\n  team: platform\nresources:\n- deployment.yaml\n"
        "- service.yaml\nconfigMapGenerator:\n- name: web-config\n  literals:\n"
        "  - LOG_LEVEL=debug\n  - PORT=8080\n"),
    "deployment.yaml": (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
        "  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: web\n"
        "        image: nginx:1.25\n        ports:\n        - containerPort: 8080\n"
        "        envFrom:\n        - configMapRef:\n            name: web-config\n"),
    "service.yaml": ("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n"
                     "  ports:\n  - port: 80\n    targetPort: 8080\n"),
}


def _ours() -> list[str]:
    script = Path(sys.executable).parent / "cfgpatch"
    return [str(script)] if script.exists() else [sys.executable, "-m", "cfgpatch"]


def _times(rounds: int, commands: list[list[str]], cwd: Path,
           envs: list[dict] | None = None) -> list[list[tuple]]:
    """Per command, ``rounds`` pairs (CPU seconds, wall seconds), run in turn (each with
    its environment in ``envs``, else ``ENV``)."""
    found: list[list[tuple]] = [[] for _ in commands]
    envs = envs or [ENV] * len(commands)
    for command, env in zip(commands, envs):  # warm-up
        subprocess.run(command, cwd=cwd, capture_output=True, env=env, check=True)
    for _ in range(rounds):
        for index, command in enumerate(commands):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(command, cwd=cwd, capture_output=True, env=envs[index], check=True)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            found[index].append((cpu, wall))
    return found


def bench_small_build(rounds: int, kubectl: str, work: Path, against: str | None = None
                      ) -> None:
    folder = work / "small"
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in SMALL_FOLDER.items():
        (folder / name).write_text(text)
    ours_cmd = [*_ours(), "kube", "build", str(folder)]
    theirs_cmd = [kubectl, "kustomize", str(folder)]
    mine = subprocess.run(ours_cmd, capture_output=True, env=ENV)
    theirs = subprocess.run(theirs_cmd, capture_output=True, env=ENV)
    if theirs.returncode or (mine.returncode, mine.stdout) != (0, theirs.stdout):
        raise SystemExit(f"outputs differ for the small folder: {mine.stderr.decode()[:400]}")
    labels = ["python -c pass", "cfgpatch kube build", "kubectl kustomize",
              "kubectl version --client"]
    commands = [[sys.executable, "-c", "pass"], ours_cmd, theirs_cmd,
                [kubectl, "version", "--client"]]
    envs = [ENV] * len(commands)
    if against:
        other_env = {**os.environ, "PYTHONPATH": str(Path(against).resolve())}
        other_cmd = ours_cmd  # the same launcher: PYTHONPATH says which cfgpatch it runs
        other = subprocess.run(other_cmd, capture_output=True, env=other_env)
        if (other.returncode, other.stdout) != (0, mine.stdout):
            raise SystemExit(f"--against {against} builds the folder otherwise")
        labels.append("--against's kube build")
        commands.append(other_cmd)
        envs.append(other_env)
    found = _times(rounds, commands, work, envs)
    print(f"small kube build (2 resource files, prefix, labels, a generator; {rounds} runs "
          "each, in turn; ms, median / min):")
    for what, column in (("CPU", 0), ("wall", 1)):
        medians = [statistics.median(t[column] for t in runs) for runs in found]
        lows = [min(t[column] for t in runs) for runs in found]
        shown = "  ".join(f"{label} {m * 1000:.0f}/{low * 1000:.0f}"
                          for label, m, low in zip(labels, medians, lows))
        pairs = [ours[column] / theirs[column] for ours, theirs in zip(found[1], found[2])]
        print(f"  {what:>4}: {shown}; ours / kubectl kustomize: median "
              f"{medians[1] / medians[2]:.2f}, min {lows[1] / lows[2]:.2f}, "
              f"pair by pair median {statistics.median(pairs):.2f}")
        if against:
            pairs = [ours[column] / base[column] for ours, base in zip(found[1], found[4])]
            print(f"  {what:>4}: ours / --against's: median {medians[1] / medians[4]:.2f}, "
                  f"min {lows[1] / lows[4]:.2f}, pair by pair median "
                  f"{statistics.median(pairs):.2f}")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--kubectl", default=shutil.which("kubectl"))
    parser.add_argument("--against", metavar="SRC",
                        help="another tree's src folder, measured alongside")
    args = parser.parse_args()
    if not args.kubectl:
        raise SystemExit("kubectl is not on PATH (give --kubectl)")
    with tempfile.TemporaryDirectory() as folder:
        bench_small_build(args.rounds, args.kubectl, Path(folder), args.against)


if __name__ == "__main__":
    main()
