"""Where a field of a chart's output comes from: the chart's template file.

``kube build`` reads ``helm template``'s output as a file named ``helm template``, so its
blame names a line of that output.  Helm writes ``# Source: CHART/templates/FILE`` before
each document; the preview attributes the field to that template of the chart folder (as
the repository holds it) at the template line that writes the same key at the same
indentation (``image: {{ .Values.image }}`` for ``image: nginx:1.27``), else at the
template's first line.  A value that comes from ``values.yaml`` or ``valuesInline`` is
thus attributed to the template line that writes it, not to the value itself.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

HELM_FILE = "helm template"
_SOURCE = re.compile(r"^# Source: (\S+)")
_KEY = re.compile(r"^(\s*(?:- )?)([^\s:#][^:#]*?):(?:\s|$)")

Where = tuple[str, int]


class HelmBlame:
    """Maps ``("helm template", line)`` to a template file and line for one build's
    chart outputs (``(chart folder, output)`` in the order helm ran)."""

    def __init__(self, outputs: list[tuple[str, str]], read: Callable[[str], str]) -> None:
        self.outputs = [(chart, text.splitlines()) for chart, text in outputs]
        self.read = read
        self._templates: dict[str, list[str]] = {}

    def where(self, line: int, name: str) -> Where | None:
        """The template line for output line ``line`` of the object named ``name`` (the
        output that names it, else the first that has that line)."""
        named = re.compile(rf"\s*name: ['\"]?{re.escape(name)}['\"]?\s*$")
        for wanted in (True, False):
            found = self._where(line, named if wanted else None)
            if found is not None:
                return found
        return None

    def _where(self, line: int, named: re.Pattern | None) -> Where | None:
        for chart, lines in self.outputs:
            if not 0 < line <= len(lines):
                continue
            start = line - 1
            while start > 0 and lines[start].rstrip() != "---":
                start -= 1
            end = next((i for i in range(line, len(lines)) if lines[i].rstrip() == "---"),
                       len(lines))
            if named is not None and not any(named.match(t) for t in lines[start:end]):
                continue
            source = next((m.group(1) for t in reversed(lines[start:line])
                           if (m := _SOURCE.match(t))), None)
            if source is None:
                continue
            file = posixpath.join(chart, source.split("/", 1)[1]) if "/" in source else chart
            return file, self._line(file, lines[line - 1])
        return None

    def _line(self, file: str, text: str) -> int:
        if file not in self._templates:
            try:
                self._templates[file] = self.read(file).splitlines()
            except OSError:
                self._templates[file] = []
        lines = self._templates[file]
        if text.strip() and text in lines:  # a line the template writes as it is
            return lines.index(text) + 1
        found = _KEY.match(text)
        if found is None:
            return 1
        prefix, key = found.groups()
        for number, template in enumerate(self._templates[file], 1):
            other = _KEY.match(template)
            if other is not None and other.group(2) == key and \
                    len(other.group(1)) == len(prefix):
                return number
        return 1
