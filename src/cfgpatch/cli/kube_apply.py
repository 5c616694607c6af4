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

Not modelled: ``--server-side`` (server-side apply computes no patch on the client)
and ``--prune`` (it lists objects on the server); both are refused with a message.
Exit code 0, or 1 where kubectl fails (a conflict with ``--overwrite=false``,
a field kubectl's types do not know).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import CfgPatchError, KubeError
from .kube import _fail, _flag_value, _read_file, _schema, resource_name

OUT_OF_SCOPE = {
    "server_side": "--server-side is not modelled: server-side apply merges on the server "
                   "by field ownership and sends no client-computed patch",
    "prune": "--prune is not modelled: it deletes objects found on the server",
}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "apply", help="what client-side kubectl apply would send and do (no cluster)",
        description="Compute the three-way patch client-side `kubectl apply -f FILE` would "
                    "send to the live object, the result and why.")
    parser.add_argument("-f", "--filename", required=True, type=_flag_value, metavar="FILE",
                        help="the new manifest (one object, JSON or YAML)")
    parser.add_argument("--live", required=True, metavar="FILE",
                        help="the live object, as `kubectl get -o yaml` prints it ('none': "
                             "it does not exist, kubectl creates it)")
    parser.add_argument("--last-applied", metavar="FILE",
                        help="the last applied configuration (default: the live object's "
                             "annotation; 'none' for none)")
    add_common_flags(parser)
    parser.add_argument("--overwrite", default="true", metavar="BOOL",
                        help="as kubectl: false refuses to overwrite live changes")
    parser.add_argument("--server-side", action="store_true", help="not modelled (refused)")
    parser.add_argument("--prune", action="store_true", help="not modelled (refused)")
    parser.set_defaults(func=run_apply)


def add_common_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=_flag_value, default="yaml", metavar="FORMAT",
                        choices=("yaml", "json"), help="how to print the result (yaml, json)")
    parser.add_argument("-n", "--namespace", type=_flag_value, default="default",
                        metavar="NS", help="namespace for objects that name none (default)")
    parser.add_argument("--schema", metavar="F",
                        help="OpenAPI v2/v3 document of your cluster, for the merge keys")
    parser.add_argument("--show", type=_parts, default=PARTS, metavar="PARTS",
                        help="what to print, comma-separated: patch, result, explanation "
                             "(default all; kubectl's line always comes first)")


PARTS = ("patch", "result", "explanation")


def _parts(text: str) -> tuple[str, ...]:
    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown part {unknown[0]!r} (choose from "
                                         f"{', '.join(PARTS)})")
    return parts


def run_apply(args: argparse.Namespace) -> int:
    from ..kube.engine.clientapply import has_annotation, kubectl_apply, missing_annotation_warning
    from ..kube.explain.apply import explain_three_way

    for flag, message in OUT_OF_SCOPE.items():
        if getattr(args, flag):
            sys.stderr.write(f"cfgpatch: {message}\n")
            return 2
    try:
        manifest = read_object(args.filename)
        live = None if args.live == "none" else read_object(args.live)
        node = kind_schema(args, manifest)
        last: Any = "annotation"
        if args.last_applied is not None:
            last = None if args.last_applied == "none" else read_object(args.last_applied)
        done = kubectl_apply(manifest, live, node, namespace=namespace_for(args, manifest),
                             last_applied=last, overwrite=args.overwrite != "false")
        notes = explain_three_way(done.original, done.modified, done.current, done.result,
                                  node)
    except KubeError as error:
        return _fail(error)
    except CfgPatchError as error:
        sys.stderr.write(f"error: {error.message}\n")
        return 1
    if last == "annotation" and done.current is not None and not has_annotation(done.current):
        sys.stderr.write(missing_annotation_warning(done.current))
    verb = "created" if done.current is None else "unchanged" if done.unchanged \
        else "configured"
    write_outcome(f"{resource_name(done.result)} {verb}", done, notes, args)
    return 0


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
    from ..kube.io import reader

    obj, _notes = reader.load_object(_read_file(path, 'the path "{path}" does not exist'),
                                     path)
    return obj


def kind_schema(args: argparse.Namespace, obj: dict) -> Any:
    """The schema node of ``obj``'s kind (None: a kind kubectl does not know)."""
    from ..kube.schema.node import builtin_schema

    schema = _schema(args) or builtin_schema()
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    return schema.for_kind(api_version, kind)


def namespace_for(args: argparse.Namespace, obj: dict) -> str | None:
    """The namespace kubectl fills in (None for a cluster-scoped kind)."""
    from ..kube.schema.scope import is_cluster_scoped

    if is_cluster_scoped(str(obj.get("apiVersion")), str(obj.get("kind"))):
        return None
    return args.namespace
