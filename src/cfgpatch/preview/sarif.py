"""SARIF 2.1.0: one result per risk, at the line it is attributed to."""

from __future__ import annotations

from .risks import __doc__ as RISKS_DOC

RULES = ("recreate", "removed", "namespace-moved", "image", "hpa-replicas",
         "crd-version-removed", "secret-data", "live-removal", "live-refused", "live-conflict",
         "live-stuck")


def render_sarif(report: dict, version: str = "") -> dict:
    results = []
    for risk in report["risks"]:
        result: dict = {"ruleId": risk["rule"], "level": "warning",
                        "message": {"text": f"{risk['object']}: {risk['message']}"}}
        if risk.get("file") and not risk["file"].startswith("("):
            result["locations"] = [{"physicalLocation": {
                "artifactLocation": {"uri": risk["file"], "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": max(1, int(risk.get("line") or 1))}}}]
        results.append(result)
    rules = [{"id": rule, "shortDescription": {"text": _describe(rule)}} for rule in RULES]
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "cfgpatch kube preview",
                                          "version": version or "0",
                                          "informationUri": "https://github.com/",
                                          "rules": rules}},
                      "results": results}]}


def _describe(rule: str) -> str:
    for line in (RISKS_DOC or "").split("* "):
        if line.startswith(f"``{rule}``"):
            return " ".join(line.split())[len(rule) + 6:].rstrip(";.")
    return rule
