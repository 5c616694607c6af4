"""How fast the diff is on big route tables, next to its floor and to python-json-patch.

For every N in {1000, 5000, 20000, 100000} and E in {10, 50, 500}, a pair of
documents is built with ``gen``/``mutate`` and measured side by side, in this
one process, with interleaved repetitions (the minimum of each is kept, so
other load on the machine hurts every column alike):

* ``floor``: ``json.loads`` of the two documents' texts;
* ``canon``: ``json.loads`` plus a canonical ``json.dumps`` (sorted keys, no
  whitespace) of both: what a ``put`` costs done the plain way (parse, then
  write the canonical text);
* ``run``: ``run([put a, put b, diff_stats a b])``: strict parsing, canonical
  text of both versions, the diff, its digest and the round trip;
* ``stats``: ``diff_stats a b`` alone on a service that already holds both;
* ``make_patch``: python-json-patch's ``make_patch`` on the same parsed pair
  (its op count is shown too; it does not detect moves the same way, nor
  distinguish ``1`` from ``1.0``).

Then the targets, from one more measurement in which every time a ratio
compares is taken in the same interleaved loop (rows of the table are measured
one after the other, and this machine's speed drifts between them): ``run``
against the floor at N=20000, E=50, the growth exponent of ``run`` and
``stats`` from N=1000 to N=20000 at E=50, E=50 against E=10 at N=20000, and
``run`` against ``make_patch`` (from the table's row, whose columns are
interleaved).  Then ``run`` on two kinds of input the reader
of stored documents helps less (the pair pretty-printed; routes made all
distinct), an all-or-nothing ``apply`` of a 50-operation patch to the N=20000
document (with the new version's canonical text) against one ``json.loads``,
and the peak memory (tracemalloc) of ``run`` at N=100000, E=50 against the two
documents' parsed size.  Times are CPU time of this process
(``time.process_time``), which shared machines disturb less than wall time
(``--wall`` switches to wall time), with the garbage collector paused inside
each timed call, as ``timeit`` does.

Then the edges (``--only edges`` runs just these): every adversary of
alignment (reversal, rotation, random shuffle, interleaving of two halves, 50
block moves, many equal elements, few distinct values) over N = 2,000 and
20,000 routes, with ``run`` against ``json.loads`` of both texts, interleaved;
and the put of all-distinct route tables (N=20,000, E=50) against parsing plus
one canonical encode of both texts.

    .venv/bin/python benchmarks/bench_diff.py [--quick] [--wall] [--only edges]
        [--plot docs/bench_diff.png]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import platform
import sys
import tracemalloc
from pathlib import Path

from cfgpatch import run
from cfgpatch.fixtures import generate, mutate
from cfgpatch.jsonvalue import canonical
from cfgpatch.service import Service

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from bench_edges import print_edges  # noqa: E402  (the edges section, benchmarks/)
from bench_timing import clock_factory, measure, ms  # noqa: E402

try:
    import jsonpatch  # benchmark-only dependency (extra "bench")
except ImportError:  # pragma: no cover - shown in the output instead
    jsonpatch = None


def build_pair(n: int, edits: int) -> tuple[str, str]:
    a = generate({"n": n, "seed": 1})
    b = mutate(a, {"seed": 2, "edits": edits})
    return canonical(a), canonical(b)


def loaded_service(text_a: str, text_b: str) -> Service:
    service = Service()
    service.put("a", text_a)
    service.put("b", text_b)
    return service


def bench_pair(n: int, edits: int, reps: int, clock) -> dict:
    text_a, text_b = build_pair(n, edits)
    parsed = (json.loads(text_a), json.loads(text_b))
    service = loaded_service(text_a, text_b)
    ops = [["put", "a", text_a], ["put", "b", text_b], ["diff_stats", "a", "b"]]
    funcs = {
        "floor": lambda: (json.loads(text_a), json.loads(text_b)),
        "canon": lambda: (canonical(json.loads(text_a)), canonical(json.loads(text_b))),
        "run": lambda: run(ops),
        "stats": lambda: service.diff_stats("a", "b"),
    }
    if jsonpatch is not None and n <= 20000:
        funcs["make_patch"] = lambda: jsonpatch.make_patch(*parsed)
    times = measure(funcs, reps, clock)
    if jsonpatch is not None and n > 20000:
        times.update(measure({"make_patch": lambda: jsonpatch.make_patch(*parsed)}, 1, clock))
    stats = run(ops)[2]
    assert stats["roundtrip"] is True, stats
    times["ops"] = stats["ops"]
    times["moves"] = stats["move"]
    times["digest"] = stats["digest"]
    times["mp_ops"] = len(list(jsonpatch.make_patch(*parsed))) if jsonpatch else None
    return times


def bench_targets(reps: int, clock) -> dict:
    """The target ratios, every time in them measured in one interleaved loop.

    The table above measures one (N, E) pair at a time, so a ratio between two
    of its rows mixes moments of different machine load; here the pairs the
    ratios compare are timed round-robin, repetition by repetition.
    """
    funcs = {}
    for n, edits in ((1000, 50), (20000, 10), (20000, 50)):
        text_a, text_b = build_pair(n, edits)
        ops = [["put", "a", text_a], ["put", "b", text_b], ["diff_stats", "a", "b"]]
        service = loaded_service(text_a, text_b)
        funcs[("run", n, edits)] = lambda ops=ops: run(ops)
        funcs[("stats", n, edits)] = lambda service=service: service.diff_stats("a", "b")
        funcs[("floor", n, edits)] = (
            lambda a=text_a, b=text_b: (json.loads(a), json.loads(b)))
    return measure(funcs, reps, clock)


def print_targets(t: dict, row: dict) -> None:
    """``t`` from :func:`bench_targets`; ``row``: the table's N=20000, E=50 row."""
    print("# targets, every ratio from one interleaved measurement:")
    big, small, e10 = (20000, 50), (1000, 50), (20000, 10)
    print(f"N=20000, E=50: run / json.loads of both = "
          f"{t[('run', *big)] / t[('floor', *big)]:.3f}")
    for key in ("run", "stats", "floor"):
        exponent = math.log(t[(key, *big)] / t[(key, *small)]) / math.log(20)
        print(f"growth exponent N=1000 -> 20000, E=50, {key:>5}: {exponent:.3f}")
    print(f"N=20000: run E=50 / E=10 = {t[('run', *big)] / t[('run', *e10)]:.3f}, "
          f"stats E=50 / E=10 = {t[('stats', *big)] / t[('stats', *e10)]:.3f}")
    if "make_patch" in row:  # measured with the row's run and stats, interleaved
        print(f"N=20000, E=50: run / make_patch = {row['run'] / row['make_patch']:.3f}, "
              f"stats / make_patch = {row['stats'] / row['make_patch']:.3f}")


