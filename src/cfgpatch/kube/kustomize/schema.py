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
  unless kyaml parsed it too (:mod:`.openapi` says when); then both share one map of
  definitions, the document's ``$ref`` reach built-in types, and a type both define is
  the one parsed last.

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


class Definitions:
    """Where a ``$ref`` of an ``openapi:`` document leads: kyaml keeps one map of
    definitions, to which each parsed document adds (the later one wins a name).

    ``custom`` is the document's ``definitions``; ``table`` the built-in schema when kyaml
    parsed it too (its definitions under their OpenAPI names, ``io.k8s.api.core.v1.Pod``
    for the table's ``core/v1.Pod``), else None; ``builtin_last``: it was parsed after the
    document, so its definitions replace the document's of the same name.
    """

    def __init__(self, custom: dict, table: Schema | None, builtin_last: bool) -> None:
        self.custom = custom
        self.table = table
        self.builtin_last = builtin_last
        self.facts = _builtin_facts() if table is not None else {}

    def named(self, name: str) -> SchemaNode | None:
        """The definition ``name``, or None (kyaml cannot resolve the reference)."""
        if self.builtin_last:
            found = self._builtin(name)
            if found is not None:
                return found
        schema = self.custom.get(name)
        if isinstance(schema, dict):
            return OpenAPINode(self, schema)
        return self._builtin(name)

    def _builtin(self, name: str) -> SchemaNode | None:
        key = _table_key(name)
        if self.table is None or key is None or not self.table.has_type(key):
            return None
        return BuiltinNode(self, self.table.node(key), NO_META)

    def override(self, expr: str | None) -> SchemaNode | None:
        """The document's definition replacing the built-in type ``expr`` (a type
        expression of the table), when the document was parsed after the table."""
        if expr is None or self.builtin_last or not self.custom:
            return None
        name = _openapi_name(expr.lstrip("*"))
        schema = self.custom.get(name) if name else None
        return OpenAPINode(self, schema) if isinstance(schema, dict) else None


#: The table's keys of apimachinery types outside ``meta/v1``, by OpenAPI name.
_APIMACHINERY = {"io.k8s.apimachinery.pkg.api.resource.Quantity": "resource.Quantity",
                 "io.k8s.apimachinery.pkg.util.intstr.IntOrString": "intstr.IntOrString",
                 "io.k8s.apimachinery.pkg.runtime.RawExtension": "runtime.RawExtension"}
_META = "io.k8s.apimachinery.pkg.apis.meta.v1"
_API = "io.k8s.api."


def _table_key(name: str) -> str | None:
    """The table's key of an OpenAPI definition name (``io.k8s.api.apps.v1.DeploymentSpec``
    -> ``apps/v1.DeploymentSpec``), or None when it names no Kubernetes API type."""
    head, _, short = name.rpartition(".")
    if head == _META:
        return f"meta/v1.{short}"
    if head.startswith(_API):
        group, _, version = head[len(_API):].rpartition(".")
        return f"{group}/{version}.{short}" if group and "." not in group else None
    return _APIMACHINERY.get(name)


def _openapi_name(key: str) -> str | None:
    """The inverse of :func:`_table_key`."""
    for name, known in _APIMACHINERY.items():
        if known == key:
            return name
    package, _, short = key.partition(".")
    group, _, version = package.partition("/")
    if not short or not version or "/" in version:
        return None
    return f"{_META}.{short}" if group == "meta" and version == "v1" else \
        f"{_API}{group}.{version}.{short}"


class OpenAPINode(SchemaNode):
    """A node of an OpenAPI v2 document (``definitions`` with ``$ref``)."""

    def __init__(self, definitions: Definitions, schema: dict) -> None:
        self.definitions = definitions
        self.schema = schema

    def _resolve(self, schema: Any) -> SchemaNode | None:
        for _ in range(100):
            if not isinstance(schema, dict):
                return None
            ref = schema.get("$ref")
            if not isinstance(ref, str):
                return OpenAPINode(self.definitions, schema)
            found = self.definitions.named(ref.rsplit("/", 1)[-1]) \
                if ref.startswith("#/definitions/") else None
            if not isinstance(found, OpenAPINode):
                return found
            schema = found.schema
        return None

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
    A type an ``openapi:`` document parsed after the table redefines is the document's
    (``definitions.override``).
    """

    def __init__(self, definitions: Definitions, node: Any, meta: PatchMeta,
                 owner: str = "") -> None:
        self.definitions = definitions
        self.facts = definitions.facts
        self.node = node
        self.meta = meta
        self.owner = owner

    def field(self, name: str) -> SchemaNode | None:
        if self.node.kind == "map":
            return self._element()
        if self.node.kind != "struct":
            return None
        owner = f"{self.node.name}.{name}"
        if owner in self.facts["unknown_fields"]:
            return None
        found = self.node.field(name)
        if found is None or found[0].kind == "open":
            return None
        return self.definitions.override(self.node.field_type(name)) \
            or BuiltinNode(self.definitions, found[0], found[1], owner)

    def elements(self) -> SchemaNode | None:
        if self.node.kind != "slice":
            return None
        return self._element()

    def _element(self) -> SchemaNode:
        return self.definitions.override(self.node.elem_type) \
            or BuiltinNode(self.definitions, self.node.elem, NO_META)

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

    def __init__(self, table: Schema | None, definitions: dict | None,
                 builtin_last: bool = False) -> None:
        self._table = table
        self._definitions = Definitions(definitions or {}, table, builtin_last)
        self._kinds = _gvk_index(self._definitions.custom)

    @classmethod
    def builtin(cls) -> KustomizeSchema:
        """kyaml's embedded Kubernetes schema (no ``openapi:`` field)."""
        return cls(builtin_schema(), None, builtin_last=True)

    @classmethod
    def with_openapi(cls, doc: dict, builtin: bool = False,
                     builtin_last: bool = False) -> KustomizeSchema:
        """The schema of ``openapi: {path: ...}``: ``doc``'s definitions, and with
        ``builtin`` the built-in schema kyaml parsed too (see :mod:`.openapi`): the
        document's ``$ref`` reach built-in definitions it does not define, and a type
        both define is the document's, or with ``builtin_last`` (the built-in schema
        parsed after the document) the built-in one, kinds included."""
        definitions = doc.get("definitions") if isinstance(doc, dict) else None
        return cls(builtin_schema() if builtin else None,
                   definitions if isinstance(definitions, dict) else {},
                   builtin_last=builtin and builtin_last)

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
        if self._definitions.builtin_last:
            node = self._builtin_kind(api_version, kind)
            if node is not None:
                return node
        found = self._kinds.get((api_version, kind))
        if found is not None:
            return OpenAPINode(self._definitions, found)
        return self._builtin_kind(api_version, kind)

    def _builtin_kind(self, api_version: str, kind: str) -> SchemaNode | None:
        if self._table is None:
            return None
        facts = self._definitions.facts
        if (api_version, kind) in facts["unknown_kinds"]:
            return None
        node = self._table.for_kind(api_version, kind, unversioned=False)
        alias = facts["aliases"].get(f"{api_version}/{kind}")
        if node is None and alias is not None:
            node = self._table.for_kind(alias[0], alias[1], unversioned=False)
        if node is None:
            return None
        return BuiltinNode(self._definitions, node, NO_META)
