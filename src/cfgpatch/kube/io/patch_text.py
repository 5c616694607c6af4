"""The ``-p`` / ``--patch-file`` text up to YAML nodes, as kubectl reads it.

kubectl takes the patch as bytes (the argument, or the file's content) and calls
``yaml.ToJSON``: bytes whose first non-space character (Go's ``unicode.IsSpace``) is
``{`` are JSON and pass unchanged; anything else, JSON arrays included, is YAML read by
go-yaml v2 through ``sigs.k8s.io/yaml``.  What this module holds is where go-yaml v2
reads differently from PyYAML's pure-Python loader, as measured against kubectl 1.27-1.33
(``tests/data/kube/patch-text``):

* the bytes: a UTF-16 or UTF-8 byte order mark picks the encoding; bytes that are not
  UTF-8 fail (a :class:`~cfgpatch.kube.problems.BadBytes` record);
  :func:`~cfgpatch.kube.io.yamlbytes.decode_bytes`;
* only the first document counts: whatever follows it is never parsed, only scanned as
  far as the scanner looks ahead (``[...]x`` and ``a: b\\n---\\n[`` are fine);
  :func:`compose_first`;
* tabs separate tokens in flow context and wherever a simple key cannot start (after
  a key's ``:``, after a value, after a tag or a block scalar's ``|``), and are blanks
  inside plain scalars; a tab where a block scalar's indentation is expected is an
  error; a comment may follow a block scalar's ``|`` directly (:class:`GoYamlMixin`);
* double-quoted escapes: ``\\'`` is one, ``\\/`` is not, ``\\U`` beyond U+10FFFF fails;
* an anchor defined again replaces the earlier one (PyYAML refuses the second), and an
  alias inside its own anchor's value fails (:func:`self_containing_anchor`);
* directives: only ``%YAML 1.1`` is compatible, and an unknown directive fails;
* errors as values: :func:`yaml_problem` makes PyYAML's error a
  :class:`~cfgpatch.kube.problems.YamlSyntax` record, which
  :mod:`cfgpatch.kube.compat.goyaml` words in libyaml's words.

Also Go's ``%q`` of bytes (:func:`go_quote_bytes`), which kubectl's ``unable to parse``
error uses.  Not modelled: go-yaml decodes its input 512 bytes at a time, so a bad byte
well after the first document may go unnoticed by kubectl; here every byte is checked.
"""

from __future__ import annotations

from ..go import json as gojson
from ..problems import Refusal, YamlSyntax
from .yamlbytes import CHUNK, Unread, decode_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["CHUNK", "GoYamlMixin", "PatchTextError", "Unread", "as_bytes", "compose_first",
           "decode_bytes", "go_is_space", "go_quote_bytes", "has_json_prefix",
           "self_containing_anchor", "yaml_problem"]

