"""go-yaml v2's double-quoted and single-quoted scalar writers, for both YAML printers.

kubectl's ``-o yaml`` is printed by :mod:`.yamlprint` (the fast, direct printer) or, for
what that printer does not cover, by PyYAML's emitter set up as go-yaml in
:mod:`.writer`.  Both write quoted scalars the way go-yaml does, which differs from
PyYAML: the double-quoted writer escapes what go-yaml cannot print and folds at the
first space after the width (a following space is escaped with ``\\``); the
single-quoted writer indents after a line break only when more text follows.

``out`` is the printer: it has PyYAML's emitter state and primitives (``column``,
``indention``, ``write_indicator``, ``write_indent``, ``write_line_break``, ``_write``).
"""

from __future__ import annotations

from ...lazy_pattern import lazily
from ..go import yaml as goyaml

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Printable ASCII that go-yaml writes unescaped inside double quotes.
_PLAIN_ASCII = lazily(r'[ !#-\[\]-~]*')


def write_double_quoted(out: Any, text: str, split: bool, width: int) -> None:
    """``text`` in double quotes at ``out``'s position, folded past ``width`` if ``split``."""
    out.write_indicator('"', True)
    if _PLAIN_ASCII.fullmatch(text) and (not split or out.column + len(text) <= width
                                          or " " not in text):
        out._write(text)  # nothing to escape, no fold possible
        out.write_indicator('"', False)
        return
    spaces = False
    last = len(text) - 1
    bom = text.startswith("\ufeff")  # go-yaml then escapes every character
    for i, ch in enumerate(text):
        if bom or goyaml.needs_escape(ch):
            out._write(goyaml.escape(ch))
            spaces = False
        elif ch == " ":
            if split and not spaces and out.column > width and 0 < i < last:
                out.write_indent()
                if text[i + 1] == " ":
                    out._write("\\")
            else:
                out._write(" ")
            spaces = True
        else:
            out._write(ch)
            spaces = False
    out.write_indicator('"', False)


def write_single_quoted(out: Any, text: str, split: bool, width: int) -> None:
    """``text`` in single quotes at ``out``'s position, folded past ``width`` if ``split``."""
    out.write_indicator("'", True)
    spaces = breaks = False
    last = len(text) - 1
    for i, ch in enumerate(text):
        if ch == " ":
            if (split and not spaces and out.column > width and 0 < i < last
                    and text[i + 1] != " "):
                out.write_indent()
            else:
                out._write(" ")
            spaces = True
        elif ch in goyaml.BREAKS:
            if not breaks and ch == "\n":
                out.write_line_break()
            out.write_line_break(ch)
            out.indention = breaks = True
        else:
            if breaks:
                out.write_indent()
            out._write("''" if ch == "'" else ch)
            out.indention = spaces = breaks = False
    out.write_indicator("'", False)
