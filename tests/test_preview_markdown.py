"""The pull-request comment: parts under GitHub's limit, every object exactly once."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.preview.markdown import LIMIT, render_markdown


def _report(count: int, diff_size: int) -> dict:
    objects = []
    for index in range(count):
        objects.append({
            "entry_point": "apps/prod", "group": "apps", "kind": "Deployment", "namespace": "shop",
            "name": f"web-{index:04d}", "status": "changed", "ignored_changes": 0,
            "changes": [{"action": "replace", "path": "/spec/replicas", "before": 1, "after": 2,
                         "attribution": [{"file": "apps/prod/replicas.yaml", "line": 6,
                                          "end_line": 6, "side": "head", "commits": []}]}],
            "yaml_diff": "-  replicas: 1\n+  replicas: 2\n" + " x\n" * diff_size,
            "risks": []})
    return {"base": {"ref": "main", "commit": "a" * 40}, "head": {"ref": "pr", "commit": "b"},
            "entry_points": [{"path": "apps/prod", "kind": "kustomization"}],
            "skipped_entry_points": [],
            "summary": {"objects": {"changed": count}, "by_kind": {"Deployment": {
                "changed": count}}, "risks": {}, "ignored": {"changes": 0, "objects": 0,
                                                             "rules": []}, "errors": 0},
            "risks": [], "objects": objects}


def _names(parts: list[str]) -> list[str]:
    return [n for part in parts for n in re.findall(r"<code>Deployment shop/(web-\d+)</code>",
                                                    part)]


def test_three_hundred_objects_split_under_the_limit_each_once():
    report = _report(300, 60)
    parts = render_markdown(report)
    assert len(parts) > 1
    assert all(len(part) < LIMIT for part in parts)
    assert _names(parts) == [o["name"] for o in report["objects"]]
    assert all(part.count("<details>") == part.count("</details>") for part in parts)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 80), st.integers(0, 4000), st.integers(3000, 70000))
def test_any_report_splits_under_any_limit_without_cutting_an_object(count, size, limit):
    report = _report(count, size)
    parts = render_markdown(report, limit)
    assert all(len(part) < limit for part in parts)
    assert _names(parts) == [o["name"] for o in report["objects"]]
