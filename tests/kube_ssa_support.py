"""Replaying oracle cases of server-side apply through our engine.

A case is what ``ssa-oracle -batch`` reads: ``{"id", "schema": "builtin" | "deduced" |
"crd:<file>" | "openapi:<file>" (the oracle's ``-schema`` mode), "live", "ops": [{"op": "apply" | "update", "manager", "force",
"object" | "patchLive"}]}``; its results are, per op, ``{"op", "ok", "object"}`` or
``{"op", "ok": false, "error"}``.  As the oracle does, the field manager's kind is the first
op's, ``managedFields[].time`` is cleared between ops and in the results, and an update
given as ``patchLive`` sends the live object with that JSON merge patch applied.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import yaml

from cfgpatch.kube.ssa.api import Types, _conflicts, _store, conflict_message
from cfgpatch.kube.ssa.fieldmanager import (
    ConflictError,
    FieldManager,
    ServerError,
    Trace,
    group_version,
    gvk_of,
)
from cfgpatch.kube.ssa.value import deep_copy

DATA = Path(__file__).resolve().parent / "data" / "kube" / "ssa"
CRDS = DATA / "crds"
NOW = "2026-01-01T00:00:00Z"  # later than every time the cases carry

_TYPES: dict[str, Types] = {}


def types_for(schema: str, crd_dir: Path = CRDS) -> Types:
    """The type source a case names."""
    if schema not in _TYPES:
        if schema == "builtin":
            _TYPES[schema] = Types()
        elif schema == "deduced":
            _TYPES[schema] = Types(schema=_empty_schema(), deduced=True)
        elif schema.startswith("openapi:"):
            doc = json.loads((crd_dir.parent / schema.split(":", 1)[1]).read_text())
            _TYPES[schema] = Types(schema=_empty_schema(), openapi=doc)
        else:
            crd = yaml.safe_load((crd_dir / schema.split(":", 1)[1]).read_text())
            _TYPES[schema] = Types(crds=[crd])
    return _TYPES[schema]


def _empty_schema() -> Any:
    from cfgpatch.kube.ssa.schema import Schema

    return Schema({})


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386, as the oracle's harness applies it."""
    if not isinstance(patch, dict):
        return deep_copy(patch)
    out = target if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge_patch(out.get(k), v)
    return out


def clear_times(obj: Any) -> Any:
    """The object with ``managedFields[].time`` removed."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    items = meta.get("managedFields") if isinstance(meta, dict) else None
    if isinstance(items, list):
        for item in items:
            if isinstance(item, dict):
                item.pop("time", None)
    return obj


def replay(case: dict, crd_dir: Path = CRDS, now: str = NOW) -> list[dict]:
    """Our results for a case, in the oracle's form."""
    ops = case["ops"]
    first = ops[0].get("object") if ops and ops[0].get("object") is not None else case.get("live")
    gvk = gvk_of(first)
    fm = FieldManager(gvk, types_for(case["schema"], crd_dir).lookup)
    live = deep_copy(case["live"]) if case.get("live") is not None else {
        "apiVersion": group_version(gvk), "kind": gvk[2]}
    results = []
    for op in ops:
        obj = op.get("object")
        if obj is None and op.get("patchLive") is not None:
            obj = clear_times(merge_patch(deep_copy(live), deep_copy(op["patchLive"])))
        if obj is None:
            obj = {}
        obj = deep_copy(obj)
        try:
            if op["op"] == "apply":
                stored, managers, times = fm.apply(deep_copy(live), obj, op.get("manager", ""),
                                                   bool(op.get("force")), now, Trace())
            else:
                stored, managers, times = fm.update(deep_copy(live), obj, op.get("manager", ""),
                                                    now, Trace())
        except ConflictError as exc:
            results.append({"op": op["op"], "ok": False,
                            "error": conflict_message(_conflicts(exc.conflicts))})
            continue
        except ServerError as exc:
            results.append({"op": op["op"], "ok": False, "error": str(exc)})
            continue
        out, _ = _store(stored, managers, times)
        out = clear_times(out)
        live = deep_copy(out)
        results.append({"op": op["op"], "ok": True, "object": out})
    return results


def canonical(v: Any) -> str:
    """A JSON text to compare values by (integral floats as ints, keys sorted)."""
    def norm(x: Any) -> Any:
        if isinstance(x, float) and x.is_integer():
            return int(x)
        if isinstance(x, dict):
            return {k: norm(y) for k, y in x.items()}
        if isinstance(x, list):
            return [norm(y) for y in x]
        return x
    return json.dumps(norm(v), sort_keys=True, ensure_ascii=False)


def agree(ours: dict, theirs: dict) -> bool:
    """True when one op's results agree (objects exactly; errors by their first line)."""
    if ours["ok"] != theirs["ok"]:
        return False
    if ours["ok"]:
        return canonical(ours["object"]) == canonical(theirs["object"])
    if ours["error"].split("\n", 1)[0] == theirs["error"].split("\n", 1)[0]:
        return True
    return _undeclared_in_random_order(ours["error"], theirs["error"])


def _undeclared_in_random_order(ours: str, theirs: str) -> bool:
    """The server stops walking a map at a field its schema does not declare, and walks maps
    in Go's random order: which other errors of that map it reports first is chance."""
    def parts(text: str) -> tuple[str, set[str]]:
        head, _, rest = text.partition("): ")
        lines = rest.split("\n")
        body = {ln.strip() for ln in (lines[1:] if lines[0] == "errors:" else lines)}
        return head, body
    def maps(body: set[str]) -> set[str]:  # the maps with an undeclared field
        return {ln.rsplit(".", 1)[0] for ln in body if ln.endswith(": field not declared in schema")}
    (h1, b1), (h2, b2) = parts(ours), parts(theirs)
    return h1 == h2 and bool(maps(b1) & maps(b2))


def load_records(path: Path) -> list[dict]:
    """The recorded cases with the oracle's results (gzipped JSON lines)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
