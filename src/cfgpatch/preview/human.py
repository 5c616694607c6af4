"""The terminal form: the summary first, then the risks, then every changed object with
its changes and where each came from (colour when writing to a terminal)."""

from __future__ import annotations

RED, GREEN, YELLOW, BOLD, DIM, RESET = "\033[31m", "\033[32m", "\033[33m", "\033[1m", \
    "\033[2m", "\033[0m"


def render_human(report: dict, colour: bool = False) -> str:
    def c(code: str, text: str) -> str:
        return f"{code}{text}{RESET}" if colour else text

    out = [c(BOLD, f"kube preview: {report['base']['ref']} ({report['base']['commit'][:12]}) "
                   f"-> {report['head']['ref']}"), summary_line(report)]
    for level, path, side, message in entry_notes(report):
        out.append(c(RED if level == "error" else YELLOW,
                     f"{level}: {path} at {side}: {message}"))
    if report["risks"]:
        out.append(c(BOLD, f"risks ({len(report['risks'])}):"))
        for risk in report["risks"]:
            where = f" ({risk['file']}:{risk['line']})" if risk.get("file") else ""
            out.append(c(RED, f"  [{risk['rule']}] {risk['object']}: {risk['message']}{where}"))
    for obj in report["objects"]:
        out.append("")
        out.append(c(BOLD, f"{obj_label(obj)}: {obj['status']}") + c(
            DIM, f"  ({obj['entry_point']})"))
        if obj.get("renamed_from"):
            out.append(f"  renamed from {obj['renamed_from']['name']}")
        if obj.get("referrers"):
            out.append(f"  referrers that follow: {', '.join(obj['referrers'])}")
        for source in obj.get("sources", []):
            out.append(c(DIM, f"  from {describe_where(source)}"))
        for line in live_lines(obj):
            out.append("  " + c(YELLOW, line))
        for change in obj["changes"]:
            colour_code = GREEN if change["action"] == "add" else \
                RED if change["action"] == "remove" else YELLOW
            out.append("  " + c(colour_code, describe_change(change)))
            for where in change["attribution"]:
                out.append(c(DIM, "    <- " + describe_where(where)))
        if obj["ignored_changes"]:
            out.append(c(DIM, f"  {obj['ignored_changes']} change(s) ignored (preview.ignore)"))
    return "\n".join(out) + "\n"


def entry_notes(report: dict) -> list[tuple[str, str, str, str]]:
    """(level: "error" or "not rendered", path, side, message) for each entry point
    side that failed to build or was not rendered (it needs the network)."""
    out = []
    for entry in report["entry_points"]:
        for key, level in (("error", "error"), ("not_rendered", "not rendered")):
            for side in ("base", "head"):
                if (entry.get(key) or {}).get(side):
                    out.append((level, entry["path"], side, entry[key][side]))
    return out


def live_lines(obj: dict) -> list[str]:
    """What the apply does to the live object (``--live``), one line per finding."""
    live = obj.get("live")
    if not live:
        return []
    if not live["exists"]:
        return ["live: not in --live" + ("" if obj["status"] == "removed"
                                         else " (the apply creates it)")]
    ssa = live.get("server_side")
    if ssa is None:
        head = "live (client-side apply): "
        if live.get("refused"):
            return [head + "refused: " + live["refused"]]
        return [head + ("no change" if live.get("unchanged")
                        else f"{len(live.get('changes', []))} field change(s)")]
    head = f"live (server-side apply by {ssa['field_manager']}" \
        f"{', --force-conflicts' if ssa.get('force') else ''}): "
    if ssa.get("refused"):
        return [head + "refused: " + ssa["refused"]]
    out = [head + f"conflict with {c['owner']}: {c['field']}"
           + (" (taken over)" if ssa["applied"] else " (the apply fails)")
           for c in ssa.get("conflicts", [])]
    out += [head + f"removes {r['field']}" for r in ssa.get("removed", [])]
    out += [head + f"keeps {s['field']} (stuck: {s['manager']} still owns it)"
            for s in ssa.get("stuck", [])]
    if ssa.get("applied") and not out:
        out.append(head + ("no change" if ssa.get("unchanged")
                           else f"{len(ssa.get('changes', []))} field change(s)"))
    if ssa.get("no_managed_fields"):
        out.append(head + "the live object has no managedFields (save it with kubectl get "
                          "-o yaml --show-managed-fields)")
    return out


def summary_line(report: dict) -> str:
    summary = report["summary"]
    counts = ", ".join(f"{n} {s}" for s, n in sorted(summary["objects"].items())) or \
        "no change"
    ignored = summary["ignored"]
    extra = f"; ignored: {ignored['changes']} change(s), {ignored['objects']} object(s)" \
        if ignored["changes"] or ignored["objects"] else ""
    rendered = len(report["entry_points"]) - summary.get("not_rendered", 0)
    return (f"{rendered} entry point(s) rendered, {len(report['skipped_entry_points'])} not "
            f"reached; objects: {counts}; risks: {len(report['risks'])}{extra}; "
            f"errors: {summary['errors']}"
            + (f"; not rendered (network): {summary['not_rendered']}"
               if summary.get("not_rendered") else ""))


def obj_label(obj: dict) -> str:
    namespace = f"{obj['namespace']}/" if obj["namespace"] else ""
    return f"{obj['kind']} {namespace}{obj['name']}"


def describe_change(change: dict) -> str:
    path = change["path"] or "/"
    if change["action"] == "add":
        return f"+ {path}: {short(change.get('after'))}"
    if change["action"] == "remove":
        return f"- {path} (was {short(change.get('before'))})"
    return f"~ {path}: {short(change.get('before'))} -> {short(change.get('after'))}"


def describe_where(where: dict) -> str:
    lines = f"{where['line']}" if where.get("end_line", where["line"]) == where["line"] \
        else f"{where['line']}-{where['end_line']}"
    text = f"{where['file']}:{lines}" if where["line"] else where["file"]
    if where.get("side") == "base":
        text += " (base)"
    commits = where.get("commits") or []
    if commits:
        text += " " + ", ".join(f"{c['sha'][:8]} {c['subject']}" for c in commits)
    if where.get("via"):
        text += f" via {where['via']}: " + "; ".join(describe_where(w)
                                                     for w in where.get("follows", []))
    return text


def short(value: object, limit: int = 80) -> str:
    import json

    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False,
                                                            sort_keys=True)
    return text if len(text) <= limit else text[:limit - 3] + "..."
