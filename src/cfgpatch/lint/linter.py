"""One lint run: find the units under the given paths, build them, check them, report.

Units are every kustomization (``kustomization.yaml``, ``.yml``, ``Kustomization``; a
``kind: Component`` is linted inside each kustomization that uses it), every Flux
``Kustomization`` object with ``spec.patches``, and every standalone patch the config
maps.  :func:`lint_files` is the whole run over a mapping of files (``lint.files``);
the CLI gives it the repository on disk, the tests and the page texts in memory.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext

from ..records import replace
from .checks import check
from .config import CONFIG_NAME, Config, normal_path, parse_config
from .configurations import configuration_findings
from .finding import LintFinding, one_per_mistake, unique
from .flux import flux_objects, lint_flux
from .kustomizations import KUSTOMIZATION_NAMES, read_kustomization
from .model import Outcome
from .options import DEFAULT_OPTIONS, BuildOptions
from .report import Report
from .standalone import lint_standalone
from .yamlpos import values

_YAML = (".yaml", ".yml")
#: ``confirm(directory) -> kustomize's error text, or None if it builds``: lets the CLI
#: check a failed build with ``kubectl kustomize`` (its text replaces ours).
Confirm = Callable[[str], "str | None"]


def read_config(files: Mapping[str, str]) -> Config:
    """The root's ``.cfgpatch.yaml`` (defaults when there is none)."""
    if CONFIG_NAME not in files:
        return Config()
    return parse_config(files[CONFIG_NAME], CONFIG_NAME)


def _walk(files: Mapping[str, str], path: str) -> Iterable[str]:
    walk = getattr(files, "walk", None)
    if walk is not None:
        return walk(path)
    return sorted(n for n in files if not path or n == path or n.startswith(path + "/"))


def discover(files: Mapping[str, str], config: Config, paths: Iterable[str]
             ) -> tuple[list[str], list[str]]:
    """(kustomization files, YAML files that may hold Flux objects) under ``paths``."""
    kustomizations: list[str] = []
    others: list[str] = []
    seen: set[str] = set()
    for path in paths:
        under = normal_path(path)
        for name in _walk(files, under):
            if name in seen or not config.considers(name) or config.test_data(name, under):
                continue
            seen.add(name)
            base = posixpath.basename(name)
            if base in KUSTOMIZATION_NAMES:
                kustomizations.append(name)
            elif base.endswith(_YAML) and base != CONFIG_NAME:
                others.append(name)
    return kustomizations, others


def load_crds(files: Mapping[str, str], folders: Iterable[str]) -> list[dict]:
    """Every CustomResourceDefinition in the files or folders given."""
    out: list[dict] = []
    for folder in folders:
        folder = normal_path(folder)
        names = [folder] if folder in files else [n for n in _walk(files, folder)
                                                  if n.endswith((*_YAML, ".json"))]
        for name in names:
            try:
                docs = values(files[name])
            except (ValueError, KeyError, OSError, UnicodeDecodeError):
                continue
            out += [d for d in docs if isinstance(d, dict)
                    and d.get("kind") == "CustomResourceDefinition"]
    return out


def _is_component(files: Mapping[str, str], path: str) -> bool:
    try:
        return read_kustomization(files, path).is_component
    except Exception:  # noqa: BLE001 - a broken file is linted (and fails) as a unit
        return False


def outcomes(files: Mapping[str, str], config: Config, paths: Iterable[str] = ("",),
             crds: list[dict] | None = None
             ) -> tuple[list[Outcome], list[LintFinding]]:
    """Every unit's outcome, and findings that belong to no unit (standalone targets).

    Kustomizations and Flux Kustomizations are built with ``kube build`` (``lint.kbuild``)
    over the disk, or over the files in memory (:func:`build_root`)."""
    crds = load_crds(files, config.schemas) if crds is None else crds
    paths = [normal_path(p) for p in paths]
    kustomizations, others = discover(files, config, paths)
    out: list[Outcome] = []
    extra: list[LintFinding] = []
    root = build_root(files)
    with _read_cache(True):
        for path in kustomizations:
            extra += configuration_findings(files, path)  # components' too
            if _is_component(files, path):
                continue
            options = config.build_options(posixpath.dirname(path))
            out.append(_kustomization_outcome(files, root, path, options))
        for path in others:
            try:
                text = files[path]
            except (KeyError, OSError, UnicodeDecodeError):
                continue
            for _document, tree, value in flux_objects(text):
                if _flux_source_here(config, value):
                    directory = str((value.get("spec") or {}).get("path") or "") \
                        if isinstance(value.get("spec"), dict) else ""
                    options = config.build_options(normal_path(directory))
                    out.append(lint_flux(files, root, path, tree, value, options))
    for entry in config.patches:
        if not config.considers(entry.patch) or not any(
                not p or entry.patch == p or entry.patch.startswith(p + "/") for p in paths):
            continue  # a mapped patch outside the paths, or excluded, is not linted
        outcome, found = lint_standalone(entry, config, files, crds)
        out.append(outcome)
        extra += found
    for outcome in out:
        outcome.crds = crds
    return out, extra


