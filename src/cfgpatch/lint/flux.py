"""Flux ``Kustomization`` objects (``kustomize.toolkit.fluxcd.io``): ``spec.patches``.

kustomize-controller builds the folder ``spec.path`` (relative to the source's root,
which lint takes to be the repository's root) with ``spec.patches`` appended to the
kustomization's own ``patches`` (so they run before its ``namePrefix``): each entry an
inline ``patch`` (strategic or JSON 6902) with an optional ``target``.  A folder
without a kustomization is built as if one listed every manifest under it (and each
sub-folder that has a kustomization), as the controller generates it.

Lint builds it the same way with ``kube build``'s partial build (``lint.kbuild``): the
kustomization the controller would write is laid over the repository's files
(``lint.overlayfs``), nothing is written; what cannot be followed offline is a note.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from typing import Any

from .config import normal_path
from .finding import Location
from .kustomizations import find_kustomization
from .model import Outcome
from .options import DEFAULT_OPTIONS, BuildOptions
from .sites import entry_sites
from .yamlpos import Tree, first_document, tree_values

FLUX_GROUP = "kustomize.toolkit.fluxcd.io/"
_YAML = (".yaml", ".yml", ".json")
#: The file the controller writes in a folder without a kustomization.
GENERATED = "kustomization.yaml"


def flux_objects(text: str) -> list[tuple[int, Tree, dict]]:
    """(document index, tree, value) of each Flux Kustomization in a file's text."""
    if FLUX_GROUP not in text:
        return []
    try:
        read = tree_values(text)
    except ValueError:
        return []
    return [(index, tree, value) for index, (tree, value) in enumerate(read)
            if isinstance(value, dict) and value.get("kind") == "Kustomization"
            and str(value.get("apiVersion", "")).startswith(FLUX_GROUP)]


def _generated(files: Mapping[str, str], directory: str) -> list[str]:
    """What the controller lists for a folder without a kustomization: every manifest
    file, and each top-most sub-folder with a kustomization (relative to ``directory``)."""
    out: list[str] = []
    built: list[str] = []
    walk = getattr(files, "walk", None)
    names = list(walk(directory)) if walk else sorted(
        n for n in files if n.startswith(directory + "/" if directory else ""))
    for name in names:
        folder = posixpath.dirname(name)
        if any(folder == d or folder.startswith(d + "/") for d in built):
            continue
        if folder != directory and find_kustomization(files, folder) is not None:
            built.append(folder)
            out.append(posixpath.relpath(folder, directory or "."))
        elif name.endswith(_YAML):
            try:
                text = files[name]
            except (KeyError, OSError, UnicodeDecodeError):
                continue
            if "kind:" in text or '"kind"' in text:
                out.append(posixpath.relpath(name, directory or "."))
    return out


def _is_folder(files: Mapping[str, str], directory: str) -> bool:
    probe = getattr(files, "is_dir", None)
    if probe is not None:
        return bool(probe(directory))
    prefix = directory + "/" if directory else ""
    return any(name.startswith(prefix) for name in files)


def _kustomization(files: Mapping[str, str], directory: str, patches: list
                   ) -> tuple[str, dict, int]:
    """(path, value, number of its own patches) of the kustomization the controller
    builds: the folder's own with ``patches`` appended, or the one it generates."""
    from ..kube.kustomize.kustomization import v2_value
    path = find_kustomization(files, directory)
    value: Any = None
    if path is not None:
        try:
            tree = first_document(files[path])
            value = v2_value(tree.node) if tree is not None else None
        except Exception:  # noqa: BLE001 - kube build says what is wrong with it
            return path, {}, -1
    else:
        path = posixpath.join(directory, GENERATED) if directory else GENERATED
        value = {"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
                 "resources": _generated(files, directory)}
    if not isinstance(value, dict):
        return path, {}, -1
    own = value.get("patches")
    own = own if isinstance(own, list) else []
    return path, {**value, "patches": [*own, *patches]}, len(own)


def lint_flux(files: Mapping[str, str], root: str, path: str, tree: Tree, value: dict,
              options: BuildOptions = DEFAULT_OPTIONS) -> Outcome:
    """The outcome of one Flux Kustomization: its ``spec.patches`` on the built folder."""
    from .kbuild import MEMORY_ROOT, built_outcome, memory_fs
    from .overlayfs import OverlayFileSystem

    outcome = Outcome("flux", path, builder="kube build", unit=unit_name(value),
                      unit_line=tree.find(["metadata", "name"])[0].line)
    spec = value.get("spec")
    if not isinstance(spec, dict):
        spec = {}
    directory = normal_path(str(spec.get("path") or ""))
    patches = spec.get("patches")
    if not isinstance(patches, list):
        patches = []
    per_entry = [entry_sites(tree, ["spec", "patches", index], entry, path, directory, files)
                 for index, entry in enumerate(patches)]
    outcome.sites = [site for sites in per_entry for site in sites]
    if not _is_folder(files, directory):
        span, _ = tree.find(["spec", "path"])
        outcome.error = (f"spec.path {spec.get('path')!r} is not a folder of the repository "
                         "(kustomize-controller fails: kustomization path not found)")
        outcome.error_location = Location(path, span.line, span.column, span.end_line,
                                          span.end_column)
        return outcome
    kustomization, written, own = _kustomization(files, directory, patches)
    if own < 0:  # unreadable: its own unit fails with kustomize's text
        outcome.incomplete = [f"{kustomization} cannot be read"]
        return outcome
    by_step = {(kustomization, "patches", own + index): sites
               for index, sites in enumerate(per_entry)}
    memory = root.startswith(MEMORY_ROOT)
    absolute = posixpath.join(root, kustomization) if memory else \
        posixpath.join(root.replace("\\", "/"), kustomization)
    fs = OverlayFileSystem({absolute: json.dumps(written).encode()},
                           memory_fs.get() if memory else None, cwd=root)
    return built_outcome(outcome, files, root, directory, by_step, options, fs)


def unit_name(value: dict) -> str:
    """``namespace/name`` of a Flux Kustomization (one file may hold several)."""
    meta = value.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    return f"{meta.get('namespace') or ''}/{meta.get('name') or ''}"


__all__ = ["FLUX_GROUP", "flux_objects", "lint_flux", "unit_name"]
