#!/usr/bin/env python3
"""Generate the merge-schema table of cfgpatch's strategic merge.

Two uses:

1. From a cluster's own OpenAPI document (what ``--schema`` reads directly)::

       kubectl get --raw /openapi/v2 > openapi.json
       python scripts/gen_kube_schema.py --openapi openapi.json -o my-cluster.json

2. The built-in table ``src/cfgpatch/kube/schema/data/builtin.json``, from the Kubernetes
   fact tables (``list-fields.tsv``, ``kinds.tsv``), the group/version/kinds kubectl 1.32
   knows with the Go type of each (recorded from kubectl 1.27-1.33 themselves by
   ``scripts/probe_kube_gvks.py`` in ``scripts/data/kubectl-gvks.tsv``; ``*`` rows are
   kinds known under any apiVersion, written to the table's ``unversioned``) and the
   struct graph: best from the kubectl binary itself (``--kubectl-binary``, read by
   ``scripts/go_types.py``: every field's JSON name, Go type, pointer-ness and
   tags, exactly what ``kubectl patch`` reflects on), else from OpenAPI documents
   of the same release::

       python scripts/gen_kube_schema.py --tsv-dir ../shared/k8s \\
           --kubectl-kinds scripts/data/kubectl-gvks.tsv \\
           --kubectl-binary "$(dirname "$(readlink -f "$(which kubectl)")")/kubectl.1.32" \\
           -o src/cfgpatch/kube/schema/data/builtin.json

   Types from the binary are exact; their tags are checked against
   ``list-fields.tsv`` and disagreements printed.  With ``--openapi`` instead, the
   first document wins for a type, later ones (older releases) supply types of
   API versions no longer served; a type no document describes is built from a
   same-named type of another version of its group plus its rows in
   ``list-fields.tsv`` and marked ``open`` (fields it does not list are not
   reported as unknown); tags come from ``list-fields.tsv``.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cfgpatch.kube.schema.openapi import table_from_openapi  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from go_types import Binary, TableBuilder  # noqa: E402

META_KINDS = ("WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions",
              "UpdateOptions", "PatchOptions", "Status", "APIVersions")
GROUP_DONORS = {"extensions": ("apps", "networking", "policy")}
VERSION_ORDER = ("v1", "v2", "v1beta3", "v1beta2", "v1beta1", "v1alpha3", "v1alpha2",
                 "v1alpha1", "v2beta2", "v2beta1")
_TYPE_META = {"apiVersion": "string", "kind": "string"}
_SUBMIT = {**_TYPE_META, "dryRun": "[]string", "fieldManager": "string",
           "fieldValidation": "string"}
_ROLLBACK = {**_TYPE_META, "name": "string", "updatedAnnotations": "map[string]string",
             "rollbackTo": "{pkg}.RollbackConfig"}
_SCALE = {**_TYPE_META, "metadata": "meta/v1.ObjectMeta", "spec": "{pkg}.ScaleSpec",
          "status": "{pkg}.ScaleStatus"}
#: Go types kubectl 1.32 registers that no OpenAPI document describes (facts about
#: the Go API types: json field name -> type).
GO_FACTS: dict[str, dict[str, str]] = {
    "meta/v1.ListOptions": {**_TYPE_META, "labelSelector": "string", "fieldSelector": "string",
                            "watch": "bool", "allowWatchBookmarks": "bool",
                            "resourceVersion": "string", "resourceVersionMatch": "string",
                            "timeoutSeconds": "int64", "limit": "int64", "continue": "string",
                            "sendInitialEvents": "bool"},
    "meta/v1.GetOptions": {**_TYPE_META, "resourceVersion": "string"},
    "meta/v1.CreateOptions": _SUBMIT,
    "meta/v1.UpdateOptions": _SUBMIT,
    "meta/v1.PatchOptions": {**_SUBMIT, "force": "bool"},
    "core/v1.PodLogOptions": {**_TYPE_META, "container": "string", "follow": "bool",
                              "previous": "bool", "sinceSeconds": "int64",
                              "sinceTime": "meta/v1.Time", "timestamps": "bool",
                              "tailLines": "int64", "limitBytes": "int64",
                              "insecureSkipTLSVerifyBackend": "bool", "stream": "string"},
    "core/v1.PodExecOptions": {**_TYPE_META, "stdin": "bool", "stdout": "bool",
                               "stderr": "bool", "tty": "bool", "container": "string",
                               "command": "[]string"},
    "core/v1.PodAttachOptions": {**_TYPE_META, "stdin": "bool", "stdout": "bool",
                                 "stderr": "bool", "tty": "bool", "container": "string"},
    "core/v1.PodPortForwardOptions": {**_TYPE_META, "ports": "[]int32"},
    "core/v1.PodProxyOptions": {**_TYPE_META, "path": "string"},
    "core/v1.NodeProxyOptions": {**_TYPE_META, "path": "string"},
    "core/v1.ServiceProxyOptions": {**_TYPE_META, "path": "string"},
    "core/v1.SerializedReference": {**_TYPE_META, "reference": "core/v1.ObjectReference"},
    "core/v1.RangeAllocation": {**_TYPE_META, "metadata": "meta/v1.ObjectMeta",
                                "range": "string", "data": "[]uint8"},
    "core/v1.PodStatusResult": {**_TYPE_META, "metadata": "meta/v1.ObjectMeta",
                                "status": "core/v1.PodStatus"},
    "core/v1.List": {**_TYPE_META, "metadata": "meta/v1.ListMeta",
                     "items": "[]runtime.RawExtension"},
    "apps/v1beta1.DeploymentRollback": _ROLLBACK,
    "extensions/v1beta1.DeploymentRollback": _ROLLBACK,
    "apps/v1beta1.RollbackConfig": {"revision": "int64"},
    "extensions/v1beta1.RollbackConfig": {"revision": "int64"},
    "apps/v1beta1.Scale": _SCALE,
    "apps/v1beta2.Scale": _SCALE,
    "extensions/v1beta1.Scale": _SCALE,
    "apps/v1beta1.ScaleSpec": {"replicas": "int32"},
    "apps/v1beta2.ScaleSpec": {"replicas": "int32"},
    "extensions/v1beta1.ScaleSpec": {"replicas": "int32"},
    "apps/v1beta1.ScaleStatus": {"replicas": "int32", "selector": "map[string]string",
                                 "targetSelector": "string"},
    "apps/v1beta2.ScaleStatus": {"replicas": "int32", "selector": "map[string]string",
                                 "targetSelector": "string"},
    "extensions/v1beta1.ScaleStatus": {"replicas": "int32", "selector": "map[string]string",
                                       "targetSelector": "string"},
    "discovery/v1beta1.ForNode": {"name": "string"},
}
SCALARS = {"string", "bool", "int", "int32", "int64", "uint8", "float64", "float32",
           "uint16", "uint32", "uint64", "int16", "int8", "byte"}


def read_tsv(path: Path) -> list[dict[str, str]]:
    """Rows of a fact table (line 1 is a ``#`` source comment, line 2 the header)."""
    with path.open(encoding="utf-8") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def go_expr(resolved: str) -> str:
    """A type expression from the fact table's ``resolved_type`` column."""
    text = resolved.split("=", 1)[1] if "=" in resolved.split("[", 1)[0] else resolved
    text = re.sub(r"[\w]+(?:/[\w]+)?\.\w+\((\w+)\)", r"\1", text)
    if text == "[]byte":
        return "[]uint8"
    if text.startswith("[]"):
        return "[]" + go_expr(text[2:])
    if text.startswith("map["):
        depth, index = 0, 3
        for index in range(3, len(text)):
            depth += {"[": 1, "]": -1}.get(text[index], 0)
            if depth == 0:
                break
        return "map[string]" + go_expr(text[index + 1:])
    if text.startswith("*"):
        return go_expr(text[1:])
    if text in SCALARS:
        return {"byte": "uint8", "float32": "float64"}.get(text, text)
    if "." in text:
        return text
    return "interface"


class Builder:
    """Assembles the built-in table from the fact tables and OpenAPI tables."""

    def __init__(self, rows: list[dict], kind_rows: list[dict], docs: list[dict],
                 go_types: TableBuilder | None = None) -> None:
        self.go_types = go_types
        self.tags = {(r["go_package"], r["go_type"], r["json_field"]): r for r in rows}
        self.tsv_types: dict[str, list[dict]] = {}
        for row in rows:
            self.tsv_types.setdefault(f"{row['go_package']}.{row['go_type']}", []).append(row)
        self.kind_types = {(r["api_version"], r["kind"]): f"{r['go_package']}.{r['go_type']}"
                           for r in kind_rows}
        self.doc_types: dict[str, dict] = {}
        for doc in docs:
            for key, spec in doc["types"].items():
                self.doc_types.setdefault(key, spec)
        self.types: dict[str, dict] = {}
        self.report: list[str] = []

    def kind_type(self, api_version: str, kind: str, probed: str = "") -> str:
        found = self.kind_types.get((api_version, kind))
        return found or probed or f"meta/v1.{kind}"

    def build(self, known: list[tuple[str, str, str]]) -> dict:
        kinds: dict[str, dict[str, str]] = {}
        unversioned: dict[str, str] = {}
        queue: deque[str] = deque()
        for api_version, kind, probed in known:
            key = self.kind_type(api_version, kind, probed)
            if api_version == "*":
                unversioned[kind] = key
            else:
                kinds.setdefault(api_version, {})[kind] = key
            queue.append(key)
        while queue:
            key = queue.popleft()
            if key in self.types:
                continue
            self.types[key] = self.struct(key)
            queue.extend(_struct_refs(self.types[key]))
        source = ("struct types and tags read from the kubectl binary's Go type data"
                  if self.go_types is not None else
                  "Go struct tags from kubernetes/api v0.36.3 fact tables; struct graph from "
                  "the release's OpenAPI schema")
        return {"source": f"kinds kubectl 1.32 knows; {source}",
                "kinds": kinds, "unversioned": unversioned,
                "types": dict(sorted(self.types.items()))}

    def struct(self, key: str) -> dict:
        if self.go_types is not None and key in self.go_types.by_key:
            self.go_types.add(key)
            return self.with_tags(key, self.go_types.types[key], trust=True)
        if self.go_types is not None and key in self.go_types.types:
            return self.with_tags(key, self.go_types.types[key], trust=True)
        spec = self.doc_types.get(key)
        if spec is not None:
            return self.with_tags(key, spec)
        package, name = key.rsplit(".", 1)
        if key in GO_FACTS:
            fields = {f: t.replace("{pkg}", package) for f, t in GO_FACTS[key].items()}
            return self.with_tags(key, {"name": name, "fields": fields})
        donor = self.donor(key)
        fields: dict = {}
        if donor is not None:
            donor_package = donor.rsplit(".", 1)[0]
            for field, value in self.doc_types[donor]["fields"].items():
                fields[field] = _repoint(value, donor_package, package, self.known_type)
        for row in self.tsv_types.get(key, []):
            fields.setdefault(row["json_field"], go_expr(row["resolved_type"]))
        self.report.append(f"open type {key} (donor {donor})")
        return self.with_tags(key, {"name": name, "fields": fields, "open": True})

    def known_type(self, key: str) -> bool:
        return key in self.doc_types or key in self.tsv_types

    def donor(self, key: str) -> str | None:
        package, name = key.rsplit(".", 1)
        group = package.split("/")[0]
        candidates = []
        for donor_group in (group, *GROUP_DONORS.get(group, ())):
            for version in VERSION_ORDER:
                candidates.append(f"{donor_group}/{version}.{name}")
        return next((c for c in candidates if c != key and c in self.doc_types), None)

    def with_tags(self, key: str, spec: dict, trust: bool = False) -> dict:
        package, name = key.rsplit(".", 1)
        fields = {}
        for field, value in spec.get("fields", {}).items():
            expr = value if isinstance(value, str) else value[0]
            row = self.tags.get((package, name, field))
            if row is None:
                fields[field] = value
                continue
            tagged = _tagged(expr, row["patch_strategy"], row["patch_merge_key"])
            if tagged != value and (trust or not isinstance(value, str)):
                self.report.append(f"tag differs {key}.{field}: source {value} tsv {tagged}")
            fields[field] = value if trust else tagged
        out = {"name": spec.get("name", name), "fields": fields}
        if spec.get("open"):
            out["open"] = True
        return out


def _tagged(expr: str, strategy: str, merge_key: str) -> str | list:
    if not strategy and not merge_key:
        return expr
    return [expr, strategy, merge_key] if merge_key else [expr, strategy]


def _repoint(value: str | list, donor_package: str, package: str, known) -> str | list:
    expr = value if isinstance(value, str) else value[0]
    base = expr.lstrip("[]").removeprefix("map[string]")
    prefix = expr[: len(expr) - len(base)]
    if base.startswith(donor_package + "."):
        candidate = package + base[len(donor_package):]
        if known(candidate):
            expr = prefix + candidate
    return expr if isinstance(value, str) else [expr, *value[1:]]


def _struct_refs(spec: dict) -> list[str]:
    out = []
    for value in spec["fields"].values():
        expr = value if isinstance(value, str) else value[0]
        while True:
            if expr.startswith("*"):
                expr = expr[1:]
            elif expr.startswith("[]"):
                expr = expr[2:]
            elif expr.startswith("map[string]"):
                expr = expr[len("map[string]"):]
            else:
                break
        if "." in expr or "/" in expr:
            out.append(expr)
    return out


def read_known(path: Path, version: str = "1.32") -> list[tuple[str, str, str]]:
    """(apiVersion, kind, Go type) of every kind kubectl ``version`` knows, from the
    recording of ``scripts/probe_kube_gvks.py`` (``-`` in a version's column: unknown)."""
    rows = read_tsv(path)
    return [(row["api_version"], row["kind"], row["go_type"]) for row in rows
            if row[version] != "-"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openapi", action="append", default=[], type=Path,
                        help="OpenAPI v2/v3 document or $defs bundle (repeatable)")
    parser.add_argument("--tsv-dir", type=Path, help="folder with list-fields.tsv, kinds.tsv")
    parser.add_argument("--kubectl-kinds", type=Path,
                        help="scripts/data/kubectl-gvks.tsv (kinds each kubectl knows)")
    parser.add_argument("--kubectl-version", default="1.32",
                        help="whose column of --kubectl-kinds to use (default 1.32)")
    parser.add_argument("--kubectl-binary", type=Path,
                        help="read the struct graph from this kubectl's Go type data")
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    docs = [table_from_openapi(json.loads(p.read_text(encoding="utf-8"))) for p in args.openapi]
    if args.tsv_dir is None:
        if not docs:
            parser.error("give --openapi, or --tsv-dir with --kubectl-kinds")
        table = {"kinds": {}, "types": {}}
        for doc in docs:
            for api_version, kinds in doc["kinds"].items():
                for kind, key in kinds.items():
                    table["kinds"].setdefault(api_version, {}).setdefault(kind, key)
            for key, spec in doc["types"].items():
                table["types"].setdefault(key, spec)
    else:
        if args.kubectl_kinds is None:
            parser.error("--tsv-dir needs --kubectl-kinds")
        go_types = (TableBuilder(Binary(str(args.kubectl_binary)))
                    if args.kubectl_binary else None)
        builder = Builder(read_tsv(args.tsv_dir / "list-fields.tsv"),
                          read_tsv(args.tsv_dir / "kinds.tsv"), docs, go_types)
        table = builder.build(read_known(args.kubectl_kinds, args.kubectl_version))
        for line in builder.report if args.verbose else ():
            print(line, file=sys.stderr)
        print(f"{sum(len(k) for k in table['kinds'].values())} kinds, "
              f"{len(table['types'])} types, "
              f"{sum(1 for t in table['types'].values() if t.get('open'))} open",
              file=sys.stderr)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(table, sort_keys=True, separators=(",", ":")) + "\n",
                           encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
