"""kubectl's words around what its decoder and its file reader refuse.

>>> from cfgpatch.kube.compat import word
>>> from cfgpatch.kube.problems import Decoding, MissingKind
>>> decoding(Decoding("x.yaml", MissingKind("{}")), word)
'unable to decode "x.yaml": Object \\'Kind\\' is missing in \\'{}\\''
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..problems import Command, Decoding, MissingKind, NoTypeInfo, Parsing, Separator

_TYPE_INFO = 'unable to get type info from the object "*unstructured.Unstructured": '


def missing_kind(problem: MissingKind) -> str:
    """kubectl's decoder finds no kind."""
    return f"Object 'Kind' is missing in '{problem.document}'"


def no_type_info(problem: NoTypeInfo) -> str:
    """A list's item with no kind or apiVersion (printed without ``error: ``)."""
    if problem.field == "kind":
        return _TYPE_INFO + "Object 'Kind' is missing in 'object has no kind field '"
    return _TYPE_INFO + "Object 'apiVersion' is missing in 'object has no apiVersion field'"


def decoding(problem: Decoding, word: Callable[[Any], str]) -> str:
    """``unable to decode "<file>": <cause>``."""
    return f'unable to decode "{problem.source}": {word(problem.cause)}'


def parsing(problem: Parsing, word: Callable[[Any], str]) -> str:
    """``error parsing <file>: ...``: the YAML conversion's error, Go's JSON stream
    decoder's (an input cut short is an unexpected EOF, any other error gives its
    offset), or a bad ``---`` line; ``unable to parse <patch>: ...`` for the ``-p``
    text."""
    where = f"error parsing {problem.source}: "
    cause = problem.cause
    if problem.code == "yaml":
        return f"{where}error converting YAML to JSON: {word(cause)}"
    if problem.code == "patch":
        return f"unable to parse {problem.source}: {word(cause)}"
    if problem.code == "separator":
        return f"{where}{word(cause)}"
    if cause.code == "end":
        return f"{where}unexpected EOF"
    return f"{where}json: offset {cause.offset}: {word(cause)}"


def separator(problem: Separator) -> str:
    """A ``---`` line that goes on with something else: kubectl's line reader names
    what follows, kustomize's reader the line."""
    if problem.reader == "kyaml":
        return f"invalid document separator: {problem.line}"
    return f"invalid Yaml document separator: {problem.rest}"


#: Command.code -> kubectl's words.
_COMMAND = {
    "empty-patch": "must specify --patch or --patch-file containing the contents of the patch",
    "invalid-json-document": "invalid JSON document",
    "invalid-json-patch": "Invalid JSON Patch",
    "no-objects": "no objects passed to patch",
}


def command(problem: Command) -> str:
    """What kubectl's command refuses (``no-printer``: Python's ``repr`` of the format,
    as cfgpatch has always printed it)."""
    if problem.code == "no-printer":
        return f"unable to match a printer suitable for the output format {problem.detail!r}"
    return _COMMAND[problem.code]
