"""``append`` and ``append_async`` of the SQL stores, through their group commits.

Both stores write a version the same way: make the row, check its texts are UTF-8
(``utf8_only``'s rule), hand it to the thread group commit (``_commits``, :meth:`append`) or
the per-loop one (``_loop_commits``, :meth:`append_async`), and answer the version
written (``appended``).  A store gives its row (``_make_row``: the columns its table
holds) and how its driver's errors read while writing (``_write_errors``; none by
default: PostgreSQL's batches already raise ``StoreError``).
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from .base import appended, not_utf8
from .group_commit import GroupCommit, PerLoop


class GroupAppends:
    """The two appends of a store with a thread and a per-loop group commit."""

    _commits: GroupCommit[Any, bool]
    _loop_commits: PerLoop[Any, bool]

    @staticmethod
    def _make_row(name: str, text: str, expected_head: int | None, author: str | None,
                  message: str | None, delta: str | None, deleted: bool) -> tuple:
        raise NotImplementedError

    @staticmethod
    def _write_errors() -> Any:
        return nullcontext()

    def append(
        self,
        name: str,
        text: str,
        *,
        expected_head: int | None,
        value: Any = None,
        author: str | None = None,
        message: str | None = None,
        delta: str | None = None,
        deleted: bool = False,
    ) -> int:
        row = self._make_row(name, text, expected_head, author, message, delta, deleted)
        try:  # utf8_only's rule, without a generator's context manager for each write
            with self._write_errors():
                inserted = self._commits.submit(row)  # raises a row's StoreError
        except UnicodeEncodeError:
            raise not_utf8(name=name, text=text, author=author, message=message) from None
        return appended(row, inserted)

    async def append_async(self, name: str, text: str, *, expected_head: int | None,
                           value: Any = None, author: str | None = None,
                           message: str | None = None, delta: str | None = None,
                           deleted: bool = False, timeout: float | None = None) -> int:
        """:meth:`append` for a task of an event loop: the write runs on a thread with
        the appends other tasks make meanwhile (:class:`.LoopGroupCommit`); after
        ``timeout`` seconds, ``TimeoutError`` (the row may still be written)."""
        row = self._make_row(name, text, expected_head, author, message, delta, deleted)
        try:
            with self._write_errors():
                inserted = await self._loop_commits.submit(row, timeout)
        except UnicodeEncodeError:
            raise not_utf8(name=name, text=text, author=author, message=message) from None
        return appended(row, inserted)