BREAKS = "\r\n\x85\u2028\u2029"
#: Go's unicode.IsSpace beyond ASCII (the White_Space property).
_WIDE_SPACES = frozenset("\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
                         "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


class PatchTextError(Refusal):
    """go-yaml refused the text: ``problem`` is a :class:`YamlSyntax` or
    :class:`~cfgpatch.kube.problems.BadBytes` record; ``str()`` its words (``yaml: ...``)."""


#: Every character Go's ``unicode.IsSpace`` accepts (for ``str.strip``).
GO_SPACES = "\t\n\v\f\r " + "".join(sorted(_WIDE_SPACES))


def go_is_space(ch: str) -> bool:
    """Go's ``unicode.IsSpace``.

    >>> [go_is_space(c) for c in (" ", "\\x1c", "\\u00a0", "\\ufeff")]
    [True, False, True, False]
    """
    return ch in "\t\n\v\f\r " or ch in _WIDE_SPACES


def has_json_prefix(data: str | bytes) -> bool:
    """Whether kubectl reads the patch as JSON: its first non-space character is ``{``.

    >>> has_json_prefix(b"\\xc2\\xa0{}"), has_json_prefix("[{}]"), has_json_prefix(b"\\xff{")
    (True, False, False)
    """
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    for ch in text:
        if not go_is_space(ch):
            return ch == "{"
    return False


def go_quote_bytes(data: str | bytes) -> str:
    """Go's ``%q`` of a string that may hold bytes that are not UTF-8 (``\\xff``).

    >>> go_quote_bytes(b'a\\n"\\xff\\xc3(')
    '"a\\\\n\\\\"\\\\xff\\\\xc3("'
    """
    data = as_bytes(data) if isinstance(data, str) else data
    out = []
    for ch in data.decode("utf-8", "surrogateescape"):
        if "\udc80" <= ch <= "\udcff":  # a byte that is not part of a UTF-8 sequence
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        else:
            out.append(gojson.go_quote(ch)[1:-1])
    return '"' + "".join(out) + '"'


def as_bytes(text: str) -> bytes:
    """The bytes of a command-line string (bytes that were not UTF-8 come back as they
    were, as Python's ``os.fsencode`` does), or of text holding lone surrogates."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def as_text(data: bytes) -> str:
    """The text :func:`as_bytes` came from: encoded surrogates decoded back, and bytes
    that are not UTF-8 kept as ``surrogateescape`` characters."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


class GoYamlMixin:
    """Put before PyYAML's loader class: its scanner and parser then read as go-yaml v2."""

    ESCAPE_REPLACEMENTS = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n",
                           "v": "\v", "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"',
                           "'": "'", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
                           "P": "\u2029"}

    def _tab_is_blank(self: Any) -> bool:
        return self.peek() == "\t" and bool(self.flow_level or not self.allow_simple_key)

    def scan_to_next_token(self: Any) -> None:
        """Skip blanks, comments and line breaks; a tab only where a simple key cannot
        start or in flow context; a byte order mark at the very start."""
        while True:
            if self.index == 0 and self.peek() == "\ufeff":  # (not at later lines: measured)
                self.forward()
            while self.peek() == " " or self._tab_is_blank():
                self.forward()
            if self.peek() == "#":
                while self.peek() not in "\0" + BREAKS:
                    self.forward()
            if not self.scan_line_break():
                return
            if not self.flow_level:
                self.allow_simple_key = True

    def scan_plain_spaces(self: Any, indent: int, start_mark: Any) -> list | None:
        """The blanks after a word of a plain scalar (spaces and tabs), folded as YAML
        folds line breaks; ``None`` at a document marker."""
        length = 0
        while self.peek(length) in " \t":
            length += 1
        blanks = self.prefix(length)
        self.forward(length)
        if self.peek() not in BREAKS:
            return [blanks] if blanks else []
        first = self.scan_line_break()
        self.allow_simple_key = True
        breaks = []
        while True:
            if self.column == 0 and self.prefix(3) in ("---", "...") and (
                    self.peek(3) in "\0 \t" + BREAKS):
                return None
            ch = self.peek()
            if ch == "\t" and self.column < indent:
                yaml = _yaml()
                raise yaml.scanner.ScannerError(
                    "while scanning a plain scalar", start_mark,
                    "found a tab character that violates indentation", self.get_mark())
            if ch in " \t":
                self.forward()
            elif ch in BREAKS:
                breaks.append(self.scan_line_break())
            else:
                break
        chunks = [first] if first != "\n" else [] if breaks else [" "]
        return chunks + breaks

    def scan_tag(self: Any) -> Any:
        """A tab may end a tag (``!!str\\tx``) as a space does."""
        end = self.pointer
        while self.buffer[end] not in "\0 \t" + BREAKS:
            end += 1
        if self.buffer[end] == "\t":
            self._blank_tab(end)
        return super().scan_tag()  # type: ignore[misc]

    def scan_block_scalar_indicators(self: Any, start_mark: Any) -> Any:
        """Tabs may follow a block scalar's indicators (``|\\t# c``) as spaces do, and a
        comment may follow them directly (``|-# c``)."""
        at = self.pointer
        while self.buffer[at] in "+-0123456789":
            at += 1
        while self.buffer[at] in " \t":
            if self.buffer[at] == "\t":
                self._blank_tab(at)
            at += 1
        if self.buffer[at] == "#" and self.buffer[at - 1] != " ":
            end = at
            while self.buffer[end] not in "\0" + BREAKS:
                end += 1
            self._blank_tab(at, end)  # the comment, which PyYAML wants after a space
        return super().scan_block_scalar_indicators(start_mark)  # type: ignore[misc]

    def _blank_tab(self: Any, at: int, end: int | None = None) -> None:
        """Read the tab at ``at`` (or the text up to ``end``) as spaces where go-yaml
        takes either and PyYAML only a space (rare: the text is copied each time)."""
        end = at + 1 if end is None else end
        self.buffer = self.buffer[:at] + " " * (end - at) + self.buffer[end:]

    def scan_block_scalar(self: Any, style: Any) -> Any:
        """Keep where the block scalar starts: go-yaml v3 names that line in the errors
        of its indentation (:func:`_block_scalar_tab`)."""
        self.__dict__["_cfgpatch_block_start"] = self.get_mark()
        return super().scan_block_scalar(style)  # type: ignore[misc]

    def scan_block_scalar_indentation(self: Any) -> Any:
        """While a block scalar's indentation is not yet known, a tab after the leading
        spaces of a line is an error."""
        found = super().scan_block_scalar_indentation()  # type: ignore[misc]
        if self.peek() == "\t":
            raise _block_scalar_tab(self.__dict__.get("_cfgpatch_block_start"), self.get_mark())
        return found

    def scan_block_scalar_breaks(self: Any, indent: int) -> Any:
        """A tab before a block scalar's indentation is an error (even on the line that
        ends the scalar); after it, the tab is content."""
        found = super().scan_block_scalar_breaks(indent)  # type: ignore[misc]
        if self.peek() == "\t" and self.column < indent:
            raise _block_scalar_tab(self.__dict__.get("_cfgpatch_block_start"), self.get_mark())
        return found

    def scan_flow_scalar_non_spaces(self: Any, double: bool, start_mark: Any) -> Any:
        """A ``\\U`` escape beyond U+10FFFF is refused in go-yaml's words."""
        try:
            return super().scan_flow_scalar_non_spaces(double, start_mark)  # type: ignore[misc]
        except ValueError:
            yaml = _yaml()
            raise yaml.scanner.ScannerError(
                "while parsing a quoted scalar", start_mark,
                "found invalid Unicode character escape code", self.get_mark()) from None

    def scan_directive_name(self: Any, start_mark: Any) -> str:
        name = super().scan_directive_name(start_mark)  # type: ignore[misc]
        if name not in ("YAML", "TAG"):
            yaml = _yaml()
            raise yaml.scanner.ScannerError("while scanning a directive", start_mark,
                                            "found unknown directive name", self.get_mark())
        return name

    def process_directives(self: Any) -> Any:
        mark = self.peek_token().start_mark
        value = super().process_directives()  # type: ignore[misc]
        if self.yaml_version not in (None, (1, 1)):
            yaml = _yaml()
            raise yaml.parser.ParserError(None, None, "found incompatible YAML document", mark)
        return value

    def compose_node(self: Any, parent: Any, index: Any) -> Any:
        """An anchor defined again replaces the earlier definition for the aliases that
        follow it (go-yaml keeps the latest); an alias to a collection still being
        composed is remembered, for :func:`self_containing_anchor`."""
        yaml = _yaml()
        event = self.peek_event()
        anchor = event.anchor
        if anchor is None:
            return super().compose_node(parent, index)  # type: ignore[misc]
        defined = self.__dict__.setdefault("_cfgpatch_defined", {})
        if isinstance(event, yaml.AliasEvent):
            if (anchor, defined.get(anchor)) in self.__dict__.get("_cfgpatch_open", ()):
                self.__dict__.setdefault("_cfgpatch_self_containing", anchor)
            return super().compose_node(parent, index)  # type: ignore[misc]
        self.anchors.pop(anchor, None)
        defined[anchor] = defined.get(anchor, 0) + 1
        if isinstance(event, yaml.ScalarEvent):
            return super().compose_node(parent, index)  # type: ignore[misc]
        opened = self.__dict__.setdefault("_cfgpatch_open", [])
        opened.append((anchor, defined[anchor]))
        try:
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            opened.pop()

    def compose_document(self: Any) -> Any:
        node = super().compose_document()  # type: ignore[misc]
        found = self.__dict__.pop("_cfgpatch_self_containing", None)
        self.__dict__.pop("_cfgpatch_defined", None)
        if found is not None and node is not None:
            node.cfgpatch_self_containing = found
        return node


