"""What the patch tester page calls inside Pyodide: texts in, JSON-ready results out.

The page hands over the two editor texts; :func:`compute` reads them exactly as
the ``cfgpatch kube patch`` command line does (:mod:`cfgpatch.kube.io.reader`: JSON or
YAML the way kubectl reads ``-f`` and ``-p``), runs the Kubernetes patch engine
(:func:`cfgpatch.kube.patch`) once for each of ``strategic``, ``merge`` and
``json``, and returns one plain dictionary:

* ``results``: per type, ``{"ok": True, "object", "changes", "findings"}`` or
  ``{"ok": False, "error", "findings"}``, exactly what ``window.cfgpatch.results()``
  gives to scripts (changes and findings in their ``to_dict()`` form);
* ``views``: per type, what the page draws: the result as indented JSON lines that
  know their pointer, the pointers where this type's result differs from another
  type's, the ``kubectl patch`` command lines, and for
  ``strategic`` and ``merge`` the JSON Patch that gives the same result;
* ``inputs``: ``None`` per input that could be read, else the error naming what and
  where (the patch counts as unreadable when no type can read it).

:func:`compute_json` returns the same as JSON text, so the page needs no proxies.
Nothing here raises: bad input becomes an error entry, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import CfgPatchError
from ..jsonvalue import JSON
from . import command, render
from .inputs import InputReader

TYPES = ("strategic", "merge", "json")


def _as_dict(item: Any) -> Any:
    to_dict = getattr(item, "to_dict", None)
    return to_dict() if callable(to_dict) else item


def _failure(exc: CfgPatchError) -> tuple[dict, dict]:
    findings = list(getattr(exc, "findings", None) or ())
    result = {"ok": False, "error": exc.describe(), "findings": [_as_dict(f) for f in findings]}
    view = {"error_detail": exc.to_dict()}
    return result, view


#: What the previous recompute read: an edit of one input does not re-read the other,
#: and typing inside one YAML value does not re-parse the whole object (see ``inputs``).
READER = InputReader()


def run_type(obj: JSON, object_notes: list, patch_text: str, patch_type: str) -> tuple[dict, dict]:
    """Read the patch for one type and run the engine: (the hook's result, the page's view)."""
    from .. import kube

    try:
        patch, patch_notes = READER.patch(patch_text, patch_type)
    except CfgPatchError as exc:
        result, view = _failure(exc)
        view["unreadable"] = True
        return result, view
    view: dict[str, Any] = {
        "command": command.kubectl_patch(obj, patch, patch_type),
        "dry_run": command.kubectl_patch(obj, patch, patch_type, dry_run=True),
    }
    try:
        outcome = kube.patch(obj, patch, patch_type, notes=object_notes,
                              patch_notes=patch_notes)
    except CfgPatchError as exc:
        result, extra = _failure(exc)
        return result, {**view, **extra}
    result = {
        "ok": True,
        "object": outcome.object,
        "changes": [_as_dict(c) for c in outcome.changes],
        "findings": [_as_dict(f) for f in outcome.findings],
    }
    if patch_type != "json":
        view.update(_json_equivalent(obj, outcome.object))
    view["lines"] = render.render_lines(outcome.object)
    return result, view


def _json_equivalent(obj: JSON, result: JSON) -> dict:
    """The JSON Patch that turns ``obj`` into ``result`` (cfgpatch's own diff), as
    operations and as a ``kubectl patch --type=json`` command; nothing when equal."""
    from ..diff import diff

    try:
        ops = diff(obj, result)
    except CfgPatchError:
        return {}
    if not ops:
        return {}
    return {"json_ops": ops, "json_command": command.kubectl_patch(obj, ops, "json")}


def compute(object_text: str, patch_text: str) -> dict:
    """Everything the page shows for one pair of inputs (see the module docstring)."""

    inputs: dict[str, Any] = {"object": None, "patch": None}
    results: dict[str, dict] = {}
    views: dict[str, dict] = {}
    try:
        obj, object_notes = READER.object(object_text)
    except CfgPatchError as exc:
        inputs["object"] = exc.to_dict()
        for patch_type in TYPES:
            results[patch_type], views[patch_type] = _failure(exc)
            results[patch_type]["error"] = f"the object cannot be read: {exc.describe()}"
            views[patch_type]["differs"], views[patch_type]["same_as"] = [], []
        return {"inputs": inputs, "results": results, "views": views}
    for patch_type in TYPES:
        results[patch_type], views[patch_type] = _guarded(
            obj, list(object_notes), patch_text, patch_type
        )
    if all(views[t].get("unreadable") for t in TYPES):
        inputs["patch"] = views[TYPES[0]]["error_detail"]
    _mark_differences(results, views)
    return {"inputs": inputs, "results": results, "views": views}


def _guarded(obj: JSON, notes: list, patch_text: str, patch_type: str) -> tuple[dict, dict]:
    """:func:`run_type`, turning an unexpected failure into an error entry."""
    try:
        return run_type(obj, notes, patch_text, patch_type)
    except Exception as exc:  # an engine bug must not take the page down
        message = f"internal error in the {patch_type} engine: {type(exc).__name__}: {exc}"
        return {"ok": False, "error": message, "findings": []}, {}


def _mark_differences(results: dict, views: dict) -> None:
    """Per type, the pointers where its result differs from another type's result,
    and the types whose result is the same."""
    done = [t for t in TYPES if results[t]["ok"]]
    pairs = {
        (a, b): render.differing_paths(results[a]["object"], results[b]["object"])
        for i, a in enumerate(done)
        for b in done[i + 1 :]
    }
    for patch_type in TYPES:
        differs: list[str] = []
        same_as: list[str] = []
        for other in done:
            if other == patch_type or patch_type not in done:
                continue
            found = pairs.get((patch_type, other)) or pairs.get((other, patch_type)) or []
            differs += [pointer for pointer in found if pointer not in differs]
            if not found:
                same_as.append(other)
        views[patch_type]["differs"] = differs
        views[patch_type]["same_as"] = same_as


def compute_json(object_text: str, patch_text: str) -> str:
    """:func:`compute` as JSON text (what the page's JavaScript receives)."""
    try:
        data = compute(object_text, patch_text)
    except Exception as exc:  # a bug outside the per-type guard: report it, keep the page
        message = f"internal error: {type(exc).__name__}: {exc}"
        empty = {"differs": [], "same_as": []}
        data = {
            "inputs": {"object": None, "patch": None},
            "results": {t: {"ok": False, "error": message, "findings": []} for t in TYPES},
            "views": {t: dict(empty) for t in TYPES},
        }
    return json.dumps(data, ensure_ascii=False)
