"""lint/rules.py: one catalogue with the kube patch findings and lint's own rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfgpatch.kube.explain.catalogue import CATALOGUE
from cfgpatch.lint.rules import INDEX, RULES, is_rule, level_rank, normalise_level, rule

DOC = (Path(__file__).resolve().parent.parent / "docs" / "lint.md").read_text("utf-8")


def test_every_kube_patch_finding_is_a_rule_with_its_level():
    levels = {"error": "error", "warning": "warning", "info": "note"}
    for code, (severity, _) in CATALOGUE.items():
        assert rule(code).level == levels[severity]
        assert rule(code).origin == "patch"


def test_rules_are_unique_indexed_and_helped():
    assert len({r.id for r in RULES}) == len(RULES)
    assert all(RULES[INDEX[r.id]] is r for r in RULES)
    assert all(r.help and r.short and r.full for r in RULES)
    assert rule("field-set-twice").name == "FieldSetTwice"


@pytest.mark.parametrize("rule_id", [r.id for r in RULES])
def test_docs_lint_md_describes_every_rule(rule_id):
    assert f'<a id="{rule_id}"></a>' in DOC


def test_levels():
    assert normalise_level("INFO") == "note" and normalise_level("warn") == "warning"
    assert normalise_level("loud") is None and normalise_level(3) is None
    assert level_rank("note") < level_rank("warning") < level_rank("error")
    assert not is_rule("nope")
    with pytest.raises(KeyError, match="unknown lint rule 'nope'"):
        rule("nope")
