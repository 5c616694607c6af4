"""The Kubernetes patch engine: exactly what ``kubectl patch --local`` does, explained.

:func:`patch` applies a ``strategic``, ``merge`` or ``json`` patch to one object the
way kubectl 1.32 does and returns a :class:`KubeResult`: the resulting object, the
changes (every changed path, and where each list element landed) and findings
(warnings and explanations with stable codes).  When kubectl would refuse the
patch it raises :class:`~cfgpatch.errors.KubeError` whose ``message`` is kubectl's
own text (without ``error: ``) and whose ``findings`` explain it; a patch on which
kubectl itself crashes raises ``KubeError(code="kubectl crash")``.

The algorithms live in sibling modules: ``strategic`` and ``schema`` (strategic
merge and the merge-key table), ``jsonpatch`` and ``mergepatch`` (kubectl's JSON
Patch and merge patch), ``kustomize`` (the ``as_="kustomize"`` view), ``crd``
(what other tools would do with a custom resource), ``changes`` and ``findings``.
Standard library only; YAML reading is in ``io.reader`` and is not needed here.
"""

from __future__ import annotations

from ..errors import (
    INVALID_ARGUMENTS,
    KUBECTL_CRASH,
    KUSTOMIZE_DELETES,
    KUSTOMIZE_ERROR,
    KubeError,
)
from ..records import dataclass, field
from .schema.rules import Shapes

TYPE_CHECKING = False
if TYPE_CHECKING:  # the explanations are imported when a patch is explained
    from typing import Any

    from .explain.changes import Change
    from .explain.findings import Finding

PATCH_TYPES = ("strategic", "merge", "json")
#: Findings that describe what a successful patch did; left out when kubectl fails.
_EFFECT_CODES = frozenset({
    "atomic-list-replaced", "merge-list-replaced", "null-deletes", "null-deletes-section",
    "shared-merge-key",
    "finalizers-empty-noop", "retain-keys-leftover", "delete-matched-nothing",
    "duplicates-order", "add-replaces-map", "kubectl-nondeterministic"})
VIEWS = ("kubectl", "kustomize")

__all__ = ["PATCH_TYPES", "KubeResult", "patch", "type_findings"]


@dataclass
class KubeResult:
    """What a patch produced: the ``object``, its ``changes`` and ``findings``."""

    object: Any
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "object": self.object,
            "changes": [change.to_dict() for change in self.changes],
            "findings": [finding.to_dict() for finding in self.findings],
        }


def patch(obj: Any, patch: Any, type: str = "strategic", *, schema: Any = None,  # noqa: A002
          crd: Any = None, as_: str = "kubectl", notes: Any = (),
          patch_notes: Any = (), explain: bool = True) -> KubeResult:
    """Apply ``patch`` to ``obj`` as ``kubectl patch --local --type <type>`` would.

    ``schema``: a merge schema loaded from the user's OpenAPI document (``--schema``)
    instead of the built-in table; ``crd``: the CustomResourceDefinition of a custom
    resource (``--crd``), used to show how server-side apply would merge; ``as_``:
    ``"kubectl"`` or ``"kustomize"`` (kustomize's strategic merge); ``notes`` and
    ``patch_notes``: the YAML type notes of the object and of the patch (from
    ``io.reader``), reported as findings (their pointers point into that input);
    ``explain=False``: the object only (no changes, no findings) when the patch succeeds.

    Raises :class:`KubeError` (with ``findings``) where kubectl fails.
    """
    if type not in PATCH_TYPES:
        raise KubeError(f'--type must be one of [json merge strategic], not "{type}"',
                        hint="the patch type is strategic (the default), merge or json")
    if as_ not in VIEWS:
        raise KubeError(f"unknown view {as_!r}", code=INVALID_ARGUMENTS,
                        hint="--as takes kubectl or kustomize")
    given, obj = obj, _decoded(obj)  # kubectl reads the object through the same decoder
    node = _kind_node(obj, schema)
    shapes = _shapes_for(node, obj, crd)
    try:
        # without explanations nothing reads the decoded copy after the patch: the
        # engine may change it in place instead of copying it again
        result = _apply(obj, patch, type, node, shapes, as_, crd, owned=not explain)
    except KubeError as exc:
        if not explain:
            obj = _decoded(given)  # the engine may have half changed the copy
        situation = _situation(obj, patch, type, shapes, node)
        situation.error = exc
        explained = [f for f in _detect(situation) if f.code not in _EFFECT_CODES] \
            if node is not None or type != "strategic" else []
        found = _note_findings(notes) + _note_findings(patch_notes, "patch") + explained
        exc.findings = _unique(found + exc.findings +
                               _error_findings(exc, obj, patch, type, crd))
        raise
    if not explain:
        return KubeResult(result)
    from .explain.changes import compute_changes

    situation = _situation(obj, patch, type, shapes, node)
    situation.result = result
    changes = compute_changes(obj, result, mode=type, shapes=shapes)
    found = _note_findings(notes) + _note_findings(patch_notes, "patch") + _detect(situation)
    if as_ == "kustomize" and type == "strategic":
        found += _kustomize_comparison(obj, patch, node, result)
    return KubeResult(result, changes, _unique(found))


