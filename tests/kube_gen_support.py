"""Random objects of any built-in kind, and edited copies of them, for patch-creation
property tests (``test_kube_engine_create.py``, ``test_kube_apply_live.py``).

:class:`ObjectGen` builds an object from the merge schema (merge lists get distinct
keys, scalar merge lists distinct values, so the objects are ones the API server
accepts) and :meth:`ObjectGen.edit` changes one the way a person edits a manifest:
fields dropped, changed and added, list elements removed, added, changed and
reordered.  ``live_only=True`` also adds fields and elements the original never had
(what controllers and ``kubectl edit`` leave in a live object), never directly inside
a ``retainKeys`` map (where the patch's ``$retainKeys`` legitimately drops them).
"""

from __future__ import annotations

import random

from cfgpatch.kube.schema.node import SCALAR_KINDS

SKIP_FIELDS = {"apiVersion", "kind", "status", "managedFields", "name", "namespace",
               "generateName", "resourceVersion", "uid", "selfLink"}
OPAQUE = {"IntOrString", "Quantity", "Time", "MicroTime", "Duration", "FieldsV1",
          "RawExtension", "JSON"}
WORDS = ["a", "b", "c", "d", "e"]
#: Values kubectl's typed decoding accepts for the opaque types.
TYPED = {"Time": ["2024-01-01T00:00:00Z", "2025-06-30T12:00:00Z"],
         "MicroTime": ["2024-01-01T00:00:00.000001Z"], "Quantity": ["1", "250m", "2Gi"],
         "IntOrString": [1, 8080, "http"], "Duration": ["1s", "5m0s"]}


