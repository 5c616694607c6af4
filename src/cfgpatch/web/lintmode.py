"""The page's lint mode: ``cfgpatch lint`` on files the reader pasted or dropped.

The page sends the files as a list of ``{"path", "text"}`` (paths relative to the folder
they came from); :func:`lint_json` lints them in memory (``cfgpatch.lint.MemoryFiles``,
built by ``kube build`` in a folder of the tab's in-memory file system: nothing is read
from the reader's disk or sent anywhere) and returns one JSON text with

- ``report``: the ``--format json`` document (what ``window.cfgpatch.lintResults()`` gives
  scripts), or ``None`` when the files could not be linted;
- ``inputs``: one entry per file given, ``{"path": normalised path, "problem": words or
  None}`` (an empty path, ``..``, the same path twice);
- ``error``: a configuration mistake (``.cfgpatch.yaml``), ``{"plain", "file", "line",
  "column"}``, or ``None``;
- ``verdict``, ``summary``: the words above the findings; ``files``: the findings grouped
  by file, each with the quoted line, its help and documentation anchor, and the related
  places as ``{"file", "line", "column", "label", "message"}``.

Every word the page shows comes from here (and from ``cfgpatch.lint``).
"""

from __future__ import annotations

import json
import re
from itertools import groupby
from typing import Any

from ..errors import CfgPatchError
from ..kube.problems import Kustomize, within
from ..lint import MemoryFiles, lint_files
from ..lint.config import normal_path
from ..lint.formats.human import summary
from ..lint.report import Report
from ..lint.rules import rule

_PLACE = re.compile(r"^(?P<file>[^:]+?)(?::(?P<line>\d+)(?::(?P<column>\d+))?)?: (?P<rest>.*)$",
                    re.S)


def lint_json(files_json: str, options_json: str = "{}") -> str:
    """:func:`lint_view` of a JSON list of ``{"path", "text"}``, as JSON."""
    try:
        files = json.loads(files_json)
        options = json.loads(options_json or "{}")
    except ValueError as exc:
        return json.dumps({"ok": False, "internal": f"internal error: bad message: {exc}"})
    try:
        return json.dumps(lint_view(files, options), ensure_ascii=False)
    except Exception as exc:  # noqa: BLE001 - reported to the page, never a dead worker
        return json.dumps({"ok": False, "internal": f"internal error: {type(exc).__name__}: "
                                                    f"{exc}"})


def _path_problem(raw: Any, path: str, seen: dict[str, int], index: int) -> str | None:
    if not isinstance(raw, str) or not path:
        return "Give this file a path (such as base/kustomization.yaml)."
    if ".." in path.split("/"):
        return f"The path {raw!r} leaves the folder: write it relative to the folder's root."
    if path in seen:
        return f"File {seen[path] + 1} has the same path; give each file its own."
    return None


def read_files(files: list) -> tuple[dict[str, str], list[dict]]:
    """The texts by normalised path, and each file's path and problem (None when fine)."""
    texts: dict[str, str] = {}
    seen: dict[str, int] = {}
    inputs = []
    for index, entry in enumerate(files if isinstance(files, list) else []):
        entry = entry if isinstance(entry, dict) else {}
        raw = entry.get("path")
        path = normal_path(raw) if isinstance(raw, str) else ""
        problem = _path_problem(raw, path, seen, index)
        inputs.append({"path": path, "problem": problem})
        if problem is None:
            seen[path] = index
            text = entry.get("text")
            texts[path] = text if isinstance(text, str) else ""
    return texts, inputs


def _error(exc: CfgPatchError) -> dict:
    found = _PLACE.match(exc.message)
    if not found:
        return {"plain": exc.message, "file": None, "line": None, "column": None}
    return {"plain": exc.message, "file": found["file"],
            "line": int(found["line"]) if found["line"] else None,
            "column": int(found["column"]) if found["column"] else None}


def _place(where: dict) -> dict:
    out = {"file": where["file"], "line": where["line"], "column": where["column"],
           "end_line": where["endLine"], "end_column": where["endColumn"],
           "label": f"{where['file']}:{where['line']}:{where['column']}"}
    if where.get("message"):
        out["message"] = where["message"]
    return out


def _counted(findings: list[dict]) -> str:
    parts = []
    for level, word in (("error", "error"), ("warning", "warning"), ("note", "note")):
        count = sum(1 for f in findings if f["level"] == level)
        if count:
            parts.append(f"{count} {word}{'' if count == 1 else 's'}")
    return ", ".join(parts)


def _namespaces_of(texts: dict[str, str], kind: str, name: str) -> list[str]:
    """The namespaces that objects of ``kind`` and ``name`` have in the files given."""
    import yaml

    found: list[str] = []
    for text in texts.values():
        if f"name: {name}" not in text and f'"{name}"' not in text:
            continue
        try:
            docs = list(yaml.safe_load_all(text))
        except yaml.YAMLError:
            continue
        for doc in docs:
            meta = doc.get("metadata") if isinstance(doc, dict) else None
            if isinstance(meta, dict) and doc.get("kind") == kind and meta.get("name") == name \
                    and isinstance(meta.get("namespace"), str) and meta["namespace"] not in found:
                found.append(meta["namespace"])
    return found


