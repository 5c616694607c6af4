"""What a request carries, checked: document names, versions, preconditions,
content types, and the raw request target (no encoded slashes, dot segments or
non-UTF-8 bytes).  Each check raises a :class:`~cfgpatch.errors.CfgPatchError`
that :mod:`.problems` turns into a 4xx answer.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_to_bytes

from starlette.requests import Request

from ..errors import INVALID_ARGUMENTS, INVALID_NAME, UNSUPPORTED_MEDIA_TYPE, InvalidInput
from ..preconditions import NONE, Preconditions, TagList
from .problems import HttpProblem, problem_response

#: Document names: a letter or digit, then letters, digits, ``.``, ``_`` and ``-``.
NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}"
_NAME = re.compile(NAME_PATTERN)
_VERSION = re.compile(r"[1-9][0-9]{0,17}")
_RAW_PATH_FORBIDDEN = re.compile(rb"%2[fF]|%5[cC]|%00|(^|/)\.\.?(/|$)")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")

JSON_PATCH = "application/json-patch+json"
MERGE_PATCH = "application/merge-patch+json"
JSON_TYPE = "application/json"


def check_name(name: str) -> str:
    """``name`` if it is a valid document name, else a 400 naming the rule."""
    if not _NAME.fullmatch(name):
        raise HttpProblem(
            f"document name {name[:80]!r} is not allowed: use 1-200 letters, digits, '.', '_' "
            "or '-', starting with a letter or digit",
            code=INVALID_NAME,
        )
    return name


def parse_version(text: str, what: str) -> int:
    """A version number from a query parameter (positive integer)."""
    if not _VERSION.fullmatch(text):
        raise InvalidInput(f"{what} must be a positive integer of at most 18 digits, not "
                           f"{text[:40]!r}", code=INVALID_ARGUMENTS)
    return int(text)


def query(request: Request, key: str, default: str | None = None) -> str | None:
    """The one value of the query parameter ``key`` (``default`` when absent); a key
    given twice is a 400, as a repeated ``Cfgpatch-Rebase-From`` is, rather than one
    of the two values picked silently."""
    if not request.scope.get("query_string"):
        return default  # most requests have no query: nothing to parse
    values = request.query_params.getlist(key)
    if len(values) > 1:
        raise InvalidInput(f"?{key}= may be given once, not {len(values)} times",
                           code=INVALID_ARGUMENTS)
    return values[0] if values else default


def parse_side(raw: str | None, key: str) -> tuple[str, int | None]:
    """One side of a diff, ``?from=`` / ``?to=``: ``name`` or ``name@version``."""
    if not raw:
        raise InvalidInput(f"diff needs ?{key}=<name>[@<version>]", code=INVALID_ARGUMENTS)
    name, at, version = raw.partition("@")
    check_name(name)
    return name, parse_version(version, f"{key} version") if at else None


#: One element of an entity-tag list: optional ``W/``, then a quoted opaque tag.
_TAG_ITEM = re.compile(r'[ \t]*(?:(W/)?"([\x21\x23-\x7e\x80-\xff]*)")?[ \t]*(,|$)')
#: The header naming the version a rebased PATCH was written against.
REBASE_FROM = "Cfgpatch-Rebase-From"


def parse_tag_list(values: list[str], field: str) -> TagList | None:
    """An ``If-Match`` / ``If-None-Match`` field (all its lines) as a :class:`TagList`.

    RFC 9110: ``*`` or a comma-separated list of entity tags (``"3"``, ``W/"3"``;
    empty elements are allowed).  Tags that name no version match nothing.
    Anything else is a 400 ``invalid arguments``.
    """
    if not values:
        return None
    text = ",".join(values)
    if text.strip(" \t") == "*":
        return TagList(any=True)
    strong: set[int] = set()
    weak: set[int] = set()
    position = 0
    while position < len(text):
        match = _TAG_ITEM.match(text, position)
        if match is None or match.end() == position:
            raise InvalidInput(
                f'{field} must be * or a list of entity tags such as "3" or W/"3" '
                f"(got {text[:60]!r})",
                code=INVALID_ARGUMENTS,
            )
        tag = match.group(2)
        if tag is not None and _VERSION.fullmatch(tag):
            (weak if match.group(1) else strong).add(int(tag))
        position = match.end()
        if match.group(3) == "":
            break
    return TagList(strong=frozenset(strong), weak=frozenset(weak))


def preconditions(request: Request) -> Preconditions:
    """The request's ``If-Match`` and ``If-None-Match``, parsed."""
    headers = request.headers
    if_match, if_none_match = headers.getlist("if-match"), headers.getlist("if-none-match")
    if not if_match and not if_none_match:
        return NONE  # most requests have neither
    return Preconditions(
        if_match=parse_tag_list(if_match, "If-Match"),
        if_none_match=parse_tag_list(if_none_match, "If-None-Match"),
    )


