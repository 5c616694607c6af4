"""kubectl's unstructured objects: what its decoder accepts and how it holds values.

kubectl decodes the object file, and every patched document before printing it, into a
schemaless ("unstructured") object.  That step has rules of its own:

* numbers: an integer within int64 stays an integer, any other number a 64-bit float
  (:func:`normalize`);
* a document that is not an object, or has no non-empty string ``kind``, or an
  ``apiVersion`` that is not ``group/version`` (two or more ``/``, e.g. ``x/y/z``: kubectl
  then sees no kind at all), is refused (:func:`decode_result`; the errors carry the
  records of :mod:`cfgpatch.kube.problems`, worded by :mod:`cfgpatch.kube.compat`);
* any object with an ``items`` member is a list; its items are patched one by one and
  get the list's kind when they have none (:func:`list_items`);
* the object file's ``apiVersion`` and ``metadata`` go through a typed struct, so a
  label value that is not a string is refused (:func:`object_from_documents`, with
  :func:`cfgpatch.kube.io.objectmeta.check_metadata`); the
  items of a list skip that, but each needs a kind and an apiVersion of its own (or
  the list's), else kubectl stops with "unable to get type info" (printed without
  ``error:``, code ``KUBECTL_UNPREFIXED`` of :mod:`cfgpatch.errors`).

Standard library only.
"""

from __future__ import annotations

import functools
import math

from ...errors import KUBECTL_UNPREFIXED, MULTIPLE_DOCUMENTS, NESTING_TOO_DEEP, KubeError
from ..go.json import INT64_MAX, INT64_MIN, encode, number_text
from ..go.jsondecode import OutOfRange
from ..problems import Command, Decoding, MissingKind, NoTypeInfo, ProblemError, Unmarshal
from .objectmeta import check_metadata, go_kind

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

#: ``KubeError.code`` of an error kubectl prints without its usual ``error: `` prefix.

#: kubectl patch's error for a file that holds no object.
#: The input holds no object (:func:`no_objects` raises it).
NO_OBJECTS = Command("no-objects")


def group_version_ok(api_version: Any) -> bool:
    """Whether kubectl can split ``apiVersion`` into group and version.

    A string with two or more ``/`` cannot be (``x/y/z``, ``a//``; ``/`` alone is the
    empty group version); kubectl then takes the object's kind as missing.  A value that
    is not a string counts as no apiVersion, which parses.
    """
    if not isinstance(api_version, str) or api_version in ("", "/"):
        return True
    return api_version.count("/") <= 1


def has_kind(value: dict) -> bool:
    """Whether kubectl sees a group, version and kind in ``value`` (kind non-empty)."""
    kind = value.get("kind")
    return isinstance(kind, str) and bool(kind) and group_version_ok(value.get("apiVersion"))


def too_deep(func: Any) -> Any:
    """Turn Python's recursion limit into a clear ``KubeError`` (kubectl itself accepts up
    to 10000 levels; real manifests stay far below the few hundred handled here)."""
    @functools.wraps(func)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RecursionError:
            raise too_deep_error() from None

    return guarded


def too_deep_error() -> KubeError:
    """The error for input nested beyond Python's recursion limit (see :func:`too_deep`)."""
    return KubeError("the input is nested too deeply for cfgpatch", code=NESTING_TOO_DEEP,
                     hint="cfgpatch handles a few hundred levels of nesting; kubectl would "
                          "go on up to 10000")


def normalize(value: Any, literal: bool = False) -> Any:
    """Numbers as kubectl holds them after decoding its own JSON text: a number whose Go
    text is an integer within int64 is an ``int``, any other number a ``float``.

    ``literal=True`` is for values whose JSON text kubectl kept as typed (a ``{...}``
    merge patch): there a float ``-0.0`` stays a float (it prints ``-0``).

    >>> normalize({"a": [1.0, 2**63, 1.5, -0.0]})
    {'a': [1, 9.223372036854776e+18, 1.5, 0]}
    """
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is dict:
        return {key: normalize(item, literal) for key, item in value.items()}
    if kind is list:
        return [normalize(item, literal) for item in value]
    if kind is int and INT64_MIN <= value <= INT64_MAX:
        return value
    if isinstance(value, OutOfRange):
        raise ProblemError(value.problem(), hint="the number is too large for a 64-bit float")
    if literal and isinstance(value, float) and value == 0 and math.copysign(1, value) < 0:
        return value
    if isinstance(value, (int, float)):
        text = number_text(value)
        if text.lstrip("-").isdigit():
            number = int(text)
            if INT64_MIN <= number <= INT64_MAX:
                return number
        return float(text)
    if isinstance(value, list):
        return [normalize(item, literal) for item in value]
    if isinstance(value, str):  # a str subclass (kube build's Quoted marks)
        return str(value)
    return {key: normalize(item, literal) for key, item in value.items()}


