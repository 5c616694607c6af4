"""Deleting, restoring and retiring versioned documents (a part of the service).

* :meth:`Lifecycle.delete` appends a tombstone version: the document is gone
  (reads and patches answer ``unknown document``), its history stays readable
  by version number, and the name can be written again (the next version
  continues the numbering, kept whole).
* :meth:`Lifecycle.restore` writes an old version again as the newest one
  (after a deletion, or to undo any change); nothing in between is lost.
* Retention policies (:mod:`cfgpatch.retention`) say which old versions may
  go; they are applied by :meth:`Lifecycle.prune`, by the service after
  every write that starts a new block of versions, and to every document at
  once by :meth:`Lifecycle.sweep` (on demand, or every few minutes by the server).

Every read and write starts from the head's state (:meth:`Lifecycle._state`).  A
write (a method decorated with :func:`guessing`) first tries from the head this
service last saw of the document, without asking the store: the append itself
checks that head (it fails with ``ConcurrentUpdate`` when another writer moved
it), so one round trip is saved whenever this process wrote or read the head
last.  Whatever goes wrong on a guessed head (any refusal, as the real head may
judge it otherwise) is tried again from the store's head, so refusals and their
order are exactly those of the real head.

A write runs as *steps* (a generator yielding :class:`Blocking` steps: the store's
append, then retention when the version starts a block), so that the waits on the
store can be run by whoever drives it: :func:`drive` runs them in turn on the
calling thread; the HTTP server runs a PATCH's computation on its event loop and
only the append (with other requests' appends, :mod:`cfgpatch.store.group_commit`)
on a thread, resuming the steps with its outcome.  On the loop no store read may
happen (:data:`~cfgpatch.store.base.NO_READS`): such a write starts from a guessed
head whose value is cached (:func:`guess_head`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import UNKNOWN_DOCUMENT, CfgPatchError, LimitExceeded, LookupFailed, StoreError
from .preconditions import NONE, Preconditions
from .retention import policy_for, prune_point
from .store.base import ConcurrentUpdate, RetentionPolicy, may_read
from .store.deltas import block_start

if TYPE_CHECKING:
    from .store.base import Store
    from .version_cache import VersionCache

#: How often a deletion is retried when other writers keep moving the head.
MAX_DELETE_ATTEMPTS = 1000
State = tuple[int | None, int | None]  # (the head if the document exists, the last version)
#: Documents whose live head a service remembers for its writes (then it starts over).
KNOWN_HEADS = 10_000
_log = logging.getLogger("cfgpatch.service")
#: The head the write in progress (in this thread or task) is guessing:
#: ``(service, name, version)``.
_guess: ContextVar[tuple[Any, str, int] | None] = ContextVar("cfgpatch_guess", default=None)
W = TypeVar("W", bound=Callable[..., Any])
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Blocking:
    """One step of a write that waits for the store: ``func(*args, **kwargs)``, the
    store's append when ``append`` (the value or exception it ends with is sent back
    into the steps)."""

    func: Callable[..., Any]
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    append: bool = False


#: A write as steps: yields :class:`Blocking` steps, returns the write's answer.
Steps = Generator[Blocking, Any, R]


def drive(steps: Steps[R]) -> R:
    """Run a write's steps on this thread, each blocking step in turn; its answer."""
    try:
        step = next(steps)
        while True:
            try:
                result = step.func(*step.args, **step.kwargs)
            except Exception as error:  # the steps decide (a concurrent update: retry)
                step = steps.throw(error)
            else:
                step = steps.send(result)
    except StopIteration as stop:
        return stop.value


def guess_head(service: Lifecycle, name: str, max_chars: int) -> Token | None:
    """Start a write of ``name`` in this context from the head ``service`` last saw, when
    that head's value is cached (so no store read is needed to compute the write) and
    its text is at most ``max_chars`` long: the token for :func:`end_guess`, or ``None``
    (no such head: nothing started)."""
    head = service.known_heads.get(name)
    if head is None or _guess.get() is not None:
        return None
    chars = service.values.weight((name, head))
    if chars is None or chars > max_chars:
        return None
    return _guess.set((service, name, head))


