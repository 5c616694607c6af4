"""Long polls: wait for the next version of a document.

``GET /v1/documents/NAME?wait=30`` with ``If-None-Match: "7"`` answers as soon
as the head is no longer version 7 (the new version, 200) or after 30 seconds
(304, as without ``wait``).  A GitOps controller follows a document with one
request per version instead of polling.

Commits reach a waiting poll in two ways:

* commits made by this process wake its polls at once (:meth:`Watcher.committed`);
* commits made by any other process (another worker, another replica) are seen
  by reading the head from the store every ``interval`` seconds.  One read serves
  every poll of that document in this process: a thousand controllers following
  one document cost one ``head_version`` query per interval, not a thousand.

Nothing is kept for a document nobody waits for, and a poll whose client hangs
up stops waiting at once (:func:`unless_gone`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any


async def unless_gone(waiting: Awaitable[bool],
                      receive: Callable[[], Awaitable[MutableMapping[str, Any]]]
                      ) -> bool | None:
    """``waiting``'s result, or ``None`` as soon as the client closes the connection
    (``receive`` gives ``http.disconnect``); the loser is cancelled."""

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    wait_task = asyncio.ensure_future(waiting)
    gone_task = asyncio.ensure_future(gone())
    try:
        await asyncio.wait({wait_task, gone_task}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (wait_task, gone_task):
            task.cancel()
        await asyncio.gather(wait_task, gone_task, return_exceptions=True)
    if wait_task.cancelled():
        return None
    return wait_task.result()  # a store error while waiting is the request's error


class _Followed:
    """What this process knows of one document some poll is waiting for."""

    def __init__(self) -> None:
        self.waiters = 0
        self.changed = asyncio.Event()
        self.lock = asyncio.Lock()
        self.read_at = float("-inf")
        self.head: int | None = None


class Watcher:
    """Wakes long polls when a document's head moves (see the module docstring)."""

    def __init__(self, read_head: Callable[[str], Awaitable[int | None]],
                 interval: float) -> None:
        self.read_head = read_head
        self.interval = interval
        self._followed: dict[str, _Followed] = {}

    def committed(self, name: str) -> None:
        """A version of ``name`` was committed here: wake its polls now."""
        followed = self._followed.get(name)
        if followed is not None:
            followed.read_at = float("-inf")
            followed.changed.set()

    async def wait(self, name: str, still: Callable[[int | None], bool],
                   timeout: float) -> bool:
        """Wait until ``still(head)`` is false (True) or ``timeout`` seconds pass (False)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        followed = self._followed.setdefault(name, _Followed())
        followed.waiters += 1
        try:
            while True:
                # A head shared by other polls may be older than the caller's tag:
                # a change is confirmed by a read of its own before it is believed.
                if (not still(await self._head(followed, name))
                        and not still(await self._head(followed, name, fresh=True))):
                    return True
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return False
                followed.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(followed.changed.wait(),
                                           min(self.interval, remaining))
        finally:
            followed.waiters -= 1
            if followed.waiters == 0:
                del self._followed[name]

    def following(self) -> int:
        """How many documents some poll waits for (for tests and metrics)."""
        return len(self._followed)

    async def _head(self, followed: _Followed, name: str, *, fresh: bool = False
                    ) -> int | None:
        """The head, read at most once per ``interval`` for all the polls of ``name``
        (``fresh``: read now)."""
        async with followed.lock:
            now = asyncio.get_running_loop().time()
            if fresh or now - followed.read_at >= self.interval:
                followed.head = await self.read_head(name)
                followed.read_at = asyncio.get_running_loop().time()
            return followed.head
