"""The edges of the diff: alignment adversaries and all-distinct documents.

Every adversary of alignment (reversal, rotation, random shuffle, interleaving of two
halves, 50 block moves, many equal elements, few distinct values) over N = 2,000 and
20,000 routes, with ``run`` (put a, put b, diff_stats) against ``json.loads`` of both
texts, interleaved; and the put of all-distinct route tables (N=20,000, E=50) against
parsing plus one canonical encode of both texts.  ``bench_diff.py`` ends with this
section (``bench_diff.py --only edges`` runs it alone, as does this script).

    .venv/bin/python benchmarks/bench_edges.py [--quick] [--wall]
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import sys
from pathlib import Path

from cfgpatch import diff, gc_pause, run
from cfgpatch.fixtures import generate, mutate
from cfgpatch.jsonvalue import canonical, canonical_unchecked
from cfgpatch.service import Service

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from bench_timing import clock_factory, measure, ms  # noqa: E402

from adversaries import edit as edit_adversary  # noqa: E402  (shared with the lcs tests)
from adversaries import transform  # noqa: E402

#: The adversaries of the edges section, in print order.
EDGE_KINDS = ("reversal", "rotation", "shuffle", "interleave", "blocks50", "many-equal",
              "few4", "few2")
#: Deletions, insertions of new routes and duplications made after the reordering
#: (so that elements found on one side only occur, as in real edits).
EDGE_EDITS = 20


def _distinct_routes(n: int) -> list[dict]:
    """``generate``'s ``n`` routes, made distinct by an ``id`` member (as ``distinct_texts``)."""
    return [{**route, "id": k} for k, route in enumerate(generate({"n": n, "seed": 1})["routes"])]


