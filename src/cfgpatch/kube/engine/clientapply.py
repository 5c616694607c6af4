"""Client-side ``kubectl apply`` (1.32) and Helm 3's upgrade of one object, offline.

:func:`kubectl_apply` does what ``kubectl apply -f NEW`` does against a live object:

1. the *original* is the last applied configuration, read from the live object's
   ``kubectl.kubernetes.io/last-applied-configuration`` annotation (or given);
2. the *modified* configuration is the manifest with that annotation rewritten
   (:func:`modified_configuration`): the manifest itself (its namespace filled in,
   its own copy of the annotation dropped, ``annotations: {}`` when it had none)
   encoded as Go's ``json.Encoder`` writes it, trailing newline included;
3. the patch is ``CreateThreeWayMergePatch(original, modified, live)`` with kubectl's
   preconditions (apiVersion, kind and metadata.name unchanged) for a kind the schema
   knows, ``CreateThreeWayJSONMergePatch`` (a JSON merge patch) otherwise;
4. the server applies it: the result here is the patch applied to the live object
   (strategic merge or JSON merge patch), without the server's defaulting,
   validation or admission.

``kubectl apply`` sends no patch when it is ``{}`` (``unchanged``); without a live
object it creates the modified configuration.  :func:`helm_upgrade` is Helm 3's
``createPatch``: original = the old chart output, modified = the new one, current =
the live object, no annotation, no preconditions (custom resources: a two-way JSON
merge patch from old to new).  ``--server-side`` and ``--prune``
are not modelled.  Standard library only.

>>> from cfgpatch.kube.schema.node import builtin_schema
>>> node = builtin_schema().for_kind("v1", "ConfigMap")
>>> live = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
...         "data": {"a": "1"}}
>>> new = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"},
...        "data": {"a": "2"}}
>>> done = kubectl_apply(new, live, node, namespace=None)
>>> done.patch["data"], done.result["data"]
({'a': '2'}, {'a': '2'})
>>> done.annotation
'{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"c"}}\\n'
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ...errors import KubeError
from ..go.json import GoJSONError, encode, go_quote
from ..go.jsondecode import decode
from ..io.unstructured import normalize
from ..schema.node import Node
from . import create, createjson
from .mergepatch import prune_nulls
from .strategic import strategic_merge

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
STRATEGIC, MERGE = "strategic", "merge"
#: The Content-Type kubectl sends with each patch type.
CONTENT_TYPES = {STRATEGIC: "application/strategic-merge-patch+json",
                 MERGE: "application/merge-patch+json"}


@dataclass
class Applied:
    """One object's apply: the three inputs, the patch and the result."""

    original: dict | None  # the last applied configuration (None: there was none)
    modified: dict  # what the patch is computed towards
    current: dict | None  # the live object (None: kubectl creates the object)
    patch: dict | None  # None when the object is created
    patch_type: str  # "strategic" or "merge"
    result: dict
    annotation: str | None = None  # the new last-applied annotation (kubectl apply only)

    @property
    def patch_text(self) -> str:
        """The PATCH body, byte for byte (``json.Marshal``)."""
        return encode(self.patch if self.patch is not None else self.modified)

    @property
    def unchanged(self) -> bool:
        return self.patch is not None and not self.patch


def last_applied_of(live: dict | None) -> dict | None:
    """The decoded last-applied annotation of ``live`` (None when it has none)."""
    metadata = live.get("metadata") if isinstance(live, dict) else None
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    text = annotations.get(LAST_APPLIED) if isinstance(annotations, dict) else None
    if not isinstance(text, str) or not text:
        return None
    try:
        value = normalize(decode(text.encode("utf-8", "surrogatepass")))
    except GoJSONError:
        value = None
    if not isinstance(value, dict):
        raise KubeError("invalid JSON document",
                        hint=f"the live object's {LAST_APPLIED} annotation is not a JSON object")
    return value


def has_annotation(live: dict) -> bool:
    """Whether ``live`` carries the last-applied annotation (empty or not)."""
    metadata = live.get("metadata")
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    return isinstance(annotations, dict) and LAST_APPLIED in annotations