def already_normal(value: Any) -> bool:
    """Whether :func:`normalize` would give a copy equal to ``value`` in every type: only
    strings, bools, None, ints within int64, dicts and lists (no float, so ``literal``
    makes no difference), no container reached twice (normalize's copy shares nothing).

    >>> already_normal({"a": [1, "x", None, True]}), already_normal({"a": [1.5]})
    (True, False)
    """
    stack, seen = [value], set[int]()
    pop, extend, see = stack.pop, stack.extend, seen.add
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict or kind is list:
            if id(item) in seen:
                return False
            see(id(item))
            extend(item.values() if kind is dict else item)
        elif kind is int:
            if not INT64_MIN <= item <= INT64_MAX:
                return False
        elif kind is not str and kind is not bool and item is not None:
            return False
    return True


@too_deep
def decode_result(value: Any, literal: bool = False, owned: bool = False) -> dict:
    """What kubectl does with a patched document before printing it.

    A result that is not an object, or has no non-empty string ``kind``, raises the
    ``KubeError`` kubectl prints; numbers are brought back to int64/float64 form
    (``literal`` as in :func:`normalize`).  ``owned``: ``value`` is a fresh tree no one
    else holds, so when it is :func:`already_normal` it is used as it is, not copied.
    """
    if not isinstance(value, dict):
        kind = {list: "array", str: "string", bool: "bool"}.get(type(value), "number")
        if value is None:
            raise ProblemError(MissingKind("null"), hint="the patch removed the whole object")
        raise ProblemError(Unmarshal(kind, "unstructured.detector"),
                           hint="the patch turned the object into a JSON " + kind)
    document = value
    if not (owned and already_normal(value)):
        value = normalize(value, literal)
    if "items" in value:  # even "items": null makes kubectl read a list
        value = {**value, "items": list_items(value)}
    if not has_kind(value):
        # kubectl quotes the patched document as encoded, before its decoder turns a
        # float -0 into the integer 0 or gives list items a kind
        shown = encode(normalize(document, literal=True))
        raise ProblemError(MissingKind(shown),
                           hint="after patching, the object has no kind, so kubectl cannot "
                           "decode it")
    return value


def _go_value_type(value: Any) -> str:
    kinds = {dict: "object", list: "array", str: "string", bool: "bool"}
    return kinds.get(type(value), "number")


def list_items(value: dict) -> list:
    """kubectl decodes any object with an ``items`` member as a list (``null`` counts as
    no items): each item must be an object (``null`` counts as ``{}``), and an item with
    neither ``kind`` nor ``apiVersion`` takes the list's ``apiVersion`` and its kind
    without ``List``.

    >>> list_items({"apiVersion": "v1", "kind": "PodList", "items": [{"a": 1}]})
    [{'a': 1, 'apiVersion': 'v1', 'kind': 'Pod'}]
    """
    items = [] if value["items"] is None else value["items"]
    if not isinstance(items, list):
        raise ProblemError(Unmarshal(_go_value_type(items), "[]json.RawMessage",
                                     "decodeList.items"),
                           hint="an object with an items member is read as a list by kubectl")
    kind = own if isinstance(own := value.get("kind"), str) else ""
    version = own if isinstance(own := value.get("apiVersion"), str) else ""
    out = []
    for item in items:
        item = {} if item is None else item
        if not isinstance(item, dict):
            raise ProblemError(Unmarshal(_go_value_type(item), "map[string]interface {}"),
                               hint="each element of items must be an object")
        own_kind, own_version = item.get("kind"), item.get("apiVersion")
        if not (isinstance(own_kind, str) and own_kind) and not (
                isinstance(own_version, str) and own_version):
            item = {**item, "apiVersion": version, "kind": kind.removesuffix("List")}
        out.append(item)
    return out


# --- the object file ----------------------------------------------------------------------


def multi_document(source: str) -> KubeError:
    return KubeError(
        f"{source} holds more than one object; the tester patches one object at a time",
        code=MULTIPLE_DOCUMENTS,
        hint="kubectl patches and prints each object in turn, and so does `cfgpatch kube "
        "patch`; here, give one object",
    )


