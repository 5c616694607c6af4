"""Move detection: a removed value added back elsewhere becomes one ``move``.

A post-pass over a two-phase patch.  The input is the diff's patch, split as it is
built: the removals (phase 1, each with the value it removes and its *group*, the
pointer of the outermost array of ``a`` its path indexes into, or ``None``) followed
by the adds and replaces (phase 2, each with its group computed the same way).

"Inside that array" is the contract's own definition: a path that "starts with
its pointer and is longer", compared as pointer text (so ``/lx/0`` and ``/lx``
lie inside the array ``/l``).  The *members* of a group are the removals whose
path lies inside it; its *first touch* is the first phase-2 operation (or new
move, by its ``from``) that lies inside it.

The contract's procedure is "repeat until nothing changes: take the first
removal that has an eligible add and pair it with the first eligible add after
it".  Replaying that literally re-scans the list after every pairing; this
module reaches the same result with one forward scan and a queue of removals
that a pairing may have unblocked, using three facts:

* a removal is blocked while a later removal lies inside its group, so only
  the last remaining member of a group can pair, and pairing a removal can
  unblock only the last members of the groups it lies inside;
* an add is reachable from a grouped removal only if no phase-2 operation
  before it lies inside the group; the first such position only moves earlier
  (a new move's ``from`` counts), and the candidates for a value only shrink,
  so a removal that cannot pair now can only become pairable when a later
  removal inside its group pairs;
* the first eligible add for a value is always the first unused add of that
  value, if it is early enough.

So no removal ever reaches an add after the last first touch of the groups
(when every group is touched and every removal is grouped): those adds are never
looked up (a reversed array has its first touch at the first change, and
thousands of adds after it).
"""

from __future__ import annotations

import heapq
from bisect import bisect_right
from collections.abc import Callable
from itertools import compress, count, islice, repeat
from operator import getitem, itemgetter
from typing import Any

#: A phase-1 removal: (path, removed value, group).
Removal = tuple[str, Any, "str | None"]
#: A phase-2 operation: (op, path, value, group) with op "add" or "replace".
Change = tuple[str, str, Any, "str | None"]


_CONTAINERS = (dict, list)
#: Looking up a value's text costs about this many times as much as scanning one
#: phase-2 path for the groups it touches (C-level, see ``_find_first_touches``).
_SCAN_PER_TEXT = 16


def _movable(value: Any) -> bool:
    return type(value) in _CONTAINERS and len(value) > 0


