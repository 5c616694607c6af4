"""What the readers find wrong in their input, as values (no tool's words).

The readers (``kube/go``, ``kube/io``) report a problem as one of the small frozen
records below: what (``kind`` of the family, a ``code`` within it), where (``line`` and
``column`` from 1 when the input is text, ``offset`` in bytes, or the Go field), and
the offending value.  :mod:`cfgpatch.kube.compat` turns a record into the exact words
kubectl, go-yaml or Go's ``encoding/json`` print; nothing below it builds those words.

An exception that carries a record (:class:`ProblemError`; :class:`Refusal`, the base
of the readers' internal exceptions) takes its ``message`` from the wording the facade
``cfgpatch.kube`` installs (:func:`use_wording`: ``compat.word``), so every caller
reads kubectl's text from ``error.message`` and a library user reads the fields from
``error.problem``.

The families:

* :class:`JsonSyntax`: Go's JSON scanner (``code``: where it was, e.g. ``object-key``);
* :class:`BadBytes`: bytes go-yaml's reader refuses (invalid UTF-8/UTF-16, control
  characters);
* :class:`~cfgpatch.kube.compat.goyaml.YamlProblem` (defined here as
  :class:`YamlSyntax`): a YAML syntax error;
* :class:`YamlValue`: YAML that parses but does not decode (a bad ``!!int``, a merge
  of a scalar, a map key JSON cannot hold, ...);
* :class:`Unmarshal`: a JSON value of the wrong type for a Go type (``cannot
  unmarshal``); :class:`UnknownField`: a field the Go struct has not;
* :class:`MissingKind`, :class:`NoTypeInfo`: kubectl's decoder finds no kind;
* :class:`Separator`: a ``---`` line that goes on with something else;
  :class:`Command`: what kubectl's command refuses (no patch, no object, no printer);
* :class:`Decoding`, :class:`Parsing`: a problem of the file ``source`` (kubectl's
  ``unable to decode``/``error parsing`` around the problem within);
* :class:`Kustomize`: what kustomize refuses while building, or its words around the
  problem within (``accumulating resources: ...``).

Standard library only; named tuples (``dataclasses`` is left out of the start-up).
"""

from __future__ import annotations

from ..errors import KubeError
from ..records import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

__all__ = ["BadBytes", "Command", "Decoding", "JsonSyntax", "Kustomize", "MissingKind",
           "NoTypeInfo", "Parsing", "ProblemError", "Refusal", "Separator", "UnknownField",
           "Unmarshal", "YamlSyntax", "YamlValue", "cause", "describe", "line_column",
           "use_wording", "within", "words"]


class JsonSyntax(namedtuple("JsonSyntax", "code byte offset line column literal expected",
                            defaults=(None, None))):
    """Malformed JSON as Go's scanner finds it.

    ``code``: ``end`` (the input ends inside a value) or where the unexpected ``byte``
    came: ``value``, ``object-key``, ``after-key``, ``after-pair``, ``after-element``,
    ``after-top-level``, ``string``, ``escape``, ``hex-escape``, ``number``,
    ``decimal``, ``exponent``, ``literal`` (``literal`` ``true``/``false``/``null``, the
    ``expected`` character).  ``offset``: Go's offset (1-based for a character, the
    length for ``end``); ``line``/``column``: of the byte, from 1."""

    __slots__ = ()
    kind = "json-syntax"
    code: str
    byte: int | None
    offset: int
    line: int
    column: int
    literal: str | None
    expected: str | None


class BadBytes(namedtuple("BadBytes", "code offset line column")):
    """Bytes go-yaml's reader refuses, at byte ``offset`` (line/column from 1 of the
    text before them).  ``code``: ``invalid-leading-utf8``, ``invalid-trailing-utf8``,
    ``incomplete-utf8``, ``invalid-utf8-length``, ``invalid-unicode``,
    ``control-character``, ``incomplete-utf16``, ``unexpected-low-surrogate``,
    ``expected-low-surrogate``, ``incomplete-utf16-pair``."""

    __slots__ = ()
    kind = "bad-bytes"
    code: str
    offset: int
    line: int
    column: int


