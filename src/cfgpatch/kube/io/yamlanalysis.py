"""PyYAML's ``Emitter.analyze_scalar`` (with ``allow_unicode``), without importing PyYAML.

:mod:`.yamlprint` chooses a scalar's style from the parts of the analysis it reads:
whether the text is empty or has a line break, and whether it may be written plain (in
block context), single-quoted or as a block scalar.  PyYAML walks the text a character at
a time keeping a few flags; here each flag is a search over the whole text, the same
conditions spelled as patterns (``tests/test_kube_io_yamlanalysis.py`` holds the two to
the same answers on generated texts).  Importing PyYAML costs a small ``kube build``
about a fifth of its process time, and any text with a line break (a ConfigMap's file,
a literal block) asked for it.

Standard library only.
"""

from __future__ import annotations

import re

from ...lazy_pattern import lazily

_BREAK = "\n\x85\u2028\u2029"
#: Characters PyYAML takes as whitespace around an indicator (``\0`` included).
_SPACE = "\0 \t\r" + _BREAK
#: A character only a double-quoted scalar can hold (allow_unicode: printable non-ASCII
#: is fine, except the byte order mark and U+10FFFF, which PyYAML's range leaves out).
_SPECIAL = lazily("[^\n\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd"
                  "\U00010000-\U0010fffe]")
_SPECIAL_ASCII = lazily("[^\n\x20-\x7e]")
#: (All compiled at first use: most texts a build prints never come here.)
#: A space after a line break, or before one.
_BREAK_SPACE = lazily(f"[{_BREAK}] ")
_SPACE_BREAK = lazily(f" [{_BREAK}]")
_LINE_BREAK = lazily(f"[{_BREAK}]")
#: An indicator inside the text: ``:`` before whitespace or the end, ``#`` after whitespace.
_INNER_INDICATOR = lazily(f"(?s).(?::(?:[{re.escape(_SPACE)}]|\\Z)|"
                          f"(?<=[{re.escape(_SPACE)}])#)")


def analyze(text: str) -> tuple[bool, bool, bool, bool, bool]:
    """``(empty, multiline, allow_block_plain, allow_single_quoted, allow_block)`` as
    PyYAML's ``analyze_scalar`` answers for ``text`` (its emitter allowing unicode)."""
    if not text:
        return True, False, True, True, False
    special = (_SPECIAL_ASCII if text.isascii() else _SPECIAL).search(text) is not None
    space_break = special or _SPACE_BREAK.search(text) is not None
    break_space = _BREAK_SPACE.search(text) is not None
    line_breaks = _LINE_BREAK.search(text) is not None
    first, last = text[0], text[-1]
    edges = first == " " or last == " " or first in _BREAK or last in _BREAK
    block_plain = not (edges or break_space or space_break or line_breaks
                       or _block_indicator(text))
    single = not (break_space or space_break)
    block = not (last == " " or space_break)
    return False, line_breaks, block_plain, single, block


def _block_indicator(text: str) -> bool:
    """Whether ``text`` holds what PyYAML calls a block indicator."""
    if text.startswith(("---", "...")):
        return True
    first = text[0]
    spaced = len(text) == 1 or text[1] in _SPACE  # the first character is followed by space
    if first in "#,[]{}&*!|>'\"%@`" or (first in "?:-" and spaced):
        return True
    return _INNER_INDICATOR.search(text) is not None


__all__ = ["analyze"]
