"""What the patch tester page calls inside Pyodide: texts in, JSON-ready results out.

The page hands over the two editor texts; :func:`compute` reads them exactly as
the ``cfgpatch kube patch`` command line does (:mod:`cfgpatch.kube.io.reader`: JSON or
YAML the way kubectl reads ``-f`` and ``-p``), runs the Kubernetes patch engine
(:func:`cfgpatch.kube.patch`) once for each of ``strategic``, ``merge`` and
``json``, and returns one plain dictionary:

* ``results``: per type, ``{"ok": True, "object", "changes", "findings"}`` or
  ``{"ok": False, "error", "findings"}``, exactly what ``window.cfgpatch.results()``
  gives to scripts (changes and findings in their ``to_dict()`` form);
* ``views``: per type, everything the page draws, in words and lines made here:
  the verdict; the result as kubectl prints it (``-o yaml`` or ``-o json``, the
  ``format`` option) as ``[text, mark, differs]`` lines (:mod:`.render`); "What
  changed" (:mod:`.wording`); the findings with the line each is about and, for a
  type note, where it is in the editor; for a rejected patch our words and
  kubectl's, and for a JSON Patch the failing operation and its place in the patch
  text; the ``kubectl patch`` command lines, and for ``strategic`` and ``merge`` the
  JSON Patch that gives the same result; with the ``diff`` option the before/after
  lines;
* ``inputs``: ``None`` per input that could be read, else where and why it cannot
  (:func:`.locate.input_error`; the patch counts as unreadable when no type can read it);
* ``kustomize`` (with the ``kustomize`` option): what kustomize's strategic merge
  makes of the same patch, through the engine's ``as_="kustomize"`` view.

:func:`compute_json` takes the options as JSON text and returns the same as JSON text,
so the page needs no proxies.  Nothing here raises: bad input becomes an error entry,
never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import CfgPatchError
from ..jsonvalue import JSON
from ..kube.io.unstructured import no_objects
from . import command, crdinput, listrules, locate, rejections, render, several, wording
from .inputs import InputReader
from .printed import printed_lines
from .versions import versions_view

TYPES = ("strategic", "merge", "json")
FORMATS = ("yaml", "json")

#: What the previous recompute read: an edit of one input does not re-read the other,
#: and typing inside one YAML value does not re-parse the whole object (see ``inputs``).
READER = InputReader()
#: The object's own printed lines, for the before/after view: (text, format, lines).
_BEFORE: list[Any] = [None, None, None]


def _as_dict(item: Any) -> Any:
    to_dict = getattr(item, "to_dict", None)
    return to_dict() if callable(to_dict) else item


class _Inputs:
    """One recompute's texts, the object read from the first, and the options."""

    def __init__(self, object_text: str, patch_text: str, options: dict) -> None:
        self.object_text, self.patch_text = object_text, patch_text
        self.format = options.get("format") if options.get("format") in FORMATS else "yaml"
        self.diff = bool(options.get("diff"))
        self.kustomize = bool(options.get("kustomize"))
        crd = options.get("crd")
        self.crd_text = crd if isinstance(crd, str) else ""
        self.crd: dict | None = None  # the CRD field's (kube patch --crd), when readable
        self.obj: JSON = None
        self.notes: list = []


def _failure(exc: CfgPatchError, patch: Any = None, patch_type: str = "",
             inputs: _Inputs | None = None) -> tuple[dict, dict]:
    findings = list(getattr(exc, "findings", None) or ())
    result = {"ok": False, "error": exc.describe(), "findings": [_as_dict(f) for f in findings]}
    index, state = (_failing_op(inputs.obj, patch) if patch_type == "json" and inputs
                    else (None, None))
    op = patch[index] if index is not None else None
    count = len(patch) if isinstance(patch, list) else 0
    error = rejections.rejection(exc.message, exc.hint, index, op, count,
                              past_end=rejections.past_end(state, op))
    if index is not None and inputs is not None:
        error["op_index"] = index
        error["place"] = locate.place(inputs.patch_text, f"/{index}")
    view = {"verdict": wording.verdict(result), "error": error, "error_detail": exc.to_dict(),
            "findings": [_finding_view(f, None, inputs) for f in findings]}
    return result, view


