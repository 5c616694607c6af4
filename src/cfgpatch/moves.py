"""Move detection: the post-pass of contract Part 3a over a two-phase patch.

The input is the Part 2 patch, split as it is built: the removals (phase 1,
each with the value it removes and its *group*, the pointer of the outermost
array of ``a`` its path indexes into, or ``None``) followed by the adds and
replaces (phase 2, each with its group computed the same way).

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
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

#: A phase-1 removal: (path, removed value, group).
Removal = tuple[str, Any, "str | None"]
#: A phase-2 operation: (op, path, value, group) with op "add" or "replace".
Change = tuple[str, str, Any, "str | None"]


def _movable(value: Any) -> bool:
    return type(value) in (dict, list) and len(value) > 0


class _Pairing:
    """State of the move pass: candidate adds per value, group bounds, results."""

    def __init__(
        self, removals: list[Removal], changes: list[Change], text_of: Callable[[Any], str]
    ) -> None:
        self.removals = removals
        self.texts = [text_of(value) if _movable(value) else None for _, value, _ in removals]
        wanted = {text for text in self.texts if text is not None}
        self.groups = {
            group for text, (_, _, group) in zip(self.texts, removals)
            if text is not None and group is not None
        }
        self.pools: dict[str, list[int]] = {}
        self.first_touch: dict[str, int] = {}
        for pos, (op, path, value, _) in enumerate(changes):
            for group in self.groups_of(path):
                self.first_touch.setdefault(group, pos)
            if op == "add" and wanted and _movable(value):
                text = text_of(value)
                if text in wanted:
                    self.pools.setdefault(text, []).append(pos)
        for pool in self.pools.values():
            pool.reverse()  # the first unused add is popped from the end
        self.members: dict[str, list[int]] = {}
        for index, (path, _, _) in enumerate(removals):
            for group in self.groups_of(path):
                self.members.setdefault(group, []).append(index)
        self.moved_from: dict[int, str] = {}  # phase-2 position -> from
        self.paired: set[int] = set()

    def groups_of(self, path: str) -> list[str]:
        """The groups that ``path`` lies inside (their pointer is a shorter prefix)."""
        groups = self.groups
        if not groups:
            return []
        return [path[:k] for k in range(len(path)) if path[:k] in groups]

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
) -> list[dict]:
    """The final patch: removals, then changes, with Part 3a's moves applied.

    ``text_of`` maps a value to a key that is equal exactly when values are
    equal (canonical text).  Values in the result are the given objects (not
    copies).
    """
    pairing = _Pairing(removals, changes, text_of)
    if pairing.pools:
        pairing.run()
    ops: list[dict] = [
        {"op": "remove", "path": path}
        for index, (path, _, _) in enumerate(removals)
        if index not in pairing.paired
    ]
    moved_from = pairing.moved_from
    for pos, (op, path, value, _) in enumerate(changes):
        if pos in moved_from:
            ops.append({"op": "move", "from": moved_from[pos], "path": path})
        else:
            ops.append({"op": op, "path": path, "value": value})
    return ops