class YamlSyntax(namedtuple("YamlProblem",
                            "stage problem context line column at_end context_line version",
                            defaults=(2,))):
    """A YAML syntax error: ``stage`` ``"scanner"`` or ``"parser"``, ``problem`` and
    ``context`` (PyYAML's words, the scanner's own vocabulary), ``line`` and ``column``
    of the problem (from 0, as YAML marks count; None when unknown), ``at_end``: the
    problem is at the last character of a line-less end of the text,
    ``context_line``: the line (from 0) of the collection being read (None when there
    is none); ``version``: the go-yaml major version whose words are wanted (2:
    kubectl's ``sigs.k8s.io/yaml``, 3: kustomize's kyaml)."""

    __slots__ = ()
    kind = "yaml-syntax"
    stage: str
    problem: str
    context: str | None
    line: int | None
    column: int | None
    at_end: bool
    context_line: int | None
    version: int


class YamlValue(namedtuple("YamlValue", "code detail line column value",
                           defaults=(0, 0, None))):
    """A YAML document that parses but that go-yaml's decoder (or the JSON conversion
    after it) refuses.  ``code``: ``bad-escape`` (a ``\\uD83D``-style escape),
    ``cannot-decode`` (``detail``: (found tag, text, wanted tag)), ``bad-base64``,
    ``merge-not-map``, ``invalid-map-key`` (``detail``: the key in Go syntax),
    ``map-key-nil`` (``detail``: the value in Go syntax), ``map-key-uint64``
    (``detail``: the key), ``anchor-contains-itself`` (``detail``: the anchor),
    ``anchor-refers-to-itself``, ``unsupported-value`` (``detail``: the float),
    ``unsupported-type``, ``duplicate-keys`` (``detail``: (line, key, line of the
    first) of each key written twice); ``line``/``column`` from 1 (0: not known);
    ``value``: the document in Go syntax where kyaml names it."""

    __slots__ = ()
    kind = "yaml-value"
    code: str
    detail: Any
    line: int
    column: int
    value: str | None


class Unmarshal(namedtuple("Unmarshal", "json_type go_type field number", defaults=(None, None))):
    """A JSON value of the wrong type for Go: ``json_type`` (``object``, ``array``,
    ``string``, ``number``, ``bool``) into ``go_type`` (``string``,
    ``unstructured.detector``, ...), in struct ``field`` (``ObjectMeta.metadata.labels``)
    or a plain value (None); ``number``: the text of a number too large for a float64."""

    __slots__ = ()
    kind = "unmarshal"
    json_type: str
    go_type: str
    field: str | None
    number: str | None


class UnknownField(namedtuple("UnknownField", "name")):
    """A JSON object's field ``name`` that the Go struct has not (a strict decoder's
    ``DisallowUnknownFields``)."""

    __slots__ = ()
    kind = "unknown-field"
    name: str


class MissingKind(namedtuple("MissingKind", "document")):
    """kubectl's decoder finds no kind in ``document`` (its JSON text, or ``null``)."""

    __slots__ = ()
    kind = "missing-kind"
    document: str


class NoTypeInfo(namedtuple("NoTypeInfo", "field")):
    """An item of a list has no ``field`` (``kind`` or ``apiVersion``) of its own or of the
    list's."""

    __slots__ = ()
    kind = "no-type-info"
    field: str


class Separator(namedtuple("Separator", "line rest reader")):
    """A line that starts with ``---`` and goes on with ``rest`` (not a comment):
    ``line`` (trimmed) is no document separator for ``reader``, ``kubectl`` (kubectl's
    line reader) or ``kyaml`` (kustomize's)."""

    __slots__ = ()
    kind = "separator"
    line: str
    rest: str
    reader: str


class Command(namedtuple("Command", "code detail", defaults=(None,))):
    """What kubectl's command refuses, not in the input's bytes: ``code``
    ``empty-patch`` (no ``-p`` text), ``invalid-json-document``/``invalid-json-patch``
    (a JSON ``-p`` text that does not parse, for a strategic/merge patch),
    ``no-objects`` (the input holds no object), ``no-printer`` (``detail``: the output
    format asked for)."""

    __slots__ = ()
    kind = "command"
    code: str
    detail: Any


class Decoding(namedtuple("Decoding", "source cause")):
    """kubectl's decoder refused an object of the file ``source`` for ``cause``."""

    __slots__ = ()
    kind = "decoding"
    source: str
    cause: Any


class Parsing(namedtuple("Parsing", "source code cause", defaults=(None,))):
    """The file ``source`` does not parse.  ``code``: ``yaml`` (``cause`` what the YAML
    conversion met: a problem record or the words of one already made), ``json``
    (``cause`` a :class:`JsonSyntax`, its offset in the file), ``separator`` (``cause``:
    the words for the bad ``---`` line) or ``patch`` (the ``-p`` text, ``source`` as Go
    quotes it, did not parse for ``cause``)."""

    __slots__ = ()
    kind = "parsing"
    source: str
    code: str
    cause: Any


