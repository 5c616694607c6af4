#!/usr/bin/env python3
"""``cfgpatch kube build`` per folder of a real tree, side by side with ``kubectl kustomize``.

Every folder under ``DIR`` holding a kustomization file (``kustomization.yaml``,
``.yml``, ``Kustomization``) that is not a ``kind: Component`` is built once by both
(``kubectl kustomize DIR`` and ``cfgpatch kube build DIR``, whole processes); the folders
kubectl builds (exit 0, offline: a remote base or a chart that needs the network fails
and is left out) are then timed ``--rounds`` times in turn (ours, kubectl, ours, ...),
and each folder keeps its minimum CPU time (user + system of the child process, which
the other work of a shared machine disturbs less) and its minimum wall time.

Prints, per tree: the folders timed, how many outputs are byte-identical, the median of
the per-folder ratios (ours / kubectl's) and the ratio of the totals, in CPU and in wall
time, and the load averages before and after (``--verbose``: one line per folder).

    python benchmarks/bench_kube_tree.py DIR [DIR...] [--rounds 3] [--kubectl PATH]
    python benchmarks/bench_kube.py --part build --tree DIR [--tree DIR...]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the checkout's code, with its byte code cached (as an installed package runs)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [ENV.get("PYTHONPATH")])])
NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
SKIP = {".git", "node_modules", "vendor"}


def kustomization_folders(tree: Path) -> list[Path]:
    """The folders under ``tree`` with a kustomization file that is not a Component."""
    found = []
    for folder, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d not in SKIP)
        name = next((n for n in NAMES if n in files), None)
        if name is None:
            continue
        try:
            text = (Path(folder) / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "\nkind: Component" in f"\n{text}":
            continue
        found.append(Path(folder))
    return found


def ours_command() -> list[str]:
    """The installed entry point next to the interpreter (as a user runs it), else
    ``python -m cfgpatch``; either runs this checkout's code (``ENV``)."""
    script = Path(sys.executable).parent / "cfgpatch"
    return [*([str(script)] if script.exists() else [sys.executable, "-m", "cfgpatch"]),
            "kube", "build"]


def run(command: list[str], timeout: float = 120) -> tuple[int, bytes, float, float]:
    """Exit status, standard output, CPU seconds and wall seconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, env=ENV, timeout=timeout,
                              check=False)
        status, output = done.returncode, done.stdout
    except subprocess.TimeoutExpired:
        status, output = -1, b""
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return status, output, cpu, wall


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def bench_tree(tree: Path, kubectl: str, rounds: int, verbose: bool = False) -> dict:
    """Time every folder of ``tree`` kubectl builds; print and return the summary."""
    tree = tree.resolve()
    load_before = load()
    folders = kustomization_folders(tree)
    timed, same = [], 0
    for folder in folders:  # the first runs also warm the file cache
        theirs = run([kubectl, "kustomize", str(folder)])
        if theirs[0] != 0:
            continue
        mine = run([*ours_command(), str(folder)])
        same += mine[0] == 0 and mine[1] == theirs[1]
        timed.append(folder)
    rows = []
    for folder in timed:
        best = [[float("inf"), float("inf")], [float("inf"), float("inf")]]
        for _ in range(rounds):
            for side, command in enumerate(([*ours_command(), str(folder)],
                                            [kubectl, "kustomize", str(folder)])):
                _, _, cpu, wall = run(command)
                best[side] = [min(best[side][0], cpu), min(best[side][1], wall)]
        rows.append((folder, best[0], best[1]))
        if verbose:
            print(f"  {folder.relative_to(tree)}: CPU {best[0][0] * 1000:.0f} / "
                  f"{best[1][0] * 1000:.0f} ms ({best[0][0] / best[1][0]:.2f}), wall "
                  f"{best[0][1] * 1000:.0f} / {best[1][1] * 1000:.0f} ms "
                  f"({best[0][1] / best[1][1]:.2f})")
    summary = {"tree": tree.name, "folders": len(folders), "timed": len(rows),
               "identical": same, "load": f"{load_before} -> {load()}"}
    for index, label in ((0, "cpu"), (1, "wall")):
        if not rows:
            continue
        ours = [r[1][index] for r in rows]
        theirs = [r[2][index] for r in rows]
        summary[f"{label}_median"] = statistics.median(o / t for o, t in zip(ours, theirs))
        summary[f"{label}_total"] = (sum(ours), sum(theirs))
    print_summary(summary, rounds)
    return summary


def print_summary(summary: dict, rounds: int) -> None:
    print(f"{summary['tree']}: {summary['folders']} kustomizations, {summary['timed']} "
          f"built by kubectl (timed, best of {rounds}), {summary['identical']} "
          f"byte-identical; load {summary['load']}")
    for label in ("cpu", "wall"):
        if f"{label}_median" not in summary:
            continue
        ours, theirs = summary[f"{label}_total"]
        print(f"  {label:>4}: per-folder median ratio {summary[f'{label}_median']:.2f}; "
              f"total ours {ours:.2f} s, kubectl {theirs:.2f} s, ratio {ours / theirs:.2f}")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", metavar="DIR")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kubectl", default=shutil.which("kubectl"))
    parser.add_argument("--verbose", action="store_true", help="one line per folder")
    args = parser.parse_args()
    if not args.kubectl:
        raise SystemExit("kubectl is not on PATH (give --kubectl)")
    for tree in args.trees:
        bench_tree(Path(tree), args.kubectl, args.rounds, args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
