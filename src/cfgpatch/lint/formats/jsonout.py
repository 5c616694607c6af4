"""``--format json``: the report as one JSON document (stable key order, one line per run)."""

from __future__ import annotations

import json

from ..report import Report


def render(report: Report, **_: object) -> str:
    return json.dumps(report.to_dict(), indent=2, sort_keys=False, ensure_ascii=False) + "\n"
