"""Go's ``encoding/json`` words: its scanner's syntax errors and its type errors.

>>> from cfgpatch.kube.problems import JsonSyntax, Unmarshal
>>> syntax(JsonSyntax("object-key", ord("}"), 9, 1, 9))
"invalid character '}' looking for beginning of object key string"
>>> unmarshal(Unmarshal("number", "string", "ObjectMeta.metadata.labels"))
'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'
"""

from __future__ import annotations

from ..go.json import go_quote, quote_char

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..problems import JsonSyntax, UnknownField, Unmarshal

#: Where the scanner met the unexpected character (JsonSyntax.code) -> Go's words.
_CONTEXTS = {
    "value": "looking for beginning of value",
    "object-key": "looking for beginning of object key string",
    "after-key": "after object key",
    "after-pair": "after object key:value pair",
    "after-element": "after array element",
    "after-top-level": "after top-level value",
    "string": "in string literal",
    "escape": "in string escape code",
    "hex-escape": "in \\u hexadecimal character escape",
    "number": "in numeric literal",
    "decimal": "after decimal point in numeric literal",
    "exponent": "in exponent of numeric literal",
}


def syntax(problem: JsonSyntax) -> str:
    """Go's ``json.Unmarshal`` message for malformed JSON."""
    if problem.code == "end":
        return "unexpected end of JSON input"
    if problem.code == "literal":
        expected = quote_char(ord(problem.expected or " "))
        context = f"in literal {problem.literal} (expecting {expected})"
    else:
        context = _CONTEXTS[problem.code]
    return f"invalid character {quote_char(problem.byte or 0)} {context}"


def unmarshal(problem: Unmarshal) -> str:
    """Go's ``json: cannot unmarshal ...`` for a value of the wrong type."""
    what = problem.json_type + (f" {problem.number}" if problem.number is not None else "")
    into = f"struct field {problem.field}" if problem.field is not None else "value"
    return f"json: cannot unmarshal {what} into Go {into} of type {problem.go_type}"


def unknown_field(problem: UnknownField) -> str:
    """Go's strict decoder meets a field its struct has not."""
    return f"json: unknown field {go_quote(problem.name)}"
