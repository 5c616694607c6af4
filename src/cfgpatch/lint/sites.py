"""The patches a kustomization (or a Flux Kustomization) declares, and where their text is.

:func:`kustomization_sites` reads a kustomization file's ``patches``,
``patchesStrategicMerge`` and ``patchesJson6902`` with positions: an inline patch's
text is the string in the kustomization (mapped back to its lines), a ``path:`` patch's
text is the patch file.  A file holding several YAML documents gives one site per
document.  Nothing is applied here; the sites are matched to the build's steps by
``(declared_in, field, index, document)``.
"""

from __future__ import annotations

import posixpath

from ..records import dataclass
from .config import normal_path
from .finding import Location
from .model import PatchSite
from .yamlpos import Tree, embedded, first_tree_value, identity, values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

FIELDS = ("patches", "patchesStrategicMerge", "patchesJson6902")
KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")


@dataclass
class DeclaredSite:
    """A site with the key the build's step log uses for it."""

    field: str
    index: int
    site: PatchSite


def join(directory: str, path: str) -> str:
    """``directory``/``path`` normalised (``..`` resolved), relative to the root."""
    return normal_path(posixpath.normpath(posixpath.join(directory or ".", path)))


def read_tree(text: str, source: str) -> tuple[Tree | None, Any]:
    """The first document's position tree and value, read as kustomize reads a
    kustomization (what follows is never read); None, None if it is not YAML."""
    try:
        read = first_tree_value(text)
    except ValueError:
        return None, None
    return read if read is not None else (None, None)


def kustomization_sites(path: str, text: str, files: Mapping[str, str]) -> list[DeclaredSite]:
    """Every patch the kustomization file at ``path`` declares."""
    tree, value = read_tree(text, path)
    if tree is None or not isinstance(value, dict):
        return []
    directory = posixpath.dirname(path)
    out: list[DeclaredSite] = []
    for field in FIELDS:
        entries = value.get(field)
        if not isinstance(entries, list):
            continue
        for index, entry in enumerate(entries):
            for site in entry_sites(tree, [field, index], entry, path, directory, files,
                                    legacy=field):
                site.field_name, site.index = field, index
                out.append(DeclaredSite(field, index, site))
    return out


def entry_sites(tree: Tree, where: list[Any], entry: Any, declared_in: str, directory: str,
                files: Mapping[str, str], legacy: str = "patches") -> list[PatchSite]:
    """The site(s) of one patch entry at ``where`` in ``tree`` (a kustomization or a Flux
    object's ``spec.patches``)."""
    label = f"{'.'.join(str(w) if isinstance(w, str) else f'[{w}]' for w in where)}"
    label = label.replace(".[", "[") + f" of {declared_in}"
    target = entry.get("target") if isinstance(entry, dict) else None
    target_location = None
    if isinstance(target, dict):
        span, _ = tree.find([*where, "target"])
        target_location = Location(declared_in, span.line, span.column, span.end_line,
                                   span.end_column, "the target selector")
    if legacy == "patchesStrategicMerge" and isinstance(entry, str):
        inline = "\n" in entry or entry.lstrip().startswith(("apiVersion", "kind", "{"))
        entry = {"patch": entry} if inline else {"path": entry}
        node = tree.node_at(where)
    else:
        node = tree.node_at([*where, "patch"])
    options = entry.get("options") if isinstance(entry, dict) else None
    common: dict[str, Any] = {
        "declared_in": declared_in, "target": target if isinstance(target, dict) else None,
        "target_location": target_location, "label": label,
        "options": options if isinstance(options, dict) else {}}
    if isinstance(entry, dict) and isinstance(entry.get("patch"), str) and node is not None:
        return _sites_of_text(entry["patch"], declared_in, embedded(tree, node), legacy, common)
    if isinstance(entry, dict) and isinstance(entry.get("path"), str):
        file = join(directory, entry["path"])
        try:
            text = files[file]
        except (KeyError, OSError, UnicodeDecodeError):
            return [PatchSite(file, "", patch_type=_declared_type(legacy), **common)]
        return _sites_of_text(text, file, identity, legacy, common)
    return []


def _declared_type(field: str) -> str:
    return "json6902" if field == "patchesJson6902" else "strategic"


def _sites_of_text(text: str, file: str, mapper: Any, field: str, common: dict
                   ) -> list[PatchSite]:
    from ..kube.kustomize.patch_loading import read_json_ops  # (only where patches are)

    try:
        docs = values(text)
    except ValueError:
        ops = read_json_ops(text)
        if ops is None:
            return [PatchSite(file, text, mapper, _declared_type(field), None, **common)]
        docs = [ops]
    if field == "patchesJson6902" or (len(docs) == 1 and isinstance(docs[0], list)):
        # as kube build reads it (`on:` is "true"; None where kube build refuses it)
        return [PatchSite(file, text, mapper, "json6902", read_json_ops(text), **common)]
    return [PatchSite(file, text, mapper, "strategic", doc, document=i, **common)
            for i, doc in enumerate(docs)]
