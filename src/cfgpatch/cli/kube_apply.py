"""``cfgpatch kube apply``: what client-side ``kubectl apply`` would do, with no cluster.

::

    cfgpatch kube apply -f deploy.yaml --live live.yaml [--last-applied last.yaml]

The last applied configuration comes from the live object's
``kubectl.kubernetes.io/last-applied-configuration`` annotation unless
``--last-applied`` gives it (``--last-applied none``: there is none).  Standard output
gets kubectl's own line (``deployment.apps/web configured`` / ``unchanged``), then the
patch exactly as kubectl sends it (and its content type), the resulting object as the
server would store it before defaulting (``-o yaml``, the default, or ``-o json``),
new last-applied annotation included, and the explanation: fields removed because
they left the manifest, manual edits kept, edits overwritten, lists reordered.

``-f`` (files, directories, repeated; :mod:`.kube_manifests`) and ``--live`` may hold
many objects (documents, a ``List``, a JSON stream): each object of ``-f`` is matched
to its live object by identity and applied in turn, and a later object sees what an
earlier one left (:class:`.kube_cluster.Cluster`); kubectl's errors of reading come
first, then those of applying, as kubectl gathers them.

``--server-side`` is server-side apply (:mod:`.kube_server_side`: field owners,
``managedFields``, conflicts).  Not modelled: ``--prune`` (it lists objects on the
server); it is refused with a message.
Exit code 0, or 1 where kubectl fails (a conflict with ``--overwrite=false``,
a field kubectl's types do not know, a document that is no object).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import CfgPatchError, KubeError
from .kube import (
    _as_kube_error,
    _fail,
    _flag_value,
    _read_file,
    _schema,
    aggregate,
    report,
    resource_name,
    source_name,
)
from .kube_cluster import Cluster, namespace_for
from .kube_flags import DRY_RUNS, add_common_flags
from .kube_manifests import built_yaml
from .kube_server_side import add_server_side_flags

OUT_OF_SCOPE = {
    "prune": "--prune is not modelled: it deletes objects found on the server",
}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "apply", help="what client-side kubectl apply would send and do (no cluster)",
        description="Compute the three-way patch client-side `kubectl apply` would send for "
                    "each object of -f (or -k), the result and why, in kubectl's order and "
                    "with kubectl's lines and errors.")
    sources = parser.add_mutually_exclusive_group(required=True)
    sources.add_argument("-f", "--filename", type=_flag_value, metavar="FILE",
                        action="append",
                        help="the new manifests: files (one object or many, JSON or YAML), "
                             "directories, '-' for standard input; repeat it or separate "
                             "paths with commas")
    sources.add_argument("-k", "--kustomize", type=_flag_value, metavar="DIR",
                         help="the objects `kube build DIR` builds (as kubectl apply -k)")
    parser.add_argument("-R", "--recursive", action="store_true",
                        help="read the directories given to -f recursively")
    parser.add_argument("--live", metavar="FILE",
                        help="the live objects, as `kubectl get -o yaml` prints them ('none': "
                             "nothing is live, kubectl creates every object); required but "
                             "with --server-side, whose default is none")
    parser.add_argument("--last-applied", metavar="FILE",
                        help="the last applied configurations (default: the live objects' "
                             "annotations; 'none' for none)")
    add_common_flags(parser, names=True)
    parser.add_argument("--overwrite", default="true", metavar="BOOL",
                        help="as kubectl: false refuses to overwrite live changes")
    parser.add_argument("--dry-run", nargs="?", const="client", default="none", metavar="MODE",
                        help="as kubectl: client (the default of a bare --dry-run: kubectl "
                             "says configured or created without a patch; the real outcome "
                             "follows as comments), server (the lines say server dry run), "
                             "none; a dry run keeps nothing for the objects after it")
    parser.add_argument("--server-side", action="store_true",
                        help="server-side apply as the API server does it (field owners, "
                             "managedFields, conflicts; see docs/kube-apply.md)")
    parser.add_argument("--force-conflicts", action="store_true",
                        help="server-side: take the conflicting fields over")
    parser.add_argument("--as", dest="as_tool", default="kubectl", choices=("kubectl", "flux"),
                        help="server-side: whose apply (kubectl's flow, the default; flux: "
                             "kustomize-controller's cleanup of kubectl's managers, then a "
                             "forced apply)")
    add_server_side_flags(parser)
    parser.add_argument("--prune", action="store_true", help="not modelled (refused)")
    parser.set_defaults(func=run_apply, usage_error=parser.error)


def run_apply(args: argparse.Namespace) -> int:
    from .kube_manifests import flag_paths, manifest_files, read_built, read_manifests

    if args.force_conflicts and not args.server_side:
        return _fail(KubeError("--force-conflicts only works with --server-side"))
    if args.server_side:
        from .kube_server_side import run_server_side

        return run_server_side(args)
    if args.live is None:
        args.usage_error("the following arguments are required: --live")
    for flag, message in OUT_OF_SCOPE.items():
        if getattr(args, flag):
            sys.stderr.write(f"cfgpatch: {message}\n")
            return 2
    if args.dry_run not in DRY_RUNS:
        return _fail(KubeError(f"Invalid dry-run value ({args.dry_run}). Must be \"none\", "
                               "\"server\", or \"client\"."))
    built: str | None = None  # the YAML of -k
    if args.kustomize is not None:
        outcome = built_yaml(args.kustomize)
        if isinstance(outcome, int):
            return outcome
        built = outcome
        files = [args.kustomize]
    else:
        files, errors = manifest_files(flag_paths(args.filename), args.recursive)
        if errors:
            return report(aggregate(errors))
    try:
        cluster = Cluster(args)
        if built is not None:
            found = read_built(built, args.kustomize, args.namespace)
        else:
            found = read_manifests(files, args.namespace)
    except KubeError as error:
        return _fail(error)
    if not found.objects and not found.elsewhere and not found.unread:
        return _fail(KubeError("no objects passed to apply",
                               hint=f"no object in {', '.join(files)}"))
    failed: list[KubeError] = []
    for manifest, source in found.objects:
        try:
            _apply_one(args, cluster, manifest, source)
        except CfgPatchError as error:
            failed.append(_as_kube_error(error))
    cluster.warn_unused()
    # kubectl reads every file first: the errors of reading (the objects in another
    # namespace one by one, then the documents it could not read as one group) come
    # before those of applying
    reading = aggregate([*found.elsewhere, aggregate(found.unread)])
    return report(aggregate([reading, *failed]))


def _apply_one(args: argparse.Namespace, cluster: Cluster, manifest: dict, source: str) -> None:
    """Apply one object to the cluster as it stands, print the outcome, and keep the
    result as the live object for the objects after it (not in a dry run)."""
    from ..kube.engine.clientapply import has_annotation, kubectl_apply, missing_annotation_warning
    from ..kube.explain.apply import explain_three_way

    key = cluster.key(manifest)
    live = cluster.live_object(key, manifest)
    last = cluster.last_applied(key)
    node = kind_schema(args, manifest)
    if args.dry_run == "client":
        _client_dry_run(args, manifest, live, last, node, source)
        return
    if last == "annotation" and isinstance(live, dict) and not has_annotation(live):
        sys.stderr.write(missing_annotation_warning(live))  # before the patch is made
    done = kubectl_apply(manifest, live, node, namespace=namespace_for(args, manifest),
                         last_applied=last, overwrite=args.overwrite != "false",
                         source=source)
    if args.dry_run == "none":
        cluster.store(key, done.result)
    if args.output == "name":  # kubectl's -o name: the name alone, nothing else
        sys.stdout.write(f"{resource_name(done.result)}\n")
        return
    notes = explain_three_way(done.original, done.modified, done.current, done.result, node)
    verb = "created" if done.current is None else "unchanged" if done.unchanged \
        else "configured"
    suffix = " (server dry run)" if args.dry_run == "server" else ""
    write_outcome(f"{resource_name(done.result)} {verb}{suffix}", done, notes, args)


def _client_dry_run(args: argparse.Namespace, manifest: dict, live: dict | None, last: Any,
                    node: Any, source: str) -> None:
    """``--dry-run=client``: kubectl computes no patch; it says ``created`` where there is
    no live object and ``configured`` everywhere else, even where the patch would be
    ``{}`` or refused.  What a real apply would do follows, as comments."""
    from ..kube.engine.clientapply import kubectl_apply
    from ..kube.explain.apply import explain_three_way

    if args.output == "name":  # kubectl's -o name: the name alone, nothing else
        sys.stdout.write(f"{resource_name(manifest)}\n")
        return
    verb = "created" if live is None else "configured"
    sys.stdout.write(f"{resource_name(manifest)} {verb} (dry run)\n")
    try:
        done = kubectl_apply(manifest, live, node, namespace=namespace_for(args, manifest),
                             last_applied=last, overwrite=args.overwrite != "false",
                             source=source)
    except CfgPatchError as error:
        sys.stdout.write("# kubectl's client dry run computes no patch; a real apply would "
                         "fail:\n")
        sys.stdout.write("".join(f"#   {line}\n" for line in error.message.splitlines()))
        return
    notes = explain_three_way(done.original, done.modified, done.current, done.result, node)
    real = "created" if done.current is None else "unchanged" if done.unchanged \
        else "configured"
    write_outcome(f"# kubectl's client dry run computes no patch; a real apply would say: "
                  f"{resource_name(done.result)} {real}", done, notes, args)


def write_outcome(line: str, done: Any, notes: list, args: argparse.Namespace) -> None:
    """kubectl's line, then the patch, the result and the notes (as ``--show`` says)."""
    from ..kube.engine.clientapply import CONTENT_TYPES
    from ..kube.io import writer

    out = sys.stdout
    out.write(line + "\n")
    if "patch" in args.show:
        if done.patch is None:
            out.write("# no patch: the object is created as it is below\n")
        elif done.unchanged:
            out.write("# patch: {} (nothing is sent)\n")
        else:
            out.write(f"# patch ({CONTENT_TYPES[done.patch_type]}):\n{done.patch_text}\n")
    if "result" in args.show:
        out.write(f"# result ({'created' if done.patch is None else 'after the patch'}, "
                  "before the server's defaulting):\n")
        out.write(writer.dump(done.result, args.output))
    if "explanation" in args.show:
        write_notes(notes)


def write_notes(notes: list) -> None:
    out = sys.stdout
    if not notes:
        out.write("# explanation: no field changes\n")
        return
    out.write("# explanation:\n")
    for note in notes:
        out.write(f"#   {note.describe()}\n")


def read_object(path: str) -> dict:
    """The one object of a file (``kube diff``'s OLD and NEW)."""
    from ..kube.io import reader

    obj, _notes = reader.load_object(_read_file(path, 'the path "{path}" does not exist'),
                                     source_name(path))
    return obj


def kind_schema(args: argparse.Namespace, obj: dict) -> Any:
    """The schema node of ``obj``'s kind (None: a kind kubectl does not know)."""
    from ..kube.schema.node import builtin_schema

    schema = _schema(args) or builtin_schema()
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    return schema.for_kind(api_version, kind)
