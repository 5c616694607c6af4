"""Rendering one entry point at one ref: its objects, their text and their blame.

A kustomization is built by ``kube build`` (from the git tree's file system, or the
disk for the working tree) with a trace, so every output field comes with the file and
line that last set it (:func:`cfgpatch.kube.explain.build.explain`'s blame).

A Flux ``Kustomization`` builds its ``spec.path``: a folder without a kustomization
gets the one kustomize-controller generates (lint's model of it,
``lint.flux_generate.listing``: every ``.yaml``/``.yml`` file below it, each top-most
sub-folder with a kustomization as a whole), held in memory; the Flux fields that change the build
(``targetNamespace``, ``namePrefix``, ``nameSuffix``, ``patches``, ``images``,
``components``) go into an overlay kustomization over the folder, also in memory, whose
lines are attributed to the Flux object.  (The controller edits the folder's own
kustomization instead: its ``patches`` then run before the folder's ``namePrefix``; the
overlay runs them after, so a patch that names an object by its unprefixed name is
where the two differ.)

A folder of plain manifests is read file by file; each field's line is where the file
writes it.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import KUSTOMIZE_UNMODELLED, KubeError
from ..kube.explain.build import blame as blame_of
from ..kube.io.kyaml_write import write_value
from ..kube.kustomize.build import BuildError, build
from ..kube.kustomize.filesys import FileSystem
from ..kube.kustomize.helm_options import HelmProcess
from ..kube.kustomize.resources import Resource, read_resources
from ..kube.kustomize.styles import plain
from ..kube.kustomize.trace import Trace
from ..lint.flux_generate import FluxBuildError
from ..lint.options import DEFAULT_OPTIONS, BuildOptions
from ..records import replace
from .entrypoints import EntryPoint, Files, kustomization_file, manifest_files
from .helmblame import HELM_FILE, HelmBlame
from .helmtree import NetworkNeeded, remote_note
from .overlayfs import OverlayFileSystem

Where = tuple[str, int]  # (file relative to the repository root, or "(step)"; line)


@dataclass
class RenderedObject:
    value: dict
    text: str = ""  # kustomize's YAML of the object ("" until :attr:`yaml` writes it)
    blame: dict[str, Where] = field(default_factory=dict)
    styled: Any = None  # the build's own value (quoting kept), written on demand
    also: dict[str, list[Where]] = field(default_factory=dict)  # more lines (chart values)

    @property
    def yaml(self) -> str:
        """The object as ``kubectl kustomize`` prints it (written once, when asked)."""
        if not self.text and self.styled is not None:
            self.text = write_value(self.styled)
        return self.text

    @property
    def ident(self) -> tuple[str, str, str, str]:
        """(group, kind, namespace, name)."""
        api = str(self.value.get("apiVersion") or "")
        meta = self.value.get("metadata")
        if not isinstance(meta, dict):
            meta = {}
        group = api.rpartition("/")[0]
        return (group, str(self.value.get("kind") or ""), str(meta.get("namespace") or ""),
                str(meta.get("name") or ""))


@dataclass
class Render:
    entry: EntryPoint
    objects: list[RenderedObject] = field(default_factory=list)
    built: bool = False  # by kube build (then :attr:`output` is kubectl kustomize's)
    error: str = ""
    warnings: list[str] = field(default_factory=list)
    absent: bool = False  # the entry point does not exist at this ref
    note: str = ""  # not rendered, and why (it needs the network): not an error

    @property
    def output(self) -> str:
        """What ``kubectl kustomize`` prints for a built entry point ("" otherwise)."""
        return "---\n".join(o.yaml for o in self.objects) if self.built else ""


@dataclass(frozen=True)
class How:
    """How a ref's entry points are built: the file system (the disk when None), the
    build options, and the helm runner (:class:`.helmtree.RefHelm`)."""

    fs: FileSystem | None = None
    options: BuildOptions = DEFAULT_OPTIONS
    helm: HelmProcess | None = None
    files: Files | None = None  # the ref's files (a chart's templates, for the blame)


def render(entry: EntryPoint, files: Files, root: str, how: How = How()) -> Render:
    """Render ``entry`` of the tree ``files``, mounted at ``root`` in ``how.fs``."""
    out = Render(entry)
    if entry.unmodelled:
        out.error = entry.unmodelled
        return out
    has_kustomization = kustomization_file(files, entry.path) is not None
    try:
        if entry.kind == "flux":
            _build_flux(out, entry, files, root, how, has_kustomization)
        elif has_kustomization:
            _build(out, posixpath.join(root, entry.path), root, how)
        else:
            _plain(out, files, entry, root)
    except FluxBuildError as err:
        out.error = f"kustomize-controller fails: {err.message}"
    except NetworkNeeded as err:
        out.note, out.objects, out.built = err.message, [], False
    except BuildError as err:
        out.error = err.message
        out.warnings = err.warnings
        if err.code == KUSTOMIZE_UNMODELLED and "remote " in err.message:
            out.note, out.error = remote_note(err.message), ""
    except KubeError as err:
        out.error = err.message
    except RecursionError:
        out.error = "a document is nested too deeply"
    return out


def _build(out: Render, directory: str, root: str, how: How,
           mapping: dict | None = None) -> None:
    options = how.options
    outputs = getattr(how.helm, "outputs", None)
    if outputs:
        outputs.clear()
    result = build(posixpath.normpath(directory), Trace(), fs=how.fs,
                   load_restrictor=options.load_restrictor, enable_helm=options.enable_helm,
                   helm_command=options.helm_command, helm_runner=how.helm)
    out.warnings = result.warnings
    blame = {b.resource: b for b in blame_of(result)}
    charts = HelmBlame(outputs, how.files.read_text) if outputs and how.files else None
    for resource in result.resources:
        found = blame.get(resource.describe())
        where = {p: _relative(f, line, root, mapping) for p, f, line in found.fields} \
            if found else {}
        also: dict[str, list[Where]] = {}
        if charts is not None:
            also = _chart_lines(where, charts, str(plain(resource.value).get("metadata", {})
                                                   .get("name", "")))
        out.objects.append(RenderedObject(plain(resource.value), "", where, resource.value,
                                          also))
    out.built = True


def _chart_lines(where: dict[str, Where], charts: HelmBlame, name: str
                 ) -> dict[str, list[Where]]:
    """A field of a chart's output: its template's file and line, and the lines of the
    values it writes (:mod:`.helmblame`)."""
    also: dict[str, list[Where]] = {}
    for pointer, (file, line) in where.items():
        if file == HELM_FILE:
            where[pointer] = charts.where(line, name) or (file, line)
            values = charts.values(where[pointer]) if where[pointer][0] != file else []
            if values:
                also[pointer] = values
    return also


def _relative(file: str, line: int, root: str, mapping: dict | None) -> Where:
    if mapping and file in mapping:
        return mapping[file]
    if file.startswith(root + "/"):
        return file[len(root) + 1:], line
    return file, line


def _plain(out: Render, files: Files, entry: EntryPoint, root: str) -> None:
    for path in manifest_files(files, entry.path):
        for resource in read_resources(files.read_text(path), posixpath.join(root, path)):
            out.objects.append(_plain_object(resource, path))


def _plain_object(resource: Resource, path: str) -> RenderedObject:
    value = plain(resource.value)
    blame = {pointer: (path, resource.source.position(pointer)[0])
             for pointer in leaves(value)}
    return RenderedObject(value, write_value(resource.value), blame)


def _build_flux(out: Render, entry: EntryPoint, files: Files, root: str, how: How,
                has_kustomization: bool) -> None:
    """What kustomize-controller builds (see the module docstring)."""
    added: dict[str, str] = {}
    folder = posixpath.join(root, entry.path) if entry.path != "." else root
    if not has_kustomization:
        added[posixpath.join(folder, "kustomization.yaml")] = generated_kustomization(
            files, entry.path)
    if not entry.extras:
        _build(out, folder, root, replace(how, fs=OverlayFileSystem(how.fs, added)))
        return
    extras = dict(entry.extras)
    overlay_dir = posixpath.join(root, ".cfgpatch-preview", "flux", _safe(entry.name))
    target = posixpath.relpath(folder, overlay_dir)
    lines = ["resources:", f"- {_quoted(target)}"]
    if extras.get("targetNamespace"):
        lines.append(f"namespace: {_quoted(str(extras['targetNamespace']))}")
    for key in ("namePrefix", "nameSuffix"):
        if extras.get(key):
            lines.append(f"{key}: {_quoted(str(extras[key]))}")
    if extras.get("components"):
        lines.append("components:")
        lines += [f"- {_quoted(posixpath.join(target, str(c)))}" for c in extras["components"]]
    for key in ("patches", "images"):
        if extras.get(key):
            lines.append(f"{key}: {json.dumps(extras[key])}")
    overlay = posixpath.join(overlay_dir, "kustomization.yaml")
    added[overlay] = "\n".join(lines) + "\n"
    _build(out, overlay_dir, root, replace(how, fs=OverlayFileSystem(how.fs, added)),
           {overlay: (entry.source, entry.line)})


def generated_kustomization(files: Files, folder: str) -> str:
    """The kustomization kustomize-controller writes for a folder without one: lint's
    model of the controller's listing (``lint.flux_generate.listing``: every ``.yaml`` and
    ``.yml`` file below it, each top-most sub-folder with a kustomization); raises
    ``FluxBuildError`` for a file that is not Kubernetes YAML, as the controller fails."""
    from ..lint.flux_generate import listing
    resources = listing(_TreeFiles(files), "" if folder == "." else folder)
    body = "".join(f"- {_quoted(r)}\n" for r in resources)
    return "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n" \
        + body if body else "namespace: _placeholder\n"


class _TreeFiles(Mapping):
    """A ref's files (:class:`.entrypoints.Files`) as the mapping lint's model reads."""

    def __init__(self, files: Files) -> None:
        self.files = files

    def __getitem__(self, path: str) -> str:
        try:
            return self.files.read_text(path)
        except OSError:
            raise KeyError(path) from None

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.files.paths()))

    def __len__(self) -> int:
        return len(self.files.paths())

    def walk(self, directory: str) -> list[str]:
        prefix = directory + "/" if directory else ""
        return sorted(p for p in self.files.paths() if p.startswith(prefix))


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "flux"


def _quoted(text: str) -> str:
    return json.dumps(text)


def leaves(value: Any, pointer: str = "") -> dict[str, Any]:
    """Every leaf of ``value`` (scalars, empty maps and lists) by JSON pointer."""
    out: dict[str, Any] = {}
    stack = [(pointer, value)]
    while stack:
        path, current = stack.pop()
        if isinstance(current, dict) and current:
            stack += [(f"{path}/{_escape(str(k))}", v) for k, v in current.items()]
        elif isinstance(current, list) and current:
            stack += [(f"{path}/{i}", v) for i, v in enumerate(current)]
        else:
            out[path] = current
    return out


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")