def object_from_documents(values: list, source: str, raw: str | None = None,
                          owned: bool = False, normal: bool = False) -> dict:
    """The one object kubectl would patch from the decoded documents of file ``source``.

    ``raw``: the JSON text of the one document when the file is JSON (kubectl quotes it
    as written in some errors, and checks its fields in the order written); for YAML,
    kubectl works on the JSON it converts the YAML to (compact, keys sorted).
    ``owned``: the values are fresh trees sharing nothing (no YAML aliases), so one
    :func:`already_normal` is used as it is, not copied; ``normal``: the reader knows
    they are fresh and already normal (nothing to walk).
    """
    values = [v for v in values if v is not None]
    listed = any(isinstance(v, dict) and "items" in v for v in values)
    values = [item for v in values for item in _flatten(v, source, raw, owned, normal)]
    if not values:
        raise no_objects(f"{source} holds no object")
    if len(values) > 1:
        raise multi_document(source)
    return _one_object(values[0], source, raw, owned, normal, listed)


def objects_of_document(value: Any, source: str, raw: str | None = None
                        ) -> Iterator[dict | KubeError]:
    """Each object kubectl patches from one decoded document of a file of several: the
    document, or each item of a list (none for an empty list), in turn; in the place of
    an object its error (kubectl goes on with the next item).  A list that cannot be
    read is one error."""
    listed = isinstance(value, dict) and "items" in value
    try:
        items = _flatten(value, source, raw)
    except KubeError as err:
        yield err
        return
    for item in items:
        try:
            yield _one_object(item, source, raw, False, False, listed)
        except KubeError as err:
            yield err


def _one_object(value: Any, source: str, raw: str | None, owned: bool, normal: bool,
                listed: bool) -> dict:
    if not isinstance(value, dict):
        kind = "array" if isinstance(value, list) else go_kind(value)
        raise ProblemError(Decoding(source, Unmarshal(kind, "unstructured.detector")),
                           hint="the file must hold one Kubernetes object (a mapping)")
    value = _normalized(value, source, owned, normal)
    if listed:
        _check_item(value)
        return value
    if not has_kind(value):
        raise _missing_kind(source, value, raw)
    check_metadata(value, source, ordered=raw is not None)
    return value


def _missing_kind(source: str, value: Any, raw: str | None) -> KubeError:
    text = raw if raw is not None else encode(value)
    api_version = value.get("apiVersion") if isinstance(value, dict) else None
    hint = ("every Kubernetes object needs apiVersion and kind" if group_version_ok(api_version)
            else f"apiVersion {api_version!r} is not group/version: kubectl cannot split it "
                 "and so sees no kind")
    return ProblemError(Decoding(source, MissingKind(text)), hint=hint)


def _check_item(item: dict) -> None:
    """kubectl's check of each item of a list: a kind and an apiVersion (not the typed
    metadata check the object file itself goes through)."""
    if not has_kind(item):
        raise ProblemError(NoTypeInfo("kind"), code=KUBECTL_UNPREFIXED,
                           hint="this item of the list has no kind (or an apiVersion that is "
                                "not group/version), and the list gives it none")
    version = item.get("apiVersion")
    if not isinstance(version, str) or not version:
        raise ProblemError(NoTypeInfo("apiVersion"), code=KUBECTL_UNPREFIXED,
                           hint="this item of the list has no apiVersion, and the list gives "
                                "it none")


def _normalized(value: Any, source: str, owned: bool = False, normal: bool = False) -> Any:
    if normal or owned and already_normal(value):
        return value
    try:
        return normalize(value)
    except KubeError as err:
        raise _decoding(source, err) from None


def _decoding(source: str, err: KubeError) -> KubeError:
    """``err`` as met in decoding the file ``source``."""
    cause = err.problem if isinstance(err, ProblemError) else err.message
    return ProblemError(Decoding(source, cause), hint=err.hint)


def _flatten(value: Any, source: str, raw: str | None = None, owned: bool = False,
             normal: bool = False) -> list:
    """kubectl reads an object with ``items`` as a list and patches each item."""
    if not isinstance(value, dict) or "items" not in value:
        return [value]
    value = _normalized(value, source, owned, normal)
    try:
        items = list_items(value)
    except KubeError as err:
        raise _decoding(source, err) from None
    if not has_kind(value):
        raise _missing_kind(source, value, raw)
    check_metadata(value, source, ordered=raw is not None)
    return items


def no_objects(hint: str) -> ProblemError:
    """kubectl's error for an input that holds no object (``problem``: :data:`NO_OBJECTS`)."""
    return ProblemError(NO_OBJECTS, hint=hint)
