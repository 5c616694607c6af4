"""Rendering one entry point at one ref: its objects, their text and their blame.

A kustomization (or a Flux ``spec.path`` folder with one) is built by ``kube build``
with a trace, so every output field comes with the file and line that last set it
(:func:`cfgpatch.kube.explain.build.explain`'s blame).  Flux fields that change the
build (``targetNamespace``, ``namePrefix``, ``patches``...) are applied by an overlay
kustomization written in a temporary folder, whose lines are mapped back to the Flux
object's file.  A folder of plain manifests is read file by file; each field's line is
where the file writes it.
"""

from __future__ import annotations

import os
import posixpath
import tempfile
from dataclasses import dataclass, field
from typing import Any

from ..errors import KubeError
from ..kube.explain.build import explain
from ..kube.io.kyaml_write import write_value
from ..kube.kustomize.build import BuildError, build
from ..kube.kustomize.resources import Resource, read_resources
from ..kube.kustomize.styles import plain
from ..kube.kustomize.trace import Trace
from .entrypoints import EntryPoint, Files, kustomization_file, manifest_files

Where = tuple[str, int]  # (file relative to the repository root, or "(step)"; line)


@dataclass
class RenderedObject:
    value: dict
    text: str
    blame: dict[str, Where] = field(default_factory=dict)

    @property
    def ident(self) -> tuple[str, str, str, str]:
        """(group, kind, namespace, name)."""
        api = str(self.value.get("apiVersion") or "")
        meta = self.value.get("metadata") if isinstance(self.value.get("metadata"), dict) else {}
        group = api.rpartition("/")[0]
        return (group, str(self.value.get("kind") or ""), str(meta.get("namespace") or ""),
                str(meta.get("name") or ""))


@dataclass
class Render:
    entry: EntryPoint
    objects: list[RenderedObject] = field(default_factory=list)
    output: str = ""  # what kubectl kustomize prints (kustomizations only)
    error: str = ""
    warnings: list[str] = field(default_factory=list)


def render(entry: EntryPoint, files: Files, root: str) -> Render:
    """Render ``entry`` from the tree ``files`` written (or found) under ``root``."""
    out = Render(entry)
    unsupported = [o for o in entry.options]
    if unsupported:
        out.error = f"option {unsupported[0]} is not modelled by cfgpatch kube build"
        return out
    has_kustomization = kustomization_file(files, entry.path) is not None
    try:
        if entry.extras and has_kustomization:
            _build_flux(out, entry, root)
        elif entry.extras:
            out.error = ("a Flux Kustomization with targetNamespace, namePrefix, patches or "
                         "images on a folder without a kustomization is not modelled")
        elif has_kustomization:
            _build(out, os.path.join(root, entry.path), root)
        else:
            _plain(out, files, entry, root)
    except BuildError as err:
        out.error = err.message
        out.warnings = err.warnings
    except KubeError as err:
        out.error = err.message
    except RecursionError:
        out.error = "a document is nested too deeply"
    return out


def _build(out: Render, directory: str, root: str, mapping: dict | None = None) -> None:
    result = build(directory, Trace())
    out.output = result.yaml()
    out.warnings = result.warnings
    blame = {b.resource: b for b in explain(result).blame}
    real_root = os.path.realpath(root)
    for resource in result.resources:
        found = blame.get(resource.describe())
        where = {p: _relative(f, line, real_root, mapping) for p, f, line in found.fields} \
            if found else {}
        out.objects.append(RenderedObject(plain(resource.value), write_value(resource.value),
                                          where))


def _relative(file: str, line: int, root: str, mapping: dict | None) -> Where:
    if mapping and file in mapping:
        return mapping[file]
    if not os.path.isabs(file):
        return file, line
    real = os.path.realpath(file)
    if real == root or real.startswith(root + os.sep):
        return posixpath.relpath(real, root).replace(os.sep, "/"), line
    return file, line


def _plain(out: Render, files: Files, entry: EntryPoint, root: str) -> None:
    for path in manifest_files(files, entry.path):
        for resource in read_resources(files.read_text(path), os.path.join(root, path)):
            out.objects.append(_plain_object(resource, path))


def _plain_object(resource: Resource, path: str) -> RenderedObject:
    value = plain(resource.value)
    blame = {pointer: (path, resource.source.position(pointer)[0])
             for pointer in leaves(value)}
    return RenderedObject(value, write_value(resource.value), blame)


def _build_flux(out: Render, entry: EntryPoint, root: str) -> None:
    """The Flux fields as an overlay over ``spec.path`` (see the module docstring)."""
    extras = dict(entry.extras)
    target = os.path.realpath(os.path.join(root, entry.path))
    lines = ["resources:", f"- {_quoted(target)}"]
    if extras.get("targetNamespace"):
        lines.append(f"namespace: {_quoted(str(extras['targetNamespace']))}")
    for key in ("namePrefix", "nameSuffix"):
        if extras.get(key):
            lines.append(f"{key}: {_quoted(str(extras[key]))}")
    if extras.get("components"):
        lines.append("components:")
        lines += [f"- {_quoted(os.path.join(target, str(c)))}" for c in extras["components"]]
    import json

    for key in ("patches", "images"):
        if extras.get(key):
            lines.append(f"{key}: {json.dumps(extras[key])}")
    with tempfile.TemporaryDirectory(prefix="cfgpatch-flux-") as folder:
        overlay = os.path.join(folder, "kustomization.yaml")
        with open(overlay, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        mapping = {os.path.realpath(overlay): (entry.source, entry.line), overlay:
                   (entry.source, entry.line)}
        _build(out, folder, root, mapping)


def _quoted(text: str) -> str:
    import json

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
