"""The cluster ``cfgpatch kube apply`` works against: the live objects of ``--live``.

Objects are known by their identity (apiVersion, kind, namespace and name, as kubectl
GETs them); each object applied replaces (or adds) its own, as the API server stores
it, so a later object of the same run sees it.  ``--last-applied`` configurations are
matched the same way.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import KubeError
from .kube import _read_file, resource_name, source_name


class Cluster:
    """The live objects of ``--live`` (and the configurations of ``--last-applied``),
    by identity: apiVersion, kind, namespace (``-n``, else ``default``, for a
    namespaced object that names none) and name.  Each object applied replaces (or
    adds) its own, as the API server stores it, so a later object of the same file
    sees it."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.live: dict[tuple, dict] = {}
        if args.live != "none":
            self.live = by_identity(args, read_objects(args.live, "--live"), "--live")
        self.last: dict[tuple, dict] | None = None  # None: each live annotation
        self.no_last = args.last_applied == "none"
        if args.last_applied not in (None, "none"):
            self.last = by_identity(args, read_objects(args.last_applied, "--last-applied"),
                                    "--last-applied")
        self.used: set[tuple] = set()

    def key(self, obj: dict) -> tuple:
        return identity(self.args, obj)

    def live_object(self, key: tuple, manifest: dict) -> dict | None:
        """The live object kubectl would GET for ``manifest`` (None: it creates it)."""
        self.used.add(key)
        found = self.live.get(key)
        if found is None:
            self._refuse_other_version(key, manifest)
        return found

    def _refuse_other_version(self, key: tuple, manifest: dict) -> None:
        api_version = key[0]
        group = str(api_version).rpartition("/")[0]
        for other in self.live:
            if (other[1:] == key[1:] and other[0] != api_version
                    and str(other[0]).rpartition("/")[0] == group):
                self.used.add(other)  # reported here, not as unused
                raise KubeError(
                    f"{resource_name(manifest)} is {api_version} in the manifest but "
                    f"{other[0]} in --live",
                    hint="an API server converts between versions of a kind; cfgpatch "
                         "does not: give the live object as `kubectl get` prints it at "
                         "the manifest's version")

    def last_applied(self, key: tuple) -> Any:
        """What to use as the last applied configuration: ``"annotation"`` (the live
        object's), None (none) or the object ``--last-applied`` gives."""
        if self.no_last:
            return None
        if self.last is None or key not in self.last:
            return "annotation"
        return self.last[key]

    def store(self, key: tuple, result: dict) -> None:
        self.live[key] = result
        if self.last is not None:
            self.last.pop(key, None)  # the object now carries its own annotation

    def warn_unused(self) -> None:
        for key in self.live:
            if key not in self.used:
                sys.stderr.write(f"cfgpatch: {_described(key)} of --live matches no "
                                 "object of -f (left as it is)\n")
        for key in self.last or {}:
            if key not in self.used:
                sys.stderr.write(f"cfgpatch: {_described(key)} of --last-applied matches "
                                 "no object of -f (not used)\n")


def identity(args: argparse.Namespace, obj: dict) -> tuple:
    """(apiVersion, kind, namespace, name) of an object; the namespace is ``-n`` (else
    ``default``) for a namespaced object that names none, "" for a cluster-scoped one."""
    metadata = obj.get("metadata")
    metadata = metadata if isinstance(metadata, dict) else {}
    namespace = metadata.get("namespace") or namespace_for(args, obj) or ""
    return (obj.get("apiVersion"), obj.get("kind"), namespace, metadata.get("name"))


def by_identity(args: argparse.Namespace, objects: list[dict], where: str) -> dict[tuple, dict]:
    """Objects by :func:`identity`; one that appears twice is an error."""
    out: dict[tuple, dict] = {}
    for obj in objects:
        key = identity(args, obj)
        if key in out:
            raise KubeError(f"{resource_name(obj)} appears twice in {where}",
                            hint="each object may appear once per file")
        out[key] = obj
    return out


def _described(key: tuple) -> str:
    api_version, kind, namespace, name = key
    where = f" in namespace {namespace}" if namespace else ""
    return f"{kind} {name} ({api_version}){where}"


def read_objects(path: str, flag: str) -> list[dict]:
    """The objects of a ``--live`` or ``--last-applied`` file: one object, several
    documents, a JSON stream or a ``List`` (``kubectl get -o yaml`` of several)."""
    from ..kube.io import reader

    text = _read_file(path, 'the path "{path}" does not exist')
    objects: list[dict] = []
    for item in reader.load_objects(text, source_name(path)):
        if isinstance(item, KubeError):
            raise KubeError(item.message, code=item.code,
                            hint=f"{flag} must hold Kubernetes objects")
        objects.append(item[0])
    return objects


def namespace_for(args: argparse.Namespace, obj: dict) -> str | None:
    """The namespace kubectl fills in (None for a cluster-scoped kind)."""
    from ..kube.schema.scope import is_cluster_scoped

    if is_cluster_scoped(str(obj.get("apiVersion")), str(obj.get("kind"))):
        return None
    return args.namespace or "default"
