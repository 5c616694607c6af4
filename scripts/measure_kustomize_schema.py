"""Measure where kyaml's embedded schema differs from the built-in table (``--schema``).

Called by scripts/record_kustomize_merge.py.  Two batches of probes, each one
``kubectl kustomize`` run over a tree with one resource and one patch per probe:

* kinds: every ``apiVersion``/``kind`` of the built-in table gets
  ``metadata.finalizers: [a]`` patched with ``[b]``; kyaml merges it (``[b, a]``) only
  for a kind whose schema it has, so a result ``[b]`` is an unknown kind;
* lists: every merged list of /work/shared/k8s/paths.tsv (``merge-by-key`` and
  ``union(primitive)`` rows), reached through merged lists only, gets a two-element list
  patched with one element matching the second on its merge key: one element in the
  result means kyaml replaced the list (a field its schema does not have); a list with
  several ``listMapKeys`` also gets an element agreeing on the merge key only, to see
  whether kyaml keys it on all of them.

Writes src/cfgpatch/kube/kustomize/data/kustomize.json (``--check``: only reports).
"""

from __future__ import annotations

import csv
import json
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FACTS = ROOT / "src" / "cfgpatch" / "kube" / "kustomize" / "data" / "kustomize.json"
PATHS = Path("/work/shared/k8s/paths.tsv")
TABLE = ROOT / "src" / "cfgpatch" / "kube" / "schema" / "data" / "builtin.json"


def _yaml(value: object) -> str:
    return json.dumps(value) + "\n"  # JSON is YAML


