"""lint/formats/jsonout.py: the report as one JSON document."""

from __future__ import annotations

import json

from cfgpatch.lint.formats.jsonout import render
from cfgpatch.lint.rules import rule
from lint_sample import KUSTOMIZATION, PATCH, sample_report


def test_the_exact_document():
    text = render(sample_report())
    assert text.endswith("}\n") and "\\u" not in text  # UTF-8, not escaped
    doc = json.loads(text)
    assert doc == {
        "version": 1,
        "findings": [
            {"rule": "patch-matches-nothing", "level": "error", "file": KUSTOMIZATION,
             "line": 4, "column": 5, "endLine": 4, "endColumn": 45,
             "message": "the patch's target (kind Deployment, name webapp) selects no "
                        "resource",
             "help": rule("patch-matches-nothing").help,
             "related": [{"file": KUSTOMIZATION, "line": 4, "column": 13, "endLine": 4,
                          "endColumn": 45, "message": "the target selector"}],
             "detail": {"selector": "kind=Deployment,name=webapp"}},
            {"rule": "null-deletes-section", "level": "warning", "file": PATCH, "line": 2,
             "column": 2, "endLine": 2, "endColumn": 16,
             "message": "spec.template: null deletes the whole section\n(50% of the object)",
             "help": rule("null-deletes-section").help},
            {"rule": "field-set-twice", "level": "note", "file": PATCH, "line": 3,
             "column": 3, "endLine": 3, "endColumn": 4,
             "message": "Deployment web: spec.replicas is set twice",
             "help": rule("field-set-twice").help},
        ],
        "summary": {"error": 1, "warning": 1, "note": 1, "files": 2, "linted": 2,
                    "patches": 3},
        "linted": [{"kind": "kustomization", "path": KUSTOMIZATION, "patches": 2},
                   {"kind": "standalone", "path": PATCH, "patches": 1}],
    }
    assert list(doc["findings"][0]) == ["rule", "level", "file", "line", "column", "endLine",
                                        "endColumn", "message", "help", "related", "detail"]


def test_a_non_ascii_message_stays_readable():
    report = sample_report()
    report.findings[0] = type(report.findings[0])("build-failed", "error", "ünïcode ✓",
                                                   report.findings[0].location)
    assert "ünïcode ✓" in render(report)
