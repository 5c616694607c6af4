#!/usr/bin/env python3
"""Strategic merge on long lists: our O(n log n) list handling against Go's O(n^2)
steps replayed literally (the reference implementation kept for the tests).

Prints, for growing list sizes, the time of ``strategic_merge`` and of the
de-duplication step done both ways, measured side by side in one run.

    python benchmarks/bench_kube_strategic.py
"""

from __future__ import annotations

import time

from cfgpatch.kube.engine.strategic import strategic_merge
from cfgpatch.kube.go.runtime import dedupe_in_place, dedupe_in_place_slow
from cfgpatch.kube.schema.node import builtin_schema


def timed(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def main() -> None:
    node = builtin_schema().for_kind("v1", "Pod")
    print(f"{'items':>6} {'patch':>6} {'merge s':>8} {'dedupe fast s':>14} {'go-literal s':>13} "
          f"{'ratio':>6}")
    for size, changed in ((200, 20), (1000, 100), (3000, 300)):
        obj = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"finalizers": [f"f{i}" for i in range(size)]},
               "spec": {"containers": [{"name": "app", "env": [
                   {"name": f"E{i}", "value": str(i)} for i in range(size)]}]}}
        patch = {"metadata": {"finalizers": [f"f{i * 7}" for i in range(changed)] + ["new"]},
                 "spec": {"containers": [{"name": "app", "env": [
                     {"name": f"E{i * 3}", "value": "x"} for i in range(changed)]}]}}
        merge = timed(strategic_merge, obj, patch, node)
        scalars = [f"f{i % (size // 2)}" for i in range(size)]
        fast = timed(dedupe_in_place, list(scalars))
        slow = timed(dedupe_in_place_slow, list(scalars))
        print(f"{size:>6} {changed:>6} {merge:>8.3f} {fast:>14.4f} {slow:>13.4f} "
              f"{slow / fast:>6.1f}")


if __name__ == "__main__":
    main()