def _block_scalar_tab(start: Any, mark: Any) -> Exception:
    yaml = _yaml()
    return yaml.scanner.ScannerError("while scanning a block scalar", start,
                                     "found a tab character where an indentation space is "
                                     "expected", mark)


def self_containing_anchor(node: Any) -> str | None:
    """The anchor whose value holds an alias to itself (``&v [*v]``) in the document
    composed by a :class:`GoYamlMixin` loader, if any: go-yaml refuses the document
    once it is parsed (``anchor 'v' value contains itself``)."""
    return getattr(node, "cfgpatch_self_containing", None)


def _yaml() -> Any:
    import yaml

    return yaml


#: How many characters past its position go-yaml's scanner may ask its reader for.
LOOKAHEAD = 4


def scanned_before(index: int, unread: Unread) -> bool:
    """Whether go-yaml's scanner, stopped at ``index`` of the decoded text, never needed
    the chunk its reader refuses (so the syntax error there is the one reported)."""
    return index + LOOKAHEAD <= unread.char


def compose_first(text: str, loader_class: type, unread: Unread | None = None) -> Any:
    """The first YAML document's root node (``None`` for an empty stream), as go-yaml's
    ``Unmarshal`` reads it: what follows the document is not parsed.  ``text`` and
    ``unread`` come from :func:`decode_bytes`: refused bytes fail the patch only if the
    scanner gets to their chunk."""
    yaml = _yaml()
    loader = loader_class(text)
    try:
        loader.get_event()  # stream start
        node = None if loader.check_event(yaml.StreamEndEvent) else loader.compose_document()
        reached = loader.pointer
    except yaml.MarkedYAMLError as err:
        reached = err.problem_mark.index if err.problem_mark is not None else len(text)
        if unread is None or scanned_before(reached, unread):
            raise PatchTextError(yaml_problem(err)) from None
    except yaml.YAMLError as err:  # PyYAML's own words (its reader's: not met after decode_bytes)
        raise PatchTextError(f"yaml: {err}") from None
    finally:
        loader.dispose()
    if unread is not None and not scanned_before(reached, unread):
        raise PatchTextError(unread.problem)
    return node


def yaml_problem(err: Any, version: int = 2) -> YamlSyntax:
    """PyYAML's error ``err`` as a value (worded by :mod:`cfgpatch.kube.compat.goyaml` as
    go-yaml ``version`` 2 or 3 would)."""
    yaml = _yaml()
    mark, context = err.problem_mark, err.context_mark
    stage = "scanner" if isinstance(err, yaml.scanner.ScannerError) else "parser"
    at_end = bool(mark is not None and mark.column
                  and mark.index >= len(mark.buffer or "") - 1)
    return YamlSyntax(stage, err.problem or "", err.context,
                      None if mark is None else mark.line,
                      None if mark is None else mark.column, at_end,
                      None if context is None else context.line, version)
