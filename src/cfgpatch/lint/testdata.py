"""Test data folders lint builds after all: the ones a Flux Kustomization deploys.

The default test-data excludes (``lint.default-exclude``: ``test``, ``testdata``,
``fixtures``...) keep kustomizations meant to fail out of a run.  A folder they hold back
is linted all the same when a Flux Kustomization of this repository (its ``sourceRef`` is
one of ``lint.flux-sources``) names it in ``spec.path``, as ``flux bootstrap`` names a
cluster folder called ``test``:

* a Flux Kustomization of a file lint reads names the folder, or
* a Flux Kustomization of a held-back file names a folder that holds that very file:
  the controller applies the file itself, so the folder is deployed, not test data;
* the folder holds ``flux-system/gotk-sync.yaml``, the file ``flux bootstrap
  --path=clusters/test`` writes there (its Kustomization syncs ``./clusters/test``;
  example repositories keep a placeholder of it).

Below such a folder the excludes apply again (a ``tests`` folder inside ``clusters/test``
stays out); its own Flux Kustomizations can reach further folders the same way.
``lint.exclude`` globs are never lifted.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import Any

from .config import Config, normal_path
from .flux import FLUX_GROUP, flux_objects

#: The file ``flux bootstrap --path=DIR`` writes (``DIR/flux-system/gotk-sync.yaml``; a
#: placeholder in example repositories): its Flux Kustomization syncs ``DIR``.
BOOTSTRAP_SYNC = "flux-system/gotk-sync.yaml"


def _under(path: str, folder: str) -> bool:
    return path.startswith(folder + "/")


def lifted_base(name: str, under: str, lifted: Iterable[str]) -> str:
    """The folder the test-data excludes of ``name`` count from: the deepest folder
    lifted that holds it, else the PATH ``under`` given."""
    best = under
    for folder in lifted:
        if _under(name, folder) and len(folder) > len(best):
            best = folder
    return best


def _target(value: dict, config: Config) -> str | None:
    """The ``spec.path`` folder of a Flux Kustomization of this repository (None for
    another source's, a fragment's, the root, or a path holding a variable)."""
    spec = value.get("spec")
    if not isinstance(spec, dict):
        return None
    metadata = value.get("metadata")
    space = metadata.get("namespace") if isinstance(metadata, dict) else ""
    if not config.flux_source_here(spec.get("sourceRef"), str(space or "")):
        return None
    folder = normal_path(str(spec.get("path") or ""))
    if not folder or folder.startswith("..") or "$" in folder:
        return None
    return folder


def reached(files: Mapping[str, str], config: Config, flux: Iterable[tuple[str, Any, dict]],
            held_back: list[str]) -> list[str]:
    """The held-back folders (of files in ``held_back``) a Flux Kustomization of this
    repository reaches: those ``flux`` (file, tree, value; objects of files lint reads)
    names, and those a held-back file's own Flux Kustomization names around it."""
    targets = {t for _path, _tree, value in flux if (t := _target(value, config))}
    for path in held_back:
        if path.endswith("/" + BOOTSTRAP_SYNC):
            targets.add(path[:-len(BOOTSTRAP_SYNC) - 1])  # flux bootstrap's cluster folder
            continue
        try:
            text = files[path]
        except (KeyError, OSError, UnicodeDecodeError):
            continue
        if FLUX_GROUP not in text:
            continue
        for _index, _tree, value in flux_objects(text):
            folder = _target(value, config)
            if folder and _under(path, folder):
                targets.add(folder)
    return sorted(t for t in targets if any(_under(p, t) for p in held_back)
                  and posixpath.normpath(t) == t)


__all__ = ["lifted_base", "reached"]
