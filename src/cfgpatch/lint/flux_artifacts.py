"""``ExternalArtifact`` sources an ``ArtifactGenerator`` of this repository composes.

Flux's source-watcher (``source.extensions.fluxcd.io`` ``ArtifactGenerator``) copies
folders of its sources into new artifacts (``ExternalArtifact``), which Flux
Kustomizations then build: ``flux2-kustomize-helm-example`` copies ``apps/base`` and
``apps/production`` of this repository to ``base/`` and ``production/`` of an artifact
``apps``, and builds its ``./production``.  When every copy of such an artifact reads
from a source that is this repository (``lint.flux-sources``), the artifact is a view of
this repository's files, and lint builds the Flux Kustomization from that view.

Copies modelled (source-watcher's ``applyCopyOperation``): ``@alias/DIR/**`` to
``@artifact/DEST/`` (every file below DIR at DEST/its path below DIR), and a plain
folder or file (``@alias/DIR`` to ``@artifact/DEST/``: DEST/DIR's name; a file to a
destination without ``/``: that name).  Other patterns, ``exclude`` and the ``Merge`` and
``Extract`` strategies are not modelled: the Flux Kustomization is then a
``flux-other-source`` note, as for any other source.

The generator of an artifact: the one of the artifact's namespace that names it, the
nearest to the Flux Kustomization's file when several do (one per cluster folder).
"""

from __future__ import annotations

import posixpath

from ..records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

GENERATOR_GROUP = "source.extensions.fluxcd.io/"
#: Where an artifact's files are mounted for ``kube build`` (nothing is written).
ARTIFACT_ROOT = "/cfgpatch-lint-memory-artifact"
_GLOB = "*?[]"


@dataclass(frozen=True)
class Generator:
    """An ``ArtifactGenerator`` read from ``file``."""

    file: str
    namespace: str
    name: str
    value: dict


@dataclass
class ArtifactView:
    """The files of an artifact: ``files`` (artifact path -> text) and where each came
    from in the repository (``origin``); ``generator``: the generator's file."""

    files: dict[str, str]
    origin: dict[str, str]
    generator: Generator

    def repository_path(self, path: str) -> str:
        return self.origin.get(path, path)


def generators_in(path: str, found: Sequence[tuple[object, Any]]) -> list[Generator]:
    """The ``ArtifactGenerator`` objects among ``found`` (tree, value) of ``path``."""
    out = []
    for _tree, value in found:
        if isinstance(value, dict) and value.get("kind") == "ArtifactGenerator" and \
                str(value.get("apiVersion", "")).startswith(GENERATOR_GROUP):
            meta = value.get("metadata")
            meta = meta if isinstance(meta, dict) else {}
            out.append(Generator(path, str(meta.get("namespace") or ""),
                                 str(meta.get("name") or ""), value))
    return out


def _spec(generator: Generator) -> dict:
    spec = generator.value.get("spec")
    return spec if isinstance(spec, dict) else {}


def _artifact(generator: Generator, name: str) -> dict | None:
    for artifact in _spec(generator).get("artifacts") or []:
        if isinstance(artifact, dict) and artifact.get("name") == name:
            return artifact
    return None


def _nearness(a: str, b: str) -> int:
    parts_a, parts_b = posixpath.dirname(a).split("/"), posixpath.dirname(b).split("/")
    count = 0
    for x, y in zip(parts_a, parts_b, strict=False):
        if x != y:
            break
        count += 1
    return count


def generator_of(generators: list[Generator], namespace: str, name: str, near: str
                 ) -> Generator | None:
    """The generator of the artifact ``namespace/name`` for a Flux Kustomization in the
    file ``near`` (None when none, or when two equally near ones differ)."""
    candidates = [g for g in generators if g.namespace == namespace and
                  _artifact(g, name) is not None]
    if not candidates:
        return None
    best = max(_nearness(g.file, near) for g in candidates)
    nearest = [g for g in candidates if _nearness(g.file, near) == best]
    if any(_artifact(g, name) != _artifact(nearest[0], name) or
           _spec(g).get("sources") != _spec(nearest[0]).get("sources") for g in nearest):
        return None
    return nearest[0]


def artifact_view(files: Mapping[str, str], generator: Generator, name: str,
                  source_here: Callable[[dict, str], bool]) -> ArtifactView | None:
    """The artifact ``name`` of ``generator`` as a view of this repository's files, or
    None when a copy reads another source or is not modelled."""
    aliases = {}
    for source in _spec(generator).get("sources") or []:
        if isinstance(source, dict) and isinstance(source.get("alias"), str):
            aliases[source["alias"]] = source
    artifact = _artifact(generator, name) or {}
    view: dict[str, str] = {}
    origin: dict[str, str] = {}
    copies = artifact.get("copy")
    if not isinstance(copies, list) or not copies:
        return None
    for copy in copies:
        mapped = _copy(files, copy, aliases, generator.namespace, source_here)
        if mapped is None:
            return None
        for dest, real in mapped.items():
            try:
                view[dest] = files[real]
            except (KeyError, OSError, UnicodeDecodeError):
                continue  # not text (an image...): kube build never reads it
            origin[dest] = real
    return ArtifactView(view, origin, generator) if view else None


def _copy(files: Mapping[str, str], copy: object, aliases: dict, namespace: str,
          source_here: Callable[[dict, str], bool]) -> dict[str, str] | None:
    """artifact path -> repository path of one copy operation (None: not modelled)."""
    if not isinstance(copy, dict) or copy.get("exclude") or \
            copy.get("strategy") not in (None, "", "Overwrite"):
        return None
    source, to = str(copy.get("from") or ""), str(copy.get("to") or "")
    alias, _, pattern = source[1:].partition("/") if source.startswith("@") else ("", "", "")
    if alias not in aliases or not source_here(aliases[alias], namespace) or \
            not to.startswith("@artifact/"):
        return None
    dest = to[len("@artifact/"):]
    if pattern.endswith("/**") and not any(c in pattern[:-3] for c in _GLOB):
        base = pattern[:-3].strip("/")
        return {posixpath.normpath(posixpath.join(dest, name[len(base) + 1:])): name
                for name in _under(files, base)} or None
    if pattern == "**":
        return {posixpath.normpath(posixpath.join(dest, name)): name
                for name in _under(files, "")} or None
    if any(c in pattern for c in _GLOB):
        return None
    pattern = posixpath.normpath(pattern)
    if pattern in files:
        target = posixpath.join(dest, posixpath.basename(pattern)) if to.endswith("/") \
            else dest
        return {posixpath.normpath(target): pattern}
    inside = posixpath.join(dest, posixpath.basename(pattern))
    return {posixpath.normpath(posixpath.join(inside, name[len(pattern) + 1:])): name
            for name in _under(files, pattern)} or None


def _under(files: Mapping[str, str], folder: str) -> list[str]:
    walk = getattr(files, "walk", None)
    prefix = folder + "/" if folder else ""
    names = walk(folder) if walk else (n for n in files if n.startswith(prefix))
    return [n for n in names if n.startswith(prefix)]


__all__ = ["ARTIFACT_ROOT", "ArtifactView", "Generator", "artifact_view", "generator_of",
           "generators_in"]
