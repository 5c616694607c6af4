#!/usr/bin/env python3
"""Record how kubectl 1.27-1.33 strategic-merge the kinds of older API versions.

For every group/version/kind of ``scripts/data/kubectl-gvks.tsv`` that is an older API
version (alpha or beta, ``extensions``, or a version the current API no longer has:
``autoscaling/v2beta2``, ``batch/v1beta1``, ``networking.k8s.io/v1alpha1``, ...) and that
has object metadata, the plan below builds cases from the Go types of that version, read
from a kubectl binary that knows it (``scripts/go_types.py``; 1.32's when it knows it):

* one case per list field outside ``metadata`` (``spec.metrics``,
  ``status.conditions``, lists inside list elements, up to :data:`MAX_DEPTH` levels
  and :data:`MAX_PATHS` per kind): the object holds two elements, the patch one
  element that agrees with the first on a merge-key candidate (the field's
  ``patchMergeKey`` tag when it has one, else the element's ``name``/``type``/...
  field) and changes another field; kubectl then either merges the two lists or
  replaces the list, which tells its own version's tags;
* one case per kind that patches every list it has at once, plus a ``metadata.labels``
  patch;
* the unversioned kinds (``Status``, ``APIGroup``, ...) under a custom apiVersion.

Every case runs ``kubectl patch --local -f obj.json --type strategic -p PATCH -o json``;
per-field cases through 1.32, 1.27 and 1.33, per-kind cases through all seven versions.
``tests/data/kube/older-gvks/cases.jsonl`` stores one case a line: 1.32's stdout, stderr
and exit code under ``kubectl["1.32"]``, ``same_in`` listing the versions that answered
the same, and the answer of every version that did not (a version that does not know the
kind answers "not supported"; a version with other struct tags merges differently), and
``unstable``: versions whose error changed between repeated runs (:data:`REPEATS`).
``tests/test_kube_older_gvks.py`` replays them through ``cfgpatch kube patch``.

    python scripts/record_kube_gvks.py [--bin-dir DIR] [--jobs 2] [--check]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from go_types import Binary, TableBuilder  # noqa: E402

from cfgpatch.kube.schema.node import SCALAR_KINDS, Node, Schema  # noqa: E402

GVKS = ROOT / "scripts" / "data" / "kubectl-gvks.tsv"
OUT = ROOT / "tests" / "data" / "kube" / "older-gvks"
ALL_VERSIONS = ("1.32", "1.27", "1.28", "1.29", "1.30", "1.31", "1.33")
FIELD_VERSIONS = ("1.32", "1.27", "1.33")
MAX_DEPTH = 6
MAX_PATHS = 14
#: Extra runs of every case a version refused: Go's random map order can decide which of
#: two errors comes first; a version whose answers differ is listed under ``unstable``
#: (a case 1.32 answers unstably is left out).
REPEATS = 4
#: API versions of the current API that are GA (their kinds are not "older").
CURRENT_GA = re.compile(r"^([a-z0-9.]+/)?v\d+$")
META_KINDS = {"WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions",
              "UpdateOptions", "PatchOptions", "TableOptions"}
#: Structs whose JSON form is a scalar or free-form: given a scalar, never walked into.
OPAQUE = {"Quantity", "Time", "MicroTime", "IntOrString", "Duration", "FieldsV1",
          "RawExtension", "JSON", "Fields"}
KEY_CANDIDATES = ("name", "type", "uid", "ip", "port", "key", "containerPort",
                  "devicePath", "mountPath", "driver", "pool", "device", "request")
ARGV = ["patch", "--local", "-f", "obj.json", "--type", "strategic", "-p", "{PATCH}",
        "-o", "json"]


def gvk_rows() -> list[dict[str, str]]:
    lines = [line for line in GVKS.read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def is_older(api_version: str) -> bool:
    """Alpha/beta versions, ``extensions`` and ``meta.k8s.io`` (not the current GA ones)."""
    if api_version.startswith(("extensions/", "meta.k8s.io/")):
        return True
    return not CURRENT_GA.match(api_version) and api_version != "*"


class Schemas:
    """Per kubectl version, the Go types of its binary (read on first use)."""

    def __init__(self, binaries: dict[str, str]) -> None:
        self.binaries = binaries
        self.builders: dict[str, TableBuilder] = {}

    def node(self, version: str, api_version: str, kind: str, key: str) -> Node:
        builder = self.builders.get(version)
        if builder is None:
            builder = self.builders[version] = TableBuilder(Binary(self.binaries[version]))
        builder.add(key)
        return Schema({"kinds": {api_version: {kind: key}},
                       "types": builder.types}).for_kind(api_version, kind)


def scalar(node: Node, index: int) -> object:
    kind = node.kind
    if kind.startswith(("int", "uint")):
        return index + 1
    if kind == "bool":
        return index % 2 == 0
    if kind.startswith("float"):
        return index + 0.5
    return f"v{index}"


def is_scalar(node: Node) -> bool:
    return node.kind in SCALAR_KINDS or node.kind == "open" or (
        node.kind == "struct" and node.name in OPAQUE) or (
        node.kind == "slice" and node.elem.kind == "uint8")


def list_paths(node: Node, prefix: tuple = (), seen: tuple = ()) -> list[tuple]:
    """Paths (field names, ``[]`` for "an element of") to every list below ``node``."""
    out: list[tuple] = []
    if len(prefix) > MAX_DEPTH or node.name in seen:
        return out
    for name in node.field_names():
        if not prefix and name in ("apiVersion", "kind"):
            continue
        child, _ = node.field(name)
        if is_scalar(child):
            continue
        if child.kind == "struct":
            out += list_paths(child, (*prefix, name), (*seen, node.name))
        elif child.kind == "slice":
            out.append((*prefix, name))
            if child.elem.kind == "struct" and not is_scalar(child.elem):
                out += list_paths(child.elem, (*prefix, name, "[]"), (*seen, node.name))
    return out


def key_fields(elem: Node, merge_key: str) -> tuple[str, str | None]:
    """The merge-key candidate of a list's element and another scalar field to change."""
    scalars = [n for n in elem.field_names() if is_scalar(elem.field(n)[0])]
    key = merge_key or next((c for c in KEY_CANDIDATES if c in scalars),
                            scalars[0] if scalars else "")
    other = next((n for n in scalars if n != key), None)
    return key, other


