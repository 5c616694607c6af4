"""Server-side apply readiness of what a kustomization builds (Helm 4 and Flux apply
server-side): the rules ``ssa-duplicate-key``, ``ssa-missing-key`` and
``replicas-with-hpa``.

* ``ssa-duplicate-key``: an associative list (containers by ``name``, ports by
  ``containerPort`` and ``protocol``, a CRD's ``x-kubernetes-list-type: map``) holds two
  items with one key; client-side apply took it for years, the API server refuses the
  apply (its text is the message);
* ``ssa-missing-key``: an item of an associative list lacks a key field the schema gives
  no default; the server keys it by the empty value (``""``, ``0``), so a second such
  item is refused and a change of the key later moves ownership to a new item;
* ``replicas-with-hpa``: a workload declares ``spec.replicas`` and a
  HorizontalPodAutoscaler of the same build scales it: the HPA owns the field, and the
  next server-side apply of the manifest conflicts (Helm 4 fails; Flux forces and the
  two fight).

Each object is typed as the API server types it (:mod:`cfgpatch.kube.ssa`: the built-in
1.32 types and the CRDs the build holds); an object of a kind with no type is skipped.
"""

from __future__ import annotations

import json

from ..errors import SERVER_REFUSES, KubeError
from .finding import LintFinding, Location, make
from .model import Outcome

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

#: The key findings (rule, message) of objects already typed, by their JSON text.
_SEEN: dict[tuple, list[tuple[str, str]]] = {}
#: The types of each CRD met (its JSON text -> crd_types' answer, None: not convertible);
#: the base schema is always the built-in one (builtin_schema() is loaded once).
_CRD_TYPES: dict[str, dict | None] = {}
WORKLOADS = frozenset({"Deployment", "StatefulSet", "ReplicaSet", "ReplicationController"})


def ssa_readiness(outcome: Outcome) -> Iterator[LintFinding]:
    """The findings of the objects ``outcome`` built."""
    if not outcome.built:
        return
    crds = [o for o in outcome.built if o.get("kind") == "CustomResourceDefinition"]
    types = _types(crds)
    where = Location(outcome.path)
    for obj in outcome.built:
        # a base built under several overlays gives the same object again: typed once
        if _keyless(obj, types):  # no associative list to key: no finding to find
            continue
        memo = (json.dumps(obj, sort_keys=True, default=str), len(crds))
        if memo not in _SEEN:
            if len(_SEEN) > 20_000:
                _SEEN.clear()
            _SEEN[memo] = [(f.rule, f.message) for f in _keys(obj, types, where)]
        for rule_id, message in _SEEN[memo]:
            yield make(rule_id, message, where)
    yield from _hpa_replicas(outcome.built, where)


def _types(crds: list[dict]) -> Any:
    """``Types(crds=crds)``, or the built-in types alone when a CRD's schema cannot be
    converted; each CRD's schema converted once per run (a base's CRDs are built again
    under every overlay)."""
    from ..kube.ssa.kind_types import Types

    types = Types()
    if crds:  # (the CRD module loads only for a build that holds CRDs)
        from ..kube.ssa.crd import CRDError, crd_types
    for crd in crds:
        key = json.dumps(crd, sort_keys=True, default=str)
        if key not in _CRD_TYPES:
            if len(_CRD_TYPES) > 2_000:
                _CRD_TYPES.clear()
            try:
                _CRD_TYPES[key] = crd_types(crd, types.schema)
            except CRDError:
                _CRD_TYPES[key] = None
        found = _CRD_TYPES[key]
        if found is None:
            return Types()
        types.custom.update(found)
    return types


def _keyless(obj: dict, types: Any) -> bool:
    """Whether the server-side apply of ``obj`` surely finds no key to report: each list
    is atomic in its type, or an associative list whose items all name every key (or
    the schema defaults it to a non-empty value) with keys no two items share, and a
    set of distinct strings or integers.  Anything the walk is unsure of (no type, a
    value the type does not describe, a key that is not a string or an integer) says
    no, and the object is applied."""
    from ..kube.ssa.kind_types import gvk_of

    if not _has_list(obj):
        return True
    found = types.lookup(*gvk_of(obj))
    return found is not None and _clean(found[0], found[1], obj, 0)


def _has_list(value: Any) -> bool:
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, list):
            return True
        if isinstance(current, dict):
            stack.extend(current.values())
    return False


