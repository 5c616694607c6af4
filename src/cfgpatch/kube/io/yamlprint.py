"""kubectl's ``-o yaml`` text of an object, line by line with the pointers of each line.

:func:`cfgpatch.kube.io.writer.emitter_yaml` prints YAML as kubectl does by giving PyYAML's
emitter go-yaml's rules (80 columns, 2-space indent, go-yaml's quoting and folding).
That emitter walks a stream of event objects and costs tens of milliseconds per 300
lines (a second for 20,000).  This module is the same layout written directly: the block
mapping and sequence rules of PyYAML's ``Emitter`` (``expect_block_mapping_key``,
``expect_block_sequence_item``, ``write_indent``, ``write_indicator``), its scalar style
choice (``choose_scalar_style`` over ``analyze_scalar``) and scalar writers
(``write_plain``, ``write_literal``, and go-yaml's quoted writers from :mod:`.goquote`),
with the same state (column, indent, whitespace, indention).  It covers every object whose
keys are simple keys for that emitter (others raise :class:`NotCovered`);
``tests/test_kube_io_yamlprint.py`` holds its text to ``writer.emitter_yaml`` on generated
objects, and ``writer.dump`` prints with it (the emitter for the rest).

Each output line records the pointers it shows: the value a key or a ``-`` starts,
and on a line such as ``- name: app`` both the element and its first key's value; the
continuation lines of a folded or literal scalar belong to that scalar.
"""

from __future__ import annotations

from functools import cmp_to_key

from ...jsonvalue import escape
from ...lazy_pattern import lazily
from ..go import yaml as goyaml
from . import goquote
from .yamlanalysis import analyze

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WIDTH = 80
INDENT = 2
_BREAKS = "\n\x85\u2028\u2029"
#: Characters of a scalar that PyYAML's ``analyze_scalar`` finds nothing special in.
_SIMPLE = lazily(r"[A-Za-z0-9_][A-Za-z0-9_./-]*\Z")
_CACHE_LIMIT = 20000


class _Analysis:
    """The parts of PyYAML's ``ScalarAnalysis`` the style choice reads."""

    __slots__ = ("empty", "multiline", "allow_block_plain", "allow_single_quoted",
                 "allow_block")

    def __init__(self, empty: bool, multiline: bool, plain: bool, single: bool,
                 block: bool) -> None:
        self.empty, self.multiline = empty, multiline
        self.allow_block_plain, self.allow_single_quoted, self.allow_block = plain, single, block


_SIMPLE_ANALYSIS = _Analysis(False, False, True, True, True)
_analyses: dict[str, _Analysis] = {}
_key_orders: dict[tuple[str, ...], list[str]] = {}
_strings: dict[str, tuple[str, str | None]] = {}
#: go-yaml's line breaks (a string test: a character class beyond U+00FF is costly to
#: compile).
_KEY_BREAKS = ("\r", "\n", "\x85", "\u2028", "\u2029")


def analysis(text: str) -> _Analysis:
    """PyYAML's analysis of ``text`` with ``writer``'s rule for characters beyond U+FFFF."""
    if _SIMPLE.match(text):
        return _SIMPLE_ANALYSIS
    if text.isascii() and text.isprintable() and text:
        return _printable_ascii_analysis(text)
    found = _analyses.get(text)
    if found is None:
        empty, multiline, plain, single, block = analyze(text)
        astral = not text.isascii() and any(ord(ch) > 0xFFFF for ch in text)
        found = _Analysis(empty, multiline, plain and not astral, single and not astral,
                          block and not astral)
        if len(_analyses) >= _CACHE_LIMIT:
            _analyses.clear()
        _analyses[text] = found
    return found


def _printable_ascii_analysis(text: str) -> _Analysis:
    """PyYAML's ``analyze_scalar`` for a non-empty line of printable ASCII (no PyYAML
    import on the path of a small ``kube build``): one line, nothing special; plain
    unless it starts or ends with a space or has a block indicator; block style
    unless it ends with a space."""
    first, blank_end = text[0], text[-1] == " "
    indicator = (text.startswith(("---", "...")) or first in "#,[]{}&*!|>'\"%@`"
                 or first in "?:-" and (len(text) == 1 or text[1] == " ")
                 or text.find(": ", 1) > 0 or len(text) > 1 and text[-1] == ":"
                 or " #" in text)
    plain = not (first == " " or blank_end or indicator)
    return _Analysis(False, False, plain, True, not blank_end)


class NotCovered(Exception):
    """A key the port does not write: more than 128 bytes of UTF-8, or a line break in it
    (PyYAML's emitter writes those as complex ``?`` keys)."""


