"""One lint finding: a rule, a level, a message and the place in a file it concerns.

Positions are 1-based lines and columns (columns count characters, as SARIF's default
``columnKind`` ``unicodeCodePoints`` does); ``end_line``/``end_column`` close the region
(the end column is exclusive).  ``related`` holds other places the message mentions
(the earlier patch of a field set twice, the selector of a patch that matched nothing).
"""

from __future__ import annotations

from typing import Any

from ..records import dataclass, field
from .rules import rule


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
    """One finding per mistake: the same rule saying the same thing at the same place of a
    patch for several resources (a selector reaching many, a base under several overlays)
    becomes one finding naming them all (``detail.resources``), in the first one's place
    in the order given."""
    groups: dict[tuple, list[LintFinding]] = {}
    order: list[tuple] = []
    for number, finding in enumerate(findings):
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
