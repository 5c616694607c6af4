"""The pull-request comment: a summary table by kind and status, the risks, then one
collapsible section per object (its changes with their lines and commits, and the YAML
diff), split into parts under GitHub's 65,536-character limit, never inside an object.

An object whose own section is over the limit is shortened (its YAML diff cut, then its
change list), saying so; every object appears in exactly one part.
"""

from __future__ import annotations

from .human import (
    describe_change,
    describe_where,
    entry_notes,
    live_lines,
    obj_label,
    summary_line,
)

LIMIT = 65_536
MARKER = "<!-- cfgpatch-kube-preview -->"


def render_markdown(report: dict, limit: int = LIMIT) -> list[str]:
    """The comment's parts, in order (at least one)."""
    head = _head(report)
    sections = [_section(obj, limit - 400) for obj in report["objects"]]
    parts: list[list[str]] = [[head]]
    size = len(head)
    for section in sections:
        if size + len(section) + 200 > limit:
            parts.append([])
            size = 0
        parts[-1].append(section)
        size += len(section) + 1
    total = len(parts)
    out = []
    for number, chunks in enumerate(parts, 1):
        title = f"{MARKER}\n" + (f"**kube preview, part {number} of {total}**\n\n"
                                 if total > 1 else "")
        out.append(title + "\n".join(chunks) + "\n")
    return out


def _head(report: dict) -> str:
    lines = ["### kube preview", "",
             f"`{report['base']['ref']}` ({report['base']['commit'][:12]}) → "
             f"`{report['head']['ref']}`", "", summary_line(report), ""]
    kinds = report["summary"]["by_kind"]
    statuses = sorted({s for counts in kinds.values() for s in counts})
    risky: dict[str, int] = {}
    for risk in report["risks"]:
        kind = risk["object"].split("/", 1)[0]
        risky[kind] = risky.get(kind, 0) + 1
    if kinds:
        lines.append("| kind | " + " | ".join(statuses) + " | risks |")
        lines.append("|---|" + "---:|" * (len(statuses) + 1))
        for kind, counts in kinds.items():
            lines.append(f"| {kind} | " + " | ".join(str(counts.get(s, 0)) for s in statuses)
                         + f" | {risky.get(kind, 0)} |")
        lines.append("")
    for level, path, side, message in entry_notes(report):
        mark = ":x:" if level == "error" else ":information_source: not rendered:"
        lines.append(f"> {mark} `{path}` at {side}: {_code(message)}")
    if report["risks"]:
        lines.append(f"**Risks ({len(report['risks'])})**")
        lines.append("")
        for risk in report["risks"]:
            where = f" (`{risk['file']}:{risk['line']}`)" if risk.get("file") else ""
            lines.append(f"- :warning: **{risk['rule']}** `{risk['object']}`: "
                         f"{_escape(risk['message'])}{where}")
        lines.append("")
    return "\n".join(lines)


def _section(obj: dict, limit: int) -> str:
    flag = " :warning:" if obj["risks"] else ""
    summary = f"<details><summary><code>{_escape(obj_label(obj))}</code> {obj['status']}" \
              f"{flag}</summary>\n\n"
    body = []
    if obj.get("renamed_from"):
        body.append(f"renamed from `{obj['renamed_from']['name']}`")
    if obj.get("referrers"):
        body.append("referrers that follow: " + ", ".join(f"`{r}`" for r in obj["referrers"]))
    for risk in obj["risks"]:
        body.append(f"- :warning: **{risk['rule']}**: {_escape(risk['message'])}")
    for line in live_lines(obj):
        body.append(f"- {_escape(line)}")
    for change in obj["changes"]:
        body.append(f"- `{_tick(describe_change(change))}`")
        for where in change["attribution"]:
            body.append(f"  - ← {_escape(describe_where(where))}")
    for source in obj.get("sources", []):
        body.append(f"- from {_escape(describe_where(source))}")
    if obj["ignored_changes"]:
        body.append(f"- {obj['ignored_changes']} change(s) ignored (preview.ignore)")
    text = "\n".join(body)
    diff = obj.get("yaml_diff") or ""
    fence = "````" if "```" in diff else "```"
    block = f"\n\n{fence}diff\n{diff}{fence}\n" if diff else "\n"
    if len(summary) + len(text) + len(block) + 20 > limit:
        block = "\n\n(YAML diff left out: over the comment limit)\n"
    if len(summary) + len(text) + len(block) + 20 > limit:
        text = text[: max(0, limit - len(summary) - len(block) - 80)] + \
            "\n\n(change list cut: over the comment limit)"
    return summary + text + block + "</details>\n"


def _escape(text: str) -> str:
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _tick(text: str) -> str:
    return text.replace("`", "'")


def _code(text: str) -> str:
    return "`" + text.replace("`", "'").replace("\n", " ") + "`"