def _failing_op(obj: JSON, ops: Any) -> tuple[int | None, JSON]:
    """The index of the operation kubectl's JSON Patch fails on, applying one at a time,
    and the object as that operation found it (``(None, None)`` when that does not
    reproduce the failure)."""
    from ..kube.engine import jsonpatch

    if not isinstance(ops, list) or not isinstance(obj, dict):
        return None, None
    state = obj
    for index, op in enumerate(ops):
        try:
            state = jsonpatch.apply(state, [op])
        except CfgPatchError:
            return index, state
    return None, None


def _finding_view(finding: Any, lines: list | None, inputs: _Inputs | None) -> dict:
    out = _as_dict(finding)
    if lines is not None:
        out["line"] = render.finding_line(lines, finding.path)
    source = finding.detail.get("source") if finding.code == "yaml-type-change" else None
    if source in ("object", "patch") and inputs is not None:
        text = inputs.object_text if source == "object" else inputs.patch_text
        out["place"] = locate.place(text, finding.path)
        out["editor"] = source
    return out


def run_type(inputs: _Inputs, patch_type: str) -> tuple[dict, dict, Any]:
    """Read the patch for one type and run the engine: (result, view, KubeResult|None)."""
    from .. import kube

    obj = inputs.obj
    try:
        patch, patch_notes = READER.patch(inputs.patch_text, patch_type)
    except CfgPatchError as exc:
        result, failed = _failure(exc)
        failed["unreadable"] = True
        return result, failed, None
    view: dict[str, Any] = {
        "command": command.kubectl_patch(obj, patch, patch_type),
        "dry_run": command.kubectl_patch(obj, patch, patch_type, dry_run=True),
        "versions": versions_view(obj, patch, patch_type),
    }
    try:
        outcome = kube.patch(obj, patch, patch_type, crd=inputs.crd, notes=list(inputs.notes),
                             patch_notes=patch_notes)
    except CfgPatchError as exc:
        result, extra = _failure(exc, patch, patch_type, inputs)
        return result, {**view, **extra}, None
    result = {
        "ok": True,
        "object": outcome.object,
        "changes": [_as_dict(c) for c in outcome.changes],
        "findings": [_as_dict(f) for f in outcome.findings],
    }
    if patch_type != "json":
        view.update(_json_equivalent(obj, outcome.object))
    view["verdict"] = wording.verdict(result, outcome.changes)
    view["losses"] = wording.losses(outcome.changes)
    view["changes"] = wording.change_entries(outcome.changes, patch_type)
    return result, view, outcome


def _json_equivalent(obj: JSON, result: JSON) -> dict:
    """The JSON Patch that turns ``obj`` into ``result`` (cfgpatch's own diff), as
    operations and as a ``kubectl patch --type=json`` command; nothing when equal."""
    from ..diffing import diff

    try:
        ops = diff(obj, result)
    except CfgPatchError:
        return {}
    if not ops:
        return {}
    return {"json_ops": ops, "json_command": command.kubectl_patch(obj, ops, "json")}


def compute(object_text: str, patch_text: str, options: dict | None = None) -> dict:
    """Everything the page shows for one pair of inputs (see the module docstring)."""
    inputs = _Inputs(object_text, patch_text, options or {})
    data: dict[str, Any] = {"format": inputs.format, "inputs": {"object": None, "patch": None},
                            "results": {}, "views": {}}
    results, views = data["results"], data["views"]
    inputs.crd, crd_error = crdinput.read_crd(inputs.crd_text)
    if crd_error is not None:
        data["inputs"]["crd"] = locate.input_error(inputs.crd_text, crd_error)
    try:
        if several.several(object_text):
            return _compute_several(inputs, data)
        inputs.obj, inputs.notes = READER.object(object_text)
    except CfgPatchError as exc:
        data["inputs"]["object"] = locate.input_error(object_text, exc)
        for patch_type in TYPES:
            results[patch_type], views[patch_type] = _failure(exc)
            results[patch_type]["error"] = f"the object cannot be read: {exc.describe()}"
            views[patch_type]["error"]["plain"] = ("The object cannot be read: "
                                                   + data["inputs"]["object"]["plain"])
            views[patch_type]["differs"], views[patch_type]["same_as"] = [], []
        return data
    outcomes = {}
    for patch_type in TYPES:
        results[patch_type], views[patch_type], outcomes[patch_type] = _guarded(inputs, patch_type)
    if all(views[t].get("unreadable") for t in TYPES):
        unreadable = _patch_error(inputs.patch_text)
        if unreadable is not None:
            data["inputs"]["patch"] = locate.input_error(patch_text, unreadable)
    _mark_differences(results, views)
    _draw(inputs, outcomes, views)
    if inputs.kustomize:
        data["kustomize"] = _kustomize(inputs, outcomes.get("strategic"))
    data["lists"] = listrules.list_fields(object_text, inputs.obj)
    return data


