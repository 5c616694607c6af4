"""Where a repository's cluster state is written: the entry points a preview renders.

* every top-level kustomization: a folder with a kustomization file that no other
  kustomization includes (as a resource or a component) and that is not a Component;
* every Flux ``Kustomization`` (``kustomize.toolkit.fluxcd.io``) whose source is this
  repository (as ``cfgpatch lint`` decides: by default the ``GitRepository`` named
  ``flux-system`` that ``flux bootstrap`` makes; ``lint.flux-sources`` in
  ``.cfgpatch.yaml`` names others): its ``spec.path``, with its
  ``targetNamespace``, ``namePrefix``, ``nameSuffix``, ``patches``, ``images`` and
  ``components`` when it sets them (else it is the same entry point as the folder);
* every folder of plain manifests (YAML documents with ``apiVersion`` and ``kind``) that
  has no kustomization and whose files no kustomization lists;
* every Argo CD ``Application`` whose source ``repoURL`` is a remote of this clone: its
  ``path`` (a Helm source is an entry point that says Helm is not modelled);
* the folders ``.cfgpatch.yaml``'s ``preview.paths`` names, with their options.

:func:`reach` is the set of folders an entry point reads (its own, its bases' and its
components', as written at that ref): kustomize's default load restrictor keeps every
file a build reads in or below one of them, so a change outside them cannot reach it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..kube.kustomize.loader import KUSTOMIZATION_FILES, is_remote
from ..lint.yamlpos import tree_values
from .config import PreviewConfig

FLUX_API = "kustomize.toolkit.fluxcd.io/"
FLUX_EXTRAS = ("targetNamespace", "namePrefix", "nameSuffix", "patches", "images",
               "components", "commonMetadata")
_MANIFEST = (".yaml", ".yml", ".json")
_KIND_LINE = re.compile(r"^kind:\s*\S", re.M)
_API_LINE = re.compile(r"^apiVersion:\s*\S", re.M)


class Files(Protocol):
    def paths(self) -> list[str]: ...
    def read_text(self, path: str) -> str: ...
    def is_file(self, path: str) -> bool: ...
    def is_dir(self, path: str) -> bool: ...


@dataclass(frozen=True)
class EntryPoint:
    """One thing to render: ``kind`` is kustomization, flux, plain or config."""

    path: str  # the folder, relative to the repository root ("." for the root)
    kind: str
    source: str = ""  # the file that declares it (Flux object, .cfgpatch.yaml)
    line: int = 0
    name: str = ""  # the Flux Kustomization's name
    extras: tuple[tuple[str, Any], ...] = ()  # Flux spec fields that change the build
    options: tuple[tuple[str, Any], ...] = ()  # build option changes (config paths)
    unmodelled: str = ""  # why it is not rendered (an Argo CD Helm source)

    @property
    def key(self) -> str:
        if self.kind == "flux" and self.extras:
            return f"flux:{self.source}#{self.name}"
        return self.path

    def label(self) -> str:
        if self.kind == "flux":
            return f"{self.path} (Flux Kustomization {self.name}, {self.source}:{self.line})"
        return self.path


@dataclass
class Layout:
    """The kustomizations of a tree and what they include."""

    kustomizations: dict[str, str] = field(default_factory=dict)  # folder -> file
    components: set[str] = field(default_factory=set)
    includes: dict[str, set[str]] = field(default_factory=dict)  # folder -> folders
    listed_files: set[str] = field(default_factory=set)


def kustomization_file(files: Files, folder: str) -> str | None:
    for name in KUSTOMIZATION_FILES:
        path = name if folder == "." else f"{folder}/{name}"
        if files.is_file(path):
            return path
    return None


def layout(files: Files) -> Layout:
    out = Layout()
    for path in files.paths():
        folder, name = posixpath.split(path)
        if name in KUSTOMIZATION_FILES:
            out.kustomizations.setdefault(folder or ".", path)
    for folder, path in out.kustomizations.items():
        value = _first_value(files, path)
        if not isinstance(value, dict):
            continue
        if value.get("kind") == "Component":
            out.components.add(folder)
        included: set[str] = set()
        for key in ("resources", "components", "bases"):
            for item in value.get(key) or []:
                if not isinstance(item, str) or is_remote(item):
                    continue
                target = _join(folder, item)
                if kustomization_file(files, target) is not None:
                    included.add(target)
                elif files.is_file(target):
                    out.listed_files.add(target)
        out.includes[folder] = included
    return out


def find(files: Files, config: PreviewConfig,
         source_here: Callable[[Any, str], bool] | None = None,
         repo_urls: set[str] | None = None) -> list[EntryPoint]:
    """Every entry point of ``files`` (see the module docstring), in path order;
    ``source_here(sourceRef, namespace)``: whether a Flux source is this repository."""
    tree = layout(files)
    included = set().union(*tree.includes.values()) if tree.includes else set()
    found: dict[str, EntryPoint] = {}
    for folder in tree.kustomizations:
        if folder not in included and folder not in tree.components \
                and not config.excluded(folder):
            found[folder] = EntryPoint(folder, "kustomization")
    generated: list[str] = []  # Flux folders without a kustomization: all below is theirs
    for entry in flux_entry_points(files, source_here or _bootstrapped):
        if not config.excluded(entry.path) and files.is_dir(entry.path):
            found.setdefault(entry.key, entry)
            if entry.path not in tree.kustomizations:
                generated.append(entry.path)
    for key, entry in list(found.items()):
        if entry.kind == "kustomization" and _below(entry.path, generated):
            del found[key]
    for entry in argo_entry_points(files, repo_urls or set()):
        if not config.excluded(entry.path) and files.is_dir(entry.path):
            found.setdefault(entry.path, entry)
    for folder in plain_folders(files, tree):
        if not config.excluded(folder) and not _below(folder, generated, inclusive=True):
            found.setdefault(folder, EntryPoint(folder, "plain"))
    for item in config.paths:
        if item.is_glob:  # options for the entry points it matches
            continue
        kind = "config"
        found[item.path] = EntryPoint(item.path, kind, config.source, item.line,
                                      options=item.options)
    return sorted(found.values(), key=lambda e: (e.path, e.key))


def _bootstrapped(source: Any, namespace: str) -> bool:
    return isinstance(source, dict) and source.get("kind") == "GitRepository" \
        and source.get("name") == "flux-system"


def flux_entry_points(files: Files, source_here: Callable[[Any, str], bool] = _bootstrapped
                      ) -> list[EntryPoint]:
    out = []
    for path in files.paths():
        if not path.endswith(_MANIFEST):
            continue
        try:
            text = files.read_text(path)
        except OSError:
            continue
        if FLUX_API not in text:
            continue
        try:
            documents = tree_values(text)
        except (ValueError, RecursionError):
            continue
        for tree, value in documents:
            if not (isinstance(value, dict) and value.get("kind") == "Kustomization"
                    and str(value.get("apiVersion", "")).startswith(FLUX_API)):
                continue
            spec = value.get("spec")
            if not isinstance(spec, dict):
                spec = {}
            found = value.get("metadata")
            meta: dict = found if isinstance(found, dict) else {}
            if not source_here(spec.get("sourceRef"), str(meta.get("namespace") or "")):
                continue
            folder = _join(".", str(spec.get("path") or "."))
            extras = tuple((k, spec[k]) for k in FLUX_EXTRAS if spec.get(k))
            name = str((value.get("metadata") or {}).get("name") or "")
            out.append(EntryPoint(folder, "flux", path, tree.root_span().line, name, extras))
    return out


def normal_url(url: str) -> str:
    """A repository URL reduced to host/path (scheme, user, ``.git`` and case dropped).

    >>> normal_url("git@github.com:Acme/Apps.git") == normal_url("https://github.com/acme/apps")
    True
    """
    url = url.strip().lower()
    url = re.sub(r"^[a-z+]+://", "", url)
    url = re.sub(r"^[^@/]+@", "", url)
    url = url.replace(":", "/", 1) if "/" in url and ":" in url.split("/")[0] else url
    return url.removesuffix("/").removesuffix(".git")


def argo_entry_points(files: Files, repo_urls: set[str]) -> list[EntryPoint]:
    """Argo CD ``Application`` objects whose ``spec.source`` (or ``spec.sources``) is
    this repository (its ``repoURL`` equals a remote of the clone): their ``path``."""
    out = []
    for path in files.paths():
        if not path.endswith(_MANIFEST):
            continue
        try:
            text = files.read_text(path)
        except OSError:
            continue
        if "argoproj.io/" not in text or "Application" not in text:
            continue
        try:
            documents = tree_values(text)
        except (ValueError, RecursionError):
            continue
        for tree, value in documents:
            if not (isinstance(value, dict) and value.get("kind") == "Application"
                    and str(value.get("apiVersion", "")).startswith("argoproj.io/")):
                continue
            spec = value.get("spec")
            spec = spec if isinstance(spec, dict) else {}
            sources = [spec.get("source")] + list(spec.get("sources") or [])
            for source in sources:
                if not isinstance(source, dict) or source.get("chart") or \
                        normal_url(str(source.get("repoURL") or "")) not in repo_urls:
                    continue
                folder = _join(".", str(source.get("path") or "."))
                found = value.get("metadata")
                meta: dict = found if isinstance(found, dict) else {}
                unmodelled = "an Argo CD Helm source (`helm:`; Argo CD runs helm " \
                    "template on the folder) is not modelled" if source.get("helm") else ""
                out.append(EntryPoint(folder, "argocd", path, tree.root_span().line,
                                      str(meta.get("name") or ""), unmodelled=unmodelled))
    return out


def plain_folders(files: Files, tree: Layout) -> list[str]:
    folders: dict[str, bool] = {}
    for path in files.paths():
        folder, name = posixpath.split(path)
        folder = folder or "."
        if folder in folders or not name.endswith(_MANIFEST) or _hidden(folder):
            continue
        if path in tree.listed_files or kustomization_file(files, folder) is not None:
            folders[folder] = False
            continue
        if is_manifest(files, path):
            folders[folder] = True
    return sorted(f for f, plain in folders.items()
                  if plain and not any(p in tree.listed_files for p in _direct(files, f)))


def is_manifest(files: Files, path: str) -> bool:
    try:
        text = files.read_text(path)
    except OSError:
        return False
    return bool(_KIND_LINE.search(text) and _API_LINE.search(text)) and "{{" not in text


def manifest_files(files: Files, folder: str) -> list[str]:
    return [p for p in _direct(files, folder) if p.endswith(_MANIFEST) and is_manifest(files, p)]


def reach(files: Files, entry: EntryPoint) -> set[str]:
    """The folders the entry point reads at this ref (see the module docstring)."""
    if entry.kind == "plain":
        return {entry.path}
    tree = layout(files)
    seen: set[str] = set()
    stack = [entry.path]
    for key, value in entry.extras:
        if key == "components" and isinstance(value, list):
            stack += [_join(entry.path, str(v)) for v in value]
    while stack:
        folder = stack.pop()
        if folder in seen:
            continue
        seen.add(folder)
        stack += sorted(tree.includes.get(folder, ()))
    return seen


def reached(folders: set[str], changed: set[str], plain: bool = False) -> bool:
    for path in changed:
        parent = posixpath.dirname(path) or "."
        for folder in folders:
            if folder == "." and not plain:
                return True
            if parent == folder or (not plain and parent.startswith(folder + "/")):
                return True
    return False


def _below(folder: str, roots: list[str], inclusive: bool = False) -> bool:
    return any((inclusive and folder == root) or root == "." or folder.startswith(root + "/")
               for root in roots)


def _direct(files: Files, folder: str) -> list[str]:
    prefix = "" if folder == "." else folder + "/"
    return [p for p in files.paths() if p.startswith(prefix) and "/" not in p[len(prefix):]]


def _hidden(folder: str) -> bool:
    return any(part.startswith(".") and part != "." for part in folder.split("/"))


def _join(folder: str, path: str) -> str:
    joined = posixpath.normpath(posixpath.join("" if folder == "." else folder, path))
    return "." if joined in ("", ".") else joined


def _first_value(files: Files, path: str) -> Any:
    try:
        documents = tree_values(files.read_text(path))
    except (OSError, ValueError, RecursionError):
        return None
    return documents[0][1] if documents else None
