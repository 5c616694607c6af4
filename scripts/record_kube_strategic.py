#!/usr/bin/env python3
"""Record what ``kubectl patch --local --type strategic`` does, as test data.

Builds strategic-merge cases (hand-written ones from the lab notes, plus seeded
random objects and patches generated from the built-in schema with directives,
nulls, duplicates and wrong types mixed in), runs each through a real kubectl
and writes one JSON line per case to ``tests/data/kube_strategic/cases.jsonl``::

    {"id": ..., "object": {...}, "patch": {...},
     "result": {...} | "error": "<kubectl's text>" | "crash": "<first stderr line>"}

Group ``primitive`` holds ``$deleteFromPrimitiveList/<f>`` next to ``<f>`` in one map,
where kubectl's answer can depend on which of the two keys Go's map walk takes first:
each case runs eight times in the patch's key order and eight times with the two keys
swapped; the majority answer of the patch's order is recorded, and the swapped order's
answer as ``other_order`` when it differs.

Other cases where kubectl answers differently on repeated runs (Go's random map order
decides which of two errors comes first, or whether ``<f>`` or
``$deleteFromPrimitiveList/<f>`` is applied first) are left out: every case runs
three times, an error eight times.

    python scripts/record_kube_strategic.py --kubectl kubectl.1.32 [--count 300]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from cfgpatch.kube.schema.node import Node, builtin_schema  # noqa: E402

KINDS = [("apps/v1", "Deployment"), ("v1", "Service"), ("v1", "Pod"), ("batch/v1", "CronJob"),
         ("networking.k8s.io/v1", "NetworkPolicy"), ("v1", "ServiceAccount"),
         ("apps/v1", "StatefulSet"), ("policy/v1", "PodDisruptionBudget"), ("v1", "Node"),
         ("apps/v1", "DaemonSet"), ("v1", "Namespace"),
         ("autoscaling/v2", "HorizontalPodAutoscaler")]
POOL = ["a", "b", "c"]
LETTERS = [chr(97 + i) for i in range(26)]


def run_kubectl(kubectl: str, obj: dict, patch: dict) -> dict:
    """kubectl's answer: ``{"result": ...}``, ``{"error": ...}`` or ``{"crash": ...}``."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(obj, handle)
    try:
        proc = subprocess.run([kubectl, "patch", "--local", "-f", handle.name, "--type",
                               "strategic", "-p", json.dumps(patch), "-o", "json"],
                              capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(handle.name)
    if proc.returncode == 0:
        return {"result": json.loads(proc.stdout)}
    if proc.returncode == 2:
        return {"crash": proc.stderr.split("\n")[0]}
    text = proc.stderr.removeprefix("error: ").rstrip("\n")
    return {"error": text}


class Generator:
    """Random objects and strategic patches that follow (and sometimes break) a schema."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def scalar(self, kind: str) -> object:
        rnd = self.rnd
        odd = rnd.random() < 0.1
        if kind in ("int32", "int64"):
            return rnd.choice(["1", 1.5]) if odd else rnd.choice([1, 2, 80, 443])
        if kind == "bool":
            return rnd.choice([True, False])
        return rnd.choice([1, True]) if odd else rnd.choice(POOL)

    def value(self, node: Node, depth: int, patch: bool) -> object:
        kind = node.kind
        if depth > 5 or kind in ("open", "interface"):
            return self.scalar("string")
        if kind == "struct":
            return self.struct(node, depth, patch)
        if kind == "map":
            return {self.rnd.choice(POOL): self.value(node.elem, depth + 1, patch)
                    for _ in range(self.rnd.randint(0, 2))}
        if kind == "slice":
            return [self.value(node.elem, depth + 1, patch)
                    for _ in range(self.rnd.randint(0, 3))]
        return self.scalar(kind)

    def struct(self, node: Node, depth: int, patch: bool) -> dict:
        names = node.field_names()
        out: dict = {}
        for name in self.rnd.sample(names, min(len(names), self.rnd.randint(1, 3))):
            child, meta = node.field(name)
            out[name] = self.field(child, meta, depth + 1, patch)
        if patch and names:
            self.directives(out, node)
        return out

    def field(self, child: Node, meta, depth: int, patch: bool) -> object:
        rnd = self.rnd
        if patch and rnd.random() < 0.08:
            return None
        if child.kind == "slice" and meta.merge_key and child.elem.kind == "struct":
            key_field = child.elem.field(meta.merge_key)
            items = []
            for _ in range(rnd.randint(0, 3)):
                item = self.value(child.elem, depth + 1, patch)
                item = item if isinstance(item, dict) else {}
                if rnd.random() < 0.95:
                    item[meta.merge_key] = (self.scalar(key_field[0].kind) if key_field
                                            else rnd.choice(POOL))
                if patch and rnd.random() < 0.15:
                    item["$patch"] = rnd.choice(["delete", "delete", "replace", "merge", "x"])
                items.append(item)
            return items
        return self.value(child, depth, patch)

    def directives(self, out: dict, node: Node) -> None:
        rnd = self.rnd
        names = node.field_names()
        lists = [n for n in names if node.field(n)[0].kind == "slice"]
        roll = rnd.random()
        if roll < 0.05:
            out["$patch"] = rnd.choice(["replace", "delete", "merge"])
        elif roll < 0.12:
            out["$retainKeys"] = (rnd.sample(names, min(3, len(names)))
                                  + list(out)[:rnd.randint(0, len(out))])
        elif roll < 0.2 and lists:
            name = rnd.choice(lists)
            child, meta = node.field(name)
            if meta.merge_key:
                out[f"$setElementOrder/{name}"] = [{meta.merge_key: rnd.choice(POOL)}
                                                   for _ in range(rnd.randint(0, 3))]
            elif child.elem.kind != "struct":
                out[f"$setElementOrder/{name}"] = [self.scalar(child.elem.kind)
                                                   for _ in range(rnd.randint(0, 3))]
        elif roll < 0.25:
            plain = [n for n in lists if node.field(n)[0].elem.kind != "struct"]
            if plain:
                name = rnd.choice(plain)
                if name not in out:
                    out[f"$deleteFromPrimitiveList/{name}"] = [
                        self.scalar("string") for _ in range(rnd.randint(0, 2))]

    def case(self) -> tuple[dict, dict]:
        schema = builtin_schema()
        api_version, kind = self.rnd.choice(KINDS)
        root = schema.for_kind(api_version, kind)
        obj = self.struct(root, 0, False)
        obj.update({"apiVersion": api_version, "kind": kind, "metadata": {"name": "x"}})
        tops = [n for n in root.field_names() if n not in ("apiVersion", "kind", "metadata")]
        top = self.rnd.choice(tops)
        patch = {top: self.field(*root.field(top), 1, True)}
        if self.rnd.random() < 0.3:
            patch["metadata"] = self.field(*root.field("metadata"), 1, True)
        return obj, patch

    def kind_case(self, api_version: str, kind: str) -> tuple[dict, dict] | None:
        """A random object and patch of one kind (one top-level field patched)."""
        root = builtin_schema().for_kind(api_version, kind)
        tops = [n for n in root.field_names() if n not in ("apiVersion", "kind", "metadata")]
        if not tops:
            return None
        obj = self.struct(root, 0, False)
        obj.pop("metadata", None)
        obj.update({"apiVersion": api_version, "kind": kind})
        top = self.rnd.choice(tops)
        return obj, {top: self.field(*root.field(top), 1, True)}

    def list_case(self, pool: list[str], size: int) -> tuple[dict, dict]:
        """Finalizers (a primitive union) and containers (keyed) with duplicates."""
        rnd = self.rnd

        def some(limit: int) -> list:
            return [rnd.choice(pool) for _ in range(rnd.randint(0, limit))]

        obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}}
        if rnd.random() < 0.9:
            obj["metadata"]["finalizers"] = some(size)
        if rnd.random() < 0.9:
            obj["spec"]["containers"] = [{"name": n, "image": f"i{j}"}
                                         for j, n in enumerate(some(size))]
        meta: dict = {}
        if rnd.random() < 0.5:
            meta["finalizers"] = some(size)
        elif rnd.random() < 0.4:
            meta["$deleteFromPrimitiveList/finalizers"] = some(2)
        if rnd.random() < 0.3:
            meta["$setElementOrder/finalizers"] = some(size)
        spec: dict = {}
        if rnd.random() < 0.7:
            spec["containers"] = [self.container(rnd.choice(pool))
                                  for _ in range(rnd.randint(0, 4))]
        if rnd.random() < 0.3:
            spec["$setElementOrder/containers"] = [{"name": n} for n in some(size)]
        patch = {key: value for key, value in (("metadata", meta), ("spec", spec)) if value}
        return obj, patch

    def container(self, name: str) -> dict:
        roll = self.rnd.random()
        item: dict = {"name": name}
        if roll < 0.2:
            item["$patch"] = "delete"
        elif roll < 0.25:
            item["$patch"] = "replace"
        elif roll < 0.6:
            item["image"] = "new"
        elif roll < 0.7:
            item["image"] = None
        return item


class Mutator:
    """Realistic strategic patches for a real manifest: mostly its own keys and elements."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def patch(self, obj: dict, node: Node) -> dict:
        tops = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}
        out = self.map_patch(tops, node, 0)
        out.pop("$patch", None)  # these would drop apiVersion and kind, which kubectl
        out.pop("$retainKeys", None)  # then refuses to print (not strategic merge's doing)
        return {k: v for k, v in out.items() if k not in ("apiVersion", "kind")} or {
            "metadata": {"labels": {"patched": "yes"}}}

    def map_patch(self, value: dict, node: Node, depth: int) -> dict:
        rnd = self.rnd
        out: dict = {}
        keys = list(value)
        extra = [f for f in node.field_names() if f not in value]
        picks = rnd.sample(keys, min(len(keys), rnd.randint(1, 2))) if keys else []
        if extra and rnd.random() < 0.2:
            picks.append(rnd.choice(extra))
        for key in picks:
            found = node.field(key) if node.kind in ("struct", "map", "open") else None
            child, meta = found if found else (node, None)
            out[key] = self.value_patch(value.get(key), child, meta, depth + 1)
        roll = rnd.random()
        if roll < 0.04:
            out["$patch"] = rnd.choice(["replace", "delete"])
        elif roll < 0.1 and keys:
            out["$retainKeys"] = rnd.sample(keys, rnd.randint(0, len(keys))) + [
                k for k in out if rnd.random() < 0.9]
        return out

    def value_patch(self, current: object, node: Node, meta, depth: int) -> object:
        rnd = self.rnd
        if rnd.random() < 0.07 or depth > 6:
            return None
        if isinstance(current, dict) and node.kind in ("struct", "map", "open"):
            return self.map_patch(current, node, depth)
        if isinstance(current, list) and node.kind == "slice":
            return self.list_patch(current, node, meta, depth)
        if current is None and node.kind == "struct":
            return self.map_patch({}, node, depth)
        if isinstance(current, bool):
            return not current
        if isinstance(current, int):
            return current + rnd.choice([1, -1, 100])
        return rnd.choice(["x", "y", str(current) + "-2" if current is not None else "z"])

    def list_patch(self, current: list, node: Node, meta, depth: int) -> list:
        rnd = self.rnd
        key = meta.merge_key if meta else ""
        strategy = meta.strategy if meta else ""
        if strategy != "merge":
            items = list(current)
            if items and rnd.random() < 0.5:
                items.pop(rnd.randrange(len(items)))
            if rnd.random() < 0.5 and items:
                items.append(items[0])
            return items
        if not key:
            pool = [v for v in current if not isinstance(v, (dict, list))] + ["new-1", "new-2"]
            return [rnd.choice(pool) for _ in range(rnd.randint(0, 3))]
        out = []
        existing = [item for item in current if isinstance(item, dict) and key in item]
        for _ in range(rnd.randint(1, 3)):
            roll = rnd.random()
            if existing and roll < 0.6:
                base = rnd.choice(existing)
                item = self.map_patch(base, node.elem, depth + 1)
                item.pop("$patch", None)
                item[key] = base[key]
                if rnd.random() < 0.15:
                    item = {key: base[key], "$patch": rnd.choice(["delete", "replace"])}
            else:
                item = {key: f"new-{rnd.randint(1, 3)}" if not existing or
                        isinstance(existing[0][key], str) else rnd.randint(1, 9000)}
            out.append(item)
        return out

    def case(self, manifests: dict[str, dict]) -> tuple[dict, dict]:
        schema = builtin_schema()
        name = self.rnd.choice(sorted(manifests))
        obj = manifests[name]
        node = schema.for_kind(obj["apiVersion"], obj["kind"])
        return obj, self._orders(obj, self.patch(obj, node), node)

    def _orders(self, obj: dict, patch: dict, node: Node) -> dict:
        """Sometimes add a $setElementOrder for a keyed list the patch touches."""
        if self.rnd.random() > 0.25:
            return patch
        stack = [(obj, patch, node)]
        while stack:
            current, part, where = stack.pop()
            if not isinstance(current, dict) or not isinstance(part, dict):
                continue
            for key, value in list(part.items()):
                found = where.field(key) if where.kind == "struct" else None
                if found is None or key.startswith("$"):
                    continue
                child, meta = found
                if isinstance(value, list) and meta.merge_key and isinstance(
                        current.get(key), list):
                    keys = [i[meta.merge_key] for i in current[key]
                            if isinstance(i, dict) and meta.merge_key in i]
                    keys += [i[meta.merge_key] for i in value
                             if isinstance(i, dict) and meta.merge_key in i
                             and i.get("$patch") != "delete" and i[meta.merge_key] not in keys]
                    self.rnd.shuffle(keys)
                    part[f"$setElementOrder/{key}"] = [{meta.merge_key: k} for k in keys]
                    return patch
                stack.append((current.get(key), value, child))
        return patch


