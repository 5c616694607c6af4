"""Several objects in the page's object editor (``---`` between them, or a ``List``).

``kubectl patch --local -f FILE`` patches every object of a file in turn: it prints each
result (one after the other, no separator) and exits 0 when every one was patched; an
object that cannot be patched is reported at the end and the exit status is 1, the
other objects printed all the same.  The command line does the same
(``cfgpatch kube patch``); this module gives the page that behaviour: every object is
run through :func:`.bridge.run_type` with the one patch, and the per-object results are
joined into the page's usual result and view for each type:

* ``results[type]``: ``{"ok", "objects", "changes", "findings"}`` (``objects`` in file
  order; ``changes`` and ``findings`` carry ``object``, the object's index);
* ``views[type]``: the verdict (how many objects, and what each lost), the lines of every
  printed result one after the other (as kubectl prints them), "What changed" with one
  heading entry per object, the findings with the object named and the line in the joined
  text, the command lines.
"""

from __future__ import annotations

from typing import Any

from ..errors import CfgPatchError
from . import render, wording
from .printed import printed_lines


def several(text: str) -> bool:
    """Whether the object text holds more than one YAML document (JSON is one object)."""
    from ..kube.go import jsondecode
    from ..kube.io import docsplit

    if not text or jsondecode.first_non_space(text) == "{":
        return False
    count = 0
    try:
        for piece in docsplit.pieces(text):
            if piece.strip() and not all(line.lstrip().startswith("#") or not line.strip()
                                         for line in piece.splitlines()):
                count += 1
            if count == 2:
                return True
    except docsplit.SeparatorError:
        return False
    return False


def read_objects(text: str) -> tuple[list[tuple[dict, list]], CfgPatchError | None]:
    """The objects of the text, as kubectl's stream reads them, and the first error that
    stopped or broke the reading (``None`` when all were read)."""
    from ..kube.io import reader

    objects: list[tuple[dict, list]] = []
    error: CfgPatchError | None = None
    try:
        for item in reader.load_objects(text):
            if isinstance(item, CfgPatchError):
                error = error or item
            else:
                objects.append(item)
    except CfgPatchError as exc:
        error = error or exc
    return objects, error


def label(obj: Any) -> str:
    """``ConfigMap a``: how the page names one object of several."""
    if not isinstance(obj, dict):
        return "an object"
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    name = meta.get("name")
    if not isinstance(name, str):
        name = "(no name)"
    kind = obj.get("kind")
    if not isinstance(kind, str):
        kind = "object"
    return f"{kind} {name}"


def compute_type(inputs: Any, objects: list, patch_type: str, run_type: Any) -> tuple[dict, dict]:
    """Every object patched with one type: the joined result and view."""
    runs = []
    for obj, notes in objects:
        inputs.obj, inputs.notes = obj, list(notes)
        runs.append(run_type(inputs, patch_type))
    failed = [(index, view) for index, (result, view, _o) in enumerate(runs) if not result["ok"]]
    if failed:
        return _rejected(objects, runs, failed)
    result: dict[str, Any] = {"ok": True, "objects": [], "changes": [], "findings": []}
    view: dict[str, Any] = {"lines": [], "changes": [], "findings": [], "losses": [],
                            "differs": [], "same_as": [], "objects": len(objects),
                            "command": runs[0][1].get("command"),
                            "dry_run": runs[0][1].get("dry_run")}
    counts = []
    for index, ((obj, _notes), (one, one_view, outcome)) in enumerate(zip(objects, runs)):
        name = label(obj)
        result["objects"].append(one["object"])
        result["changes"] += [{**change, "object": index} for change in one["changes"]]
        result["findings"] += [{**finding, "object": index} for finding in one["findings"]]
        try:
            lines = printed_lines(outcome.object, inputs.format)
        except CfgPatchError:
            lines = []
        offset = len(view["lines"])
        view["lines"] += render.marked_lines(lines, outcome.changes, outcome.findings, [])
        count = len(outcome.changes)
        counts.append(f"{name} ({count} change{'s' if count != 1 else ''})")
        view["changes"].append({"symbol": "#", "kind": "object", "path": name,
                                "text": f"object {index + 1} of {len(objects)}"})
        view["changes"] += one_view.get("changes", [])
        view["losses"] += [f"{loss} in {name}" for loss in wording.losses(outcome.changes)]
        for finding in outcome.findings:
            entry = finding.to_dict()
            line = render.finding_line(lines, finding.path)
            entry["line"] = None if line is None else line + offset
            entry["message"] = f"{name}: {entry['message']}"
            view["findings"].append(entry)
    total = len(result["changes"])
    lost = f", and {wording.joined(view['losses'])}" if view["losses"] else ""
    view["verdict"] = (f"Accepted: {len(objects)} objects patched, {total} change"
                       f"{'s' if total != 1 else ''} in all ({'; '.join(counts)}){lost} "
                       f"(kubectl would exit 0 and print each result in turn).")
    return result, view


def _rejected(objects: list, runs: list, failed: list) -> tuple[dict, dict]:
    """Some object could not be patched: kubectl prints the others, then the errors, and
    exits 1."""
    index, first = failed[0]
    name = label(objects[index][0])
    error = dict(first.get("error") or {"plain": first.get("verdict", ""), "kubectl": ""})
    others = len(objects) - len(failed)
    same = len(failed) == len(objects) and len({runs[i][0]["error"] for i, _v in failed}) == 1
    who = (f"Every object ({len(objects)})" if same
           else f"Object {index + 1} of {len(objects)} ({name})")
    error["plain"] = (f"{who}: {error['plain']}"
                      + (f" kubectl still prints the result of the {others} other object"
                         f"{'s' if others != 1 else ''}, then this error." if others else ""))
    error.pop("place", None) if index else None
    messages = [runs[i][0]["error"] for i, _v in failed]
    result = {"ok": False, "error": "; ".join(messages),
              "findings": [f for i, _v in failed for f in runs[i][0]["findings"]]}
    view = {"verdict": "Rejected: kubectl would exit 1 (an object could not be patched).",
            "error": error, "findings": [], "differs": [], "same_as": [],
            "objects": len(objects), "command": first.get("command"),
            "dry_run": first.get("dry_run")}
    return result, view