def element(elem: Node, merge_key: str, index: int, changed: bool) -> object:
    if is_scalar(elem) or elem.kind != "struct":
        return scalar(elem, index) if is_scalar(elem) else f"v{index}"
    key, other = key_fields(elem, merge_key)
    out: dict = {}
    if key:
        out[key] = scalar(elem.field(key)[0], index)
    if other and (changed or index == 0):
        out[other] = scalar(elem.field(other)[0], 10 + index + (5 if changed else 0))
    return out


def build(root: Node, path: tuple) -> tuple[dict, dict]:
    """(object part, patch part) that reach the list at ``path``; a list element on the
    way is one element holding the element's merge-key candidate, the same in both."""
    node, meta = root, None
    stack: list[tuple[str, Node, object]] = []
    for step in path:
        if step == "[]":
            stack.append(("[]", node, meta))  # node: the list, meta: its field's tags
            node = node.elem
        else:
            stack.append((step, node, None))
            node, meta = node.field(step)
    elem, merge_key = node.elem, (meta.merge_key if meta else "")
    if is_scalar(elem):
        obj: object = [scalar(elem, 0), scalar(elem, 1)]
        patch: object = [scalar(elem, 2)]
    elif elem.kind == "struct":
        obj = [element(elem, merge_key, 0, False), element(elem, merge_key, 1, False)]
        patch = [element(elem, merge_key, 0, True)]
    else:  # a list of lists or of maps
        obj, patch = [], []
    for step, holder, holder_meta in reversed(stack):
        if step != "[]":
            obj, patch = {step: obj}, {step: patch}
            continue
        key, _ = key_fields(holder.elem, holder_meta.merge_key if holder_meta else "")
        first = {key: scalar(holder.elem.field(key)[0], 0)} if key else {}
        obj, patch = [{**first, **obj}], [{**first, **patch}]
    return obj, patch


def merged(a: dict, b: dict) -> dict:
    out = dict(a)
    for key, value in b.items():
        out[key] = merged(out[key], value) if isinstance(out.get(key), dict) and isinstance(
            value, dict) else value
    return out


def gvk_cases(api_version: str, kind: str, root: Node) -> list[dict]:
    base = {"apiVersion": api_version, "kind": kind,
            "metadata": {"name": "x", "labels": {"a": "b"}}}
    slug = f"{api_version.replace('/', '-')}-{kind}"
    paths = list_paths(root)
    cases = []
    whole_obj, whole_patch = dict(base), {"metadata": {"labels": {"c": "d"}}}
    for path in paths:
        if "[]" in path or path[0] == "metadata":
            continue
        obj, patch = build(root, path)
        whole_obj, whole_patch = merged(whole_obj, obj), merged(whole_patch, patch)
    cases.append({"id": f"{slug}-all", "api_version": api_version, "kind": kind,
                  "path": "*", "object": whole_obj, "patch": whole_patch,
                  "versions": ALL_VERSIONS})
    for path in [p for p in paths if p[0] != "metadata"][:MAX_PATHS]:
        obj, patch = build(root, path)
        cases.append({"id": f"{slug}-{'.'.join(path).replace('.[]', '[]')}",
                      "api_version": api_version, "kind": kind, "path": ".".join(path),
                      "object": merged(base, obj), "patch": patch,
                      "versions": FIELD_VERSIONS})
    return cases


