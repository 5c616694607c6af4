"""JSON Pointer (RFC 6901) with the stricter rules of the ``run()`` contract.

A pointer is ``""`` (the whole document) or ``/``-prefixed reference tokens.
Inside a token ``~1`` means ``/`` and ``~0`` means ``~``; ``~1`` is decoded first,
so ``~01`` is the two characters ``~1``.  A ``~`` followed by anything else is an
invalid pointer.  Array indices are ASCII digits without a leading zero; ``-``
("after the last element") is only valid as the last token of an add target.

Walking (:func:`resolve`) goes token by token and the first failing token decides
the error.  Errors name the token and the place, and when a missing key looks like
an annotation key split by an unescaped ``/`` the hint carries the corrected pointer.
"""

from __future__ import annotations

from .errors import INVALID_INDEX, INVALID_POINTER, PATH_NOT_FOUND, InvalidInput, PatchFailed
from .jsonvalue import JSON, type_name
from .lazy_pattern import lazily

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is left out of the start-up (annotations are not evaluated)
    from typing import Any

_BAD_ESCAPE = lazily(r"~(?![01])")
_INDEX = lazily(r"(?:0|[1-9][0-9]*)\Z")


def escape_token(token: str) -> str:
    """Escape one reference token: ``~`` -> ``~0``, ``/`` -> ``~1``.

    >>> escape_token("kubernetes.io/ingress.class")
    'kubernetes.io~1ingress.class'
    """
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    """Decode one reference token (``~1`` first, then ``~0``).

    >>> unescape_token("~01")
    '~1'
    """
    return token.replace("~1", "/").replace("~0", "~")


#: Pointers parsed already (the paths of patches repeat from one request to the next),
#: up to :data:`PARSED_POINTERS` of them (then it starts over), each of at most
#: :data:`PARSED_CHARS` characters.
_PARSED: dict[str, tuple[str, ...]] = {}
PARSED_POINTERS = 4096
PARSED_CHARS = 256


def parse_pointer(text: str) -> list[str]:
    """Split a pointer into decoded reference tokens (a new list each call); raise
    ``invalid pointer``.

    >>> parse_pointer("/a~1b/~0/0")
    ['a/b', '~', '0']
    """
    if type(text) is str:
        known = _PARSED.get(text)
        if known is not None:
            return list(known)
        tokens = _parse(text)
        if len(text) <= PARSED_CHARS:
            if len(_PARSED) >= PARSED_POINTERS:
                _PARSED.clear()
            _PARSED[text] = tuple(tokens)
        return tokens
    return _parse(text)


def _parse(text: str) -> list[str]:
    if not isinstance(text, str):
        raise InvalidInput("a pointer must be a string", code=INVALID_POINTER)
    if text == "":
        return []
    if not text.startswith("/"):
        raise InvalidInput(
            f"pointer {text!r} must be empty or start with '/'", code=INVALID_POINTER, pointer=text
        )
    if _BAD_ESCAPE.search(text):
        raise InvalidInput(
            f"pointer {text!r}: '~' must be followed by 0 or 1", code=INVALID_POINTER, pointer=text
        )
    return [unescape_token(token) for token in text[1:].split("/")]


def format_pointer(tokens: list[str] | tuple[str, ...]) -> str:
    """Join decoded tokens into pointer text.

    >>> format_pointer(["a/b", "~", "0"])
    '/a~1b/~0/0'
    """
    return "".join("/" + escape_token(token) for token in tokens)


def is_index(token: str) -> bool:
    """True for a valid array index token (ASCII digits, no leading zero)."""
    return bool(_INDEX.match(token))


def index_below(token: str, size: int) -> int | None:
    """The index ``token`` names (a valid index token) if it is below ``size``, else
    ``None``; a token longer than any index below ``size`` is never converted (an
    index of thousands of digits is simply out of range, not a conversion error).

    >>> index_below("1" * 5000, 3) is None, index_below("2", 3)
    (True, 2)
    """
    if len(token) > len(str(size)):
        return None
    index = int(token)
    return index if index < size else None