def run_batch(kubectl: str, pairs: list[tuple[dict, dict]]) -> list[dict]:
    """Build resources and patches in one tree; the patched resources by name."""
    with tempfile.TemporaryDirectory(prefix="kmerge-schema-") as tmp:
        tree = Path(tmp)
        names = []
        for index, (resource, patch) in enumerate(pairs):
            (tree / f"r{index}.yaml").write_text(_yaml(resource), encoding="utf-8")
            (tree / f"p{index}.yaml").write_text(_yaml(patch), encoding="utf-8")
            names.append(index)
        kustomization = {"resources": [f"r{i}.yaml" for i in names],
                         "patches": [{"path": f"p{i}.yaml"} for i in names]}
        (tree / "kustomization.yaml").write_text(_yaml(kustomization), encoding="utf-8")
        proc = subprocess.run([kubectl, "kustomize", str(tree)], capture_output=True,
                              text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    import yaml  # scripts may use PyYAML

    return [doc for doc in yaml.safe_load_all(proc.stdout) if doc]


def _kinds() -> list[tuple[str, str]]:
    table = json.loads(TABLE.read_text(encoding="utf-8"))
    out = []
    for api_version, kinds in table["kinds"].items():
        for kind in kinds:
            if kind.endswith("List") or kind.endswith("Options") or kind in (
                    "Status", "APIVersions", "WatchEvent", "APIGroup", "APIGroupList",
                    "APIResourceList"):
                continue
            out.append((api_version, kind))
    return sorted(out)


#: Kinds kyaml's schema (Kubernetes v1.21) has and the built-in table does not, with the
#: table kind whose schema stands in for them (a ConfigMap: only ``metadata`` has merged
#: lists, as for these kinds in v1.21).
HPA = "HorizontalPodAutoscaler"
ALIAS_CANDIDATES = {
    ("autoscaling/v2beta1", HPA): ("autoscaling/v1", HPA),
    ("autoscaling/v2beta2", HPA): ("autoscaling/v1", HPA),
    ("policy/v1beta1", "PodSecurityPolicy"): ("v1", "ConfigMap"),
    ("apiextensions.k8s.io/v1", "CustomResourceDefinition"): ("v1", "ConfigMap"),
    ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition"): ("v1", "ConfigMap"),
    ("apiregistration.k8s.io/v1", "APIService"): ("v1", "ConfigMap"),
    ("apiregistration.k8s.io/v1beta1", "APIService"): ("v1", "ConfigMap"),
}


def measure_aliases(kubectl: str) -> dict[str, list[str]]:
    """The candidates kyaml knows (it merges their finalizers)."""
    kinds = sorted(ALIAS_CANDIDATES)
    pairs = [({"apiVersion": av, "kind": kind,
               "metadata": {"name": f"k{i}", "finalizers": ["a"]}},
              {"apiVersion": av, "kind": kind,
               "metadata": {"name": f"k{i}", "finalizers": ["b"]}})
             for i, (av, kind) in enumerate(kinds)]
    out = {}
    for doc in run_batch(kubectl, pairs):
        kind = kinds[int(doc["metadata"]["name"][1:])]
        if doc["metadata"].get("finalizers") == ["b", "a"]:
            out["/".join(kind)] = list(ALIAS_CANDIDATES[kind])
    return dict(sorted(out.items()))


def measure_kinds(kubectl: str) -> list[list[str]]:
    pairs = []
    kinds = _kinds()
    for index, (api_version, kind) in enumerate(kinds):
        meta = {"name": f"k{index}"}
        pairs.append(({"apiVersion": api_version, "kind": kind,
                       "metadata": {**meta, "finalizers": ["a"]}},
                      {"apiVersion": api_version, "kind": kind,
                       "metadata": {**meta, "finalizers": ["b"]}}))
    unknown = []
    for doc in run_batch(kubectl, pairs):
        index = int(doc["metadata"]["name"][1:])
        if doc["metadata"].get("finalizers") == ["b"]:
            unknown.append(list(kinds[index]))
    return sorted(unknown)


def _rows() -> list[dict]:
    with PATHS.open(encoding="utf-8") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def _element(row: dict | None, value: str) -> dict:
    """An element of a merged list, keyed with ``value`` on all its keys."""
    if row is None:
        return {}
    keys = [k for k in (row["list_map_keys"] or row["patch_merge_key"]).split(",") if k]
    return {k: value for k in keys}


def _build(path: str, leaf: list, rows: dict[str, dict]) -> dict | None:
    """The nested object reaching ``path`` (``a.b[].c[]``), with ``leaf`` as the list."""
    parts = path[:-2].split(".")
    root: dict = {}
    node = root
    prefix = ""
    for i, part in enumerate(parts):
        name = part[:-2] if part.endswith("[]") else part
        prefix = f"{prefix}.{name}" if prefix else name
        if i == len(parts) - 1:
            node[name] = leaf
            break
        if part.endswith("[]"):
            row = rows.get(prefix + "[]")
            if row is None or not row["smp_effect"].startswith("merge-by-key"):
                return None
            element = _element(row, "p")
            node[name] = [element]
            node = element
            prefix += "[]"
        else:
            node[name] = {}
            node = node[name]
    return root


def _table_owner(api_version: str, kind: str, path: str) -> str | None:
    """``"Struct.field"`` of the list at ``path``, with the table's struct name (the key
    of the corrections: an inlined Go struct has its container's name there)."""
    from cfgpatch.kube.schema.node import builtin_schema

    node = builtin_schema().for_kind(api_version, kind)
    parts = path[:-2].split(".")
    for part in parts[:-1]:
        found = node.field(part[:-2] if part.endswith("[]") else part) if node else None
        node = found[0] if found else None
        if node is not None and part.endswith("[]"):
            node = node.elem if node.kind == "slice" else None
    if node is None or node.kind != "struct":
        return None
    return f"{node.name}.{parts[-1]}"


def _probes(unknown: set[tuple[str, str]]) -> list[tuple[str, str, dict, dict, str]]:
    by_kind: dict[tuple[str, str], dict[str, dict]] = {}
    for row in _rows():
        by_kind.setdefault((row["api_version"], row["kind"]), {})[row["json_path"]] = row
    seen: set[str] = set()
    probes = []
    for (api_version, kind), rows in sorted(by_kind.items()):
        if (api_version, kind) in unknown:
            continue
        for path, row in sorted(rows.items()):
            effect = row["smp_effect"]
            if not (effect.startswith("merge-by-key") or effect == "union(primitive)"):
                continue
            owner = _table_owner(api_version, kind, path)
            if owner is None:
                continue
            for test in ("merge", "keys"):
                keys = [k for k in row["list_map_keys"].split(",") if k]
                if test == "keys" and len(keys) < 2:
                    continue
                if (owner, test) in seen:
                    continue
                if effect == "union(primitive)":
                    before, after = ["a"], ["b"]
                elif test == "merge":
                    key = row["patch_merge_key"]
                    before, after = [{key: "a"}, {key: "b"}], [{key: "b", "zz": "1"}]
                else:
                    first = {k: "a" for k in keys}
                    before = [first]
                    after = [{**first, keys[1]: "b"}]
                resource = _build(path, before, rows)
                patch = _build(path, after, rows)
                if resource is None or patch is None:
                    continue
                seen.add((owner, test))
                probes.append((owner, test, {"apiVersion": api_version, "kind": kind,
                                             **resource},
                               {"apiVersion": api_version, "kind": kind, **patch}, path))
    return probes


def _leaf(doc: dict, path: str) -> list:
    node: object = doc
    for part in path[:-2].split("."):
        name = part[:-2] if part.endswith("[]") else part
        node = node.get(name) if isinstance(node, dict) else None
        if part.endswith("[]"):
            node = node[0] if isinstance(node, list) and node else None
    return node if isinstance(node, list) else []


def measure_lists(kubectl: str, unknown: set[tuple[str, str]]) -> tuple[list[str], dict]:
    probes = _probes(unknown)
    pairs = []
    for index, (_, _, resource, patch, _) in enumerate(probes):
        for doc in (resource, patch):
            doc.setdefault("metadata", {})["name"] = f"l{index}"
        pairs.append((resource, patch))
    docs = {doc["metadata"]["name"]: doc for doc in run_batch(kubectl, pairs)}
    replaced, multi = [], {}
    for index, (owner, test, _, _, path) in enumerate(probes):
        leaf = _leaf(docs[f"l{index}"], path)
        if test == "merge" and len(leaf) == 1:
            replaced.append(owner)
        if test == "keys" and len(leaf) == 2:
            row = next(r for r in _rows() if r["json_path"] == path)
            multi[owner] = ["merge", row["list_map_keys"].split(",")]
    return sorted(set(replaced)), dict(sorted(multi.items()))


def measure(kubectl: str, check: bool = False) -> int:
    unknown_kinds = measure_kinds(kubectl)
    unknown_fields, lists = measure_lists(kubectl, {tuple(k) for k in unknown_kinds})
    facts = {"comment": "kyaml's embedded schema where it differs from the built-in table; "
                        "measured with kubectl kustomize by "
                        "scripts/record_kustomize_merge.py --schema",
             "unknown_kinds": unknown_kinds, "unknown_fields": unknown_fields,
             "lists": lists, "aliases": measure_aliases(kubectl)}
    text = json.dumps(facts, indent=1, sort_keys=True) + "\n"
    old = FACTS.read_text(encoding="utf-8") if FACTS.exists() else ""
    print(f"{len(unknown_kinds)} unknown kinds, {len(unknown_fields)} lists replaced, "
          f"{len(lists)} lists on several keys; {'unchanged' if old == text else 'changed'}")
    if not check:
        FACTS.write_text(text, encoding="utf-8")
    return 1 if check and old != text else 0
