"""``cfgpatch kube upgrade``: what Helm 3's three-way upgrade would do, with no cluster.

::

    cfgpatch kube upgrade --old old-release.yaml --new new-release.yaml --live live.yaml

Each file may hold many documents (``helm get manifest`` output, ``helm template``
output, ``kubectl get -o yaml`` of several objects).  Objects are matched by
apiVersion, kind, namespace (``-n`` for objects that name none) and name, and each is
reported as Helm's upgrade treats it:

* ``created``: in the new manifest only (and not live);
* ``updated`` / ``unchanged``: in both manifests and live: the patch is Helm's
  ``createPatch`` (original = old manifest, modified = new manifest, current = live;
  a three-way strategic merge patch for built-in kinds; for custom resources the
  two-way JSON merge patch from old to new that ``helm upgrade`` sends, or with
  ``--cr-three-way`` the three-way JSON merge patch Helm uses when an install takes
  over existing objects), then the result and the explanation as for
  ``kube apply``; Helm writes no last-applied annotation;
* ``recreated``: in both manifests but gone from the cluster: Helm creates it again;
* ``conflict``: in the new manifest and live but not in the old one (Helm refuses: the
  object exists and the release does not own it);
* ``deleted``: in the old manifest only (``helm.sh/resource-policy: keep`` keeps it).

With ``--server-side`` it is Helm 4's upgrade (:mod:`.kube_helm4`): each object is
applied server-side by the field manager ``helm`` with ``--force-conflicts`` off unless
given; ``--from-client-side`` says the release was installed with client-side apply
(Helm 3, or Helm 4 with ``--server-side=false``): Helm 4 then first hands the fields of
``helm``'s Update entries to its Apply entry, as ``csaupgrade`` does.

Exit code 0, 1 when an object would make Helm fail.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import CfgPatchError, KubeError
from .kube import _fail, _read_file, resource_name
from .kube_apply import kind_schema, write_outcome
from .kube_cluster import by_identity, namespace_for
from .kube_flags import add_common_flags

KEEP = "helm.sh/resource-policy"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "upgrade", help="what helm upgrade would do to each object (three-way, no cluster)",
        description="Simulate Helm 3's three-way upgrade: old and new release manifests "
                    "against the live objects.")
    parser.add_argument("--old", required=True, metavar="FILE",
                        help="the manifest of the release now installed")
    parser.add_argument("--new", required=True, metavar="FILE",
                        help="the manifest of the upgrade")
    parser.add_argument("--live", required=True, metavar="FILE",
                        help="the live objects (many documents allowed)")
    crs = parser.add_mutually_exclusive_group()
    crs.add_argument("--cr-two-way", action="store_false", dest="cr_three_way",
                     help="custom resources as helm upgrade patches them: a two-way JSON "
                          "merge patch from old to new (the default)")
    crs.add_argument("--cr-three-way", action="store_true", dest="cr_three_way",
                     help="custom resources patched three-way (CreateThreeWayJSONMergePatch, "
                          "as Helm's install --take-ownership does)")
    add_common_flags(parser)
    from .kube_helm4 import add_flags

    add_flags(parser)
    parser.set_defaults(func=run_upgrade, cr_three_way=False)


def run_upgrade(args: argparse.Namespace) -> int:
    try:
        old = by_identity(args, read_documents(args.old), "one manifest")
        new = by_identity(args, read_documents(args.new), "one manifest")
        live = by_identity(args, read_documents(args.live), "one manifest")
        failed = False
        for key in [*new, *(k for k in old if k not in new)]:
            failed |= _report(args, key, old.get(key), new.get(key), live.get(key))
    except KubeError as error:
        return _fail(error)
    except CfgPatchError as error:
        sys.stderr.write(f"error: {error.message}\n")
        return 1
    return 1 if failed else 0


def _report(args: argparse.Namespace, key: tuple, old: dict | None, new: dict | None,
            live: dict | None) -> bool:
    from ..kube.engine.clientapply import helm_upgrade
    from ..kube.explain.apply import explain_three_way
    from ..kube.io import writer

    out = sys.stdout
    name = resource_name(new or old or {})
    if new is None:
        kept = _annotations(old).get(KEEP) == "keep"
        out.write(f"{name} {'kept (helm.sh/resource-policy: keep)' if kept else 'deleted'}\n")
        return False
    if live is None and getattr(args, "server_side", False):
        from .kube_helm4 import upgrade_server_side

        out.write(f"{name} {'recreated' if old is not None else 'created'}\n")
        return upgrade_server_side(args, None, _with_namespace(args, new), None)
    if live is None:
        out.write(f"{name} {'recreated' if old is not None else 'created'}\n")
        if "result" in args.show:
            out.write(writer.dump(new, args.output))
        return False
    if old is None:
        out.write(f"{name} conflict: it exists in the cluster but not in the old release; "
                  "Helm refuses to take it over (rendered manifests contain a resource "
                  "that already exists)\n")
        return True
    if getattr(args, "server_side", False):
        from .kube_helm4 import upgrade_server_side

        return upgrade_server_side(args, name, _with_namespace(args, new),
                                   _with_namespace(args, live))
    node = kind_schema(args, new)
    # the live object is in the namespace it was matched in (kubectl get prints it)
    old, new, live = (_with_namespace(args, obj) for obj in (old, new, live))
    done = helm_upgrade(old, new, live, node, cr_three_way=args.cr_three_way)
    notes = explain_three_way(done.original, done.modified, done.current, done.result, node)
    write_outcome(f"{name} {'unchanged' if done.unchanged else 'updated'}", done, notes, args)
    return False


def _with_namespace(args: argparse.Namespace, obj: dict) -> dict:
    """``obj`` with the release namespace filled in, as Helm's resource builder sets it
    on every namespaced object of a manifest before computing the patch."""
    namespace = namespace_for(args, obj)
    metadata = obj.get("metadata")
    if not namespace or not isinstance(metadata, dict) or metadata.get("namespace"):
        return obj
    return {**obj, "metadata": {**metadata, "namespace": namespace}}


def _annotations(obj: Any) -> dict:
    metadata = obj.get("metadata") if isinstance(obj, dict) else None
    found = metadata.get("annotations") if isinstance(metadata, dict) else None
    return found if isinstance(found, dict) else {}


def read_documents(path: str) -> list[dict]:
    """Every non-empty document of a YAML (or one JSON) file, as kubectl reads each;
    a ``List`` (``kubectl get -o yaml`` of many objects) gives its items."""
    from ..kube.io import reader
    from ..kube.io.unstructured import normalize

    text = _read_file(path, 'the path "{path}" does not exist')
    if text.lstrip().startswith(("{", "[")):
        docs = [reader.load_object(text, path)[0]]
    else:
        docs = [normalize(value) for value in reader.load_values(text, path)]
    out: list[dict] = []
    for doc in docs:
        items = doc.get("items")
        if isinstance(items, list) and str(doc.get("kind", "")).endswith("List"):
            out.extend(item for item in items if isinstance(item, dict))
        elif isinstance(doc, dict) and doc:
            out.append(doc)
        elif doc is not None:
            raise KubeError(f"error parsing {path}: a document is not an object",
                            hint="every document of a manifest must be one object")
    return out