class _Pairing:
    """State of the move pass: candidate adds per value, group bounds, results."""

    def __init__(
        self, removals: list[Removal], changes: list[Change], text_of: Callable[[Any], str]
    ) -> None:
        self.removals = removals
        movable = [type(value) in _CONTAINERS and len(value) > 0  # _movable, inline
                   for _, value, _ in removals]
        self.groups = set(compress(map(itemgetter(2), removals), movable))
        #: Whether a movable removal lies outside every array (it reaches every add).
        self.ungrouped = None in self.groups
        self.groups.discard(None)
        #: The lengths of the groups' pointers, shortest first: a path can lie inside
        #: a group only through a prefix of one of these lengths.
        self.lengths = sorted({len(group) for group in self.groups})
        self.texts: list[str | None] = []
        self.pools: dict[str, list[int]] = {}
        self.first_touch: dict[str, int] = {}
        self.members: dict[str, list[int]] = {}
        self.moved_from: dict[int, str] = {}  # phase-2 position -> from
        self.paired: set[int] = set()
        if not any(movable):
            return  # nothing can pair: the rest is not needed
        # The positions of the adds, found by C-level iteration (most changes of a big
        # diff are replaces).
        adds = list(compress(count(), map("add".__eq__, map(itemgetter(0), changes))))
        if not adds:
            return  # nothing can pair: the rest is not needed
        if (len(adds) + len(removals)) * _SCAN_PER_TEXT < adds[-1]:
            # Few values to look up against a long stretch of changes to scan:
            # the pools first, as they are likely empty.
            self._fill_pools(adds, movable, changes, text_of)
            if not self.pools:
                return
            self._find_first_touches(changes, adds[-1])
        else:
            self._find_first_touches(changes, adds[-1])
            adds = adds[: bisect_right(adds, self._last_reachable(adds[-1]))]
            if not adds:
                return  # no removal can reach any add
            self._fill_pools(adds, movable, changes, text_of)
            if not self.pools:
                return
        if not any(map(self.may_ever_pair, range(len(removals)))):
            self.pools = {}
            return  # nothing can pair: the rest is not needed
        for index, (path, _, _) in enumerate(removals):
            for group in self.groups_of(path):
                self.members.setdefault(group, []).append(index)

    def _find_first_touches(self, changes: list[Change], last_add: int) -> None:
        """The first phase-2 position inside each group, up to ``last_add``.

        A group first touched after the last add has no first touch here: no add
        comes after it, so it blocks nothing (and a move's ``from`` sets it).
        The paths are cut to each group length in turn by C-level iteration, and
        a group leaves the set looked up once it is touched, so only first
        touches (and paths equal to a group's pointer) reach Python code.
        """
        if not self.groups:
            return
        paths = list(map(itemgetter(1), islice(changes, last_add + 1)))
        first_touch = self.first_touch
        for size in self.lengths:
            pending = {group for group in self.groups if len(group) == size}
            cut = slice(size)
            hits = compress(count(), map(pending.__contains__, map(getitem, paths, repeat(cut))))
            for pos in hits:
                path = paths[pos]
                if len(path) > size:  # inside, not the array itself
                    group = path[:size]
                    first_touch[group] = pos
                    pending.discard(group)
                    if not pending:
                        break

    def _last_reachable(self, last_add: int) -> int:
        """The last phase-2 position any movable removal could ever pair with.

        A grouped removal reaches no add after its group's first touch, and first
        touches only move earlier; a removal outside every array reaches them all.
        """
        if self.ungrouped or len(self.first_touch) < len(self.groups):
            return last_add  # a group never touched reaches every add too
        return max(self.first_touch.values())

    def _fill_pools(self, adds: list[int], movable: list[bool], changes: list[Change],
                    text_of: Callable[[Any], str]) -> None:
        """The removed values' texts, and each one's adds (of those at ``adds``) of an
        equal value, first unused last."""
        self.texts = [text_of(value) if can else None
                      for can, (_, value, _) in zip(movable, self.removals)]
        wanted = {text for text in self.texts if text is not None}
        pools = self.pools
        for pos in adds:
            value = changes[pos][2]
            if type(value) in _CONTAINERS and value:  # _movable, inline
                text = text_of(value)
                if text in wanted:
                    pools.setdefault(text, []).append(pos)
        for pool in pools.values():
            pool.reverse()  # the first unused add is popped from the end

    def groups_of(self, path: str) -> list[str]:
        """The groups that ``path`` lies inside (their pointer is a shorter prefix)."""
        groups = self.groups
        if not groups:
            return []
        size = len(path)
        return [path[:k] for k in self.lengths if k < size and path[:k] in groups]

    def may_ever_pair(self, index: int) -> bool:
        """Whether removal ``index`` could pair with some add, now or later.

        A grouped removal reaches only the adds up to its group's first touch,
        and that only moves earlier while its candidates only shrink: if its
        first candidate lies beyond, it never pairs.
        """
        text = self.texts[index]
        pool = self.pools.get(text) if text is not None else None
        if not pool:
            return False
        group = self.removals[index][2]
        return group is None or pool[-1] <= self.first_touch.get(group, pool[-1])

    def last_member(self, group: str) -> int | None:
        members = self.members.get(group)
        while members and members[-1] in self.paired:
            members.pop()
        return members[-1] if members else None

    def try_pair(self, index: int) -> bool:
        """Pair removal ``index`` with its first eligible add, if it has one."""
        text = self.texts[index]
        pool = self.pools.get(text) if text is not None else None
        if not pool:
            return False
        path, _, group = self.removals[index]
        pos = pool[-1]
        if group is not None and (
            self.last_member(group) != index or pos > self.first_touch.get(group, pos)
        ):
            return False
        pool.pop()
        self.moved_from[pos] = path
        self.paired.add(index)
        for touched in self.groups_of(path):  # the new move's from lies inside these
            if pos < self.first_touch.get(touched, pos + 1):
                self.first_touch[touched] = pos
        return True

    def unblocked_by(self, index: int) -> list[int]:
        """Removals before ``index`` that the pairing of ``index`` may have unblocked."""
        found = []
        for group in self.groups_of(self.removals[index][0]):
            last = self.last_member(group)
            if last is not None and last < index:
                found.append(last)
        return found

    def run(self) -> None:
        waiting: list[int] = []  # a heap of removals to retry, smallest first
        for index in range(len(self.removals)):
            if not self.try_pair(index):
                continue
            for other in self.unblocked_by(index):
                heapq.heappush(waiting, other)
            while waiting:
                other = heapq.heappop(waiting)
                if other not in self.paired and self.try_pair(other):
                    for again in self.unblocked_by(other):
                        heapq.heappush(waiting, again)


def place_moves(
    removals: list[Removal], changes: list[Change], text_of: Callable[[Any], str]
) -> list[dict[str, Any]]:
    """The final patch: removals, then changes, with the moves applied.

    ``text_of`` maps a value to a key that is equal exactly when values are
    equal (canonical text).  Values in the result are the given objects (not
    copies).
    """
    return as_dicts(plan_moves(removals, changes, text_of))


#: One operation of a planned patch: ``(op, path, value or from, group)``, with op
#: "remove" (``None``), "move" (its ``from``), "add" or "replace" (the value).
Planned = tuple[str, str, Any, "str | None"]


def plan_moves(
    removals: list[Removal], changes: list[Change], text_of: Callable[[Any], str]
) -> list[Planned]:
    """The final patch as :data:`Planned` tuples (what :func:`place_moves` returns as dicts).

    Phase-2 tuples are ``changes``' own where no move replaced them.
    """
    pairing = _Pairing(removals, changes, text_of)
    if pairing.pools:
        pairing.run()
    paired = pairing.paired
    ops: list[Planned] = [
        ("remove", path, None, None)
        for index, (path, _, _) in enumerate(removals)
        if index not in paired
    ] if paired else [("remove", path, None, None) for path, _, _ in removals]
    moved_from = pairing.moved_from
    if not moved_from:
        ops.extend(changes)
        return ops
    for pos, change in enumerate(changes):
        if pos in moved_from:
            ops.append(("move", change[1], moved_from[pos], None))
        else:
            ops.append(change)
    return ops


def as_dicts(plan: list[Planned]) -> list[dict[str, Any]]:
    """The operation dicts of a plan (values are the plan's own objects)."""
    return [
        {"op": "remove", "path": path} if op == "remove"
        else {"op": "move", "from": other, "path": path} if op == "move"
        else {"op": op, "path": path, "value": other}
        for op, path, other, _ in plan
    ]
