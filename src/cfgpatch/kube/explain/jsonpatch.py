"""Findings about JSON Patches (RFC 6902 as kubectl applies it): positions into keyed
lists, whole objects replaced by ``add``, unescaped slashes, kubectl's departures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...jsonvalue import canonical_unchecked
from ...pointer import format_pointer
from ..schema.rules import KEYED
from .catalogue import ABSENT, Finding, Situation, make
from .merge import directives_as_data


def kubectl_tokens(path: str) -> list[str]:
    """Split a pointer as kubectl's JSON Patch does: ``~1`` then ``~0``, others literal."""
    return [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]]


def _ops(s: Situation) -> Iterator[tuple[int, dict]]:
    if isinstance(s.patch, list):
        for i, op in enumerate(s.patch):
            if isinstance(op, dict):
                yield i, op


def _doc_before(s: Situation, index: int) -> Any:
    if s.before_op is None:
        return s.obj if index == 0 else ABSENT
    return s.before_op(index)


def _json_map_replace(s: Situation) -> Iterator[Finding]:
    for i, op in _ops(s):
        path = op.get("path")
        if op.get("op") != "add" or not isinstance(path, str) or not path.startswith("/"):
            continue
        doc = _doc_before(s, i)
        tokens = kubectl_tokens(path)
        if isinstance(_lookup(doc, tokens[:-1]), list):
            continue  # add into a list inserts an element; it replaces nothing
        target = _lookup(doc, tokens)
        if isinstance(target, dict) and target:
            value = op.get("value")
            dropped = [k for k in target if not isinstance(value, dict) or k not in value]
            if dropped:
                yield make("add-replaces-map", path,
                           f"op {i} add replaces the existing object and drops "
                           f"{', '.join(dropped)}; add each key as "
                           f"{path}/<key> to keep the others", dropped=dropped)


def _lookup(doc: Any, tokens: list[str]) -> Any:
    for token in tokens:
        if isinstance(doc, dict) and token in doc:
            doc = doc[token]
        elif isinstance(doc, list) and token.isdigit() and int(token) < len(doc):
            doc = doc[int(token)]
        else:
            return ABSENT
    return doc


def _json_index_into_keyed(s: Situation) -> Iterator[Finding]:
    guarded: set[str] = set()
    for i, op in _ops(s):
        path = op.get("path")
        if not isinstance(path, str) or not path.startswith("/"):
            continue
        if op.get("op") == "test":
            guarded.add(path)
            continue
        doc = _doc_before(s, i)
        yield from _index_guard(s, op, i, path, doc, guarded)


def _index_guard(s: Situation, op: dict, i: int, path: str, doc: Any, guarded: set[str]
                 ) -> Iterator[Finding]:
    tokens = kubectl_tokens(path)
    shape: tuple[str, ...] = ()
    node = doc
    for depth, token in enumerate(tokens):
        if isinstance(node, list):
            if depth == len(tokens) - 1 and op.get("op") == "add":
                return  # an insertion at a position: no element is picked, none is hit
            rule = s.shapes.list_rule(shape)
            if rule and rule.kind == KEYED and token.isdigit() and int(token) < len(node):
                element = node[int(token)]
                key = rule.keys[0]
                guard = format_pointer([*tokens[: depth + 1], key])
                if isinstance(element, dict) and key in element and guard not in guarded:
                    test = {"op": "test", "path": guard, "value": element[key]}
                    yield make("index-into-keyed-list", path,
                               f"op {i} picks {shape[-1] if shape else 'the list'}[{token}] by "
                               f"position (today {key}={canonical_unchecked(element[key])}); "
                               f"guard it with {canonical_unchecked(test)}", guard=test)
                    return
            shape = (*shape, "[]")
            node = node[int(token)] if token.isdigit() and int(token) < len(node) else ABSENT
        elif isinstance(node, dict):
            shape = (*shape, token)
            node = node.get(token, ABSENT)
        else:
            return


def _json_unescaped(s: Situation) -> Iterator[Finding]:
    last = s.obj  # after a failing operation: the document before it, to check the rest
    for i, op in _ops(s):
        doc = _doc_before(s, i)
        if doc is None or doc is ABSENT:
            doc = last
        last = doc
        for name in ("path", "from"):
            path = op.get(name)
            if isinstance(path, str) and path.startswith("/"):
                fixed = _corrected_pointer(doc, kubectl_tokens(path),
                                           op.get("op") == "add" and name == "path")
                if fixed and fixed != path:
                    yield make("unescaped-slash", path,
                               f"op {i} {name} splits a key at '/'; did you mean {fixed} ?",
                               corrected=fixed)


