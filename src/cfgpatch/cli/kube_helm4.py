"""``cfgpatch kube upgrade --server-side``: Helm 4's upgrade of one object, offline.

What Helm 4 (v4.2) does, read in its sources (docs/kube-apply.md cites the places):

* the field manager is ``helm`` (the ``helm`` command sets it for every request);
* each object of the new manifest is applied server-side (``Apply``) as ``helm`` with
  ``force`` = ``--force-conflicts``, off by default: a field another manager owns and
  the chart changes fails the upgrade (an HPA's ``spec.replicas``);
* an object that is not live is created with the same server-side apply;
* when the release was installed with client-side apply (Helm 3, or ``--server-side
  false``) and this upgrade applies server-side, Helm first merges the fields of
  ``helm``'s ``Update`` entries into its ``Apply`` entry (client-go ``csaupgrade``, with
  ``helm`` as both the client-side and the server-side manager); entries of other
  managers (``kubectl-client-side-apply``) are left alone, so their fields stay.

Helm's conflict error: ``Error: UPGRADE FAILED: conflict occurred while applying object
NS/NAME GROUP/VERSION, Kind=KIND: <the server's text>``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import KubeError, OwnershipConflict

HELM_MANAGER = "helm"


def add_flags(parser: argparse.ArgumentParser) -> None:
    """The flags of Helm 4's server-side upgrade."""
    parser.add_argument("--server-side", action="store_true",
                        help="Helm 4's upgrade: server-side apply as the field manager helm")
    parser.add_argument("--force-conflicts", action="store_true",
                        help="with --server-side: as helm's flag, take conflicting fields over")
    parser.add_argument("--from-client-side", action="store_true",
                        help="with --server-side: the release was installed with client-side "
                             "apply; Helm 4 migrates helm's Update entries first")
    parser.add_argument("--field-manager", default=HELM_MANAGER, metavar="NAME",
                        help="with --server-side: the field manager (Helm's is helm)")
    parser.add_argument("--crd", metavar="FILE", action="append", default=[],
                        help="with --server-side: a CustomResourceDefinition; repeat it")
    parser.add_argument("--time", metavar="RFC3339",
                        help="with --server-side: the managedFields time (default now)")
    parser.add_argument("--explain", action="store_true",
                        help="with --server-side: owners, removals and conflicts to stderr")


def upgrade_server_side(args: argparse.Namespace, name: str | None, new: dict,
                        live: dict | None) -> bool:
    """Apply ``new`` as Helm 4 does; print the object (``name`` None: it was created,
    the line is written); True when Helm would fail."""
    from ..kube.io import writer
    from ..kube.ssa import server_side_apply
    from .kube_server_side import _explain_apply, _explain_conflict, _time

    state = getattr(args, "_ssa_state", None)
    if state is None:
        state = args._ssa_state = _Types(args)
    manager = args.field_manager
    migrated: list[str] = []
    if live is not None and args.from_client_side:
        live, migrated = _migrate(live, manager, state.types, _time(args.time))
    try:
        done = server_side_apply(live, new, manager=manager, force=args.force_conflicts,
                                 schema=state.types, time=_time(args.time))
    except OwnershipConflict as error:
        if name is not None:
            sys.stdout.write(f"{name} conflict: Helm 4 fails\n")
        if args.explain:
            _explain_conflict(new, live, manager, error)
        sys.stderr.write(f"Error: UPGRADE FAILED: conflict occurred while applying object "
                         f"{_where(new)}: {error.message}\n")
        return True
    except KubeError as error:
        sys.stderr.write(f"Error: UPGRADE FAILED: server-side apply failed for object "
                         f"{_where(new)}: {error.message}\n")
        return True
    if name is not None:
        sys.stdout.write(f"{name} {'updated' if done.changed else 'unchanged'}\n")
    if "result" in args.show:
        sys.stdout.write(writer.dump(done.object, args.output, managed_fields=True))
    if args.explain:
        _explain_apply(new, live, manager, _Flow(done, migrated))
    return False


class _Types:
    def __init__(self, args: argparse.Namespace) -> None:
        from ..kube.ssa import Types
        from .kube_server_side import _crds

        self.types = Types(crds=[crd for path in args.crd for crd in _crds(path)])


class _Flow:
    """What :func:`.kube_server_side._explain_apply` reads of kubectl's flow."""

    def __init__(self, result: Any, migrated: list[str]) -> None:
        self.result = result
        self.migrated_managers = migrated
        self.steps = ["apply"] + ([f"managed fields of {', '.join(migrated)} (Update) "
                                   "merged into its Apply entry"] if migrated else [])


def _migrate(live: dict, manager: str, types: Any, time: str | None) -> tuple[dict, list[str]]:
    """Helm's ``upgradeClientSideFieldManager``: ``manager``'s Update entries merged into
    its Apply entry (:func:`cfgpatch.kube.ssa.csaupgrade.merge_own_updates`)."""
    from ..kube.ssa.csaupgrade import merge_own_updates

    return merge_own_updates(live, manager, types, time)


def _where(obj: dict) -> str:
    meta = obj.get("metadata") or {}
    api_version = str(obj.get("apiVersion", ""))
    group_version = api_version if "/" in api_version else f"/{api_version}"
    return (f"{meta.get('namespace', '')}/{meta.get('name', '')} {group_version}, "
            f"Kind={obj.get('kind', '')}")