def _clean(schema: Any, ref: Any, value: Any, depth: int) -> bool:
    if not isinstance(value, (dict, list)):
        return True
    atom = schema.resolve(ref) if depth < 500 else None
    if atom is None:
        return False
    if isinstance(value, list):
        if atom.list is None or not _distinct_keys(schema, atom.list, value):
            return False
        return all(_clean(schema, atom.list.element_type, item, depth + 1) for item in value)
    if atom.map is None:
        return False
    for key, child in value.items():
        field = atom.map.fields.get(key)
        child_ref = field.type if field is not None else atom.map.element_type
        if child_ref.is_empty() or not _clean(schema, child_ref, child, depth + 1):
            return False
    return True


def _distinct_keys(schema: Any, list_type: Any, items: list) -> bool:
    """Whether the items of a list surely key without a missing or repeated key."""
    from ..kube.ssa.schema import ASSOCIATIVE, ATOMIC

    if list_type.relationship == ATOMIC:
        return True
    if list_type.relationship != ASSOCIATIVE:
        return False
    if not list_type.keys:  # a set: its scalars
        return all(_plain_key(item) for item in items) and \
            len({(type(i), i) for i in items}) == len(items)
    atom = schema.resolve(list_type.element_type)
    fields = atom.map.fields if atom is not None and atom.map is not None else {}
    seen = set()
    for item in items:
        if not isinstance(item, dict):
            return False
        key = []
        for name in list_type.keys:
            if name in item:
                found = item[name]
            elif name in fields and fields[name].has_default():
                found = fields[name].default
                if found in ("", 0):
                    return False  # keyed by an empty value: ssa-missing-key's case
            else:
                return False
            if not _plain_key(found):
                return False
            key.append((type(found), found))
        seen.add(tuple(key))
    return len(seen) == len(items)


def _plain_key(value: Any) -> bool:
    return type(value) is str or type(value) is int


def _describe(obj: dict) -> str:
    return f"{obj.get('kind')}/{_meta(obj).get('name')}"


def _keys(obj: dict, types: Any, where: Location) -> Iterator[LintFinding]:
    from ..kube.ssa import fieldpath as fp
    from ..kube.ssa import server_side_apply

    try:
        result = server_side_apply(None, obj, manager="lint", schema=types,
                                   time="2026-01-01T00:00:00Z")
    except KubeError as error:
        if error.code == SERVER_REFUSES and "duplicate entries for key" in error.message:
            yield make("ssa-duplicate-key", f"{_describe(obj)}: the API server refuses its "
                       f"server-side apply: {error.message}", where)
        return
    seen: set[tuple] = set()
    for entry in result.managed_fields:
        for path in entry.fields.paths():
            for i, pe in enumerate(path):
                if pe.kind != fp.KEY:
                    continue
                yield from _missing(obj, path[:i], pe, seen, where)


def _missing(obj: dict, at: tuple, pe: Any, seen: set, where: Location) -> Iterator[LintFinding]:
    from ..kube.explain.ownership import value_at
    from ..kube.ssa import fieldpath as fp

    found, items = value_at(obj, at)
    if not found or not isinstance(items, list):
        return
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        # a key the schema defaults (a port's protocol: TCP) is no trap
        lacking = [n for n, v in pe.data if n not in item and v in ("", 0, None)]
        place = (fp.path_string(at), index)
        if lacking and place not in seen:
            seen.add(place)
            keyed = ", ".join(f"{n}={json.dumps(v)}" for n, v in pe.data)
            yield make("ssa-missing-key",
                       f"{_describe(obj)}: item {index} of {fp.path_string(at)} has no "
                       f"{', '.join(lacking)}; server-side apply keys it as [{keyed}]",
                       where)


def _hpa_replicas(objects: list[dict], where: Location) -> Iterator[LintFinding]:
    for hpa in objects:
        if hpa.get("kind") != "HorizontalPodAutoscaler":
            continue
        spec = hpa.get("spec")
        ref = spec.get("scaleTargetRef") if isinstance(spec, dict) else None
        if not isinstance(ref, dict):
            continue
        for obj in objects:
            if (obj.get("kind") == ref.get("kind") and obj.get("kind") in WORKLOADS
                    and _meta(obj).get("name") == ref.get("name")
                    and _meta(obj).get("namespace") == _meta(hpa).get("namespace")
                    and isinstance(obj.get("spec"), dict) and "replicas" in obj["spec"]):
                yield make("replicas-with-hpa",
                           f"{_describe(obj)} declares spec.replicas "
                           f"({obj['spec']['replicas']}) and "
                           f"HorizontalPodAutoscaler/{_meta(hpa).get('name')} scales it",
                           where)


def _meta(obj: dict) -> dict:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}
