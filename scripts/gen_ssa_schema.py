#!/usr/bin/env python3
"""Generate ``src/cfgpatch/kube/ssa/data/builtin.json`` from the built-in SMD schema.

The source is the structured-merge-diff schema client-go v0.32.4 embeds
(``applyconfigurations/internal/internal.go``; a copy is
``../shared/oracles/ssa/k8s-1.32.4-smd-schema.yaml``): every built-in Kubernetes 1.32 type
with its list types, list keys, key defaults and map types, as the API server's field
manager sees them.  The output is the compact table of :mod:`cfgpatch.kube.ssa.schema`.

    python scripts/gen_ssa_schema.py [SCHEMA.yaml] [OUT.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "oracles" / "ssa" / "k8s-1.32.4-smd-schema.yaml"
OUT = ROOT / "src" / "cfgpatch" / "kube" / "ssa" / "data" / "builtin.json"


def atom(a: dict) -> dict:
    out: dict = {}
    if "scalar" in a:
        out["s"] = a["scalar"]
    if "list" in a:
        li = a["list"]
        lo: dict = {"e": ref(li.get("elementType"))}
        if li.get("elementRelationship"):
            lo["r"] = li["elementRelationship"]
        if li.get("keys"):
            lo["k"] = list(li["keys"])
        out["l"] = lo
    if "map" in a:
        m = a["map"]
        mo: dict = {}
        if m.get("fields"):
            mo["f"] = {}
            for f in m["fields"]:
                spec = [ref(f.get("type"))]
                if "default" in f:
                    spec.append(f["default"])
                mo["f"][f["name"]] = spec
        if m.get("elementType"):
            mo["e"] = ref(m["elementType"])
        if m.get("elementRelationship"):
            mo["r"] = m["elementRelationship"]
        out["m"] = mo
    return out


def ref(r: dict | None) -> object:
    if not r:
        return None
    inline = {k: v for k, v in r.items() if k in ("scalar", "list", "map")}
    if inline:
        out: dict = {"a": atom(inline)}
        if r.get("elementRelationship"):
            out["r"] = r["elementRelationship"]
        return out
    if r.get("elementRelationship"):
        return {"n": r.get("namedType"), "r": r["elementRelationship"]}
    return r.get("namedType")


def table_text(table: dict) -> str:
    """The table as JSON with one type a line (``"NAME":ATOM,``), so that a run parses only
    the types it looks up (``cfgpatch.kube.ssa.builtin``)."""
    head = json.dumps({k: v for k, v in table.items() if k != "types"}, separators=(",", ":"),
                      sort_keys=True)
    lines = []
    for name in sorted(table["types"]):
        assert '"' not in name and "\\" not in name, name
        lines.append(json.dumps(name) + ":" + json.dumps(table["types"][name],
                                                         separators=(",", ":"), sort_keys=True))
    return head[:-1] + ',"types":{\n' + ",\n".join(lines) + "\n}}\n"


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else OUT
    doc = yaml.safe_load(src.read_text(encoding="utf-8"))
    types = {t["name"]: atom(t) for t in doc["types"]}
    table = {"source": "client-go v0.32.4 applyconfigurations schema (Kubernetes 1.32)",
             "types": types}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table_text(table), encoding="utf-8")
    print(f"{out}: {len(types)} types, {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
