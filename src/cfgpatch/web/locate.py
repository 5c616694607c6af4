"""Where in the page's two texts something is: input errors and places by pointer.

kubectl's own text for an unreadable input is exact but not helpful where it counts:
go-yaml numbers some lines one lower than the line the problem is on, a JSON error
gives a byte offset, and the wording is the parser's.  :func:`input_error` finds the
position in the text itself (PyYAML's marks; the offset of Go's JSON scanner turned
into a line and a column) and says in plain words what is wrong there, keeping
kubectl's text as the second line and saying when its line number differs (read from
the error's problem records, :mod:`cfgpatch.kube.problems`, not from its words).

:func:`place` finds the text span of the value at a pointer (a JSON Patch
operation, a YAML value a type note is about), for marks in the editors.

Lines and columns are 1-based; columns count characters (code points).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..errors import CfgPatchError

#: PyYAML's problem (a substring) and what it means, in our words.
_YAML_CAUSES = (
    ("mapping values are not allowed", "a ': ' where no key can start: quote a value that "
     "holds ': ', or move this key to the indentation of its siblings"),
    ("expected <block end>", "this line's indentation does not fit the lines above it"),
    ("could not find expected ':'", "a line that is neither 'key: value' nor '- item'"),
    ("found character '\\t' that cannot start any token", "a tab character: YAML indents "
     "with spaces only"),
    ("that cannot start any token", "this character cannot start a plain value: quote the "
     "value"),
    ("expected ',' or ']'", "a '[' list that is not closed, or a missing ','"),
    ("expected ',' or '}'", "a '{' map that is not closed, or a missing ','"),
    ("found undefined alias", "an alias (*name) that no anchor (&name) above defines"),
    ("expected the node content", "a value is missing here"),
    ("found unexpected end of stream", "the text ends inside a quoted value: the quote is "
     "not closed"),
    ("did not find expected key", "this line's indentation does not fit the lines above it"),
)

#: Where Go's JSON scanner met the unexpected character (``JsonSyntax.code``) and what
#: it means, in our words (``{0}``: the character, quoted).
_JSON_CAUSES = {
    "object-key": "a key (a string in double quotes) should start here, not {0} (a trailing "
                  "comma?)",
    "after-pair": "a ',' or '}}' is missing before {0}",
    "after-key": "a ':' is missing before {0}",
    "after-element": "a ',' or ']' is missing before {0}",
    "value": "a value should start here, not {0} (strings need double quotes)",
    "string": "{0} cannot stand in a string as it is: escape it",
    "end": "the text ends early: a bracket, a brace or a quote is not closed",
    "after-top-level": "more text after the end of the JSON value: {0}",
}


def input_error(text: str, exc: CfgPatchError) -> dict:
    """The page's description of an input that cannot be read.

    ``{"plain", "kubectl", "line", "column", "note"}``; the position (and ``note``,
    which reconciles kubectl's line number) only when the text has one.
    """
    out: dict[str, Any] = {"kubectl": f"error: {exc.message}", "plain": exc.message}
    found = _json_problem(text) if _is_json(text) else _yaml_problem(text)
    if found is None:
        if exc.hint:
            out["plain"] = exc.hint[0].upper() + exc.hint[1:] + "."
        return out
    line, column, cause = found
    out.update(line=line, column=column,
               plain=f"Line {line}, column {column}: {cause}.")
    records = list(_records(exc))
    said = _said_line(records)
    if said and said != line:
        out["note"] = (f"kubectl says line {said}, go-yaml's count for this kind of "
                       f"problem; the text goes wrong on line {line}.")
    elif not said and not _is_json(text):
        out["note"] = "kubectl names no line for this problem."
    elif _is_json(text):
        offset = _json_offset(records)
        if offset is not None:
            out["note"] = (f"kubectl gives the byte offset {offset}, counted to just "
                           f"after the character at line {line}, column {column}.")
    return out


def _records(exc: CfgPatchError) -> Iterator[Any]:
    """The problem records of ``exc``, outermost first (each one's ``cause`` within)."""
    problem = getattr(exc, "problem", None)
    while problem is not None and not isinstance(problem, str):
        yield problem
        problem = getattr(problem, "cause", None)


def _said_line(records: list[Any]) -> int:
    """The line kubectl's message names (go-yaml's ``yaml: line N:``; 0: none)."""
    from ..kube.compat import goyaml

    for record in records:
        if record.kind == "yaml-syntax":
            return goyaml.said_line(record)
        if record.kind == "yaml-value" and record.code == "bad-escape" and record.line > 1:
            return int(record.line)
    return 0


def _json_offset(records: list[Any]) -> int | None:
    """The byte offset kubectl's message gives (its JSON stream decoder's ``json: offset
    N``, for a file that is not cut short); None: it gives none."""
    for outer, inner in zip(records, records[1:], strict=False):
        if outer.kind == "parsing" and outer.code == "json" and inner.kind == "json-syntax" \
                and inner.code != "end":
            return int(inner.offset)
    return None


def _is_json(text: str) -> bool:
    return text.lstrip(" \t\r\n")[:1] == "{"


def _json_problem(text: str) -> tuple[int, int, str] | None:
    from ..kube.go import jsondecode
    from ..kube.go.json import quote_char

    raw = text.encode("utf-8", "surrogatepass")
    err = jsondecode.syntax_error(raw)
    if err is None:
        return None
    problem = err.problem
    # Go's offset counts the bytes read, the offending character included
    at = err.offset - 1 if problem.code != "end" else err.offset
    before = raw[: max(at, 0)].decode("utf-8", "replace")
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    wording = _JSON_CAUSES.get(problem.code)
    if wording is None:
        return line, column, err.message
    return line, column, wording.format(quote_char(problem.byte or 0))


#: A block value that opens with a quote: after ``key: `` or ``- `` (or at a line's start).
_QUOTED_VALUE = re.compile(
    r"""^(?:\s*(?:-\s+)*(?:[^\s#'"{}\[\],][^:#]*?|"[^"]*"|'[^']*'):\s+"""
    r"""|\s*(?:-\s+)+|\s*)(["'])""")


def _closes(rest: str, quote: str) -> bool:
    """Whether a quoted value whose text after the opening quote is ``rest`` ends on
    this line (``\\"`` escapes in double quotes, ``''`` in single quotes)."""
    at = 0
    while at < len(rest):
        char = rest[at]
        if quote == '"' and char == "\\":
            at += 2
            continue
        if char == quote:
            if quote == "'" and rest[at + 1:at + 2] == "'":
                at += 2
                continue
            return True
        at += 1
    return False


def unclosed_quote(text: str, before_line: int) -> tuple[int, int] | None:
    """The first line up to ``before_line`` (1-based) whose value opens a quote that the
    line does not close: (line, column of the quote).  A quoted value may go on over
    several lines in YAML, so the parser only notices many lines later (or at the end);
    a person nearly always meant to close it on the same line."""
    for number, line in enumerate(text.split("\n")[:before_line], start=1):
        match = _QUOTED_VALUE.match(line)
        if match and not line.lstrip().startswith("#"):
            quote = match.group(1)
            if not _closes(line[match.end():], quote):
                return number, match.start(1) + 1
    return None


def _yaml_problem(text: str) -> tuple[int, int, str] | None:
    found = _yaml_parser_problem(text)
    if found is None:
        return None
    quoted = unclosed_quote(text, found[0])
    if quoted is None or quoted[0] == found[0]:
        return found
    line, column = quoted
    return (line, column, f"this quote is not closed on its line, so the value runs on "
            f"into the lines below (the parser stops at line {found[0]}, column {found[1]})")


def _yaml_parser_problem(text: str) -> tuple[int, int, str] | None:
    import yaml

    try:
        for _ in yaml.compose_all(text, Loader=yaml.BaseLoader):
            pass
    except yaml.reader.ReaderError as err:
        before = text[: err.position]
        line = before.count("\n") + 1
        return (line, len(before) - (before.rfind("\n") + 1) + 1,
                "a control character, which YAML does not allow (write it as an escape "
                "inside double quotes)")
    except yaml.MarkedYAMLError as err:
        problem = err.problem or ""
        mark = err.problem_mark or err.context_mark
        if "could not find expected ':'" in problem and err.context_mark is not None:
            mark = err.context_mark  # where the key without ':' starts
        if mark is None:
            return None
        cause = next((words for py, words in _YAML_CAUSES if py in problem), problem)
        if "end of stream" in problem and err.context_mark is not None:
            opened = err.context_mark
            cause += f" (it opens at line {opened.line + 1}, column {opened.column + 1})"
        elif problem.startswith(("expected ',' or", "expected <block end>")) \
                and err.context_mark is not None and err.context_mark.line != mark.line:
            opened = err.context_mark
            cause += f" (the block starts at line {opened.line + 1})"
        line, column = mark.line + 1, mark.column + 1
        if mark.index >= len(text) and text.endswith("\n") and line > 1:
            lines = text.split("\n")
            line -= 1  # the end of the text: point at the end of its last line
            column = len(lines[line - 1]) + 1
        return line, column, cause
    except yaml.YAMLError:
        return None
    return None


# ------------------------------------------------------------------ places by pointer


def place(text: str, pointer: str) -> dict | None:
    """``{"line", "column", "end_line", "end_column"}`` of the value at ``pointer`` in a
    YAML or JSON text (JSON read as YAML, which it nearly always is), or ``None``."""
    import yaml

    from ..pointer import parse_pointer

    try:
        tokens = parse_pointer(pointer)
        node = yaml.compose(text, Loader=yaml.BaseLoader)
    except (CfgPatchError, yaml.YAMLError, ValueError):
        return None
    for token in tokens:
        node = _child(node, token)
        if node is None:
            return None
    if node is None:
        return None
    start, end = node.start_mark, node.end_mark
    return {"line": start.line + 1, "column": start.column + 1,
            "end_line": end.line + 1, "end_column": end.column + 1}


def _child(node: Any, token: str) -> Any:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == token:
                return value
        return None
    if isinstance(node, yaml.SequenceNode) and token.isdigit():
        index = int(token)
        return node.value[index] if index < len(node.value) else None
    return None