def _situation(obj: Any, body: Any, patch_type: str, shapes: Shapes, node: Any) -> Any:
    from .explain.findings import Situation

    situation = Situation(obj, body, patch_type, shapes=shapes, node=node,
                          kind=_kind_label(obj))
    situation.before_op = _prefix_applier(obj, body) if patch_type == "json" else None
    return situation


def _detect(situation: Any) -> list[Finding]:
    from .explain.findings import detect

    return detect(situation)


def type_findings(notes: Any, source: str = "object") -> list[Finding]:
    """Findings for the YAML type notes returned by ``io.reader`` for ``source``."""
    return _note_findings(notes, source)


# ------------------------------------------------------------------ applying


def _apply(obj: Any, body: Any, patch_type: str, node: Any, shapes: Shapes, as_: str,
           crd: Any, owned: bool = False) -> Any:
    """The patched object; ``owned``: ``obj`` may be changed in place (the engines copy
    it first otherwise)."""
    if patch_type == "json":
        from .engine import jsonpatch
        return _decoded(jsonpatch.apply(obj, body, owned), owned=True)  # a fresh tree
    if patch_type == "merge":
        from .engine import mergepatch
        return mergepatch.apply(obj, body, owned)  # decoded already, keeping the patch's -0.0
    if as_ == "kustomize":
        return _decoded(_kustomize_apply(obj, body))
    if node is None:
        raise _unsupported(obj)
    if body is None:  # kubectl reads `-p null` as an empty patch
        return _decoded(obj)
    if not isinstance(body, dict):
        raise KubeError("invalid JSON document",
                        hint="a strategic merge patch is a JSON object, not a list or a scalar")
    from .engine.strategic import strategic_merge
    return _decoded(strategic_merge(obj, body, node, owned), owned=True)  # built from copies


def _kustomize_apply(obj: Any, body: Any) -> Any:
    """kustomize's strategic merge (kustomize/merge.py), as ``kube build`` runs it."""
    from .kustomize import KustomizeSchema, apply_strategic

    if not isinstance(body, dict) and body is not None:
        raise KubeError("a strategic merge patch must be a mapping (kustomize cannot read "
                        "a list or a scalar as a patch)", code=KUSTOMIZE_ERROR)
    result = apply_strategic(obj if isinstance(obj, dict) else {}, body or {},
                             KustomizeSchema.builtin())
    if result is None:
        raise KubeError("the patch deletes the whole resource ($patch: delete at the top)",
                        code=KUSTOMIZE_DELETES,
                        hint="kustomize leaves such a resource out of its output")
    return result


def _decoded(result: Any, owned: bool = False) -> Any:
    """kubectl's final decode of the patched document (kind check, number forms);
    ``owned`` as in ``decode_result``."""
    from .io.unstructured import decode_result
    return decode_result(result, owned=owned)


def check_strategic_supported(obj: Any, schema: Any = None) -> None:
    """Raise kubectl's "not supported" error if ``obj``'s kind has no merge schema."""
    if _kind_node(obj, schema) is None:
        raise _unsupported(obj)


def _unsupported(obj: Any) -> KubeError:
    api_version, kind = _gvk(obj)
    group_version = api_version if "/" in api_version else f"/{api_version}"
    return KubeError(
        f"strategic merge patch is not supported for {group_version}, Kind={kind} locally, "
        f"try --type merge",
        hint="kubectl has no merge keys for this kind (a custom resource or a kind it does not "
             "know); use --type merge (lists are replaced) or --type json")


