"""What the page says about a patch kubectl refuses: our words first, kubectl's second.

:func:`rejection` words the error (for a JSON Patch: which operation failed, and that
the ones before it were not applied either); :func:`past_end` says, for an index past a
list's end, how many elements the list has (instead of advice about missing parents).
"""

from __future__ import annotations

from typing import Any

from .wording import dotted


def past_end(state: Any, op: Any) -> str | None:
    """When a JSON Patch operation's path goes through a list index past the list's end,
    what to say instead of advice about missing parents: how many elements the list has.
    ``add`` may name the index just past the end (it appends), nothing beyond."""
    if not isinstance(op, dict) or not isinstance(op.get("path"), str):
        return None
    from ..pointer import parse_pointer

    try:
        tokens = parse_pointer(op["path"])
    except Exception:  # noqa: BLE001 - a bad pointer has its own error
        return None
    node, walked = state, ""
    for depth, token in enumerate(tokens):
        last = depth == len(tokens) - 1
        if isinstance(node, list):
            if not token.isdigit():
                return None
            index, size = int(token), len(node)
            allowed = size if (last and op.get("op") == "add") else size - 1
            if index > allowed:
                label = dotted(walked) or "the object"
                count = f"{size} element{'s' if size != 1 else ''}"
                span = f" (positions 0 to {size - 1})" if size > 1 else (
                    " (position 0)" if size == 1 else "")
                extra = f"; add at {size} appends" if op.get("op") == "add" and last else ""
                return (f"`{label}` has {count}{span}, so position {index} is past its "
                        f"end{extra}")
            node = node[index]
        elif isinstance(node, dict):
            if token not in node:
                return None
            node = node[token]
        else:
            return None
        walked += "/" + token.replace("~", "~0").replace("/", "~1")
    return None


def rejection(message: str, hint: str | None, op_index: int | None = None,
              op: Any = None, op_count: int = 0, past_end: str | None = None) -> dict:
    """``{"plain", "kubectl"}`` for a patch kubectl refuses: our words first (for a JSON
    Patch: which operation failed, and that the ones before it were not applied either;
    for an index past a list's end, how many elements the list has), kubectl's own text
    second."""
    cause = (past_end or hint or message).rstrip(".")
    cause = cause[0].upper() + cause[1:]
    plain = f"{cause}."
    if op_index is not None:
        cause = cause.removesuffix(", so nothing was applied")
        what = _op_label(op)
        plain = f"Operation {op_index}{what} failed: {cause[0].lower() + cause[1:]}."
        if op_index == 1:
            plain += " Operation 0 before it was not applied either"
        elif op_index > 1:
            plain += f" Operations 0 to {op_index - 1} before it were not applied either"
        elif op_count > 1:
            plain += " None of the operations was applied"
        if op_index or op_count > 1:
            plain += ": a JSON patch is applied completely or not at all."
    return {"plain": plain, "kubectl": f"error: {message}"}


def _op_label(op: Any) -> str:
    if not isinstance(op, dict) or not isinstance(op.get("op"), str):
        return ""
    path = op.get("path")
    return f" ({op['op']} {path})" if isinstance(path, str) else f" ({op['op']})"
