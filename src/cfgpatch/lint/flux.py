"""Flux ``Kustomization`` objects (``kustomize.toolkit.fluxcd.io``): what the controller builds.

kustomize-controller builds the folder ``spec.path`` of the object's source with the
kustomization it writes there (``lint.flux_generate``: the folder's own, or one it
generates, with ``spec.patches``, ``targetNamespace``, ``images``... applied), with
``LoadRestrictionsNone``; then it substitutes ``postBuild`` variables and sets
``commonMetadata`` on every object.  Lint builds the same kustomization with ``kube
build``'s partial build (``lint.kbuild``), laid over the repository's files
(``lint.overlayfs``; nothing is written).

Which folder that is depends on the source (``lint.flux-sources``):

* this repository: ``spec.path`` from the repository's root (a missing folder is the
  controller's failure);
* another source (a second ``GitRepository``, an ``OCIRepository``, a ``Bucket``...):
  with ``flux-other-sources: partial`` (the default) the folder of the same path here,
  if there is one, as a *partial build*: every finding of it says so, and a
  ``flux-other-source`` note at ``sourceRef`` says what was built; a path that is not a
  folder here (or is the root, which every source has) is that note alone;
* no ``sourceRef`` (a fragment another kustomization patches in): not linted.

``postBuild`` variables are not expanded offline: where the build's objects hold
``${...}``, a ``flux-substitution`` note says so (and a ``spec.path`` holding one, which
the Flux Kustomization that applies this one substitutes, is that note alone).  Every
kustomization below a folder lint builds for a Flux Kustomization is built with
``LoadRestrictionsNone``, as the controller builds it (:func:`flux_folders`).
``commonMetadata`` is set on the built objects as the controller sets it.
"""

from __future__ import annotations

import json
import posixpath

from ..lazy_pattern import lazily
from ..records import replace
from .config import Config, normal_path
from .finding import LintFinding, Location, make
from .model import Outcome
from .options import DEFAULT_OPTIONS, BuildOptions
from .sites import entry_sites
from .yamlpos import Tree, tree_values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from .flux_artifacts import ArtifactView, Generator

FLUX_GROUP = "kustomize.toolkit.fluxcd.io/"
#: The controller builds with ``LoadRestrictionsNone`` (files anywhere in the source).
FLUX_LOAD_RESTRICTOR = "LoadRestrictionsNone"
_VARIABLE = lazily(r"\$\{[_a-zA-Z][_a-zA-Z0-9]*")
_SUBSTITUTE_OFF = "kustomize.toolkit.fluxcd.io/substitute"


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


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _is_folder(files: Mapping[str, str], directory: str) -> bool:
    probe = getattr(files, "is_dir", None)
    if probe is not None:
        return bool(probe(directory))
    prefix = directory + "/" if directory else ""
    return any(name.startswith(prefix) for name in files)


def _at(tree: Tree, path: str, where: list[Any]) -> Location:
    span, _ = tree.find(where)
    return Location(path, span.line, span.column, span.end_line, span.end_column)


def source_name(value: dict) -> str:
    """``Kind/namespace/name`` of the object's ``sourceRef`` (its own namespace by default)."""
    ref = _mapping(_mapping(value.get("spec")).get("sourceRef"))
    space = ref.get("namespace") or _mapping(value.get("metadata")).get("namespace") or ""
    return "/".join(str(p) for p in (ref.get("kind"), space, ref.get("name")) if p)