def _gvk(obj: Any) -> tuple[str, str]:
    if not isinstance(obj, dict):
        return "", ""
    api_version = obj.get("apiVersion")
    kind = obj.get("kind")
    return (api_version if isinstance(api_version, str) else "",
            kind if isinstance(kind, str) else "")


def _kind_label(obj: Any) -> str:
    api_version, kind = _gvk(obj)
    return f"{api_version} {kind}".strip()


def _kind_node(obj: Any, schema: Any) -> Any:
    api_version, kind = _gvk(obj)
    if schema is None:
        from .schema.node import builtin_schema
        schema = builtin_schema()
    if api_version.startswith("/") and api_version.count("/") == 1:
        api_version = api_version[1:]  # kubectl reads "/v1" as the empty group, version v1
    return schema.for_kind(api_version, kind)


def _shapes_for(node: Any, obj: Any, crd: Any) -> Shapes:
    if node is not None:
        from .schema.node import node_shapes
        return node_shapes(node)
    if crd is not None:
        from .schema.crd import crd_shapes
        return crd_shapes(crd, obj)
    return Shapes()


def _prefix_applier(obj: Any, ops: Any):
    """The document before operation ``i`` (for detectors); None once an operation fails."""
    states: list[Any] = [obj]

    def before(index: int) -> Any:
        from .engine import jsonpatch
        while len(states) <= index:
            previous = states[-1]
            step = len(states) - 1
            try:
                states.append(None if previous is None or not isinstance(ops, list)
                              else jsonpatch.apply(previous, ops[step:step + 1]))
            except KubeError:
                states.append(None)
        return states[index]

    return before


# ------------------------------------------------------------------ findings


def _error_findings(exc: KubeError, obj: Any, body: Any, patch_type: str,
                    crd: Any) -> list[Finding]:
    from .explain.findings import make

    if exc.code == KUBECTL_CRASH:
        return [make("kubectl-crash", exc.pointer or "", exc.message)]
    if patch_type == "strategic" and exc.message.startswith("strategic merge patch is not"):
        from .explain.custom_resources import custom_resource_findings
        return custom_resource_findings(obj, body, crd)
    return []


def _kustomize_comparison(obj: Any, body: Any, node: Any, result: Any) -> list[Finding]:
    from .explain.changes import compute_changes
    from .explain.findings import make

    if node is None:
        lost = [c for c in compute_changes(obj, result, mode="merge")
                if c.action == "list" and c.lost]
        text = ("kubectl patch refuses a strategic patch on this kind; kustomize merges it "
                "without a schema, so every list is replaced")
        if lost:
            text += " (" + ", ".join(c.path for c in lost) + ")"
        return [make("kustomize-differs", "", text)]
    if not isinstance(body, dict):
        return []
    from .engine.strategic import strategic_merge
    try:
        kubectl_result = _decoded(strategic_merge(obj, body, node))
    except KubeError as exc:
        return [make("kustomize-differs", "", f"kubectl patch refuses this patch ({exc.message}) "
                     f"but kustomize accepts it")]
    from .explain.kustomize import differences
    return differences(kubectl_result, result)


def _note_findings(notes: Any, source: str = "object") -> list[Finding]:
    from .explain.findings import make
    from .go.json import encode

    out: list[Finding] = []
    for note in notes or ():
        pointer = getattr(note, "pointer", "")
        written = getattr(note, "written", "")
        where = getattr(note, "where", "value")
        shown = encode(getattr(note, "value", None))
        what = f"the unquoted {where} {written}" if written else f"the empty {where}"
        text = (f"in the {source}, {what} was read as {shown}; quote it "
                f"(\"{written}\") to keep the string")
        out.append(make("yaml-type-change", pointer, text, written=written, source=source))
    return out


def _unique(found: list[Finding]) -> list[Finding]:
    seen: set[tuple[str, str, str]] = set()
    out: list[Finding] = []
    for finding in found:
        ident = (finding.code, finding.path, finding.message)
        if ident not in seen:
            seen.add(ident)
            out.append(finding)
    return out