def bench_other_inputs(n: int, edits: int, reps: int, clock) -> dict:
    """``run`` against ``json.loads`` for inputs the fast reading helps less.

    ``pretty``: the same pair indented (not canonical, so every version is read
    by the general reader: decode, encode, screens); ``distinct``: every route
    made unique by an ``id`` member (no repeated elements to share).
    """
    text_a, text_b = build_pair(n, edits)
    a, b = json.loads(text_a), json.loads(text_b)
    variants = {"pretty": (json.dumps(a, indent=1), json.dumps(b, indent=1))}
    unique = generate({"n": n, "seed": 1})
    for index, route in enumerate(unique["routes"]):
        route["id"] = index
    variants["distinct"] = (canonical(unique),
                            canonical(mutate(unique, {"seed": 2, "edits": edits})))
    results = {}
    for name, (ta, tb) in variants.items():
        ops = [["put", "a", ta], ["put", "b", tb], ["diff_stats", "a", "b"]]
        times = measure({"floor": lambda ta=ta, tb=tb: (json.loads(ta), json.loads(tb)),
                         "run": lambda ops=ops: run(ops)}, reps, clock)
        assert run(ops)[2]["roundtrip"] is True
        results[name] = times
    return results


def fifty_op_patch(doc: dict) -> str:
    """A valid 50-operation patch spread over the route table."""
    routes = len(doc["routes"])
    ops = []
    for k in range(25):
        ops.append({"op": "replace", "path": f"/routes/{(k * 7919) % routes}/timeout_ms",
                    "value": 1234 + k})
    for k in range(15):
        ops.append({"op": "add", "path": f"/routes/{(k * 104729) % routes}",
                    "value": {"path": f"/new/{k}", "methods": ["GET"], "weight": 1.0}})
    for k in range(10):
        ops.append({"op": "remove", "path": f"/routes/{(k * 15485863) % (routes - 20)}"})
    return json.dumps(ops)


def bench_apply(n: int, reps: int, clock) -> dict:
    text_a, _ = build_pair(n, 0)
    patch = fifty_op_patch(json.loads(text_a))
    service = Service()
    service.put("a", text_a)

    def apply_once():
        service.apply("a", patch)

    times = measure({"loads": lambda: json.loads(text_a), "apply": apply_once}, reps, clock)
    return times


