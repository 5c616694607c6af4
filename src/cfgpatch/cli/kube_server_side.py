"""``cfgpatch kube apply --server-side`` and ``cfgpatch kube update``: server-side apply
offline, as ``kubectl apply --server-side`` (1.32) and the API server do it.

::

    cfgpatch kube apply --server-side -f NEW [--live LIVE] [--field-manager NAME]
        [--force-conflicts] [--crd FILE]... [--schema FILE] [--time RFC3339]
        [-o yaml|json|name] [--explain]
    cfgpatch kube update -f NEW --live LIVE --field-manager NAME [--crd FILE]...

Objects of ``-f`` (files, folders, ``-R``, ``-k``: as ``kube apply`` reads them) are
matched to ``--live`` by identity; no live object means the apply creates it.  Each is
applied by the field manager (``kubectl`` by default, as kubectl's), with kubectl's
move from client-side apply (the ``kubectl-client-side-apply`` fields handed to
``kubectl``), and printed as the server stores it, ``metadata.managedFields``
included, as ``kubectl get -o yaml|json --show-managed-fields`` prints it; several
objects are separated as kubectl's printers separate them.  A conflict exits 1 with
the server's text and kubectl's advice.  ``--explain`` writes to standard error every
field's owners before and after, what the apply removed and why, and each conflict's
ways out (:mod:`cfgpatch.kube.explain.ownership`).

``kube update`` is an Update operation (a controller's write, ``kubectl replace``):
the fields it changes become the manager's; nothing is removed for ownership.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import Any

from ..errors import CfgPatchError, KubeError, OwnershipConflict
from ..kube.explain.serverside import CONFLICT_ADVICE, no_type_hint
from .kube import (
    _as_kube_error,
    _fail,
    _flag_value,
    _read_file,
    aggregate,
    report,
    resource_name,
    source_name,
)
from .kube_cluster import Cluster, namespace_for

DEFAULT_MANAGER = "kubectl"


def add_server_side_flags(parser: argparse.ArgumentParser) -> None:
    """The flags of server-side apply (``kube apply --server-side``, ``kube update``)."""
    parser.add_argument("--field-manager", type=_flag_value, metavar="NAME",
                        help="the field manager (server-side apply: kubectl, as kubectl's "
                             "default)")
    parser.add_argument("--crd", metavar="FILE", action="append", default=[],
                        help="server-side: a CustomResourceDefinition (list and map types of "
                             "its custom resources); repeat it")
    parser.add_argument("--time", metavar="RFC3339",
                        help="server-side: the managedFields time of this operation "
                             "(default: now)")
    parser.add_argument("--explain", action="store_true",
                        help="server-side: write field owners before and after, removals "
                             "and conflicts with their ways out to standard error")


def run_server_side(args: argparse.Namespace) -> int:
    """``kube apply --server-side``."""
    if args.prune:
        sys.stderr.write("cfgpatch: --prune is not modelled: it deletes objects found on "
                         "the server\n")
        return 2
    if args.dry_run == "client":
        sys.stderr.write("cfgpatch: --dry-run=client is not modelled with --server-side "
                         "(kubectl sends nothing then); --dry-run=server is\n")
        return 2
    return _run(args, _apply_one)


def run_update(args: argparse.Namespace) -> int:
    """``kube update``."""
    if not args.field_manager:
        return _fail(KubeError("kube update needs --field-manager",
                               hint="an Update is recorded for its manager, such as "
                                    "hpa-controller or kubectl-replace"))
    return _run(args, _update_one)


def _run(args: argparse.Namespace, one: Any) -> int:
    from .kube_manifests import (
        built_yaml,
        flag_paths,
        manifest_files,
        read_built,
        read_manifests,
    )

    args.live = args.live or "none"
    args.last_applied = None
    if args.kustomize is not None:
        built = built_yaml(args.kustomize)
        if isinstance(built, int):
            return built
        files = [args.kustomize]
    else:
        built = None
        files, errors = manifest_files(flag_paths(args.filename), args.recursive)
        if errors:
            return report(aggregate(errors))
    try:
        state = _State(args)
        found = (read_built(built, args.kustomize, args.namespace) if built is not None
                 else read_manifests(files, args.namespace))
    except KubeError as error:
        return _fail(error)
    if not found.objects and not found.elsewhere and not found.unread:
        return _fail(KubeError("no objects passed to apply",
                               hint=f"no object in {', '.join(files)}"))
    failed: list[KubeError] = []
    for manifest, _source in found.objects:
        try:
            one(args, state, _with_namespace(args, manifest))
        except CfgPatchError as error:
            failed.append(_as_kube_error(error))
    state.cluster.warn_unused()
    reading = aggregate([*found.elsewhere, aggregate(found.unread)])
    return report(aggregate([reading, *failed]))


class _State:
    """The cluster, the types and the printer of one run."""

    def __init__(self, args: argparse.Namespace) -> None:
        from ..kube.ssa import Types

        self.cluster = Cluster(args)
        self.time = _time(args.time)
        crds = [crd for path in args.crd for crd in _crds(path)]
        self.types = Types(crds=crds, openapi=_document(args.schema) if args.schema else None)
        self.printed = 0

    def print(self, args: argparse.Namespace, obj: dict) -> None:
        from ..kube.io import writer

        if args.output == "name":
            sys.stdout.write(f"{resource_name(obj)}\n")
            return
        if args.output == "yaml" and self.printed:
            sys.stdout.write("---\n")  # kubectl's YAML printer between objects
        sys.stdout.write(writer.dump(obj, args.output, managed_fields=True))
        self.printed += 1


def _apply_one(args: argparse.Namespace, state: _State, manifest: dict) -> None:
    manager = args.field_manager or DEFAULT_MANAGER
    key = state.cluster.key(manifest)
    live = state.cluster.live_object(key, manifest)
    if getattr(args, "as_tool", "kubectl") == "flux":
        done = _as_flux(args, state, manifest, live)
        manager = done.manager
    else:
        done = _as_kubectl(args, state, manifest, live, manager)
    if getattr(args, "dry_run", "none") != "server":  # a server dry run keeps nothing
        state.cluster.store(key, done.result.object)
    state.print(args, done.result.object)
    if args.explain:
        _explain_apply(manifest, live, manager, done)


class _Flux:
    """What :func:`_explain_apply` reads of Flux's cleanup and apply."""

    def __init__(self, result: Any, handed: list[str], manager: str) -> None:
        self.result, self.manager = result, manager
        self.migrated_managers = sorted({h.split(" ")[0] for h in handed})
        self.steps = ["apply"] + ([f"cleanup: {', '.join(handed)} handed to {manager}"]
                                  if handed else [])


