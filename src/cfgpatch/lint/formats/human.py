"""The human format: findings grouped by file, each offending line quoted with a caret.

::

    overlays/prod/kustomization.yaml
      14:7  error  patch-matches-nothing
        the patch's target (kind Deployment, name webapp) selects no resource
          14 |     name: webapp
             |     ^^^^^^^^^^^^
        help: Check the target's kind, name, ...
        also: overlays/prod/kustomization.yaml:10:5: the target selector

    2 findings (1 error, 1 warning, 0 notes) in 1 file; 3 patches in 2 kustomizations

Warnings and errors are always listed in full.  A rule with more than :data:`FOLD_OVER`
notes (131 ``flux-substitution`` notes on one home-ops repository) is summarised instead,
in one block after the files: the count, the rule's short text (and how many of those
notes say that what they concern was not linted at all, ``detail.linted`` false), the
first :data:`FOLD_OVER` places and how many more::

    notes summarised (--show-notes lists each):
      flux-substitution  131 notes: postBuild variables are not expanded offline
        kubernetes/apps/main/a/ks.yaml:20:3
        kubernetes/apps/main/b/ks.yaml:18:3
        kubernetes/apps/main/c/ks.yaml:22:3
        and 128 more

``show_notes=True`` lists every note where it is; the last line counts every finding
either way.  Only this format folds: json, sarif and github keep one entry per finding.

Colour (``color=True``) marks levels, rule ids and carets with ANSI escapes; the CLI turns
it on only for a terminal and never when ``NO_COLOR`` is set.
"""

from __future__ import annotations

from itertools import groupby

from ..finding import LintFinding
from ..report import Report
from ..rules import rule

_COLOURS = {"error": "31;1", "warning": "33;1", "note": "36", "file": "1", "rule": "2",
            "caret": "32;1", "help": "2"}


def _paint(text: str, what: str, color: bool) -> str:
    return f"\x1b[{_COLOURS[what]}m{text}\x1b[0m" if color else text


def _plural(count: int, word: str) -> str:
    suffix = "es" if word.endswith(("ch", "sh", "s", "x")) else "s"
    return f"{count} {word}{'' if count == 1 else suffix}"


_KINDS = {"kustomization": "kustomization", "flux": "Flux Kustomization",
          "standalone": "standalone patch"}


def _quote(report: Report, finding: LintFinding, color: bool) -> list[str]:
    loc = finding.location
    text = report.line(loc.file, loc.line)
    if text is None:
        return []
    text = text.replace("\t", " ")
    number = str(loc.line)
    width = len(number)
    end = loc.end_column if loc.end_line in (0, loc.line) and loc.end_column > loc.column \
        else len(text.rstrip()) + 1
    carets = "^" * max(1, min(end, len(text) + 1) - loc.column)
    return [f"      {number} | {text}",
            f"      {' ' * width} | {' ' * (loc.column - 1)}{_paint(carets, 'caret', color)}"]


def _finding(report: Report, finding: LintFinding, color: bool) -> list[str]:
    loc = finding.location
    head = (f"  {loc.line}:{loc.column}  {_paint(finding.level, finding.level, color)}  "
            f"{_paint(finding.rule, 'rule', color)}")
    message = [f"    {part}" for part in finding.message.splitlines() or [""]]
    lines = [head, *message, *_quote(report, finding, color)]
    if finding.detail.get("partial"):
        lines.append(f"    partial build: {finding.detail['partial']}")
    lines.append(_paint(f"    help: {rule(finding.rule).help}", "help", color))
    for other in finding.related:
        note = f": {other.message}" if other.message else ""
        lines.append(f"    also: {other.file}:{other.line}:{other.column}{note}")
    return lines


#: A rule with more notes than this is summarised (and this many of its places named).
FOLD_OVER = 3


def folded_rules(findings: list[LintFinding]) -> dict[str, list[LintFinding]]:
    """The notes to summarise, by rule (most notes first, then by rule id): the rules
    with more than :data:`FOLD_OVER` notes."""
    notes: dict[str, list[LintFinding]] = {}
    for finding in findings:
        if finding.level == "note":
            notes.setdefault(finding.rule, []).append(finding)
    return {rule_id: notes[rule_id]
            for rule_id in sorted(notes, key=lambda r: (-len(notes[r]), r))
            if len(notes[rule_id]) > FOLD_OVER}


def _folded(folds: dict[str, list[LintFinding]], color: bool) -> list[str]:
    out = ["notes summarised (--show-notes lists each):"]
    for rule_id, notes in folds.items():
        count = _paint(_plural(len(notes), "note"), "note", color)
        unlinted = sum(1 for note in notes if note.detail.get("linted") is False)
        said = f" ({unlinted} of them name what was not linted at all)" if unlinted else ""
        out.append(f"  {_paint(rule_id, 'rule', color)}  {count}: "
                   f"{rule(rule_id).short}{said}")
        for note in notes[:FOLD_OVER]:
            loc = note.location
            out.append(f"    {loc.file}:{loc.line}:{loc.column}")
        out.append(f"    and {len(notes) - FOLD_OVER} more")
    return [*out, ""]


def render(report: Report, color: bool = False, show_notes: bool = False,
           **_: object) -> str:
    folds = {} if show_notes else folded_rules(report.findings)
    listed = [f for f in report.findings if f.level != "note" or f.rule not in folds]
    out: list[str] = []
    for path, group in groupby(listed, key=lambda f: f.location.file):
        out.append(_paint(path, "file", color))
        for finding in group:
            out.extend(_finding(report, finding, color))
        out.append("")
    if folds:
        out.extend(_folded(folds, color))
    out.append(summary(report))
    return "\n".join(out) + "\n"


def summary(report: Report) -> str:
    """The last line: the counts, and how many patches were checked in which units."""
    counts = report.counts()
    files = len({f.location.file for f in report.findings})
    summary = (f"{_plural(len(report.findings), 'finding')} ({_plural(counts['error'], 'error')}, "
               f"{_plural(counts['warning'], 'warning')}, {_plural(counts['note'], 'note')}) "
               f"in {_plural(files, 'file')}")
    if not report.findings:
        summary = "no findings"
    kinds: dict[str, int] = {}
    partial: dict[str, int] = {}
    for target in report.targets:
        kinds[target["kind"]] = kinds.get(target["kind"], 0) + 1
        if target.get("partial"):
            partial[target["kind"]] = partial.get(target["kind"], 0) + 1
    linted = ", ".join(_plural(n, _KINDS.get(k, k)) + (
        f" ({partial[k]} of another source, built partially)" if partial.get(k) else "")
        for k, n in sorted(kinds.items())) or "nothing to lint"
    return f"{summary}; {_plural(report.patch_count(), 'patch')} checked ({linted})"
