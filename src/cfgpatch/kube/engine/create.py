"""Creating a strategic merge patch, exactly as apimachinery does it (kubectl 1.32).

:func:`create_two_way` is ``CreateTwoWayMergePatch`` (``kubectl edit``, ``kubectl set``,
``kubectl diff``'s view of a change): the patch that turns ``original`` into
``modified``.  :func:`create_three_way` is ``CreateThreeWayMergePatch`` (client-side
``kubectl apply``, Helm 3's upgrade): additions and changes from the live object
(``current``) to ``modified``, plus the deletions from ``original`` (the last applied
configuration) to ``modified``, merged into one patch (:mod:`.patchmerge`); with
``overwrite=False`` a field that the patch sets and that also changed from
``original`` to ``current`` is a conflict (:mod:`.conflicts`).  The schema is the
:class:`~cfgpatch.kube.schema.node.Node` lookup the apply side walks, so the built-in
table, ``--schema`` OpenAPI documents and CRD-derived schemas all work.  The diff walk
itself is :mod:`.creatediff`.

The result is the patch as a map; :func:`cfgpatch.kube.go.json.encode` writes it as
Go's ``json.Marshal`` does (sorted keys), which is the byte string kubectl sends.
Inputs are never modified.  Errors are :class:`~cfgpatch.errors.KubeError` with
apimachinery's text (a conflict has ``code="apply conflict"``).  Standard library only.

>>> from cfgpatch.kube.schema.node import builtin_schema
>>> from cfgpatch.kube.go.json import encode
>>> node = builtin_schema().for_kind("v1", "Pod")
>>> old = {"spec": {"containers": [{"name": "app", "image": "a:1"}, {"name": "log"}]}}
>>> new = {"spec": {"containers": [{"name": "app", "image": "a:2"}]}}
>>> print(encode(create_two_way(old, new, node)))
{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"a:2","name":"app"},{"$patch":"delete","name":"log"}]}}

Three-way: ``nodeName`` is only in the live object, so it stays; ``log`` was in the last
applied configuration and left the manifest, so it is deleted:

>>> live = {"spec": {"containers": [{"name": "app", "image": "a:1"}, {"name": "log"}],
...                  "nodeName": "n1"}}
>>> print(encode(create_three_way(old, new, live, node)))
{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"a:2","name":"app"},{"$patch":"delete","name":"log"}]}}
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable

from ...errors import APPLY_CONFLICT, KubeError
from ..go.runtime import go_format
from ..schema.node import Node
from .conflicts import maps_have_conflicts
from .creatediff import CHANGES, DELETIONS, DELTA, TWO_WAY, diff_maps
from .patchmerge import merge_patches

#: A precondition on the created patch (apimachinery's ``mergepatch.PreconditionFunc``).
Precondition = Callable[[dict], bool]


def create_two_way(original: dict | None, modified: dict | None, node: Node,
                   preconditions: Iterable[Precondition] = ()) -> dict:
    """``CreateTwoWayMergePatch``: the patch turning ``original`` into ``modified``."""
    patch = diff_maps(_copy(original), _copy(modified), node, TWO_WAY)
    check_preconditions(patch, preconditions)
    return patch


def create_three_way(original: dict | None, modified: dict | None, current: dict | None,
                     node: Node, overwrite: bool = True,
                     preconditions: Iterable[Precondition] = ()) -> dict:
    """``CreateThreeWayMergePatch(original, modified, current, schema, overwrite)``."""
    original, modified, current = _copy(original), _copy(modified), _copy(current)
    delta = diff_maps(current, modified, node, DELTA)
    deletions = diff_maps(original, modified, node, DELETIONS)
    patch = merge_patches(deletions, delta, node)
    check_preconditions(patch, preconditions)
    if not overwrite:
        changed = diff_maps(original, current, node, CHANGES)
        if maps_have_conflicts(patch, changed, node):
            raise conflict_error(patch, changed)
    return patch


def check_preconditions(patch: dict, preconditions: Iterable[Precondition]) -> None:
    """apimachinery's ``ErrPreconditionFailed`` when a precondition says no."""
    for check in preconditions:
        if not check(patch):
            raise KubeError(
                f"precondition failed for: {go_format(patch)}",
                hint="the patch would change a field that must stay the same "
                     "(apiVersion, kind or metadata.name)")


def key_unchanged(key: str) -> Precondition:
    """``RequireKeyUnchanged(key)``: the patch must not touch top-level ``key``."""
    return lambda patch: key not in patch


def metadata_key_unchanged(key: str) -> Precondition:
    """``RequireMetadataKeyUnchanged(key)``: the patch must not touch ``metadata.<key>``."""
    def check(patch: dict) -> bool:
        metadata = patch.get("metadata")
        return not isinstance(metadata, dict) or key not in metadata
    return check


#: The preconditions client-side ``kubectl apply`` passes.
APPLY_PRECONDITIONS = (key_unchanged("apiVersion"), key_unchanged("kind"),
                       metadata_key_unchanged("name"))


def conflict_error(patch: dict, changed: dict) -> KubeError:
    """apimachinery's ``ErrConflict`` with both maps printed as YAML."""
    from ..io.writer import dump  # loaded only on a conflict

    return KubeError(
        f"patch:\n{dump(patch, 'yaml')}\nconflicts with changes made from original to "
        f"current:\n{dump(changed, 'yaml')}\n", code=APPLY_CONFLICT,
        hint="with --overwrite=false kubectl refuses a patch that sets a field someone "
             "else changed in the live object since the last apply")


def _copy(value: dict | None) -> dict:
    """Go decodes the bytes afresh: each input is a private, mutable copy."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise KubeError("invalid JSON document",
                        hint="each configuration must be a JSON object")
    return copy.deepcopy(value)
