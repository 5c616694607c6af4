"""go-yaml's words for a YAML syntax error (``yaml: line N: <problem>``) and for bytes its
reader refuses (``yaml: invalid leading UTF-8 octet``).

:func:`message` takes a :class:`YamlProblem` (what PyYAML's scanner or parser found,
and where) and says it as go-yaml (libyaml's wording) would, v2 (kubectl's
``sigs.k8s.io/yaml``) or v3 (kustomize's kyaml).

>>> message(YamlProblem("parser", "expected ',' or ']', but got '<stream end>'",
...                     "while parsing a flow sequence", 0, 4, False, 0))
"yaml: did not find expected ',' or ']'"
>>> message(YamlProblem("scanner", "found undefined alias 'x'", None, 2, 3, False, None))
"yaml: unknown anchor 'x' referenced"
"""

from __future__ import annotations

import re

from ..go.json import go_quote
from ..problems import BadBytes, YamlSyntax, YamlValue

#: The record :func:`message` words (defined with the other problems).
YamlProblem = YamlSyntax

#: PyYAML's wording -> libyaml's (go-yaml's), matched as a part of PyYAML's problem.
_PROBLEMS = (
    ("expected ',' or ']'", "did not find expected ',' or ']'"),
    ("expected ',' or '}'", "did not find expected ',' or '}'"),
    ("expected the node content", "did not find expected node content"),
    ("mapping values are not allowed here", "mapping values are not allowed in this context"),
    ("mapping keys are not allowed here", "mapping keys are not allowed in this context"),
    ("sequence entries are not allowed here",
     "block sequence entries are not allowed in this context"),
    ("that cannot start any token", "found character that cannot start any token"),
    ("could not find expected ':'", "could not find expected ':'"),
    ("found unexpected end of stream", "found unexpected end of stream"),
    ("found unknown escape character", "found unknown escape character"),
    ("hexadecimal numbers, but found", "did not find expected hexdecimal number"),
    ("found duplicate YAML directive", "found duplicate %YAML directive"),
    ("found incompatible YAML document", "found incompatible YAML document"),
    ("expected '<document start>', but found", "did not find expected <document start>"),
    ("expected a comment or a line break", "did not find expected comment or line break"),
    ("expected chomping or indentation indicators",
     "did not find expected comment or line break"),
    ("expected indentation indicator in the range 1-9",
     "found an indentation indicator equal to 0"),
    ("expected ' ', but found", "did not find expected whitespace or line break"),
    ("expected alphabetic or numeric character",
     "did not find expected alphabetic or numeric character"),
)


#: BadBytes.code -> go-yaml's reader's words (after ``yaml: ``).
_BYTES = {
    "invalid-leading-utf8": "invalid leading UTF-8 octet",
    "invalid-trailing-utf8": "invalid trailing UTF-8 octet",
    "incomplete-utf8": "incomplete UTF-8 octet sequence",
    "invalid-utf8-length": "invalid length of a UTF-8 sequence",
    "invalid-unicode": "invalid Unicode character",
    "control-character": "control characters are not allowed",
    "incomplete-utf16": "incomplete UTF-16 character",
    "unexpected-low-surrogate": "unexpected low surrogate area",
    "expected-low-surrogate": "expected low surrogate area",
    "incomplete-utf16-pair": "incomplete UTF-16 surrogate pair",
}


def reader(problem: BadBytes) -> str:
    """go-yaml's reader's ``yaml: <problem>`` for bytes it refuses.

    >>> reader(BadBytes("invalid-leading-utf8", 3, 1, 4))
    'yaml: invalid leading UTF-8 octet'
    """
    return f"yaml: {_BYTES[problem.code]}"