def bench_memory(n: int, edits: int) -> dict:
    text_a, text_b = build_pair(n, edits)
    gc.collect()
    tracemalloc.start()
    parsed = (json.loads(text_a), json.loads(text_b))
    parsed_size = tracemalloc.get_traced_memory()[0]
    del parsed
    gc.collect()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    result = run([["put", "a", text_a], ["put", "b", text_b], ["diff_stats", "a", "b"]])
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    assert result[2]["roundtrip"] is True
    return {"parsed": parsed_size, "peak": peak, "text": len(text_a) + len(text_b)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repetitions")
    parser.add_argument("--wall", action="store_true", help="wall-clock instead of CPU time")
    parser.add_argument("--plot", default="",
                        help="save the plot there (docs/bench_diff.png is made by the full run;"
                             " a run without --plot leaves it alone)")
    parser.add_argument("--only", choices=("edges",), help="run one section only")
    args = parser.parse_args(argv)
    clock = clock_factory(args.wall)
    if args.only == "edges":
        print(f"# cfgpatch diff benchmark, edges ({'wall' if args.wall else 'CPU'} time, "
              f"min of reps); Python {platform.python_version()} on {platform.machine()}")
        print_edges(clock, args.quick)
        return 0
    sizes = (1000, 5000, 20000) if args.quick else (1000, 5000, 20000, 100000)
    edit_counts = (10, 50) if args.quick else (10, 50, 500)
    reps_for = {1000: 15, 5000: 11, 20000: 11, 100000: 3}

    print(f"# cfgpatch diff benchmark ({'wall' if args.wall else 'CPU'} time, min of reps)")
    print(f"# Python {platform.python_version()} on {platform.machine()}, "
          f"{platform.system()} {platform.release()}; jsonpatch "
          f"{getattr(jsonpatch, '__version__', 'absent')}")
    header = (f"{'N':>7} {'E':>4} {'ops':>5} {'moves':>5} {'floor ms':>9} {'canon ms':>9} "
              f"{'run ms':>9} {'run/fl':>7} {'run/cn':>7} {'stats ms':>9} {'st/fl':>6} "
              f"{'mk_patch':>9} {'mp ops':>7} {'run/mp':>7}  digest")
    print(header)
    results: dict[tuple[int, int], dict] = {}
    for n in sizes:
        for edits in edit_counts:
            t = bench_pair(n, edits, reps_for[n], clock)
            results[(n, edits)] = t
            mp = t.get("make_patch")
            print(f"{n:>7} {edits:>4} {t['ops']:>5} {t['moves']:>5} {ms(t['floor'])} "
                  f"{ms(t['canon'])} {ms(t['run'])} {t['run'] / t['floor']:>7.2f} "
                  f"{t['run'] / t['canon']:>7.2f} {ms(t['stats'])} "
                  f"{t['stats'] / t['floor']:>6.2f} {ms(mp) if mp else '        -'} "
                  f"{t['mp_ops'] if t['mp_ops'] is not None else '-':>7} "
                  f"{(t['run'] / mp) if mp else float('nan'):>7.2f}  {t['digest']}")
            sys.stdout.flush()

    print()
    print_targets(bench_targets(9 if args.quick else 21, clock), results[(20000, 50)])

    for name, t in bench_other_inputs(20000, 50, 7, clock).items():
        print(f"N=20000, E=50, {name:>8} texts: run {ms(t['run'])} ms vs json.loads "
              f"{ms(t['floor'])} ms: ratio {t['run'] / t['floor']:.2f}")

    applied = bench_apply(20000, 9, clock)
    print(f"apply of a 50-op patch at N=20000 (with canonical text): {ms(applied['apply'])} ms"
          f" vs json.loads {ms(applied['loads'])} ms: ratio "
          f"{applied['apply'] / applied['loads']:.3f}")

    if not args.quick:
        memory = bench_memory(100000, 50)
        print(f"N=100000, E=50: peak {memory['peak'] / 2**20:.1f} MiB over the parsed size "
              f"{memory['parsed'] / 2**20:.1f} MiB of both documents: ratio "
              f"{memory['peak'] / memory['parsed']:.2f} (texts {memory['text'] / 2**20:.1f} MiB)")

    print()
    print_edges(clock, args.quick)

    if args.plot:
        plot(results, sizes, Path(args.plot))
    return 0


def plot(results: dict, sizes: tuple, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib absent: no plot")
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in (("run", "cfgpatch: put a, put b, diff_stats"),
                       ("stats", "cfgpatch: diff_stats alone"),
                       ("canon", "json.loads + canonical json.dumps of both"),
                       ("floor", "json.loads of both texts (floor)"),
                       ("make_patch", "python-json-patch make_patch")):
        xs = [n for n in sizes if key in results[(n, 50)]]
        ax.plot(xs, [results[(n, 50)][key] * 1000 for n in xs], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("routes (N), E = 50 edits")
    ax.set_ylabel("time (ms, CPU, min of repetitions)")
    ax.set_title("Diff of gen/mutate route tables")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"plot saved to {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


if __name__ == "__main__":
    sys.exit(main())