def flux_unit(files: Mapping[str, str], root: str, path: str, tree: Tree, value: dict,
              config: Config, build: bool = True, generators: Sequence[Generator] = ()
              ) -> tuple[Outcome | None, list[LintFinding]]:
    """The outcome of one Flux Kustomization (None when it is not linted) and the notes
    about it that belong to no build (another source's folder that is not here);
    ``build=False``: an empty outcome when it would be built, nothing built."""
    spec = _mapping(value.get("spec"))
    metadata = _mapping(value.get("metadata"))
    ref = spec.get("sourceRef")
    if not isinstance(ref, dict):
        return None, []  # a fragment: its source is set where it is patched in
    directory = normal_path(str(spec.get("path") or ""))
    here = config.flux_source_here(ref, str(metadata.get("namespace") or ""))
    if _VARIABLE.search(directory):
        if not here and config.flux_other_sources == "skip":
            return None, []
        return None, [make(
            "flux-substitution", f"spec.path {spec.get('path')!r} holds a variable that "
            "the postBuild of the Flux Kustomization applying this one substitutes: not "
            "followed offline, not linted", _at(tree, path, ["spec", "path"]), linted=False)]
    options = config.build_options(directory)
    if here:
        if not build:
            return Outcome("flux", path), []
        return lint_flux(files, root, path, tree, value, options), []
    source = source_name(value)
    if ref.get("kind") == "ExternalArtifact" and generators:
        view = _view(files, ref, metadata, path, config, list(generators))
        if view is not None:
            if not build:
                return None, []  # the folders it reads are the generator's, not spec.path
            return _artifact_unit(view, path, tree, value, options, source), []
    if config.flux_other_sources == "skip":
        return None, []
    name = str(metadata.get("name") or "")
    where = _at(tree, path, ["spec", "sourceRef"])
    head = f"Flux Kustomization {name} ({path}:{where.line}): source {source} is not this " \
           "repository"
    if not directory or not _is_folder(files, directory):
        why = "its spec.path is the source's root, which every source has; this " \
              "repository's root is not taken for it" if not directory else \
            f"its spec.path {spec.get('path')!r} is not a folder here"
        return None, [make("flux-other-source", f"{head}; {why}: not linted", where,
                           source=source, linted=False)]
    partial = f"source {source} is not this repository; built from the folder of the " \
              f"same path here ({directory})"
    if not build:
        return Outcome("flux", path, partial=partial), []
    outcome = lint_flux(files, root, path, tree, value, options, partial)
    outcome.notes.append(make("flux-other-source",
                              f"{head}; built from the folder of the same path here "
                              f"({directory}): a partial build, marked so in its findings",
                              where, source=source))
    return outcome, []


def _view(files: Mapping[str, str], ref: dict, metadata: dict, path: str, config: Config,
          generators: list[Generator]) -> ArtifactView | None:
    """The artifact an ``ArtifactGenerator`` of this repository composes for ``ref``."""
    from .flux_artifacts import artifact_view, generator_of
    space = str(ref.get("namespace") or metadata.get("namespace") or "")
    generator = generator_of(generators, space, str(ref.get("name") or ""), path)
    if generator is None:
        return None
    return artifact_view(files, generator, str(ref.get("name") or ""),
                         config.flux_source_here)


def _artifact_unit(view: ArtifactView, path: str, tree: Tree, value: dict,
                   options: BuildOptions, source: str) -> Outcome:
    """The Flux Kustomization built from the artifact's view of this repository's files;
    places in the artifact are given back as the repository's files."""
    from ..kube.kustomize.filesys import MemoryFileSystem
    from .files import MemoryFiles
    from .flux_artifacts import ARTIFACT_ROOT
    outcome = lint_flux(MemoryFiles(view.files), ARTIFACT_ROOT, path, tree, value, options,
                        base=MemoryFileSystem(view.files, cwd=ARTIFACT_ROOT))
    outcome.source = f"{source}, composed by ArtifactGenerator {view.generator.name} " \
                     f"({view.generator.file}) from this repository's files"

    def back(where: Location | None) -> Location | None:
        if where is None or where.file == path:
            return where
        return replace(where, file=view.repository_path(where.file))
    outcome.error_location = back(outcome.error_location)
    outcome.offline_location = back(outcome.offline_location)
    outcome.offline_more = [(note, back(where)) for note, where in outcome.offline_more]
    if outcome.error is not None:
        outcome.error += f" (paths inside {source})"
    return outcome


def flux_folders(files: Mapping[str, str], found: list[tuple[str, Tree, dict]],
                 config: Config, generators: Sequence[Generator] = ()) -> list[str]:
    """The folders the Flux Kustomizations ``found`` (file, tree, value) have lint build:
    the controller builds every kustomization below them with ``LoadRestrictionsNone``."""
    out = []
    for path, tree, value in found:
        unit, _ = flux_unit(files, "", path, tree, value, config, build=False,
                            generators=generators)
        if unit is not None:
            out.append(normal_path(str(_mapping(value.get("spec")).get("path") or "")))
    return sorted(set(out))


