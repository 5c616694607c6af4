"""Group commit: the appends that threads of one process make at the same time, written
to the database in one statement (one round trip, one transaction, one flush of the log).

A thread calling :meth:`GroupCommit.submit` when fewer than ``flights`` batches are
being written becomes a *leader*: it writes its item with the items queued (at most
one per key, so two writes of one document never meet in a batch; at most
``max_batch``) by ``flush`` and hands every waiting thread its own outcome.  Items
that arrive while ``flights`` batches are being written queue; when a batch is
written, its leader hands its flight to the first queued item, which writes the next
batch with what has queued meanwhile.  So under load the batches grow by themselves,
and a lone writer pays nothing but a lock: its batch is itself.  Batches in flight at
the same time may each hold a row of the same document: each row is judged on its
own head by the database, as separate appends always were.

``flights`` trades CPU for waiting: with one, a write waits for the batch in flight
and then its own; with four, the benchmark's batches held about 2.5 rows instead of 7
and cost PostgreSQL about twice the CPU per commit.  Four committed more per second
while each PATCH took a thread of its own; since PATCHes are computed on the event
loop, one commits as much for less CPU (``docs/server.md``, "Cost").

``flush(items)`` answers one outcome per item, in order (an exception object is raised
in that item's thread).  An exception raised by ``flush`` itself (the database is
unreachable, say) is raised in every thread of the batch and in every thread queued
behind it, so that a lost database fails the waiting writes at once instead of one
batch after another (none of them was written: a failure is never an
acknowledgement).  ``flush`` returns only once the batch is durable, so no thread is
answered before its write is committed: the store's guarantees are those of one
append at a time.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")
E = TypeVar("E")
#: Most items one statement carries (the rest wait for the next batch).
MAX_BATCH = 64


class _Batching(Generic[T, R]):
    """What both group commits share: the settings, the counters, how a batch is picked
    from the queue and how ``flush``'s answer is checked."""

    def __init__(self, flush: Callable[[list[T]], list[R | BaseException]],
                 key: Callable[[T], Hashable], max_batch: int = MAX_BATCH,
                 flights: int = 1) -> None:
        if max_batch < 1 or flights < 1:
            raise ValueError("max_batch and flights must be 1 or more")
        self._flush = flush
        self._key = key
        self.max_batch = max_batch
        self.flights = flights
        self._flying = 0  # batches being written
        #: Batches written and items in them (for tests and benchmarks).
        self.batches = 0
        self.items = 0

    def _pick(self, queue: list[E], key_of: Callable[[E], Hashable],
              batch: list[E] | None = None) -> tuple[list[E], list[E]]:
        """The batch (``batch`` and, in queue order, the entries whose keys it lacks, up
        to ``max_batch``) and what stays queued."""
        batch = batch or []
        keys = {key_of(entry) for entry in batch}
        rest: list[E] = []
        for entry in queue:
            if key_of(entry) in keys or len(batch) >= self.max_batch:
                rest.append(entry)
            else:
                keys.add(key_of(entry))
                batch.append(entry)
        return batch, rest

    def _outcomes(self, items: list[T]) -> list[R | BaseException]:
        """``flush(items)``, one outcome per item (else an ``AssertionError``)."""
        return self._checked(items, self._flush(items))

    def _checked(self, items: list[T], outcomes: list[R | BaseException]
                 ) -> list[R | BaseException]:
        if len(outcomes) != len(items):
            raise AssertionError(f"flush answered {len(outcomes)} outcomes "
                                 f"for {len(items)} items")
        return outcomes

    def _counted(self, batch: list) -> None:
        self.batches += 1
        self.items += len(batch)


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


class GroupCommit(_Batching[T, R]):
    """Batches concurrent ``submit(item)`` calls into ``flush(items)`` (module docstring)."""

    def __init__(self, flush: Callable[[list[T]], list[R | BaseException]],
                 key: Callable[[T], Hashable], max_batch: int = MAX_BATCH,
                 flights: int = 1) -> None:
        super().__init__(flush, key, max_batch, flights)
        self._lock = threading.Lock()
        self._queue: list[_Waiting[T, R]] = []

    def submit(self, item: T) -> R:
        """Write ``item`` with others queued at the same time; its outcome, or raise it."""
        me: _Waiting[T, R] = _Waiting(item, self._key(item))
        with self._lock:
            leading = self._flying < self.flights
            if leading:
                self._flying += 1
            else:
                self._queue.append(me)
        if not leading:
            me.sleep()  # until its batch is written, or it is handed the lead
        if not me.done:
            self._lead(me)
        if isinstance(me.outcome, BaseException):
            raise me.outcome
        return me.outcome  # type: ignore[return-value]

    def _lead(self, me: _Waiting[T, R]) -> None:
        """Write ``me`` with what is queued, then hand this flight to the first item still
        queued (taken off the queue: it starts the next batch), or land it."""
        try:
            self._write(self._take(me), me)
        finally:
            with self._lock:
                if self._queue:
                    self._queue.pop(0).wake()  # not done: it leads the next batch
                else:
                    self._flying -= 1

    def _take(self, me: _Waiting[T, R]) -> list[_Waiting[T, R]]:
        """``me`` and, in queue order, the queued items whose keys the batch lacks."""
        with self._lock:
            batch, self._queue = self._pick(self._queue, _key_of_waiting, [me])
            return batch

    def _write(self, batch: list[_Waiting[T, R]], leader: _Waiting[T, R]) -> None:
        """Write ``batch`` and wake its threads but the ``leader``'s own."""
        outcomes: list[R | BaseException]
        try:
            outcomes = self._outcomes([waiting.item for waiting in batch])
        except BaseException as error:  # the batch fails, and the items queued behind it
            with self._lock:
                batch = batch + self._queue
                self._queue = []
            outcomes = [error] * len(batch)
        self._counted(batch)
        for waiting, outcome in zip(batch, outcomes, strict=True):
            waiting.outcome = outcome
            waiting.done = True
            if waiting is not leader:
                waiting.wake()


