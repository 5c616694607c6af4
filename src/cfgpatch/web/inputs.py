"""Reading the page's two texts, reusing what the previous recompute read.

The page recomputes after every pause in typing, and most edits change little:

* the patch is read once per text and ``--type`` (:func:`reader.load_patch`) and
  remembered, so an edit of the object does not read the patch again; a YAML patch
  (anything not starting with ``{``) reads the same for every type, so it is read once
  for all three;
* the object is read as :func:`reader.load_object` reads it.  For YAML, the document
  nodes PyYAML composed are kept.  When the next text differs from the last one only
  inside one plain scalar that ends its line (what typing a value or a key does), the
  kept nodes get the new scalar text and are converted to kubectl's values again,
  skipping PyYAML's scanner and parser, the slowest part.  Every other edit, and any
  text that fails, is read from scratch by ``reader.load_object`` itself.

Callers get their own copies: the engine may change what it is given.  One reader may
be shared by threads (a lock keeps what it remembers consistent).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from ..errors import CfgPatchError
from ..jsonvalue import JSON, deep_copy

#: A plain scalar that reads as the same single token wherever a plain scalar may stand
#: (block or flow context): no indicator first, no ``:``, ``#``, flow punctuation, quotes,
#: tabs or trailing space, and no character PyYAML counts as a line break.
_SAFE_SCALAR = re.compile(r"(?:[A-Za-z0-9_./~=+(^$<;]|-(?=\S))"
                          r"[A-Za-z0-9_./~=+()^$<>;@!&*%?\- ]*")
_LINE_BREAKS = ("\r", "\x85", "\u2028", "\u2029")


def _safe_scalar(text: str) -> bool:
    return bool(_SAFE_SCALAR.fullmatch(text)) and not text.endswith(" ")


@dataclass
class _ObjectRead:
    """The last object text, what it gave, and for YAML the nodes to edit in place."""

    text: str
    obj: JSON
    notes: list
    docs: list | None = None
    #: line number -> [(column, scalar node)] for plain scalars that end their line
    scalars: dict[int, list] = field(default_factory=dict)


class InputReader:
    """Reads object and patch texts like ``cfgpatch kube patch``, remembering the last."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._object: _ObjectRead | None = None
        self._patch_text: str | None = None
        self._patches: dict[str, Any] = {}
        #: how the last object was read: "same", "scalar edit", "yaml" or "full"
        self.last_object_read = ""

    # -- the patch ---------------------------------------------------------------------

    def patch(self, text: str, patch_type: str) -> tuple[JSON, list]:
        """``reader.load_patch(text, patch_type)``: a copy, or the same error."""
        with self._lock:
            return self._patch(text, patch_type)

    def _patch(self, text: str, patch_type: str) -> tuple[JSON, list]:
        from ..kube.go import jsondecode
        from ..kube.io import reader

        if text != self._patch_text:
            self._patch_text, self._patches = text, {}
        key = patch_type if text and jsondecode.first_non_space(text) == "{" else "yaml"
        if key not in self._patches:
            try:
                self._patches[key] = reader.load_patch(text, patch_type)
            except CfgPatchError as exc:
                self._patches[key] = exc
        found = self._patches[key]
        if isinstance(found, CfgPatchError):
            raise found
        patch, notes = found
        return deep_copy(patch), list(notes)

    # -- the object --------------------------------------------------------------------

    def object(self, text: str) -> tuple[JSON, list]:
        """``reader.load_object(text)``: a copy, or the same error."""
        with self._lock:
            return self._read_object(text)

    def _read_object(self, text: str) -> tuple[JSON, list]:
        last = self._object
        if last is not None and last.text == text:
            self.last_object_read = "same"
        elif last is not None and last.docs is not None and self._edit_scalar(last, text):
            self.last_object_read = "scalar edit"
        else:
            self._object = None
            self._object = self._read(text)
        read = self._object
        assert read is not None  # each branch above leaves the text's reading there
        return deep_copy(read.obj), list(read.notes)

    def _read(self, text: str) -> _ObjectRead:
        from ..kube.go import jsondecode
        from ..kube.io import reader

        if jsondecode.first_non_space(text) != "{" and not any(b in text for b in _LINE_BREAKS):
            try:
                docs = reader.compose_documents(text)
                obj, notes = reader.object_from_nodes(docs)
            except Exception:  # noqa: BLE001 - the reader itself gives the error below
                pass
            else:
                self.last_object_read = "yaml"
                return _ObjectRead(text, obj, notes, docs, _scalars_ending_lines(docs, text))
        self.last_object_read = "full"
        obj, notes = reader.load_object(text)
        return _ObjectRead(text, obj, notes)

    def _edit_scalar(self, last: _ObjectRead, text: str) -> bool:
        """Apply a one-scalar edit to the kept nodes; False when it is not one."""
        from ..kube.io import reader

        if any(b in text for b in _LINE_BREAKS):
            return False
        old_lines, new_lines = last.text.split("\n"), text.split("\n")
        if len(old_lines) != len(new_lines):
            return False
        changed = [i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
        if len(changed) != 1:
            return False
        line = changed[0]
        old, new = old_lines[line], new_lines[line]
        for column, node in last.scalars.get(line, ()):
            if old[column:] != node.value or old[:column] != new[:column]:
                continue
            value = new[column:]
            if not _safe_scalar(value):
                return False
            before = node.value
            node.value = value
            try:
                obj, notes = reader.object_from_nodes(last.docs)
            except Exception:  # noqa: BLE001 - read from scratch, the reader names the error
                node.value = before
                return False
            last.text, last.obj, last.notes = text, obj, notes
            return True
        return False


def _scalars_ending_lines(docs: list, text: str) -> dict[int, list]:
    """Plain scalar nodes written on one line, up to its end, by line number."""
    import yaml

    from ..kube.io import reader

    lines = text.split("\n")
    found: dict[int, list] = {}
    seen: set[int] = set()
    stack = list(docs)
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in node.value for item in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif node.tag == reader.PLAIN_TAG:
            start, end = node.start_mark, node.end_mark
            if (start.line == end.line and start.column > 0 and start.line < len(lines)
                    and lines[start.line][start.column:] == node.value):
                found.setdefault(start.line, []).append((start.column, node))
    return found


__all__ = ["InputReader"]
