"""Reading a kustomization file for lint: where it is, its value and where its fields are.

Not a build (``kube build`` builds, ``lint.kbuild``): lint reads a kustomization to
find its patch sites (``lint.sites``), its components, its placeholders and its
``configurations:`` files, with the position of each field.  The value is decoded as
kustomize decodes it (YAML 1.1 scalars, kustomize's Go types), with kube build's texts.
"""

from __future__ import annotations

import posixpath

from ..errors import KubeError
from ..kube.compat import word
from ..kube.kustomize.gotypes import GoDecodeError, decode, json_kind
from ..kube.kustomize.kustomization import is_empty, v2_value
from ..kube.problems import Kustomize, Unmarshal
from ..records import dataclass
from .config import normal_path
from .finding import Location
from .yamlpos import Tree, first_document

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")


def _empty() -> str:
    """kustomize's words for an empty kustomization (worded when first needed: the
    wording tables are not loaded by a repository that builds)."""
    return word(Kustomize("empty-kustomization"))


class ResolveError(Exception):
    """The kustomization cannot be read as kustomize reads it; ``location``: the entry at fault."""

    def __init__(self, message: str, location: Location) -> None:
        super().__init__(message)
        self.message = message
        self.location = location


@dataclass
class Kustomization:
    """A kustomization file read: its value, position tree and directory."""

    path: str
    value: dict
    tree: Tree

    @property
    def directory(self) -> str:
        return posixpath.dirname(self.path)

    @property
    def is_component(self) -> bool:
        return self.value.get("kind") == "Component"

    def location(self, where: list[Any]) -> Location:
        span, _ = self.tree.find(where)
        return Location(self.path, span.line, span.column, span.end_line, span.end_column)


def join(directory: str, path: str) -> str:
    """``directory``/``path`` normalised (``..`` resolved), relative to the root."""
    return normal_path(posixpath.normpath(posixpath.join(directory or ".", path)))


def is_remote(entry: str) -> bool:
    return "://" in entry or entry.startswith(("github.com/", "git@", "gitlab.com/",
                                               "bitbucket.org/"))


def find_kustomization(files: Mapping[str, str], directory: str) -> str | None:
    for name in KUSTOMIZATION_NAMES:
        path = join(directory, name)
        if path in files:
            return path
    return None


def read_kustomization(files: Mapping[str, str], path: str) -> Kustomization:
    """The kustomization at ``path`` (raises :class:`ResolveError` if kustomize would)."""
    try:  # the first document only, as kustomize reads it
        tree = first_document(files[path])
    except ValueError as exc:
        raise ResolveError(_invalid(str(exc)), Location(path)) from None
    if tree is None:
        raise ResolveError(_empty(), Location(path))
    # kustomize decodes a kustomization through sigs.k8s.io/yaml, so with go-yaml v2's
    # (YAML 1.1) scalars: `namespace: n` is a boolean; then into its Go types (kube
    # build's decoding, the same texts)
    try:
        value = v2_value(tree.node)
    except KubeError as exc:
        raise ResolveError(exc.message, Location(path)) from None
    if value is None:
        raise ResolveError(_empty(), Location(path))
    if not isinstance(value, dict):
        raise ResolveError(_invalid(Unmarshal(json_kind(value), "types.Kustomization")),
                           Location(path))
    try:
        decoded = decode(value)
    except GoDecodeError as exc:
        where = [exc.path[0]] if exc.path and exc.path[0] in value else []
        raise ResolveError(_invalid(exc.problem),
                           Kustomization(path, value, tree).location(where)) from None
    kustomization = Kustomization(path, decoded, tree)
    if is_empty(decoded):
        raise ResolveError(_empty(), Location(path))
    return kustomization


def _invalid(problem: Any) -> str:
    """kustomize's words for a kustomization that does not decode for ``problem``."""
    return word(Kustomize("invalid-kustomization", cause=problem))


__all__ = ["KUSTOMIZATION_NAMES", "Kustomization", "ResolveError", "find_kustomization",
           "is_remote", "join", "read_kustomization"]
