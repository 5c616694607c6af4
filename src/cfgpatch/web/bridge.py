"""What the patch tester page calls inside Pyodide: texts in, JSON-ready results out.

The page hands over the two editor texts; :func:`compute` parses them (JSON or
YAML), runs the Kubernetes patch engine (:func:`cfgpatch.kube.patch`) once for
each of ``strategic``, ``merge`` and ``json``, and returns one plain dictionary:

* ``results``: per type, ``{"ok": True, "object", "changes", "findings"}`` or
  ``{"ok": False, "error", "findings"}``, exactly what ``window.cfgpatch.results()``
  gives to scripts (changes and findings in their ``to_dict()`` form);
* ``views``: per type, what the page draws: the result as indented JSON lines that
  know their pointer, the pointers where this type's result differs from another
  type's, one sentence per change, and the ``kubectl patch`` command lines;
* ``inputs``: ``None`` per input that parsed, else the error naming what and where.

:func:`compute_json` returns the same as JSON text, so the page needs no proxies.
Nothing here raises: bad input becomes an error entry, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import INVALID_JSON, CfgPatchError, InvalidInput
from ..jsonvalue import JSON, parse, validate
from . import command, render

TYPES = ("strategic", "merge", "json")


def read_document(text: str, label: str) -> JSON:
    """Parse one editor's text: JSON when it parses as JSON, YAML otherwise.

    ``label`` ("object", "patch") names the input in error messages.

    >>> read_document('{"a": 1}', "patch"), read_document("a: [1, x]", "patch")
    ({'a': 1}, {'a': [1, 'x']})
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput(f"the {label} is empty", code=INVALID_JSON)
    stripped = text.lstrip()
    if stripped[0] in "{[":
        try:
            return parse(text)
        except InvalidInput as exc:
            json_error = exc
    else:
        json_error = None
    try:
        value = _load_yaml(text)
    except InvalidInput as exc:
        error = json_error or exc
        raise InvalidInput(f"{label}: {error.message}", code=error.code) from None
    try:
        validate(value)
    except InvalidInput as exc:
        raise InvalidInput(f"{label}: {exc.message}", code=exc.code) from None
    return value


def _load_yaml(text: str) -> Any:
    """YAML with the strict rules: one document, no duplicate keys, dates stay text."""
    try:
        import yaml
    except ImportError:
        raise InvalidInput(
            "not JSON, and YAML needs PyYAML (pip install 'cfgpatch[yaml]')", code=INVALID_JSON
        ) from None
    loader_class = _strict_loader(yaml)
    loader = loader_class(text)
    try:
        value = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark else ""
        raise InvalidInput(f"invalid YAML{where}: {exc.problem}", code=INVALID_JSON) from None
    except yaml.YAMLError as exc:
        raise InvalidInput(f"invalid YAML: {exc}", code=INVALID_JSON) from None
    except RecursionError:
        raise InvalidInput("invalid YAML: nested too deeply", code=INVALID_JSON) from None
    finally:
        loader.dispose()
    return value


_LOADERS: dict[int, type] = {}


def _strict_loader(yaml: Any) -> type:
    """A SafeLoader subclass (built once) that refuses duplicate keys and keeps
    timestamps as strings, as Kubernetes' own YAML reading does."""
    cached = _LOADERS.get(id(yaml))
    if cached is not None:
        return cached

    class StrictLoader(yaml.SafeLoader):
        pass

    StrictLoader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def construct_mapping(loader: Any, node: Any) -> dict:
        loader.flatten_mapping(node)
        out: dict = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is not a string (quote it)", key_node.start_mark
                )
            if key in out:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            out[key] = loader.construct_object(value_node, deep=True)
        return out

    StrictLoader.add_constructor("tag:yaml.org,2002:map", construct_mapping)
    _LOADERS[id(yaml)] = StrictLoader
    return StrictLoader


def _as_dict(item: Any) -> Any:
    to_dict = getattr(item, "to_dict", None)
    return to_dict() if callable(to_dict) else item


