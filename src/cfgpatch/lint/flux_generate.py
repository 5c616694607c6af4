"""The kustomization kustomize-controller builds for a Flux ``Kustomization``.

Modelled on Flux's generator (``fluxcd/pkg/kustomize``, ``Generator.GenerateManifest``),
which the controller runs in ``spec.path`` before ``kustomize build``:

* a folder without a kustomization gets one listing every ``.yaml``/``.yml`` file below
  it (walked in name order, depth first) and each sub-folder that has a kustomization
  (not what is below it); a file that is not Kubernetes YAML fails the build
  (``failed to decode Kubernetes YAML from ...``); an empty listing gets the placeholder
  namespace ``_placeholder``; the files source-controller leaves out of every artifact
  (``.sops.yaml``, CI files...) are not listed;
* a folder's own kustomization without ``resources`` gets
  ``buildMetadata: [originAnnotations]``;
* then the Flux fields: ``targetNamespace`` (the kustomization's ``namespace``),
  ``namePrefix``, ``nameSuffix``, ``patches`` (appended: they run before the folder's
  own ``namePrefix``), ``components`` (local paths only; ``ignoreMissingComponents``),
  the older ``patchesStrategicMerge`` and ``patchesJson6902``, ``images`` (merged into
  an entry of the same name) and ``buildMetadata``.

The build itself (``kube build``, with ``LoadRestrictionsNone`` as the controller's) and
what happens after it (``postBuild`` substitution, ``commonMetadata``) are
``lint.flux``'s.
"""

from __future__ import annotations

import json
import posixpath

from ..records import dataclass
from .config import glob_match
from .kustomizations import KUSTOMIZATION_NAMES, find_kustomization

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

#: The file the controller writes in a folder without a kustomization.
GENERATED = "kustomization.yaml"
#: What source-controller leaves out of every artifact (``sourceignore``'s defaults, the
#: patterns that can name a manifest).
ARTIFACT_EXCLUDES = (".github", ".circleci", ".travis.yml", ".gitlab-ci.yml", "appveyor.yml",
                     ".drone.yml", "cloudbuild.yaml", "codeship-services.yml",
                     "codeship-steps.yml", ".goreleaser.yml", ".sops.yaml", ".flux.yaml")
_SELECTOR = ("group", "version", "kind", "name", "namespace", "labelSelector",
             "annotationSelector")
_REMOTE = ("git::", "gh:", "ssh://", "https://", "http://", "git@", "github.com:",
           "github.com/")


class FluxBuildError(Exception):
    """kustomize-controller refuses the Flux Kustomization before ``kustomize build``;
    ``field``: the spec field at fault (for the finding's place)."""

    def __init__(self, message: str, field: str = "path") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass
class Written:
    """The kustomization the controller builds: where (``path``, relative to the root),
    its value, how many ``patches`` were the folder's own, and whether it was generated."""

    path: str
    value: dict
    own_patches: int
    generated: bool


def _children(files: Mapping[str, str], directory: str) -> dict[str, Any]:
    """The files below ``directory`` as a tree of names (a file: None)."""
    tree: dict[str, Any] = {}
    walk = getattr(files, "walk", None)
    prefix = directory + "/" if directory else ""
    names = walk(directory) if walk else (n for n in files if n.startswith(prefix))
    for name in names:
        node = tree
        parts = name[len(prefix):].split("/")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node.setdefault(parts[-1], None)
    return tree


def listing(files: Mapping[str, str], directory: str) -> list[str]:
    """The ``resources`` the controller generates for ``directory`` (relative to it, as
    ``./name``); raises :class:`FluxBuildError` for a file that is not Kubernetes YAML."""
    out: list[str] = []

    def visit(node: dict[str, Any], rel: str) -> None:
        for name in sorted(node):  # filepath.Walk: each folder's entries by name
            path = f"{rel}/{name}" if rel else name
            if glob_match_any(path):
                continue
            child = node[name]
            if isinstance(child, dict):
                if any(k in child and child[k] is None for k in KUSTOMIZATION_NAMES):
                    out.append(f"./{path}")
                else:
                    visit(child, path)
            elif name.endswith((".yaml", ".yml")):
                _check_manifest(files, posixpath.join(directory, path) if directory else path)
                out.append(f"./{path}")

    visit(_children(files, directory), "")
    return out


def glob_match_any(path: str) -> bool:
    return any(glob_match(pattern, path) for pattern in ARTIFACT_EXCLUDES)


def _check_manifest(files: Mapping[str, str], path: str) -> None:
    from ..errors import KubeError
    from ..kube.kustomize.resources import read_resources
    try:
        read_resources(files[path], path)
    except (KeyError, OSError, UnicodeDecodeError):
        return  # not readable as text here: the build says what it makes of it
    except KubeError as err:
        raise FluxBuildError(f"failed to decode Kubernetes YAML from {path}: "
                             f"{err.message}") from None


