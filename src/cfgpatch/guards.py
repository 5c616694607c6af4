"""The ``test`` operations of a rebased patch, judged against the head as well.

A stale-base apply (a patch sent with an older ``base_version``) replays a patch on the version its
author saw and merges the result with the head; the patch's ``test`` operations
are checked only against that old version.  A client that guards a
read-modify-write with ``test`` (``/count`` is 0, so set it to 1) then has its
guard pass on the old version while the head already says 1: the guard is
lost.  The HTTP service's explicit rebase request therefore also judges every
``test`` against the head (``run()`` keeps the contract's rules and does not).

What "against the head" means for a ``test`` at operation *i*: the value at its
path in ``merge(base, state, head)``, where ``state`` is the patch's document
just before operation *i* (the replay on base so far).  For a path no earlier
operation touched, that is exactly the head's value there; for a path the
patch itself wrote earlier, it is what the patch wrote, merged with what the
head changed around it.  Where that merge conflicts, the test fails with the
merge's ``conflict at <pointer>``.
"""

from __future__ import annotations

from typing import Any

from .errors import CONFLICT, TEST_FAILED, MergeConflict, TestFailed
from .jsonpatch import apply_patch
from .jsonvalue import JSON, canonical_unchecked, equal
from .pointer import format_pointer, index_below
from .rebasing import MISSING, merge


def replay_with_head_tests(base: JSON, head: JSON, patch: list) -> JSON:
    """Replay ``patch`` on ``base`` (RFC 6902's rules), judging each ``test`` on the head too.

    Returns the replayed document (``mine``).  A failure names its operation:
    RFC 6902's errors on base first, then ``test failed`` (or ``conflict``) for a
    test that passed on base but not against the head.
    """
    judge = _HeadJudge(base, head)
    return apply_patch(base, patch, share_unchanged=True, trusted=True, after_test=judge)


class _HeadJudge:
    """The ``after_test`` callback: the merged value at a test's path must equal its value."""

    def __init__(self, base: JSON, head: JSON) -> None:
        self.base = base
        self.head = head
        self._base_head: dict[tuple[int, int], bool] = {}  # both immutable: safe by id

    def __call__(self, tokens: list[str], expected: JSON, state: JSON) -> None:
        actual = self.value_at(tokens, state)
        if actual is MISSING or not equal(actual, expected):
            where = format_pointer(tokens) or "the document"
            raise TestFailed(
                f"{where} is {_show(actual)} at the head, not {_show(expected)} (the test "
                "passed on the version the patch was written against)",
                code=TEST_FAILED,
                pointer=format_pointer(tokens),
            )

    def value_at(self, tokens: list[str], mine: JSON) -> Any:
        """The value at ``tokens`` of ``merge(base, mine, head)``, or ``MISSING``."""
        base, head = self.base, self.head
        depth = 0
        while depth < len(tokens) and type(base) is dict and type(mine) is dict \
                and type(head) is dict:
            token = tokens[depth]  # the merge goes key by key here: follow the path
            base, mine, head = (base.get(token, MISSING), mine.get(token, MISSING),
                                head.get(token, MISSING))
            depth += 1
        rest = tokens[depth:]
        if _same(mine, base):
            return _lookup(head, rest)
        if self._same_base_head(head, base):
            return _lookup(mine, rest)
        if _same(mine, head):
            return _lookup(mine, rest)
        if not rest and type(base) is dict and type(mine) is dict and type(head) is dict:
            try:
                return merge(base, mine, head)
            except MergeConflict as conflict:
                pointer = format_pointer(tokens) + (conflict.pointer or "")
                raise MergeConflict(conflict.message, code=CONFLICT, pointer=pointer) from None
        pointer = format_pointer(tokens[:depth])
        raise MergeConflict(
            f"the test of {format_pointer(tokens) or 'the document'} cannot be judged against "
            f"the head: both sides changed {pointer or '(root)'} differently",
            code=CONFLICT,
            pointer=pointer,
        )

    def _same_base_head(self, head: Any, base: Any) -> bool:
        key = (id(head), id(base))
        if key not in self._base_head:
            self._base_head[key] = _same(head, base)
        return self._base_head[key]


def _same(x: Any, y: Any) -> bool:
    if x is y:
        return True
    if x is MISSING or y is MISSING:
        return False
    return equal(x, y)


def _lookup(value: Any, tokens: list[str]) -> Any:
    """The value at ``tokens`` under ``value``, or ``MISSING`` (no errors: the head may differ)."""
    for token in tokens:
        if type(value) is dict:
            value = value.get(token, MISSING)
        elif type(value) is list and token.isdigit() and (token == "0" or token[0] != "0") \
                and (index := index_below(token, len(value))) is not None:
            value = value[index]
        else:
            return MISSING
    return value


def _show(value: Any) -> str:
    if value is MISSING:
        return "not there"
    text = canonical_unchecked(value)
    return text if len(text) <= 80 else text[:77] + "..."
