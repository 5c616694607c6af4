"""Move detection: the post-pass of contract Part 3a over a two-phase patch.

The input is the Part 2 patch, split as it is built: the removals (phase 1,
each with the value it removes and its *group*, the pointer of the outermost
array of ``a`` its path indexes into, or ``None``) followed by the adds and
replaces (phase 2, each with its group computed the same way).

The contract's procedure is "repeat until nothing changes: take the first
removal that has an eligible add and pair it with the first eligible add after
it".  Replaying that literally re-scans the list after every pairing; this
module reaches the same result in one forward scan, using three facts:

* a removal whose group has a later removal is blocked (that removal lies
  between it and any add), so within a group only the last remaining removal
  can pair, and pairing it is what lets the one before it try;
* an add is reachable from a grouped removal only if no phase-2 operation
  before it touches the group; the first such position only moves earlier
  (a new move's ``from`` touches the group), and the candidates for a value only
  shrink, so a removal that cannot pair now never can;
* the first eligible add for a value is always the first unused add of that
  value, if it is early enough.
"""

from __future__ import annotations

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
        self.pools: dict[str, list[int]] = {}
        self.first_touch: dict[str, int] = {}
        for pos, (op, _, value, group) in enumerate(changes):
            if group is not None and group not in self.first_touch:
                self.first_touch[group] = pos
            if op == "add" and wanted and _movable(value):
                text = text_of(value)
                if text in wanted:
                    self.pools.setdefault(text, []).append(pos)
        for pool in self.pools.values():
            pool.reverse()  # the first unused add is popped from the end
        self.group_members: dict[str, list[int]] = {}
        for index, (_, _, group) in enumerate(removals):
            if group is not None:
                self.group_members.setdefault(group, []).append(index)
        self.moved_from: dict[int, str] = {}  # phase-2 position -> from
        self.paired: set[int] = set()

    def try_pair(self, index: int) -> bool:
        """Pair removal ``index`` with its first eligible add, if it has one."""
        text = self.texts[index]
        pool = self.pools.get(text) if text is not None else None
        if not pool:
            return False
        path, _, group = self.removals[index]
        pos = pool[-1]
        if group is not None:
            members = self.group_members[group]
            if members[-1] != index or pos > self.first_touch.get(group, pos):
                return False
            members.pop()
            self.first_touch[group] = pos
        pool.pop()
        self.moved_from[pos] = path
        self.paired.add(index)
        return True

    def run(self) -> None:
        for index, (_, _, group) in enumerate(self.removals):
            if self.try_pair(index) and group is not None:
                members = self.group_members[group]
                while members and self.try_pair(members[-1]):
                    pass


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
