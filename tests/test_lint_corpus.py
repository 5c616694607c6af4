"""The lint corpus (tests/data/lint/trees): every planted mistake is found at its file and
line, with its rule, and the clean trees give nothing.

A planted mistake is marked in the tree by a comment ``# expect: RULE`` on the line the
finding must point at; a tree without markers is a clean control.  The findings of a tree
must be exactly its markers (no more, no fewer), read from disk and from memory alike.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cfgpatch.lint import DiskFiles, MemoryFiles, lint_files
from cfgpatch.lint.rules import is_rule

TREES = Path(__file__).parent / "data" / "lint" / "trees"
NAMES = sorted(p.name for p in TREES.iterdir() if p.is_dir())
_MARK = re.compile(r"#\s*expect:\s*([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)")


def _texts(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(root.rglob("*")) if p.is_file()}


def planted(root: Path) -> set[tuple[str, int, str]]:
    out = set()
    for path, text in _texts(root).items():
        for number, line in enumerate(text.splitlines(), start=1):
            match = _MARK.search(line)
            if match:
                for rule_id in match.group(1).split(","):
                    out.add((path, number, rule_id.strip()))
    return out


def found(report) -> set[tuple[str, int, str]]:
    return {(f.location.file, f.location.line, f.rule) for f in report.findings}


def test_the_corpus_has_ten_trees_with_mistakes_and_clean_controls():
    with_mistakes = [n for n in NAMES if planted(TREES / n)]
    clean = [n for n in NAMES if not planted(TREES / n)]
    assert len(with_mistakes) >= 10, with_mistakes
    assert len(clean) >= 4, clean
    rules = {rule for n in with_mistakes for _, _, rule in planted(TREES / n)}
    for rule_id in ("patch-matches-nothing", "selector-matches-other-kinds", "field-set-twice",
                    "custom-resource-list-replaced", "index-into-keyed-list", "build-failed"):
        assert rule_id in rules, f"no tree plants {rule_id}"
    assert all(is_rule(r) for r in rules)


@pytest.mark.parametrize("name", NAMES)
def test_lint_finds_exactly_the_planted_mistakes(name):
    root = TREES / name
    report = lint_files(DiskFiles(str(root)))
    assert found(report) == planted(root), "\n".join(
        f"{f.location.file}:{f.location.line} {f.rule}: {f.message}" for f in report.findings)


@pytest.mark.parametrize("name", NAMES)
def test_lint_in_memory_agrees_with_lint_on_disk(name):
    """Kustomizations and Flux Kustomizations are built by kube build, on disk and in
    memory (the page) alike, to the byte."""
    root = TREES / name
    from_disk = lint_files(DiskFiles(str(root)))
    in_memory = lint_files(MemoryFiles(_texts(root)))
    assert in_memory.to_dict() == from_disk.to_dict()
    kinds = {t["kind"]: t["builder"] for t in in_memory.targets}
    assert kinds.get("kustomization", "kube build") == "kube build"


def test_a_clean_tree_lints_its_patches():
    report = lint_files(DiskFiles(str(TREES / "clean-overlays")))
    assert report.findings == []
    assert report.patch_count() == 4  # the clean result is not an empty walk


def test_the_config_changes_levels_disables_rules_and_excludes_folders():
    report = lint_files(DiskFiles(str(TREES / "config-rules")))
    levels = {f.rule: f.level for f in report.findings}
    assert levels == {"field-set-twice": "error"}  # warning by default
    assert not any(f.location.file.startswith("vendor/") for f in report.findings)
    assert all(t["path"].startswith("app/") for t in report.targets)


def test_field_set_twice_says_which_patch_wins():
    report = lint_files(DiskFiles(str(TREES / "field-set-twice")))
    (finding,) = report.findings
    assert "patches[1]" in finding.message and "wins over 3" in finding.message
    assert finding.related[0].file == "scale.yaml" and finding.related[0].line == 6


def test_a_lost_custom_resource_list_element_is_named():
    report = lint_files(DiskFiles(str(TREES / "cr-list-replaced")))
    messages = " ".join(f.message for f in report.findings)
    assert "loses config-reloader" in messages
    assert "dedicated" in messages


def test_the_guard_of_a_brittle_index_is_offered():
    report = lint_files(DiskFiles(str(TREES / "json6902-brittle")))
    (finding,) = [f for f in report.findings if f.rule == "index-into-keyed-list"]
    assert finding.detail["guard_text"] == (
        '- {"op":"test","path":"/spec/template/spec/containers/0/name","value":"checkout"}')
