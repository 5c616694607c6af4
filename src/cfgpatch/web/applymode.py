"""The page's apply mode: what client-side ``kubectl apply`` would do, in the browser.

:func:`compute_apply` takes the three editor texts (the live object, the new manifest,
and optionally the last applied configuration: empty means "take it from the live
object's annotation", as ``kubectl apply`` does) and runs what ``cfgpatch kube apply``
runs (:func:`cfgpatch.kube.engine.clientapply.kubectl_apply` and
:func:`cfgpatch.kube.explain.apply.explain_three_way`).  It returns one plain
dictionary:

* ``inputs``: per editor (``live``, ``manifest``, ``last``), ``None`` or where and why it
  cannot be read (:func:`.locate.input_error`);
* ``ok`` and, when the apply fails as kubectl would, ``error`` (our words and
  kubectl's, :func:`.rejections.rejection`);
* ``line``: kubectl's own line (``deployment.apps/web configured``); ``warning``:
  kubectl's warning on standard error, or ``""``;
* ``patch``: ``{"type", "content_type", "text", "note"}``: the PATCH body byte for byte
  (``None`` when nothing is sent) and a sentence saying what is sent;
* ``result`` (the object, for scripts) and ``lines``: the result as kubectl prints it
  (``-o yaml`` or ``-o json``, the ``format`` option) as ``[text, mark, 0]`` lines, a
  line marked ``~`` when kubectl's text of the live object does not have it there (a
  line diff of the two texts);
* ``notes``: the explanation, ``{"code", "path", "text"}`` each, ``text`` being the line
  ``cfgpatch kube apply`` prints (:meth:`ApplyNote.describe`).

:func:`apply_json` is the same with JSON text in and out (what the worker calls).
Nothing here raises.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import CfgPatchError, KubeError
from . import applyexplain, locate, rejections, render
from .printed import printed_lines

EDITORS = ("live", "manifest", "last")
FORMATS = ("yaml", "json")
#: What the page says when kubectl sends no patch.
UNCHANGED_NOTE = "The patch is {}: kubectl sends nothing and says \u201cunchanged\u201d."
CREATED_NOTE = "No live object: kubectl creates the object as it is below (no patch)."


def _read(text: str, name: str) -> dict:
    from ..kube.io import reader

    obj, _notes = reader.load_object(text, name)
    return obj


def _kind_schema(obj: dict) -> Any:
    from ..kube.schema.node import builtin_schema

    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    return builtin_schema().for_kind(api_version, kind)


def _namespace(obj: dict, namespace: str) -> str | None:
    from ..kube.schema.scope import is_cluster_scoped

    if is_cluster_scoped(str(obj.get("apiVersion")), str(obj.get("kind"))):
        return None
    return namespace


def resource_name(obj: dict) -> str:
    """kubectl's ``<kind>.<group>/<name>`` (as ``cfgpatch kube apply`` prints it)."""
    api_version = obj.get("apiVersion")
    group = api_version.rsplit("/", 1)[0] if isinstance(api_version, str) and \
        "/" in api_version else ""
    kind = str(obj.get("kind", "")).lower()
    metadata = obj.get("metadata")
    name = metadata.get("name") if isinstance(metadata, dict) else None
    if not isinstance(name, str) or not name:
        name = "<unknown>"
    return f"{kind}.{group}/{name}" if group else f"{kind}/{name}"


