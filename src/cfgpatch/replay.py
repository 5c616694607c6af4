"""Replaying a diff's own patch on its source: the round trip of ``diff_stats``.

:func:`replay` applies a planned patch (the tuples of
:func:`cfgpatch.moves.plan_moves`: ``add``, ``remove``, ``replace`` and ``move``)
and gives exactly what :func:`cfgpatch.jsonpatch.apply_patch` gives with
``share_unchanged=True, trusted=True`` for the same operations, whenever that
call succeeds.  Whenever it would fail, or an operation is outside the plain
case (a pointer that is not in its canonical spelling, ``-``, a value that may
nest too deep), it raises :class:`Unreplayable` instead and the caller runs
``apply_patch``, which names the failure.  It saves what the diff's patches do
not need: checking each operation's shape, decoding pointers through the
general parser, and copying every added value (values are shared, as
``share_unchanged`` shares untouched subtrees; a container is copied before
anything is written into it, so neither input is ever changed).

Containers are found by the pointer text of their place: the ones found (and
copied) so far are kept under that text, so the operations of one parent, and
of its ancestors and siblings, look their parent up instead of walking from the
root.  Equal pointer texts are equal token lists (escapes are checked, indices
must be canonical decimals), and an operation that could move or replace a kept
container (any change to a list's length, a move, a write over a container)
forgets them all.

``tests/test_replay.py`` checks it against ``apply_patch`` on generated patches,
failing ones included.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .errors import CfgPatchError
from .jsonvalue import JSON, MAX_DEPTH, check_depth
from .pointer import index_below

_BAD_ESCAPE = re.compile(r"~(?![01])")
_CONTAINERS = (dict, list)


class Unreplayable(Exception):
    """The plan cannot be replayed here: leave it to ``apply_patch``."""


def _tokens(path: str) -> list[str]:
    if not path:
        return []
    if path[0] != "/":
        raise Unreplayable
    tokens = path[1:].split("/")
    if "~" in path:
        if _BAD_ESCAPE.search(path):
            raise Unreplayable
        tokens = [token.replace("~1", "/").replace("~0", "~") for token in tokens]
    return tokens


def _index(token: str, size: int) -> int:
    """A canonical decimal index below ``size``."""
    if not (token.isdigit() and token.isascii()) or (token[0] == "0" and len(token) > 1):
        raise Unreplayable
    index = index_below(token, size)
    if index is None:
        raise Unreplayable
    return index


def _last_token(token: str) -> str:
    """A reference token as written in a pointer, unescaped (``~0`` -> ``~``, ``~1`` -> ``/``)."""
    if "~" not in token:
        return token
    if _BAD_ESCAPE.search(token):
        raise Unreplayable
    return token.replace("~1", "/").replace("~0", "~")


class _Replay:
    def __init__(self, doc: JSON, text_of: Callable[[Any], str]) -> None:
        self.root = doc
        self.owned: dict[int, Any] = {}  # id -> copy made here (kept so ids stay unique)
        self.text_of = text_of
        #: Pointer text of a container found so far -> (that container, copied here,
        #: and its pointer's token count).
        self.found: dict[str, tuple[Any, int]] = {}

    def own(self, node: Any) -> Any:
        fresh = node.copy()
        self.owned[id(fresh)] = fresh
        return fresh

    def parent(self, head: str) -> tuple[Any, int]:
        """The container at pointer ``head`` (copied so it can change) and the pointer's
        token count; the containers above it are found (and kept) on the way."""
        found = self.found
        known = found.get(head)
        if known is not None:
            return known
        if head and head[0] != "/":
            raise Unreplayable
        below: list[str] = []  # the pointers from the nearest one found down to head
        up = head
        while known is None and up:
            below.append(up)
            up = up.rpartition("/")[0]
            known = found.get(up)
        if known is None:
            node = self.root
            if id(node) not in self.owned:
                if type(node) not in _CONTAINERS:
                    raise Unreplayable
                node = self.root = self.own(node)
            known = found[""] = (node, 0)
        node, depth = known
        for pointer in reversed(below):
            node = self._child(node, pointer.rpartition("/")[2])
            depth += 1
            found[pointer] = (node, depth)
        return node, depth

    def _child(self, node: Any, token: str) -> Any:
        """The container at ``token`` (as written in a pointer) of ``node``, copied."""
        kind = type(node)
        if kind is dict:
            key: Any = _last_token(token)
            if key not in node:
                raise Unreplayable
        elif kind is list:
            key = _index(token, len(node))
        else:
            raise Unreplayable
        child = node[key]
        if id(child) not in self.owned:
            if type(child) not in _CONTAINERS:
                raise Unreplayable
            child = node[key] = self.own(child)
        return child

    def fits(self, depth: int, value: Any, cheap: bool) -> None:
        """Refuse a value that would nest deeper than ``MAX_DEPTH`` at a pointer of
        ``depth`` tokens.

        ``cheap``: ``value`` is never written into later (not a copy made
        here), so its cached text may bound its depth (text ``t`` nests at most
        ``len(t) // 2`` deep).
        """
        room = MAX_DEPTH - depth
        if room < 0:
            raise Unreplayable
        if type(value) not in _CONTAINERS:
            return
        if cheap and len(self.text_of(value)) // 2 <= room:
            return
        try:
            check_depth(value, room)
        except CfgPatchError:
            raise Unreplayable from None

    def change(self, op: str, parent: Any, token: str, value: Any) -> Any:
        """``add``, ``remove`` or ``replace`` of ``parent``'s ``token`` (unescaped), depth
        already checked; what was there before (``None`` for an add to a list).  The
        caller forgets what it moved or replaced (:meth:`forget_below`)."""
        if type(parent) is dict:
            if op == "add":
                old = parent.get(token)
                parent[token] = value
                return old
            if token not in parent:
                raise Unreplayable
            if op == "remove":
                return parent.pop(token)
            old = parent[token]
            parent[token] = value
            return old
        if op == "add":
            parent.insert(_index(token, len(parent) + 1), value)
            return None
        index = _index(token, len(parent))
        if op == "remove":
            return parent.pop(index)
        old = parent[index]
        parent[index] = value
        return old

    def list_run(self, plan: list, start: int, parent: list, head: str, token: str,
                 depth: int) -> int:
        """Apply ``plan[start]``, a remove or an add in ``parent`` (a list at pointer
        ``head`` of ``depth`` tokens), with the operations after it that continue it:
        removes of the same place, adds at the next places.  The index after them.

        One slice operation does what the operations would do one by one (each
        one moves the rest of the list), under the same conditions.
        """
        op, path = plan[start][0], plan[start][1]
        size = len(plan)
        position = _index(token, len(parent) + (op == "add"))
        end = start + 1
        self.forget_below(head)
        if op == "remove":
            while end < size and plan[end][0] == "remove" and plan[end][1] == path:
                end += 1
            if position + (end - start) > len(parent):
                raise Unreplayable
            del parent[position : position + end - start]
            return end
        while end < size and plan[end][0] == "add" and plan[end][1] == (
            f"{head}/{position + end - start}"
        ):
            end += 1
        values = [item[2] for item in plan[start:end]]
        for value in values:
            if depth >= MAX_DEPTH or type(value) in _CONTAINERS:
                self.fits(depth + 1, value, True)
        parent[position:position] = values
        return end

    def resolve(self, tokens: list[str]) -> Any:
        node = self.root
        for token in tokens:
            if type(node) is dict:
                if token not in node:
                    raise Unreplayable
                node = node[token]
            elif type(node) is list:
                node = node[_index(token, len(node))]
            else:
                raise Unreplayable
        return node

    def forget_below(self, head: str) -> None:
        """Forget the containers found below pointer ``head`` (a change there may have
        moved or replaced them); ``head`` and the ones above it stay where they are.

        Every pointer above a found one is found too (:meth:`parent` keeps the whole
        way down), so the ones kept are found by cutting ``head`` short.
        """
        found = self.found
        kept = {}
        pointer = head
        while pointer in found:
            kept[pointer] = found[pointer]
            if not pointer:
                break
            pointer = pointer.rpartition("/")[0]
        found.clear()
        found.update(kept)

    def set_root(self, value: Any) -> None:
        self.root = value
        self.found.clear()

    def move(self, source: str, path: str) -> None:
        from_tokens, tokens = _tokens(source), _tokens(path)
        self.resolve(from_tokens)  # the source must exist
        if len(from_tokens) < len(tokens) and tokens[: len(from_tokens)] == from_tokens:
            raise Unreplayable  # into its own child
        if from_tokens == tokens:
            return
        head, _, token = source.rpartition("/")
        moved = self.change("remove", self.parent(head)[0], _last_token(token), None)
        self.found.clear()
        if not path:
            self.set_root(moved)
            return
        head, _, token = path.rpartition("/")
        parent, depth = self.parent(head)
        if len(tokens) > len(from_tokens):
            # Deeper than it was: its depth is checked by walking (it may be a copy
            # made here, whose text must not be cached).
            self.fits(depth + 1, moved, False)
        self.change("add", parent, _last_token(token), moved)
        self.found.clear()


def replay(doc: JSON, plan: list, text_of: Callable[[Any], str]) -> JSON:
    """The result of applying ``plan`` to ``doc`` (``doc`` and the values are not changed).

    ``text_of`` gives the canonical text of a value (a
    :class:`~cfgpatch.text_cache.TextCache`'s ``text``).  Raises
    :class:`Unreplayable` where ``apply_patch`` may fail.
    """
    state = _Replay(doc, text_of)
    found = state.found
    index, size = 0, len(plan)
    while index < size:
        op, path, other, _ = plan[index]
        if op == "move":
            state.move(other, path)
            index += 1
            continue
        if op != "add" and op != "remove" and op != "replace":
            raise Unreplayable
        head, slash, token = path.rpartition("/")
        if not slash:  # the root
            if path or op == "remove":
                raise Unreplayable
            state.fits(0, other, True)
            state.set_root(other)
            index += 1
            continue
        known = found.get(head)
        parent, depth = known if known is not None else state.parent(head)
        if "~" in token:
            token = _last_token(token)
        if type(parent) is list and op != "replace":
            index = state.list_run(plan, index, parent, head, token, depth)
            continue
        if op != "remove" and (depth >= MAX_DEPTH or type(other) in _CONTAINERS):
            state.fits(depth + 1, other, True)
        if type(parent) is dict and op == "replace":  # most operations of a big diff
            if token not in parent:
                raise Unreplayable
            old = parent[token]
            parent[token] = other
        else:
            old = state.change(op, parent, token, other)
        if type(old) in _CONTAINERS:
            state.forget_below(head)  # a container found before may have been that one
        index += 1
    return state.root
