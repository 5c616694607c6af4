"""One lint finding: a rule, a level, a message and the place in a file it concerns.

Positions are 1-based lines and columns (columns count characters, as SARIF's default
``columnKind`` ``unicodeCodePoints`` does); ``end_line``/``end_column`` close the region
(the end column is exclusive).  ``related`` holds other places the message mentions
(the earlier patch of a field set twice, the selector of a patch that matched nothing).
"""

from __future__ import annotations

from ..records import dataclass, field
from .rules import rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class Location:
    """A region of a file (path relative to the linted repository's root, POSIX)."""

    file: str
    line: int = 1
    column: int = 1
    end_line: int = 0
    end_column: int = 0
    message: str = ""

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"file": self.file, "line": self.line, "column": self.column,
                               "endLine": self.end_line or self.line,
                               "endColumn": self.end_column or self.column + 1}
        if self.message:
            out["message"] = self.message
        return out

    def with_message(self, message: str) -> Location:
        return Location(self.file, self.line, self.column, self.end_line, self.end_column,
                        message)


@dataclass(frozen=True)
class LintFinding:
    """A finding of rule ``rule`` at ``location`` with its effective ``level``."""

    rule: str
    level: str
    message: str
    location: Location
    related: tuple[Location, ...] = ()
    #: Machine-readable extras (the engine finding's pointer and detail, the guard op...).
    detail: dict = field(default_factory=dict)
    #: What a failed build refused, as a record (``Outcome.error_problem``); not part of
    #: the report's JSON, not compared.
    problem: Any = field(default=None, compare=False, repr=False)

    @property
    def sort_key(self) -> tuple:
        loc = self.location
        return (loc.file, loc.line, loc.column, self.rule, self.message)

    def to_dict(self) -> dict:
        where = self.location.to_dict()
        where.pop("message", None)
        out: dict[str, Any] = {"rule": self.rule, "level": self.level, **where,
                               "message": self.message, "help": rule(self.rule).help}
        if self.related:
            out["related"] = [r.to_dict() for r in self.related]
        if self.detail:
            out["detail"] = self.detail
        return out


def make(rule_id: str, message: str, location: Location, related: tuple = (),
         **detail: Any) -> LintFinding:
    """A finding of ``rule_id`` at its default level (``None`` details are left out)."""
    return LintFinding(rule_id, rule(rule_id).level, message, location, tuple(related),
                       {k: v for k, v in detail.items() if v is not None})


def unique(findings: list[LintFinding]) -> list[LintFinding]:
    """Sorted, without repeats (a base built alone and inside each overlay reports once)."""
    seen: set[tuple] = set()
    out: list[LintFinding] = []
    for finding in sorted(findings, key=lambda f: f.sort_key):
        ident = finding.sort_key
        if ident not in seen:
            seen.add(ident)
            out.append(finding)
    return out


def one_per_mistake(findings: list[LintFinding]) -> list[LintFinding]:
    """One finding per mistake: two rules saying one thing of one field are one finding
    (:func:`folded`), and the same rule saying the same thing at the same place of a
    patch for several resources (a selector reaching many, a base under several overlays)
    becomes one finding naming them all (``detail.resources``), in the first one's place
    in the order given."""
    groups: dict[tuple, list[LintFinding]] = {}
    order: list[tuple] = []
    for number, finding in enumerate(folded(findings)):
        resource = finding.detail.get("resource")
        prefix = f"{resource}: "
        if not isinstance(resource, str) or not finding.message.startswith(prefix):
            key: tuple = (number,)
        else:
            key = (finding.rule, finding.level, finding.location, finding.related,
                   finding.message[len(prefix):])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(finding)
    return [_merged(groups[key]) for key in order]


