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

import contextlib
import posixpath
from dataclasses import dataclass, field

from ..errors import CfgPatchError
from ..kube.kustomize.helm_options import HelmOptions, HelmProcess
from ..kube.kustomize.loader import KUSTOMIZATION_FILES
from ..lint.config import CONFIG_NAME
from ..lint.options import DEFAULT_OPTIONS, RESTRICTORS, BuildOptions
from .attribution import Attributor
from .config import PreviewConfig, parse_preview_config
from .entrypoints import EntryPoint, find, kustomization_file, normal_url, reach, reached
from .gittree import MANIFESTS, WORKTREE, GitRepo, GitTree, GitTreeFileSystem, WorkTree
from .helmtree import RefHelm
from .live import outcome as live_outcome
from .live import read_live
from .pairing import Pair, pair
from .render import How, Render, render
from .report import object_entry, summarize
from .serverside import ServerSide, types_for
from .serverside import outcome as server_side_outcome


@dataclass
class Options:
    repository: str = "."
    base: str | None = None
    head: str | None = None  # None: the working tree
    paths: tuple[str, ...] = ()
    all_entry_points: bool = False  # render even the ones no change reaches
    live: str | None = None  # a folder of live objects (kubectl get -o yaml)
    keep: dict = field(default_factory=dict)  # filled with the renders (tests)
    build: BuildOptions = DEFAULT_OPTIONS  # the command line's; .cfgpatch.yaml's per path
    helm_command_locked: bool = False  # build.helm_command wins over .cfgpatch.yaml's
    helm_runner: HelmProcess | None = None  # runs helm (None: the one installed, if any)
    server_side: ServerSide | None = None  # --live's apply: server-side (None: client-side)


def preview(options: Options) -> dict:
    repo = GitRepo.at(options.repository)
    base_ref = options.base or repo.merge_base(repo.default_branch(), "HEAD")
    base = repo.commit(base_ref)
    head = repo.commit(options.head) if options.head else WORKTREE
    base_files = repo.tree(base)
    head_files: GitTree | WorkTree = repo.tree(head) if head != WORKTREE else WorkTree(repo)
    changed = repo.changed_files(base, head)
    if not options.all_entry_points and not _may_matter(changed, base_files, head_files):
        return summarize(repo.root, base_ref, base, options.head or "working tree", head,
                         [], [], [], PreviewConfig())
    for files in (base_files, head_files):
        if isinstance(files, GitTree):
            files.prefetch_manifests()
    config = _config(head_files)
    source_here = _flux_sources(head_files)
    urls = {normal_url(u) for u in repo.remote_urls()}
    entries, declared = _entries(base_files, head_files, config, options.paths,
                                 lambda files: find(files, config, source_here, urls))
    chosen = []
    builds = {e.key: config.build_options(e.path, e.options, options.build,
                                          options.helm_command_locked) for e in entries}
    for entry in entries:
        folders = reach(base_files, entry) | reach(head_files, entry)
        if builds[entry.key].load_restrictor != RESTRICTORS[0]:
            folders = {"."}  # it may read any file of the repository
        if options.all_entry_points or CONFIG_NAME in changed or \
                reached(folders, changed, plain=entry.kind == "plain") or \
                (entry.source and entry.source in changed):
            chosen.append(entry)
    report_entries: list[dict] = []
    objects: list[dict] = []
    live = Live(read_live(options.live), options.server_side) if options.live else None
    attributor = Attributor(repo, base, head)
    attributor.readers = {"base": base_files.read_text, "head": head_files.read_text}
    base_fs = GitTreeFileSystem(base_files, repo.root)
    head_fs = GitTreeFileSystem(head_files, repo.root) if isinstance(head_files, GitTree) \
        else None
    runner = HelmOptions(runner=options.helm_runner).process()
    helms = [RefHelm(runner, files if isinstance(files, GitTree) else None, repo.root)
             for files in (base_files, head_files)] if runner is not None else []
    try:
        for entry in chosen:
            then = declared.get(entry.key, entry)  # as base declares it (Flux fields)
            build = builds[entry.key]
            old = render(then, base_files, repo.root,
                         How(base_fs, build, helms[0] if helms else None, base_files)) \
                if _exists(base_files, then) else Render(entry, absent=True)
            new = render(entry, head_files, repo.root,
                         How(head_fs, build, helms[1] if helms else None, head_files)) \
                if _exists(head_files, entry) else Render(entry, absent=True)
            options.keep[entry.key] = (old, new)
            report_entries.append(_entry_dict(entry, old, new, build))
            if old.error or new.error or old.note or new.note:
                continue
            objects += _objects(entry, pair(old.objects, new.objects), new, attributor,
                                config, live)
    finally:
        for helm in helms:
            helm.close()
    skipped = [e.key for e in entries if e not in chosen]
    return summarize(repo.root, base_ref, base, options.head or "working tree", head,
                     report_entries, skipped, objects, config)


def _config(files: GitTree | WorkTree) -> PreviewConfig:
    if not files.is_file(CONFIG_NAME):
        return PreviewConfig()
    return parse_preview_config(files.read_text(CONFIG_NAME))