def end_guess(token: Token) -> None:
    """End the guess :func:`guess_head` started (an append spends it earlier)."""
    _guess.reset(token)


def guessing(write: W) -> W:
    """A write method ``write(self, name, ...)`` tried first from the head its service
    last saw of ``name`` (no read of the store), then, if that fails with any refusal
    but a store failure, from the store's head (see the module docstring).  The
    method without guessing is the wrapper's ``__wrapped__``."""

    @wraps(write)
    def guessed(self: Lifecycle, name: str, *args: Any, **kwargs: Any) -> Any:
        head = self.known_heads.get(name)
        if head is not None and _guess.get() is None:
            token = _guess.set((self, name, head))
            try:
                return write(self, name, *args, **kwargs)
            except StoreError as error:
                if not isinstance(error, ConcurrentUpdate):
                    raise  # the store is failing: never twice the wait
            except CfgPatchError:
                pass  # judged on a head that may not be the store's: judge again
            finally:
                _guess.reset(token)
        return write(self, name, *args, **kwargs)

    return guessed  # type: ignore[return-value]


class Written(int):
    """The version a write answers (an ``int`` everywhere one is expected), and what
    the write did: ``changed`` (a version was committed; ``False``: a no-op answered
    with the head) and ``created`` (the document had no live head before: a new name,
    or a deleted one written again)."""

    created: bool
    changed: bool

    def __new__(cls, version: int, *, created: bool, changed: bool) -> Written:
        written = super().__new__(cls, version)
        written.created = created
        written.changed = changed
        return written

    #: Printed as the number it is (``run()``'s results read as before).
    __repr__ = int.__repr__

    def __getnewargs_ex__(self) -> tuple[tuple[int], dict[str, bool]]:
        return (int(self),), {"created": self.created, "changed": self.changed}


