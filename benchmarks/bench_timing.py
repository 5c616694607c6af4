"""Side-by-side timing for the benchmarks: interleaved rounds, the minimum of each kept,
the garbage collector paused inside each timed call (as ``timeit`` does)."""

from __future__ import annotations

import gc
import math
import time


def clock_factory(wall: bool):
    return time.perf_counter if wall else time.process_time


def measure(funcs: dict, reps: int, clock) -> dict:
    """Minimum time of each function over ``reps`` interleaved rounds."""
    best = {name: math.inf for name in funcs}
    for _ in range(reps):
        for name, func in funcs.items():
            gc.collect()
            gc.disable()  # as timeit does: collections triggered by earlier garbage
            try:          # would land on whichever column happens to run next
                start = clock()
                func()
                best[name] = min(best[name], clock() - start)
            finally:
                gc.enable()
    return best


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.1f}"
