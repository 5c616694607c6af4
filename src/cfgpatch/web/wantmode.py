"""The page's "write the patch" mode: the object as it is, the object as wanted, and the
patch of each type that turns one into the other.

* ``strategic``: the two-way strategic merge patch, computed as ``kubectl edit`` does
  (apimachinery's ``CreateTwoWayMergePatch``, :func:`cfgpatch.kube.engine.create.create_two_way`,
  the same as ``cfgpatch kube diff``): keyed lists by their merge key with
  ``$setElementOrder`` and ``$patch: delete``, ``null`` for a removed field.  Kinds
  kubectl has no Go type for (custom resources) have none: kubectl falls back to a
  merge patch;
* ``merge``: the JSON merge patch (RFC 7386, ``createjson.create_merge_patch``): a list
  that changed in any way is written whole;
* ``json``: a JSON Patch (cfgpatch's diff), with a ``test`` operation before every
  operation whose path goes through a list position, checking that the element there is
  still the one meant (its ``name`` or merge key, or its value), so that the patch fails
  instead of changing another element when the list has changed meanwhile.

Each patch is verified by applying it back to the object with the engine
(:func:`cfgpatch.kube.patch`, as ``kubectl patch --local``) and comparing with the wanted
object; the result says whether it holds, and gives the ``kubectl patch`` command line.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import CfgPatchError
from ..jsonvalue import JSON, equal
from . import command, locate

TYPES = ("strategic", "merge", "json")
#: Members kubectl edit refuses to change (its preconditions), and kubectl patch too.
FIXED = (("apiVersion",), ("kind",), ("metadata", "name"))


def want_json(object_text: str, wanted_text: str, options_text: str = "{}") -> str:
    """:func:`compute_want` as JSON text (what the page's worker returns)."""
    try:
        data = compute_want(object_text, wanted_text)
    except Exception as exc:  # noqa: BLE001 - the page reports it, the worker lives on
        data = {"ok": False, "internal": f"internal error: {type(exc).__name__}: {exc}"}
    return json.dumps(data, ensure_ascii=False)


def _read(text: str, which: str) -> tuple[dict | None, dict | None]:
    from ..kube.io import reader

    try:
        obj, _notes = reader.load_object(text)
    except CfgPatchError as exc:
        return None, locate.input_error(text, exc)
    return obj, None


def compute_want(object_text: str, wanted_text: str) -> dict:
    """``{"ok", "inputs", "patches": {type: {...}}, "same", "fixed"}``.

    Each patch: ``{"ok", "patch", "text", "command", "verified", "note"}`` (``text``
    is the patch as one line, as ``kubectl patch -p`` takes it), or ``{"ok": False,
    "plain"}`` when that type cannot express the change."""
    obj, object_error = _read(object_text, "object")
    wanted, wanted_error = _read(wanted_text, "wanted")
    data: dict[str, Any] = {"ok": False, "inputs": {"object": object_error,
                                                    "wanted": wanted_error}}
    if obj is None or wanted is None:
        return data
    fixed = [".".join(path) for path in FIXED if _at(obj, path) != _at(wanted, path)]
    data["fixed"] = fixed
    if fixed:
        data["verdict"] = (f"kubectl edit refuses a change of {', '.join(fixed)}, and "
                           f"kubectl patch changes one object in place: patch the object "
                           f"as it is, or create the wanted one (kubectl apply/create).")
        return data
    data["same"] = equal(obj, wanted)
    data["patches"] = {t: _one(obj, wanted, t) for t in TYPES}
    data["ok"] = True
    data["verdict"] = ("The objects are the same: every patch is empty." if data["same"]
                       else "Three patches, each applied back to the object to check it "
                            "gives the wanted object.")
    return data


def _at(obj: Any, path: tuple) -> Any:
    for part in path:
        obj = obj.get(part) if isinstance(obj, dict) else None
    return obj


def _one(obj: dict, wanted: dict, patch_type: str) -> dict:
    from ..kube.go.json import encode

    try:
        patch, note = _make(obj, wanted, patch_type)
    except CfgPatchError as exc:
        return {"ok": False, "plain": (exc.hint or exc.message)}
    out: dict[str, Any] = {"ok": True, "patch": patch, "text": encode(patch), "note": note,
                           "command": command.kubectl_patch(obj, patch, patch_type)}
    out.update(_verify(obj, wanted, patch, patch_type))
    return out


def _make(obj: dict, wanted: dict, patch_type: str) -> tuple[JSON, str]:
    """The patch of one type from ``obj`` to ``wanted``, and a note on how it is made."""
    from ..kube.engine import create, createjson
    from ..kube.io.unstructured import normalize

    if patch_type == "merge":
        return (createjson.create_merge_patch(normalize(obj), normalize(wanted)),
                "A JSON merge patch: a list that changed is written whole (it replaces the "
                "list), a removed field is null.")
    if patch_type == "json":
        return guarded_ops(obj, wanted), ("A JSON patch: each operation picks list elements "
                                          "by position, so a test before it checks the "
                                          "element at that position is still the one meant.")
    node = _kind_node(wanted)
    if node is None:
        raise CfgPatchError(
            "no strategic merge patch for this kind",
            hint=f"kubectl has no Go type for {wanted.get('kind')} ({wanted.get('apiVersion')}), "
                 f"so it has no strategic merge patch for it (kubectl edit sends a merge "
                 f"patch instead): use the merge patch")
    return (create.create_two_way(normalize(obj), normalize(wanted), node),
            "The patch kubectl edit would send: keyed lists by their merge key "
            "($setElementOrder keeps the order, $patch: delete removes an element), a "
            "removed field is null.")


def _kind_node(obj: dict) -> Any:
    from ..kube.schema.node import builtin_schema

    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    return builtin_schema().for_kind(api_version, kind)


def guarded_ops(obj: JSON, wanted: JSON) -> list[dict]:
    """cfgpatch's JSON Patch from ``obj`` to ``wanted``, with ``test`` guards: before an
    operation whose path goes through a list position that exists, a ``test`` that the
    element there is the one the operation was computed for (its ``name``, else the
    element itself), checked against the object as the earlier operations left it."""
    from ..diffing import diff
    from ..kube.engine import jsonpatch
    from ..pointer import parse_pointer

    out: list[dict] = []
    state = obj
    for op in diff(obj, wanted):
        for guard in _guards(state, parse_pointer(op["path"]), op["op"]):
            if guard not in out[-3:]:
                out.append(guard)
        out.append(op)
        state = jsonpatch.apply(state, [op])
    return out


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _guards(state: JSON, tokens: list[str], op: str) -> list[dict]:
    guards = []
    node, path = state, ""
    for depth, token in enumerate(tokens):
        here = f"{path}/{_escape(token)}"
        last = depth == len(tokens) - 1
        if isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                break  # an add at the end: nothing there to check
            if last and op == "add":
                break  # inserting before an element: its neighbour is not the point
            element = node[int(token)]
            if isinstance(element, dict) and isinstance(element.get("name"), str):
                guards.append({"op": "test", "path": f"{here}/name", "value": element["name"]})
            elif not isinstance(element, (dict, list)):
                guards.append({"op": "test", "path": here, "value": element})
            node = element
        elif isinstance(node, dict) and token in node:
            node = node[token]
        else:
            break
        path = here
    return guards


def _verify(obj: dict, wanted: dict, patch: JSON, patch_type: str) -> dict:
    """Apply ``patch`` to ``obj`` as ``kubectl patch --local`` does; compare."""
    from .. import kube
    from ..jsonvalue import deep_copy

    try:
        outcome = kube.patch(deep_copy(obj), deep_copy(patch), patch_type)
    except CfgPatchError as exc:
        return {"verified": False, "check": f"applying it back fails: {exc.describe()}"}
    if equal(outcome.object, wanted):
        return {"verified": True, "check": "applied back to the object, it gives the wanted "
                                           "object"}
    from .render import differing_paths

    where = ", ".join(differing_paths(outcome.object, wanted)[:3])
    return {"verified": False, "check": f"applied back, it differs from the wanted object at "
                                        f"{where}"}
