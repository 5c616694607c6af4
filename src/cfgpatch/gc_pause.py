"""Pausing Python's cyclic garbage collector while a bulk step builds acyclic trees.

CPython runs its cycle collector whenever enough container objects have been
allocated, and a full collection walks every live container.  Reading a
20,000-route document, diffing two of them and replaying the patch each build
hundreds of thousands of dicts, lists and tuples, none of which form a cycle
(JSON values are trees; freed values go by reference counting), so those
collections find nothing; with big heaps they cost about a tenth of the work
(``benchmarks/bench_edges.py`` prints the row "collector on").

:func:`paused` keeps the collector off for the duration of such a step and
turns it back on afterwards if it was on when the step began.  Pauses nest (an
inner pause finds the collector off and leaves it off) and may overlap across
threads without a lock: a pause that found the collector on turns it on again
when it ends, so overlapping pauses end with it on (it may come back on while
another thread's pause still runs, which costs only speed), and a collector
that was off when a pause began is left off.  Nothing is lost: garbage with
cycles made meanwhile is found by the next collection.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def paused() -> Iterator[None]:
    """The collector off inside the block (it was on: it is on again after)."""
    resume = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if resume:
            gc.enable()


def pausing(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` run inside :func:`paused`."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with paused():
            return function(*args, **kwargs)

    return wrapper