def _merged(group: list[LintFinding]) -> LintFinding:
    if len(group) == 1:
        return group[0]
    first = group[0]
    resources = list(dict.fromkeys(f.detail["resource"] for f in group))
    rest = first.message[len(first.detail["resource"]) + 2:]
    return LintFinding(first.rule, first.level, f"{', '.join(resources)}: {rest}",
                       first.location, first.related, {**first.detail, "resources": resources})


#: Rules that say a patch replaced a value and what was lost, with the reason (no merge
#: keys, an atomic list, a merge patch, a JSON Patch ``add`` on a map).  When the value
#: lost was set by an earlier patch of the same kustomization, ``field-set-twice`` says
#: the same mistake of the same field: it is folded into the more specific finding.
REPLACING = frozenset({"custom-resource-list-replaced", "atomic-list-replaced",
                       "merge-list-replaced", "add-replaces-map"})
TWICE = "field-set-twice"
#: (rule folded, the rules it is folded into): two rules saying one mistake of one field
#: of one resource at one place of a patch.  A ``null-deletes`` on a field the kind does
#: not have is the same stray line as its ``unknown-field`` (a ``patches:`` line left
#: atop a patch file is both).
FOLDS: tuple[tuple[str, frozenset[str]], ...] = (
    (TWICE, REPLACING), ("null-deletes", frozenset({"unknown-field"})))
_LEVELS = ("note", "warning", "error")


def folded(findings: list[LintFinding]) -> list[LintFinding]:
    """``findings`` with each finding of a rule :data:`FOLDS` names folded into a finding
    of a rule it is folded into, of the same resource, field and patch line: its facts
    are added to the kept one's message, ``related`` places and ``detail.also``; the
    higher level of the two is kept."""
    out: list[LintFinding | None] = list(findings)
    for absorbed, into in FOLDS:
        keepers: dict[tuple, int] = {}
        for number, finding in enumerate(out):
            if finding is not None and finding.rule in into:
                keepers.setdefault(_field_key(finding), number)
        for number, finding in enumerate(out):
            if finding is None or finding.rule != absorbed or finding.detail.get("same"):
                continue  # the same value twice: nothing is lost, a redundancy of its own
            target = keepers.get(_field_key(finding))
            kept = out[target] if target is not None else None
            if kept is not None and target is not None:
                out[target] = _fold(kept, finding)
                out[number] = None
    return [f for f in out if f is not None]


def _field_key(finding: LintFinding) -> tuple:
    """(resource, file, line, field): ``spec.containers[name=a].args`` and the pointer
    ``/spec/containers/0/args`` are the same field (list positions and keys left out)."""
    detail = finding.detail
    if finding.rule == TWICE:
        text = str(detail.get("field", ""))
        parts = [p for p in text.replace("[", ".[").split(".") if p and not p.startswith("[")]
    else:
        pointer = str(detail.get("pointer", ""))
        parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]
                 if not p.isdigit() and p != "-"]
    loc = finding.location
    return (detail.get("resource"), loc.file, loc.line, tuple(parts))


def _fold(kept: LintFinding, other: LintFinding) -> LintFinding:
    """``kept`` saying what ``other`` adds: for ``field-set-twice`` the earlier patch
    that set the field, else its message (after the resource)."""
    first = ""
    if other.rule == TWICE and other.related:
        first = other.related[0].message.removeprefix("set first by ")
        said = f"; {first} set it first (applied earlier) and this patch wins over it"
    else:
        resource = other.detail.get("resource")
        text = other.message.removeprefix(f"{resource}: ") if resource else other.message
        said = f" ({other.rule}: {text})"
    level = max(kept.level, other.level,
                key=lambda v: _LEVELS.index(v) if v in _LEVELS else -1)
    detail = {**kept.detail, "also": [*kept.detail.get("also", []), other.rule],
              "set_first_by": first or None}
    return LintFinding(kept.rule, level, kept.message + said, kept.location,
                       (*kept.related, *[r for r in other.related if r not in kept.related]),
                       {k: v for k, v in detail.items() if v is not None})
