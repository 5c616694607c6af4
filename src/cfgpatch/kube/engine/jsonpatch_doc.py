"""The document model of evanphx/json-patch v4, as ``kubectl patch --type json`` walks it.

Containers are Go's ``partialDoc`` (a map) and ``partialArray`` (a slice): their
get/set/add/remove with Go's ``strconv.Atoi`` indices (``01``, ``+1``, negative indices
counted from the end), one-pass RFC 6901 unescaping that keeps invalid escapes, and
``findObject`` (the container holding a path's last segment).  The library's errors are
:class:`GoError` (its text) and :class:`Panic` (kubectl crashes).
"""

from __future__ import annotations

import re

from ..go import json as gojson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class RawNull:
    """A ``null`` stored by ``add``/``replace`` with ``"value": null``.

    The library keeps it as a node without text, unlike a ``null`` read from the object
    (no node at all): walking a path through it crashes kubectl, and ``test`` treats it
    apart.  It prints as ``null``.
    """

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return "RAW_NULL"


RAW_NULL = RawNull()
class GoError(Exception):
    """An error the Go library returns; ``str()`` is its text."""


class Panic(Exception):
    """A nil pointer dereference in the Go library: kubectl crashes."""


# --- Go's strconv.Atoi and RFC 6901 decoding --------------------------------------------


def atoi(text: str) -> int:
    """Go's ``strconv.Atoi`` (64-bit), raising its exact error text."""
    body = text[1:] if text[:1] in ("+", "-") else text
    if not body or not body.isascii() or not body.isdigit():
        raise GoError(f"strconv.Atoi: parsing {gojson.go_quote(text)}: invalid syntax")
    value = int(body)
    if text[0] == "-":
        value = -value
    if not gojson.INT64_MIN <= value <= gojson.INT64_MAX:
        raise GoError(f"strconv.Atoi: parsing {gojson.go_quote(text)}: value out of range")
    return value


_ESCAPE = re.compile("~[01]")


def decode_key(token: str) -> str:
    """One pass of ``~1`` -> ``/`` and ``~0`` -> ``~``; other ``~`` kept (``~01`` -> ``~1``)."""
    return _ESCAPE.sub(lambda m: "/" if m.group() == "~1" else "~", token)


def invalid_index(idx: int) -> GoError:
    return GoError(f"Unable to access invalid index: {idx}: invalid index referenced")


# --- containers (partialDoc / partialArray) ---------------------------------------------


def get_in(con: dict | list, key: str) -> Any:
    if isinstance(con, dict):
        return con.get(key)
    idx = atoi(key)
    if idx < 0:
        if idx < -len(con):
            raise invalid_index(idx)
        idx += len(con)
    if idx >= len(con):
        raise invalid_index(idx)
    return con[idx]


def set_in(con: dict | list, key: str, value: Any) -> None:
    if isinstance(con, dict):
        con[key] = value
        return
    idx = atoi(key)
    if idx < 0:
        idx += len(con)
    con[idx] = value


def add_in(con: dict | list, key: str, value: Any) -> None:
    if isinstance(con, dict):
        con[key] = value
        return
    if key == "-":
        con.append(value)
        return
    try:
        idx = atoi(key)
    except GoError as err:
        raise GoError(f"value was not a proper array index: '{key}': {err}") from None
    size = len(con) + 1
    if idx >= size:
        raise invalid_index(idx)
    if idx < 0:
        if idx < -size:
            raise invalid_index(idx)
        idx += size
    con.insert(idx, value)


def remove_in(con: dict | list, key: str) -> None:
    if isinstance(con, dict):
        if key not in con:
            raise GoError(f"Unable to remove nonexistent key: {key}: missing value")
        del con[key]
        return
    idx = atoi(key)
    if idx >= len(con):
        raise invalid_index(idx)
    if idx < 0:
        if idx < -len(con):
            raise invalid_index(idx)
        idx += len(con)
    del con[idx]


def find_container(root: list, path: str) -> tuple[dict | list, str] | None:
    """``findObject``: the container holding the last segment, or ``None``."""
    split = path.split("/")
    if len(split) < 2:
        return None
    node = root[0]
    for part in split[1:-1]:
        try:
            node = get_in(node, decode_key(part))
        except GoError:
            return None
        if node is RAW_NULL:
            raise Panic()
        if not isinstance(node, (dict, list)):
            return None
    return node, decode_key(split[-1])
