#!/usr/bin/env python3
"""Record how kubectl's decoder refuses wrongly typed ``metadata`` in the object file.

kubectl reads the object file's ``metadata`` into its typed ``ObjectMeta`` before any
patch: a field of the wrong JSON type fails with Go's ``json: cannot unmarshal <kind> into
Go struct field ObjectMeta.metadata.<field> of type <type>`` (the first one in document
order), inside ``ownerReferences`` and ``managedFields`` elements too.  The plan gives
each typed field (and each scalar field of those elements) every JSON type (string,
number, bool, object, array, null), plus cases with two wrong fields in both orders; each
object is written as JSON and as YAML and patched with a merge patch:

    kubectl patch --local -f obj.json --type merge -p '{"data":{"x":"y"}}' -o json

through kubectl 1.32, 1.27 and 1.33.  ``tests/data/kube/object-meta/cases.jsonl`` holds
1.32's answer, ``same_in`` and other versions' answers; ``tests/test_kube_io_objectmeta.py``
replays them through ``cfgpatch kube patch``.

    python scripts/record_kube_object_meta.py [--bin-dir DIR] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from kubectl_versions import ask_every_version, default_bin_dir, stored_lines  # noqa: E402

OUT = ROOT / "tests" / "data" / "kube" / "object-meta"
VERSIONS = ("1.32", "1.27", "1.33")
PATCH = '{"data":{"x":"y"}}'
VALUES = {"string": "s", "number": 7, "float": 1.5, "bool": True, "object": {"a": "b"},
          "array": ["a"], "null": None}
FIELDS = ("name", "namespace", "generateName", "uid", "resourceVersion", "generation",
          "deletionGracePeriodSeconds", "deletionTimestamp", "labels", "annotations",
          "finalizers", "ownerReferences", "managedFields")
ELEMENTS = {"ownerReferences": ("apiVersion", "kind", "name", "uid", "controller",
                                "blockOwnerDeletion"),
            "managedFields": ("manager", "operation", "apiVersion", "fieldsType",
                              "subresource")}


def _yaml(value: object, indent: int = 0) -> str:
    """Block YAML of ``value`` (scalars as JSON, which YAML reads the same)."""
    pad = " " * indent
    if isinstance(value, dict) and value:
        lines = []
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{pad}{key}:\n{_yaml(item, indent + 2)}")
            else:
                lines.append(f"{pad}{key}: {json.dumps(item)}")
        return "\n".join(lines)
    if isinstance(value, list) and value:
        lines = []
        for item in value:
            if isinstance(item, dict) and item:
                body = _yaml(item, indent + 2)
                lines.append(f"{pad}- {body.lstrip()}")
            else:
                lines.append(f"{pad}- {json.dumps(item)}")
        return "\n".join(lines)
    return pad + json.dumps(value)


def objects() -> list[tuple[str, dict]]:
    out = []
    for field in FIELDS:
        for name, value in VALUES.items():
            out.append((f"{field}-{name}", {field: value}))
    for field, names in ELEMENTS.items():
        for sub in names:
            for name, value in VALUES.items():
                out.append((f"{field}.{sub}-{name}", {field: [{sub: value}]}))
        out.append((f"{field}-element-number", {field: [5]}))
        out.append((f"{field}-element-then-field", {field: [5, {names[0]: 1}]}))
        out.append((f"{field}-field-then-element", {field: [{names[0]: 1}, 5]}))
    out.append(("two-generation-uid", {"generation": "x", "uid": 1}))
    out.append(("two-uid-generation", {"uid": 1, "generation": "x"}))
    out.append(("two-labels-name", {"labels": {"a": 1}, "name": 2}))
    out.append(("two-owner-fields", {"ownerReferences": [{"uid": 1, "kind": 2}]}))
    return out


def plan() -> list[dict]:
    cases = []
    for slug, meta in objects():
        obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", **meta}}
        if "name" in meta:
            obj["metadata"] = dict(meta)
        for suffix, text in (("json", json.dumps(obj, indent=2) + "\n"),
                             ("yaml", _yaml(obj) + "\n")):
            cases.append({"id": f"{slug}-{suffix}", "file": f"obj.{suffix}", "object": text,
                          "argv": ["patch", "--local", "-f", f"obj.{suffix}", "--type",
                                   "merge", "-p", PATCH, "-o", "json"]})
    return cases


def run(kubectl: str, case: dict) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / case["file"]).write_text(case["object"], encoding="utf-8")
        proc = subprocess.run([kubectl, *case["argv"]], cwd=folder, capture_output=True,
                              text=True, timeout=120)
    return {"exit_code": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=default_bin_dir())
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    cases = plan()
    results = ask_every_version(cases, VERSIONS, args.bin_dir, args.jobs, run)
    lines = stored_lines(cases, results, VERSIONS)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cases.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused = sum(1 for c in cases if results[c["id"]]["1.32"]["exit_code"] != 0)
    print(f"{len(cases)} cases recorded; kubectl 1.32 refused {refused}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
