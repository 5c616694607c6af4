"""``configuration-narrows-default``: a ``configurations:`` field spec that takes the place
of one of kustomize's defaults.

kustomize merges a kustomization's configuration files into its default field specs,
sorts them by type and merges the result again; a custom spec with a default's path and a
narrower type (``commonLabels: [{path: metadata/labels, kind: App}]``) sorts first and the
default is dropped, so every other kind silently loses the transformer there (measured,
tree ``configurations/narrow``; see :mod:`cfgpatch.kube.kustomize.transformer_config`).
The finding points at the custom spec, with the kustomization's entry as related place.
Only defaults for every kind are reported (a default for one kind narrowed to one of its
versions, as operator scaffolds do for CRDs, is seldom felt).
"""

from __future__ import annotations

from ..errors import KubeError
from ..kube.kustomize.fieldspecs import FieldSpec
from ..kube.kustomize.transformer_config import (
    TransformerConfig,
    field_spec,
    narrowed_defaults,
    parse,
)
from .finding import LintFinding, Location, make
from .kustomizations import ResolveError, join, read_kustomization
from .yamlpos import Tree, first_tree_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

RULE = "configuration-narrows-default"
#: What each field's transformer does at a path, for the message.
_WHAT = {"namePrefix": "the name prefix", "nameSuffix": "the name suffix",
         "namespace": "the namespace", "commonLabels": "commonLabels",
         "templateLabels": "the labels of includeTemplates entries",
         "labels": "the labels of labels entries", "commonAnnotations": "commonAnnotations",
         "varReference": "variable references", "replicas": "replica counts"}


def configuration_findings(files: Mapping[str, str], path: str) -> list[LintFinding]:
    """The findings of the configuration files of the kustomization ``path``."""
    try:
        kustomization = read_kustomization(files, path)
    except ResolveError:
        return []  # build-failed says why
    entries = kustomization.value.get("configurations")
    read: list[tuple[str, int, Tree | None, Any]] = []
    custom = TransformerConfig()
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        found = _read(files, join(kustomization.directory, str(entry)))
        if found is None:
            return []  # the build fails on it: build-failed says why
        config, tree, value = found
        try:
            custom = custom.merge(config)
        except KubeError:
            return []  # the build fails on it: build-failed says why
        read.append((join(kustomization.directory, str(entry)), index, tree, value))
    out = []
    for key, default, culprit in narrowed_defaults(custom):
        if key == "images":
            continue  # kustomize updates every container's image whatever its specs say
        if default.kind or default.group or default.version:
            continue  # a default for one kind narrowed to a version or group: seldom felt
        place = _place(read, key, culprit)
        if place is None:
            continue
        file, index, location = place
        entry = kustomization.location(["configurations", index])
        out.append(make(RULE, _message(key, default, culprit), location,
                        (entry.with_message(f"{path} names this configuration file"),),
                        field=key, path=default.path, kept=str(culprit.gvk),
                        dropped=str(default.gvk)))
    return out


def _read(files: Mapping[str, str], file: str
          ) -> tuple[TransformerConfig, Tree | None, Any] | None:
    """A configuration file, its position tree and value (None: it does not read)."""
    try:
        text = files[file]
        config = parse(text, file)
        parsed = first_tree_value(text)
    except (KeyError, OSError, UnicodeDecodeError, KubeError, ValueError):
        return None
    if parsed is None:
        return config, None, {}
    return config, parsed[0], parsed[1]


def _place(read: list, key: str, culprit: FieldSpec) -> tuple[str, int, Location] | None:
    """Where the first file that writes ``culprit`` under ``key`` writes it."""
    for file, index, tree, value in read:
        items = value.get(key) if isinstance(value, dict) else None
        for position, item in enumerate(items if isinstance(items, list) else []):
            if tree is not None and _same(item, culprit):
                span, _ = tree.find([key, position])
                return file, index, Location(file, span.line, span.column, span.end_line,
                                             span.end_column)
    return None


def _same(item: Any, spec: FieldSpec) -> bool:
    try:
        return field_spec(item) == spec
    except (TypeError, ValueError):
        return False


def _message(key: str, default: FieldSpec, culprit: FieldSpec) -> str:
    return (f"this {key} field spec ({culprit.gvk}, {culprit.path}) takes the place of "
            f"kustomize's default for every kind at {default.path}: other kinds no "
            f"longer get {_WHAT.get(key, key)} there")


__all__ = ["RULE", "configuration_findings"]
