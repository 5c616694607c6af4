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


def test_the_sample_report_s_results_regions_and_rule_metadata():
    from cfgpatch.lint.rules import INDEX, rule
    from lint_sample import KUSTOMIZATION, PATCH, sample_report

    log = sarif_log(sample_report(), "file:///repo")
    assert _errors(log) == []
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///repo/"}}
    results = run["results"]
    assert [(r["ruleId"], r["level"], r["ruleIndex"]) for r in results] == [
        ("patch-matches-nothing", "error", INDEX["patch-matches-nothing"]),
        ("null-deletes-section", "warning", INDEX["null-deletes-section"]),
        ("field-set-twice", "note", INDEX["field-set-twice"])]
    where = [r["locations"][0]["physicalLocation"] for r in results]
    assert where[0] == {"artifactLocation": {"uri": "apps/web%2Cprod/kustomization.yaml",
                                             "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 4, "startColumn": 5, "endLine": 4,
                                   "endColumn": 45}}
    # a URI reference: ':' in the first segment would read as a scheme, '%' is escaped
    assert where[1]["artifactLocation"]["uri"] == "apps/web%2Cprod/patch%3A100%25.yaml"
    assert where[2]["region"] == {"startLine": 3, "startColumn": 3, "endLine": 3,
                                  "endColumn": 4}
    assert results[1]["message"] == {"text": "spec.template: null deletes the whole "
                                             "section\n(50% of the object)"}
    assert results[0]["relatedLocations"] == [{
        "id": 1, "message": {"text": "the target selector"},
        "physicalLocation": {"artifactLocation": {"uri": "apps/web%2Cprod/kustomization.yaml",
                                                  "uriBaseId": "%SRCROOT%"},
                             "region": {"startLine": 4, "startColumn": 13, "endLine": 4,
                                        "endColumn": 45}}}]
    assert "relatedLocations" not in results[1]
    fingerprints = {r["partialFingerprints"]["cfgpatchFinding/v1"] for r in results}
    assert len(fingerprints) == 3 and all(len(f) == 32 for f in fingerprints)
    descriptor = run["tool"]["driver"]["rules"][INDEX["field-set-twice"]]
    meta = rule("field-set-twice")
    assert descriptor == {
        "id": "field-set-twice", "name": "FieldSetTwice",
        "shortDescription": {"text": meta.short + "."},
        "fullDescription": {"text": meta.full},
        "help": {"text": f"{meta.help} See docs/lint.md#field-set-twice.",
                 "markdown": f"**{meta.short}.** {meta.full}\n\n{meta.help}\n\n"
                             "See [docs/lint.md#field-set-twice](docs/lint.md#field-set-twice)."},
        "defaultConfiguration": {"level": "warning"},
        "properties": {"tags": ["repository"], "docAnchor": "docs/lint.md#field-set-twice"}}
    assert KUSTOMIZATION != PATCH
