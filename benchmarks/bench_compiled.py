"""Would compiling the unchanged core meet issue 14's reversal target?  Measured.

Issue 14 asks for put a + put b + diff_stats on the reversal and the random
shuffle of 20,000 distinct routes within 5x ``json.loads`` of both texts
(``bench_edges.py``).  The pure-Python core stays above that.  This script
measures the obvious way out without changing a line of the core: it copies
``src/cfgpatch`` three times into a temporary folder and

* leaves one copy as it is (``pure``);
* compiles the modules on the diff_stats path with Cython (``cython``: diff,
  replay, moves, text_cache, document_reader, jsonvalue, spellings and the
  ``lcs`` package), annotations not used as C types;
* compiles the modules of that list that mypy accepts with mypyc (``mypyc``:
  the same without document_reader, jsonvalue and ``lcs/__init__``).

Then it runs ``run`` (put, put, diff_stats) in one worker process per copy,
round after round, the copies interleaved, each round measuring the floor
(``json.loads`` of both texts) and ``run`` in the same process, and prints the
best ratio of each.  Every copy must give the same digest.

Cython and mypy are not dependencies of the project:

    .venv/bin/pip install 'cython>=3' 'mypy>=1.10' setuptools
    .venv/bin/python benchmarks/bench_compiled.py [--rounds 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 5.0
KINDS = ("reversal", "shuffle")
N = 20_000

#: The modules on the path of put + diff_stats, relative to the package folder.
CYTHON_MODULES = ("diff.py", "replay.py", "moves.py", "text_cache.py", "document_reader.py",
                  "jsonvalue.py", "spellings.py", "lcs/*.py")
#: Those mypy accepts as they are written (the others hold constructs it rejects).
MYPYC_MODULES = ("diff.py", "replay.py", "moves.py", "text_cache.py", "spellings.py",
                 "lcs/sparse.py", "lcs/myers.py", "lcs/bits.py", "lcs/runs.py", "lcs/budget.py")


def missing_tools() -> list[str]:
    return [name for name in ("Cython", "mypyc", "setuptools")
            if importlib.util.find_spec(name) is None]


def copy_package(into: Path) -> Path:
    target = into / "cfgpatch"
    shutil.copytree(ROOT / "src" / "cfgpatch", target,
                    ignore=shutil.ignore_patterns("__pycache__", "static", "*.so"))
    return into


def compile_cython(folder: Path) -> None:
    setup = folder / "setup_cython.py"
    modules = [f"cfgpatch/{module}" for module in CYTHON_MODULES]
    setup.write_text(
        "from setuptools import setup\n"
        "from Cython.Build import cythonize\n"
        f"setup(ext_modules=cythonize({modules!r}, language_level=3, quiet=True,\n"
        "      compiler_directives={'annotation_typing': False}))\n")
    _build([sys.executable, str(setup), "build_ext", "--inplace"], folder, "Cython")


def compile_mypyc(folder: Path) -> None:
    modules = [f"cfgpatch/{module}" for module in MYPYC_MODULES]
    _build([sys.executable, "-m", "mypyc", *modules], folder, "mypyc")


def _build(command: list[str], folder: Path, name: str) -> None:
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-20:])
        raise SystemExit(f"{name} build failed in {folder}:\n{tail}")
    built = sorted(path.name for path in (folder / "cfgpatch").rglob("*.so"))
    if not built:
        raise SystemExit(f"{name} built nothing in {folder}")


def worker(folder: str, kind: str, reps: int) -> None:
    """Runs inside a copy: prints the best floor and run times of ``reps`` rounds."""
    import time

    sys.path[:0] = [folder, str(ROOT / "benchmarks"), str(ROOT / "tests")]
    from bench_edges import edge_texts

    from cfgpatch import run

    compiled = sys.modules["cfgpatch.diffing"].__file__.endswith(".so")
    ta, tb = edge_texts(kind, N)
    ops = [["put", "a", ta], ["put", "b", tb], ["diff_stats", "a", "b"]]
    stats = run(ops)[2]
    best = {"floor": float("inf"), "run": float("inf")}
    jobs = {"floor": lambda: (json.loads(ta), json.loads(tb)), "run": lambda: run(ops)}
    for _ in range(reps):
        for name, job in jobs.items():
            gc.collect()
            gc.disable()
            start = time.process_time()
            job()
            best[name] = min(best[name], time.process_time() - start)
            gc.enable()
    print(json.dumps({**best, "digest": stats["digest"], "roundtrip": stats["roundtrip"],
                      "compiled": compiled}))


def measure(folders: dict[str, Path], rounds: int, reps: int) -> dict:
    results: dict = {}
    for _ in range(rounds):
        for kind in KINDS:
            for name, folder in folders.items():
                out = subprocess.run(
                    [sys.executable, __file__, "--worker", str(folder), kind, str(reps)],
                    capture_output=True, text=True, check=True).stdout
                got = json.loads(out.splitlines()[-1])
                kept = results.setdefault((kind, name), got)
                for key in ("floor", "run"):
                    kept[key] = min(kept[key], got[key])
    return results


def report(results: dict, folders: dict[str, Path]) -> None:
    print(f"# put+put+diff_stats over json.loads of both texts, N={N} "
          f"(CPU time, best of all rounds); Python {platform.python_version()}")
    print(f"{'case':>9} {'build':>7} {'floor ms':>9} {'run ms':>8} {'run/fl':>7}  digest")
    for kind in KINDS:
        digests = set()
        for name in folders:
            got = results[(kind, name)]
            digests.add(got["digest"])
            assert got["roundtrip"] is True, (kind, name)
            assert got["compiled"] is (name != "pure"), (kind, name, got["compiled"])
            print(f"{kind:>9} {name:>7} {got['floor'] * 1000:9.1f} {got['run'] * 1000:8.1f} "
                  f"{got['run'] / got['floor']:7.2f}  {got['digest']}")
        if len(digests) != 1:
            raise SystemExit(f"{kind}: the copies disagree: {sorted(digests)}")
    for name in folders:
        worst = max(results[(kind, name)]["run"] / results[(kind, name)]["floor"]
                    for kind in KINDS)
        verdict = "met" if worst <= TARGET else "NOT met"
        print(f"target: {name}: worst of {', '.join(KINDS)} {worst:.2f} "
              f"(at most {TARGET:g}): {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reps", type=int, default=3, help="measurements per worker")
    parser.add_argument("--keep", type=Path, help="build in this folder and keep it")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        folder, kind, reps = args.worker
        worker(folder, kind, int(reps))
        return
    missing = missing_tools()
    if missing:
        raise SystemExit(f"this benchmark needs {' and '.join(missing)}: "
                         ".venv/bin/pip install 'cython>=3' 'mypy>=1.10' setuptools")
    base = args.keep or Path(tempfile.mkdtemp(prefix="cfgpatch-compiled-"))
    try:
        folders = {name: copy_package(base / name) for name in ("pure", "cython", "mypyc")}
        compile_cython(folders["cython"])
        compile_mypyc(folders["mypyc"])
        report(measure(folders, args.rounds, args.reps), folders)
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
