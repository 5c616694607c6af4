"""The words of ``kube apply --server-side``, shared by the command line and the page.

* :data:`CONFLICT_ADVICE`: kubectl 1.32's advice after the server's conflict text;
* :func:`no_type_hint`: a kind without a type is the server's "no corresponding type"
  error; the hint says what to give (the CRD);
* :func:`apply_lines`: the ``--explain`` text of an apply (steps, forced fields, what the
  apply removed or could not remove: :func:`removal_lines`, every field's owners before
  and after);
* :func:`conflict_report`: the ``--explain`` text of an apply that fails on conflicts
  (each conflict with its three ways out, :func:`.ownership.conflict_lines`).

``cfgpatch kube apply --server-side --explain`` writes these lines to standard error;
the page's apply mode shows the same lines (:mod:`cfgpatch.web.ssamode`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import KubeError
from ..ssa.managed import ManagedFieldsEntry, entries_of
from .ownership import conflict_lines, dropped_lines, owner_lines, stuck_lines

#: kubectl 1.32's advice after the server's conflict text (pkg/cmd/apply, server-side).
CONFLICT_ADVICE = """Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the `--force-conflicts` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts"""


def no_type_hint(error: KubeError, where: str = "--crd") -> KubeError:
    """A kind without a type: the server has no such resource; say what to give
    (``where``: how the CRD is given, ``--crd`` or the page's CRD editor)."""
    if "no corresponding type for" in error.message and not error.hint:
        extra = " (or the cluster's OpenAPI document with --schema)" if where == "--crd" \
            else ""
        return KubeError(error.message, code=error.code,
                         hint=f"a custom resource needs its CustomResourceDefinition: give it "
                              f"with {where}{extra}")
    return error


def apply_lines(name: str, manager: str, live: dict | None, manifest: dict,
                done: Any) -> list[str]:
    """The explanation of a server-side apply (``done``: a
    :class:`~cfgpatch.kube.ssa.csaupgrade.KubectlApply` or Flux's result), first line
    unindented, the others indented by two spaces, as ``--explain`` writes them."""
    result = done.result
    before = entries_of(live)
    verb = "creates the object" if live is None else "changes the object" if result.changed \
        else "leaves the object as it is"
    lines = [f"cfgpatch: server-side apply of {name} by {manager} {verb}"]
    lines += [f"  step: {step}" for step in done.steps[1:]]
    if result.before_first_apply:
        lines.append("  the live object had no managed fields: its fields were first "
                     "recorded for before-first-apply")
    if result.upgraded_from_last_applied:
        lines.append("  conflicts on fields of the last-applied annotation were forced "
                     "(kubectl's client-side apply set them)")
    lines += [f"  forced {c.field}: taken from {c.owner}" for c in result.forced]
    lines += [f"  {line}" for line in removal_lines(manager, live, manifest, done)]
    lines.append("  owners (before -> after):")
    lines += [f"  {line}" for line in owner_lines(before, result.managed_fields)]
    return lines


def removal_lines(manager: str, live: dict | None, manifest: dict, done: Any) -> list[str]:
    """What the apply removed because the applier stopped sending it, what it kept because
    another manager owns it, and what stays stuck with client-side apply's manager."""
    result = done.result
    # what this apply stopped sending: compare with the fields before the whole flow
    lines = dropped_lines(manager, migrated(entries_of(live), done.migrated_managers, manager),
                          result.managed_fields, result.changes.removed)
    if live is not None:
        lines += stuck_lines(live, manifest, result.managed_fields)
    return lines


def migrated(before: list[ManagedFieldsEntry], managers: Sequence[str],
             manager: str) -> list[ManagedFieldsEntry]:
    """The entries before, with the managers kubectl migrated counted as the applier's
    (so their fields the configuration drops show as removed, not as stuck)."""
    if not managers:
        return before
    return [ManagedFieldsEntry(manager, "Apply", "", e.fields)
            if e.manager in managers and e.manager != manager else e for e in before]


def conflict_report(name: str, manager: str, live: Any, manifest: Any,
                    conflicts: Sequence[Any]) -> list[str]:
    """The explanation of an apply that fails on ``conflicts``."""
    return [f"cfgpatch: server-side apply of {name} by {manager} fails: "
            f"{len(conflicts)} conflict(s)",
            *(f"  {line}" for line in conflict_lines(conflicts, manager, live, manifest))]
