"""How a durable store keeps versions: whole snapshots, deltas and tombstones.

A version is kept in one of three kinds of row:

* :data:`FULL`: the document's canonical text;
* :data:`DELTA`: the canonical text of a JSON Patch that turns the version
  before into this one (the client's patch as applied, or the diff engine's
  patch for a whole new text); applying it to the version before gives exactly
  the stored value, so the canonical text read back is byte for byte the one
  that was written;
* :data:`TOMBSTONE`: the document was deleted at this version (the text is
  ``null``; the history before it stays readable).

Versions are grouped in blocks of :data:`SNAPSHOT_EVERY`: the first version of
a block (1, 33, 65, ...) is always kept whole, so reading any version replays
at most ``SNAPSHOT_EVERY - 1`` patches from the start of its block (fewer when
a nearer version is kept whole, or is in the caller's cache).  A delta is kept
only when it is shorter than the text.  Retention removes whole blocks, so the
first version kept is always whole.
"""

from __future__ import annotations

from collections.abc import Callable

from ..jsonpatch import apply_patch
from ..jsonvalue import JSON, canonical, parse
from .base import StoredVersion

FULL, DELTA, TOMBSTONE = 0, 1, 2
#: Versions per block: the first of every block is kept whole.
SNAPSHOT_EVERY = 32


def block_start(version: int) -> int:
    """The first version of the block holding ``version`` (kept whole).

    >>> block_start(1), block_start(32), block_start(33), block_start(70)
    (1, 1, 33, 65)
    """
    return (version - 1) // SNAPSHOT_EVERY * SNAPSHOT_EVERY + 1


def row_kind(version: int, text: str, delta: str | None, deleted: bool) -> tuple[int, str]:
    """The kind and body of the row that keeps ``version``."""
    if deleted:
        return TOMBSTONE, "null"
    if keeps_delta(version, text, delta):
        assert delta is not None
        return DELTA, delta
    return FULL, text


def keeps_delta(version: int, text: str, delta: str | None) -> bool:
    """True when ``version`` is kept as ``delta`` (not a block start, and shorter)."""
    return delta is not None and version != block_start(version) and len(delta) < len(text)


def from_block(rows: list[StoredVersion]) -> list[StoredVersion]:
    """The rows of a block (oldest first, up to the version wanted) from the last
    one that is not a delta: the part of the chain that must be replayed."""
    for index in range(len(rows) - 1, -1, -1):
        if rows[index].kind != DELTA:
            return rows[index:]
    return []  # the block's start is missing: pruned under the reader


def replay(rows: list[StoredVersion], start: JSON | None = None,
           parse_text: Callable[[str], JSON] = parse) -> JSON:
    """The value of the last of ``rows`` (a chain from :func:`from_block`).

    ``start`` is the value of ``rows[0]`` when the caller has it (then its text is
    not read); every later row must be a delta.  A tombstone's value is ``None``.
    """
    first = rows[0]
    if start is not None or first.has_value:
        value = start if start is not None else first.value
    elif first.kind == TOMBSTONE:
        value = None
    else:
        value = parse_text(first.text)
    for row in rows[1:]:
        value = apply_patch(value, parse(row.text), share_unchanged=True, trusted=True)
    return value


def whole(rows: list[StoredVersion]) -> StoredVersion | None:
    """The last version of a chain as whole text (``None`` for an empty chain)."""
    chain = from_block(rows)
    if not chain:
        return None
    last = chain[-1]
    if len(chain) == 1:
        return last
    value = replay(chain)
    return StoredVersion(last.version, canonical(value), value, True)