def lint_flux(files: Mapping[str, str], root: str, path: str, tree: Tree, value: dict,
              options: BuildOptions = DEFAULT_OPTIONS, partial: str = "",
              base: Any = None) -> Outcome:
    """The outcome of one Flux Kustomization built from ``spec.path`` of the files here."""
    outcome = Outcome("flux", path, builder="kube build", partial=partial,
                      unit=unit_name(value), unit_line=tree.find(["metadata", "name"])[0].line)
    spec = _mapping(value.get("spec"))
    directory = normal_path(str(spec.get("path") or ""))
    outcome.target = directory
    patches = spec.get("patches")
    if not isinstance(patches, list):
        patches = []
    per_entry = [entry_sites(tree, ["spec", "patches", index], entry, path, directory, files)
                 for index, entry in enumerate(patches)]
    outcome.sites = [site for sites in per_entry for site in sites]
    if not _is_folder(files, directory):
        outcome.error = (f"spec.path {spec.get('path')!r} is not a folder of the repository "
                         "(kustomize-controller fails: kustomization path not found)")
        outcome.error_location = _at(tree, path, ["spec", "path"])
        return outcome
    from .flux_generate import FluxBuildError, controller_kustomization

    try:
        written = controller_kustomization(files, directory, spec)
    except FluxBuildError as err:
        outcome.error = f"kustomize-controller fails: {err.message}"
        outcome.error_location = _at(tree, path, ["spec", err.field])
        return outcome
    except Exception:  # noqa: BLE001 - unreadable: its own unit fails with kustomize's text
        outcome.incomplete = [f"the kustomization in {directory or '.'} cannot be read"]
        return outcome
    _build(outcome, files, root, directory, written, options,
           {(written.path, "patches", written.own_patches + index): sites
            for index, sites in enumerate(per_entry)}, base)
    if outcome.error is not None and outcome.error_location == Location(path):
        outcome.error_location = _at(tree, path, ["spec", "path"])  # not the file's top
    _after_build(outcome, tree, path, spec)
    return outcome


def _build(outcome: Outcome, files: Mapping[str, str], root: str, directory: str,
           written: Any, options: BuildOptions, by_step: dict, base: Any = None) -> None:
    from .kbuild import MEMORY_ROOT, built_outcome, memory_fs
    from .overlayfs import OverlayFileSystem
    memory = root.startswith(MEMORY_ROOT)
    absolute = posixpath.join(root if memory else root.replace("\\", "/"), written.path)
    if base is None and memory:
        base = memory_fs.get()
    fs = OverlayFileSystem({absolute: json.dumps(written.value).encode()}, base, cwd=root)
    built_outcome(outcome, files, root, directory, by_step,
                  replace(options, load_restrictor=FLUX_LOAD_RESTRICTOR), fs)


def unit_name(value: dict) -> str:
    """``namespace/name`` of a Flux Kustomization (one file may hold several)."""
    meta = value.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    return f"{meta.get('namespace') or ''}/{meta.get('name') or ''}"


def _after_build(outcome: Outcome, tree: Tree, path: str, spec: dict) -> None:
    """What the controller does to the built objects: ``commonMetadata`` is set; the
    ``postBuild`` variables left unexpanded are a note."""
    common = _mapping(spec.get("commonMetadata"))
    for obj in outcome.built:
        meta = obj.setdefault("metadata", {})
        for key in ("labels", "annotations"):
            extra = _mapping(common.get(key))
            if extra and isinstance(meta, dict):
                meta[key] = {**_mapping(meta.get(key)), **{str(k): str(v)
                                                          for k, v in extra.items()}}
    if not isinstance(spec.get("postBuild"), dict) or outcome.error is not None:
        return
    reached = [obj for obj in outcome.built if _mapping(_mapping(obj.get("metadata")).get(
        "annotations")).get(_SUBSTITUTE_OFF) != "disabled"]
    count = sum(len(_VARIABLE.findall(json.dumps(obj))) for obj in reached)
    if count:
        objects = sum(1 for obj in reached if _VARIABLE.search(json.dumps(obj)))
        outcome.notes.append(make(
            "flux-substitution",
            f"postBuild substitutes variables after the build; lint checked the objects "
            f"with them unexpanded ({count} `${{...}}` in {objects} object"
            f"{'' if objects == 1 else 's'})", _at(tree, path, ["spec", "postBuild"])))


__all__ = ["FLUX_GROUP", "FLUX_LOAD_RESTRICTOR", "flux_folders", "flux_objects", "flux_unit",
           "lint_flux", "source_name",
           "unit_name"]