def rebase_from(request: Request) -> int | None:
    """The version named by ``Cfgpatch-Rebase-From`` (a bare positive integer), if any."""
    values = request.headers.getlist(REBASE_FROM.lower())
    if not values:
        return None
    if len(values) > 1:
        raise InvalidInput(f"{REBASE_FROM} may be given once", code=INVALID_ARGUMENTS)
    return parse_version(values[0].strip(" \t"), REBASE_FROM)


def check_message(text: str | None, limit: int) -> str | None:
    """A version's message from ``?message=``: bounded, no control characters but tab/newline."""
    if text is not None and len(text) > limit:
        raise InvalidInput(f"message longer than {limit} characters", code=INVALID_ARGUMENTS)
    if text is not None and _CONTROL.search(text):
        raise InvalidInput("message holds control characters (only tab and newline are "
                           "allowed)", code=INVALID_ARGUMENTS)
    return text or None


def parse_flag(raw: str | None, key: str) -> bool:
    """A ``0``/``1`` query flag (absent: 0)."""
    if raw is None or raw == "0":
        return False
    if raw == "1":
        return True
    raise InvalidInput(f"{key} must be 0 or 1, not {raw[:40]!r}", code=INVALID_ARGUMENTS)


def parse_wait(raw: str | None, longest: int) -> int:
    """Seconds of a long poll's ``?wait=`` (0 when absent), at most ``longest``."""
    if raw is None:
        return 0
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6) or int(raw) > longest:
        raise InvalidInput(f"wait must be a whole number of seconds from 0 to {longest}, "
                           f"not {raw[:40]!r}", code=INVALID_ARGUMENTS)
    return int(raw)


def media_type(request: Request) -> str:
    """The request's media type, lower case; 415 if a charset other than UTF-8 is named.

    ``Content-Type`` is a field with one value (RFC 9110 section 8.3): two lines of
    it, or one line listing two types, is a 400 rather than one of them picked.
    """
    lines = request.headers.getlist("content-type")
    if len(lines) > 1 or (lines and "," in lines[0].split(";")[0]):
        raise HttpProblem(f"Content-Type may be given once, with one media type (got "
                          f"{', '.join(lines)[:80]!r})", code=INVALID_ARGUMENTS)
    raw = lines[0] if lines else ""
    if ";" not in raw:
        return raw.strip().lower()  # no parameters (most requests)
    kind, *params = (part.strip().lower() for part in raw.split(";"))
    for param in params:
        key, _, value = param.partition("=")
        if key.strip() == "charset" and value.strip().strip('"') not in ("utf-8", "utf8"):
            raise HttpProblem(f"bodies must be UTF-8, not {value.strip()}",
                              code=UNSUPPORTED_MEDIA_TYPE)
    return kind


def require_type(request: Request, allowed: tuple[str, ...]) -> str:
    kind = media_type(request)
    if kind not in allowed:
        raise HttpProblem(
            f"Content-Type {kind or '(none)'!r} is not accepted here; use "
            + " or ".join(allowed),
            code=UNSUPPORTED_MEDIA_TYPE,
        )
    return kind


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


class RawPathGuard:
    """Refuse encoded slashes, backslashes, NUL and dot segments in the raw path (400)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        error = raw_target_error(scope) if scope["type"] == "http" else None
        if error is not None:
            await problem_response(error)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def raw_target_error(scope: dict) -> HttpProblem | None:
    """Why the raw request target is refused, or ``None``."""
    raw_path = scope.get("raw_path") or b""
    query = scope.get("query_string") or b""
    if (b"%" not in raw_path and b"." not in raw_path and raw_path.isascii()
            and b"%" not in query and query.isascii()):
        return None  # no escapes, no dots, ASCII: nothing to refuse (most requests)
    if _RAW_PATH_FORBIDDEN.search(raw_path):
        return HttpProblem("the path holds an encoded '/', '\\', NUL or a dot segment",
                           code=INVALID_NAME)
    for part, what in ((raw_path, "path"), (query, "query")):
        if part.isascii() and b"%" not in part:
            continue  # ASCII with no escapes: UTF-8 already
        try:
            unquote_to_bytes(part.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            return HttpProblem(f"the {what} is not UTF-8 once percent-decoded",
                               code=INVALID_ARGUMENTS)
    return None
