"""``.cfgpatch.yaml``: what ``cfgpatch lint`` looks at and how loudly it reports.

The file sits at the repository's root; lint reads its ``lint:`` section::

    lint:
      include: ["deploy/**"]          # globs of files lint considers (default: everything)
      exclude: ["**/vendor/**"]       # globs it skips (after include)
      disable: [null-deletes]         # rule ids never reported
      severity: {field-set-twice: error}   # rule id -> error | warning | note (info)
      schemas: [crds/]                # CRD files or folders: list keys of custom resources
      flux-other-sources: partial     # or skip: Flux Kustomizations of another source
      patches:                        # standalone patch files and what they patch
        - patch: patches/replicas.yaml
          target: base/deployment.yaml
          type: strategic             # strategic (default) | merge | json
          select: {kind: Deployment, name: web}   # which object of a multi-object target
      base: origin/main               # the ref ssa-stuck-field compares with (a git ref)

Globs are matched against paths relative to the root (POSIX ``/``): ``*`` and ``?`` stay
inside one path segment, ``**`` spans any number of segments, and a glob without ``/``
matches a file or folder name at any depth; a glob that matches a folder covers
everything under it (as in ``.gitignore``).  Any other key is an error naming it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import INVALID_INPUT, InvalidInput
from ..records import dataclass, field
from .options import BuildOptions, PathOptions, parse_entries
from .rules import is_rule, normalise_level
from .yamlpos import Tree, tree_values

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CONFIG_NAME = ".cfgpatch.yaml"
PATCH_TYPES = ("strategic", "merge", "json")
_KEYS = ("include", "exclude", "default-exclude", "disable", "severity", "schemas", "patches",
         "kustomize", "flux-sources", "flux-other-sources", "base")
#: Folders of test data skipped unless a PATH given names them (``default-exclude``
#: replaces the list; ``[]`` lints them too): kustomizations there are meant to fail.
DEFAULT_EXCLUDE = ("testdata", "test", "tests", "fixtures", "__fixtures__", "test-fixtures",
                   "test-data", "test_data")
#: Flux sources taken for this repository: the GitRepository ``flux bootstrap`` makes.
DEFAULT_FLUX_SOURCES = ("GitRepository/flux-system",)
#: What lint does with a Flux Kustomization of another source (``flux-other-sources``):
#: build the folder of the same path here as a partial build, or leave it out.
FLUX_OTHER_SOURCES = ("partial", "skip")
_PATCH_KEYS = ("patch", "target", "type", "select")
_SELECT_KEYS = ("apiVersion", "kind", "name", "namespace")


@dataclass(frozen=True)
class StandalonePatch:
    """A patch file mapped to the file holding its target object."""

    patch: str
    target: str
    type: str = "strategic"
    select: dict = field(default_factory=dict)
    index: int = 0  # position in the config's list (for messages)


@dataclass(frozen=True)
class Config:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    disable: frozenset[str] = frozenset()
    severity: dict = field(default_factory=dict)
    schemas: tuple[str, ...] = ()
    patches: tuple[StandalonePatch, ...] = ()
    source: str = ""  # the config file's path ("" when there is none)
    default_exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    #: Build options per folder (``lint.kustomize``), over ``options``.
    kustomize: tuple[PathOptions, ...] = ()
    options: BuildOptions = BuildOptions()
    #: ``Kind/name`` (or ``Kind/namespace/name``) of the Flux sources that are this
    #: repository; a Flux Kustomization of any other source is not linted.
    flux_sources: tuple[str, ...] = DEFAULT_FLUX_SOURCES
    #: ``partial`` (the folder of the same path here, marked so) or ``skip``.
    flux_other_sources: str = FLUX_OTHER_SOURCES[0]
    #: The git ref ``ssa-stuck-field`` compares the working tree with ("": the
    #: merge-base with the default branch).
    base: str = ""

    def considers(self, path: str) -> bool:
        """Whether lint looks at ``path`` (relative, POSIX)."""
        if self.include and not any(glob_match(g, path) for g in self.include):
            return False
        return not any(glob_match(g, path) for g in self.exclude)

    def test_data(self, path: str, under: str) -> bool:
        """Whether ``path`` lies in a test data folder below the PATH ``under`` given."""
        rest = path[len(under):].lstrip("/") if under and path.startswith(under) else path
        folders = rest.rsplit("/", 1)[0] if "/" in rest else ""
        return bool(folders) and any(glob_match(g, folders) for g in self.default_exclude)

    def build_options(self, directory: str) -> BuildOptions:
        """The options the kustomization in ``directory`` is built with."""
        options = self.options
        for entry in self.kustomize:
            if glob_match(entry.path, directory) or entry.path in ("**", "*", "."):
                options = entry.apply(options)
        return options

    def applied_with(self, directory: str) -> str:
        """How the objects the folder ``directory`` builds are applied (``lint.kustomize``
        ``apply``, the last entry that matches and says; "" when none does)."""
        return self._said("applier", directory)

    def history_of(self, directory: str) -> str:
        """What wrote the folder's objects before its applier (``lint.kustomize``
        ``history``, the last entry that matches and says; "" when none does)."""
        return self._said("history", directory)

    def _said(self, name: str, directory: str) -> str:
        out = ""
        for entry in self.kustomize:
            value = getattr(entry, name)
            if value and (glob_match(entry.path, directory) or entry.path in ("**", "*", ".")):
                out = value
        return out

    def sets_load_restrictor(self, directory: str) -> bool:
        """Whether a ``lint.kustomize`` entry sets the load restrictor of ``directory``."""
        return any((glob_match(e.path, directory) or e.path in ("**", "*", "."))
                   and any(name == "load_restrictor" for name, _ in e.changes)
                   for e in self.kustomize)

    def flux_source_here(self, source_ref: object, namespace: str) -> bool:
        """Whether a Flux ``sourceRef`` names this repository (``flux-sources``)."""
        if not isinstance(source_ref, dict):
            return False
        kind, name = source_ref.get("kind"), source_ref.get("name")
        space = source_ref.get("namespace") or namespace
        return f"{kind}/{name}" in self.flux_sources or \
            f"{kind}/{space}/{name}" in self.flux_sources

    def level(self, rule_id: str, default: str) -> str | None:
        """The level to report ``rule_id`` at, or None if it is disabled."""
        if rule_id in self.disable:
            return None
        return self.severity.get(rule_id, default)


@dataclass(frozen=True)
class _Where:
    """The config file's name and its node tree: errors say ``file:line:column:``."""

    source: str
    tree: Tree | None = None

    def at(self, path: tuple = ()) -> str:
        if self.tree is None:
            return self.source
        span, _ = self.tree.find(list(path))
        return f"{self.source}:{span.line}:{span.column}"