def lines(obj: dict) -> list[tuple[str, tuple[str, ...]]]:
    """``(text, pointers)`` of each line of ``writer.dump(obj, "yaml")``; raises
    :class:`NotCovered` for an object with a key the port does not write."""
    emitter = _Emitter()
    emitter.document(obj)
    text = "".join(emitter.parts)
    if text.endswith("\n...\n"):  # writer.dump drops the end marker after a "|+" block
        text = text[: -len("...\n")]
        emitter.holds.pop()
    if not text.endswith("\n") or (text.endswith("...\n") and text[-5:-4] in _BREAKS):
        # The last scalar ends with a line break other than "\n" (YAML counts
        # U+0085, U+2028 and U+2029 as breaks), with or without PyYAML's end
        # marker: the text ends inside a line, which lines cannot say; the
        # emitter writes it.
        raise NotCovered
    texts = text.split("\n")[:-1]
    emitter.holds.pop()  # the line after the final newline
    if len(texts) != len(emitter.holds):  # never expected: keep the text, mark nothing
        return [(line, ("",)) for line in texts]
    return [(line, tuple(held) or ("",)) for line, held in zip(texts, emitter.holds)]


def text(obj: dict) -> str:
    """``writer.emitter_yaml(obj)``, written directly (raises :class:`NotCovered`)."""
    return "".join(line + "\n" for line, _ in lines(obj))


def _sorted_keys(value: dict) -> list[str]:
    keys = tuple(value)
    found = _key_orders.get(keys)
    if found is None:
        found = sorted(keys, key=cmp_to_key(goyaml.key_cmp))
        if len(_key_orders) >= _CACHE_LIMIT:
            _key_orders.clear()
        _key_orders[keys] = found
    return found


def _scalar(value: Any) -> tuple[str, str | None]:
    """The text and requested style ``writer._node`` gives a scalar."""
    if type(value) is str:
        found = _strings.get(value)
        if found is None:
            found = _string(value)
            if len(_strings) >= _CACHE_LIMIT:
                _strings.clear()
            _strings[value] = found
        return found
    if value is None:
        return "null", None
    if value is True or value is False:
        return ("true" if value else "false"), None
    if isinstance(value, (int, float)):
        return goyaml.yaml_number(value), None
    return _string(value)


def _string(value: str) -> tuple[str, str | None]:
    text = goyaml.yaml_text(value)
    if "\n" in text:
        return text, "|"
    return text, (None if goyaml.is_plain_string(text) else '"')