class Lifecycle:
    """Deletion, restore and retention over the service's store, and the head's state
    (live or deleted) that every read and write starts from (a mixin of
    :class:`~cfgpatch.service.Service`, which provides what is declared here)."""

    store: Store
    values: VersionCache
    _write: Callable[..., Written]
    _canonical: Callable[[Any], str]
    check_version: Callable[..., int]
    #: The live head of each document as this service last read or wrote it.
    known_heads: dict[str, int]
    #: The version this service last wrote of each document and the hash of its text.
    head_hashes: dict[str, tuple[int, int]]

    def _state(self, name: str) -> State:
        """The live head (``None``: no document, or deleted) and the last version (the
        guessed head inside a :func:`guessing` write)."""
        current = _guess.get()
        if current is not None and current[0] is self and current[1] == name:
            return current[2], current[2]
        may_read()
        state = self.store.head_state(name)
        live = None if state is None or state[1] else state[0]
        self._saw(name, live)
        return (None, None) if state is None else (live, state[0])

    def _saw(self, name: str, live: int | None) -> None:
        """Remember ``live`` as the head of ``name`` (``None``: forget it)."""
        if live is None:
            self.known_heads.pop(name, None)
            return
        if len(self.known_heads) >= KNOWN_HEADS and name not in self.known_heads:
            self.known_heads.clear()
        self.known_heads[name] = live

    def _guessed(self, name: str) -> bool:
        """Whether this thread's write of ``name`` runs on a guessed head (a concurrent
        update then ends the guess instead of being retried, and an answer that no
        append confirms is not given from it)."""
        current = _guess.get()
        return current is not None and current[0] is self and current[1] == name

    def _unchanged(self, name: str, head: int, value: Any, text: str) -> bool:
        """Whether ``value`` (canonical ``text``) is the value of version ``head`` (a
        guessed head is not answered: no append confirms it)."""
        written = self.head_hashes.get(name)
        if written is not None and written[0] == head and written[1] != hash(text):
            return False  # not the text this service stored as that version: a change
        head_value = self.values.value(name, head)
        same = value is head_value or text == self._canonical(head_value)
        if same and self._guessed(name):
            raise ConcurrentUpdate(f"the head of {name!r} was a guess")
        return same

    def _wrote(self, name: str, version: int, text: str) -> None:
        """After an append of ``version`` (canonical ``text``): it is the head seen, the
        hash of its text is kept (a later no-op check then compares hashes first; a
        stored version never changes), and the guess, if any, is spent (retention then
        reads the store's head)."""
        _guess.set(None)
        self._saw(name, version)
        if len(self.head_hashes) >= KNOWN_HEADS and name not in self.head_hashes:
            self.head_hashes.clear()
        self.head_hashes[name] = (version, hash(text))

    @staticmethod
    def _missing(name: str, last: int | None) -> LookupFailed:
        gone = "" if last is None else f" (deleted at version {last})"
        return LookupFailed(f"no document named {name!r}{gone}", code=UNKNOWN_DOCUMENT)

    def delete(self, name: str, *, author: str | None = None, message: str | None = None,
               when: Preconditions = NONE) -> Written:
        """Delete ``name``: append a tombstone version (the history stays readable and
        the name can be written again); answer the tombstone's version."""
        for _ in range(MAX_DELETE_ATTEMPTS):
            live, last = self._state(name)
            if live is None:
                raise self._missing(name, last)
            when.evaluate(name, live)
            try:
                version = self.store.append(name, "null", expected_head=last, author=author,
                                            message=message, deleted=True)
            except ConcurrentUpdate:
                continue
            self._saw(name, None)
            return Written(version, created=False, changed=True)
        raise ConcurrentUpdate(
            f"gave up on {name!r} after {MAX_DELETE_ATTEMPTS} concurrent updates")

    @guessing
    def restore(self, name: str, version: int, *, author: str | None = None,
                message: str | None = None, when: Preconditions = NONE, force: bool = True
                ) -> Written:
        """Write version ``version`` of ``name`` again as its newest version (undoes a
        deletion or any later change; the versions in between stay in the history)."""
        self.check_version(name, version)
        value = self.values.value(name, version)
        return self._write(name, lambda head: (value, None), text=self._canonical(value),
                           author=author, message=message, must_exist=False, when=when,
                           force=force)

    def retention(self) -> list[RetentionPolicy]:
        return self.store.retention()

    def set_retention(self, policy: RetentionPolicy) -> None:
        """Set (or, with both rules ``None``, remove) the policy of a name prefix."""
        for rule in (policy.keep_last, policy.keep_seconds):
            if rule is not None and (type(rule) is not int or rule < 1):
                raise LimitExceeded(f"a retention rule must be a positive integer, not {rule!r}")
        self.store.set_retention(policy)

    def prune(self, name: str) -> int:
        """Remove the versions of ``name`` its retention policy lets go; how many went."""
        policy = policy_for(name, self.store.retention())
        if policy is None:  # the usual case: no read of the head
            return 0
        _, last = self._state(name)
        if last is None:
            return 0
        infos = self.store.versions(name) if policy.keep_seconds is not None else None
        before = prune_point(last, policy, infos)
        if before <= 1:
            return 0
        gone = self.store.prune(name, before)
        self.values.forget(name, before)
        return gone

    def sweep(self, prefix: str = "", allowed: Callable[[str], bool] | None = None
              ) -> dict[str, int]:
        """Apply the retention policies now to every document under ``prefix`` (that
        ``allowed`` accepts), deleted ones included: the versions removed, by document
        (none: not listed).  A deleted document keeps its tombstone's block (the head)."""
        policies = self.store.retention()
        removed = {}
        for name in self.store.names(include_deleted=True):
            if not name.startswith(prefix) or policy_for(name, policies) is None:
                continue
            if allowed is not None and not allowed(name):
                continue
            gone = self.prune(name)
            if gone:
                removed[name] = gone
        return removed

    def _retain(self, name: str, version: int) -> None:
        """After a write that starts a block of versions, apply the retention policy
        (a failure is logged: the write itself is done)."""
        if version == 1 or block_start(version) != version:
            return
        try:
            self.prune(name)
        except CfgPatchError as error:
            _log.warning("retention of %r after version %d failed: %s", name, version, error)
