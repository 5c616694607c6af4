"""Reading a stored document's text: its value and canonical text, quickly.

:func:`read_document` gives the same value and canonical text as
:func:`cfgpatch.jsonvalue.parse_with_text` (and the same errors: it falls back
to it whenever anything is unusual), but does less work on what the service
mostly stores, long arrays whose elements repeat (route tables, rule lists):

* the outer objects and arrays (:data:`~cfgpatch.text_cache.OBJECT_WALK_DEPTH`
  levels) are read step by step, each element of an array of objects or
  arrays by one call of the C decoder, which says where the element ends;
* elements spelled the same way are the same value, so the text of every
  element is looked up among the texts seen before, in this document and (with
  the service's :class:`~cfgpatch.spellings.SpellingTable`) in every earlier
  read: a repeat reuses the first element's parsed value and canonical text
  (equal elements of stored documents are then one shared object; stored
  versions are never mutated, so sharing is safe, as it already is between
  versions); a spelling seen in an earlier read does not count as new;
* only new spellings are encoded and screened for what the loose decoder lets
  through (a repeated key, ``-0.0``), exactly as ``parse_with_text`` screens
  the whole text;
* the element texts go into the service's :class:`~cfgpatch.text_cache.TextCache`,
  which the diff and its round trip use as array keys;
* in an array whose elements hardly repeat (see ``_SAMPLE``) the elements after
  the sample are read in one piece, so such documents cost about what
  ``parse_with_text`` costs (nothing is read twice, the text joined once); those
  elements enter the table under their canonical texts (their own spellings are
  not known), so a later canonical text holding them (a new version, the stored
  text read again) finds them.

``benchmarks/bench_diff.py`` measures both kinds of route table.
"""

from __future__ import annotations

import re
from itertools import repeat

from .errors import CfgPatchError
from .gc_pause import pausing
from .jsonvalue import (
    JSON,
    as_text,
    canonical_many,
    canonical_unchecked,
    has_lone_surrogate,
    needs_strict_reading,
    parse_with_text,
    scan_value,
)
from .spellings import SpellingTable
from .text_cache import BIG_ARRAY, OBJECT_WALK_DEPTH, TextCache

_SPACE = " \t\n\r"
_SPACES = re.compile(r"[ \t\n\r]*")

#: An array in whose first ``_SAMPLE`` elements more than ``_MOSTLY_NEW`` are
#: spelled in a way not seen before (elements with unique ids, say) is read
#: again in one piece: reading element by element costs about twice the C
#: decoder's time per new element (each gets its own key strings) and pays only
#: when elements repeat.  New spellings come early (the first routes of a table
#: are nearly all new even when one in five is new overall), hence the long
#: sample and the high bar.
_SAMPLE = 1024
_MOSTLY_NEW = _SAMPLE * 15 // 16
#: The rest of such an array is read by copying the rest of the text (``_rest``)
#: when that is at most ``_MAX_COPY`` times the text read so far (copying costs
#: about a hundredth of decoding), else the array is read again from its start:
#: either way the work stays linear in the text, however many such arrays it holds.
_MAX_COPY = 64


class _Unusual(Exception):
    """Internal: leave this text to the general reader."""


@pausing
def read_document(text: str | bytes, cache: TextCache,
                  spellings: SpellingTable | None = None) -> tuple[JSON, str]:
    """The strict value of ``text`` and its canonical text (as ``parse_with_text``).

    The texts of containers and of long arrays' elements are recorded in
    ``cache`` (only when the reading succeeds).  ``spellings`` holds element
    texts read before (by earlier calls: the service shares one table between
    all its reads); without it, only repeats within ``text`` are recognised.
    Raises :class:`~cfgpatch.errors.InvalidInput` (``invalid json``) like
    ``parse_with_text``, which reads every text this reader leaves alone.
    """
    text = as_text(text)
    reader = _Reader(text, spellings if spellings is not None else SpellingTable())
    try:
        value = reader.document()
        canon = reader.texts.document_text(value)  # enforces the depth limit
        if has_lone_surrogate(canon):
            raise _Unusual
    except (_Unusual, ValueError, StopIteration, IndexError, RecursionError, CfgPatchError):
        reader.texts = TextCache()
        value, canon = _general(text, reader.texts)
    finally:
        reader.spellings.chars += reader.chars
        reader.spellings.settle()
    cache.adopt(reader.texts)  # only now: a text that is refused leaves nothing behind
    return value, canon