def is_proper_prefix(prefix: list[str], tokens: list[str]) -> bool:
    """True when ``prefix`` is a proper prefix of ``tokens`` (token by token)."""
    return len(prefix) < len(tokens) and tokens[: len(prefix)] == prefix


def array_index(tokens: list[str], depth: int, array: list[Any], *, allow_end: bool) -> int:
    """The index named by ``tokens[depth]`` in ``array``; raise the spec's errors.

    ``allow_end`` admits ``-`` and ``len(array)`` (an add-style target).
    """
    token = tokens[depth]
    if token == "-" and allow_end:
        return len(array)
    if not is_index(token):
        raise InvalidInput(
            f"{token!r} is not an array index in {_where(tokens, depth)}",
            code=INVALID_INDEX,
            pointer=format_pointer(tokens),
            token=token,
        )
    index = index_below(token, len(array) + 1 if allow_end else len(array))
    if index is None:
        shown = token if len(token) <= 40 else f"{token[:20]}...({len(token)} digits)"
        raise PatchFailed(
            f"index {shown} is out of range in {_where(tokens, depth)} (length {len(array)})",
            code=PATH_NOT_FOUND,
            pointer=format_pointer(tokens),
            token=token,
        )
    return index


def resolve(doc: JSON, tokens: list[str], count: int | None = None) -> JSON:
    """The value at the first ``count`` tokens (all by default); raise the spec's errors."""
    node = doc
    end = len(tokens) if count is None else count
    for depth in range(end):
        node = step(node, tokens, depth)
    return node


def step(node: JSON, tokens: list[str], depth: int) -> JSON:
    """Walk one token from ``node`` (rule 5 of the contract)."""
    token = tokens[depth]
    if type(node) is dict:
        if token in node:
            return node[token]
        raise missing_key(node, tokens, depth)
    if type(node) is list:
        return node[array_index(tokens, depth, node, allow_end=False)]
    raise PatchFailed(
        f"{_where(tokens, depth)} is a {type_name(node)}, which has no member {token!r}",
        code=PATH_NOT_FOUND,
        pointer=format_pointer(tokens),
        token=token,
    )


def missing_key(obj: dict[str, Any], tokens: list[str], depth: int) -> PatchFailed:
    """The ``path not found`` error for a missing key, with a corrected pointer if one fits."""
    token = tokens[depth]
    error = PatchFailed(
        f'no key "{token}" in {_where(tokens, depth)}',
        code=PATH_NOT_FOUND,
        pointer=format_pointer(tokens),
        token=token,
    )
    fixed = suggest_split_key(obj, tokens, depth)
    if fixed is not None:
        error.hint = f"did you mean {fixed}? A '/' inside a key must be written '~1' in a pointer"
    elif depth < len(tokens) - 1 and "." in token:
        # Looks like a domain-prefixed key (kubernetes.io/..., app.kubernetes.io/...)
        # split by an unescaped "/": say how to write it as one key.
        joined = format_pointer([*tokens[:depth], "/".join(tokens[depth:])])
        error.hint = (
            f'if "{"/".join(tokens[depth:])}" is one key, write {joined} '
            "(a '/' inside a key must be written '~1')"
        )
    return error


def suggest_split_key(obj: dict[str, Any], tokens: list[str], depth: int) -> str | None:
    """A corrected pointer when an unescaped ``/`` split an existing key of ``obj``.

    Tries joining ``tokens[depth:]`` back together, longest first, and accepts the
    first join that names a key of ``obj``.
    """
    for end in range(len(tokens), depth + 1, -1):
        joined = "/".join(tokens[depth:end])
        if joined in obj:
            return format_pointer([*tokens[:depth], joined, *tokens[end:]])
    return None


def _where(tokens: list[str], depth: int) -> str:
    return format_pointer(tokens[:depth]) or "the document root"
