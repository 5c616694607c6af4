"""``ssa-stuck-field``: fields a move to server-side apply would leave in the cluster.

The rule compares each server-side applied unit as the working tree builds it with the
same unit built at a base git ref (:class:`BaseRef`), and assumes a history the
repository cannot show: the live object was last written from the base build by the
folder's ``history`` in ``lint.kustomize`` (client-side ``kubectl apply``, Helm 3, a
server-side tool, or ``none``: the tool creates it, nothing can stay), by default what a
move to its tool usually comes from (:data:`~cfgpatch.lint.options.DEFAULT_HISTORY`:
Helm 3 for ``helm4``, client-side ``kubectl apply`` for ``flux`` and ``server-side``).
It then runs, for each object whose build changed, what the tool that applies it does
(:mod:`cfgpatch.kube.explain.migration`: kubectl's ``csaupgrade``, Flux's cleanup, Helm
4's merge of its own entries) and the tool's apply of the new build. A field the base
build set, the new one drops, and the object still holds afterwards is a finding: the
field, the object, the base line that set it (the resource or the patch, from the base
build's blame), the managers that keep it and the way out.

Which units apply server-side: a Flux ``Kustomization``'s target (``flux``), and the
kustomizations whose folder ``lint.kustomize`` marks with ``apply: server-side``,
``flux`` or ``helm4`` (``client-side`` and unmarked folders are not checked).  The base
ref is ``--base`` or ``lint.base``, else the merge-base with the default branch; without
one (no git, no default branch) the rule says so in one note and checks nothing.  Called
without a base at all (the library's :func:`~cfgpatch.lint.linter.lint_files` by default,
the page), the rule is silent.

Git is read by the caller (the command line: :mod:`cfgpatch.preview.gittree`): lint
gets the base's files as a mapping, like the working tree's (the core runs no process).
"""

from __future__ import annotations

import posixpath

from ..context_scope import NO_SCOPE
from ..errors import KubeError
from ..records import dataclass, replace
from .config import Config
from .finding import LintFinding, Location, make
from .model import Outcome
from .options import DEFAULT_HISTORY
from .rules import NOTE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

RULE = "ssa-stuck-field"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
#: The file name ``kube build`` gives a chart's output (its blame's lines are helm's).
HELM_OUTPUT = "helm template"


@dataclass
class BaseRef:
    """The base of the comparison: ``ref`` as named, its ``files`` (a mapping of texts by
    path, with ``walk`` and ``is_dir``, as lint reads a repository; ``build_fs``
    attribute: the file system ``kube build`` reads them through, mounted at
    ``lint.kbuild.MEMORY_ROOT``), the helm runner for its charts, or ``note``: why there
    is no base."""

    ref: str = ""
    files: Mapping[str, str] | None = None
    helm: Any = None
    note: str = ""
    #: ``chart_line(line, name)``: the chart template's (file, line) for a line of
    #: ``helm template``'s output that writes the object ``name`` (None: not known).
    chart_line: Callable[[int, str], tuple[str, int] | None] | None = None


def applier(unit: Outcome, config: Config) -> str:
    """How the unit's objects are applied: ``flux`` for a Flux Kustomization, else the
    folder's ``apply`` in ``lint.kustomize`` ("" when not said)."""
    if unit.kind == "flux":
        return "flux"
    if unit.kind == "kustomization":
        return config.applied_with(posixpath.dirname(unit.path))
    return ""


@dataclass(frozen=True)
class History:
    """What the rule assumes last wrote a unit's objects: ``name`` (a ``history:`` value),
    whether ``.cfgpatch.yaml`` said it, and the folder whose entry says it."""

    name: str
    said: bool
    folder: str


def history(unit: Outcome, config: Config, tool: str) -> History:
    """The unit's history: its folder's ``history`` in ``lint.kustomize`` (a Flux
    Kustomization's: its ``spec.path`` folder's), else the tool's default."""
    folder = unit.target if unit.kind == "flux" else posixpath.dirname(unit.path)
    said = config.history_of(folder)
    return History(said or DEFAULT_HISTORY[tool], bool(said), folder or ".")