def _may_matter(changed: set[str], *trees: GitTree | WorkTree) -> bool:
    """Whether a changed file can reach any entry point, from the file lists alone: it is
    YAML or JSON, or the configuration, or in or below a folder with a kustomization, or
    beside manifests (a generator's input)."""
    if any(p.endswith(MANIFESTS) or p == CONFIG_NAME for p in changed):
        return True
    folders: set[str] = set()
    kustomized: set[str] = set()
    for tree in trees:
        for path in tree.paths():
            folder = posixpath.dirname(path)
            if path.endswith(MANIFESTS):
                folders.add(folder)
                if posixpath.basename(path) in KUSTOMIZATION_FILES:
                    kustomized.add(folder)
    for path in changed:
        folder = posixpath.dirname(path)
        if folder in folders:
            return True
        while True:
            if folder in kustomized:
                return True
            if not folder:
                break
            folder = posixpath.dirname(folder)
    return False


def _flux_sources(files: GitTree | WorkTree):
    """``cfgpatch lint``'s answer to "is this Flux source this repository?"."""
    from ..lint.config import Config, parse_config

    config = Config()
    if files.is_file(CONFIG_NAME):
        with contextlib.suppress(CfgPatchError):  # lint reports its own section's mistakes
            config = parse_config(files.read_text(CONFIG_NAME))
    return config.flux_source_here


def _entries(base: GitTree, head: GitTree | WorkTree, config: PreviewConfig,
             paths: tuple[str, ...], finder
             ) -> tuple[list[EntryPoint], dict[str, EntryPoint]]:
    """The entry points of both refs (head's declaration of each), and base's."""
    found: dict[str, EntryPoint] = {}
    at_base = {e.key: e for e in finder(base)}
    for entry in [*at_base.values(), *finder(head)]:
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


def _entry_dict(entry: EntryPoint, old: Render, new: Render, build: BuildOptions) -> dict:
    out: dict = {"path": entry.path, "kind": entry.kind, "key": entry.key,
                 "base_objects": len(old.objects), "head_objects": len(new.objects)}
    if entry.kind == "flux":
        out["flux"] = {"name": entry.name, "file": entry.source, "line": entry.line}
    if build != DEFAULT_OPTIONS:
        out["options"] = build.flags()
    if old.error or new.error:
        out["error"] = {"base": old.error, "head": new.error}
    elif old.note or new.note:
        out["not_rendered"] = {"base": old.note, "head": new.note}
    return out


@dataclass
class Live:
    """``--live``: the live objects and how they are applied."""

    objects: dict
    server_side: ServerSide | None = None


def _objects(entry: EntryPoint, pairs: list[Pair], head: Render, attributor: Attributor,
             config: PreviewConfig, live: Live | None) -> list[dict]:
    from .risks import hpa_targets

    scaled = hpa_targets(head.objects)
    entries = [object_entry(entry, p, attributor, config, scaled) for p in pairs]
    if live is not None:
        types = types_for([o.value for o in head.objects] + list(live.objects.values())) \
            if live.server_side is not None else None
        for item, found in zip(entries, pairs, strict=True):
            _live(item, found, live, types)
    renames = {e["name"]: e for e in entries if e["status"] == "hash-renamed"}
    for item in entries:
        _follow_renames(item, renames)
    return [e for e in entries if e["status"] != "unchanged"]


def _live(item: dict, found: Pair, live: Live, types) -> None:
    """The apply's outcome on the live object (see :mod:`.live`, :mod:`.serverside`)."""
    label = f"{item['kind']}/{item['namespace'] + '/' if item['namespace'] else ''}" \
        f"{item['name']}"
    if found.head is None:
        current = _live_of(live.objects, found.base.ident) if found.base is not None \
            else None
        item["live"] = {"exists": current is not None}
        return
    current = _live_of(live.objects, found.head.ident)
    if current is None:
        item["live"] = {"exists": False}
        return
    if live.server_side is not None:
        ssa, risks = server_side_outcome(found.head, current, live.server_side, types,
                                         found.base)
        result = {"unchanged": bool(ssa.get("unchanged")) and not risks,
                  "changes": ssa.get("changes", []), "server_side": ssa}
    else:
        result, risks = live_outcome(found.head, current)
    item["live"] = {"exists": True, **result}
    intended = [c["path"] for c in item.get("changes", []) if c["action"] == "remove"]
    for risk in risks:  # a removal the change itself makes is in the diff already
        if risk["rule"] == "live-removal" and any(
                risk.get("path", "") == p or risk.get("path", "").startswith(p + "/")
                for p in intended):
            continue
        risk["object"] = label
        item["risks"].append(risk)
    if item["status"] == "unchanged" and (risks or not result.get("unchanged", True)):
        item["status"] = "changed"  # the live object differs from what is applied


def _live_of(live: dict, ident: tuple[str, str, str, str]) -> dict | None:
    """The live object; a namespaced object written without a namespace is applied to
    ``default``."""
    group, kind, namespace, name = ident
    return live.get(ident) or (live.get((group, kind, "default", name)) if not namespace
                               else None)


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
