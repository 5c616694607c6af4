"""Pausing Python's cyclic garbage collector while a bulk step builds acyclic trees.

CPython runs its cycle collector whenever enough container objects have been
allocated, and a full collection walks every live container.  Reading a
20,000-route document, diffing two of them and replaying the patch each build
hundreds of thousands of dicts, lists and tuples, none of which form a cycle
(JSON values are trees; freed values go by reference counting), so those
collections find nothing and cost about as much as the work itself when the
heap is big (``benchmarks/bench_edges.py``).

:func:`paused` keeps the collector off for the duration of such a step and
turns it back on afterwards, only if it was on when the outermost pause began.
Pauses nest and may overlap across threads: a lock-guarded count decides which
one switches the collector back on, so a collector that someone else turned
off stays off.  Nothing is lost: garbage with cycles made meanwhile is found
by the next collection after the pause.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

_lock = threading.Lock()
_depth = 0
_resume = False  # whether the outermost pause found the collector on

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def paused() -> Iterator[None]:
    """The collector off inside the block (it was on: it is on again after)."""
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()


def pausing(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` run inside :func:`paused`."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with paused():
            return function(*args, **kwargs)

    return wrapper