def _unmatched(problem: Any) -> tuple[str, str] | None:
    """The kind and name of the id without a namespace that no resource has, when a
    build's ``problem`` is (or wraps) kustomize's ``no-unique-target`` of no match."""
    for step in within(problem):
        if isinstance(step, Kustomize) and step.code == "no-unique-target":
            count, kind, name, namespace = step.detail
            if count == 0 and not namespace and kind:
                return kind, name
    return None


def explanation(problem: Any, texts: dict[str, str]) -> str | None:
    """Plain words for a kustomize error (``problem``: the build's record, a finding's
    ``problem``) a person cannot read as it is, or ``None``.

    ``[noNs]`` is how kustomize writes "no namespace" in a resource id: a patch whose
    ``metadata`` names no namespace matches only resources that have none."""
    found = _unmatched(problem)
    if not found:
        return None
    kind, name = found
    spaces = _namespaces_of(texts, kind, name)
    where = (f" The {kind} `{name}` in these files is in namespace "
             + " and ".join(f"`{ns}`" for ns in spaces) + "." if spaces else "")
    fix = f"`namespace: {spaces[0]}`" if spaces else "its namespace"
    return (f"The patch names no namespace (kustomize writes that `[noNs]`), and kustomize "
            f"matches a patch to a resource by kind, name and namespace exactly, and this "
            f"kustomization has no {kind} `{name}` without a namespace.{where} Add {fix} "
            f"to the patch's `metadata`, or give the patch a `target:` in `patches:` instead.")


def _groups(report: Report, found: list[dict], texts: dict[str, str] | None = None
            ) -> list[dict]:
    """``found`` (the report's findings as JSON, in its order) grouped by file, each
    with what the page shows of it."""
    out = []
    paired = zip(found, [f.problem for f in report.findings])
    for path, group in groupby(paired, key=lambda pair: pair[0]["file"]):
        findings = []
        for finding, problem in group:
            findings.append({
                **finding,
                "place": _place({**finding, "message": ""}),
                "quote": report.line(path, finding["line"]),
                "doc": rule(finding["rule"]).anchor,
                "related": [_place(r) for r in finding.get("related", [])],
                "explain": explanation(problem, texts or {}),
            })
        out.append({"path": path, "counts": _counted(findings), "findings": findings})
    return out


def _verdict(report: Report) -> str:
    if not report.targets:
        return ("Nothing to lint: no kustomization (kustomization.yaml, kustomization.yml, "
                "Kustomization), no Flux Kustomization with spec.patches and no patch mapped "
                "in .cfgpatch.yaml among these files.")
    if not report.findings:
        return "No findings: every patch does what it says."
    if report.build_failed():
        failed = {f.location.file for f in report.findings if f.rule == "build-failed"}
        others = [f for f in report.findings if f.rule != "build-failed"]
        what = ("A kustomization does not build" if len(failed) == 1
                else f"{len(failed)} kustomizations do not build")
        rest = (f"; the other patches were still linted ({_plural(len(others), 'more finding')}"
                f" below)" if others else "; the other patches were still linted and have "
                "no findings")
        return f"{what}{rest}."
    worst = report.at_or_above("error")
    return ("Patches that do not do what they seem to: see the errors below." if worst
            else "Nothing fails, but some patches deserve a second look.")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _tone(report: Report) -> str:
    if not report.findings:
        return "ok" if report.targets else "pending"
    return "failed" if report.at_or_above("error") else "warning"


_REASONS = {"folder": "a folder cfgpatch lint does not walk", "large": "larger than 1 MB",
            "binary": "not UTF-8 text"}


def skipped_note(skipped: Any) -> str:
    """What the page left out of a folder it read (``[{"path", "reason"}]``)."""
    if not isinstance(skipped, list) or not skipped:
        return ""
    parts = []
    for entry in skipped[:8]:
        if isinstance(entry, dict):
            reason = _REASONS.get(str(entry.get("reason")), str(entry.get("reason")))
            parts.append(f"{entry.get('path')} ({reason})")
    more = f" and {len(skipped) - 8} more" if len(skipped) > 8 else ""
    count = len(skipped)
    return (f"{count} {'entry was' if count == 1 else 'entries were'} not read: "
            f"{', '.join(parts)}{more}.")


def lint_view(files: list, options: dict | None = None) -> dict:
    """Lint ``files`` (``[{"path", "text"}]``) and return what the page draws;
    ``options["skipped"]``: what the page did not read (:func:`skipped_note`)."""
    options = options if isinstance(options, dict) else {}
    texts, inputs = read_files(files)
    out: dict[str, Any] = {"ok": False, "report": None, "inputs": inputs, "error": None,
                           "tone": "failed", "verdict": "", "summary": "", "files": [],
                           "skipped": skipped_note(options.get("skipped"))}
    if any(entry["problem"] for entry in inputs):
        out["verdict"] = "Some files need a path before they can be linted."
        return out
    if not texts:
        out.update(tone="pending", verdict="Add the files of a kustomization (or drop its "
                                            "folder) to lint them.")
        return out
    memory = MemoryFiles(texts)
    try:
        report = lint_files(memory)
    except CfgPatchError as exc:
        out["error"] = _error(exc)
        out["verdict"] = "The configuration cannot be used: " + exc.message
        return out
    doc = report.to_dict()
    out.update(ok=True, report=doc, tone=_tone(report), verdict=_verdict(report),
               summary=summary(report) if report.targets else "",
               files=_groups(report, doc["findings"], texts))
    return out


__all__ = ["lint_json", "lint_view", "read_files", "skipped_note"]