class _Emitter:
    """The state and the writing steps of PyYAML's emitter, for block collections."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.holds: list[list[str]] = [[]]  # the pointers shown on each line
        self.current = ""  # the pointer being written (a new line shows it)
        self.column = 0
        self.whitespace = True
        self.indention = True
        self.open_ended = False
        self.indent: int | None = None
        self.indents: list[int | None] = []

    # -- structure ---------------------------------------------------------------------

    def document(self, obj: Any) -> None:
        self.node(obj, "", mapping=False)
        self.indent = None
        self.write_indent()
        if self.open_ended:
            self.write_indicator("...", True)
            self.write_indent()

    def node(self, value: Any, pointer: str, *, mapping: bool, simple_key: bool = False) -> None:
        if isinstance(value, dict):
            if value:
                self.block_mapping(value, pointer)
            else:
                self.flow_empty("{", "}")
        elif isinstance(value, list):
            if value:
                self.block_sequence(value, pointer, indentless=mapping and not self.indention)
            else:
                self.flow_empty("[", "]")
        else:
            text, style = _scalar(value)
            self.scalar(text, style, simple_key)

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        self.indents.append(self.indent)
        if self.indent is None:
            self.indent = INDENT if flow else 0
        elif not indentless:
            self.indent += INDENT

    def block_mapping(self, value: dict, pointer: str) -> None:
        self.increase_indent()
        for key in _sorted_keys(value):
            if not goyaml.is_simple_key_length(key) or _has_break(key):
                raise NotCovered(key)
            child = f"{pointer}/{escape(key)}"
            self.enter(child)
            key_text, key_style = _scalar(key)
            self.scalar(key_text, key_style, simple_key=True)
            self.write_indicator(":", False)
            self.node(value[key], child, mapping=True)
        self.indent = self.indents.pop()

    def block_sequence(self, value: list, pointer: str, indentless: bool) -> None:
        self.increase_indent(indentless=indentless)
        for i, item in enumerate(value):
            child = f"{pointer}/{i}"
            self.enter(child)
            self.write_indicator("-", True, indention=True)
            self.node(item, child, mapping=False)
        self.indent = self.indents.pop()

    def enter(self, pointer: str) -> None:
        """``write_indent`` before a key or an element, recording what the line shows."""
        self.current = pointer
        before, fresh = len(self.holds), self.column == 0  # nothing written on the line yet
        self.write_indent()
        if len(self.holds) == before:
            if fresh:
                self.holds[-1] = [pointer]
            else:
                self.holds[-1].append(pointer)

    def flow_empty(self, opening: str, closing: str) -> None:
        self.write_indicator(opening, True, whitespace=True)
        self.write_indicator(closing, False)

    def scalar(self, text: str, style: str | None, simple_key: bool) -> None:
        self.increase_indent(flow=True)
        found = analysis(text)
        chosen = _choose_style(style, found, simple_key)
        split = not simple_key
        if chosen == '"':
            self.write_double_quoted(text, split)
        elif chosen == "'":
            self.write_single_quoted(text, split)
        elif chosen == "|":
            self.write_literal(text)
        else:
            self.write_plain(text, split)
        self.indent = self.indents.pop()

    # -- writing -----------------------------------------------------------------------

    def _write(self, data: str) -> None:
        self.column += len(data)
        self.parts.append(data)

    def write_indicator(self, indicator: str, need_whitespace: bool, whitespace: bool = False,
                        indention: bool = False) -> None:
        data = indicator if self.whitespace or not need_whitespace else " " + indicator
        self.whitespace = whitespace
        self.indention = self.indention and indention
        self.open_ended = False
        self._write(data)

    def write_indent(self) -> None:
        indent = self.indent or 0
        if (not self.indention or self.column > indent
                or (self.column == indent and not self.whitespace)):
            self.write_line_break()
        if self.column < indent:
            self.whitespace = True
            self.parts.append(" " * (indent - self.column))
            self.column = indent

    def write_line_break(self, data: str = "\n") -> None:
        self.whitespace = True
        self.indention = True
        self.column = 0
        self.parts.append(data)
        if data == "\n":
            self.holds.append([self.current])

    def write_plain(self, text: str, split: bool) -> None:
        if not text:
            return
        if not self.whitespace:
            self._write(" ")
        self.whitespace = self.indention = False
        if not split or self.column + len(text) <= WIDTH or " " not in text:
            self._write(text)  # no fold possible (plain scalars hold no line break)
            return
        spaces = breaks = False
        start = end = 0
        while end <= len(text):
            ch = text[end] if end < len(text) else None
            if spaces:
                if ch != " ":
                    if start + 1 == end and self.column > WIDTH and split:
                        self.write_indent()
                        self.whitespace = self.indention = False
                    else:
                        self._write(text[start:end])
                    start = end
            elif breaks:
                if ch is None or ch not in _BREAKS:
                    if text[start] == "\n":
                        self.write_line_break()
                    for br in text[start:end]:
                        self.write_line_break(br)
                    self.write_indent()
                    self.whitespace = self.indention = False
                    start = end
            elif ch is None or ch in " " + _BREAKS:
                self._write(text[start:end])
                start = end
            if ch is not None:
                spaces, breaks = ch == " ", ch in _BREAKS
            end += 1

    def write_double_quoted(self, text: str, split: bool) -> None:
        goquote.write_double_quoted(self, text, split, WIDTH)

    def write_single_quoted(self, text: str, split: bool) -> None:
        goquote.write_single_quoted(self, text, split, WIDTH)

    def write_literal(self, text: str) -> None:
        hints = _block_hints(text)
        self.write_indicator("|" + hints, True)
        if hints[-1:] == "+":
            self.open_ended = True
        self.write_line_break()
        breaks = True
        start = end = 0
        while end <= len(text):
            ch = text[end] if end < len(text) else None
            if breaks:
                if ch is None or ch not in _BREAKS:
                    for br in text[start:end]:
                        self.write_line_break(br)
                    if ch is not None:
                        self.write_indent()
                    start = end
            elif ch is None or ch in _BREAKS:
                self.parts.append(text[start:end])  # PyYAML does not count these columns
                if ch is None:
                    self.write_line_break()
                start = end
            if ch is not None:
                breaks = ch in _BREAKS
            end += 1


def _block_hints(text: str) -> str:
    hints = ""
    if text:
        if text[0] in " " + _BREAKS:
            hints += str(INDENT)
        if text[-1] not in _BREAKS:
            hints += "-"
        elif len(text) == 1 or text[-2] in _BREAKS:
            hints += "+"
    return hints


def _choose_style(style: str | None, found: _Analysis, simple_key: bool) -> str:
    """PyYAML's ``choose_scalar_style`` in block context (flow level 0, implicit tags)."""
    if style == '"':
        return '"'
    if style is None and not (simple_key and (found.empty or found.multiline)) \
            and found.allow_block_plain:
        return ""
    if style == "|" and not simple_key and found.allow_block:
        return "|"
    if style is None and found.allow_single_quoted and not (simple_key and found.multiline):
        return "'"
    return '"'


def _has_break(key: str) -> bool:
    """Does ``key`` hold one of go-yaml's line breaks?"""
    if key.isascii():
        return "\n" in key or "\r" in key
    return any(brk in key for brk in _KEY_BREAKS)
