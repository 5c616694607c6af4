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

``tests/test_replay.py`` checks it against ``apply_patch`` on generated patches,
failing ones included.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .errors import CfgPatchError
from .jsonvalue import JSON, MAX_DEPTH, check_depth

_BAD_ESCAPE = re.compile(r"~(?![01])")


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
    index = int(token)
    if index >= size:
        raise Unreplayable
    return index


class _Replay:
    def __init__(self, doc: JSON, text_of: Callable[[Any], str]) -> None:
        self.root = doc
        self.owned: dict[int, Any] = {}  # id -> copy made here (kept so ids stay unique)
        self.text_of = text_of
        self.last: tuple[list[str], Any] | None = None  # see parent()

    def own(self, node: Any) -> Any:
        fresh = node.copy()
        self.owned[id(fresh)] = fresh
        return fresh

    def parent(self, tokens: list[str]) -> Any:
        """The container holding ``tokens[-1]``, copied along the way so it can change.

        The last one found is kept with its tokens: an add, remove or replace changes
        only what its parent holds, so the next operation with the same parent
        finds the same container there (a move, which changes two, forgets it).
        """
        parent_tokens = tokens[:-1]
        last = self.last
        if last is not None and last[0] == parent_tokens:
            return last[1]
        node = self._walk(tokens)
        self.last = (parent_tokens, node)
        return node

    def _walk(self, tokens: list[str]) -> Any:
        owned = self.owned
        node = self.root
        if id(node) not in owned:
            if type(node) not in (dict, list):
                raise Unreplayable
            node = self.root = self.own(node)
        for depth in range(len(tokens) - 1):
            token = tokens[depth]
            kind = type(node)
            if kind is dict:
                if token not in node:
                    raise Unreplayable
                key: Any = token
            elif kind is list:
                key = _index(token, len(node))
            else:
                raise Unreplayable
            child = node[key]
            if id(child) not in owned:
                if type(child) not in (dict, list):
                    raise Unreplayable
                child = node[key] = self.own(child)
            node = child
        return node

    def fits(self, tokens: list[str], value: Any, cheap: bool) -> None:
        """Refuse a value that would nest deeper than ``MAX_DEPTH`` at ``tokens``.

        ``cheap``: ``value`` is never written into later (not a copy made
        here), so its cached text may bound its depth (text ``t`` nests at most
        ``len(t) // 2`` deep).
        """
        room = MAX_DEPTH - len(tokens)
        if room < 0:
            raise Unreplayable
        if type(value) not in (dict, list):
            return
        if cheap and len(self.text_of(value)) // 2 <= room:
            return
        try:
            check_depth(value, room)
        except CfgPatchError:
            raise Unreplayable from None

    def add(self, tokens: list[str], value: Any) -> None:
        if not tokens:
            self.root = value
            self.last = None
            return
        parent = self.parent(tokens)
        if type(parent) is dict:
            parent[tokens[-1]] = value
        else:
            parent.insert(_index(tokens[-1], len(parent) + 1), value)

    def remove(self, tokens: list[str]) -> Any:
        if not tokens:
            raise Unreplayable
        parent = self.parent(tokens)
        if type(parent) is dict:
            if tokens[-1] not in parent:
                raise Unreplayable
            return parent.pop(tokens[-1])
        return parent.pop(_index(tokens[-1], len(parent)))

    def replace(self, tokens: list[str], value: Any) -> None:
        if not tokens:
            self.root = value
            self.last = None
            return
        parent = self.parent(tokens)
        if type(parent) is dict:
            if tokens[-1] not in parent:
                raise Unreplayable
            parent[tokens[-1]] = value
        else:
            parent[_index(tokens[-1], len(parent))] = value

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

    def move(self, source: list[str], tokens: list[str]) -> None:
        value = self.resolve(source)
        if len(source) < len(tokens) and tokens[: len(source)] == source:
            raise Unreplayable  # into its own child
        if source == tokens:
            return
        if len(tokens) > len(source):
            self.fits(tokens, value, False)
        self.add(tokens, self.remove(source))


def replay(doc: JSON, plan: list, text_of: Callable[[Any], str]) -> JSON:
    """The result of applying ``plan`` to ``doc`` (``doc`` and the values are not changed).

    ``text_of`` gives the canonical text of a value (a
    :class:`~cfgpatch.text_cache.TextCache`'s ``text``).  Raises
    :class:`Unreplayable` where ``apply_patch`` may fail.
    """
    state = _Replay(doc, text_of)
    for op, path, other, _ in plan:
        tokens = _tokens(path)
        if op == "replace":
            state.fits(tokens, other, True)
            state.replace(tokens, other)
        elif op == "remove":
            state.remove(tokens)
        elif op == "add":
            state.fits(tokens, other, True)
            state.add(tokens, other)
        elif op == "move":
            state.last = None
            state.move(_tokens(other), tokens)
            state.last = None
        else:
            raise Unreplayable
    return state.root