#: YamlValue.code -> go-yaml's decoder's (or the JSON conversion's) words.
_VALUES = {
    "bad-base64": "yaml: !!binary value contains invalid base64 data",
    "merge-not-map": "yaml: map merge requires map or sequence of maps as the value",
    "invalid-map-key": "yaml: invalid map key: {}",
    "map-key-nil": "unsupported map key of type: %!s(<nil>), key: <nil>, value: {}",
    "map-key-uint64": "unsupported map key of type: uint64, key: {}",
    "anchor-contains-itself": "yaml: anchor '{}' value contains itself",
    "anchor-refers-to-itself": "yaml: anchor refers to itself",
    "unsupported-value": "json: unsupported value: {}",
    "unsupported-type": "json: unsupported type: {}",
    # kyaml's own merge of ``<<`` keys (kustomize)
    "duplicate-merge-key": "duplicate merge key",
    "merge-value-not-map": "map merge requires map or sequence of maps as the value",
    "merge-alias-not-map": "invalid map merge: received alias for a non-map value",
    "merge-nested-sequence": "invalid map merge: received a nested sequence",
}


def value(problem: YamlValue) -> str:
    """go-yaml's words for YAML that parses but does not decode.

    >>> value(YamlValue("cannot-decode", ("str", "x", "!!int"), 3, 5))
    'yaml: cannot decode !!str `x` as a !!int'
    """
    code, detail = problem.code, problem.detail
    if code == "bad-escape":  # go-yaml leaves out line 1 (its line 0)
        where = f"line {problem.line}: " if problem.line > 1 else ""
        return f"yaml: {where}found invalid Unicode character escape code"
    if code == "cannot-decode":
        found, text, wanted = detail
        words = f"yaml: cannot decode !!{found} `{text}` as a {wanted}"
    elif code == "duplicate-keys":  # detail: (line, key, line of the first) of each
        words = "yaml: unmarshal errors:\n  " + "\n  ".join(
            f"line {line}: mapping key {go_quote(key)} already defined at line {first}"
            for line, key, first in detail)
    else:
        words = _VALUES[code].format(detail)
    return f"{problem.value}: {words}" if problem.value is not None else words


def message(found: YamlSyntax, v3: bool = False) -> str:
    """go-yaml's ``yaml: line N: <problem>`` for ``found``.

    go-yaml v2 names the problem's line; v3 (``v3``, or ``found.version`` 3) names the
    line of its context (the collection being parsed) when that is not the first line,
    counted from 0 like libyaml's marks."""
    problem = found.problem or ""
    alias = re.fullmatch(r"found undefined alias '(.*)'", problem)
    if alias:
        return f"yaml: unknown anchor '{alias.group(1)}' referenced"
    text = next((go for py, go in _PROBLEMS if py in problem), problem)
    if problem.startswith("expected <block end>"):
        text = ("did not find expected '-' indicator" if "collection" in (found.context or "")
                else "did not find expected key")
    line = said_line(found, v3, text)
    return f"yaml: line {line}: {text}" if line else f"yaml: {text}"


def said_line(found: YamlSyntax, v3: bool = False, text: str | None = None) -> int:
    """The line go-yaml names in its message for ``found`` (0: none; see
    :func:`message`; ``text``: go-yaml's words for the problem when known)."""
    if text is None:
        problem = found.problem or ""
        if re.fullmatch(r"found undefined alias '(.*)'", problem):
            return 0  # "yaml: unknown anchor ... referenced"
        text = next((go for py, go in _PROBLEMS if py in problem), problem)
    scanner = found.stage == "scanner"
    line = 0
    # libyaml starts a new line at the end of a stream that does not end with one when
    # it makes the stream's end token (before it finds a simple key without its ':');
    # a scanner error inside a token at the end comes before that.  go-yaml counts
    # lines from 1 in scanner errors, and leaves out line 0.
    forced = found.at_end and (not scanner or text == "could not find expected ':'")
    if (v3 or found.version == 3) and found.context_line:
        line = found.context_line + (1 if scanner else 0)
    elif found.line is not None and (found.line or forced):
        line = found.line + (1 if forced else 0) + (1 if scanner else 0)
    elif found.context_line is not None:
        line = found.context_line
    return line
