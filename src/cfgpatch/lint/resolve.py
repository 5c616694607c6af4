"""Lint's own, minimal resolution of a kustomization: which resources its patches see.

This is the narrow interface the repository-level rules need (issue 12), kept apart so
that switching to ``kube build`` (``cfgpatch.kube.kustomize``, issue 11) replaces
this module and leaves the rules alone:

* :meth:`Resolver.layer` reads a kustomization (``kustomization.yaml``, ``.yml`` or
  ``Kustomization`` in a directory) and accumulates the resources its patches apply to:
  ``resources`` files and directories (a directory is built fully, recursively, with its
  own patches, namespace and name prefix/suffix), ``configMapGenerator`` and
  ``secretGenerator`` objects (their names only);
* :func:`transform_names` applies a layer's ``namespace``, ``namePrefix`` and
  ``nameSuffix`` (each resource keeps the names it had, which targets still match).

``openapi:`` and ``crds:`` go through kube build's own functions
(:meth:`~cfgpatch.kube.kustomize.openapi.SchemaState.set_field`,
:func:`~cfgpatch.kube.kustomize.crds.load_crd_files`) over the in-memory files
(:func:`reader`): the same errors, and the same schema for strategic merges
(``Resolver.state``, set by the builder for the build in progress).

What it does not model (remote resources, ``helmCharts``, ``generators``,
``transformers``, ``replacements``, ``vars``, ``configurations``: their files are read
for their errors only) makes the layer *incomplete*: the rules that need
the whole picture (a patch that matches nothing) stay silent.
Errors kustomize would report (a missing file, a cycle, an unknown field) raise
:class:`ResolveError` with a text close to kustomize's and the place in the
kustomization; the CLI replaces the text by kustomize's own when kubectl is at hand.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import KubeError
from ..jsonvalue import deep_copy
from ..kube.kustomize.crds import load_crd_files
from ..kube.kustomize.gotypes import GoDecodeError, decode, json_kind
from ..kube.kustomize.kustomization import EMPTY, is_empty, v2_value
from ..kube.kustomize.nodes import text as scalar_text
from ..kube.kustomize.openapi import SchemaState
from ..kube.kustomize.transformer_config import parse as parse_configuration
from .config import normal_path
from .finding import Location
from .yamlpos import Tree, first_document, resource_documents

KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
#: Fields lint's resolution does not model (the layer's resources may be incomplete).
UNMODELLED = ("configurations", "generators", "transformers", "replacements", "vars",
              "helmCharts", "helmChartInflationGenerator")
#: (apiVersion, kind) pairs the namespace transformer leaves alone: kubectl kustomize 1.32,
#: measured on tests/data/kustomize/trees/scope-probe (it goes by group and version:
#: policy/v1beta1 PodSecurityPolicy is cluster-scoped, extensions/v1beta1 is not).
_CLUSTER_SCOPED_TEXT = """
    v1:Namespace v1:PersistentVolume v1:ComponentStatus v1:Node
    storage.k8s.io/v1:StorageClass storage.k8s.io/v1beta1:StorageClass
    apiextensions.k8s.io/v1:CustomResourceDefinition
    apiextensions.k8s.io/v1beta1:CustomResourceDefinition policy/v1beta1:PodSecurityPolicy
    rbac.authorization.k8s.io/v1:ClusterRole rbac.authorization.k8s.io/v1beta1:ClusterRole
    rbac.authorization.k8s.io/v1:ClusterRoleBinding
    rbac.authorization.k8s.io/v1beta1:ClusterRoleBinding
    scheduling.k8s.io/v1:PriorityClass scheduling.k8s.io/v1beta1:PriorityClass
    apiregistration.k8s.io/v1:APIService apiregistration.k8s.io/v1beta1:APIService
    certificates.k8s.io/v1:CertificateSigningRequest
    certificates.k8s.io/v1beta1:CertificateSigningRequest
    flowcontrol.apiserver.k8s.io/v1beta1:FlowSchema
    flowcontrol.apiserver.k8s.io/v1beta1:PriorityLevelConfiguration
    networking.k8s.io/v1:IngressClass networking.k8s.io/v1beta1:IngressClass
    node.k8s.io/v1:RuntimeClass node.k8s.io/v1beta1:RuntimeClass
    storage.k8s.io/v1:CSIDriver storage.k8s.io/v1:CSINode storage.k8s.io/v1:VolumeAttachment
    storage.k8s.io/v1beta1:CSIDriver storage.k8s.io/v1beta1:CSINode
    storage.k8s.io/v1beta1:VolumeAttachment
    admissionregistration.k8s.io/v1:MutatingWebhookConfiguration
    admissionregistration.k8s.io/v1beta1:MutatingWebhookConfiguration
    admissionregistration.k8s.io/v1:ValidatingWebhookConfiguration
    admissionregistration.k8s.io/v1beta1:ValidatingWebhookConfiguration