class Clasher:
    """Object and patch both holding lists or objects where the schema has another
    shape (lookup errors, pointer fields taking a list whole, nested lookups)."""

    SHAPES = ([1, 2], ["a"], [{"k": 1}], {"a": {"b": 1}}, {"a": [1]}, {"x": 1})

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def paths(self, value: object, node: Node, prefix: tuple) -> list[tuple]:
        out: list[tuple] = []
        if isinstance(value, dict) and node.kind in ("struct", "map"):
            for key, item in value.items():
                found = node.field(key)
                if found is not None:
                    out.append((*prefix, key))
                    out += self.paths(item, found[0], (*prefix, key))
        return out

    def case(self, objects: dict[str, dict]) -> tuple[dict, dict]:
        name = self.rnd.choice(sorted(objects))
        obj = json.loads(json.dumps(objects[name]))
        node = builtin_schema().for_kind(obj["apiVersion"], obj["kind"])
        choices = [p for p in self.paths(obj, node, ())
                   if p[0] not in ("metadata", "apiVersion", "kind")]
        path = self.rnd.choice(choices)
        target = obj
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = json.loads(json.dumps(self.rnd.choice(self.SHAPES)))
        patch: dict = {}
        holder = patch
        for step in path[:-1]:
            holder = holder.setdefault(step, {})
        holder[path[-1]] = json.loads(json.dumps(self.rnd.choice(self.SHAPES)))
        return obj, patch


