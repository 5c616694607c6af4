"""kustomize's merge-key facts: which lists its strategic merge merges, and on which keys.

kustomize (kyaml) does not use kubectl's compiled-in struct tags.  Its walker asks an
OpenAPI schema, found for a resource by its ``apiVersion`` and ``kind``:

* by default the Kubernetes OpenAPI document kyaml embeds (kubernetes v1.21.2, older
  than today's API).  We model it as the built-in table of :mod:`..schema.node` (the
  current API) corrected by the facts measured with ``kubectl kustomize``
  (``data/kustomize.json``, re-measured by ``scripts/record_kustomize_merge.py
  --schema``): the kinds kyaml does not know at all (newer than v1.21, or removed
  before it), list fields it has no schema for (newer than v1.21), the lists whose
  ``x-kubernetes-list-map-keys`` name several keys (kyaml merges on all of them), and
  kinds kyaml knows that the table lacks (``aliases``: a table kind stands in);
* with ``openapi: {path: ...}`` in the kustomization, that document
  (:meth:`KustomizeSchema.with_openapi`): the built-in one is not consulted at all,
  unless kyaml had parsed it before the document was set (:mod:`.openapi`).

A list is merged (rather than replaced) only when its schema's
``x-kubernetes-patch-strategy`` includes ``merge`` (``merge,retainKeys`` does; kyaml
ignores ``retainKeys``); its keys are ``x-kubernetes-list-map-keys`` when
present, else ``x-kubernetes-patch-merge-key``, else none (a list of scalars).
CustomResourceDefinitions among the resources are not read for merging (measured:
their ``x-kubernetes-list-*`` and ``x-kubernetes-patch-*`` markers change nothing),
so :meth:`KustomizeSchema.with_crds` returns the same schema; a CRD's schema takes
effect only when it is part of the ``openapi:`` document.
"""

from __future__ import annotations

import json
from functools import lru_cache

from ...package_data import read_text
from ..schema.node import NO_META, PatchMeta, Schema, builtin_kinds, builtin_schema

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PATCH_STRATEGY = "x-kubernetes-patch-strategy"
MERGE_KEY = "x-kubernetes-patch-merge-key"
LIST_MAP_KEYS = "x-kubernetes-list-map-keys"
GVK = "x-kubernetes-group-version-kind"


class SchemaNode:
    """One schema position as kyaml's ``ResourceSchema`` sees it."""

    def field(self, name: str) -> SchemaNode | None:  # pragma: no cover - interface
        raise NotImplementedError

    def elements(self) -> SchemaNode | None:  # pragma: no cover - interface
        raise NotImplementedError

    def strategy(self) -> str:
        """``x-kubernetes-patch-strategy`` ("" when absent)."""
        return ""

    def merge_keys(self) -> list[str]:
        """kyaml's ``PatchStrategyAndKeyList`` keys (only when a strategy is set)."""
        return []


# ---------------------------------------------------------------- OpenAPI documents


class OpenAPINode(SchemaNode):
    """A node of an OpenAPI v2 document (``definitions`` with ``$ref``)."""

    def __init__(self, definitions: dict, schema: dict) -> None:
        self.definitions = definitions
        self.schema = schema

    def _resolve(self, schema: Any) -> OpenAPINode | None:
        seen = 0
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
            ref = schema["$ref"]
            name = ref.rsplit("/", 1)[-1] if ref.startswith("#/definitions/") else None
            schema = self.definitions.get(name) if name else None
            seen += 1
            if seen > 100:
                return None
        return OpenAPINode(self.definitions, schema) if isinstance(schema, dict) else None

    def field(self, name: str) -> SchemaNode | None:
        props = self.schema.get("properties")
        if isinstance(props, dict) and name in props:
            return self._resolve(props[name])
        extra = self.schema.get("additionalProperties")
        if isinstance(extra, dict):
            return self._resolve(extra)
        return None

    def elements(self) -> SchemaNode | None:
        kind = self.schema.get("type")
        if kind != "array" and kind != ["array"]:
            return None
        return self._resolve(self.schema.get("items"))

    def strategy(self) -> str:
        value = self.schema.get(PATCH_STRATEGY)
        return value if isinstance(value, str) else ""

    def merge_keys(self) -> list[str]:
        if PATCH_STRATEGY not in self.schema:
            return []
        keys = self.schema.get(LIST_MAP_KEYS)
        if isinstance(keys, list):
            return [str(k) for k in keys]
        key = self.schema.get(MERGE_KEY)
        return [key] if isinstance(key, str) else []


def _gvk_index(definitions: dict) -> dict[tuple[str, str], dict]:
    out: dict[tuple[str, str], dict] = {}
    for definition in definitions.values():
        if not isinstance(definition, dict):
            continue
        for gvk in definition.get(GVK) or ():
            if not isinstance(gvk, dict) or not isinstance(gvk.get("kind"), str):
                continue
            version = str(gvk.get("version", ""))
            group = gvk.get("group") or ""
            out[(f"{group}/{version}" if group else version, gvk["kind"])] = definition
    return out