def stuck_findings(units: list[Outcome], config: Config,
                   base: BaseRef | Callable[[], BaseRef] | None,
                   counterpart: Callable[[Mapping[str, str], Outcome], Outcome | None]
                   ) -> list[LintFinding]:
    """The findings of every server-side applied unit; ``base`` may be a function that
    reads it (called only when a unit applies server-side; a base without files is one
    note saying why); None: the rule is silent.  ``counterpart(files, unit)`` builds the
    unit from the base's files (None when it is not there)."""
    if base is None:  # the caller has no base to give (the page, the library's default)
        return []
    chosen = [(u, applier(u, config)) for u in units if u.built and not u.error]
    # The server-side appliers (the tools of kube.explain.migration's MANAGERS, a test
    # keeps them equal): that module loads the field manager, wanted only from here on.
    chosen = [(u, tool) for u, tool in chosen if tool in DEFAULT_HISTORY
              and history(u, config, tool).name != "none"]  # (nothing wrote them before)
    if not chosen:
        return []
    if callable(base):
        base = base()
    if base.files is None:
        why = base.note or "no base ref was given"
        off = make(RULE, f"{RULE} is off: {why}; give --base REF (or lint.base) to compare "
                         "with", _where(chosen[0][0]))
        return [replace(off, level=NOTE)]
    from ..kube.kustomize.helm_options import runner_installed

    out: list[LintFinding] = []
    with runner_installed(base.helm) if base.helm is not None else NO_SCOPE:
        for unit, tool in chosen:
            old = counterpart(base.files, unit)
            if old is not None and old.built:
                out += _unit_findings(unit, old, tool, history(unit, config, tool), base)
    return out


def _key(obj: dict) -> tuple[str, str, str, str]:
    found = obj.get("metadata")
    meta: dict = found if isinstance(found, dict) else {}
    group = str(obj.get("apiVersion") or "").rpartition("/")[0]
    return (group, str(obj.get("kind") or ""), str(meta.get("namespace") or ""),
            str(meta.get("name") or ""))


def _unit_findings(unit: Outcome, old: Outcome, tool: str, past: History, base: BaseRef
                   ) -> list[LintFinding]:
    from ..kube.explain.migration import simulate

    types = _types(unit.built + old.built)
    before = {_key(o): (o, old.blame[i] if i < len(old.blame) else {})
              for i, o in enumerate(old.built)}
    out = []
    for new in unit.built:
        found = before.get(_key(new))
        if found is None or found[0] == new:
            continue
        try:
            moved, stuck = simulate(tool, found[0], new, types, past.name)
        except (KubeError, ValueError):
            continue  # the server refuses it: ssa-duplicate-key and the like say why
        for item in stuck:
            out.append(_finding(unit, tool, past, base, new, found, moved, item))
    return out


def _types(objects: list[dict]) -> Any:
    """The built-in types and the builds' CRDs; a custom resource of a kind no CRD here
    defines is typed from its content, as the server types a CRD without a schema."""
    from .ssa_ready import _types as typed

    types = typed([o for o in objects if o.get("kind") == "CustomResourceDefinition"])
    types.deduced = True
    return types


def _where(unit: Outcome) -> Location:
    return Location(unit.path, unit.unit_line if unit.kind == "flux" else 1)


def _set_at(path: tuple, old: dict, blame: dict, base: BaseRef) -> tuple[str, int] | None:
    """The base line that set ``path`` (the first line of a dropped part; in a chart's
    output, its template's line when ``base.chart_line`` knows it)."""
    from ..kube.explain.migration import pointer_of

    pointer = pointer_of(path, old)
    if pointer is None:
        return None
    lines = [where for p, where in blame.items()
             if (p == pointer or p.startswith(pointer + "/")) and where[1] > 0]
    if not lines:
        return None
    where = min(lines, key=lambda w: (w[1], w[0]))
    if where[0] == HELM_OUTPUT and base.chart_line is not None:
        name = str((old.get("metadata") or {}).get("name") or "")
        where = base.chart_line(where[1], name) or where
    return where