"""
CLUSTER_SCOPED = frozenset(tuple(item.split(":", 1)) for item in _CLUSTER_SCOPED_TEXT.split())
#: Kinds namePrefix/nameSuffix leave alone (kubectl kustomize, measured; a Namespace
#: takes the kustomization's ``namespace`` as its name instead).
NOT_PREFIXED = frozenset({"Namespace", "CustomResourceDefinition", "APIService"})
class ResolveError(Exception):
    """The kustomization does not build; ``location``: the entry at fault."""

    def __init__(self, message: str, location: Location) -> None:
        super().__init__(message)
        self.message = message
        self.location = location


@dataclass
class Resource:
    """One resource of a build: the object, the file it came from, its earlier names."""

    obj: dict
    origin: str
    previous: tuple[str, ...] = ()
    #: kustomize's error for keys its file wrote twice (it refuses them at the end)
    duplicates: str = ""

    def copy(self) -> Resource:
        return Resource(deep_copy(self.obj), self.origin, self.previous, self.duplicates)


@dataclass
class Kustomization:
    """A kustomization file read: its value, position tree and directory."""

    path: str
    value: dict
    tree: Tree

    @property
    def directory(self) -> str:
        return posixpath.dirname(self.path)

    @property
    def is_component(self) -> bool:
        return self.value.get("kind") == "Component"

    def location(self, where: list[Any]) -> Location:
        span, _ = self.tree.find(where)
        return Location(self.path, span.line, span.column, span.end_line, span.end_column)


@dataclass
class Layer:
    """The resources a kustomization's own patches apply to."""

    kustomization: Kustomization
    resources: list[Resource] = field(default_factory=list)
    #: What lint could not follow (a remote base, a generator plugin...): no full picture.
    incomplete: list[str] = field(default_factory=list)


def join(directory: str, path: str) -> str:
    """``directory``/``path`` normalised (``..`` resolved), relative to the root."""
    return normal_path(posixpath.normpath(posixpath.join(directory or ".", path)))


def is_remote(entry: str) -> bool:
    return "://" in entry or entry.startswith(("github.com/", "git@", "gitlab.com/",
                                               "bitbucket.org/"))


def find_kustomization(files: Mapping[str, str], directory: str) -> str | None:
    for name in KUSTOMIZATION_NAMES:
        path = join(directory, name)
        if path in files:
            return path
    return None


def read_kustomization(files: Mapping[str, str], path: str) -> Kustomization:
    """The kustomization at ``path`` (raises :class:`ResolveError` if kustomize would)."""
    try:  # the first document only, as kustomize reads it
        tree = first_document(files[path])
    except ValueError as exc:
        raise ResolveError(f"invalid Kustomization: {exc}", Location(path)) from None
    if tree is None:
        raise ResolveError(EMPTY, Location(path))
    # kustomize decodes a kustomization through sigs.k8s.io/yaml, so with go-yaml v2's
    # (YAML 1.1) scalars: `namespace: n` is a boolean; then into its Go types (kube
    # build's decoding, the same texts)
    try:
        value = v2_value(tree.node)
    except KubeError as exc:
        raise ResolveError(exc.message, Location(path)) from None
    if value is None:
        raise ResolveError(EMPTY, Location(path))
    if not isinstance(value, dict):
        raise ResolveError("invalid Kustomization: json: cannot unmarshal "
                           f"{json_kind(value)} into Go value of type types.Kustomization",
                           Location(path))
    try:
        decoded = decode(value)
    except GoDecodeError as exc:
        where = [exc.path[0]] if exc.path and exc.path[0] in value else []
        raise ResolveError(f"invalid Kustomization: {exc.message}",
                           Kustomization(path, value, tree).location(where)) from None
    kustomization = Kustomization(path, decoded, tree)
    if is_empty(decoded):
        raise ResolveError(EMPTY, Location(path))
    return kustomization


def _entries(kustomization: Kustomization, key: str) -> list[tuple[int, Any]]:
    value = kustomization.value.get(key)
    return list(enumerate(value)) if isinstance(value, list) else []