class ObjectGen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.fresh = 0

    # ------------------------------------------------------------------ building

    def object(self, api_version: str, kind: str, node) -> dict:
        body = self.struct(node, 0, count=3)
        return {"apiVersion": api_version, "kind": kind,
                "metadata": {"name": "x", **(body.pop("metadata", None) or {})}, **body}

    def is_scalar(self, node) -> bool:
        if node.kind == "slice" and node.elem.kind == "uint8":
            return True
        return node.kind in SCALAR_KINDS or node.kind == "open" or (
            node.kind == "struct" and (node.name in OPAQUE or not node.field_names()))

    def scalar(self, node) -> object:
        if node.kind == "struct" and node.name in TYPED:
            return self.r.choice(TYPED[node.name])
        if node.kind == "slice":
            return self.r.choice(["YQ==", "Yg=="])
        if node.kind.startswith(("int", "uint")):
            return self.r.randint(1, 4)
        if node.kind == "bool":
            return self.r.random() < 0.5
        if node.kind.startswith("float"):
            return self.r.choice([0.5, 1.5, 2.25])
        return self.r.choice(WORDS)

    def names(self, node) -> list[str]:
        return [n for n in node.field_names() if n not in SKIP_FIELDS]

    def struct(self, node, depth: int, count: int | None = None) -> dict:
        if depth > 4:
            return {}
        names = self.names(node)
        picked = self.r.sample(names, min(len(names), count or self.r.randint(1, 3)))
        return {name: self.value(*node.field(name), depth + 1) for name in picked}

    def value(self, node, meta, depth: int) -> object:
        if self.is_scalar(node):
            return self.scalar(node)
        if node.kind == "slice":
            return self.items(node, meta, depth)
        if node.kind == "map":
            return {k: self.value(node.elem, None, depth + 1)
                    for k in self.r.sample(["x", "y", "z"], self.r.randint(1, 2))}
        return self.struct(node, depth)

    def key_values(self, elem, key: str, count: int) -> list:
        child = elem.field(key)[0] if elem.kind == "struct" and elem.field(key) else None
        if child is not None and child.kind.startswith("int"):
            pool = list(range(1, 40))
        else:
            pool = [f"k{i}" for i in range(40)]
        return self.r.sample(pool, count)

    def element(self, elem, key: str, key_value, depth: int) -> dict:
        made = self.value(elem, None, depth + 1)
        item = made if isinstance(made, dict) else {}
        item[key] = key_value
        return item

    def items(self, node, meta, depth: int) -> list:
        elem = node.elem
        merge = meta is not None and meta.strategy == "merge"
        key = meta.merge_key if merge else ""
        count = self.r.randint(0, 3)
        if self.is_scalar(elem) or depth > 4:
            if merge:
                return self.distinct_scalars(elem, count)
            return [self.scalar(elem) for _ in range(count)]
        if key and elem.kind == "struct":
            return [self.element(elem, key, value, depth)
                    for value in self.key_values(elem, key, count)]
        return [self.value(elem, None, depth + 1) for _ in range(count)]

    def distinct_scalars(self, elem, count: int) -> list:
        out: list = []
        for _ in range(count * 3):
            value = self.scalar(elem) if elem.kind != "string" else f"v{self.r.randint(0, 9)}"
            if value not in out and len(out) < count:
                out.append(value)
        return out

    # ------------------------------------------------------------------ editing

    def edit(self, obj: dict, node, live_only: bool = False) -> dict:
        out = self.edit_struct(obj, node, 0, live_only, retain=False)
        out["apiVersion"], out["kind"] = obj["apiVersion"], obj["kind"]
        out.setdefault("metadata", {})["name"] = obj["metadata"]["name"]
        if "namespace" in obj["metadata"]:
            out["metadata"]["namespace"] = obj["metadata"]["namespace"]
        return out

    def edit_struct(self, value: dict, node, depth: int, live_only: bool, retain: bool) -> dict:
        out: dict = {}
        for name, item in value.items():
            found = node.field(name) if node.kind in ("struct", "map", "open") else None
            if found is None or name in SKIP_FIELDS:
                out[name] = item
                continue
            roll = self.r.random()
            if roll < 0.2 and not live_only:
                continue  # dropped
            out[name] = self.edit_value(item, *found, depth + 1, live_only) if roll < 0.6 \
                else item
        if node.kind == "struct" and depth <= 4 and self.r.random() < 0.3 and \
                not (live_only and retain):
            missing = [n for n in self.names(node) if n not in value]
            if missing:
                name = self.r.choice(missing)
                out[name] = self.value(*node.field(name), depth + 1)
        return out

    def edit_value(self, value, node, meta, depth: int, live_only: bool):
        if self.is_scalar(node):
            return self.scalar(node) if not live_only else value
        if isinstance(value, dict) and node.kind == "struct":
            retain = meta is not None and meta.retain_keys
            return self.edit_struct(value, node, depth, live_only, retain)
        if isinstance(value, dict) and node.kind == "map":
            out = dict(value)
            if not live_only and out and self.r.random() < 0.3:
                out.pop(self.r.choice(list(out)))
            if self.r.random() < 0.4:
                out[f"n{self.r.randint(0, 99)}"] = self.value(node.elem, None, depth + 1)
            return out
        if isinstance(value, list) and node.kind == "slice":
            return self.edit_list(value, node, meta, depth, live_only)
        return value

    def edit_list(self, items: list, node, meta, depth: int, live_only: bool) -> list:
        merge = meta is not None and meta.strategy == "merge"
        if not merge:
            return items if live_only else self.items(node, meta, depth)
        elem, key = node.elem, meta.merge_key
        if self.is_scalar(elem) or not key:
            out = [] if not items else list(items)
            if not live_only:
                out = [v for v in out if self.r.random() < 0.7]
                self.r.shuffle(out)
            for value in self.distinct_scalars(elem, 2):
                if value not in out and self.r.random() < 0.5:
                    out.insert(self.r.randint(0, len(out)), value)
            if out != items and sorted(map(repr, out)) == sorted(map(repr, items)):
                return list(items)  # a new order alone: no strategic patch can say it
            return out
        out = []
        for item in items:
            if not live_only and self.r.random() < 0.25:
                continue
            edited = self.edit_value(item, elem, None, depth + 1, live_only)
            edited[key] = item[key]
            out.append(edited)
        if not live_only and self.r.random() < 0.3:
            self.r.shuffle(out)
        if self.r.random() < 0.4:
            taken = {item[key] for item in items}
            for value in self.key_values(elem, key, 3):
                if value not in taken:
                    self.fresh += 1
                    fresh = f"new{self.fresh}" if isinstance(value, str) else 100 + self.fresh
                    new = self.element(elem, key, fresh, depth)
                    out.insert(self.r.randint(0, len(out)), new)
                    break
        return out