def _finding(unit: Outcome, tool: str, past: History, base: BaseRef, new: dict,
             found: tuple, moved: Any, item: Any) -> LintFinding:
    from ..kube.explain.migration import HISTORY_NAMES, NAMES

    old, blame = found
    name = f"{new.get('kind')}/{_key(new)[3]}"
    annotated = tool == "server-side" and past.name == "client-side" and \
        _carries_last_applied(new)
    where = _set_at(item.path, old, blame, base)
    at = f" (set at {base.ref}:{where[0]}:{where[1]})" if where else ""
    owners = ", ".join(item.owners) or "nobody"
    message = (f"{name}: {item.field}{at} stays when {NAMES[tool]} applies this build over "
               f"the base build as {HISTORY_NAMES[past.name]} wrote it: {owners} still "
               f"own{'s' if len(item.owners) == 1 else ''} it; "
               f"{_why(tool, past.name, moved, annotated)}. Way out: "
               f"{_way_out(tool, past.name, annotated, short=True)}")
    if moved.conflicts:
        message += (f". Before that, {NAMES[tool]} fails on {len(moved.conflicts)} "
                    f"conflict(s) with {', '.join(moved.against)} "
                    f"({', '.join(moved.conflicts)}); --force-conflicts takes them")
    message += f". {_assumed(past, tool)}"
    return make(RULE, message, _where(unit), object=name, field=item.field,
                owners=list(item.owners), base_ref=base.ref,
                base_file=where[0] if where else None, base_line=where[1] if where else None,
                tool=tool, history=past.name, way_out=_way_out(tool, past.name, annotated))


def _assumed(past: History, tool: str) -> str:
    """Which history is assumed and how to say another."""
    from ..kube.explain.migration import NAMES

    said = ".cfgpatch.yaml says so" if past.said else f"the default for apply: {tool}"
    return (f"History assumed: {past.name} ({said}); if something else wrote these "
            f"objects, set `history:` for path {past.folder} in .cfgpatch.yaml's "
            f"lint.kustomize (client-side, server-side, flux, helm3, helm4, or none when "
            f"{NAMES[tool]} created them)")


def _carries_last_applied(obj: dict) -> bool:
    meta = obj.get("metadata")
    annotations = meta.get("annotations") if isinstance(meta, dict) else None
    return isinstance(annotations, dict) and LAST_APPLIED in annotations


def _why(tool: str, past: str, moved: Any, annotated: bool) -> str:
    from ..kube.explain.migration import HISTORY_MANAGERS

    if annotated:
        return (f"the build carries {LAST_APPLIED}: kubectl's apply conflicts on it and, "
                "forced, owns it, so kubectl's migration finds no client-side manager to "
                "hand over")
    manager = HISTORY_MANAGERS.get(past, "")
    if tool == "helm4":
        return (f"Helm 4 hands over only helm's own Update entries (a release Helm 3 "
                f"installed), not {manager}'s")
    if tool == "flux" and moved.kept_managers and manager.startswith("kubectl"):
        return ("kustomize.toolkit.fluxcd.io/ssa: Merge turns Flux's cleanup of kubectl's "
                "managers off")
    if tool == "flux":
        return (f"Flux's cleanup hands over only the kubectl*, before-first-apply and its "
                f"own Update entries, not {manager}'s")
    if tool == "server-side" and past != "client-side":
        return ("kubectl's migration hands over only the Update entries that own the "
                f"last-applied annotation (client-side kubectl apply's), not {manager}'s")
    return "the tool's migration did not hand that manager's fields over"


def _way_out(tool: str, past: str, annotated: bool, short: bool = False) -> str:
    from ..kube.explain.migration import HISTORY_NAMES, MANAGERS

    if annotated:
        return (f"remove the {LAST_APPLIED} annotation from the build: kubectl then owns "
                "no copy of it, migrates kubectl-client-side-apply's fields and removes the "
                "field")
    if past != "client-side":
        first = f"apply this build once with {HISTORY_NAMES[past]} before the move"
        if short:
            return f"{first}, or remove the field with `kubectl patch`/`kubectl edit`"
        return (f"{first} (what it set and no longer sends goes), or remove the field "
                "with `kubectl patch` or `kubectl edit`")
    manager = MANAGERS[tool]
    if short:
        return (f"`kubectl apply --server-side --field-manager={manager}` of this build "
                "once, or remove the field with `kubectl patch`/`kubectl edit`")
    return (f"once, apply the new build with `kubectl apply --server-side "
            f"--field-manager={manager}` (kubectl's migration hands "
            "kubectl-client-side-apply's fields to it and removes what it no longer "
            "sends), or remove the field with `kubectl patch` or `kubectl edit`, or apply "
            "the new build once with client-side `kubectl apply` first; setting it to "
            "null in the configuration does not help (the apply conflicts with "
            "kubectl-client-side-apply).")
