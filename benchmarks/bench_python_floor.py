"""The least any pure-Python ``run`` can spend on a reversal or shuffle of 20,000 routes.

Issue 14 asks for put a + put b + diff_stats within 5x ``json.loads`` of both texts
on the reversal and the random shuffle of 20,000 distinct routes
(``bench_edges.py``).  The contract's patch for those pairs is fixed: unmatched
routes are paired in order and compared member by member, so the reversal's
patch has 114,455 operations.  This script measures, beside the floor and in the
same interleaved rounds, the smallest pure-Python version of each step that
``run`` cannot skip, each given every answer that is not its own work for free
(computed before the clock starts):

* ``reads``: decoding both texts and writing canonical text once per element of
  ``a`` (``b``'s elements repeat ``a``'s, so a put of ``b`` can reuse them);
* ``traverse``: comparing the paired elements member by member and making one
  operation tuple (with its path) per difference; the pairs are given, and an
  array inside an element counts as one value (no alignment);
* ``text``: one f-string per operation of the real patch, the values' texts
  given, joined once, and its SHA-1 digest;
* ``apply``: one store per operation of the real patch into a copy of its parent
  (each parent copied once, found by a dict lookup of its pointer; the path only
  split once);
* ``check``: the canonical text of every route the patch wrote into (the round
  trip compares the result's text with ``b``'s; the other routes' texts are
  cached).

The sum is a lower bound for a Python implementation of the contract with this
design; it is printed over the floor beside the real ``run``.

    .venv/bin/python benchmarks/bench_python_floor.py [--wall]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
from pathlib import Path

from cfgpatch import run
from cfgpatch.diffing import diff_plan
from cfgpatch.jsonvalue import SCALAR_TEXT, canonical_many, canonical_unchecked
from cfgpatch.lcs import align
from cfgpatch.text_cache import TextCache

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
from bench_edges import edge_texts  # noqa: E402
from bench_timing import clock_factory, measure, ms  # noqa: E402

TARGET = 5.0


def paired(xs: list, ys: list, keys_x: list[str], keys_y: list[str]) -> list[tuple]:
    """The element pairs of the contract's gaps: (x, y, position of y), in order."""
    runs = align(keys_x, keys_y, None)
    runs.append((len(xs), len(ys), 0))
    pairs, pi, pj = [], 0, 0
    for i, j, length in runs:
        for q in range(min(i - pi, j - pj)):
            pairs.append((xs[pi + q], ys[pj + q], pj + q))
        pi, pj = i + length, j + length
    return pairs


def least_traverse(pairs: list[tuple], prefix: str) -> list[tuple]:
    """One operation tuple per differing member of each pair (objects of one shape)."""
    ops = []
    add = ops.append
    for x, y, position in pairs:
        base = f"{prefix}/{position}/"
        for key, xv in x.items():
            yv = y[key]
            if type(xv) is dict:
                for inner, xi in xv.items():
                    yi = yv[inner]
                    if type(xi) is not type(yi) or xi != yi:
                        add(("replace", base + key + "/" + inner, yi))
            elif type(xv) is not type(yv) or xv != yv:
                add(("replace", base + key, yv))
    return ops


def least_text(ops: list[tuple]) -> str:
    """The patch's text from given value texts, and its digest."""
    text = "[" + ",".join([f'{{"op":"{op}","path":"{path}","value":{value}}}'
                           for op, path, value in ops]) + "]"
    hashlib.sha1(text.encode("utf-8")).hexdigest()
    return text


def least_apply(ops: list[tuple], parents: dict[str, dict]) -> dict[str, dict]:
    """One store per operation into a copy of its parent (each parent copied once)."""
    copies: dict[str, dict] = {}
    for _, path, value in ops:
        head, _, token = path.rpartition("/")
        target = copies.get(head)
        if target is None:
            target = copies[head] = parents[head].copy()
        target[token] = value
    return copies


def case(kind: str, n: int, reps: int, clock) -> dict:
    ta, tb = edge_texts(kind, n)
    a, b = json.loads(ta), json.loads(tb)
    cache = TextCache()
    plan = diff_plan(a, b, cache)
    pairs = paired(a["routes"], b["routes"], cache.keys(a["routes"]), cache.keys(b["routes"]))
    ops = [(op, path, SCALAR_TEXT[type(value)](value) if type(value) in SCALAR_TEXT
            else cache.text(value)) for op, path, value, _ in plan if op != "move"]
    stores = [(op, path, value) for op, path, value, _ in plan if op == "replace"]
    # Where each written parent is in ``a``: looked up before the clock starts.
    parents = {}
    for _, path, _ in stores:
        head = path.rpartition("/")[0]
        if head not in parents:
            node = a
            for token in head.split("/")[1:]:
                node = node[int(token)] if type(node) is list else node[token]
            parents[head] = node if type(node) is dict else dict(enumerate(node))
    # The routes written into, as ``b`` has them (what the result's text must encode).
    written = [b["routes"][int(position)]
               for position in sorted({path.split("/")[2] for _, path, _ in stores})]
    operations = [["put", "a", ta], ["put", "b", tb], ["diff_stats", "a", "b"]]
    times = measure({
        "floor": lambda: (json.loads(ta), json.loads(tb)),
        "reads": lambda: (canonical_many(json.loads(ta)["routes"]), json.loads(tb)),
        "traverse": lambda: least_traverse(pairs, "/routes"),
        "text": lambda: least_text(ops),
        "apply": lambda: least_apply(stores, parents),
        "check": lambda: canonical_many(written),
        "run": lambda: run(operations),
    }, reps, clock)
    times["operations"] = len(plan)
    times["document"] = len(canonical_unchecked(b))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args(argv)
    clock = clock_factory(args.wall)
    steps = ("reads", "traverse", "text", "apply", "check")
    print(f"# least pure-Python work of put+put+diff_stats ({'wall' if args.wall else 'CPU'} "
          f"time, min of {args.reps}); Python {platform.python_version()}")
    print(f"{'case':>9} {'ops':>7} {'floor ms':>9} " + " ".join(f"{s:>9}" for s in steps)
          + f" {'least/fl':>9} {'run/fl':>7}")
    for kind in ("reversal", "shuffle"):
        t = case(kind, 20000, args.reps, clock)
        least = sum(t[s] for s in steps)
        print(f"{kind:>9} {t['operations']:>7} {ms(t['floor'])} "
              + " ".join(ms(t[s]) for s in steps)
              + f" {least / t['floor']:>9.2f} {t['run'] / t['floor']:>7.2f}")
        print(f"target: {kind} N=20000 within {TARGET}x: the least Python work alone is "
              f"{least / t['floor']:.2f}x ({'below' if least / t['floor'] < TARGET else 'above'}"
              f" the target), run is {t['run'] / t['floor']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