def _describe(item: Any) -> str:
    describe = getattr(item, "describe", None)
    if callable(describe):
        return describe()
    return json.dumps(_as_dict(item), ensure_ascii=False)


def _error_text(exc: CfgPatchError) -> str:
    return exc.describe()


def run_type(obj: JSON, patch: JSON, patch_type: str) -> tuple[dict, dict]:
    """Run the engine for one type: (the hook's result, the page's extra view)."""
    from .. import kube

    try:
        outcome = kube.patch(obj, patch, patch_type)
    except CfgPatchError as exc:
        findings = list(getattr(exc, "findings", None) or ())
        result = {
            "ok": False,
            "error": _error_text(exc),
            "findings": [_as_dict(f) for f in findings],
        }
        view = {"error_detail": exc.to_dict(), "findings_text": [_describe(f) for f in findings]}
        return result, view
    result = {
        "ok": True,
        "object": outcome.object,
        "changes": [_as_dict(c) for c in outcome.changes],
        "findings": [_as_dict(f) for f in outcome.findings],
    }
    view = {
        "lines": render.render_lines(outcome.object),
        "changes_text": [_describe(c) for c in outcome.changes],
        "findings_text": [_describe(f) for f in outcome.findings],
    }
    return result, view


def compute(object_text: str, patch_text: str) -> dict:
    """Everything the page shows for one pair of inputs (see the module docstring)."""
    inputs: dict[str, Any] = {"object": None, "patch": None}
    values: dict[str, JSON] = {}
    for label, text in (("object", object_text), ("patch", patch_text)):
        try:
            values[label] = read_document(text, label)
        except CfgPatchError as exc:
            inputs[label] = exc.to_dict()
    results: dict[str, dict] = {}
    views: dict[str, dict] = {}
    if inputs["object"] or inputs["patch"]:
        message = "; ".join(e["message"] for e in (inputs["object"], inputs["patch"]) if e)
        for patch_type in TYPES:
            results[patch_type] = {"ok": False, "error": message, "findings": []}
            views[patch_type] = {"findings_text": []}
        return {"inputs": inputs, "results": results, "views": views}
    obj, patch = values["object"], values["patch"]
    for patch_type in TYPES:
        results[patch_type], views[patch_type] = _guarded(obj, patch, patch_type)
        views[patch_type]["command"] = command.kubectl_patch(obj, patch, patch_type)
        views[patch_type]["dry_run"] = command.kubectl_patch(obj, patch, patch_type, dry_run=True)
    _mark_differences(results, views)
    return {"inputs": inputs, "results": results, "views": views}


def _guarded(obj: JSON, patch: JSON, patch_type: str) -> tuple[dict, dict]:
    """:func:`run_type`, turning an unexpected failure into an error entry."""
    try:
        return run_type(obj, patch, patch_type)
    except Exception as exc:  # an engine bug must not take the page down
        message = f"internal error in the {patch_type} engine: {type(exc).__name__}: {exc}"
        return {"ok": False, "error": message, "findings": []}, {"findings_text": []}


def _mark_differences(results: dict, views: dict) -> None:
    """Per type, the pointers where its result differs from another type's result."""
    done = [t for t in TYPES if results[t]["ok"]]
    for patch_type in TYPES:
        differs: list[str] = []
        if results[patch_type]["ok"]:
            for other in done:
                if other == patch_type:
                    continue
                for pointer in render.differing_paths(
                    results[patch_type]["object"], results[other]["object"]
                ):
                    if pointer not in differs:
                        differs.append(pointer)
        views[patch_type]["differs"] = differs
        views[patch_type]["same_as"] = [
            other
            for other in done
            if other != patch_type
            and results[patch_type]["ok"]
            and not render.differing_paths(results[patch_type]["object"], results[other]["object"])
        ]


def compute_json(object_text: str, patch_text: str) -> str:
    """:func:`compute` as JSON text (what the page's JavaScript receives)."""
    return json.dumps(compute(object_text, patch_text), ensure_ascii=False)