#: Kind suffixes whose resource name is the kind itself (Kubernetes' own guess keeps
#: these; ``Endpoints`` is the only built-in kind whose resource is not a plain plural).
_UNPLURALIZED = ("endpoints",)


def resource_name(kind: str) -> str:
    """The lower-case plural resource name of ``kind`` (``NetworkPolicy`` ->
    ``networkpolicies``, ``Endpoints`` -> ``endpoints``).

    >>> resource_name("Ingress"), resource_name("Endpoints"), resource_name("Gateway")
    ('ingresses', 'endpoints', 'gateways')
    """
    lower = kind.lower()
    if lower.endswith(_UNPLURALIZED):
        return lower
    if lower.endswith("y") and lower[-2:-1] not in ("a", "e", "i", "o", "u"):
        return lower[:-1] + "ies"
    return lower + "es" if lower.endswith("s") else lower + "s"


def missing_annotation_warning(live: dict) -> str:
    """kubectl apply's warning for a live object without the annotation (created by
    ``kubectl create`` or ``kubectl run``): there is nothing to remove fields by.
    The resource is named as discovery names it for every built-in kind; a custom
    resource gets the English plural (``Gateway`` -> ``gateways``), which is what its
    definition usually declares (offline there is no definition to ask)."""
    plural = resource_name(str(live.get("kind", "")))
    metadata = live.get("metadata")
    name = metadata.get("name", "") if isinstance(metadata, dict) else ""
    return (f"Warning: resource {plural}/{name} is missing the {LAST_APPLIED} annotation "
            "which is required by kubectl apply. kubectl apply should only be used on "
            "resources created declaratively by either kubectl create --save-config or "
            "kubectl apply. The missing annotation will be patched automatically.\n")


def modified_configuration(manifest: dict, namespace: str | None) -> tuple[dict, str]:
    """kubectl's ``GetModifiedConfiguration(annotate=true)``: (modified, annotation)."""
    obj = copy.deepcopy(manifest)
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        metadata = obj["metadata"] = {}
    if namespace and not metadata.get("namespace"):
        metadata["namespace"] = namespace
    annotations = metadata.get("annotations")
    annotations = dict(annotations) if isinstance(annotations, dict) else {}
    annotations.pop(LAST_APPLIED, None)
    metadata["annotations"] = annotations
    annotation = encode(obj) + "\n"
    metadata["annotations"] = {**annotations, LAST_APPLIED: annotation}
    return obj, annotation


def kubectl_apply(manifest: dict, live: dict | None, node: Node | None, *,
                  namespace: str | None = "default", last_applied: Any = "annotation",
                  overwrite: bool = True, source: str | None = None) -> Applied:
    """Client-side ``kubectl apply`` of ``manifest`` onto ``live``.

    ``node``: the schema of the kind (None: not a kind kubectl knows, so a JSON merge
    patch); ``namespace``: filled into a manifest without one (None for a
    cluster-scoped kind); ``last_applied``: a dict (or None) to use instead of the
    live object's annotation.  ``source``: the ``-f`` file as kubectl names it; when
    given, an error in making the patch carries kubectl's whole message (see
    :func:`creation_error`), else apimachinery's alone.
    """
    modified, annotation = modified_configuration(normalize(manifest), namespace)
    live = normalize(live) if live is not None else None
    patch_type = STRATEGIC if node is not None else MERGE
    if live is None:
        return Applied(None, modified, None, None, patch_type, modified, annotation)
    try:
        original = (last_applied_of(live) if last_applied == "annotation"
                    else normalize(last_applied) if last_applied is not None else None)
        patch = _three_way(original, modified, live, node, overwrite,
                           create.APPLY_PRECONDITIONS)
    except KubeError as error:
        if source is None:
            raise
        given = last_applied if last_applied != "annotation" else None
        raise creation_error(error, original_text(live, given), modified, live,
                             namespace, source) from None
    return Applied(original, modified, live, patch, patch_type,
                   apply_patch(live, patch, node), annotation)


