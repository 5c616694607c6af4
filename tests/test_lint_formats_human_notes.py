"""lint/formats/human.py: a rule with many notes is summarised; warnings and errors never."""

from __future__ import annotations

from cfgpatch.lint.finding import Location, make
from cfgpatch.lint.formats.human import FOLD_OVER, folded_rules, render
from cfgpatch.lint.report import Report
from cfgpatch.lint.rules import rule
from cfgpatch.records import replace

TEXT = "".join(f"line {n}\n" for n in range(1, 30))


def _substitution(file: str, line: int, **detail) -> object:
    return make("flux-substitution", f"note at {line}", Location(file, line, 3), **detail)


def _report(findings: list) -> Report:
    texts = {f.location.file: TEXT for f in findings}
    return Report(findings, [{"kind": "flux", "path": "x", "patches": 0}], texts)


def _sample() -> Report:
    """Five flux-substitution notes (one of a Flux Kustomization not linted), two
    build-incomplete notes, one warning."""
    notes = [_substitution("a.yaml", n) for n in (3, 9, 15)]
    notes += [_substitution("b.yaml", 4, linted=False), _substitution("c.yaml", 7)]
    incomplete = [make("build-incomplete", f"remote base {n}", Location("k.yaml", n, 5))
                  for n in (2, 6)]
    warning = make("field-set-twice", "set twice", Location("b.yaml", 10, 1))
    return _report(sorted([*notes, *incomplete, warning], key=lambda f: f.sort_key))


def _full(finding) -> str:
    loc = finding.location
    return f"  {loc.line}:{loc.column}  {finding.level}  {finding.rule}\n"


def test_a_rule_with_more_notes_than_the_threshold_is_one_block_after_the_files():
    out = render(_sample())
    assert FOLD_OVER == 3
    assert out.endswith(
        "notes summarised (--show-notes lists each):\n"
        f"  flux-substitution  5 notes: {rule('flux-substitution').short} (1 of them name "
        "what was not linted at all)\n"
        "    a.yaml:3:3\n"
        "    a.yaml:9:3\n"
        "    a.yaml:15:3\n"
        "    and 2 more\n"
        "\n"
        "8 findings (0 errors, 1 warning, 7 notes) in 4 files; 0 patches checked "
        "(1 Flux Kustomization)\n")
    assert "note at" not in out  # no flux-substitution note is listed on its own
    assert out.count("  note  build-incomplete\n") == 2  # two notes: listed in full
    assert "  10:1  warning  field-set-twice\n    set twice\n" in out
    assert "a.yaml\n" not in out  # a file with folded notes only has no heading


def test_show_notes_lists_every_note_where_it_is():
    report = _sample()
    out = render(report, show_notes=True)
    assert "notes summarised" not in out
    for finding in report.findings:
        assert _full(finding) in out
    assert out.count(f"    help: {rule('flux-substitution').help}\n") == 5
    assert out.splitlines()[-1] == render(report).splitlines()[-1]


def test_exactly_the_threshold_is_listed_in_full_and_one_more_is_folded():
    notes = [_substitution("a.yaml", n) for n in range(1, FOLD_OVER + 1)]
    assert folded_rules(notes) == {}
    assert render(_report(notes)).count("  note  flux-substitution\n") == FOLD_OVER
    more = [*notes, _substitution("a.yaml", 20)]
    assert list(folded_rules(more)) == ["flux-substitution"]
    assert "    and 1 more\n" in render(_report(more))


def test_the_level_decides_not_the_rule():
    """A rule the config lowers to note is summarised; a note rule raised to warning is
    listed in full (``lint.severity``)."""
    lowered = [replace(make("field-set-twice", "twice", Location("p.yaml", n, 1)),
                       level="note") for n in range(1, 6)]
    assert "  field-set-twice  5 notes: " in render(_report(lowered))
    raised = [replace(_substitution("a.yaml", n), level="warning") for n in range(1, 6)]
    out = render(_report(raised))
    assert "notes summarised" not in out
    assert out.count("  warning  flux-substitution\n") == 5


def test_rules_are_summarised_most_notes_first():
    many = [make("build-incomplete", "b", Location("k.yaml", n, 1)) for n in range(1, 7)]
    few = [_substitution("a.yaml", n) for n in range(1, 5)]
    assert list(folded_rules(sorted([*few, *many], key=lambda f: f.sort_key))) == \
        ["build-incomplete", "flux-substitution"]
    tied = [make("build-incomplete", "b", Location("k.yaml", n, 1)) for n in range(1, 5)]
    assert list(folded_rules([*few, *tied])) == ["build-incomplete", "flux-substitution"]


def test_colour_paints_the_summary_and_changes_nothing_else():
    painted = render(_sample(), color=True)
    assert "  \x1b[2mflux-substitution\x1b[0m  \x1b[36m5 notes\x1b[0m: " in painted
    stripped = painted
    for code in ("1", "31;1", "33;1", "36", "2", "32;1", "0"):
        stripped = stripped.replace(f"\x1b[{code}m", "")
    assert stripped == render(_sample())