def _flux_source_here(config: Config, value: dict) -> bool:
    """Whether a Flux Kustomization builds from this repository (``flux-sources``)."""
    spec = value.get("spec")
    if not isinstance(spec, dict):
        spec = {}
    metadata = value.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
    return config.flux_source_here(spec.get("sourceRef"), str(metadata.get("namespace") or ""))


def _kustomization_outcome(files: Mapping[str, str], root: str, path: str,
                           options: BuildOptions = DEFAULT_OPTIONS) -> Outcome:
    """The outcome of one kustomization, built with ``kube build`` under ``root``; a tree
    nested beyond what lint follows is this unit's error, not the end of the run."""
    try:
        from .kbuild import lint_kustomization_built
        return lint_kustomization_built(files, root, path, options)
    except RecursionError:  # not kustomize's failure: lint could not follow it
        outcome = Outcome("kustomization", path)
        outcome.not_followed = ("a document under this kustomization is nested deeper than "
                                "cfgpatch follows (a few hundred levels); nothing was checked")
        return outcome


def build_root(files: Mapping[str, str]) -> str:
    """The folder ``kube build`` builds in: the repository's own on disk, or the files
    given in memory mounted at ``lint.kbuild.MEMORY_ROOT`` (no folder is written)."""
    root = getattr(files, "root", None)
    if root is not None:
        return root
    from .kbuild import MEMORY_ROOT, memory_fs
    memory_fs.set(_memory_fs(files))
    return MEMORY_ROOT


def _memory_fs(files: Mapping[str, str]):
    """``kube build``'s in-memory file system holding ``files`` (no folder written); a
    path that is no plain relative path (``a/../b``, ``./a``) is held where it leads,
    one that leads outside the root is left out."""
    from ..kube.kustomize.filesys import MemoryFileSystem
    from .kbuild import MEMORY_ROOT
    held: dict[str, str] = {}
    for path in files:
        normal = posixpath.normpath(path) if path else ""
        if normal and normal != "." and not normal.startswith(("../", "/")) and normal != "..":
            try:
                held[normal] = files[path]
            except (KeyError, OSError, UnicodeDecodeError):
                continue
    return MemoryFileSystem(held, cwd=MEMORY_ROOT)


#: ``kube build`` reads each file once per run (``kube.io.kyaml_read.cached_reads``): a
#: base is composed once, not once per overlay.  Off only to measure it (bench_lint.py).
READ_CACHE = True


def _read_cache(on: bool) -> AbstractContextManager:
    if not (on and READ_CACHE):
        return nullcontext()
    from ..kube.io.kyaml_read import cached_reads
    return cached_reads()


def _configured(findings: Iterable[LintFinding], config: Config) -> list[LintFinding]:
    out = []
    for finding in findings:
        level = config.level(finding.rule, finding.level)
        if level is not None:
            out.append(finding if level == finding.level else replace(finding, level=level))
    return out


def _confirmed(outcome: Outcome, confirm: Confirm | None) -> None:
    """Replace lint's build error by kustomize's own (or drop it if kustomize builds)."""
    if confirm is None or outcome.error is None or outcome.kind != "kustomization" or \
            outcome.builder == "kube build" or outcome.offline is not None:
        return
    where = outcome.error_location.file if outcome.error_location else outcome.path
    if posixpath.basename(where) not in KUSTOMIZATION_NAMES:
        where = outcome.path  # a patch file: kustomize names it from the unit
    text = confirm(posixpath.dirname(where))
    if text is None:
        outcome.error = None
        outcome.error_location = None
        outcome.applications = []
        outcome.incomplete = [*outcome.incomplete, "kustomize builds what lint could not"]
    else:
        outcome.error = text


def _one_failure_per_place(findings: list[LintFinding]) -> list[LintFinding]:
    """A base that does not build fails every overlay over it, with kustomize's text
    wrapped once more each time: keep the innermost (shortest) text per place."""
    best: dict[tuple, LintFinding] = {}
    out = []
    for finding in findings:
        if finding.rule not in ("build-failed", "build-incomplete"):
            out.append(finding)
            continue
        key = (finding.rule, finding.location.file, finding.location.line,
               finding.location.column)
        if key not in best or len(finding.message) < len(best[key].message):
            best[key] = finding
    return out + list(best.values())


def lint_files(files: Mapping[str, str], paths: Iterable[str] = ("",),
               config: Config | None = None, crds: list[dict] | None = None,
               confirm: Confirm | None = None) -> Report:
    """Lint the units under ``paths`` (relative to the root of ``files``); ``confirm``:
    see :data:`Confirm` (for a failure lint's own build reports: a Flux folder)."""
    config = read_config(files) if config is None else config
    units, extra = outcomes(files, config, paths, crds)
    findings = list(extra)
    for outcome in units:
        _confirmed(outcome, confirm)
        findings += check(outcome)
    findings = _one_failure_per_place(_configured(findings, config))
    return Report(one_per_mistake(unique(findings)), [o.summary() for o in units], files)
