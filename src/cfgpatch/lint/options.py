"""How each kustomization is built: the options ``kubectl kustomize`` would be given.

A repository builds some folders with ``--load-restrictor LoadRestrictionsNone`` or
``--enable-helm``; lint builds them the same way.  The command line gives the defaults
(``--load-restrictor``, ``--enable-helm``, ``--helm-command``); ``.cfgpatch.yaml`` may set
them per folder, later entries winning::

    lint:
      kustomize:
        - path: docs/examples/**          # a glob of kustomization folders (default: all)
          load-restrictor: LoadRestrictionsNone
        - path: charts/**
          enable-helm: true
          helm-command: helm3
        - path: apps/**
          apply: server-side              # how its objects reach the cluster (below)
          history: client-side            # what wrote them before (below)

``apply`` is not a build option: it says which tool applies what the folder builds,
``client-side`` (``kubectl apply``), ``server-side`` (``kubectl apply --server-side``),
``flux`` or ``helm4``; the ``ssa-stuck-field`` rule reads it (a Flux Kustomization's
target is ``flux`` without saying so).  ``history`` says what last wrote the live objects
before that tool: one of the same tools, ``helm3`` (a release Helm 3 installed), or
``none`` (the tool creates them itself); unsaid, the rule assumes what a move to that
tool usually comes from (:data:`DEFAULT_HISTORY`).
"""

from __future__ import annotations

from ..records import dataclass, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RESTRICTORS = ("LoadRestrictionsRootOnly", "LoadRestrictionsNone")
_KEYS = ("path", "load-restrictor", "enable-helm", "helm-command", "apply", "history")
#: The values of ``apply``.
APPLIERS = ("client-side", "server-side", "flux", "helm4")
#: The values of ``history``: what last wrote the objects before the folder's applier.
HISTORIES = ("client-side", "server-side", "flux", "helm3", "helm4", "none")
#: The history assumed when ``history`` is not said, per server-side applier: Helm 4
#: upgrades releases Helm 3 installed; Flux and ``kubectl apply --server-side`` take over
#: what client-side ``kubectl apply`` wrote.
DEFAULT_HISTORY = {"server-side": "client-side", "flux": "client-side", "helm4": "helm3"}


@dataclass(frozen=True)
class BuildOptions:
    """``kubectl kustomize``'s build options."""

    load_restrictor: str = "LoadRestrictionsRootOnly"
    enable_helm: bool = False
    helm_command: str = "helm"

    def flags(self) -> list[str]:
        """The same options as ``kubectl kustomize`` flags."""
        out = []
        if self.load_restrictor != RESTRICTORS[0]:
            out += ["--load-restrictor", self.load_restrictor]
        if self.enable_helm:
            out += ["--enable-helm", "--helm-command", self.helm_command]
        return out


DEFAULT_OPTIONS = BuildOptions()


@dataclass(frozen=True)
class PathOptions:
    """One ``lint.kustomize`` entry: options for the folders ``path`` matches."""

    path: str = "**"
    changes: tuple[tuple[str, Any], ...] = ()
    applier: str = ""  # "apply": which tool applies the folders' objects ("": not said)
    history: str = ""  # "history": what wrote them before that tool ("": not said)

    def apply(self, options: BuildOptions) -> BuildOptions:
        return replace(options, **dict(self.changes))


def parse_entries(value: Any, fail: Any) -> tuple[PathOptions, ...]:
    """``lint.kustomize`` read; ``fail(message, path)`` makes the error to raise."""
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise fail("lint.kustomize must be a list of {path, load-restrictor, enable-helm, "
                   "helm-command, apply, history}", ("lint", "kustomize"))
    return tuple(_entry(entry, index, fail) for index, entry in enumerate(value))


def _entry(entry: Any, index: int, fail: Any) -> PathOptions:
    at = ("lint", "kustomize", index)
    where = f"lint.kustomize[{index}]"
    if not isinstance(entry, dict):
        raise fail(f"{where} must be a mapping", at)
    unknown = sorted(str(k) for k in entry if k not in _KEYS)
    if unknown:
        raise fail(f"{where}: unknown key {unknown[0]} (known: {', '.join(_KEYS)})",
                   (*at, unknown[0]))
    path = entry.get("path", "**")
    if not isinstance(path, str) or not path:
        raise fail(f"{where}.path must be a glob of folders", (*at, "path"))
    changes: list[tuple[str, Any]] = []
    if "load-restrictor" in entry:
        if entry["load-restrictor"] not in RESTRICTORS:
            raise fail(f"{where}.load-restrictor must be {' or '.join(RESTRICTORS)}",
                       (*at, "load-restrictor"))
        changes.append(("load_restrictor", entry["load-restrictor"]))
    if "enable-helm" in entry:
        if not isinstance(entry["enable-helm"], bool):
            raise fail(f"{where}.enable-helm must be true or false", (*at, "enable-helm"))
        changes.append(("enable_helm", entry["enable-helm"]))
    if "helm-command" in entry:
        if not isinstance(entry["helm-command"], str) or not entry["helm-command"]:
            raise fail(f"{where}.helm-command must be a command", (*at, "helm-command"))
        changes.append(("helm_command", entry["helm-command"]))
    applier = entry.get("apply", "")
    if "apply" in entry and applier not in APPLIERS:
        raise fail(f"{where}.apply must be one of {', '.join(APPLIERS)}", (*at, "apply"))
    history = entry.get("history", "")
    if "history" in entry and history not in HISTORIES:
        raise fail(f"{where}.history must be one of {', '.join(HISTORIES)}",
                   (*at, "history"))
    return PathOptions(path, tuple(changes), applier, history)


__all__ = ["APPLIERS", "DEFAULT_HISTORY", "DEFAULT_OPTIONS", "HISTORIES", "RESTRICTORS",
           "BuildOptions", "PathOptions", "parse_entries"]