def manifests() -> dict[str, dict]:
    """The corpus manifests of kinds kubectl knows, as kubectl reads them."""
    path = ROOT / "tests" / "data" / "kube_strategic" / "manifests.json"
    return json.loads(path.read_text(encoding="utf-8"))


def lab_cases() -> list[tuple[str, dict, dict]]:
    """The strategic cases of the lab notes, on their fixtures (as kubectl reads them)."""
    path = ROOT / "tests" / "data" / "kube_strategic" / "lab_cases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(c["id"], data["fixtures"][c["fixture"]], c["patch"]) for c in data["cases"]]


def _group(case_id: str) -> str:
    head = case_id.split("-", 1)[0]
    return head if head in ("schema", "lists", "manifest", "clash", "kind",
                            "primitive") else "lab"


def _configmap(finalizers: list | None) -> dict:
    meta: dict = {"name": "x"}
    if finalizers is not None:
        meta["finalizers"] = finalizers
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta}


def primitive_cases(seed: int, count: int) -> list[tuple[str, dict, dict]]:
    """``$deleteFromPrimitiveList/f`` and ``f`` in one map: duplicates, several
    deletions, values in both, kept positions, either key first."""
    dfl = "$deleteFromPrimitiveList/finalizers"
    out: list[tuple[str, dict, dict]] = []
    fixed = [(["a", "a", "c"], ["c"], ["b"]), (["a", "c", "a"], ["c"], ["b"]),
             (["a", "a", "c", "d"], ["c"], ["b"]), (["a", "c"], ["c"], ["c"]),
             (None, ["c"], ["c"]), (["a", "b", "c", "d", "e"], ["b", "d"], ["f", "a"]),
             (["a", "a", "a", "b"], ["b", "b"], ["c", "a"])]
    for i, (have, delete, add) in enumerate(fixed):
        out.append((f"primitive-fixed-{i}-delete-first", _configmap(have),
                    {"metadata": {dfl: delete, "finalizers": add}}))
        out.append((f"primitive-fixed-{i}-merge-first", _configmap(have),
                    {"metadata": {"finalizers": add, dfl: delete}}))
    rnd = random.Random(seed)
    pool = ["a", "b", "c", "d", "e"]
    for i in range(count):
        have = [rnd.choice(pool) for _ in range(rnd.randint(0, 13))]
        delete = [rnd.choice(pool) for _ in range(rnd.randint(1, 3))]
        add = [rnd.choice(pool + ["f", "g"]) for _ in range(rnd.randint(1, 6))]
        parts = [(dfl, delete), ("finalizers", add)]
        if rnd.random() < 0.5:
            parts.reverse()
        obj = _configmap(have if have or rnd.random() < 0.7 else None)
        out.append((f"primitive-random-{i}", obj, {"metadata": dict(parts)}))
    namespace = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x"},
                 "spec": {"finalizers": ["kubernetes", "a", "a", "b"]}}
    for order in ("delete-first", "set-first"):
        parts = [("$deleteFromPrimitiveList/finalizers", ["a"]), ("finalizers", ["c", "a"])]
        if order == "set-first":
            parts.reverse()
        out.append((f"primitive-namespace-{order}", namespace, {"spec": dict(parts)}))
    return out