def _compute_several(inputs: _Inputs, data: dict) -> dict:
    """Several objects in the object editor: each is patched, as kubectl does
    (:mod:`.several`); an object that cannot be read is the object editor's error."""
    objects, error = several.read_objects(inputs.object_text)
    if error is not None or not objects:
        raise error or no_objects("the object editor holds no object")
    for patch_type in TYPES:
        data["results"][patch_type], data["views"][patch_type] = several.compute_type(
            inputs, objects, patch_type, _guarded)
    if all(data["views"][t].get("unreadable") for t in TYPES):
        unreadable = _patch_error(inputs.patch_text)
        if unreadable is not None:
            data["inputs"]["patch"] = locate.input_error(inputs.patch_text, unreadable)
    _mark_same(data["results"], data["views"])
    return data


def _mark_same(results: dict, views: dict) -> None:
    """Several objects: which types give the same objects (the columns' ``same_as``)."""
    from ..jsonvalue import equal

    done = [t for t in TYPES if results[t]["ok"]]
    for patch_type in done:
        views[patch_type]["same_as"] = [
            other for other in done if other != patch_type
            and equal(results[other]["objects"], results[patch_type]["objects"])]


def _patch_error(patch_text: str) -> CfgPatchError | None:
    """The error reading the patch for ``strategic`` (every type failed to read it)."""
    try:
        READER.patch(patch_text, "strategic")
    except CfgPatchError as exc:
        return exc
    return None


def _guarded(inputs: _Inputs, patch_type: str) -> tuple[dict, dict, Any]:
    """:func:`run_type`, turning an unexpected failure into an error entry."""
    try:
        return run_type(inputs, patch_type)
    except Exception as exc:  # an engine bug must not take the page down
        message = f"internal error in the {patch_type} engine: {type(exc).__name__}: {exc}"
        error = {"plain": message, "kubectl": ""}
        return ({"ok": False, "error": message, "findings": []},
                {"error": error, "verdict": message, "findings": []}, None)


def _draw(inputs: _Inputs, outcomes: dict, views: dict) -> None:
    """The printed, marked lines of each accepted type (one print per distinct result)."""
    printed: dict[int, list] = {}
    for patch_type in TYPES:
        outcome = outcomes.get(patch_type)
        view = views[patch_type]
        if outcome is None:
            view.setdefault("findings", [])
            continue
        same = next((other for other in view["same_as"] if id(outcomes[other]) in printed), None)
        if same is not None:
            lines = printed[id(outcomes[same])]
        else:
            try:
                lines = printed_lines(outcome.object, inputs.format)
            except CfgPatchError as exc:  # kubectl cannot print it either (-o yaml)
                view["print_error"] = rejections.rejection(exc.message, exc.hint)
                lines = []
        printed[id(outcome)] = lines
        view["lines"] = render.marked_lines(lines, outcome.changes, outcome.findings,
                                            view["differs"])
        view["findings"] = [_finding_view(f, lines, inputs) for f in outcome.findings]
        if inputs.diff:
            view["before_after"] = render.before_after(_object_lines(inputs), lines)


def _object_lines(inputs: _Inputs) -> list:
    """kubectl's text of the object itself (kept while the object text is the same)."""
    if _BEFORE[0] != inputs.object_text or _BEFORE[1] != inputs.format:
        try:
            lines = printed_lines(inputs.obj, inputs.format)
        except CfgPatchError:
            lines = []
        _BEFORE[:] = [inputs.object_text, inputs.format, lines]
    return _BEFORE[2]