class Kustomize(namedtuple("Kustomize", "code path id name field detail cause",
                           defaults=(None, None, None, None, None, None))):
    """What kustomize refuses while it builds (``code``, e.g. ``file-outside-root``,
    ``no-unique-target``, ``missing-kind``), or a step of the build around the
    problem within (``code`` e.g. ``accumulating-resources``, ``invalid-kustomization``;
    ``cause``: a record, or words already made).  The values, where the code has them:
    ``path`` (a file or directory as kustomize names it), ``id`` (a resource id as
    kustomize prints it), ``name`` (of a plugin, a variable, a key ...), ``field`` (a
    field path) and ``detail`` (another value: a root, a reason, a list).
    :mod:`cfgpatch.kube.compat.kustomize` lists every code with its words."""

    __slots__ = ()
    kind = "kustomize"
    code: str
    path: str | None
    id: str | None
    name: str | None
    field: str | None
    detail: Any
    cause: Any


def line_column(data: bytes | str, at: int) -> tuple[int, int]:
    """The line and column (from 1) of index ``at`` of ``data``.

    >>> line_column(b"ab\\ncd", 4)
    (2, 2)
    """
    newline = b"\n" if isinstance(data, bytes) else "\n"
    line = data.count(newline, 0, at) + 1  # type: ignore[arg-type]
    column = at - (data.rfind(newline, 0, at) + 1) + 1  # type: ignore[arg-type]
    return line, column


def describe(problem: Any) -> str:
    """A neutral description of ``problem`` (when no wording is installed)."""
    if isinstance(problem, str):
        return problem
    fields = ", ".join(f"{name}={describe(value) if isinstance(value, tuple) else repr(value)}"
                       for name, value in zip(problem._fields, problem))
    return f"{problem.kind}({fields})"


_wording: Callable[[Any], str] = describe


def use_wording(wording: Callable[[Any], str]) -> None:
    """Word every problem with ``wording`` from now on (the facade installs
    :func:`cfgpatch.kube.compat.word`)."""
    global _wording
    _wording = wording


def words(problem: Any) -> str:
    """``problem`` in the installed wording (a ``str`` is words already)."""
    return problem if isinstance(problem, str) else _wording(problem)


def cause(error: Exception) -> Any:
    """What ``error`` reports, to be wrapped in a record: its record, unless a caller
    gave it other words (then, like any other error, its ``message``)."""
    if isinstance(error, Refusal):
        return error.problem
    if isinstance(error, ProblemError) and error._message is None:
        return error.problem
    return getattr(error, "message", None) or str(error)


def within(problem: Any) -> Iterator[Any]:
    """``problem`` and every record it wraps, in the order their words come: a
    record, the record its :class:`Kustomize` ``detail`` holds (``accumulation``: what
    reading the path as a file met), then its ``cause``.  A ``str`` (words already
    made) ends a branch and is not given.

    >>> [p.code for p in within(Kustomize("accumulating-resources", cause=Kustomize(
    ...     "accumulation", detail=Kustomize("resources-from", path="x"),
    ...     cause=Kustomize("no-kustomization", path="/x"))))]
    ['accumulating-resources', 'accumulation', 'resources-from', 'no-kustomization']
    """
    if problem is None or isinstance(problem, str) or not hasattr(problem, "kind"):
        return
    yield problem
    if isinstance(problem, Kustomize):
        yield from within(problem.detail)
    yield from within(getattr(problem, "cause", None))


class Refusal(Exception):
    """A reader's internal exception carrying a problem record (or words already made,
    a ``str``): ``problem``; ``message`` and ``str()`` are its words."""

    def __init__(self, problem: Any) -> None:
        super().__init__(problem)
        self.problem = problem

    @property
    def message(self) -> str:
        return words(self.problem)

    def __str__(self) -> str:
        return self.message


class ProblemError(KubeError):
    """A :class:`~cfgpatch.errors.KubeError` for a problem record: ``problem`` holds the
    record, ``message`` its words (kubectl's; see the module docstring)."""

    def __init__(self, problem: Any, **kwargs: Any) -> None:
        self.problem = problem
        self._message: str | None = None
        super().__init__(" ", **kwargs)
        self._message = None

    @property
    def message(self) -> str:
        return self._message if self._message is not None else words(self.problem)

    @message.setter
    def message(self, value: str) -> None:
        self._message = value
