"""A self-contained HTML report: the summary, the risks, and per object its changes with
their lines and commits and a side-by-side diff of the YAML (no script, no external
file; the layout folds to one column on a phone)."""

from __future__ import annotations

import difflib
from html import escape

from .human import (
    describe_change,
    describe_where,
    entry_notes,
    live_lines,
    obj_label,
    summary_line,
)

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;padding:16px;color:#1f2328;background:#fff;
overflow-wrap:anywhere}
h1{font-size:20px;margin:0 0 8px}.meta{color:#59636e;margin-bottom:12px}
table.sum{border-collapse:collapse;margin:8px 0 16px}
table.sum td,table.sum th{border:1px solid #d1d9e0;padding:4px 10px;text-align:right}
table.sum th:first-child,table.sum td:first-child{text-align:left}
.risk{background:#fff1e5;border-left:4px solid #bc4c00;padding:6px 10px;margin:4px 0}
details{border:1px solid #d1d9e0;border-radius:6px;margin:8px 0}
summary{padding:8px 10px;cursor:pointer;font-weight:600}summary .st{font-weight:400;color:#59636e}
.body{padding:0 10px 10px}.chg{font-family:ui-monospace,monospace;font-size:12.5px;margin:2px 0}
.where{color:#59636e;font-size:12px;margin-left:18px}
.sbs{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0;
font-family:ui-monospace,monospace;
font-size:12px;overflow-x:auto;border:1px solid #d1d9e0;margin-top:8px}
.sbs div{white-space:pre-wrap;word-break:break-all;padding:0 6px;min-height:1.4em}
.del{background:#ffebe9}.add{background:#dafbe1}
.hd{background:#f6f8fa;font-weight:600}
@media (max-width:700px){.sbs{grid-template-columns:minmax(0,1fr)}.sbs .l.same{display:none}
body{padding:8px}table.sum td,table.sum th{padding:2px 6px}}
"""


def render_html(report: dict) -> str:
    parts = ["<!doctype html><html lang=en><head><meta charset=utf-8>",
             "<meta name=viewport content='width=device-width,initial-scale=1'>",
             "<title>kube preview</title><style>", STYLE, "</style></head><body>",
             "<h1>kube preview</h1>",
             f"<div class=meta>{escape(report['base']['ref'])} "
             f"({escape(report['base']['commit'][:12])}) → {escape(report['head']['ref'])}"
             f"<br>{escape(summary_line(report))}</div>", _table(report)]
    for level, path, side, message in entry_notes(report):
        parts.append(f"<div class=risk><b>{escape(level)}</b> <code>{escape(path)}</code> "
                     f"at {side}: {escape(message)}</div>")
    for risk in report["risks"]:
        where = f" <code>{escape(risk['file'])}:{risk['line']}</code>" \
            if risk.get("file") else ""
        parts.append(f"<div class=risk><b>{escape(risk['rule'])}</b> "
                     f"<code>{escape(risk['object'])}</code>: "
                     f"{escape(risk['message'])}{where}</div>")
    for obj in report["objects"]:
        parts.append(_object(obj))
    parts.append("</body></html>\n")
    return "".join(parts)


def _table(report: dict) -> str:
    kinds = report["summary"]["by_kind"]
    if not kinds:
        return ""
    statuses = sorted({s for counts in kinds.values() for s in counts})
    rows = ["<table class=sum><tr><th>kind</th>" + "".join(f"<th>{escape(s)}</th>"
                                                          for s in statuses) + "</tr>"]
    for kind, counts in kinds.items():
        rows.append(f"<tr><td>{escape(kind)}</td>" + "".join(
            f"<td>{counts.get(s, 0)}</td>" for s in statuses) + "</tr>")
    return "".join(rows) + "</table>"


def _object(obj: dict) -> str:
    flag = " ⚠" if obj["risks"] else ""
    out = [f"<details open><summary>{escape(obj_label(obj))} "
           f"<span class=st>{escape(obj['status'])}{flag} · {escape(obj['entry_point'])}"
           f"</span></summary><div class=body>"]
    if obj.get("renamed_from"):
        out.append(f"<div>renamed from <code>{escape(obj['renamed_from']['name'])}</code>"
                   "</div>")
    for risk in obj["risks"]:
        out.append(f"<div class=risk><b>{escape(risk['rule'])}</b>: "
                   f"{escape(risk['message'])}</div>")
    for line in live_lines(obj):
        out.append(f"<div class=where>{escape(line)}</div>")
    for change in obj["changes"]:
        out.append(f"<div class=chg>{escape(describe_change(change))}</div>")
        for where in change["attribution"]:
            out.append(f"<div class=where>← {escape(describe_where(where))}</div>")
    out.append(_side_by_side(obj.get("before_yaml", ""), obj.get("after_yaml", "")))
    out.append("</div></details>")
    return "".join(out)


def _side_by_side(before: str, after: str) -> str:
    a, b = before.splitlines(), after.splitlines()
    cells = ["<div class='hd l same'>base</div><div class=hd>head</div>"]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for left, right in zip(a[i1:i2], b[j1:j2], strict=True):
                cells.append(f"<div class='l same'>{escape(left)}</div>"
                             f"<div>{escape(right)}</div>")
            continue
        lefts, rights = a[i1:i2], b[j1:j2]
        for index in range(max(len(lefts), len(rights))):
            lcell = escape(lefts[index]) if index < len(lefts) else ""
            rcell = escape(rights[index]) if index < len(rights) else ""
            cells.append(f"<div class='l {'del' if index < len(lefts) else ''}'>{lcell}</div>"
                         f"<div class='{'add' if index < len(rights) else ''}'>{rcell}</div>")
    return "<div class=sbs>" + "".join(cells) + "</div>"