def unversioned_cases() -> list[dict]:
    cases = []
    for api_version in ("example.com/v1", "v1", "x"):
        slug = api_version.replace("/", "-").replace(".", "-")
        cases.append({"id": f"unversioned-{slug}-Status", "api_version": api_version,
                      "kind": "Status", "path": "details.causes",
                      "object": {"apiVersion": api_version, "kind": "Status", "details": {
                          "causes": [{"field": "a", "reason": "r"}, {"field": "b"}]}},
                      "patch": {"details": {"causes": [{"field": "a", "message": "m"}]},
                                "code": 409}, "versions": ALL_VERSIONS})
        cases.append({"id": f"unversioned-{slug}-APIGroup", "api_version": api_version,
                      "kind": "APIGroup", "path": "versions",
                      "object": {"apiVersion": api_version, "kind": "APIGroup", "name": "g",
                                 "versions": [{"groupVersion": "g/v1", "version": "v1"}]},
                      "patch": {"versions": [{"groupVersion": "g/v2", "version": "v2"}]},
                      "versions": ALL_VERSIONS})
        cases.append({"id": f"unversioned-{slug}-WatchEvent", "api_version": api_version,
                      "kind": "WatchEvent", "path": "type",
                      "object": {"apiVersion": api_version, "kind": "WatchEvent",
                                 "type": "ADDED"},
                      "patch": {"type": "DELETED"}, "versions": ALL_VERSIONS})
    return cases


def plan(binaries: dict[str, str]) -> list[dict]:
    schemas = Schemas(binaries)
    cases = []
    for row in gvk_rows():
        api_version, kind = row["api_version"], row["kind"]
        if (not is_older(api_version) or kind in META_KINDS or kind.endswith("List")
                or row["go_type"] == "?"):
            continue
        version = "1.32" if row["1.32"] != "-" else next(
            v for v in reversed(sorted(ALL_VERSIONS)) if row[v] != "-")
        root = schemas.node(version, api_version, kind, row["go_type"])
        if "metadata" not in root.field_names():
            continue
        cases += gvk_cases(api_version, kind, root)
    return cases + unversioned_cases()


def run(kubectl: str, case: dict) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.json").write_text(json.dumps(case["object"], indent=2) + "\n",
                                               encoding="utf-8")
        argv = [json.dumps(case["patch"]) if a == "{PATCH}" else a for a in ARGV]
        proc = subprocess.run([kubectl, *argv], cwd=folder, capture_output=True, text=True,
                              timeout=120)
    stderr = proc.stderr
    if proc.returncode == 2 and "panic:" in stderr:
        stderr = stderr[stderr.index("panic:"):].split("\n", 1)[0]
    return {"exit_code": proc.returncode, "stdout": proc.stdout, "stderr": stderr}


def stored(case: dict, results: dict, unstable: set) -> dict:
    first = results["1.32"]
    out = {"id": case["id"], "api_version": case["api_version"], "kind": case["kind"],
           "path": case["path"], "object": json.dumps(case["object"], indent=2) + "\n",
           "patch": json.dumps(case["patch"]), "argv": ARGV, "kubectl": {"1.32": first}}
    out["same_in"] = [v for v, r in results.items() if v != "1.32" and r == first]
    for version, result in results.items():
        if result != first:
            out["kubectl"][version] = result
    out["unstable"] = sorted(unstable)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    found = shutil.which("kubectl")
    parser.add_argument("--bin-dir", default=str(Path(os.path.realpath(found)).parent)
                        if found else ".")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", action="store_true",
                        help="record again and report changed cases, writing nothing")
    args = parser.parse_args(argv)
    binaries = {v: str(Path(args.bin_dir) / f"kubectl.{v}") for v in ALL_VERSIONS}
    cases = plan(binaries)
    jobs = [(case, version) for case in cases for version in case["versions"]]
    with ThreadPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(lambda job: run(binaries[job[1]], job[0]), jobs))
    results: dict[str, dict] = {}
    for (case, version), outcome in zip(jobs, outcomes, strict=True):
        results.setdefault(case["id"], {})[version] = outcome
    again = [(case, version) for case, version in jobs
             if results[case["id"]][version]["exit_code"] != 0] * REPEATS
    with ThreadPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(lambda job: run(binaries[job[1]], job[0]), again))
    unstable: dict[str, set] = {}
    for (case, version), outcome in zip(again, outcomes, strict=True):
        if outcome != results[case["id"]][version]:
            unstable.setdefault(case["id"], set()).add(version)
    cases = [case for case in cases if "1.32" not in unstable.get(case["id"], ())]
    lines = [json.dumps(stored(case, results[case["id"]], unstable.get(case["id"], set())),
                        sort_keys=True) for case in cases]
    path = OUT / "cases.jsonl"
    if args.check:
        old = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        changed = sorted(set(lines) ^ set(old))
        print(f"{len(changed)} line(s) differ from the recording")
        return 1 if changed else 0
    OUT.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    differ = sum(1 for c in cases if len({json.dumps(r) for r in results[c["id"]].values()}) > 1)
    print(f"{len(cases)} cases recorded ({len(jobs)} kubectl runs); "
          f"{differ} differ between kubectl versions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