def _general(text: str, texts: TextCache) -> tuple[JSON, str]:
    """``parse_with_text`` caching element texts in ``texts``, with its own errors.

    The caching encoder checks the depth of a long array's elements against what is
    left below the array and would name that limit: an error is the plain reader's.
    """
    try:
        return parse_with_text(text, encode=texts.fresh_document_text)
    except CfgPatchError:
        return parse_with_text(text)  # raises (the same code, the general message)


class _Reader:
    """One reading of one text (see the module's description)."""

    def __init__(self, text: str, spellings: SpellingTable) -> None:
        self.text = text
        self.spellings = spellings  # element text -> (value, canonical text), screened
        self.chars = 0  # characters of the keys this reading added to ``spellings``
        self.texts = TextCache()  # what was read; the caller adopts it on success

    def document(self) -> JSON:
        value, end = self._value(self._skip(0), 0)
        if self._skip(end) != len(self.text):
            raise _Unusual  # extra data: the general reader names it
        return value

    def _skip(self, index: int) -> int:
        if index < len(self.text) and self.text[index] in _SPACE:
            return _SPACES.match(self.text, index).end()  # type: ignore[union-attr]  # '*' always matches
        return index

    def _value(self, index: int, level: int) -> tuple[JSON, int]:
        first = self.text[index]
        if level < OBJECT_WALK_DEPTH:
            if first == "{":
                return self._object(index, level)
            if first == "[":
                return self._array(index)
        return self._piece(index)

    def _piece(self, index: int) -> tuple[JSON, int]:
        """A value read by one call of the C decoder, screened and recorded."""
        value, end = scan_value(self.text, index)
        piece = self.text[index:end]
        if type(value) is list and len(value) >= BIG_ARRAY:
            _screen_many(piece, self.texts.keys(value, fresh=True))
        else:
            canon = canonical_unchecked(value)  # ValueError for an infinity
            _screen(piece, canon)
            if type(value) in (dict, list):
                self.texts.remember_text(value, canon)
        return value, end

    def _object(self, index: int, level: int) -> tuple[dict, int]:
        text = self.text
        result: dict = {}
        index = self._skip(index + 1)
        if text[index] == "}":
            return result, index + 1
        while True:
            if text[index] != '"':
                raise _Unusual
            key, index = scan_value(text, index)
            if key in result:
                raise _Unusual  # a repeated key: the general reader names it
            index = self._skip(index)
            if text[index] != ":":
                raise _Unusual
            result[key], index = self._value(self._skip(index + 1), level + 1)
            index = self._skip(index)
            if text[index] == "}":
                return result, index + 1
            if text[index] != ",":
                raise _Unusual
            index = self._skip(index + 1)

    def _array(self, index: int) -> tuple[list, int]:
        text = self.text
        start = index
        index = self._skip(index + 1)
        if text[index] == "]":
            return [], index + 1
        if text[index] not in "{[":  # scalars: one call of the C decoder is quicker
            return self._piece(start)
        values: list = []
        texts: list[str] = []
        known, add_value, add_text = self.spellings.current, values.append, texts.append
        new = 0
        cut = -1  # the next "},{" found at or after ``index``; -2 when there is none left
        longest = 0  # no element is looked up by its cut beyond this length (see below)
        while True:  # the hot loop of the module: one pass per element
            entry = None
            if cut != -2 and text[index] == "{":
                # An object spelled as one seen before ends where "},{" follows, unless
                # "},{" lies inside it; then the text up to there is no complete value,
                # so no spelling: a text found in the table is the element whole.  The
                # cut is looked for once per element, and a long way only once.
                if cut < index:
                    cut = text.find("},{", index)
                    if cut < 0:
                        cut = -2
                if 0 <= cut < index + longest:
                    entry = known.get(text[index : cut + 1])
                    if entry is not None:
                        end = cut + 1
            if entry is None:
                value, end = scan_value(text, index)
                piece = text[index:end]
                entry = known.get(piece)
                longest = max(longest, 4 * (end - index) + 64)
            if entry is None:
                entry = self._older(piece)
            if entry is None:
                entry = self._enter(piece, value, known)
                canon = entry[1]
                new += 1  # spellings seen before (in any earlier read) are not new
                if new > _MOSTLY_NEW and len(values) < _SAMPLE:
                    if len(text) - end > _MAX_COPY * (end - start):
                        return self._piece(start)  # reading again costs less than copying
                    add_value(value)  # few repeats: one by one does not pay
                    add_text(canon)
                    end = self._rest(values, texts, end)
                    break
            add_value(entry[0])
            add_text(entry[1])
            if text[end] in _SPACE:
                end = self._skip(end)
            if text[end] == "]":
                break
            if text[end] != ",":
                raise _Unusual
            index = end + 1
            if text[index] in _SPACE:
                index = self._skip(index)
        if len(values) >= BIG_ARRAY:
            self.texts.remember_array(values, texts)
        else:
            self.texts.remember_text(values, "[" + ",".join(texts) + "]")
        return values, end + 1

    def _rest(self, values: list, texts: list[str], end: int) -> int:
        """Read the elements after ``end`` (just after an element) by one call of the
        C decoder, append them and their texts (encoded together, screened together);
        the position of the closing ``]``.

        The decoder reads an array from its ``[``, and the comma before the rest is
        none: the rest of the text is copied behind a ``[`` (the caller bounds the
        copy).  One call per element would be slower: each call starts the key
        strings afresh.
        """
        text = self.text
        end = self._skip(end)
        if text[end] == "]":
            return end
        if text[end] != "," or text[self._skip(end + 1)] == "]":
            raise _Unusual  # a trailing comma, which "[" + the rest would hide
        rest, stop = scan_value("[" + text[end + 1 :], 0)
        rest_texts = canonical_many(rest)  # ValueError for an infinity
        _screen_many(text[end : end + stop], rest_texts)
        # screened as a whole, so each element is (a repeated key in one would show
        # in the total count of colons); their own spellings are unknown, but the
        # canonical texts are spellings of them, the ones stored texts use:
        self.spellings.current.update(zip(rest_texts, zip(rest, rest_texts)))
        self.chars += sum(map(len, rest_texts))
        values.extend(rest)
        texts.extend(rest_texts)
        return end + stop - 1


    def _older(self, piece: str) -> tuple[JSON, str] | None:
        """The entry of ``piece`` in the older generation, moved to the current one."""
        spellings = self.spellings
        if not spellings.previous:
            return None
        entry = spellings.previous.get(piece)
        if entry is not None:
            spellings.current[piece] = entry
            self.chars += len(piece)
        return entry

    def _enter(self, piece: str, value: JSON, known: dict) -> tuple[JSON, str]:
        """A new spelling, encoded, screened and entered (also under its canonical text)."""
        canon = canonical_unchecked(value)  # ValueError for an infinity
        _screen(piece, canon)
        if canon == piece:
            entry = known[piece] = (value, piece)
            self.chars += len(piece)
        else:
            entry = known[piece] = (value, canon)
            known.setdefault(canon, entry)
            self.chars += len(piece) + len(canon)
        return entry


def _screen_many(piece: str, texts: list[str]) -> None:
    """:func:`_screen` of ``piece``, a run of array elements (with their commas and
    brackets) whose canonical texts are ``texts``, without joining them.

    As :func:`~cfgpatch.jsonvalue.needs_strict_reading`: a negative zero, or ``:``
    counted differently (a repeated key) or spelled ``\\u003a``.  Commas and
    brackets hold neither, so the counts over the parts are those of the whole.
    """
    if (any(map(str.__contains__, texts, repeat("-0.0")))
            or piece.count(":") != sum(map(str.count, texts, repeat(":")))
            or "\\u003a" in piece or "\\u003A" in piece):
        raise _Unusual


def _screen(piece: str, canon: str) -> None:
    """Leave ``piece`` to the general reader if its loose reading may be wrong."""
    if needs_strict_reading(piece, canon):
        raise _Unusual
