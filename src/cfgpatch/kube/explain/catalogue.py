"""The finding codes and the types every detector shares.

:data:`CATALOGUE` maps each stable code to its severity and a sentence saying what it
means; :class:`Finding` is one warning or explanation about a patch, built with
:func:`make`; :class:`Situation` is everything a detector may read about one patch.
The detectors live in ``strategic``, ``merge`` and
``jsonpatch`` of this package; :func:`cfgpatch.kube.explain.findings.detect` runs them.
"""

from __future__ import annotations

from ...records import dataclass, field
from ..schema.node import Node
from ..schema.rules import Shapes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

ERROR = "error"
WARNING = "warning"
INFO = "info"

#: code -> (severity, what it means, in our words).
CATALOGUE: dict[str, tuple[str, str]] = {
    "merge-list-replaced": (WARNING, "A JSON merge patch replaces a list wholesale; elements "
                            "the patch does not restate are gone."),
    "atomic-list-replaced": (WARNING, "This list has no merge strategy for its kind, so even a "
                             "strategic patch replaces it wholesale."),
    "null-deletes": (INFO, "A null in the patch deletes the key; it does not mean "
                     "'leave unchanged' (omit the key for that)."),
    "null-deletes-section": (WARNING, "A null in the patch deletes a whole top-level section "
                             "of the object (spec, data, metadata...)."),
    "custom-resource": (ERROR, "kubectl has no compiled Go type (and so no merge keys) for this "
                        "kind, so it refuses a strategic merge patch."),
    "fallback-view": (INFO, "What tools that fall back to a JSON merge patch on this kind "
                      "(kustomize, client-side kubectl apply, Helm's client-side upgrade) "
                      "would produce instead."),
    "server-side-apply-view": (INFO, "How server-side apply would merge the lists, using the "
                               "CRD's x-kubernetes-list-type and list-map-keys."),
    "finalizers-empty-noop": (WARNING, "Under strategic merge this list is a union: an empty "
                              "list adds nothing and removes nothing."),
    "namespace-finalize": (WARNING, "A Namespace's spec.finalizers only changes on a server "
                           "through the /finalize subresource; a patch leaves it as it is."),
    "shared-merge-key": (WARNING, "Several elements share this merge key value; the patch "
                         "element was merged into the first of them only."),
    "merge-key-type": (WARNING, "The merge key has a different JSON type than the existing "
                       "element's (\"9153\" is not 9153), so nothing matched and a new "
                       "element was added."),
    "retain-keys-leftover": (WARNING, "This field keeps only one of its alternatives when the "
                             "patch carries $retainKeys; without it the old keys stay next to "
                             "the new ones, which a server rejects."),
    "directive-as-data": (WARNING, "A strategic-merge directive sent where it is not "
                          "interpreted is stored as ordinary data."),
    "delete-matched-nothing": (INFO, "A delete directive matched nothing; kubectl silently does "
                               "nothing."),
    "add-replaces-map": (WARNING, "JSON Patch add on an existing object replaces the whole "
                         "object, dropping every key not in the new value."),
    "index-into-keyed-list": (WARNING, "This JSON Patch addresses a keyed list by position; if "
                              "the list changes order the patch hits another element. A test "
                              "on the key guards it."),
    "unescaped-slash": (WARNING, "A '/' inside a key must be written ~1 in a JSON Pointer; "
                        "unescaped, the pointer splits the key in two."),
    "unknown-field": (WARNING, "The schema of this kind has no such field; kubectl patch "
                      "--local accepts it but a server may reject or drop it."),
    "yaml-type-change": (WARNING, "An unquoted YAML scalar was read as another type (YAML 1.1 "
                         "rules, as kubectl reads it)."),
    "kubectl-json-departure": (INFO, "kubectl's JSON Patch accepts this although RFC 6902 "
                               "would not, or treats it differently."),
    "kubectl-merge-departure": (INFO, "kubectl's merge patch departs from RFC 7386 here."),
    "kubectl-crash": (ERROR, "kubectl itself crashes on this patch (exit code 2); there is "
                      "no result to show."),
    "duplicates-order": (INFO, "The list holds duplicates; kubectl's de-duplication moves "
                         "elements in ways that depend on its internal slice capacity."),
    "kustomize-differs": (INFO, "kustomize merges this differently from kubectl patch."),
    "kubectl-nondeterministic": (WARNING, "kubectl's result here depends on the order in which "
                                 "Go walks a map, which changes from run to run."),
}

DIRECTIVE_PREFIXES = ("$patch", "$retainKeys", "$setElementOrder/", "$deleteFromPrimitiveList/")
#: The value of a member that is not there (distinct from ``None``, JSON null).
ABSENT = object()


@dataclass(frozen=True)
class Finding:
    """One warning or explanation: stable ``code``, ``path``, ``message``, optional ``detail``."""

    code: str
    path: str
    message: str
    detail: dict = field(default_factory=dict)

    @property
    def severity(self) -> str:
        return CATALOGUE[self.code][0]

    def to_dict(self) -> dict:
        out: dict = {"code": self.code, "severity": self.severity, "path": self.path,
                     "message": self.message}
        if self.detail:
            out["detail"] = self.detail
        return out

    def describe(self) -> str:
        where = self.path or "(root)"
        return f"{self.severity} [{self.code}] {where}: {self.message}"


@dataclass
class Situation:
    """Everything a detector may read about one patch."""

    obj: Any
    patch: Any
    patch_type: str
    result: Any = None
    shapes: Shapes = field(default_factory=Shapes)
    #: The engine's schema node of the object's kind (None: kubectl has none, e.g. a
    #: custom resource), for detectors that re-run the strategic merge.
    node: Node | None = None
    kind: str = ""
    error: Exception | None = None
    #: For ``json``: the document as it is before operation ``i`` (None if unknown).
    before_op: Callable[[int], Any] | None = None
    #: Detectors' shared work (the walk of the patch, key indexes), filled on demand.
    memo: dict = field(default_factory=dict, repr=False)


def make(code: str, tokens: list[str] | str, message: str, **detail: Any) -> Finding:
    """Build a finding; ``tokens`` is a token list or an already formatted pointer."""
    if code not in CATALOGUE:
        raise KeyError(f"unknown finding code {code!r}")
    if isinstance(tokens, str):
        path = tokens
    else:
        from ...pointer import format_pointer

        path = format_pointer(tokens)
    return Finding(code, path, message, {k: v for k, v in detail.items() if v is not None})

