"""PATCH computed on the event loop, appended with the loop's group commit.

A PATCH through a thread costs its worker process a hand-over to a thread of the
pool, the thread's turn at the interpreter lock, a sleep while the group commit
writes its row with others, and the hand-back to the loop: about a dozen context
switches per commit on PostgreSQL, more CPU than the computation itself.  So when
the document's head is known to this process and its value is cached (the common
case: the process wrote or read the head last), the PATCH runs here, on the loop:
the service's steps (:mod:`cfgpatch.lifecycle`) compute the new version at once,
and only the append waits, in the store's :class:`~cfgpatch.store.group_commit.
LoopGroupCommit` (one thread writes a batch of the rows the loop's requests queued
meanwhile).  Retention, when the new version starts a block, runs on a thread.

The computation holds the loop (and every other request of the process) while it
runs, as it held the interpreter lock on a thread, but without the lock's hand-over
every 5 ms: so only small writes run here, a patch of at most :data:`MAX_PATCH_BYTES`
on a head of at most :data:`MAX_HEAD_CHARS` characters (the benchmark's 4 KB
document takes about 0.1 ms).

Everything else takes the thread path as before, with the same outcome: a store
without an asynchronous append (``memory://``), a head this process does not know
or has not cached, a larger write, a rebased patch, a computation that would read the store (it is
stopped before the read: :data:`~cfgpatch.store.base.NO_READS`) and any refusal on
the guessed head (judged again on the store's head, as :func:`~cfgpatch.lifecycle.
guessing` does).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import CfgPatchError, StoreError
from ..lifecycle import Steps, Written, end_guess, guess_head
from ..service import Service
from ..store.base import NO_READS, ConcurrentUpdate, WouldBlock

#: The largest patch body and head text (characters) a write on the loop may have.
MAX_PATCH_BYTES = 16 * 1024
MAX_HEAD_CHARS = 64 * 1024
#: ``fallback(guess)``: the write on a thread, from the guessed head or the store's.
Fallback = Callable[[bool], Awaitable[Written]]


async def write_on_loop(service: Service, name: str, steps: Callable[[], Steps[Written]],
                        fallback: Fallback, in_thread: Callable[..., Awaitable[Any]],
                        timeout: float, size: int) -> Written:
    """The write ``steps()`` of ``name`` (a patch of ``size`` bytes), on this loop when it
    can be (module docstring), else ``fallback``'s; ``in_thread(func, *args)`` runs a
    blocking step (retention)."""
    append = getattr(service.store, "append_async", None)
    small = size <= MAX_PATCH_BYTES
    token = guess_head(service, name, MAX_HEAD_CHARS) if append and small else None
    if append is None or token is None:
        return await fallback(True)
    try:
        return await _drive(steps(), append, in_thread, asyncio.get_running_loop().time()
                            + timeout)
    except TimeoutError:
        raise StoreError(f"the write did not finish within {timeout:g} s (is the store "
                         "reachable?)") from None
    except WouldBlock:
        guessed = True  # nothing was written: the same write, on a thread
    except StoreError as error:
        if not isinstance(error, ConcurrentUpdate):
            raise  # the store is failing: never twice the wait
        guessed = False
    except CfgPatchError:
        guessed = False  # judged on a head that may not be the store's: judge again
    finally:
        end_guess(token)
    return await fallback(guessed)


async def _drive(steps: Steps[Written], append: Callable[..., Awaitable[int]],
                 in_thread: Callable[..., Awaitable[Any]], deadline: float) -> Written:
    """Run ``steps`` here (no store reads allowed), the append and any other blocking
    step awaited until ``deadline`` (the loop's clock; past it, ``TimeoutError``); the
    write's answer.  The append's own timer bounds its wait: the computation never waits."""
    loop = asyncio.get_running_loop()
    result: Any = None
    error: Exception | None = None
    started = False
    while True:
        reads = NO_READS.set(True)
        try:
            if not started:
                started = True
                step = next(steps)
            elif error is not None:
                step = steps.throw(error)
            else:
                step = steps.send(result)
        except StopIteration as stop:
            return stop.value
        finally:
            NO_READS.reset(reads)
        try:
            if step.append:
                result = await append(*step.args, **step.kwargs,
                                      timeout=deadline - loop.time())
            else:  # retention, once a block of versions
                async with asyncio.timeout_at(deadline):
                    result = await in_thread(step.func, *step.args, **step.kwargs)
            error = None
        except Exception as exc:  # the steps decide (a concurrent update, say)
            result, error = None, exc
