"""``--format github``: GitHub Actions workflow commands, one annotation per finding.

``::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=RULE::MESSAGE``.  GitHub reads
``%``, CR and LF as escapes in the message, and additionally ``:`` and ``,`` in property
values, so those are written ``%25``, ``%0D``, ``%0A``, ``%3A`` and ``%2C``.  A note is a
``notice``.  A finding of a partial build (a Flux Kustomization of another source)
says so on a second line.

GitHub shows at most 10 annotations of each kind per step and 50 per job, so errors come
first, then warnings, then notices (each in the report's order): a repository with many
notes still gets its errors on the pull request.
"""

from __future__ import annotations

from ..report import Report

COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}
_FIRST = {"error": 0, "warning": 1, "note": 2}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, **_: object) -> str:
    lines = []
    for finding in sorted(report.findings, key=lambda f: _FIRST[f.level]):
        loc = finding.location
        props = [("file", loc.file), ("line", str(loc.line)), ("col", str(loc.column))]
        if loc.end_line:
            props.append(("endLine", str(loc.end_line)))
        if loc.end_column and loc.end_line == loc.line:
            props.append(("endColumn", str(loc.end_column)))
        props.append(("title", f"{finding.rule}"))
        head = ",".join(f"{k}={escape_property(v)}" for k, v in props)
        message = finding.message
        if finding.detail.get("partial"):
            message += f"\n(partial build: {finding.detail['partial']})"
        lines.append(f"::{COMMANDS[finding.level]} {head}::{escape_data(message)}")
    return "".join(line + "\n" for line in lines)
