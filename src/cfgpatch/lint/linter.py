"""One lint run: find the units under the given paths, build them, check them, report.

Units are every kustomization (``kustomization.yaml``, ``.yml``, ``Kustomization``; a
``kind: Component`` is linted inside each kustomization that uses it), every Flux
``Kustomization`` object with a ``sourceRef`` (``lint.flux``: of another source, a
partial build of the folder of the same path here), and every standalone patch the
config maps.  :func:`lint_files` is the whole run over a mapping of files (``lint.files``);
the CLI gives it the repository on disk, the tests and the page texts in memory.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from ..context_scope import NO_SCOPE
from ..records import replace
from .checks import check
from .config import CONFIG_NAME, Config, normal_path, parse_config
from .finding import LintFinding, one_per_mistake, unique
from .flux import (
    FLUX_LOAD_RESTRICTOR,
    flux_folders,
    flux_objects,
    flux_unit,
    lint_flux,
    unit_name,
)
from .kustomizations import KUSTOMIZATION_NAMES, read_kustomization
from .model import Outcome
from .options import DEFAULT_OPTIONS, BuildOptions
from .report import Report
from .ssa_stuck import RULE, BaseRef, stuck_findings
from .testdata import lifted_base, reached, used_bases
from .yamlpos import tree_values, values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from contextlib import AbstractContextManager
    from typing import Any

    from .flux_artifacts import Generator
    from .kustomizations import Kustomization

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


def discover(files: Mapping[str, str], config: Config, paths: Iterable[str],
             lifted: Iterable[str] = (), held_back: list[str] | None = None
             ) -> tuple[list[str], list[str]]:
    """(kustomization files, YAML files that may hold Flux objects) under ``paths``;
    the test-data excludes count from the folders ``lifted`` (``lint.testdata``) below
    which a file lies; the YAML files they hold back are added to ``held_back``."""
    kustomizations: list[str] = []
    others: list[str] = []
    seen: set[str] = set()
    lifted = tuple(lifted)
    for path in paths:
        under = normal_path(path)
        for name in _walk(files, under):
            if name in seen or not config.considers(name):
                continue
            seen.add(name)
            base = posixpath.basename(name)
            if config.test_data(name, lifted_base(name, under, lifted)):
                if held_back is not None and (base.endswith(_YAML) or
                                              base in KUSTOMIZATION_NAMES):
                    held_back.append(name)
                continue
            if base in KUSTOMIZATION_NAMES:
                kustomizations.append(name)
            elif base.endswith(_YAML) and base != CONFIG_NAME:
                others.append(name)
    return kustomizations, others


def _discover_reached(files: Mapping[str, str], config: Config, paths: list[str]
                      ) -> tuple[list[str], list[tuple[str, Any, dict]], list[Generator]]:
    """:func:`discover`, then again with the test-data folders a Flux Kustomization of
    this repository deploys and the bases a linted kustomization uses there
    (``lint.testdata``) until no more are reached: (kustomization files, Flux
    Kustomizations, ArtifactGenerators)."""
    lifted: list[str] = []
    used: set[str] = set()
    while True:
        held_back: list[str] = []
        found, others = discover(files, config, paths, lifted, held_back)
        kustomizations = sorted(set(found) | used)
        flux, generators = _flux_found(files, others)
        more = [f for f in reached(files, config, flux, held_back, others)
                if f not in lifted]
        bases = set(used_bases(files, kustomizations, held_back)) - used
        if not more and not bases:
            return kustomizations, flux, generators
        lifted += more
        used |= bases


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


def _read_or_none(files: Mapping[str, str], path: str) -> Kustomization | None:
    """The kustomization at ``path``, or None when it does not read (a broken file is
    linted, and fails, as a unit)."""
    try:
        return read_kustomization(files, path)
    except Exception:  # noqa: BLE001
        return None


def outcomes(files: Mapping[str, str], config: Config, paths: Iterable[str] = ("",),
             crds: list[dict] | None = None
             ) -> tuple[list[Outcome], list[LintFinding]]:
    """Every unit's outcome, and findings that belong to no unit (standalone targets).

    Kustomizations and Flux Kustomizations are built with ``kube build`` (``lint.kbuild``)
    over the disk, or over the files in memory (:func:`build_root`)."""
    crds = load_crds(files, config.schemas) if crds is None else crds
    paths = [normal_path(p) for p in paths]
    kustomizations, flux, generators = _discover_reached(files, config, paths)
    out: list[Outcome] = []
    extra: list[LintFinding] = []
    root = build_root(files)
    folders = flux_folders(files, flux, config, generators)
    with _read_cache(True):
        for path in kustomizations:
            read = _read_or_none(files, path)
            if read is not None and read.value.get("configurations"):  # components' too
                from .configurations import configuration_findings

                extra += configuration_findings(files, path)
            if read is not None and read.is_component:
                continue
            options = _options(config, posixpath.dirname(path), folders)
            outcome = _kustomization_outcome(files, root, path, options)
            outcome.options = options  # the base ref's build (ssa-stuck-field) uses them too
            out.append(outcome)
        for path, tree, value in flux:
            unit, notes = flux_unit(files, root, path, tree, value, config,
                                    generators=generators)
            out += [unit] if unit is not None else []
            extra += notes
    for entry in config.patches:
        if not config.considers(entry.patch) or not any(
                not p or entry.patch == p or entry.patch.startswith(p + "/") for p in paths):
            continue  # a mapped patch outside the paths, or excluded, is not linted
        from .standalone import lint_standalone

        outcome, found = lint_standalone(entry, config, files, crds)
        out.append(outcome)
        extra += found
    for outcome in out:
        outcome.crds = crds
    return out, extra


def counterpart(config: Config, files: Mapping[str, str], unit: Outcome) -> Outcome | None:
    """``unit`` (a kustomization or a Flux Kustomization) built from other ``files``, such
    as a base ref's (``keep_blame`` on), or None when they do not hold it."""
    from .kbuild import keep_blame

    root = build_root(files)
    token = keep_blame.set(True)
    try:
        with _read_cache(True):
            if unit.kind == "kustomization" and unit.path in files:
                options = unit.options or config.build_options(posixpath.dirname(unit.path))
                return _kustomization_outcome(files, root, unit.path, options)
            if unit.kind != "flux" or unit.path not in files:
                return None
            for _document, tree, value in flux_objects(files[unit.path]):
                found = value.get("spec")
                spec: dict = found if isinstance(found, dict) else {}
                name = unit_name(value)
                if name == unit.unit and config.flux_source_here(spec.get("sourceRef"),
                                                                 name.split("/")[0]):
                    directory = normal_path(str(spec.get("path") or ""))
                    return lint_flux(files, root, unit.path, tree, value,
                                     config.build_options(directory))
    except (KeyError, OSError, UnicodeDecodeError):
        return None
    finally:
        keep_blame.reset(token)
    return None


