"""lint/formats/github.py: one workflow command per finding, escaped as GitHub reads them.

GitHub's runner (actions/toolkit ``command.ts``) reads ``%25``, ``%0D`` and ``%0A`` in a
command's message, and additionally ``%3A`` and ``%2C`` in property values (where ``:``
and ``,`` would end the value or the properties)."""

from __future__ import annotations

import re

from cfgpatch.lint.finding import Location, make
from cfgpatch.lint.formats.github import escape_data, escape_property, render
from cfgpatch.lint.report import Report
from lint_sample import sample_report

EXPECTED = (
    "::error file=apps/web%2Cprod/kustomization.yaml,line=4,col=5,endLine=4,endColumn=45,"
    "title=patch-matches-nothing::the patch's target (kind Deployment, name webapp) selects "
    "no resource\n"
    "::warning file=apps/web%2Cprod/patch%3A100%25.yaml,line=2,col=2,endLine=2,endColumn=16,"
    "title=null-deletes-section::spec.template: null deletes the whole section%0A(50%25 of "
    "the object)\n"
    "::notice file=apps/web%2Cprod/patch%3A100%25.yaml,line=3,col=3,title=field-set-twice::"
    "Deployment web: spec.replicas is set twice\n"
)


def test_the_exact_commands():
    assert render(sample_report()) == EXPECTED


def test_escaping_follows_the_workflow_command_rules():
    assert escape_data("50% a:b,c\r\nd") == "50%25 a:b,c%0D%0Ad"
    assert escape_property("50% a:b,c\r\nd") == "50%25 a%3Ab%2Cc%0D%0Ad"
    # % first: an escape already in the text is not read back as one
    assert escape_data("%0A") == "%250A"


def _unescape(text: str, prop: bool) -> str:
    """What the runner does (toolkit's unescapeProperty / unescapeData)."""
    pairs = [("%0D", "\r"), ("%0A", "\n")] + ([("%3A", ":"), ("%2C", ",")] if prop else [])
    for code, char in pairs:
        text = text.replace(code, char)
    return text.replace("%25", "%")


def _parse(line: str) -> tuple[str, dict, str]:
    found = re.fullmatch(r"::(\w+) ([^:]*)::(.*)", line)
    assert found, line
    props = dict(part.split("=", 1) for part in found[2].split(","))
    return found[1], {k: _unescape(v, True) for k, v in props.items()}, _unescape(found[3], False)


def test_the_runner_reads_back_every_file_and_message():
    report = sample_report()
    lines = render(report).splitlines()
    assert len(lines) == len(report.findings)
    for line, finding in zip(lines, report.findings, strict=True):
        command, props, message = _parse(line)
        assert command == {"error": "error", "warning": "warning", "note": "notice"}[
            finding.level]
        assert props["file"] == finding.location.file and props["title"] == finding.rule
        assert int(props["line"]) == finding.location.line
        assert message == finding.message


def test_end_column_only_for_a_region_on_one_line():
    finding = make("null-deletes", "m", Location("p.yaml", 2, 3, 4, 9))
    assert render(Report([finding], [], {})) == \
        "::notice file=p.yaml,line=2,col=3,endLine=4,title=null-deletes::m\n"
    assert render(Report([], [], {})) == ""


def test_errors_come_before_warnings_and_notices():
    """GitHub keeps only the first annotations of a step and of a job."""
    where = Location("k.yaml", 1, 1)
    notes = [make("flux-substitution", f"note {i}", where) for i in range(12)]
    report = Report([*notes, make("null-deletes-section", "a warning", where),
                     make("patch-matches-nothing", "an error", where)], [], {})
    commands = [line.split(" ", 1)[0] for line in render(report).splitlines()]
    assert commands == ["::error", "::warning"] + ["::notice"] * 12
    assert [line.rsplit("::", 1)[1] for line in render(report).splitlines()[2:]] == \
        [f"note {i}" for i in range(12)]
