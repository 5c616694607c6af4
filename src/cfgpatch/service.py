"""Versioned documents, and ``run(operations)``: the service's contract.

:class:`Service` keeps named documents as append-only histories in a
:class:`~cfgpatch.store.base.Store` (in memory for ``run()``, SQLite or
PostgreSQL for the HTTP server).  Every version is stored as canonical text and,
where the store keeps it, its parsed value, which is never mutated afterwards:
patches are applied copy-on-write, so versions share untouched subtrees safely.

Writes are optimistic: read the head, compute the new version, append it only if
the head is still the same, otherwise start again from the new head.

:func:`run` executes a list of ``[name, *args]`` operations against a fresh
in-memory service and returns one result per operation; failures come back as
``"error: <code>"`` strings, never as exceptions.  Argument checks come first,
then lookups (unknown document, unknown version, invalid json), then the patch.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .diff import TextCache, diff_ops, diff_stats, patch_text
from .document_reader import read_document
from .errors import (
    INVALID_ARGUMENTS,
    UNKNOWN_DOCUMENT,
    UNKNOWN_OPERATION,
    UNKNOWN_VERSION,
    CfgPatchError,
    InvalidInput,
    LimitExceeded,
    LookupFailed,
)
from .fixtures import GEN_KEYS, MUTATE_KEYS, check_params, generate, mutate
from .jsonpatch import apply_patch, parse_patch
from .jsonvalue import JSON, canonical, parse
from .mergepatch import apply_merge_patch
from .store.base import ConcurrentUpdate, Store, VersionInfo
from .store.memory import MemoryStore

#: How often a write is recomputed when other writers keep moving the head.
MAX_WRITE_ATTEMPTS = 1000
#: Most array elements whose canonical text the service caches (then it starts over).
SERVICE_TEXT_CACHE_SIZE = 500_000
#: Parsed versions kept in memory for stores that keep only text.
VALUE_CACHE_SIZE = 256


class Service:
    """Named, versioned JSON documents over a store."""

    def __init__(self, store: Store | None = None) -> None:
        self.store: Store = store if store is not None else MemoryStore()
        self._values: OrderedDict[tuple[str, int], JSON] = OrderedDict()
        #: Canonical text of the elements of long arrays in stored values, by
        #: identity (filled when a version is written; diff and round trips reuse it).
        self.texts = TextCache(limit=SERVICE_TEXT_CACHE_SIZE)

    # -- reading ---------------------------------------------------------------
    def head(self, name: str) -> int:
        """The head version of ``name``; ``unknown document`` if there is none."""
        head = self.store.head_version(name)
        if head is None:
            raise LookupFailed(f"no document named {name!r}", code=UNKNOWN_DOCUMENT)
        return head

    def check_version(self, name: str, version: int) -> int:
        """``version`` if it exists for ``name``; raise the lookup errors in order."""
        head = self.head(name)
        if not 1 <= version <= head:
            raise LookupFailed(
                f"{name!r} has versions 1..{head}, not {version}", code=UNKNOWN_VERSION
            )
        return version

    def get(self, name: str, version: int | None = None) -> str:
        """Canonical text of ``version`` (the head by default)."""
        version = self.head(name) if version is None else self.check_version(name, version)
        return self._stored(name, version).text

    def get_value(self, name: str, version: int | None = None) -> JSON:
        """Parsed value of ``version`` (the head by default).  Do not mutate it.

        The value is the service's own (later calls return the same object),
        and equal elements of its arrays may be one shared object.
        """
        version = self.head(name) if version is None else self.check_version(name, version)
        return self._value(name, version)

    def versions(self, name: str) -> list[VersionInfo]:
        """Metadata of every version of ``name``, oldest first."""
        self.head(name)
        return self.store.versions(name)

    def names(self) -> list[str]:
        return self.store.names()

    def _stored(self, name: str, version: int):
        stored = self.store.get(name, version)
        if stored is None:  # only if the store lost it between two calls
            raise LookupFailed(f"{name!r} has no version {version}", code=UNKNOWN_VERSION)
        return stored

    def _value(self, name: str, version: int) -> JSON:
        key = (name, version)
        try:  # a server calls this from several threads: another may evict the key
            value = self._values[key]
            self._values.move_to_end(key)
            return value
        except KeyError:
            pass
        stored = self._stored(name, version)
        value = stored.value if stored.has_value else read_document(stored.text, self.texts)[0]
        if not stored.has_value:
            self._remember(key, value)
        return value

    def _remember(self, key: tuple[str, int], value: JSON) -> None:
        """Keep a parsed version (versions never change, so the entry never goes stale)."""
        self._values[key] = value
        while len(self._values) > VALUE_CACHE_SIZE:
            try:
                self._values.popitem(last=False)
            except KeyError:
                break

    # -- writing ---------------------------------------------------------------
    def put(
        self, name: str, text: str, *, author: str | None = None, message: str | None = None
    ) -> int:
        """Store ``text`` (any JSON) as the next version of ``name``."""
        value, canon = read_document(text, self.texts)
        return self.put_value(name, value, author=author, message=message, text=canon)

    def put_value(
        self,
        name: str,
        value: JSON,
        *,
        author: str | None = None,
        message: str | None = None,
        text: str | None = None,
    ) -> int:
        """Store a parsed value (it must not be mutated afterwards).

        ``text`` is its canonical text when the caller already has it.
        """
        if text is None:
            text = self._canonical(value)
        return self._write(
            name, lambda head: value, text=text, author=author, message=message, must_exist=False
        )

    def apply(
        self,
        name: str,
        patch_text: str,
        base_version: int | None = None,
        *,
        author: str | None = None,
        message: str | None = None,
    ) -> int:
        """Apply a JSON Patch and commit the result as a new version.

        With ``base_version`` older than the head, the patch is first rebased
        onto the head (replay on the base, three-way merge, diff).
        """
        self.head(name)
        if base_version is not None:
            self.check_version(name, base_version)
        patch = parse_patch(patch_text)

        def compute(head: int) -> JSON:
            doc = self._value(name, head)
            if base_version is not None and base_version != head:
                patch_now = self._rebased(name, patch, base_version, doc)
            else:
                patch_now = patch
            return apply_patch(doc, patch_now, share_unchanged=True, trusted=True)

        return self._write(name, compute, author=author, message=message)

    def apply_merge_patch(
        self, name: str, patch_text: str, *, author: str | None = None, message: str | None = None
    ) -> int:
        """Apply a JSON Merge Patch (RFC 7386) and commit the result."""
        self.head(name)
        patch = parse(patch_text)
        return self._write(
            name,
            lambda head: apply_merge_patch(self._value(name, head), patch),
            author=author,
            message=message,
        )

    def _write(
        self,
        name: str,
        compute: Callable[[int], JSON],
        *,
        text: str | None = None,
        author: str | None,
        message: str | None,
        must_exist: bool = True,
    ) -> int:
        for _ in range(MAX_WRITE_ATTEMPTS):
            head = self.head(name) if must_exist else self.store.head_version(name)
            value = compute(head)
            new_text = text if text is not None else self._canonical(value)
            try:
                version = self.store.append(
                    name, new_text, expected_head=head, value=value, author=author, message=message
                )
            except ConcurrentUpdate:
                continue
            self._remember((name, version), value)  # the next patch starts from it
            return version
        raise ConcurrentUpdate(f"gave up on {name!r} after {MAX_WRITE_ATTEMPTS} concurrent updates")

    # -- diff and rebase (Parts 2 and 3 of the contract) ------------------------
    def rebase(self, name: str, patch_text: str, base_version: int) -> str:
        """Canonical text of ``patch_text`` (written against ``base_version``) rebased."""
        head = self.head(name)
        self.check_version(name, base_version)
        patch = parse_patch(patch_text)
        return canonical(self._rebased(name, patch, base_version, self._value(name, head)))

    def _rebased(self, name: str, patch: list, base_version: int, head_doc: JSON) -> list:
        from .rebase import rebase

        return rebase(self._value(name, base_version), head_doc, patch, trusted=True,
                      cache=TextCache(parent=self.texts))

    def diff(
        self, name_a: str, name_b: str, version_a: int | None = None, version_b: int | None = None
    ) -> str:
        """Canonical text of the patch turning ``name_a`` into ``name_b`` (heads by default)."""
        a, b = self._pair(name_a, name_b, version_a, version_b)
        return patch_text(diff_ops(a, b, TextCache(parent=self.texts)))

    def diff_stats(
        self, name_a: str, name_b: str, version_a: int | None = None, version_b: int | None = None
    ) -> dict:
        """The contract's statistics of ``diff``: counts, digest and round trip."""
        a, b = self._pair(name_a, name_b, version_a, version_b)
        return diff_stats(a, b, b_text=self._text_of(name_b, version_b),
                          cache=TextCache(parent=self.texts))

    def _canonical(self, value: JSON) -> str:
        """Canonical text of a value about to be stored (long arrays' elements cached)."""
        try:
            return self.texts.document_text(value)
        except (TypeError, ValueError):
            return canonical(value)  # raises the precise invalid-input error

    def _pair(
        self, name_a: str, name_b: str, version_a: int | None, version_b: int | None
    ) -> tuple[JSON, JSON]:
        return self.get_value(name_a, version_a), self.get_value(name_b, version_b)

    def _text_of(self, name: str, version: int | None) -> str:
        return self.get(name, version)