def _flux_found(files: Mapping[str, str], others: list[str]
                ) -> tuple[list[tuple[str, Any, dict]], list[Generator]]:
    """(file, tree, value) of every Flux Kustomization in ``others``, and every Flux
    ``ArtifactGenerator`` (``lint.flux_artifacts``)."""
    out: list[tuple[str, Any, dict]] = []
    generators: list[Generator] = []
    for path in others:
        try:
            text = files[path]
        except (KeyError, OSError, UnicodeDecodeError):
            continue
        out += [(path, tree, value) for _document, tree, value in flux_objects(text)]
        if "ArtifactGenerator" not in text:
            continue
        from .flux_artifacts import GENERATOR_GROUP, generators_in

        if GENERATOR_GROUP in text:
            try:
                generators += generators_in(path, tree_values(text))
            except ValueError:
                continue
    return out, generators


def _options(config: Config, directory: str, flux_folders: list[str]) -> BuildOptions:
    """A kustomization's build options: ``LoadRestrictionsNone`` below a Flux
    Kustomization's folder (the controller's), unless ``lint.kustomize`` names one."""
    options = config.build_options(directory)
    if any(not f or directory == f or directory.startswith(f + "/") for f in flux_folders) \
            and not config.sets_load_restrictor(directory):
        options = replace(options, load_restrictor=FLUX_LOAD_RESTRICTOR)
    return options


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
    mounted = getattr(files, "build_fs", None)  # a git tree mounted at MEMORY_ROOT
    memory_fs.set(mounted if mounted is not None else _memory_fs(files))
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
        return NO_SCOPE
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
        outcome.error_problem = None
        outcome.applications = []
        outcome.incomplete = [*outcome.incomplete, "kustomize builds what lint could not"]
    else:
        outcome.error, outcome.error_problem = text, None


def _one_failure_per_place(findings: list[LintFinding]) -> list[LintFinding]:
    """A base that does not build fails every overlay over it, with kustomize's text
    wrapped once more each time: keep the innermost (shortest) text per place."""
    best: dict[tuple, LintFinding] = {}
    out = []
    for finding in findings:
        if finding.rule not in ("build-failed", "build-incomplete", "partial-build-failed"):
            out.append(finding)
            continue
        key = (finding.rule, finding.location.file, finding.location.line,
               finding.location.column)
        if key not in best or len(finding.message) < len(best[key].message):
            best[key] = finding
    return out + list(best.values())


def _matched_in_no_build(findings: list[LintFinding], units: list[Outcome]
                         ) -> list[LintFinding]:
    """``patch-matches-nothing`` only for a patch that selects nothing in every build that
    runs it.  A Component's patches select from what the kustomization including it
    builds: a shared component whose master patch finds no master in a worker-only
    overlay, and finds it in the full one, is how components are meant to be used."""
    matched = {app.site.location() for unit in units for app in unit.applications}
    return [f for f in findings
            if f.rule != "patch-matches-nothing" or f.location not in matched]


def lint_files(files: Mapping[str, str], paths: Iterable[str] = ("",),
               config: Config | None = None, crds: list[dict] | None = None,
               confirm: Confirm | None = None,
               base: BaseRef | Callable[[], BaseRef] | None = None) -> Report:
    """Lint the units under ``paths`` (relative to the root of ``files``); ``confirm``:
    see :data:`Confirm` (for a failure lint's own build reports: a Flux folder);
    ``base``: the base ref ``ssa-stuck-field`` compares with, or a function that reads
    it when a unit applies server-side (None: the rule is silent)."""
    config = read_config(files) if config is None else config
    units, extra = outcomes(files, config, paths, crds)
    findings = list(extra)
    for outcome in units:
        _confirmed(outcome, confirm)
        findings += check(outcome)
    if config.level(RULE, "warning") is not None:
        findings += stuck_findings(units, config, base,
                                   lambda other, unit: counterpart(config, other, unit))
    findings = _one_failure_per_place(_configured(_matched_in_no_build(findings, units),
                                                  config))
    return Report(one_per_mistake(unique(findings)), [o.summary() for o in units], files)
