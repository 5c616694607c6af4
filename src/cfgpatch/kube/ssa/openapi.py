"""Types from an OpenAPI document (``--schema``): a cluster's own models.

The API server builds its field manager's types from its OpenAPI models
(``managedfields.NewTypeConverter``): every model (``definitions`` of an OpenAPI v2
document, ``components.schemas`` of a v3 one) becomes a named type by the same conversion
as a CRD's schema (:mod:`.crd`: ``x-kubernetes-list-type``, ``x-kubernetes-list-map-keys``,
``x-kubernetes-map-type``, ``x-kubernetes-patch-strategy`` and ``x-kubernetes-patch-merge-key``
where no list type is given), a model that is only a ``$ref`` is skipped,
``resource.Quantity`` is an untyped scalar and ``runtime.RawExtension`` takes anything; the
kinds are the models' ``x-kubernetes-group-version-kind``.
"""

from __future__ import annotations

from .crd import CRDError, _Converter
from .schema import UNTYPED, Atom, Schema, TypeRef, common_types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
RAW_EXTENSION = "io.k8s.apimachinery.pkg.runtime.RawExtension"


def openapi_models(doc: Any) -> dict[str, dict]:
    """The models of an OpenAPI v2 or v3 document."""
    if not isinstance(doc, dict):
        raise CRDError("an OpenAPI document is an object")
    models = doc.get("definitions")
    if models is None:
        models = (doc.get("components") or {}).get("schemas")
    if not isinstance(models, dict):
        raise CRDError("no definitions (OpenAPI v2) or components.schemas (OpenAPI v3)")
    return {k: v for k, v in models.items() if isinstance(v, dict)}


def openapi_types(doc: Any, preserve_unknown_fields: bool = False
                  ) -> dict[tuple[str, str, str], tuple[Schema, TypeRef]]:
    """Every kind of the document: ``(group, version, kind) -> (schema, type)``."""
    models = openapi_models(doc)
    errors: list[str] = []
    types: dict[str, Atom] = {}
    for name, model in models.items():
        if model.get("$ref"):
            continue
        if name == QUANTITY:
            atom = Atom(scalar=UNTYPED)
        elif name == RAW_EXTENSION:
            atom = common_types()["__untyped_atomic_"]
        else:
            atom = _Converter(name, errors).atom(model, preserve_unknown_fields)
        if not atom.is_empty():
            types[name] = atom
    if errors:
        raise CRDError("\n".join(errors))
    types.update(common_types())
    schema = Schema(types)
    kinds: dict[tuple[str, str, str], tuple[Schema, TypeRef]] = {}
    for name, model in models.items():
        for gvk in model.get("x-kubernetes-group-version-kind") or ():
            if not isinstance(gvk, dict):
                continue
            group, version, kind = gvk.get("group"), gvk.get("version"), gvk.get("kind")
            if isinstance(group, str) and isinstance(version, str) and isinstance(kind, str):
                kinds[(group, version, kind)] = (schema, TypeRef(named=name))
    return kinds