def _as_flux(args: argparse.Namespace, state: _State, manifest: dict,
             live: dict | None) -> _Flux:
    from ..kube.ssa.flux import FLUX_MANAGER, flux_apply

    manager = args.field_manager or FLUX_MANAGER
    if manager != FLUX_MANAGER:
        raise KubeError("--as flux applies as kustomize-controller",
                        hint="leave --field-manager out with --as flux")
    try:
        result, handed = flux_apply(live, manifest, state.types, state.time)
    except KubeError as error:
        raise _with_hint(error) from None
    return _Flux(result, handed, manager)


def _as_kubectl(args: argparse.Namespace, state: _State, manifest: dict,
                live: dict | None, manager: str) -> Any:
    from ..kube.ssa.csaupgrade import kubectl_server_side_apply

    try:
        return kubectl_server_side_apply(live, manifest, field_manager=manager,
                                         force=args.force_conflicts, schema=state.types,
                                         time=state.time)
    except OwnershipConflict as error:
        if args.explain:
            _explain_conflict(manifest, live, manager, error)
        raise KubeError(f"{error.message}\n{CONFLICT_ADVICE}") from None
    except KubeError as error:
        raise _with_hint(error) from None


def _with_hint(error: KubeError) -> KubeError:
    """A kind without a type: the server has no such resource; say what to give."""
    return no_type_hint(error)


def _update_one(args: argparse.Namespace, state: _State, manifest: dict) -> None:
    from ..kube.explain.ownership import owner_lines
    from ..kube.ssa import update
    from ..kube.ssa.managed import entries_of

    key = state.cluster.key(manifest)
    live = state.cluster.live_object(key, manifest)
    sub = getattr(args, "subresource", None) or ""
    try:
        new = _through(sub, live, manifest) if sub else manifest
        done = update(live, new, manager=args.field_manager, schema=state.types,
                      time=state.time, subresource=sub)
    except KubeError as error:
        raise _with_hint(error) from None
    state.cluster.store(key, done.object)
    state.print(args, done.object)
    if args.explain:
        err = sys.stderr
        err.write(f"cfgpatch: update of {resource_name(manifest)} by "
                  f"{args.field_manager} (Update)\n")
        for c in done.taken:
            err.write(f"  taken {c.field}: {c.owner} owned it; the update changed it\n")
        err.write("  owners (before -> after):\n")
        err.writelines(f"  {line}\n" for line in owner_lines(entries_of(live),
                                                              done.managed_fields))