def _fail(where: _Where | str, message: str, path: tuple = ()) -> InvalidInput:
    place = where.at(path) if isinstance(where, _Where) else where
    return InvalidInput(f"{place}: {message}", code=INVALID_INPUT)


def parse_config(text: str, source: str = CONFIG_NAME) -> Config:
    """Read a ``.cfgpatch.yaml`` text; raises ``InvalidInput`` naming the key at fault
    and where it is (``.cfgpatch.yaml:LINE:COLUMN: ...``)."""
    try:
        docs = tree_values(text)
    except ValueError as exc:
        found = re.match(r"line (\d+): (.*)", str(exc), re.S)
        place, message = (f"{source}:{found[1]}", found[2]) if found else (source, str(exc))
        raise _fail(place, f"not YAML: {message}") from None
    if not docs:
        return Config(source=source)
    if len(docs) > 1 or not isinstance(docs[0][1], dict):
        raise _fail(_Where(source, docs[1][0] if len(docs) > 1 else docs[0][0]),
                    "must be one YAML mapping")
    where = _Where(source, docs[0][0])
    section = docs[0][1].get("lint", {})
    if section is None:
        section = {}
    if not isinstance(section, dict):
        raise _fail(where, "`lint` must be a mapping", ("lint",))
    unknown = sorted(str(k) for k in section if k not in _KEYS)
    if unknown:
        raise _fail(where, f"unknown key lint.{unknown[0]} (known: {', '.join(_KEYS)})",
                    ("lint", unknown[0]))
    return Config(
        include=_strings(section, "include", where),
        exclude=_strings(section, "exclude", where),
        disable=frozenset(_rule_ids(_strings(section, "disable", where), "disable", where)),
        severity=_severities(section.get("severity") or {}, where),
        schemas=_strings(section, "schemas", where),
        patches=tuple(_patches(section.get("patches") or [], where)),
        source=source,
        default_exclude=(_strings(section, "default-exclude", where)
                         if "default-exclude" in section else DEFAULT_EXCLUDE),
        kustomize=parse_entries(section.get("kustomize") or [],
                                lambda message, path: _fail(where, message, path)),
        flux_sources=(_strings(section, "flux-sources", where)
                      if "flux-sources" in section else DEFAULT_FLUX_SOURCES),
        flux_other_sources=_choice(section, "flux-other-sources", FLUX_OTHER_SOURCES, where),
        base=_ref(section.get("base"), where),
    )


