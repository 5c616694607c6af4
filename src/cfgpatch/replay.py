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
#: The operations that change one place (a move changes two).
_CHANGES = frozenset(("add", "remove", "replace"))


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


def _common(x: list[str], y: list[str]) -> int:
    """The length of the common prefix of two token lists."""
    size = min(len(x), len(y))
    for k in range(size):
        if x[k] != y[k]:
            return k
    return size


def _index(token: str, size: int) -> int:
    """A canonical decimal index below ``size``."""
    if not (token.isdigit() and token.isascii()) or (token[0] == "0" and len(token) > 1):
        raise Unreplayable
    index = int(token)
    if index >= size:
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
        #: What locate() found last: the parent's pointer text and tokens, and the
        #: containers from the root down to it.
        self.head: str | None = None
        self.parents: list[str] = []
        self.nodes: list[Any] = []

    def own(self, node: Any) -> Any:
        fresh = node.copy()
        self.owned[id(fresh)] = fresh
        return fresh

    def locate(self, path: str) -> tuple[Any, str, int]:
        """The container holding the last token of ``path`` (a non-empty pointer), copied
        along the way so it can change; that token, unescaped; the pointer's token count.

        The containers on the way to the last parent found are kept with its
        pointer: an add, remove or replace changes only what its parent holds, so
        that parent and every container above it stay where they are, and the next
        operation walks only from where its pointer leaves the last one (a move,
        which changes two places, and an operation on the root forget them).
        Equal pointer texts are equal token lists, as escapes are checked.
        """
        if path[0] != "/":
            raise Unreplayable
        head, _, token = path.rpartition("/")
        if head == self.head:
            return self.nodes[-1], _last_token(token), len(self.nodes)
        last = self.head
        if last is not None and last.startswith(head):
            if len(last) > len(head) and last[len(head)] == "/":  # an ancestor of the last one
                depth = head.count("/")
                del self.nodes[depth + 1 :]
                del self.parents[depth:]
                self.head = head
                return self.nodes[-1], _last_token(token), depth + 1
        elif last is not None and head.startswith(last) and head[len(last)] == "/":
            more = _tokens(head[len(last) :])  # below the last one
            self.parents.extend(more)
            self.nodes = self._walk(self.parents, self.nodes)
            self.head = head
            return self.nodes[-1], _last_token(token), len(self.nodes)
        if len(self.nodes) > 1:
            up, _, name = head.rpartition("/")
            if up == last.rpartition("/")[0]:  # a sibling of the last one
                self.parents[-1] = _last_token(name)
                del self.nodes[-1]
                self.nodes = self._walk(self.parents, self.nodes)
                self.head = head
                return self.nodes[-1], _last_token(token), len(self.nodes)
        tokens = _tokens(path)
        parents = tokens[:-1]
        kept = self.nodes[: 1 + _common(parents, self.parents)] if self.nodes else []
        self.nodes = self._walk(parents, kept)
        self.head, self.parents = head, parents
        return self.nodes[-1], tokens[-1], len(tokens)

    def forget(self) -> None:
        """Forget the containers found by :meth:`locate` (they may have moved)."""
        self.head, self.parents, self.nodes = None, [], []

    def _walk(self, parents: list[str], nodes: list[Any]) -> list[Any]:
        """The containers at ``parents[:k]`` for every ``k``, owned; ``nodes`` holds the
        first ones, already found."""
        owned = self.owned
        if not nodes:
            node = self.root
            if id(node) not in owned:
                if type(node) not in (dict, list):
                    raise Unreplayable
                node = self.root = self.own(node)
            nodes = [node]
        node = nodes[-1]
        for depth in range(len(nodes) - 1, len(parents)):
            token = parents[depth]
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
            nodes.append(node)
        return nodes

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
        if type(value) not in (dict, list):
            return
        if cheap and len(self.text_of(value)) // 2 <= room:
            return
        try:
            check_depth(value, room)
        except CfgPatchError:
            raise Unreplayable from None

    def apply(self, op: str, path: str, value: Any) -> None:
        """One operation of a plan (``value`` is a move's ``from``)."""
        if op == "move":
            self.move(value, path)
        elif op not in _CHANGES:
            raise Unreplayable
        elif not path:
            if op == "remove":
                raise Unreplayable
            self.fits(0, value, True)
            self.root = value
            self.forget()
        else:
            parent, token, depth = self.locate(path)
            self.change(op, parent, token, depth, value)

    def change(self, op: str, parent: Any, token: str, depth: int, value: Any,
               cheap: bool | None = True) -> Any:
        """``add``, ``remove`` or ``replace`` of ``parent``'s ``token`` (``depth``: the
        pointer's token count; ``cheap`` as for :meth:`fits`, ``None``: no depth
        check); what a remove took."""
        if op != "remove" and cheap is not None and (
            depth > MAX_DEPTH or type(value) in (dict, list)
        ):
            self.fits(depth, value, cheap)
        if type(parent) is dict:
            if op == "add":
                parent[token] = value
            elif token not in parent:
                raise Unreplayable
            elif op == "remove":
                return parent.pop(token)
            else:
                parent[token] = value
        elif op == "add":
            parent.insert(_index(token, len(parent) + 1), value)
        elif op == "remove":
            return parent.pop(_index(token, len(parent)))
        else:
            parent[_index(token, len(parent))] = value
        return None

    def list_run(self, plan: list, start: int, parent: list, token: str) -> int:
        """Apply ``plan[start]``, a remove or an add in ``parent`` (a list, the last
        parent found), with the operations after it that continue it: removes of
        the same place, adds at the next places.  The index after them.

        One slice operation does what the operations would do one by one (each
        one moves the rest of the list), under the same conditions.
        """
        op, path = plan[start][0], plan[start][1]
        size = len(plan)
        position = _index(token, len(parent) + (op == "add"))
        end = start + 1
        if op == "remove":
            while end < size and plan[end][0] == "remove" and plan[end][1] == path:
                end += 1
            if position + (end - start) > len(parent):
                raise Unreplayable
            del parent[position : position + end - start]
            return end
        head = self.head
        while end < size and plan[end][0] == "add" and plan[end][1] == (
            f"{head}/{position + end - start}"
        ):
            end += 1
        values = [item[2] for item in plan[start:end]]
        depth = len(self.nodes)
        for value in values:
            if depth > MAX_DEPTH or type(value) in (dict, list):
                self.fits(depth, value, True)
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

    def move(self, source: str, path: str) -> None:
        self.forget()
        from_tokens, tokens = _tokens(source), _tokens(path)
        self.resolve(from_tokens)  # the source must exist
        if len(from_tokens) < len(tokens) and tokens[: len(from_tokens)] == from_tokens:
            raise Unreplayable  # into its own child
        if from_tokens != tokens:
            parent, token, _ = self.locate(source)
            moved = self.change("remove", parent, token, 0, None)
            self.forget()
            if not path:
                self.root = moved
            else:
                parent, token, depth = self.locate(path)
                # Deeper than it was: its depth is checked by walking (it may be a
                # copy made here, whose text must not be cached).
                self.change("add", parent, token, depth, moved,
                            False if len(tokens) > len(from_tokens) else None)
        self.forget()


def replay(doc: JSON, plan: list, text_of: Callable[[Any], str]) -> JSON:
    """The result of applying ``plan`` to ``doc`` (``doc`` and the values are not changed).

    ``text_of`` gives the canonical text of a value (a
    :class:`~cfgpatch.text_cache.TextCache`'s ``text``).  Raises
    :class:`Unreplayable` where ``apply_patch`` may fail.
    """
    state = _Replay(doc, text_of)
    index, size = 0, len(plan)
    while index < size:
        op, path, other, _ = plan[index]
        head, _, token = path.rpartition("/")
        if head == state.head and op in _CHANGES and path.startswith("/"):
            # The parent of the operation before (most operations of a diff).
            parent = state.nodes[-1]
            if type(parent) is list and op != "replace":
                index = state.list_run(plan, index, parent, _last_token(token))
                continue
            state.change(op, parent, _last_token(token), len(state.nodes), other)
        else:
            state.apply(op, path, other)
        index += 1
    return state.root
