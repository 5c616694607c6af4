"""Test data folders lint builds after all: the ones Flux deploys, the bases overlays use.

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
  example repositories keep a placeholder of it);
* a Flux Operator ``FluxInstance``'s ``spec.sync`` (or the ``flux-instance`` chart's
  HelmRelease ``values.instance.sync``) of this repository's source names it: the
  operator makes the Kustomization that syncs that path.

A kustomization in a held-back folder that a linted kustomization uses as a base (a
``resources`` or ``bases`` entry) is linted as a unit of its own too: the overlay's build
checks only its own patches, so the base's would be checked nowhere.

Below such a folder the excludes apply again (``apps/test/fixtures`` is no unit of its
own; when the controller's generated kustomization lists it, it is built in the Flux
Kustomization's unit); its own Flux Kustomizations can reach further folders the same way.
``lint.exclude`` globs are never lifted.
"""

from __future__ import annotations

import posixpath
import re

from ..lazy_pattern import lazily
from .config import Config, normal_path
from .flux import FLUX_GROUP, flux_objects
from .kustomizations import (
    KUSTOMIZATION_NAMES,
    find_kustomization,
    is_remote,
    join,
    read_kustomization,
)
from .yamlpos import values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from typing import Any

#: The file ``flux bootstrap --path=DIR`` writes (``DIR/flux-system/gotk-sync.yaml``; a
#: placeholder in example repositories): its Flux Kustomization syncs ``DIR``.
BOOTSTRAP_SYNC = "flux-system/gotk-sync.yaml"
#: The flux-instance chart's values key (``instance:`` on a line of its own).
_INSTANCE = lazily(r"^\s*instance:\s*$", re.MULTILINE)


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


def _synced(text: str, config: Config) -> Iterator[str]:
    """The paths the Flux Operator syncs from this repository (``FluxInstance``
    ``spec.sync``, the flux-instance chart's ``values.instance.sync``) in a file."""
    if "sync:" not in text or ("FluxInstance" not in text and not _INSTANCE.search(text)):
        return
    try:
        documents = values(text)
    except ValueError:
        return
    for value in documents:
        if not isinstance(value, dict):
            continue
        found = value.get("spec")
        spec: dict = found if isinstance(found, dict) else {}
        if value.get("kind") == "FluxInstance":
            sync = spec.get("sync")
        elif value.get("kind") == "HelmRelease":
            given = spec.get("values")
            instance = given.get("instance") if isinstance(given, dict) else None
            sync = instance.get("sync") if isinstance(instance, dict) else None
        else:
            continue
        if isinstance(sync, dict):
            folder = _target({"metadata": value.get("metadata"), "spec": {
                "sourceRef": {"kind": sync.get("kind", "GitRepository"),
                              "name": sync.get("name", "flux-system")},
                "path": sync.get("path")}}, config)
            if folder:
                yield folder


def _read(files: Mapping[str, str], path: str) -> str:
    try:
        return files[path]
    except (KeyError, OSError, UnicodeDecodeError):
        return ""


def reached(files: Mapping[str, str], config: Config, flux: Iterable[tuple[str, Any, dict]],
            held_back: list[str], others: Iterable[str] = ()) -> list[str]:
    """The held-back folders (of files in ``held_back``) a Flux Kustomization of this
    repository reaches: those ``flux`` (file, tree, value; objects of the files lint
    reads, ``others``) names, those a held-back file's own Flux Kustomization names
    around it, flux bootstrap's cluster folders and the Flux Operator's synced paths."""
    targets = {t for _path, _tree, value in flux if (t := _target(value, config))}
    for path in held_back:
        if path.endswith("/" + BOOTSTRAP_SYNC):
            targets.add(path[:-len(BOOTSTRAP_SYNC) - 1])  # flux bootstrap's cluster folder
            continue
        text = _read(files, path)
        targets.update(_synced(text, config))
        if FLUX_GROUP not in text:
            continue
        for _index, _tree, value in flux_objects(text):
            folder = _target(value, config)
            if folder and _under(path, folder):
                targets.add(folder)
    for path in others:
        targets.update(_synced(_read(files, path), config))
    return sorted(t for t in targets if any(_under(p, t) for p in held_back)
                  and posixpath.normpath(t) == t)


def used_bases(files: Mapping[str, str], kustomizations: Iterable[str],
               held_back: Iterable[str]) -> list[str]:
    """The held-back kustomization files the ``kustomizations`` linted use as bases,
    directly or through one another."""
    held = {p for p in held_back if posixpath.basename(p) in KUSTOMIZATION_NAMES}
    if not held:
        return []
    todo = list(kustomizations)
    seen = set(todo)
    out: list[str] = []
    while todo:
        path = todo.pop()
        try:
            kustomization = read_kustomization(files, path)
        except Exception:  # noqa: BLE001 - a broken file fails as its own unit
            continue
        value = kustomization.value
        for entry in [*(value.get("resources") or []), *(value.get("bases") or [])]:
            if not isinstance(entry, str) or is_remote(entry):
                continue
            found = find_kustomization(files, join(kustomization.directory, entry))
            if found in held and found not in seen:
                seen.add(found)
                out.append(found)
                todo.append(found)
    return sorted(out)


__all__ = ["lifted_base", "reached", "used_bases"]