# ---------------------------------------------------------------------------
# run(operations)
# ---------------------------------------------------------------------------

NAME, TEXT, VERSION = "name", "text", "version"
GEN_PARAMS, MUTATE_PARAMS = "gen params", "mutate params"


@dataclass(frozen=True)
class OperationSpec:
    """One ``run()`` operation: its accepted argument kinds and its handler."""

    signatures: tuple[tuple[str, ...], ...]
    handler: Callable[..., Any]


def _arg_ok(kind: str, value: Any) -> bool:
    if kind == NAME:
        return type(value) is str and value != ""
    if kind == TEXT:
        return type(value) is str
    if kind == VERSION:
        return type(value) is int
    if kind in (GEN_PARAMS, MUTATE_PARAMS):  # every member present, nothing else
        try:
            check_params(value, GEN_KEYS if kind == GEN_PARAMS else MUTATE_KEYS)
        except InvalidInput:
            return False
        return True
    raise AssertionError(kind)


def _gen(service: Service, name: str, params: dict) -> int:
    return service.put_value(name, generate(params))


def _mutate(service: Service, source: str, target: str, params: dict) -> int:
    return service.put_value(target, mutate(service.get_value(source), params))


OPERATION_SPECS: dict[str, OperationSpec] = {
    "put": OperationSpec(((NAME, TEXT),), lambda s, name, text: s.put(name, text)),
    "get": OperationSpec(((NAME,), (NAME, VERSION)), lambda s, *args: s.get(*args)),
    "apply": OperationSpec(((NAME, TEXT), (NAME, TEXT, VERSION)), lambda s, *args: s.apply(*args)),
    "rebase": OperationSpec(((NAME, TEXT, VERSION),), lambda s, *args: s.rebase(*args)),
    "diff": OperationSpec(((NAME, NAME),), lambda s, a, b: s.diff(a, b)),
    "diff_stats": OperationSpec(((NAME, NAME),), lambda s, a, b: s.diff_stats(a, b)),
    "gen": OperationSpec(((NAME, GEN_PARAMS),), _gen),
    "mutate": OperationSpec(((NAME, NAME, MUTATE_PARAMS),), _mutate),
}