def _own(files: Mapping[str, str], directory: str) -> tuple[str, dict, bool]:
    """(path, value, generated) of the kustomization before the Flux fields."""
    from ..kube.kustomize.kustomization import v2_value
    from .yamlpos import first_document
    path = find_kustomization(files, directory)
    if path is None:
        resources = listing(files, directory)
        value: dict = {"apiVersion": "kustomize.config.k8s.io/v1beta1",
                       "kind": "Kustomization"}
        value.update({"resources": resources} if resources else {"namespace": "_placeholder"})
        return posixpath.join(directory, GENERATED) if directory else GENERATED, value, True
    tree = first_document(files[path])
    read = v2_value(tree.node) if tree is not None else None
    if not isinstance(read, dict):
        raise ValueError(path)
    if not read.get("resources"):
        read = {**read, "buildMetadata": ["originAnnotations"]}
    return path, read, False


def controller_kustomization(files: Mapping[str, str], directory: str, spec: dict
                             ) -> Written:
    """What the controller writes in ``directory`` for ``spec`` (a Flux Kustomization's);
    raises :class:`FluxBuildError`, or ``ValueError`` when the folder's own kustomization
    cannot be read (its own unit fails with kustomize's text)."""
    path, value, generated = _own(files, directory)
    value = dict(value)
    for key, field in (("namespace", "targetNamespace"), ("namePrefix", "namePrefix"),
                       ("nameSuffix", "nameSuffix")):
        if isinstance(spec.get(field), str):
            value[key] = spec[field]
    own = _list(value, "patches")
    patches = [_patch(p) for p in _list(spec, "patches")]
    if patches:
        value["patches"] = [*own, *patches]
    components = _components(files, directory, spec)
    if components:
        value["components"] = [*_list(value, "components"), *components]
    for field in ("patchesStrategicMerge", "patchesJson6902"):
        extra = [_legacy(field, p) for p in _list(spec, field)]
        if extra:
            value[field] = [*_list(value, field), *extra]
    images = _images(_list(value, "images"), _list(spec, "images"))
    if images:
        value["images"] = images
    metadata = [m for m in _list(spec, "buildMetadata") if isinstance(m, str)]
    if metadata:
        value["buildMetadata"] = metadata
    return Written(path, value, len(own), generated)


def _list(mapping: dict, field: str) -> list:
    value = mapping.get(field)
    return value if isinstance(value, list) else []


def _patch(entry: Any) -> dict:
    """A Flux patch as the controller passes it on: ``patch`` and ``target`` only."""
    entry = entry if isinstance(entry, dict) else {}
    out: dict[str, Any] = {"patch": entry.get("patch") if isinstance(entry.get("patch"), str)
                           else ""}
    target = entry.get("target")
    if isinstance(target, dict):
        out["target"] = {k: target[k] for k in _SELECTOR if target.get(k)}
    return out


def _legacy(field: str, entry: Any) -> Any:
    if field == "patchesStrategicMerge":
        return json.dumps(entry)
    entry = entry if isinstance(entry, dict) else {}
    target = entry.get("target") if isinstance(entry.get("target"), dict) else {}
    return {"patch": json.dumps(entry.get("patch")),
            "target": {k: target[k] for k in _SELECTOR if target.get(k)}}


def _components(files: Mapping[str, str], directory: str, spec: dict) -> list[str]:
    out = []
    ignore_missing = spec.get("ignoreMissingComponents") is True
    for component in _list(spec, "components"):
        if not isinstance(component, str):
            continue
        lower = component.lower()
        if any(len(p) < len(component) and lower.startswith(p) for p in _REMOTE) or \
                component.startswith("/") or lower.removeprefix("file://").startswith("/"):
            raise FluxBuildError(f"component path '{component}' must be local and relative",
                                 "components")
        where = posixpath.normpath(posixpath.join(directory or ".", component))
        if ignore_missing and where not in files and not _is_dir(files, where):
            continue
        out.append(component)
    return out


def _is_dir(files: Mapping[str, str], path: str) -> bool:
    probe = getattr(files, "is_dir", None)
    if probe is not None:
        return bool(probe(path))
    return any(name.startswith(path + "/") for name in files)


def _images(own: list, flux: list) -> list:
    """``images``: a Flux entry updates the folder's entry of the same name (a new tag or
    digest replaces both), or is added."""
    out = [dict(i) if isinstance(i, dict) else i for i in own]
    for image in flux:
        if not isinstance(image, dict):
            continue
        found = next((i for i in out if isinstance(i, dict) and
                      i.get("name") == image.get("name")), None)
        if found is None:
            out.append({k: image[k] for k in ("name", "newName", "newTag", "digest")
                        if image.get(k)})
            continue
        if image.get("newName"):
            found["newName"] = image["newName"]
        if image.get("newTag") or image.get("digest"):
            for key in ("newTag", "digest"):
                if image.get(key):
                    found[key] = image[key]
                else:
                    found.pop(key, None)
    return out


__all__ = ["ARTIFACT_EXCLUDES", "GENERATED", "FluxBuildError", "Written",
           "controller_kustomization", "listing"]
