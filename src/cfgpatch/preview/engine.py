"""``kube preview``: what a change does to the cluster, from two git refs.

:func:`preview` finds the entry points at both refs (:mod:`.entrypoints`), renders the
ones the change can reach (:mod:`.render`; base from git objects, head from git
objects or the working tree), pairs their objects (:mod:`.pairing`), diffs each pair
(:mod:`.objdiff`), attributes every changed field to a file, a line and the commits
of base..head (:mod:`.attribution`), applies ``preview.ignore`` (counted) and says the
risks (:mod:`.risks`).  The result is the report of :mod:`.report` (a plain dict with a
documented schema) that every output format reads.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from ..lint.config import CONFIG_NAME
from .attribution import Attributor
from .config import PreviewConfig, parse_preview_config
from .entrypoints import EntryPoint, find, kustomization_file, reach, reached
from .gittree import WORKTREE, GitRepo, GitTree, GitTreeFileSystem, WorkTree
from .pairing import Pair, pair
from .render import Render, render
from .report import object_entry, summarize


@dataclass
class Options:
    repository: str = "."
    base: str | None = None
    head: str | None = None  # None: the working tree
    paths: tuple[str, ...] = ()
    all_entry_points: bool = False  # render even the ones no change reaches
    keep: dict = field(default_factory=dict)  # filled with the renders (tests)


def preview(options: Options) -> dict:
    repo = GitRepo.at(options.repository)
    base_ref = options.base or repo.merge_base(repo.default_branch(), "HEAD")
    base = repo.commit(base_ref)
    head = repo.commit(options.head) if options.head else WORKTREE
    base_files = repo.tree(base)
    head_files: GitTree | WorkTree = repo.tree(head) if head != WORKTREE else WorkTree(repo)
    config = _config(head_files)
    changed = repo.changed_files(base, head)
    entries, declared = _entries(base_files, head_files, config, options.paths)
    chosen = []
    for entry in entries:
        folders = reach(base_files, entry) | reach(head_files, entry)
        if options.all_entry_points or CONFIG_NAME in changed or \
                reached(folders, changed, plain=entry.kind == "plain") or \
                (entry.source and entry.source in changed):
            chosen.append(entry)
    report_entries: list[dict] = []
    objects: list[dict] = []
    attributor = Attributor(repo, base, head)
    attributor.readers = {"base": base_files.read_text, "head": head_files.read_text}
    base_fs = GitTreeFileSystem(base_files, repo.root)
    head_fs = GitTreeFileSystem(head_files, repo.root) if isinstance(head_files, GitTree) \
        else None
    for entry in chosen:
        then = declared.get(entry.key, entry)  # as base declares it (Flux fields)
        old = render(then, base_files, repo.root, base_fs) if _exists(base_files, then) \
            else Render(entry, absent=True)
        new = render(entry, head_files, repo.root, head_fs) if _exists(head_files, entry) \
            else Render(entry, absent=True)
        options.keep[entry.key] = (old, new)
        report_entries.append(_entry_dict(entry, old, new))
        if old.error or new.error:
            continue
        objects += _objects(entry, pair(old.objects, new.objects), new, attributor, config)
    skipped = [e.key for e in entries if e not in chosen]
    return summarize(repo.root, base_ref, base, options.head or "working tree", head,
                     report_entries, skipped, objects, config)


def _config(files: GitTree | WorkTree) -> PreviewConfig:
    if not files.is_file(CONFIG_NAME):
        return PreviewConfig()
    return parse_preview_config(files.read_text(CONFIG_NAME))


def _entries(base: GitTree, head: GitTree | WorkTree, config: PreviewConfig,
             paths: tuple[str, ...]) -> tuple[list[EntryPoint], dict[str, EntryPoint]]:
    """The entry points of both refs (head's declaration of each), and base's."""
    found: dict[str, EntryPoint] = {}
    at_base = {e.key: e for e in find(base, config)}
    for entry in [*at_base.values(), *find(head, config)]:
        found[entry.key] = entry
    wanted = [posixpath.normpath(p.strip("/")) for p in paths]
    out = [e for e in found.values()
           if not wanted or any(w == "." or e.path == w or e.path.startswith(w + "/")
                                for w in wanted)]
    return sorted(out, key=lambda e: (e.path, e.key)), at_base


def _exists(files: GitTree | WorkTree, entry: EntryPoint) -> bool:
    if entry.kind == "flux":
        return files.is_file(entry.source) and files.is_dir(entry.path)
    if entry.kind == "kustomization":
        return kustomization_file(files, entry.path) is not None
    return files.is_dir(entry.path) or entry.path == "."


def _entry_dict(entry: EntryPoint, old: Render, new: Render) -> dict:
    out = {"path": entry.path, "kind": entry.kind, "key": entry.key,
           "base_objects": len(old.objects), "head_objects": len(new.objects)}
    if entry.kind == "flux":
        out["flux"] = {"name": entry.name, "file": entry.source, "line": entry.line}
    if old.error or new.error:
        out["error"] = {"base": old.error, "head": new.error}
    return out


def _objects(entry: EntryPoint, pairs: list[Pair], head: Render, attributor: Attributor,
             config: PreviewConfig) -> list[dict]:
    from .risks import hpa_targets

    scaled = hpa_targets(head.objects)
    entries = [object_entry(entry, p, attributor, config, scaled) for p in pairs]
    renames = {e["name"]: e for e in entries if e["status"] == "hash-renamed"}
    for item in entries:
        _follow_renames(item, renames)
    return [e for e in entries if e["status"] != "unchanged"]


def _follow_renames(item: dict, renames: dict[str, dict]) -> None:
    """A field set by kustomize's name references or hash suffixes is attributed to
    what changed the generated object it names."""
    for change in item.get("changes", []):
        for where in change["attribution"]:
            if not where["file"].startswith("("):
                continue
            target = renames.get(str(change.get("after"))) or \
                (renames.get(item["name"]) if change["path"] == "/metadata/name" else None)
            if target is None:
                continue
            where["via"] = f"{target['kind']}/{target['name']}"
            followed = [w for c in target["changes"] if c["path"] != "/metadata/name"
                        for w in c["attribution"] if not w["file"].startswith("(")]
            where["follows"] = followed
            if target is not item:
                target.setdefault("referrers", []).append(
                    f"{item['kind']}/{item['name']}")