def edge_arrays(kind: str, n: int) -> tuple[list[int], list[int]]:
    """Two arrays of route numbers: ``a`` and its adversary ``b`` (then edited)."""
    rng = random.Random(n * 31 + EDGE_KINDS.index(kind))
    if kind in ("few4", "few2"):
        alphabet = int(kind[3:])
        a = [rng.randrange(alphabet) for _ in range(n)]
        b = [rng.randrange(alphabet) for _ in range(n)]
    elif kind == "many-equal":  # one route 19 times in 20, the rest distinct
        a = [0 if rng.randrange(20) else k for k in range(n)]
        b = [0 if rng.randrange(20) else k for k in range(n)]
    elif kind == "blocks50":
        size = -(-n // 50)
        blocks = [list(range(k, min(n, k + size))) for k in range(0, n, size)]
        rng.shuffle(blocks)
        a, b = list(range(n)), [x for block in blocks for x in block]
    else:
        a = list(range(n))
        b = transform(kind, a, rng, n)
    return a, edit_adversary(b, rng, EDGE_EDITS, 2 * n)


def edge_texts(kind: str, n: int) -> tuple[str, str]:
    a, b = edge_arrays(kind, n)
    routes = _distinct_routes(n)
    extra = {v: {**routes[v % n], "id": v} for v in set(b) if v >= n}

    def doc(values: list[int]) -> str:
        picked = [routes[v] if v < n else extra[v] for v in values]
        return canonical({"service": "edges", "routes": picked})

    return doc(a), doc(b)


def bench_edges(sizes: tuple[int, ...], clock) -> dict:
    """``run`` against ``json.loads`` of both texts, per adversary and size (interleaved)."""
    results = {}
    for n in sizes:
        for kind in EDGE_KINDS:
            ta, tb = edge_texts(kind, n)
            ops = [["put", "a", ta], ["put", "b", tb], ["diff_stats", "a", "b"]]
            stats = run(ops)[2]
            assert stats["roundtrip"] is True, (kind, n, stats)
            patch = diff(json.loads(ta), json.loads(tb))  # the contract's output, as dicts
            times = measure({"floor": lambda ta=ta, tb=tb: (json.loads(ta), json.loads(tb)),
                             "run": lambda ops=ops: run(ops),
                             "patch": lambda patch=patch: canonical_unchecked(patch)},
                            7 if n <= 2000 else 5, clock)
            times.update(ops=stats["ops"], moves=stats["move"], digest=stats["digest"],
                         size=len(canonical_unchecked(patch)) / (len(ta) + len(tb)))
            results[(kind, n)] = times
            print(f"{kind:>11} {n:>6} {times['ops']:>6} {times['moves']:>6} "
                  f"{ms(times['floor'])} {ms(times['run'])} "
                  f"{times['run'] / times['floor']:>7.2f} {times['size']:>7.2f} "
                  f"{times['patch'] / times['floor']:>7.2f}  {times['digest']}")
            sys.stdout.flush()
    return results


def distinct_texts(n: int, edits: int) -> tuple[str, str]:
    unique = generate({"n": n, "seed": 1})
    for index, route in enumerate(unique["routes"]):
        route["id"] = index
    return canonical(unique), canonical(mutate(unique, {"seed": 2, "edits": edits}))


def bench_distinct_put(n: int, edits: int, reps: int, clock) -> dict:
    """Put of all-distinct route tables against parse + one canonical encode of both."""
    ta, tb = distinct_texts(n, edits)

    def puts():
        service = Service()
        service.put("a", ta)
        service.put("b", tb)

    ops = [["put", "a", ta], ["put", "b", tb], ["diff_stats", "a", "b"]]
    return measure({
        "canon": lambda: (canonical(json.loads(ta)), canonical(json.loads(tb))),
        "put": puts,
        "run": lambda: run(ops),
    }, reps, clock)


class _NoPause:
    """Stands in for the ``gc`` module inside :mod:`cfgpatch.gc_pause`: pauses do nothing."""

    @staticmethod
    def isenabled() -> bool:
        return gc.isenabled()

    @staticmethod
    def disable() -> None:
        pass

    @staticmethod
    def enable() -> None:
        gc.enable()


def measure_collecting(funcs: dict, reps: int, clock) -> dict:
    """As ``measure``, but the collector stays on inside the timed calls (as in a server)."""
    best = {name: float("inf") for name in funcs}
    for _ in range(reps):
        for name, func in funcs.items():
            gc.collect()
            start = clock()
            func()
            best[name] = min(best[name], clock() - start)
    return best


def bench_collector(n: int, reps: int, clock) -> dict:
    """``run`` on the reversal with the collector on: with the bulk steps' pauses
    (:mod:`cfgpatch.gc_pause`) and without them, beside ``json.loads`` of both texts."""
    ta, tb = edge_texts("reversal", n)
    ops = [["put", "a", ta], ["put", "b", tb], ["diff_stats", "a", "b"]]

    def unpaused():
        gc_pause.gc = _NoPause
        try:
            run(ops)
        finally:
            gc_pause.gc = gc

    return measure_collecting({"floor": lambda: (json.loads(ta), json.loads(tb)),
                               "paused": lambda: run(ops), "unpaused": unpaused}, reps, clock)


def print_edges(clock, quick: bool) -> None:
    print("# edges: put a, put b, diff_stats on alignment adversaries "
          f"(distinct routes unless 'few'/'many-equal'; {EDGE_EDITS} edits after)")
    print("# size: the patch's canonical text over both documents' texts; pt/fl: writing that")
    print("# text from ready operation dicts with the C encoder, over the floor")
    print(f"{'case':>11} {'N':>6} {'ops':>6} {'moves':>6} {'floor ms':>9} {'run ms':>9} "
          f"{'run/fl':>7} {'size':>7} {'pt/fl':>7}  digest")
    results = bench_edges((2000,) if quick else (2000, 20000), clock)
    worst = max(results, key=lambda key: results[key]["run"] / results[key]["floor"])
    for kind in ("reversal", "rotation", "shuffle"):
        if (kind, 20000) in results:
            ratio = results[(kind, 20000)]["run"] / results[(kind, 20000)]["floor"]
            print(f"target: {kind} N=20000 run / json.loads = {ratio:.2f} (at most 5): "
                  f"{'met' if ratio <= 5 else 'NOT met'}")
    ratio = results[worst]["run"] / results[worst]["floor"]
    print(f"target: worst adversary {worst[0]} N={worst[1]}: {ratio:.2f} (at most 10): "
          f"{'met' if ratio <= 10 else 'NOT met'}")
    n = 2000 if quick else 20000
    t = bench_distinct_put(n, 50, 5 if quick else 9, clock)
    print(f"all-distinct N={n}, E=50: parse+canonical of both {ms(t['canon'])} ms, "
          f"put a+b {ms(t['put'])} ms (ratio {t['put'] / t['canon']:.3f}, target 1.2: "
          f"{'met' if t['put'] / t['canon'] <= 1.2 else 'NOT met'}), "
          f"put+put+diff_stats {ms(t['run'])} ms (ratio {t['run'] / t['canon']:.3f})")
    t = bench_collector(n, 5, clock)
    print(f"collector on (as in a server), reversal N={n}: json.loads {ms(t['floor'])} ms, "
          f"run {ms(t['paused'])} ms with the bulk steps paused, {ms(t['unpaused'])} ms "
          f"without (paused/unpaused {t['paused'] / t['unpaused']:.2f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="N=2,000 only, fewer repetitions")
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    args = parser.parse_args(argv)
    clock = clock_factory(args.wall)
    print(f"# cfgpatch diff benchmark, edges ({'wall' if args.wall else 'CPU'} time, "
          f"min of reps); Python {platform.python_version()} on {platform.machine()}")
    print_edges(clock, args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