def reader(files: Mapping[str, str], kustomization: Kustomization
           ) -> Callable[[str], tuple[str, str]]:
    """kustomize's file loader for ``kustomization`` over ``files``: a file named
    relative to it, inside its directory (kube build's loader errors, relative paths)."""
    root = kustomization.directory

    def read(entry: str) -> tuple[str, str]:
        path = join(root, entry)
        if root and not path.startswith(root + "/") or path.startswith("../") \
                or path == "..":
            raise KubeError(f"security; file '{path}' is not in or below '{root or '.'}'")
        if path not in files:
            raise KubeError(f"evalsymlink failure on '{path}' : lstat {path}: "
                            f"no such file or directory")
        return files[path], path
    return read


def set_schema(state: SchemaState, kustomization: Kustomization, files: Mapping[str, str],
               reset: bool) -> None:
    """kube build's ``openapi:`` handling for ``kustomization`` (``reset``: the top)."""
    try:
        state.set_field(kustomization.value.get("openapi"), reader(files, kustomization),
                        reset)
    except KubeError as exc:
        raise ResolveError(exc.message, kustomization.location(["openapi"])) from None


class Resolver:
    """Resolves directories to resources; ``build(directory)`` is the full build of a
    base (given by the caller, who applies patches), memoised by the caller.  ``state``:
    the schema of the build in progress (kyaml's, see ``kube.kustomize.openapi``),
    told of the types the resources name."""

    def __init__(self, files: Mapping[str, str],
                 build: Callable[[str, tuple[str, ...]], list[Resource]]) -> None:
        self.files = files
        self.build = build
        self.state: SchemaState | None = None

    def is_directory(self, path: str) -> bool:
        probe = getattr(self.files, "is_dir", None)
        if probe is not None:
            return bool(probe(path))
        prefix = path + "/" if path else ""
        return any(name.startswith(prefix) for name in self.files)

    def layer(self, kustomization: Kustomization, stack: tuple[str, ...]) -> Layer:
        """The resources of ``kustomization`` before its own patches."""
        layer = Layer(kustomization)
        layer.incomplete += [key for key in UNMODELLED if kustomization.value.get(key)]
        for key in ("resources", "bases"):
            for index, entry in _entries(kustomization, key):
                self._add_entry(layer, key, index, entry, stack)
        read = reader(self.files, kustomization)
        try:  # read as kube build reads them, for their errors (not applied here)
            for path in kustomization.value.get("configurations") or []:
                parse_configuration(*read(str(path)))
        except KubeError as exc:
            raise ResolveError(exc.message, kustomization.location(["configurations"])
                               ) from None
        try:  # kube build reads them (errors only: their field specs rename nothing)
            load_crd_files(kustomization.value.get("crds"), read)
        except KubeError as exc:
            raise ResolveError(exc.message, kustomization.location(["crds"])) from None
        for key in ("configMapGenerator", "secretGenerator"):
            for _, entry in _entries(kustomization, key):
                generated = _generated(key, entry, kustomization)
                if generated is not None:
                    layer.resources.append(generated)
        _check_unique(layer)
        return layer

    def _add_entry(self, layer: Layer, key: str, index: int, entry: Any,
                   stack: tuple[str, ...]) -> None:
        kustomization = layer.kustomization
        where = kustomization.location([key, index])
        if not isinstance(entry, str):
            raise ResolveError(f"invalid Kustomization: {key}[{index}] is not a string", where)
        if is_remote(entry):
            layer.incomplete.append(f"remote {entry}")
            return
        path = join(kustomization.directory, entry)
        if path in self.files:
            found = read_resources(self.files, path, where)
            self._uses_types(found, where)
            layer.resources += found
        elif self.is_directory(path):
            if path in stack:
                raise ResolveError(f"accumulating resources: cycle detected: {path} is "
                                   f"included by itself ({' -> '.join((*stack, path))})",
                                   where)
            if find_kustomization(self.files, path) is None:
                raise ResolveError(
                    f"accumulating resources: accumulation err='accumulating resources from "
                    f"'{entry}': unable to find one of 'kustomization.yaml', "
                    f"'kustomization.yml' or 'Kustomization' in directory '{path}'", where)
            layer.resources += self.build(path, stack)
        else:
            raise ResolveError(f"accumulating resources: accumulation err='accumulating "
                               f"resources from '{entry}': {path}: no such file or directory",
                               where)

    def _uses_types(self, resources: list[Resource], where: Location) -> None:
        if self.state is None:
            return
        try:
            for resource in resources:
                self.state.uses_type(resource.obj.get("apiVersion"), resource.obj.get("kind"))
        except KubeError as exc:  # a custom schema that does not parse
            raise ResolveError(exc.message, where) from None