# ---------------------------------------------------------------- the built-in schema


class BuiltinNode(SchemaNode):
    """A position in the built-in table, with kustomize's measured corrections.

    ``owner`` is ``"GoStruct.field"`` for a struct field (the corrections are keyed so,
    as kyaml's schema is keyed by definition), ``""`` for list elements and map values.
    """

    def __init__(self, facts: dict, node: Any, meta: PatchMeta, owner: str = "") -> None:
        self.facts = facts
        self.node = node
        self.meta = meta
        self.owner = owner

    def field(self, name: str) -> SchemaNode | None:
        if self.node.kind == "map":
            return BuiltinNode(self.facts, self.node.elem, NO_META)
        if self.node.kind != "struct":
            return None
        owner = f"{self.node.name}.{name}"
        if owner in self.facts["unknown_fields"]:
            return None
        found = self.node.field(name)
        if found is None or found[0].kind == "open":
            return None
        return BuiltinNode(self.facts, found[0], found[1], owner)

    def elements(self) -> SchemaNode | None:
        if self.node.kind != "slice":
            return None
        return BuiltinNode(self.facts, self.node.elem, NO_META)

    def strategy(self) -> str:
        rule = self.facts["lists"].get(self.owner)
        if rule is not None:
            return rule[0]
        return ",".join(self.meta.strategies)

    def merge_keys(self) -> list[str]:
        rule = self.facts["lists"].get(self.owner)
        if rule is not None:
            return list(rule[1]) if rule[0] else []
        if not self.meta.strategies:
            return []
        return [self.meta.merge_key] if self.meta.merge_key else []


@lru_cache(maxsize=1)
def _builtin_facts() -> dict:
    facts = json.loads(read_text(__name__, "kustomize.json"))
    facts["unknown_kinds"] = {tuple(k) for k in facts.get("unknown_kinds", [])}
    facts["unknown_fields"] = set(facts.get("unknown_fields", []))
    facts.setdefault("lists", {})
    facts.setdefault("aliases", {})
    return facts


# ---------------------------------------------------------------- the public schema


class KustomizeSchema:
    """Where kustomize's merge finds a resource's schema (see the module docstring)."""

    def __init__(self, table: Schema | None, definitions: dict | None) -> None:
        self._table = table
        self._definitions = definitions or {}
        self._kinds = _gvk_index(self._definitions)

    @classmethod
    def builtin(cls) -> KustomizeSchema:
        """kyaml's embedded Kubernetes schema (no ``openapi:`` field)."""
        return cls(builtin_schema(), None)

    @classmethod
    def with_openapi(cls, doc: dict, builtin: bool = False) -> KustomizeSchema:
        """The schema of ``openapi: {path: ...}``: ``doc``'s definitions, and with
        ``builtin`` the built-in schema for the types ``doc`` does not define (kyaml
        adds a custom document to a built-in schema it had already parsed: see
        :mod:`.openapi`)."""
        definitions = doc.get("definitions") if isinstance(doc, dict) else None
        return cls(builtin_schema() if builtin else None,
                   definitions if isinstance(definitions, dict) else {})

    def with_crds(self, crds: list[dict]) -> KustomizeSchema:
        """CRDs (among the resources, or named by ``crds:``) do not change kustomize's
        merge (measured: ``crds:`` feeds field specs only, see :mod:`.crds`)."""
        del crds
        return self

    @staticmethod
    def builtin_knows(api_version: str, kind: str) -> bool:
        """``KustomizeSchema.builtin().for_type(api_version, kind) is not None``, without
        building the built-in table (its ``kinds`` index is enough)."""
        facts = _builtin_facts()
        if (api_version, kind) in facts["unknown_kinds"]:
            return False
        kinds = builtin_kinds()
        if kind in kinds.get(api_version, {}):
            return True
        alias = facts["aliases"].get(f"{api_version}/{kind}")
        return alias is not None and alias[1] in kinds.get(alias[0], {})

    def for_type(self, api_version: Any, kind: Any) -> SchemaNode | None:
        """The schema of a resource type, or None (every list is then replaced)."""
        if not isinstance(api_version, str) or not isinstance(kind, str):
            return None
        found = self._kinds.get((api_version, kind))
        if found is not None:
            return OpenAPINode(self._definitions, found)
        if self._table is None:
            return None
        facts = _builtin_facts()
        if (api_version, kind) in facts["unknown_kinds"]:
            return None
        node = self._table.for_kind(api_version, kind, unversioned=False)
        alias = facts["aliases"].get(f"{api_version}/{kind}")
        if node is None and alias is not None:
            node = self._table.for_kind(alias[0], alias[1], unversioned=False)
        if node is None:
            return None
        return BuiltinNode(facts, node, NO_META)