def check_operation_args(operation: Any) -> tuple[OperationSpec, list]:
    """The spec and arguments of one ``run()`` operation, or the contract's errors."""
    if type(operation) is not list or not operation or type(operation[0]) is not str:
        raise InvalidInput(
            "an operation is a non-empty list whose first item is its name",
            code=INVALID_ARGUMENTS,
        )
    spec = OPERATION_SPECS.get(operation[0])
    if spec is None:
        raise InvalidInput(f"no operation named {operation[0]!r}", code=UNKNOWN_OPERATION)
    args = operation[1:]
    for signature in spec.signatures:
        if len(signature) == len(args) and all(map(_arg_ok, signature, args)):
            return spec, args
    raise InvalidInput(
        f"{operation[0]} takes " + " or ".join(f"({', '.join(s)})" for s in spec.signatures),
        code=INVALID_ARGUMENTS,
    )


def execute(service: Service, operation: Any) -> Any:
    """Run one operation; return its result or ``"error: <code>"``."""
    try:
        spec, args = check_operation_args(operation)
        return spec.handler(service, *args)
    except CfgPatchError as error:
        return f"error: {error.wire()}"
    except RecursionError:
        return f"error: {LimitExceeded().wire()}"


def run(operations: list) -> list:
    """Execute ``operations`` in order against a fresh, empty service.

    >>> run([["put", "cfg", '{"a":1}'], ["apply", "cfg", "[]"], ["get", "cfg", 1]])
    [1, 2, '{"a":1}']
    """
    service = Service()
    return [execute(service, operation) for operation in operations]
