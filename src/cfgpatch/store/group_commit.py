"""Group commit: the appends that threads of one process make at the same time, written
to the database in one statement (one round trip, one transaction, one flush of the log).

A thread calling :meth:`GroupCommit.submit` queues its item.  If no batch is being
written, it becomes the *leader*: it takes the queued items (at most one per key, so
two writes of one document never meet in a batch; at most ``max_batch``), writes them
with ``flush`` and hands every waiting thread its own outcome.  Items queued while a
batch is in flight wait for it and go together in the next one, which the first of
them leads.  So under load the batches grow by themselves, and a lone writer pays
nothing but a lock: its batch is itself.

``flush(items)`` answers one outcome per item, in order (an exception object is raised
in that item's thread); an exception raised by ``flush`` itself is raised in every
thread of the batch.  ``flush`` returns only once the batch is durable, so no thread
is answered before its write is committed: the store's guarantees are those of one
append at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")
#: Most items one statement carries (the rest wait for the next batch).
MAX_BATCH = 64


class _Waiting(Generic[T, R]):
    """One queued item: its key, its outcome once written, and the lock its thread
    sleeps on until the leader wakes it (done, or to lead the next batch)."""

    __slots__ = ("item", "key", "outcome", "done", "_wake")

    def __init__(self, item: T, key: Hashable) -> None:
        self.item = item
        self.key = key
        self.outcome: R | BaseException | None = None
        self.done = False
        self._wake = threading.Lock()
        self._wake.acquire()

    def sleep(self) -> None:
        self._wake.acquire()

    def wake(self) -> None:
        self._wake.release()


class GroupCommit(Generic[T, R]):
    """Batches concurrent ``submit(item)`` calls into ``flush(items)`` (module docstring)."""

    def __init__(self, flush: Callable[[list[T]], list[R | BaseException]],
                 key: Callable[[T], Hashable], max_batch: int = MAX_BATCH) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be 1 or more")
        self._flush = flush
        self._key = key
        self.max_batch = max_batch
        self._lock = threading.Lock()
        self._queue: list[_Waiting[T, R]] = []
        self._busy = False  # a leader is writing a batch
        #: Batches written and items in them (for tests and benchmarks).
        self.batches = 0
        self.items = 0

    def submit(self, item: T) -> R:
        """Write ``item`` with others queued at the same time; its outcome, or raise it."""
        me: _Waiting[T, R] = _Waiting(item, self._key(item))
        with self._lock:
            self._queue.append(me)
            leading = not self._busy
            self._busy = True
        if not leading:
            me.sleep()
        if not me.done:  # woken to lead (or leading from the start)
            self._lead(me)
        if isinstance(me.outcome, BaseException):
            raise me.outcome
        return me.outcome  # type: ignore[return-value]

    def _lead(self, me: _Waiting[T, R]) -> None:
        """Write batches until ``me`` is written, then hand the lead to the first item
        still queued (or stop leading)."""
        try:
            while not me.done:
                self._write(self._take(), me)
        finally:
            with self._lock:
                if self._queue:
                    self._queue[0].wake()  # not done: it leads the next batch
                else:
                    self._busy = False

    def _take(self) -> list[_Waiting[T, R]]:
        """Remove from the queue the next batch: queue order, one item per key."""
        with self._lock:
            batch: list[_Waiting[T, R]] = []
            keys: set[Hashable] = set()
            rest: list[_Waiting[T, R]] = []
            for waiting in self._queue:
                if waiting.key in keys or len(batch) >= self.max_batch:
                    rest.append(waiting)
                else:
                    keys.add(waiting.key)
                    batch.append(waiting)
            self._queue = rest
            return batch

    def _write(self, batch: list[_Waiting[T, R]], leader: _Waiting[T, R]) -> None:
        """Write ``batch`` and wake its threads but the ``leader``'s own."""
        outcomes: list[R | BaseException]
        try:
            outcomes = self._flush([waiting.item for waiting in batch])
            if len(outcomes) != len(batch):
                raise AssertionError(f"flush answered {len(outcomes)} outcomes "
                                     f"for {len(batch)} items")
        except BaseException as error:  # every item of the batch fails with it
            outcomes = [error] * len(batch)
        self.batches += 1
        self.items += len(batch)
        for waiting, outcome in zip(batch, outcomes, strict=True):
            waiting.outcome = outcome
            waiting.done = True
            if waiting is not leader:
                waiting.wake()
