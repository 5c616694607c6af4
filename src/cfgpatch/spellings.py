"""Array element spellings already read: exact text -> (parsed value, canonical text).

:mod:`cfgpatch.document_reader` looks every element of a long array of objects
up here by its exact text before decoding and encoding it.  A table shared
between reads (the :class:`~cfgpatch.service.Service` owns one) lets a version
whose elements were seen in earlier versions, of any document, reuse their
values and canonical texts: only new spellings are encoded and screened.

Every entry comes from a piece that was screened like the general reader
screens a text (no repeated key, no ``-0.0``, no ``\\u003a``; no infinity, no
over-long integer), so the loose reading of the piece is the strict one
wherever it occurs; what depends on where it occurs (the depth limit, lone
surrogates) is checked on the whole document after every read.  Correctness
therefore never depends on the table: it only saves work.  Values in it are
shared with stored versions, which are never mutated.

Memory is bounded by generations: entries go into ``current``; at the end of a
read, when ``current`` holds more than ``max_entries`` entries or
``max_chars`` characters of keys, it becomes ``previous`` (the older
generation is dropped) and a new ``current`` starts.  A key found only in
``previous`` moves back into ``current``.  So the table holds at most about
twice the limits plus the pieces of the one document being read, and keeps
values alive only as long as their generation lives.
"""

from __future__ import annotations

from .jsonvalue import JSON

#: Entries of one generation of a shared table (at most two generations live).
SPELLING_ENTRIES = 200_000
#: Characters of keys (element texts, both spellings) of one generation.
SPELLING_CHARS = 32_000_000

Entry = tuple[JSON, str]


class SpellingTable:
    """Element text -> (value, canonical text), in two bounded generations."""

    def __init__(self, max_entries: int = SPELLING_ENTRIES,
                 max_chars: int = SPELLING_CHARS) -> None:
        self.current: dict[str, Entry] = {}
        self.previous: dict[str, Entry] = {}
        self.chars = 0  # characters of the keys of ``current`` (approximate under threads)
        self.max_entries = max_entries
        self.max_chars = max_chars

    def __len__(self) -> int:
        return len(self.current) + len(self.previous)

    def settle(self) -> None:
        """Start a new generation if ``current`` is over the limits (after a read)."""
        if len(self.current) > self.max_entries or self.chars > self.max_chars:
            self.previous = self.current
            self.current = {}
            self.chars = 0

    def clear(self) -> None:
        """Forget every entry (only speed depends on them)."""
        self.previous = {}
        self.current = {}
        self.chars = 0
