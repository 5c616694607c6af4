"""Flux ``Kustomization`` objects (``kustomize.toolkit.fluxcd.io``): ``spec.patches``.

kustomize-controller builds the folder ``spec.path`` (relative to the source's root,
which lint takes to be the repository's root) with ``spec.patches`` appended to the
kustomization's own ``patches`` (so they run before its ``namePrefix``): each entry an
inline ``patch`` (strategic or JSON 6902) with an optional ``target``.  A folder
without a kustomization is built as if one listed every manifest under it (and each
sub-folder that has a kustomization), as the controller generates it.
"""

from __future__ import annotations

import posixpath

from .build import Builder
from .config import normal_path
from .finding import Location
from .model import Outcome
from .patching import apply_site
from .resolve import (
    ResolveError,
    Resource,
    find_kustomization,
    read_kustomization,
    read_resources,
)
from .sites import entry_sites
from .yamlpos import Tree, tree_values

FLUX_GROUP = "kustomize.toolkit.fluxcd.io/"
_YAML = (".yaml", ".yml", ".json")


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


def _generated(builder: Builder, directory: str) -> list[Resource]:
    """What the controller builds for a folder without a kustomization."""
    files = builder.files
    out: list[Resource] = []
    built: set[str] = set()
    walk = getattr(files, "walk", None)
    names = list(walk(directory)) if walk else sorted(
        n for n in files if n.startswith(directory + "/" if directory else ""))
    for name in names:
        folder = posixpath.dirname(name)
        owner = next((d for d in built if folder == d or folder.startswith(d + "/")), None)
        if owner is not None:
            continue
        if folder != directory and find_kustomization(files, folder) is not None:
            built.add(folder)
            out += builder.base(folder)
        elif name.endswith(_YAML):
            try:
                text = files[name]
            except (KeyError, OSError, UnicodeDecodeError):
                continue
            if "kind:" in text or '"kind"' in text:
                try:
                    out += read_resources(files, name, _location(name))
                except ResolveError:
                    continue  # not a manifest
    return out


def _location(path: str) -> Location:
    return Location(path)


def _is_folder(files, directory: str) -> bool:
    probe = getattr(files, "is_dir", None)
    if probe is not None:
        return bool(probe(directory))
    prefix = directory + "/" if directory else ""
    return any(name.startswith(prefix) for name in files)


def lint_flux(builder: Builder, path: str, document: int, tree: Tree, value: dict
              ) -> Outcome:
    """The outcome of one Flux Kustomization: its ``spec.patches`` on the built folder."""
    outcome = Outcome("flux", path)
    spec = value.get("spec")
    if not isinstance(spec, dict):
        spec = {}
    directory = normal_path(str(spec.get("path") or ""))
    patches = spec.get("patches")
    if not isinstance(patches, list):
        patches = []
    for index, entry in enumerate(patches):
        outcome.sites += entry_sites(tree, ["spec", "patches", index], entry, path, directory,
                                     builder.files)
    if not _is_folder(builder.files, directory):
        span, _ = tree.find(["spec", "path"])
        outcome.error = (f"spec.path {spec.get('path')!r} is not a folder of the repository "
                         "(kustomize-controller fails: kustomization path not found)")
        outcome.error_location = Location(path, span.line, span.column, span.end_line,
                                          span.end_column)
        return outcome
    try:
        path_of = find_kustomization(builder.files, directory)
        if path_of is not None:  # the controller appends spec.patches to its patches
            incomplete: list[str] = []
            builder.build_top(read_kustomization(builder.files, path_of), (directory,), None,
                              incomplete, (outcome.sites, outcome))
            outcome.incomplete = incomplete
        else:
            resources = _generated(builder, directory)
            for site in outcome.sites:
                apply_site(site, resources, outcome)
    except ResolveError as exc:
        outcome.error = exc.message
        outcome.error_location = exc.location
    return outcome


__all__ = ["FLUX_GROUP", "flux_objects", "lint_flux"]