def _ref(value: Any, where: _Where) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or not value.strip() or value.startswith("-"):
        raise _fail(where, "lint.base must be a git ref (a branch, tag or commit)",
                    ("lint", "base"))
    return value.strip()


def _choice(section: dict, key: str, choices: tuple[str, ...], where: _Where) -> str:
    value = section.get(key, choices[0])
    if value not in choices:
        raise _fail(where, f"lint.{key}: {value!r} is not {' or '.join(choices)}",
                    ("lint", key))
    return str(value)


def _strings(section: dict, key: str, where: _Where) -> tuple[str, ...]:
    value = section.get(key) or []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(where, f"lint.{key} must be a list of strings", ("lint", key))
    return tuple(value)


def _rule_ids(ids: tuple[str, ...], key: str, where: _Where) -> tuple[str, ...]:
    for index, rule_id in enumerate(ids):
        if not is_rule(rule_id):
            path = ("lint", key, rule_id) if key == "severity" else ("lint", key, index)
            raise _fail(where, f"lint.{key}: unknown rule {rule_id!r} (see docs/lint.md)",
                        path)
    return ids


def _severities(value: Any, where: _Where) -> dict:
    if not isinstance(value, dict):
        raise _fail(where, "lint.severity must map rule ids to levels", ("lint", "severity"))
    out = {}
    for rule_id, level in value.items():
        if not is_rule(str(rule_id)):
            raise _fail(where, f"lint.severity: unknown rule {str(rule_id)!r} (see "
                               "docs/lint.md)", ("lint", "severity", rule_id))
        normal = normalise_level(level)
        if normal is None:
            raise _fail(where, f"lint.severity.{rule_id}: {level!r} is not error, warning "
                               "or note", ("lint", "severity", rule_id))
        out[str(rule_id)] = normal
    return out


def _patches(value: Any, source: _Where) -> list[StandalonePatch]:
    if not isinstance(value, list):
        raise _fail(source, "lint.patches must be a list", ("lint", "patches"))
    out = []
    for index, entry in enumerate(value):
        where = f"lint.patches[{index}]"
        at = ("lint", "patches", index)
        if not isinstance(entry, dict):
            raise _fail(source, f"{where} must be a mapping with patch and target", at)
        unknown = sorted(str(k) for k in entry if k not in _PATCH_KEYS)
        if unknown:
            raise _fail(source, f"{where}: unknown key {unknown[0]}", (*at, unknown[0]))
        for key in ("patch", "target"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise _fail(source, f"{where}.{key} must be a file path", (*at, key))
        patch_type = entry.get("type", "strategic")
        if patch_type not in PATCH_TYPES:
            raise _fail(source, f"{where}.type must be one of {', '.join(PATCH_TYPES)}",
                        (*at, "type"))
        select = entry.get("select") or {}
        if not isinstance(select, dict) or any(k not in _SELECT_KEYS for k in select):
            bad = next((k for k in select if k not in _SELECT_KEYS), None) \
                if isinstance(select, dict) else None
            raise _fail(source, f"{where}.select takes {', '.join(_SELECT_KEYS)}",
                        (*at, "select", *(() if bad is None else (bad,))))
        out.append(StandalonePatch(normal_path(entry["patch"]), normal_path(entry["target"]),
                                   patch_type, {str(k): str(v) for k, v in select.items()},
                                   index))
    return out


def normal_path(path: str) -> str:
    """``./a//b/`` -> ``a/b`` (paths in the config are relative to the root)."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join(parts)


def glob_match(pattern: str, path: str) -> bool:
    """Whether the relative POSIX ``path`` (or, for a pattern without ``/``, one of its
    names) matches ``pattern``."""
    pattern = normal_path(pattern) if pattern not in ("", "**") else pattern
    regex = _glob_regex(pattern)
    if "/" not in pattern:
        return any(regex.fullmatch(part) for part in path.split("/")) or bool(
            regex.fullmatch(path))
    parts = path.split("/")
    # a folder pattern also covers everything under the folder
    return any(regex.fullmatch("/".join(parts[:n])) for n in range(1, len(parts) + 1))


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))