def _check_namespaced(kustomization: Kustomization, taken: Counter,
                      resource: Resource) -> None:
    """kustomize refuses a namespace that gives two resources one id (``taken``: how many
    resources have each id now)."""
    key = resource_key(resource.obj)
    taken[key] += 1
    if taken[key] > 1:
        raise ResolveError(f"namespace transformation produces ID conflict: two resources "
                           f"become {key[1]} {key[2]} in namespace {key[3]}",
                           kustomization.location(["namespace"]))


def resource_key(obj: dict) -> tuple[str, str, str, str]:
    """(apiVersion, kind, name, namespace): what kustomize calls a resource's id."""
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    return (str(obj.get("apiVersion", "")), str(obj.get("kind", "")),
            str(meta.get("name", "")), str(meta.get("namespace") or ""))


def _check_unique(layer: Layer) -> None:
    seen: dict[tuple, Resource] = {}
    for resource in layer.resources:
        key = resource_key(resource.obj)
        if key in seen:
            api_version, kind, name, namespace = key
            group, _, version = api_version.rpartition("/")
            gvk = f"{kind}.{version}.{group}" if group else f"{kind}.{version}"
            ident = f"{gvk}/{name}.{namespace or '[noNs]'}"
            raise ResolveError(
                f"accumulating resources: may not add resource with an already registered "
                f"id: {ident} (from {seen[key].origin} and {resource.origin})",
                layer.kustomization.location(["resources"]))
        seen[key] = resource


def read_resources(files: Mapping[str, str], path: str, where: Location) -> list[Resource]:
    """The objects of a resource file (``List`` objects are unpacked)."""
    try:
        docs = resource_documents(files[path])
    except ValueError as exc:
        raise ResolveError(f"accumulating resources: {path}: {exc}", where) from None
    out = []
    for doc, duplicates in docs:
        items = doc.get("items") if isinstance(doc, dict) and str(
            doc.get("kind", "")).endswith("List") else None
        if not isinstance(items, list):
            items = [doc]
        for item in items:
            if not isinstance(item, dict) or not item.get("kind"):
                raise ResolveError(f"accumulating resources: {path}: missing Resource "
                                   f"metadata (kind)", where)
            meta = item.get("metadata")
            if not isinstance(meta, dict) or not meta.get("name"):
                raise ResolveError(f"accumulating resources: {path}: missing metadata.name "
                                   f"in a {item['kind']}", where)
            out.append(Resource(deep_copy(item), path, duplicates=duplicates))  # shared
    return out


def _generated(key: str, entry: Any, kustomization: Kustomization) -> Resource | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        return None
    if entry.get("behavior") in ("merge", "replace"):
        return None  # changes a base's object: no new resource
    kind = "ConfigMap" if key == "configMapGenerator" else "Secret"
    meta: dict = {"name": entry["name"]}
    if isinstance(entry.get("namespace"), str):
        meta["namespace"] = entry["namespace"]
    data = {}
    for literal in entry.get("literals") or []:
        if isinstance(literal, str) and "=" in literal:
            name, _, value = literal.partition("=")
            data[name] = value
    obj = {"apiVersion": "v1", "kind": kind, "metadata": meta}
    if data:
        obj["data"] = data
    return Resource(obj, kustomization.path)


def transform_names(kustomization: Kustomization, resources: list[Resource]) -> None:
    """The layer's namespace, namePrefix and nameSuffix, in place (earlier names kept)."""
    value = kustomization.value
    namespace = value.get("namespace")
    prefix = str(value.get("namePrefix") or "")
    suffix = str(value.get("nameSuffix") or "")
    taken = Counter(resource_key(r.obj) for r in resources) if namespace else Counter()
    for resource in resources:
        meta = resource.obj.setdefault("metadata", {})
        if not isinstance(meta, dict):
            continue
        kind = resource.obj.get("kind")
        scope = (str(resource.obj.get("apiVersion", "")), str(kind))
        if isinstance(namespace, str) and namespace:
            if kind == "Namespace" and scope in CLUSTER_SCOPED:
                if meta.get("name") != namespace:
                    resource.previous = (*resource.previous, str(meta.get("name", "")))
                    meta["name"] = namespace
            elif scope not in CLUSTER_SCOPED:
                taken[resource_key(resource.obj)] -= 1
                meta["namespace"] = namespace
                _check_namespaced(kustomization, taken, resource)
        if (prefix or suffix) and kind not in NOT_PREFIXED:
            name = scalar_text(meta.get("name", ""))  # a number or boolean by its Go text
            resource.previous = (*resource.previous, name)
            meta["name"] = f"{prefix}{name}{suffix}"