def compute_apply(live_text: str, manifest_text: str, last_text: str = "",
                  options: dict | None = None) -> dict:
    """Everything the apply mode shows for its three inputs (module docstring)."""
    from ..kube.engine.clientapply import (
        CONTENT_TYPES,
        has_annotation,
        kubectl_apply,
        missing_annotation_warning,
    )
    from ..kube.explain.apply import explain_three_way

    options = options or {}
    fmt = options.get("format")
    if fmt not in FORMATS or not isinstance(fmt, str):
        fmt = "yaml"
    overwrite = options.get("overwrite") is not False
    namespace = options.get("namespace")
    if not isinstance(namespace, str) or not namespace:
        namespace = "default"
    data: dict[str, Any] = {"mode": "apply", "format": fmt, "ok": False,
                            "inputs": {name: None for name in EDITORS}}
    texts = {"live": live_text, "manifest": manifest_text, "last": last_text}
    objects: dict[str, Any] = {}
    for name in EDITORS:
        text = texts[name]
        if name != "manifest" and not text.strip():
            objects[name] = None  # no live object / take last-applied from the annotation
            continue
        try:
            objects[name] = _read(text, name)
        except CfgPatchError as exc:
            data["inputs"][name] = locate.input_error(text, exc)
    unreadable = [name for name in EDITORS if data["inputs"][name]]
    if unreadable:
        data["error"] = {"plain": f"The {_editor_title(unreadable[0])} cannot be read: "
                                  f"{data['inputs'][unreadable[0]]['plain']}", "kubectl": ""}
        return data
    manifest, live = objects["manifest"], objects["live"]
    last: Any = "annotation" if objects["last"] is None else objects["last"]
    try:
        node = _kind_schema(manifest)
        done = kubectl_apply(manifest, live, node, namespace=_namespace(manifest, namespace),
                             last_applied=last, overwrite=overwrite)
        notes = explain_three_way(done.original, done.modified, done.current, done.result,
                                  node)
        lines = printed_lines(done.result, fmt)
    except KubeError as exc:
        data["error"] = rejections.rejection(exc.message, exc.hint)
        return data
    except CfgPatchError as exc:
        data["error"] = {"plain": exc.message, "kubectl": f"error: {exc.message}"}
        return data
    verb = "created" if done.current is None else "unchanged" if done.unchanged \
        else "configured"
    data.update(ok=True, line=f"{resource_name(done.result)} {verb}", result=done.result)
    data["warning"] = (missing_annotation_warning(done.current).rstrip("\n")
                       if last == "annotation" and done.current is not None
                       and not has_annotation(done.current) else "")
    data["patch"] = {"type": done.patch_type, "content_type": CONTENT_TYPES[done.patch_type],
                     "text": None if done.patch is None or done.unchanged else done.patch_text,
                     "note": CREATED_NOTE if done.patch is None else
                     UNCHANGED_NOTE if done.unchanged else
                     f"kubectl sends this body with Content-Type "
                     f"{CONTENT_TYPES[done.patch_type]}."}
    data["lines"] = _marked_against(done.current, lines, fmt)
    data["notes"] = [{"code": note.code, "path": note.path, "text": note.describe()}
                     for note in notes]
    sent = None if done.patch is None or done.unchanged else done.patch
    data["consequences"] = applyexplain.consequences(sent, done.current, manifest)
    data["readable"] = applyexplain.readable_patch(sent)
    data["before_after"] = applyexplain.removed_lines(done.current, lines, fmt)
    return data


def _marked_against(live: dict | None, lines: list, fmt: str) -> list:
    """``[text, mark, 0]`` per result line, ``~`` on the lines that are not in kubectl's
    text of the live object (a line diff, so an element that only moves down a list is
    not marked, while a new, changed or moved-up one is)."""
    try:
        before = printed_lines(live, fmt) if live is not None else []
    except CfgPatchError:
        before = []
    signs = [sign for sign, _ in render.before_after(before, lines) if sign != "-"]
    return [[text, render.CHANGED if sign == "+" else "", 0]
            for (text, _), sign in zip(lines, signs, strict=True)]


def _editor_title(name: str) -> str:
    return {"live": "live object", "manifest": "new manifest",
            "last": "last applied configuration"}[name]


def apply_json(live_text: str, manifest_text: str, last_text: str = "",
               options_text: str = "{}") -> str:
    """:func:`compute_apply` as JSON text (what the page's worker receives)."""
    try:
        options = json.loads(options_text)
        data = compute_apply(live_text, manifest_text, last_text,
                             options if isinstance(options, dict) else {})
    except Exception as exc:  # an engine bug must not take the page down
        message = f"internal error: {type(exc).__name__}: {exc}"
        data = {"mode": "apply", "ok": False, "inputs": {name: None for name in EDITORS},
                "error": {"plain": message, "kubectl": ""}}
    return json.dumps(data, ensure_ascii=False)
