"""``--format sarif``: a SARIF 2.1.0 log for code-scanning services.

One run; ``tool.driver`` lists every rule of :data:`cfgpatch.lint.rules.RULES` (a
result's ``ruleIndex`` is the rule's position there).  Artifact URIs are relative to the
repository root with ``uriBaseId`` ``%SRCROOT%`` (``originalUriBaseIds`` gives the root
as a ``file:`` URI when it is known).  ``partialFingerprints`` are computed from the rule,
the file, the text of the flagged line and an occurrence count, not from line numbers,
so a finding keeps its identity when lines above it move.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from urllib.parse import quote

from ..finding import LintFinding, Location
from ..report import Report
from ..rules import INDEX, INFORMATION_URI, RULES, Rule

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
BASE_ID = "%SRCROOT%"
FINGERPRINT_KEY = "cfgpatchFinding/v1"


def _descriptor(rule: Rule) -> dict:
    markdown = (f"**{rule.short}.** {rule.full}\n\n{rule.help}\n\n"
                f"See [{rule.anchor}]({quote(rule.anchor, safe='/#')}).")
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.short + "."},
        "fullDescription": {"text": rule.full},
        "help": {"text": f"{rule.help} See {rule.anchor}.", "markdown": markdown},
        "defaultConfiguration": {"level": rule.level},
        "properties": {"tags": [rule.origin], "docAnchor": rule.anchor},
    }


def _physical(loc: Location) -> dict:
    region = {"startLine": loc.line, "startColumn": loc.column,
              "endLine": loc.end_line or loc.line,
              "endColumn": loc.end_column or loc.column + 1}
    return {"artifactLocation": {"uri": quote(loc.file), "uriBaseId": BASE_ID},
            "region": region}


def _fingerprint(report: Report, finding: LintFinding, seen: Counter) -> str:
    text = (report.line(finding.location.file, finding.location.line) or "").strip()
    ident = (finding.rule, finding.location.file, text)
    seen[ident] += 1
    material = "\0".join([*ident, str(seen[ident])])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:32]


def _result(report: Report, finding: LintFinding, seen: Counter) -> dict:
    out: dict = {
        "ruleId": finding.rule,
        "ruleIndex": INDEX[finding.rule],
        "level": finding.level,
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": _physical(finding.location)}],
        "partialFingerprints": {FINGERPRINT_KEY: _fingerprint(report, finding, seen)},
    }
    if finding.detail.get("partial"):  # a partial build (lint.flux): said on the result
        out["properties"] = {"partialBuild": finding.detail["partial"]}
    if finding.related:
        out["relatedLocations"] = [
            {"id": i, "physicalLocation": _physical(loc),
             **({"message": {"text": loc.message}} if loc.message else {})}
            for i, loc in enumerate(finding.related, start=1)]
    return out


def sarif_log(report: Report, root_uri: str | None = None) -> dict:
    """The SARIF log as a JSON-ready dict; ``root_uri``: the root as a ``file:`` URI."""
    from cfgpatch import __version__

    seen: Counter = Counter()
    run: dict = {
        "tool": {"driver": {"name": "cfgpatch", "version": __version__,
                            "semanticVersion": __version__,
                            "informationUri": INFORMATION_URI,
                            "rules": [_descriptor(rule) for rule in RULES]}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(report, finding, seen) for finding in report.findings],
    }
    partial = [{"path": t["path"], "partialBuild": t["partial"]} for t in report.targets
               if t.get("partial")]
    if partial:
        run["properties"] = {"partialBuilds": partial}
    if root_uri:
        run["originalUriBaseIds"] = {BASE_ID: {"uri": root_uri.rstrip("/") + "/"}}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(report: Report, root_uri: str | None = None, **_: object) -> str:
    return json.dumps(sarif_log(report, root_uri), indent=2, ensure_ascii=False) + "\n"
