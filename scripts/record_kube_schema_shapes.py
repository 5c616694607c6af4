#!/usr/bin/env python3
"""Record what kubectl does when the object and the patch give a field the wrong shape.

Strategic merge looks a field's Go type up only where the object and the patch both
hold a map, or both a list, at the same key; there the shape the schema declares
decides: a list where the type is a Go pointer (to a struct or a scalar) replaces it,
a list where it is a struct value, a map or a scalar value fails ("expected slice or
array type, but got: struct"), a map where it is a list or a scalar merges one level
and fails one level further down ("merging an object in json but data type is not
struct, instead is: slice"), and so on.  This plan takes every field reachable through
structs (not through lists or maps) from the kinds in :data:`KINDS`, to :data:`DEPTH`
levels, and gives it, on both sides:

* ``list``: ``[1]`` and ``[2]``;
* ``map``: ``{"a": 1}`` and ``{"b": 2}``;
* ``deep-map``: ``{"a": {"x": 1}}`` and ``{"a": {"y": 2}}`` (a lookup one level down);
* ``deep-list``: ``{"a": [1]}`` and ``{"a": [2]}``.

Each case runs ``kubectl patch --local -f obj.json --type strategic -p PATCH -o json``
through kubectl 1.32, 1.27 and 1.33 (kubectl's compiled Go types); the answers go to
``tests/data/kube/schema-shapes/cases.jsonl`` (1.32's answer, ``same_in``, other
versions' answers), which ``tests/test_kube_schema_shapes.py`` replays through the
built-in table and through ``--schema`` OpenAPI documents of the same types.

    python scripts/record_kube_schema_shapes.py [--bin-dir DIR] [--jobs 2] [--check]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from kubectl_versions import ask_every_version, default_bin_dir, stored_lines  # noqa: E402

from cfgpatch.kube.schema.node import Node, builtin_schema  # noqa: E402

OUT = ROOT / "tests" / "data" / "kube" / "schema-shapes"
VERSIONS = ("1.32", "1.27", "1.33")
KINDS = (("apps/v1", "Deployment"), ("v1", "Service"), ("batch/v1", "CronJob"))
DEPTH = 5
SHAPES = {"list": ([1], [2]), "map": ({"a": 1}, {"b": 2}),
          "deep-map": ({"a": {"x": 1}}, {"a": {"y": 2}}),
          "deep-list": ({"a": [1]}, {"a": [2]})}
ARGV = ["patch", "--local", "-f", "obj.json", "--type", "strategic", "-p", "{PATCH}",
        "-o", "json"]


def field_paths(node: Node, prefix: tuple = (), seen: tuple = ()) -> list[tuple]:
    """Every field reachable from ``node`` through struct fields only."""
    out: list[tuple] = []
    if len(prefix) >= DEPTH or node.name in seen:
        return out
    for name in node.field_names():
        if not prefix and name in ("apiVersion", "kind"):
            continue
        child, _ = node.field(name)
        out.append((*prefix, name))
        if child.kind == "struct" and child.field_names():
            out += field_paths(child, (*prefix, name), (*seen, node.name))
    return out


def nest(path: tuple, value: object) -> dict:
    for step in reversed(path):
        value = {step: value}
    return value  # type: ignore[return-value]


def plan() -> list[dict]:
    schema = builtin_schema()
    cases = []
    for api_version, kind in KINDS:
        root = schema.for_kind(api_version, kind)
        for path in field_paths(root):
            for shape, (obj_value, patch_value) in SHAPES.items():
                obj = {"apiVersion": api_version, "kind": kind, "metadata": {"name": "x"}}
                part = nest(path, obj_value)
                if path[0] == "metadata" and isinstance(part["metadata"], dict):
                    obj["metadata"] = {"name": "x", **part["metadata"]}
                else:
                    obj.update(part)
                cases.append({"id": f"{kind}-{'.'.join(path)}-{shape}",
                              "api_version": api_version, "kind": kind,
                              "path": ".".join(path), "shape": shape,
                              "object": json.dumps(obj, indent=2) + "\n",
                              "patch": json.dumps(nest(path, patch_value)), "argv": ARGV})
    return cases


def run(kubectl: str, case: dict) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.json").write_text(case["object"], encoding="utf-8")
        argv = [case["patch"] if a == "{PATCH}" else a for a in case["argv"]]
        proc = subprocess.run([kubectl, *argv], cwd=folder, capture_output=True, text=True,
                              timeout=120)
    return {"exit_code": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=default_bin_dir())
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", action="store_true",
                        help="record again and report changed cases, writing nothing")
    args = parser.parse_args(argv)
    cases = plan()
    results = ask_every_version(cases, VERSIONS, args.bin_dir, args.jobs, run)
    lines = stored_lines(cases, results, VERSIONS)
    path = OUT / "cases.jsonl"
    if args.check:
        old = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        changed = sorted(set(lines) ^ set(old))
        print(f"{len(changed)} line(s) differ from the recording")
        return 1 if changed else 0
    OUT.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused = sum(1 for c in cases if results[c["id"]]["1.32"]["exit_code"] != 0)
    print(f"{len(cases)} cases recorded; kubectl 1.32 refused {refused}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