def _kustomize(inputs: _Inputs, kubectl_outcome: Any) -> dict:
    """kustomize's strategic merge of the same patch (``kube.patch(..., as_="kustomize")``)."""
    from .. import kube

    try:
        patch, patch_notes = READER.patch(inputs.patch_text, "strategic")
        if crdinput.defines(inputs.crd, inputs.obj):
            return _kustomize_openapi(inputs, patch, kubectl_outcome)
        outcome = kube.patch(inputs.obj, patch, "strategic", as_="kustomize")
    except CfgPatchError as exc:
        return {"ok": False, "error": rejections.rejection(exc.message, exc.hint),
                "findings": [_as_dict(f) for f in getattr(exc, "findings", None) or ()]}
    except Exception as exc:  # noqa: BLE001 - the view must not take the page down
        return {"ok": False, "error": {"plain": f"internal error in the kustomize view: "
                                                f"{type(exc).__name__}: {exc}", "kubectl": ""},
                "findings": []}
    differs = (render.differing_paths(kubectl_outcome.object, outcome.object)
               if kubectl_outcome is not None else [])
    try:
        lines = printed_lines(outcome.object, inputs.format)
    except CfgPatchError:
        lines = []
    return {"ok": True, "object": outcome.object, "differs": differs,
            "same_as_kubectl": kubectl_outcome is not None and not differs,
            "lines": render.marked_lines(lines, outcome.changes, [], differs),
            "changes": wording.change_entries(outcome.changes),
            "findings": [_finding_view(f, lines, None) for f in outcome.findings]}


def _kustomize_openapi(inputs: _Inputs, patch: Any, kubectl_outcome: Any) -> dict:
    """kustomize's merge with the CRD's schemas as its ``openapi:`` document."""
    from ..kube.explain.changes import compute_changes

    assert inputs.crd is not None
    result = crdinput.kustomize_view(inputs.obj, patch, inputs.crd)
    differs = (render.differing_paths(kubectl_outcome.object, result)
               if kubectl_outcome is not None else [])
    changes = compute_changes(inputs.obj, result, mode="merge")
    try:
        lines = printed_lines(result, inputs.format)
    except CfgPatchError:
        lines = []
    return {"ok": True, "object": result, "differs": differs,
            "same_as_kubectl": kubectl_outcome is not None and not differs,
            "lines": render.marked_lines(lines, changes, [], differs),
            "changes": wording.change_entries(changes), "findings": [],
            "openapi_note": crdinput.openapi_note(inputs.crd)}


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


def compute_json(object_text: str, patch_text: str, options_text: str = "{}") -> str:
    """:func:`compute` as JSON text (what the page's JavaScript receives)."""
    try:
        options = json.loads(options_text)
        data = compute(object_text, patch_text, options if isinstance(options, dict) else {})
    except Exception as exc:  # a bug outside the per-type guard: report it, keep the page
        message = f"internal error: {type(exc).__name__}: {exc}"
        empty = {"differs": [], "same_as": [], "findings": [], "verdict": message,
                 "error": {"plain": message, "kubectl": ""}}
        data = {
            "format": "yaml",
            "inputs": {"object": None, "patch": None},
            "results": {t: {"ok": False, "error": message, "findings": []} for t in TYPES},
            "views": {t: dict(empty) for t in TYPES},
        }
    return json.dumps(data, ensure_ascii=False)


# ---- the apply mode (live object + new manifest [+ last applied] -> patch, result, notes)
from .applymode import apply_json, compute_apply  # noqa: E402,F401  (the worker calls these)
from .ssamode import compute_server_side, server_side_json  # noqa: E402,F401  (server-side)

# ---- the write-the-patch mode (object as it is + object as wanted -> three patches)
from .wantmode import compute_want, want_json  # noqa: E402,F401  (the worker calls these)


def lint_json(files_json: str, options_json: str = "{}") -> str:
    """The lint mode's call (:func:`cfgpatch.web.lintmode.lint_json`), imported on first use:
    the patch mode's first result does not wait for the linter to load."""
    try:
        from .lintmode import lint_json as lint
    except ImportError as exc:  # the worker unpacks the archives and asks again
        return json.dumps({"ok": False, "internal": f"internal error: {type(exc).__name__}: {exc}"})
    return lint(files_json, options_json)