class LoopGroupCommit(_Batching[T, R]):
    """The group commit of writers that are tasks of one event loop: ``await submit(item)``.

    Up to ``flights`` batches are written at once, each by ``flush`` on a thread of
    the loop's default executor, or by ``flush_here`` awaited on the loop itself
    (a store with connections of the loop's own: no hand-over to a thread and back),
    while the loop serves other requests; items that
    arrive meanwhile queue and go in the next batch (at most one per key, at most
    ``max_batch``).  Outcomes and failures are those of :class:`GroupCommit`: a
    failing ``flush`` fails its batch and every item queued behind it.  A writer
    that stops waiting (its request timed out) does not take its item back: the
    batch holding it is written and may commit it.
    """

    def __init__(self, flush: Callable[[list[T]], list[R | BaseException]],
                 key: Callable[[T], Hashable], max_batch: int = MAX_BATCH,
                 flights: int = 1, *,
                 flush_here: Callable[[list[T]], Awaitable[list[R | BaseException]]]
                 | None = None,
                 close: Callable[[], None] | None = None) -> None:
        super().__init__(flush, key, max_batch, flights)
        self._flush_here = flush_here
        self._close = close
        self._queue: list[tuple[T, Hashable, asyncio.Future]] = []
        self._tasks: set[asyncio.Task] = set()  # the flights' tasks

    async def submit(self, item: T, timeout: float | None = None) -> R:
        """Write ``item`` with the others queued meanwhile; its outcome, or raise it (after
        ``timeout`` seconds, ``TimeoutError``: the writer stops waiting)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        self._queue.append((item, self._key(item), future))
        if self._flying < self.flights:
            self._flying += 1
            task = loop.create_task(self._fly(loop))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if timeout is None:
            return await future
        # A timer on the future itself: a tenth of asyncio.timeout's cost (no context
        # manager, no task lookup, no cancellation to take back).
        timer = loop.call_later(timeout, _time_out, future)
        try:
            return await future
        finally:
            timer.cancel()

    async def _fly(self, loop: asyncio.AbstractEventLoop) -> None:
        """Write batches while items are queued (landing in the same step as the last look
        at the queue: an item queued later starts a flight of its own)."""
        try:
            await self._write_queued(loop)
        finally:
            self._flying -= 1

    async def _write_queued(self, loop: asyncio.AbstractEventLoop) -> None:
        while self._queue:
            batch, self._queue = self._pick(self._queue, _key_of_entry)
            try:
                outcomes = await self._written(loop, [item for item, _, _ in batch])
            except Exception as error:  # the batch fails, and the items queued behind it
                batch, self._queue = batch + self._queue, []
                outcomes = [error] * len(batch)
            self._counted(batch)
            for (_, _, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():  # its writer stopped waiting
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)
            if self._queue:
                # One turn of the loop before the next batch: the requests whose bytes
                # arrived in the same turn as the last queued ones join them (batches
                # about a sixth larger in the benchmark, less CPU per commit).
                await asyncio.sleep(0)

    async def _written(self, loop: asyncio.AbstractEventLoop, items: list[T]
                       ) -> list[R | BaseException]:
        """``items``' outcomes: ``flush_here`` awaited on the loop, else ``flush`` on a
        thread of the loop's default executor."""
        if self._flush_here is None:
            return await loop.run_in_executor(None, self._outcomes, items)
        return self._checked(items, await self._flush_here(items))

    def close(self) -> None:
        """Release what ``flush_here`` holds (its loop ended, or the store closes)."""
        if self._close is not None:
            self._close()


def _time_out(future: asyncio.Future) -> None:
    if not future.done():
        future.set_exception(TimeoutError())


def _key_of_waiting(waiting: _Waiting) -> Hashable:
    return waiting.key


def _key_of_entry(entry: tuple) -> Hashable:
    return entry[1]


class PerLoop(Generic[T, R]):
    """One :class:`LoopGroupCommit` per event loop (a store may be used by several loops
    one after another, each in its own thread: a test client's, a server's)."""

    def __init__(self, make: Callable[[], LoopGroupCommit[T, R]]) -> None:
        self._make = make
        self._commits: dict[asyncio.AbstractEventLoop, LoopGroupCommit[T, R]] = {}
        self._lock = threading.Lock()

    def submit(self, item: T, timeout: float | None = None) -> Coroutine[Any, Any, R]:
        """This loop's :meth:`LoopGroupCommit.submit` of ``item`` (to await; no coroutine
        of its own in between: an append awaits through every frame of its chain)."""
        loop = asyncio.get_running_loop()
        commits = self._commits.get(loop)
        if commits is None:
            with self._lock:
                for old in [old for old in self._commits if old.is_closed()]:
                    self._commits.pop(old).close()
                commits = self._commits.setdefault(loop, self._make())
        return commits.submit(item, timeout)

    def close(self) -> None:
        """Close every loop's group commit (:meth:`LoopGroupCommit.close`)."""
        with self._lock:
            commits, self._commits = list(self._commits.values()), {}
        for commit in commits:
            commit.close()
