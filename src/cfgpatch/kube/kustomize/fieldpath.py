"""kustomize's replacement field paths: ``spec.containers.[name=app].image`` and kin.

A path is split on dots outside square brackets.  Each segment is (measured with
``kubectl kustomize``, trees ``replacements-*``):

* a map key (``image``; ``[a.b/c]``: a bracketed text with a dot and no ``=`` is a key
  holding dots, and so is ``a\\.b/c``: a dot after a backslash);
* in a list, a number (an index, never a map key), ``*`` (every element, targets
  only) or ``[key=value]`` (a source reads the first element whose ``key`` is
  ``value``, a target sets every one); any other bracketed text is refused by kustomize
  (``list path element must contain fieldName=fieldValue ...``).

:func:`lookup` reads a source value; :func:`slots` finds (or, with ``create``, makes) the
places a target writes to, as ``(container, key)`` pairs.  Paths whose meaning was not
measured (empty segments, brackets inside a segment) are refused as not modelled.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED, KubeError
from ...records import dataclass
from ..problems import Kustomize, ProblemError
from .nodes import MAPPING, MISSING, SEQUENCE, kind_of, node_text, text, wrong_kind_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KEY, INDEX, MATCH, ALL = "key", "index", "match", "all"
_NEEDS_MATCH = Kustomize("list-element-needs-match")


@dataclass(frozen=True)
class Segment:
    kind: str  # KEY, INDEX (a number, also a key in a map), MATCH ([k=v]) or ALL (*)
    text: str  # the key, the number's text, or the bracketed text
    field: str = ""  # MATCH: the key
    value: str = ""  # MATCH: the value


class PathError(ProblemError):
    """A path step failed for ``problem`` (a :class:`Kustomize` record; ``message``:
    kustomize's text without the caller's prefix); ``absent``: the field is not there,
    no detail (``problem`` None)."""

    default_code = KUSTOMIZE_ERROR

    def __init__(self, problem: Kustomize | None = None) -> None:
        super().__init__("absent" if problem is None else problem, code=KUSTOMIZE_ERROR)
        self.absent = problem is None


def is_missing_path(path: str) -> bool:
    """A source path kustomize reports as missing (measured: an unclosed bracket)."""
    return path.count("[") != path.count("]")


def source_path(path: str) -> str:
    """A source path without its empty segments (kustomize skips them: ``data..word``
    reads ``data.word``)."""
    return ".".join(part for part in path.split(".") if part) if ".." in path \
        or path.startswith(".") or path.endswith(".") else path


def parse(path: str, where: str) -> list[Segment]:
    """The segments of ``path`` (``where`` names it in refusals)."""
    parts, depth, current = [], 0, ""
    for ch in path:
        if ch == "." and depth == 0 and current.endswith("\\"):
            current = current[:-1] + ch  # an escaped dot belongs to the key
            continue
        if ch == "." and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += (ch == "[") - (ch == "]")
        current += ch
    parts.append(current)
    if len(parts) > 1 and parts[0] == "":  # a leading dot is skipped (measured)
        parts = parts[1:]
    return [_segment(part, path, where) for part in parts]


def _segment(part: str, path: str, where: str) -> Segment:
    inner = part[1:-1] if part.startswith("[") and part.endswith("]") else None
    if part == "" or (inner is None and ("[" in part or "]" in part)) \
            or (inner is not None and ("[" in inner or "]" in inner)):
        raise KubeError(f"{where}: the field path '{path}' is not modelled by cfgpatch kube "
                        f"build", code=KUSTOMIZE_UNMODELLED,
                        hint="build this tree with kubectl kustomize")
    if inner is None:
        if part == "*":
            return Segment(ALL, part)
        if part.lstrip("-").isdigit():
            return Segment(INDEX, part)
        return Segment(KEY, part)
    if "=" in inner:
        field, _, value = inner.partition("=")
        return Segment(MATCH, part, field, value)
    if "." in inner:
        return Segment(KEY, inner)
    return Segment(MATCH, part)  # kustomize refuses it when it is used


# ------------------------------------------------------------------ reading


def lookup(value: Any, segments: list[Segment], place: list | None = None) -> Any:
    """The value at ``segments`` in ``value``, or :data:`MISSING` (a list index past the
    end is missing too); a segment of the wrong kind for its node is kustomize's error.
    ``place`` (a list) receives the keys and indices of the way to the value."""
    for seg in segments:
        if seg.kind == ALL:
            raise PathError(Kustomize("wildcard-in-getter"))
        if seg.kind == MATCH and not seg.field:
            raise PathError(_NEEDS_MATCH)
        if value is None:
            return MISSING
        if seg.kind == KEY:
            if not isinstance(value, dict):
                raise _wrong(MAPPING, value)
            step: Any = seg.text
            value = value.get(seg.text, MISSING)
        elif not isinstance(value, list):
            raise _wrong(SEQUENCE, value)
        elif seg.kind == INDEX:
            step = int(seg.text)
            if step < 0:
                raise PathError(Kustomize("negative-index", detail=step))
            value = value[step] if step < len(value) else MISSING
        else:
            step = next((i for i, e in enumerate(value) if _matches(e, seg)), None)
            value = MISSING if step is None else value[step]
        if value is MISSING:
            return MISSING
        if place is not None:
            place.append(step)
    return value


def _matches(element: Any, seg: Segment) -> bool:
    return isinstance(element, dict) and seg.field in element \
        and not isinstance(element[seg.field], (dict, list)) \
        and text(element[seg.field]) == seg.value


# ------------------------------------------------------------------ writing


def slots(value: Any, segments: list[Segment], create: bool) -> list[tuple[Any, Any, bool]]:
    """The places ``segments`` name in ``value``: ``(container, key, created)``.

    A place that does not exist raises :class:`PathError` with ``message`` ``""`` (no
    detail) or kustomize's detail; with ``create`` it is made (a map, or a list when the
    next segment is a number or ``[k=v]``) and ``created`` is true.
    """
    found: list[tuple[Any, Any, bool]] = []
    _walk(value, segments, create, found)
    return found


def _walk(node: Any, segments: list[Segment], create: bool, found: list) -> None:
    seg, rest, start = segments[0], segments[1:], len(found)
    if isinstance(node, list):
        places = _list_places(node, seg, create, rest)
    elif isinstance(node, dict):
        if seg.kind == MATCH and not seg.field:
            raise PathError(_NEEDS_MATCH)
        if seg.kind != KEY:  # a number is a list index, never a key (measured)
            raise _wrong(SEQUENCE, node)
        places = [(node, seg.text, seg.text not in node)]
        if seg.text not in node:
            if not create:
                raise PathError()
            node[seg.text] = _new_container(rest)
    else:
        raise _wrong(MAPPING if seg.kind == KEY else SEQUENCE, node)
    absent = None
    for container, key, created in places:
        if not rest:
            found.append((container, key, created))
            continue
        try:
            _walk(container[key], rest, create, found)
        except PathError as err:
            if not (err.absent and seg.kind == ALL):
                raise
            absent = err  # below a wildcard an element without the field is skipped...
    if absent is not None and not found[start:]:
        raise absent  # ...unless no element has it


def _list_places(items: list, seg: Segment, create: bool, rest: list[Segment]) -> list:
    if seg.kind == ALL:
        return [(items, i, False) for i in range(len(items))]
    if seg.kind == INDEX:
        index = int(seg.text)
        if index < 0:
            raise PathError(Kustomize("negative-index", detail=index))
        if index < len(items):
            return [(items, index, False)]
        if create and index == len(items):
            items.append(_new_container(rest))
            return [(items, index, True)]
        raise PathError(Kustomize("index-past-end", detail=(index, len(items))))
    if seg.kind == MATCH and seg.field:
        matching = [(items, i, False) for i, e in enumerate(items) if _matches(e, seg)]
        if matching:
            return matching  # a target sets every element that matches (measured)
        if not create:
            raise PathError()
        items.append({seg.field: seg.value} if rest else None)
        return [(items, len(items) - 1, True)]
    raise PathError(_NEEDS_MATCH)


def _new_container(rest: list[Segment]) -> Any:
    if not rest:
        return None
    return [] if rest[0].kind in (INDEX, MATCH) else {}


def _wrong(kind: str, value: Any) -> PathError:
    return PathError(wrong_kind_problem(kind, kind_of(value), node_text(value).rstrip(chr(10))))