def _swapped(patch: dict) -> dict:
    """The patch with the keys of every map holding a primitive-list pair reversed."""
    if not isinstance(patch, dict):
        return patch
    keys = list(patch)
    if any(k.startswith("$deleteFromPrimitiveList/") and k.split("/", 1)[1] in patch
           for k in keys):
        keys.reverse()
    return {k: _swapped(patch[k]) for k in keys}


def record_primitive(kubectl: str, obj: dict, patch: dict) -> dict | None:
    """The majority answer in the patch's key order, plus the swapped order's if it differs."""
    def majority(body: dict) -> dict | None:
        answers = [run_kubectl(kubectl, obj, body) for _ in range(8)]
        texts = [json.dumps(a, sort_keys=True) for a in answers]
        best = max(set(texts), key=texts.count)
        return json.loads(best) if texts.count(best) >= 5 else None
    ours, other = majority(patch), majority(_swapped(patch))
    if ours is None or other is None:
        return None
    return ours if other == ours else {**ours, "other_order": other}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kubectl", default="kubectl")
    parser.add_argument("--count", type=int, default=300, help="random schema cases")
    parser.add_argument("--list-count", type=int, default=200, help="random list cases")
    parser.add_argument("--mutation-count", type=int, default=300,
                        help="realistic patches of the corpus manifests")
    parser.add_argument("--clash-count", type=int, default=150,
                        help="wrong shapes on both sides of real manifests")
    parser.add_argument("--primitive-count", type=int, default=40,
                        help="random $deleteFromPrimitiveList cases")
    parser.add_argument("--only", action="append",
                        choices=["lab", "schema", "lists", "manifest", "clash", "kind",
                                 "primitive"],
                        help="record only these groups (default: all)")
    parser.add_argument("--append", action="store_true", help="append to the output")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path,
                        default=ROOT / "tests" / "data" / "kube_strategic" / "cases.jsonl")
    args = parser.parse_args(argv)
    gen = Generator(args.seed)
    cases = [(cid, obj, patch) for cid, obj, patch in lab_cases()]
    cases += [(f"schema-{i}", *gen.case()) for i in range(args.count)]
    for i in range(args.list_count):
        pool, size = (POOL + ["d", "e"], 6) if i % 3 else (LETTERS, 30)
        cases.append((f"lists-{i}", *gen.list_case(pool, size)))
    mutator = Mutator(args.seed)
    objects = manifests()
    cases += [(f"manifest-{i}", *mutator.case(objects)) for i in range(args.mutation_count)]
    clasher = Clasher(args.seed)
    cases += [(f"clash-{i}", *clasher.case(objects)) for i in range(args.clash_count)]
    kinds_gen = Generator(args.seed + 1)
    for api_version, kind in builtin_schema().kinds():
        found = None if kind.endswith("List") else kinds_gen.kind_case(api_version, kind)
        if found is not None:  # kubectl reads a *List file as its items, not as one object
            cases.append((f"kind-{api_version}-{kind}", *found))
    cases += primitive_cases(args.seed, args.primitive_count)
    if args.only:
        cases = [c for c in cases if _group(c[0]) in args.only]
    kept = 0
    with args.output.open("a" if args.append else "w", encoding="utf-8") as out:
        for cid, obj, patch in cases:
            if _group(cid) == "primitive":
                answer = record_primitive(args.kubectl, obj, patch)
                if answer is not None:  # the patch's key order is the point: keep it
                    out.write(json.dumps({"id": cid, "object": obj, "patch": patch, **answer})
                              + "\n")
                    kept += 1
                continue
            answers = [run_kubectl(args.kubectl, obj, patch) for _ in range(3)]
            if "error" in answers[0]:  # two errors in one patch: Go's map order picks one
                answers += [run_kubectl(args.kubectl, obj, patch) for _ in range(5)]
            if any(a != answers[0] for a in answers):
                continue
            out.write(json.dumps({"id": cid, "object": obj, "patch": patch, **answers[0]},
                                 sort_keys=True) + "\n")
            kept += 1
    print(f"recorded {kept} of {len(cases)} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
