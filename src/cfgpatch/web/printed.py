"""A result as ``kubectl patch -o yaml|json`` prints it, line by line, each line knowing
the JSON Pointers it shows.

The page shows results in kubectl's own text and marks lines (changed, flagged,
different under another type), so it needs, for every printed line, the places in the
object the line belongs to.  :func:`printed_lines` returns ``(text, pointers)`` pairs
whose texts joined with newlines are exactly
:func:`cfgpatch.kube.io.writer.dump` (``tests/test_web_printed.py`` holds every output
to that, on generated objects); ``pointers`` holds the value a line starts (a key's
value, a list element) and, for a line such as ``- name: app``, the element too.

``json`` is Go's ``json.MarshalIndent`` with four spaces (:mod:`cfgpatch.kube.go.json`
prints each scalar); ``yaml`` is :mod:`cfgpatch.kube.io.yamlprint`, a direct port of the
emitter layout ``kube.io.writer`` configures (several times faster than PyYAML's event machinery,
which the page would pay three times per edit).  An object the port does not cover (a
key of 128 characters or more, or one with a line break: PyYAML writes it as a complex
``?`` key) is printed by ``writer.dump`` itself, and its lines get the pointer of the
whole object.
"""

from __future__ import annotations

import re
from typing import Any

from ..jsonvalue import escape
from ..kube.go import json as gojson
from ..kube.io import writer, yamlprint
from ..kube.io.unstructured import too_deep

Line = tuple[str, tuple[str, ...]]


@too_deep
def printed_lines(obj: Any, fmt: str, managed_fields: bool = False) -> list[Line]:
    """``(text, pointers)`` for each line of kubectl's ``-o fmt`` text of ``obj``
    (``metadata.managedFields`` left out unless ``managed_fields``, as
    ``--show-managed-fields`` keeps them).

    >>> printed_lines({"kind": "K", "data": {"a": "1"}}, "yaml")
    [('data:', ('/data',)), ('  a: "1"', ('/data/a',)), ('kind: K', ('/kind',))]
    >>> [text for text, _ in printed_lines({"kind": "K", "list": []}, "json")]
    ['{', '    "kind": "K",', '    "list": []', '}']
    """
    if not managed_fields:
        obj = _without_managed_fields(obj)
    if fmt == "json":
        return _json_lines(obj)
    if fmt == "yaml" and isinstance(obj, dict):
        try:
            return yamlprint.lines(obj)
        except yamlprint.NotCovered:
            pass
    texts = writer.dump(obj, fmt, managed_fields=True).split("\n")
    if texts[-1] == "":
        texts.pop()  # after the final newline (kept if the text ends inside a line)
    return [(line, ("",)) for line in texts]


def printed_text(lines: list[Line]) -> str:
    """The text of :func:`printed_lines` (what kubectl prints, final newline included)."""
    return "".join(text + "\n" for text, _ in lines)


def _without_managed_fields(obj: Any) -> Any:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if isinstance(meta, dict) and "managedFields" in meta:
        return {**obj, "metadata": {k: v for k, v in meta.items() if k != "managedFields"}}
    return obj


# ------------------------------------------------------------------ -o json

_INDENT = "    "
#: Printable ASCII that Go's encoder writes as it is (it escapes ``"``, ``\\``, ``<>&``).
_JSON_PLAIN = re.compile(r'[ !#-%\'-;=?-\[\]-~]*')


def _json_string(text: str) -> str:
    return f'"{text}"' if _JSON_PLAIN.fullmatch(text) else gojson.encode_string(text)


def _json_lines(obj: Any) -> list[Line]:
    out: list[Line] = []
    _json_value(obj, "", 0, "", "", out)
    return out


def _json_value(value: Any, pointer: str, level: int, label: str, tail: str,
                out: list[Line]) -> None:
    pad = _INDENT * level
    here = (pointer,)
    if isinstance(value, dict) and value:
        out.append((f"{pad}{label}{{", here))
        items = sorted(value.items())
        last = len(items) - 1
        for i, (key, child) in enumerate(items):
            _json_value(child, f"{pointer}/{escape(key)}", level + 1,
                        _json_string(key) + ": ", "," if i < last else "", out)
        out.append((f"{pad}}}{tail}", here))
    elif isinstance(value, list) and value:
        out.append((f"{pad}{label}[", here))
        last = len(value) - 1
        for i, child in enumerate(value):
            _json_value(child, f"{pointer}/{i}", level + 1, "", "," if i < last else "", out)
        out.append((f"{pad}]{tail}", here))
    else:
        text = _json_string(value) if type(value) is str else gojson.encode(value)
        out.append((f"{pad}{label}{text}{tail}", here))
