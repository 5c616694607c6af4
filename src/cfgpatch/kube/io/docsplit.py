"""How kubectl cuts a YAML ``-f`` file into documents before go-yaml reads any of them.

kubectl does not hand the whole file to go-yaml.  It reads the file line by line and
cuts it at separator lines; go-yaml then reads each piece on its own and only that
piece's first document (``tests/data/kube/object-text``, kubectl 1.27-1.33 agree):

* every line it hands on ends with ``\\n``, the file's last line too (so a literal block
  scalar on the last line of a file without a final newline still ends with one, and
  errors at the end count that line), and ``\\r\\n`` becomes ``\\n``
  (:func:`as_read`);
* a separator line starts with ``---`` at column 0 and holds nothing else but blanks
  (Go's ``unicode.IsSpace``) or a ``#`` comment;
* ``---`` followed by anything else (``---x``, ``--- {a: b}``, ``----``) is an error:
  ``invalid Yaml document separator: x`` (the rest of the line, trimmed);
* a separator ends the piece read so far; when nothing has been read yet (the file
  starts with ``---``, or two separators follow each other) the separator line is kept
  as the first line of the next piece, so go-yaml sees it as a document start and
  counts it in its line numbers;
* so a ``%YAML`` or ``%TAG`` directive before the first ``---`` is a piece of its own,
  with no document after it (``did not find expected <document start>``), and line
  numbers in errors count from the start of the piece, not of the file.

Standard library only.
"""

from __future__ import annotations

from ..problems import Refusal, Separator
from .patch_text import go_is_space

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["SeparatorError", "as_read", "pieces", "split"]

SEPARATOR = "---"


class SeparatorError(Refusal):
    """A line starts with ``---`` and goes on with something else: ``problem`` is a
    :class:`~cfgpatch.kube.problems.Separator` record (``str()``: its words)."""


def split(text: str) -> list[str]:
    """The pieces of ``text`` go-yaml reads one by one, as kubectl cuts them.

    >>> split("a: 1\\n---\\nb: 2")
    ['a: 1\\n', 'b: 2\\n']
    >>> split("--- # first\\r\\na: 1\\n---\\n---\\n")
    ['--- # first\\na: 1\\n', '---\\n']
    """
    return list(pieces(text))


def pieces(text: str) -> Iterator[str]:
    """:func:`split`, one piece at a time: a bad separator line raises
    :class:`SeparatorError` when the reading comes to it, after the pieces before it
    (the piece it interrupts is lost, as kubectl loses it).

    >>> cut = pieces("a: 1\\n---\\nb: 2\\n---x\\n")
    >>> next(cut)
    'a: 1\\n'
    >>> next(cut)
    Traceback (most recent call last):
    ...
    cfgpatch.kube.io.docsplit.SeparatorError: invalid Yaml document separator: x
    """
    if not text.startswith(SEPARATOR) and "\n" + SEPARATOR not in text:
        if text:
            yield as_read(text)  # the usual single document: one piece
        return
    held: list[str] = []
    for line in _lines(text):
        separator = line.startswith(SEPARATOR) and _is_separator(line)
        if separator and held:
            yield "".join(held)
            held = []
        else:  # a separator with nothing before it starts the next piece
            held.append(line)
    if held:
        yield "".join(held)


def as_read(text: str) -> str:
    """``text`` as kubectl's line reader hands it on: every line ends with ``\\n``, the
    last one too, and a ``\\r`` just before a ``\\n`` is dropped.

    >>> as_read("a: |\\r\\n  x")
    'a: |\\n  x\\n'
    """
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return text if text.endswith("\n") or not text else text + "\n"


def _lines(text: str) -> list[str]:
    """The lines of :func:`as_read` text, each with its ``\\n`` (``str.splitlines`` would
    also cut at ``\\r``, U+2028 and others)."""
    parts = as_read(text).split("\n")
    return [part + "\n" for part in parts[:-1]]


def _is_separator(line: str) -> bool:
    rest = _go_trim_space(line[len(SEPARATOR):])
    if rest and not rest.startswith("#"):
        raise SeparatorError(Separator(line.strip(), rest, "kubectl"))
    return True


def _go_trim_space(text: str) -> str:
    start, end = 0, len(text)
    while start < end and go_is_space(text[start]):
        start += 1
    while end > start and go_is_space(text[end - 1]):
        end -= 1
    return text[start:end]