_STRING_MAPS = ("annotations", "labels", "matchLabels", "nodeSelector", "selector", "data",
                "stringData")


def _corrected_pointer(doc: Any, tokens: list[str], adding: bool) -> str | None:
    node = doc
    for depth, token in enumerate(tokens):
        rest = tokens[depth:]
        if isinstance(node, dict) and token not in node and len(rest) > 1:
            for end in range(len(rest), 1, -1):
                joined = "/".join(rest[:end])
                if joined in node:
                    return format_pointer([*tokens[:depth], joined, *rest[end:]])
            if depth and tokens[depth - 1] in _STRING_MAPS:
                return format_pointer([*tokens[:depth], "/".join(rest)])
            return None
        if isinstance(node, dict):
            node = node.get(token, ABSENT)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return None


def _json_departures(s: Situation) -> Iterator[Finding]:
    for i, op in _ops(s):
        path = op.get("path")
        name = op.get("op")
        if isinstance(path, str) and path and not path.startswith("/"):
            effect = ("fails" if "/" not in path else
                      f"drops the first segment and writes {path[path.index('/'):]}")
            yield make("kubectl-json-departure", path,
                       f"op {i}: a path without a leading '/' is not a JSON Pointer (RFC 6901 "
                       f"rejects it); kubectl {effect}. Did you mean /{path} ?")
            continue
        if name == "add" and "value" not in op:
            yield make("kubectl-json-departure", str(path),
                       f"op {i}: add without value sets null in kubectl; RFC 6902 requires "
                       f"a value")
        if isinstance(path, str):
            yield from _token_departures(s, i, op, path)


def _token_departures(s: Situation, i: int, op: dict, path: str) -> Iterator[Finding]:
    doc = _doc_before(s, i)
    raw = path.split("/")[1:]
    for token in raw:
        if "~" in token.replace("~0", "").replace("~1", ""):
            yield make("kubectl-json-departure", path,
                       f"op {i}: '{token}' holds an invalid ~ escape that kubectl keeps "
                       f"literally; RFC 6901 rejects it (write ~0 for a literal ~)")
    tokens = kubectl_tokens(path)
    parent = _lookup(doc, tokens[:-1]) if tokens else ABSENT
    last = tokens[-1] if tokens else ""
    if isinstance(parent, list) and last != "-" and not _rfc_index(last) and _go_atoi(last):
        meaning = _index_meaning(last, len(parent), op.get("op"))
        if meaning:
            yield make("kubectl-json-departure", path,
                       f"op {i}: index '{last}' is not an RFC 6901 array index; kubectl "
                       f"accepts it ({meaning})")
    if op.get("op") == "replace" and isinstance(parent, dict) and last not in parent:
        yield make("kubectl-json-departure", path,
                   f"op {i}: replace of the missing key {last} adds it in kubectl; RFC 6902 "
                   f"requires the target to exist (use add)")
    if op.get("op") == "test" and op.get("value", 0) is None and tokens and \
            _lookup(doc, tokens) is ABSENT:
        yield make("kubectl-json-departure", path,
                   f"op {i}: kubectl's test treats a missing path as null and passes; RFC "
                   f"6902 fails it")


def _rfc_index(token: str) -> bool:
    return token == "0" or (token.isdigit() and token.isascii() and not token.startswith("0"))


def _go_atoi(token: str) -> bool:
    """Whether Go's ``strconv.Atoi`` reads ``token`` (optional sign, ASCII digits)."""
    body = token[1:] if token[:1] in "+-" else token
    return bool(body) and body.isascii() and body.isdigit()


def _index_meaning(token: str, length: int, op: Any) -> str:
    number = int(token)
    if number < 0:
        position = length + 1 + number if op == "add" else length + number
        if position < 0:
            return ""
        if op == "add":
            return f"add at {token} inserts at position {position}"
        return f"{token} counts from the end: element {position}"
    return f"read as index {number}"




JSON_DETECTORS = (_json_map_replace, _json_index_into_keyed, _json_unescaped, _json_departures,
                  directives_as_data)
