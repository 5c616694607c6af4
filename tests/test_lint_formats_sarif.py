"""``--format sarif``: SARIF 2.1.0 valid against the published schema (tests/data/lint)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from cfgpatch.lint import DiskFiles, lint_files
from cfgpatch.lint.finding import Location, make
from cfgpatch.lint.formats.sarif import render, sarif_log
from cfgpatch.lint.report import Report
from cfgpatch.lint.rules import RULES

DATA = Path(__file__).parent / "data" / "lint"
SCHEMA = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
TREES = sorted(p for p in (DATA / "trees").iterdir() if p.is_dir())


def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(SCHEMA)
    cls.check_schema(SCHEMA)
    return cls(SCHEMA, format_checker=cls.FORMAT_CHECKER)


def _errors(log: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in _validator().iter_errors(log)]


@pytest.mark.parametrize("root", TREES, ids=lambda p: p.name)
def test_the_log_of_every_corpus_tree_is_valid(root):
    report = lint_files(DiskFiles(str(root)))
    log = json.loads(render(report, root_uri=root.as_uri()))
    assert _errors(log) == []
    assert log["version"] == "2.1.0"


def test_the_schema_rejects_a_broken_log():
    """The validator is not vacuous: a result without a message, a bad level fail."""
    report = lint_files(DiskFiles(str(DATA / "trees" / "renamed-target")))
    log = sarif_log(report)
    del log["runs"][0]["results"][0]["message"]
    log["runs"][0]["results"][1]["level"] = "fatal"
    errors = _errors(log)
    assert any("message" in e for e in errors) and any("fatal" in e for e in errors)


def test_results_carry_rule_level_message_and_a_relative_location():
    root = DATA / "trees" / "renamed-target"
    report = lint_files(DiskFiles(str(root)))
    run = sarif_log(report, root.as_uri())["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.id for r in RULES]
    assert all(r["help"]["text"] and r["shortDescription"]["text"] for r in rules)
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == root.as_uri() + "/"
    result = run["results"][0]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == "patch-matches-nothing"
    assert result["level"] == "error"
    where = result["locations"][0]["physicalLocation"]
    assert where["artifactLocation"] == {"uri": "overlays/prod/kustomization.yaml",
                                         "uriBaseId": "%SRCROOT%"}
    assert where["region"]["startLine"] == 9 and where["region"]["startColumn"] == 7
    assert result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 5


def test_uris_are_percent_encoded_and_fingerprints_survive_moved_lines():
    def report(line: int) -> Report:
        text = "\n" * (line - 1) + "spec: {replicas: 2}\n"
        finding = make("null-deletes", "m", Location("dir with space/p#1.yaml", line, 1))
        return Report([finding], [], {"dir with space/p#1.yaml": text})

    first, moved = sarif_log(report(3))["runs"][0], sarif_log(report(7))["runs"][0]
    uri = first["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "dir%20with%20space/p%231.yaml"
    assert _errors(sarif_log(report(3))) == []
    assert first["results"][0]["partialFingerprints"] == \
        moved["results"][0]["partialFingerprints"]
