"""What one stored document, one patch and one request's alignment may cost.

:class:`ServiceLimits` is a :class:`~cfgpatch.service.Service` option; every
limit is off (``None``) by default, which is what ``run()`` uses, and the HTTP
server turns them on (``cfgpatch serve --max-depth``, ``--max-document-bytes``,
``--max-patch-ops``, ``--max-diff-work``).  Each check raises
:class:`~cfgpatch.errors.LimitExceeded` (``limit exceeded``) naming the limit;
the service checks before it writes, so a refused write stores nothing.

The depth of a patch result is bounded without walking the document: the
head was within the limit when it was stored, and a JSON Patch can only make
it deeper where it writes (``add``/``replace``: the path's length plus the
value's depth; ``copy``/``move``: the path's length plus at most the depth of
the document below ``from``).  Only when that bound is over the limit is the
result itself walked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .errors import INVALID_JSON, InvalidInput, LimitExceeded
from .jsonlocate import first_rejection, float_is_exact
from .jsonvalue import JSON, MAX_DEPTH, MAX_INT_DIGITS, as_text, check_depth

#: Texts that may hold a number a 64-bit float cannot keep as written: 16 or more
#: digits in a row (dots between them allowed), or an exponent.  Every decimal of at
#: most 15 significant digits without an exponent round-trips through a double.
_MAYBE_INEXACT = re.compile(r"[0-9][0-9.]{15}|[0-9][eE]")

#: The alignment work a server lets one request do (``cfgpatch serve --max-diff-work``, in
#: the steps of :mod:`cfgpatch.lcs.budget`): a 20,000-element array with 1,000 edits fits
#: (about 0.2 s), reversing 4,000 distinct numbers does not (refused within about 2 s).
DEFAULT_MAX_DIFF_WORK: int | None = 1_000_000


@dataclass(frozen=True)
class ServiceLimits:
    """Limits on stored documents and on the work of one call (``None``: no limit).

    * ``max_depth``: nesting of stored documents and of patches (1..256);
    * ``max_document_bytes``: UTF-8 size of a version's canonical text;
    * ``max_patch_ops``: operations in one JSON Patch;
    * ``work_limit``: steps of array alignment in one diff or rebase
      (:mod:`cfgpatch.lcs.budget` says what a step is; a three-way merge
      aligns nothing, arrays being atomic, and needs no budget);
    * ``exact_numbers``: refuse (``invalid json``, naming the pointer) a number
      that a 64-bit float cannot hold as written (``0.1000000000000000000001``,
      ``1e-400``, 21 digits of pi) instead of storing it rounded; ``run()``
      leaves it off (its contract reads numbers as doubles).

    ``max_document_bytes`` also bounds what the ``copy`` operations of one patch
    may create (see :func:`cfgpatch.jsonpatch.apply_patch`'s ``copy_budget``).
    """

    max_depth: int | None = None
    max_document_bytes: int | None = None
    max_patch_ops: int | None = None
    work_limit: int | None = None
    exact_numbers: bool = False

    def __post_init__(self) -> None:
        for name in ("max_document_bytes", "max_patch_ops", "work_limit"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value < 1):
                raise ValueError(f"{name} must be a positive integer or None, not {value!r}")
        if self.max_depth is not None and not (
            type(self.max_depth) is int and 1 <= self.max_depth <= MAX_DEPTH
        ):
            raise ValueError(f"max_depth must be between 1 and {MAX_DEPTH}")

    def work(self) -> dict[str, int]:
        """The keyword arguments that pass ``work_limit`` on (none when it is off)."""
        return {} if self.work_limit is None else {"work_limit": self.work_limit}

    # -- checks ------------------------------------------------------------------
    def check_numbers(self, text: str | bytes, what: str) -> None:
        """With ``exact_numbers``, refuse a JSON text (already read strictly) holding a
        number a 64-bit float cannot keep as written; the error names its pointer in
        the text (``what``: "the document", "the patch")."""
        if not self.exact_numbers:
            return
        text = as_text(text)
        if not _MAYBE_INEXACT.search(text):
            return
        try:
            json.loads(text, parse_float=_exact_float)
        except _Inexact:
            found = first_rejection(text, MAX_INT_DIGITS, exact_floats=True)
            pointer = found.pointer if found is not None else None
            detail = found.describe() if found is not None else "a number is inexact"
            raise InvalidInput(
                f"{what}: {detail}; send at most 15 significant digits, or the number as a "
                "string", code=INVALID_JSON, pointer=pointer) from None

    def check_value_depth(self, value: JSON, text: str | None, what: str) -> None:
        """Refuse ``value`` (a document or patch) nested deeper than ``max_depth``.

        ``text`` (any JSON text of it) makes short values free: nesting ``d``
        needs ``2 * d`` characters, ``d`` of them ``[`` or ``{``.
        """
        limit = self.max_depth
        if limit is None or (text is not None and (len(text) // 2 <= limit
                                                   or _openings(text) <= limit)):
            return
        try:
            check_depth(value, limit)
        except InvalidInput:
            raise LimitExceeded(f"{what} nested more than {limit} levels deep "
                                "(the server's --max-depth)") from None

    def check_patch(self, patch: list, text: str | None) -> None:
        """Refuse a JSON Patch with too many operations or nested too deep."""
        if self.max_patch_ops is not None and len(patch) > self.max_patch_ops:
            raise LimitExceeded(f"patch of {len(patch)} operations; at most "
                                f"{self.max_patch_ops} are accepted (--max-patch-ops)")
        self.check_value_depth(patch, text, "the patch is")

    def check_result(self, value: JSON, text: str, applied: list | None) -> None:
        """Refuse a version about to be stored: too large, or made too deep.

        ``applied`` is the JSON Patch that produced ``value`` from a stored head
        (``None``: the whole value is new and is checked in full).
        """
        cap = self.max_document_bytes
        if cap is not None and len(text) * 4 > cap:  # a character is 1 to 4 bytes
            size = len(text) if len(text) > cap else len(text.encode("utf-8"))
            if size > cap:
                raise LimitExceeded(
                    f"the document would be {size} bytes or more as canonical JSON; at most "
                    f"{cap} are stored (--max-document-bytes)")
        if self.max_depth is None:
            return
        if applied is None:  # a whole new document (a put)
            self.check_value_depth(value, text, "the document is")
        elif _written_depth(applied, self.max_depth) > self.max_depth:
            self.check_value_depth(value, text, "the result would be")


def _openings(text: str | bytes) -> int:
    """The ``[`` and ``{`` in a JSON text: a bound of its value's depth."""
    if isinstance(text, str):
        return text.count("[") + text.count("{")
    return text.count(b"[") + text.count(b"{")


def _written_depth(patch: list, head_depth: int) -> int:
    """An upper bound of the depth of a head of depth ``head_depth`` after ``patch`` (a
    patch applied already: its pointers are valid, so each has one token per ``/``)."""
    bound = head_depth
    for op in patch:
        kind = op.get("op")
        path = op["path"].count("/")
        if kind in ("add", "replace"):
            bound = max(bound, path + _depth(op["value"]))
        elif kind in ("copy", "move"):
            bound = max(bound, path + bound - op["from"].count("/"))
    return bound


def _depth(value: Any) -> int:
    """Nesting depth of arrays and objects (a scalar is 0), iteratively."""
    if type(value) is not dict and type(value) is not list:
        return 0
    best, stack = 0, [(value, 1)]
    while stack:
        node: Any
        node, level = stack.pop()
        kind = type(node)
        if kind is dict or kind is list:
            best = max(best, level)
            stack.extend((child, level + 1) for child in (node.values() if kind is dict
                                                         else node))
    return best


class _Inexact(ValueError):
    """Internal: a number a double cannot hold as written."""


def _exact_float(number: str) -> float:
    if not float_is_exact(number):
        raise _Inexact(number)
    return float(number)
