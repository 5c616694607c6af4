"""lint/formats/human.py: grouped by file, the line quoted with a caret, colour on request."""

from __future__ import annotations

from cfgpatch.lint.finding import Location, make
from cfgpatch.lint.formats import renderer
from cfgpatch.lint.formats.human import render
from cfgpatch.lint.report import Report
from cfgpatch.lint.rules import rule
from lint_sample import KUSTOMIZATION, PATCH, sample_report


def _help(rule_id: str) -> str:
    return rule(rule_id).help


EXPECTED = f"""\
{KUSTOMIZATION}
  4:5  error  patch-matches-nothing
    the patch's target (kind Deployment, name webapp) selects no resource
      4 |   - target: {{kind: Deployment, name: webapp}}
        |     {"^" * 40}
    help: {_help("patch-matches-nothing")}
    also: {KUSTOMIZATION}:4:13: the target selector

{PATCH}
  2:2  warning  null-deletes-section
    spec.template: null deletes the whole section
    (50% of the object)
      2 |  template: null
        |  {"^" * 14}
    help: {_help("null-deletes-section")}
  3:3  note  field-set-twice
    Deployment web: spec.replicas is set twice
      3 |   replicas: 3
        |   {"^" * 11}
    help: {_help("field-set-twice")}

3 findings (1 error, 1 warning, 1 note) in 2 files; 3 patches checked (1 kustomization, \
1 standalone patch)
"""


def test_the_exact_text_without_colour():
    assert render(sample_report()) == EXPECTED
    assert renderer("human") is render


def test_colour_paints_file_level_rule_caret_and_help_and_changes_nothing_else():
    painted = render(sample_report(), color=True)
    assert f"\x1b[1m{KUSTOMIZATION}\x1b[0m\n" in painted
    assert "  4:5  \x1b[31;1merror\x1b[0m  \x1b[2mpatch-matches-nothing\x1b[0m\n" in painted
    assert "  2:2  \x1b[33;1mwarning\x1b[0m  " in painted
    assert "  3:3  \x1b[36mnote\x1b[0m  " in painted
    assert f"        |     \x1b[32;1m{'^' * 40}\x1b[0m\n" in painted
    assert f"\x1b[2m    help: {_help('field-set-twice')}\x1b[0m\n" in painted
    stripped = painted
    for code in ("1", "31;1", "33;1", "36", "2", "32;1", "0"):
        stripped = stripped.replace(f"\x1b[{code}m", "")
    assert stripped == EXPECTED


def test_a_tab_is_one_column_so_the_caret_stays_under_the_text():
    lines = render(sample_report()).splitlines()
    quoted = lines.index("      2 |  template: null")
    assert lines[quoted + 1] == "        |  " + "^" * 14


def test_a_region_over_several_lines_is_underlined_to_the_end_of_its_first_line():
    text = "spec:\n  template:\n    spec: {}\n"
    finding = make("null-deletes", "m", Location("p.yaml", 2, 3, 3, 9))
    out = render(Report([finding], [], {"p.yaml": text}))
    assert "      2 |   template:\n        |   ^^^^^^^^^\n" in out


def test_an_unknown_text_is_not_quoted_and_an_empty_report_says_so():
    finding = make("build-failed", "no file", Location("gone/kustomization.yaml", 3, 1))
    out = render(Report([finding], [{"kind": "kustomization", "path": "x", "patches": 0}], {}))
    assert " | " not in out
    assert out.endswith("1 finding (1 error, 0 warnings, 0 notes) in 1 file; 0 patches "
                        "checked (1 kustomization)\n")
    assert render(Report([], [], {})) == "no findings; 0 patches checked (nothing to lint)\n"