def original_text(live: dict, given: dict | None) -> str:
    """The last applied configuration as kubectl holds it: the annotation's text
    as it is (or the JSON of a configuration given instead; "" for none)."""
    if given is not None:
        return encode(normalize(given)) + "\n"
    metadata = live.get("metadata")
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    text = annotations.get(LAST_APPLIED) if isinstance(annotations, dict) else None
    return text if isinstance(text, str) else ""


def object_info(obj: dict, namespace: str | None) -> str:
    """cli-runtime's ``Info.String()`` of an object kubectl mapped: its resource and
    kind, then name and namespace (Go-quoted; "" for a cluster-scoped kind, whose
    ``namespace`` is None)."""
    api_version, kind = str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
    group, _, version = api_version.rpartition("/")
    metadata = obj.get("metadata")
    name = metadata.get("name", "") if isinstance(metadata, dict) else ""
    own = metadata.get("namespace") if isinstance(metadata, dict) else None
    return (f"Resource: {go_quote(f'{group}/{version}, Resource={resource_name(kind)}')}, "
            f"GroupVersionKind: {go_quote(f'{group}/{version}, Kind={kind}')}\n"
            f"Name: {go_quote(str(name))}, "
            f"Namespace: {go_quote(str(own or namespace) if namespace else '')}")


def creation_error(error: KubeError, original: str, modified: dict, live: dict,
                   namespace: str | None, source: str) -> KubeError:
    """kubectl apply's error when the patch cannot be made (a conflict with
    ``--overwrite=false``, a field its types do not know): apimachinery's message
    inside the three inputs and the object, as ``applyOneObject`` and the patcher
    wrap it (``AddSourceToErr`` twice, then ``errors.Wrap``)."""
    where = go_quote(source)
    message = (f"error when applying patch:\n\nto:\n{object_info(modified, namespace)}\n"
               f"for: {where}: error when patching {where}: creating patch with:\n"
               f"original:\n{original}\nmodified:\n{encode(modified)}\n\n"
               f"current:\n{encode(live)}\n\nfor:: {error.message}")
    return KubeError(message, code=error.code, hint=error.hint)


def helm_upgrade(old: dict | None, new: dict, live: dict | None, node: Node | None,
                 cr_three_way: bool = False) -> Applied:
    """Helm 3's ``createPatch`` for one object: ``CreateThreeWayMergePatch(old, new,
    live)`` for a kind with Go types; for a custom resource ``CreateMergePatch(old,
    new)`` (two-way: what ``helm upgrade`` sends), or with ``cr_three_way``
    ``CreateThreeWayJSONMergePatch`` with kubectl's preconditions (Helm's
    ``threeWayMergeForUnstructured``, used only when an install takes over objects)."""
    old, new = (normalize(old) if old is not None else None), normalize(new)
    live = normalize(live) if live is not None else None
    patch_type = STRATEGIC if node is not None else MERGE
    if live is None:
        return Applied(old, new, None, None, patch_type, copy.deepcopy(new))
    if node is None and not cr_three_way:
        patch = createjson.create_merge_patch(old or {}, new)
    else:
        preconditions = create.APPLY_PRECONDITIONS if node is None else ()
        patch = _three_way(old, new, live, node, True, preconditions)
    return Applied(old, new, live, patch, patch_type, apply_patch(live, patch, node))


def _three_way(original: dict | None, modified: dict, live: dict, node: Node | None,
               overwrite: bool, preconditions: tuple) -> dict:
    if node is None:
        return createjson.create_three_way(original, modified, live, preconditions)
    return create.create_three_way(original, modified, live, node, overwrite, preconditions)


def apply_patch(live: dict, patch: dict, node: Node | None) -> dict:
    """What the server stores: ``patch`` applied to ``live`` (before defaulting)."""
    if node is None:
        return _merge_patch(copy.deepcopy(live), patch)
    return strategic_merge(live, patch, node)


def _merge_patch(doc: dict, patch: dict) -> dict:
    """The API server's JSON merge patch (evanphx ``MergePatch``) on an object."""
    for key, value in patch.items():
        current = doc.get(key)
        if value is None:
            doc.pop(key, None)
        elif isinstance(current, dict) and isinstance(value, dict):
            doc[key] = _merge_patch(current, value)
        else:
            doc[key] = value if isinstance(current, dict) else prune_nulls(value)
    return doc