def _through(sub: str, live: dict | None, manifest: dict) -> dict:
    """The object a write through ``/scale`` or ``/status`` leaves: the live object with
    only ``spec.replicas`` (or ``status``) taken from ``manifest``."""
    from ..kube.ssa.fieldmanager import without_managed_fields

    if live is None:
        raise KubeError(f"an update through /{sub} needs the live object (--live)")
    new = without_managed_fields(live)
    if sub == "status":
        new.pop("status", None)
        if "status" in manifest:
            new["status"] = manifest["status"]
        return new
    replicas = (manifest.get("spec") or {}).get("replicas")
    if not isinstance(replicas, int) or isinstance(replicas, bool):
        raise KubeError("an update through /scale takes spec.replicas from -f: it has none")
    new.setdefault("spec", {})["replicas"] = replicas
    return new


def _explain_apply(manifest: dict, live: dict | None, manager: str, done: Any) -> None:
    from ..kube.explain.serverside import apply_lines

    sys.stderr.writelines(f"{line}\n" for line in apply_lines(
        resource_name(manifest), manager, live, manifest, done))


def _explain_conflict(manifest: dict, live: dict | None, manager: str,
                      error: OwnershipConflict) -> None:
    from ..kube.explain.serverside import conflict_report

    sys.stderr.writelines(f"{line}\n" for line in conflict_report(
        resource_name(manifest), manager, live, manifest, error.conflicts))


def _with_namespace(args: argparse.Namespace, obj: dict) -> dict:
    """The object with the namespace of the request (``-n``, else ``default``), as the
    API server sets it on a namespaced object that names none."""
    namespace = namespace_for(args, obj)
    meta = obj.get("metadata")
    if not namespace or not isinstance(meta, dict) or meta.get("namespace"):
        return obj
    return {**obj, "metadata": {**meta, "namespace": namespace}}


def _time(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise KubeError(f'--time "{text}" is not an RFC 3339 time',
                        hint="for example 2026-01-01T00:00:00Z") from None
    return text


def _document(path: str) -> Any:
    from ..kube.io import reader

    return reader.load_values(_read_file(path, 'the path "{path}" does not exist'),
                              source_name(path))[0]


def _crds(path: str) -> list[dict]:
    from .kube_cluster import read_objects

    found = [obj for obj in read_objects(path, "--crd")
             if obj.get("kind") == "CustomResourceDefinition"]
    if not found:
        raise KubeError(f"{path} holds no CustomResourceDefinition",
                        hint="--crd takes the CRD of the custom resources, as "
                             "`kubectl get crd NAME -o yaml` prints it")
    return found


def register(sub: argparse._SubParsersAction) -> None:
    """``cfgpatch kube update``."""
    from .kube_flags import add_common_flags

    parser = sub.add_parser(
        "update", help="an Update operation (a controller's write, kubectl replace), "
                       "tracked in managedFields (no cluster)",
        description="Write each object of -f over its live object as an Update by "
                    "--field-manager, as the API server records it; print the stored "
                    "object, managedFields included.")
    sources = parser.add_mutually_exclusive_group(required=True)
    sources.add_argument("-f", "--filename", type=_flag_value, metavar="FILE",
                         action="append", help="the new objects (files, directories, '-')")
    sources.add_argument("-k", "--kustomize", type=_flag_value, metavar="DIR",
                         help="the objects `kube build DIR` builds")
    parser.add_argument("-R", "--recursive", action="store_true",
                        help="read the directories given to -f recursively")
    parser.add_argument("--live", metavar="FILE",
                        help="the live objects (default: none, the update creates them)")
    parser.add_argument("--subresource", choices=("scale", "status"),
                        help="write through /scale (only spec.replicas, as an HPA or "
                             "kubectl scale does) or /status (only status)")
    add_common_flags(parser, names=True)
    add_server_side_flags(parser)
    parser.set_defaults(func=run_update)
