"""A write of the service as steps: the optimistic loop every write runs.

:class:`WriteSteps` (a part of :class:`~cfgpatch.service.Service`) holds the loop
that commits a computed version (:meth:`WriteSteps._writing`): read or guess the
head, judge the preconditions on it, compute the new value, check it against the
limits, append it if the head is still the same, else start again from the new
head.  It is a generator of :class:`~cfgpatch.lifecycle.Blocking` steps (the
store's append, retention), so that whoever calls it decides where the waits on the
store run: :func:`~cfgpatch.lifecycle.drive` on the calling thread (every
synchronous method of the service), or the HTTP server's event loop for a PATCH
(:mod:`cfgpatch.server.loop_writes`).  :meth:`WriteSteps.applying` (a JSON Patch)
and :meth:`WriteSteps.merging` (a merge patch) are those writes as steps; the
service's ``apply`` and ``apply_merge_patch`` drive them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .diffing import diff_plan, plan_text
from .errors import LimitExceeded
from .jsonpatch import apply_patch, parse_patch_text
from .jsonvalue import JSON, canonical, parse
from .lifecycle import Blocking, Lifecycle, State, Steps, Written, drive
from .limits import ServiceLimits
from .mergepatch import apply_merge_patch
from .preconditions import NONE, Preconditions
from .store.base import ConcurrentUpdate
from .store.deltas import block_start
from .text_cache import TextCache

#: How often a write is recomputed when other writers keep moving the head.
MAX_WRITE_ATTEMPTS = 1000
#: Alignment steps the diff engine may take to make the delta of a whole new text
#: (beyond it the version is kept whole).
DELTA_WORK = 1_000_000


class WriteSteps(Lifecycle):
    """The service's writes as steps (a mixin of :class:`~cfgpatch.service.Service`,
    which provides what is declared here)."""

    limits: ServiceLimits
    texts: TextCache
    _rebased: Callable[..., list]

    def applying(self, name: str, patch_text: str, base_version: int | None = None, *,
                 author: str | None = None, message: str | None = None,
                 when: Preconditions = NONE, tests_on_head: bool = False, force: bool = True
                 ) -> Steps[Written]:
        """:meth:`~cfgpatch.service.Service.apply` as steps, without the guessed head."""
        state = self._lookups(name, base_version)
        when.evaluate(name, state[0])
        patch, canon = parse_patch_text(patch_text)
        self.limits.check_patch(patch, patch_text)
        self.limits.check_numbers(patch_text, "the patch")

        def compute(head: int | None) -> tuple[JSON, list]:
            assert head is not None  # must_exist: _write passes the existing head
            doc = self.values.value(name, head)
            patch_now = patch
            if base_version is not None and base_version != head:
                patch_now = self._rebased(name, patch, base_version, doc, tests_on_head)
            return apply_patch(doc, patch_now, share_unchanged=True, trusted=True,
                               copy_budget=self.limits.max_document_bytes), patch_now

        return (yield from self._writing(name, compute, author=author, message=message,
                                         when=when, force=force, state=state, replayable=True,
                                         known=(patch, canon)))

    def merging(self, name: str, patch_text: str, base_version: int | None = None, *,
                author: str | None = None, message: str | None = None,
                when: Preconditions = NONE, force: bool = True) -> Steps[Written]:
        """:meth:`~cfgpatch.service.Service.apply_merge_patch` as steps, without the guessed
        head."""
        state = self._lookups(name, base_version)
        when.evaluate(name, state[0])
        patch = parse(patch_text)
        self.limits.check_value_depth(patch, patch_text, "the merge patch is")
        self.limits.check_numbers(patch_text, "the merge patch")

        def compute(head: int | None) -> tuple[JSON, list]:
            assert head is not None  # must_exist: _write passes the existing head
            doc = self.values.value(name, head)
            if base_version is None or base_version == head:
                return apply_merge_patch(doc, patch, share_unchanged=True), []
            base = self.values.value(name, base_version)
            mine = apply_merge_patch(base, patch, share_unchanged=True)
            from .rebasing import merge

            return merge(base, mine, doc), []  # linear: arrays are atomic, nothing aligned

        return (yield from self._writing(name, compute, author=author, message=message,
                                         when=when, force=force, state=state))

    def _lookups(self, name: str, base_version: int | None) -> State:
        state = self._state(name)
        if state[0] is None:
            raise self._missing(name, state[1])
        if base_version is not None:
            self.check_version(name, base_version, state)
        return state

    def _write(self, name: str, compute: Callable[[int | None], tuple[JSON, list | None]],
               **options: Any) -> Written:
        """:meth:`_writing`, run on this thread."""
        return drive(self._writing(name, compute, **options))

    def _writing(self, name: str, compute: Callable[[int | None], tuple[JSON, list | None]], *,
                 text: str | None = None, author: str | None, message: str | None,
                 must_exist: bool = True, when: Preconditions = NONE, force: bool = True,
                 state: State | None = None, replayable: bool = False,
                 known: tuple[list, str] | None = None) -> Steps[Written]:
        """Append ``compute(head)``'s value; ``when`` and the limits judged on each try.

        ``compute`` returns the new value and the JSON Patch that made it from
        the head (``None``: a whole new value), which bounds the result's depth
        and, when ``replayable``, is kept as the version's delta (its text taken from
        ``known``, a patch and its canonical text, when it is that patch).  ``state``
        is the head already read for the first try.
        """
        for attempt in range(MAX_WRITE_ATTEMPTS):
            live, last = state if state is not None and attempt == 0 else self._state(name)
            if must_exist and live is None:
                raise self._missing(name, last)
            when.evaluate(name, live)
            value, applied = compute(live)
            new_text = text if text is not None else self._canonical(value)
            self.limits.check_result(value, new_text, applied)
            if not force and live is not None and self._unchanged(name, live, value, new_text):
                return Written(live, created=False, changed=False)
            delta = self._delta(name, live, last, value, applied if replayable else None, known)
            try:
                version = yield Blocking(self.store.append, (name, new_text), {
                    "expected_head": last, "value": value, "author": author,
                    "message": message, "delta": delta}, append=True)
            except ConcurrentUpdate:
                if self._guessed(name):
                    raise  # the guess was wrong: start again from the store's head
                continue
            self._wrote(name, version, new_text)
            self.values.remember((name, version), value, len(new_text))
            if version != 1 and block_start(version) == version:
                yield Blocking(self._retain, (name, version))  # reads and prunes the store
            return Written(version, created=live is None, changed=True)
        raise ConcurrentUpdate(f"gave up on {name!r} after {MAX_WRITE_ATTEMPTS} concurrent updates")

    def _delta(self, name: str, live: int | None, last: int | None, value: JSON,
               applied: list | None, known: tuple[list, str] | None = None) -> str | None:
        """The delta to keep for version ``last + 1``, when the store keeps one (``known``:
        a patch and its canonical text, used when ``applied`` is that patch)."""
        if not self.store.keeps_deltas or live is None or live != last:
            return None
        if block_start(live + 1) == live + 1:
            return None  # kept whole anyway
        if applied is not None:
            return known[1] if known is not None and applied is known[0] else canonical(applied)
        cache = TextCache(parent=self.texts)
        work = min(self.limits.work_limit or DELTA_WORK, DELTA_WORK)
        try:
            plan = diff_plan(self.values.value(name, live), value, cache, work_limit=work)
        except LimitExceeded:
            return None
        return plan_text(plan, cache.text)
