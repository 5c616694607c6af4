"""``.cfgpatch.yaml``'s ``preview:`` section: extra entry points and fields to ignore.

::

    preview:
      paths:                           # entry points besides the ones found
        - apps/guestbook               # a folder (a kustomization or plain manifests)
        - path: apps/helm-app          # kubectl kustomize's flags for this entry point
          options: [--enable-helm, --helm-command, helm3]
        - path: "legacy/**"            # a glob: options for the entry points it matches
          options: [--load-restrictor=LoadRestrictionsNone]   # (not an entry point)
      exclude: ["vendor/**"]           # folders never taken as entry points
      ignore:                          # changes not reported (but counted)
        - {kind: Secret, path: data}
        - {path: metadata.annotations.checksum/config}

``options`` are ``kubectl kustomize``'s build flags: ``--enable-helm`` (``=false`` to
switch it off again), ``--helm-command CMD`` and ``--load-restrictor
LoadRestrictionsRootOnly|LoadRestrictionsNone`` (``--flag=value`` or two items); any
other option is an error naming it, its file and its line.  They are applied over the
command line's (``kube preview --enable-helm --helm-command ...``), glob entries first
in their order, then the entry point's own.

An ignore entry names a ``kind`` (any when absent), optionally a ``name``, and a field
``path``: dot-separated keys from the object's root, where a key may hold a slash
(``checksum/config``); it covers that field and everything under it.  Any other key is
an error naming it and its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import INVALID_INPUT, InvalidInput
from ..lint.config import CONFIG_NAME, glob_match
from ..lint.options import RESTRICTORS, BuildOptions
from ..lint.yamlpos import tree_values
from ..records import replace

_KEYS = ("paths", "exclude", "ignore")
_IGNORE_KEYS = ("kind", "name", "path")
#: The build flags a path may name, and the BuildOptions field each sets.
FLAGS = {"--enable-helm": "enable_helm", "--helm-command": "helm_command",
         "--load-restrictor": "load_restrictor"}
_GLOB = re.compile(r"[*?\[]")
Changes = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Ignore:
    kind: str = ""
    name: str = ""
    path: tuple[str, ...] = ()

    def covers(self, kind: str, name: str, pointer_keys: tuple[str, ...]) -> bool:
        if self.kind and self.kind != kind:
            return False
        if self.name and self.name != name:
            return False
        return pointer_keys[:len(self.path)] == self.path

    def describe(self) -> str:
        parts = [f"kind={self.kind}"] if self.kind else []
        parts += [f"name={self.name}"] if self.name else []
        parts.append("path=" + ".".join(self.path) if self.path else "path=(whole object)")
        return " ".join(parts)


@dataclass(frozen=True)
class EntryPath:
    path: str
    options: Changes = ()  # (BuildOptions field, value), in the order written
    line: int = 0

    @property
    def is_glob(self) -> bool:
        """A glob names no entry point: it gives options to those it matches."""
        return bool(_GLOB.search(self.path))


def with_changes(options: BuildOptions, changes: Changes) -> BuildOptions:
    """``options`` with ``changes`` applied in order."""
    return replace(options, **dict(changes)) if changes else options


@dataclass(frozen=True)
class PreviewConfig:
    paths: tuple[EntryPath, ...] = ()
    exclude: tuple[str, ...] = ()
    ignore: tuple[Ignore, ...] = ()
    source: str = ""

    def excluded(self, folder: str) -> bool:
        return any(glob_match(g, folder) for g in self.exclude)

    def build_options(self, folder: str, own: Changes, defaults: BuildOptions,
                      locked: bool = False) -> BuildOptions:
        """The options an entry point at ``folder`` is built with: the defaults, the glob
        entries that match it, then its own; ``locked``: the defaults' helm command wins
        (the command line named it: a configuration read from a pull request's head does
        not choose what runs)."""
        out = defaults
        for item in self.paths:
            if item.is_glob and glob_match(item.path, folder):
                out = with_changes(out, item.options)
        out = with_changes(out, own)
        return replace(out, helm_command=defaults.helm_command) if locked else out


def _fail(source: str, line: int, message: str) -> InvalidInput:
    return InvalidInput(f"{source}:{line}: {message}" if line else f"{source}: {message}",
                        code=INVALID_INPUT)


def parse_preview_config(text: str, source: str = CONFIG_NAME) -> PreviewConfig:
    """Read the ``preview:`` section of a ``.cfgpatch.yaml`` text."""
    try:
        docs = tree_values(text)
    except ValueError as exc:
        raise _fail(source, 0, f"not YAML: {exc}") from None
    if not docs or not isinstance(docs[0][1], dict):
        return PreviewConfig(source=source)
    tree, value = docs[0]
    section = value.get("preview")
    if section is None:
        return PreviewConfig(source=source)

    def line(*path: Any) -> int:
        return tree.find(["preview", *path])[0].line

    if not isinstance(section, dict):
        raise _fail(source, line(), "`preview` must be a mapping")
    for key in section:
        if key not in _KEYS:
            raise _fail(source, line(key), f"unknown key preview.{key} "
                                           f"(known: {', '.join(_KEYS)})")
    return PreviewConfig(_paths(section.get("paths") or [], source, line),
                         _strings(section.get("exclude") or [], "exclude", source, line),
                         _ignores(section.get("ignore") or [], source, line), source)


def _strings(value: Any, key: str, source: str, line) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(source, line(key), f"preview.{key} must be a list of strings")
    return tuple(value)


def _paths(value: Any, source: str, line) -> tuple[EntryPath, ...]:
    if not isinstance(value, list):
        raise _fail(source, line("paths"), "preview.paths must be a list")
    out = []
    for index, item in enumerate(value):
        if isinstance(item, str):
            out.append(EntryPath(_clean(item), (), line("paths", index)))
            continue
        if not isinstance(item, dict) or not isinstance(item.get("path"), str):
            raise _fail(source, line("paths", index),
                        "a preview.paths entry is a folder or {path: ..., options: [...]}")
        unknown = [k for k in item if k not in ("path", "options")]
        if unknown:
            raise _fail(source, line("paths", index, unknown[0]),
                        f"unknown key {unknown[0]} in preview.paths (known: path, options)")
        options = item.get("options") or []
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise _fail(source, line("paths", index, "options"),
                        "preview.paths options must be a list of strings")
        try:
            changes = parse_flags(options)
        except ValueError as err:
            raise _fail(source, line("paths", index, "options"),
                        f"preview.paths[{index}] ({item['path']}): {err}") from None
        out.append(EntryPath(_clean(item["path"]), changes, line("paths", index)))
    return tuple(out)


def parse_flags(items: list[str]) -> Changes:
    """``kubectl kustomize``'s build flags (see the module docstring) as changes of
    :class:`~cfgpatch.lint.options.BuildOptions`; ValueError names a bad one.

    >>> parse_flags(["--enable-helm", "--helm-command", "helm3"])
    (('enable_helm', True), ('helm_command', 'helm3'))
    >>> parse_flags(["--load-restrictor=LoadRestrictionsNone"])
    (('load_restrictor', 'LoadRestrictionsNone'),)
    """
    words = [w for item in items for w in item.split()]
    out: list[tuple[str, Any]] = []
    at = 0
    while at < len(words):
        flag, eq, value = words[at].partition("=")
        at += 1
        if flag not in FLAGS:
            raise ValueError(f"unknown option {flag} (known: {', '.join(FLAGS)})")
        if flag == "--enable-helm":
            if eq and value not in ("true", "false"):
                raise ValueError(f"--enable-helm={value}: true or false")
            out.append((FLAGS[flag], value != "false"))
            continue
        if not eq:
            if at >= len(words) or words[at].startswith("--"):
                raise ValueError(f"option {flag} needs a value")
            value, at = words[at], at + 1
        if not value:
            raise ValueError(f"option {flag} needs a value")
        if flag == "--load-restrictor" and value not in RESTRICTORS:
            raise ValueError(f"--load-restrictor {value}: {' or '.join(RESTRICTORS)}")
        out.append((FLAGS[flag], value))
    return tuple(out)


def _ignores(value: Any, source: str, line) -> tuple[Ignore, ...]:
    if not isinstance(value, list):
        raise _fail(source, line("ignore"), "preview.ignore must be a list")
    out = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise _fail(source, line("ignore", index),
                        "a preview.ignore entry is a mapping {kind, name, path}")
        for key in item:
            if key not in _IGNORE_KEYS:
                raise _fail(source, line("ignore", index, key),
                            f"unknown key {key} in preview.ignore "
                            f"(known: {', '.join(_IGNORE_KEYS)})")
        if not any(item.get(k) for k in _IGNORE_KEYS):
            raise _fail(source, line("ignore", index),
                        "a preview.ignore entry names a kind, a name or a path")
        path = item.get("path") or ""
        if not isinstance(path, str):
            raise _fail(source, line("ignore", index, "path"), "path must be a string")
        out.append(Ignore(str(item.get("kind") or ""), str(item.get("name") or ""),
                          split_field_path(path)))
    return tuple(out)


def split_field_path(path: str) -> tuple[str, ...]:
    """``metadata.annotations.checksum/config`` -> its keys; ``a\\.b`` keeps a dot.

    >>> split_field_path("metadata.annotations.checksum/config")
    ('metadata', 'annotations', 'checksum/config')
    """
    keys, current, escaped = [], "", False
    for char in path:
        if escaped:
            current, escaped = current + char, False
        elif char == "\\":
            escaped = True
        elif char == ".":
            keys.append(current)
            current = ""
        else:
            current += char
    if current or keys:
        keys.append(current)
    return tuple(k for k in keys if k != "")


def _clean(path: str) -> str:
    return path.strip().strip("/").removeprefix("./") or "."

