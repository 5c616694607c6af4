#!/usr/bin/env python3
"""Record what ``kubectl patch --local --type strategic`` does, as test data.

Builds strategic-merge cases (hand-written ones from the lab notes, plus seeded
random objects and patches generated from the built-in schema with directives,
nulls, duplicates and wrong types mixed in), runs each through a real kubectl
and writes one JSON line per case to ``tests/data/kube_strategic/cases.jsonl``::

    {"id": ..., "object": {...}, "patch": {...},
     "result": {...} | "error": "<kubectl's text>" | "crash": "<first stderr line>"}

Cases where kubectl answers differently on repeated runs (Go's random map order
decides which of two errors comes first, or whether ``<f>`` or
``$deleteFromPrimitiveList/<f>`` is applied first) are left out.

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

from cfgpatch.kube.schema import Node, builtin_schema  # noqa: E402

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


def lab_cases() -> list[tuple[str, dict, dict]]:
    """The strategic cases of the lab notes, on their fixtures (as kubectl reads them)."""
    path = ROOT / "tests" / "data" / "kube_strategic" / "lab_cases.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(c["id"], data["fixtures"][c["fixture"]], c["patch"]) for c in data["cases"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kubectl", default="kubectl")
    parser.add_argument("--count", type=int, default=300, help="random schema cases")
    parser.add_argument("--list-count", type=int, default=200, help="random list cases")
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
    kept = 0
    with args.output.open("w", encoding="utf-8") as out:
        for cid, obj, patch in cases:
            answers = [run_kubectl(args.kubectl, obj, patch) for _ in range(3)]
            if any(a != answers[0] for a in answers):
                continue
            out.write(json.dumps({"id": cid, "object": obj, "patch": patch, **answers[0]},
                                 sort_keys=True) + "\n")
            kept += 1
    print(f"recorded {kept} of {len(cases)} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
