"""Where the field manager finds a kind's type (:class:`Types`): CRDs, an OpenAPI
document's kinds, then the built-in table.  Its own module, so that a caller that only
types objects (lint's readiness check) does not load the field manager."""

from __future__ import annotations

from ...errors import INVALID_ARGUMENTS, KubeError
from .builtin import builtin_schema, type_name
from .schema import Schema, TypeRef, deduced_schema

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = ["Types", "gvk_of"]


class Types:
    """Where the field manager finds a kind's type: CRDs, then the built-in table.

    ``schema``: the table of named types (the built-in Kubernetes 1.32 types by default);
    ``crds``: CustomResourceDefinition objects (their served versions' schemas);
    ``deduced``: a kind found nowhere is typed from its content (maps granular, lists
    atomic) instead of refused, as the server does for a CRD without a schema;
    ``openapi``: an OpenAPI v2 or v3 document (a cluster's ``/openapi/v2``): its kinds
    (``x-kubernetes-group-version-kind``) come before the built-in table's.
    """

    def __init__(self, schema: Schema | None = None, crds: Sequence[Any] = (),
                 deduced: bool = False, openapi: Any = None) -> None:
        self.schema = schema if schema is not None else builtin_schema()
        self.deduced = deduced
        self.custom: dict[tuple[str, str, str], tuple[Schema, TypeRef]] = {}
        if openapi is not None:
            from .crd import CRDError
            from .openapi import openapi_types

            try:
                self.custom.update(openapi_types(openapi))
            except CRDError as exc:
                raise KubeError(f"invalid OpenAPI document: {exc}",
                                code=INVALID_ARGUMENTS) from None
        if crds:  # (CRD schemas: their module loads only when there are some)
            from .crd import CRDError, crd_types
        for crd in crds:
            try:
                self.custom.update(crd_types(crd, self.schema))
            except CRDError as exc:
                raise KubeError(f"invalid CustomResourceDefinition: {exc}",
                                code=INVALID_ARGUMENTS) from None

    def lookup(self, group: str, version: str, kind: str) -> tuple[Schema, TypeRef] | None:
        """The schema and type of a kind, or ``None`` when it has none."""
        found = self.custom.get((group, version, kind))
        if found is not None:
            return found
        name = type_name(f"{group}/{version}" if group else version, kind)
        if name in self.schema.types:
            return self.schema, TypeRef(named=name)
        return deduced_schema() if self.deduced else None


def gvk_of(obj: Any) -> tuple[str, str, str]:
    """``(group, version, kind)`` of an object (Go's reading of ``apiVersion``)."""
    av = obj.get("apiVersion") if isinstance(obj, dict) else None
    kind = obj.get("kind") if isinstance(obj, dict) else None
    av = av if isinstance(av, str) else ""
    kind = kind if isinstance(kind, str) else ""
    if av.count("/") > 1:
        return "", "", ""
    group, _, version = av.rpartition("/")
    return group, version, kind
