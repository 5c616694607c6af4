"""Where a field of a chart's output comes from: the chart's template file.

``kube build`` reads ``helm template``'s output as a file named ``helm template``, so its
blame names a line of that output.  Helm writes ``# Source: CHART/templates/FILE`` before
each document; the preview attributes the field to that template of the chart folder (as
the repository holds it) at the template line that writes the same key at the same
indentation (``image: {{ .Values.image }}`` for ``image: nginx:1.27``), else at the
template's first line.  When that template line writes a value (``{{ .Values.image }}``),
the value's own lines are added (:meth:`HelmBlame.values`): the ``valuesInline`` entry of
the kustomization's ``helmCharts`` item that names the chart (the kustomization is found
above the chart home), else the chart's ``values.yaml``, whichever sets that key (inline
first, as kustomize merges them by default).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

HELM_FILE = "helm template"
_SOURCE = re.compile(r"^# Source: (\S+)")
_KEY = re.compile(r"^(\s*(?:- )?)([^\s:#][^:#]*?):(?:\s|$)")
_VALUE = re.compile(r"\.Values((?:\.[A-Za-z_]\w*)+)")
_KUSTOMIZATIONS = ("kustomization.yaml", "kustomization.yml", "Kustomization")

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

    def _lines(self, file: str) -> list[str]:
        if file not in self._templates:
            try:
                self._templates[file] = self.read(file).splitlines()
            except OSError:
                self._templates[file] = []
        return self._templates[file]

    def values(self, where: Where) -> list[Where]:
        """The lines that set the values template line ``where`` writes."""
        file, line = where
        lines = self._lines(file)
        if not 0 < line <= len(lines) or "/templates/" not in file:
            return []
        chart = file.split("/templates/", 1)[0]
        out: list[Where] = []
        for found in _VALUE.finditer(lines[line - 1]):
            keys = found.group(1).strip(".").split(".")
            place = self._inline(chart, keys) or self._in_file(
                posixpath.join(chart, "values.yaml"), keys)
            if place is not None and place not in out:
                out.append(place)
        return out

    def _in_file(self, file: str, keys: list, prefix: tuple = ()) -> Where | None:
        from ..lint.yamlpos import tree_values

        try:
            documents = tree_values(self.read(file))
        except (OSError, ValueError, RecursionError):
            return None
        if not documents:
            return None
        tree, value = documents[0]
        current = value
        for key in [*prefix, *keys]:
            if not isinstance(current, (dict, list)):
                return None
            if isinstance(current, dict):
                if key not in current:
                    return None
                current = current[key]
            else:
                if not isinstance(key, int) or key >= len(current):
                    return None
                current = current[key]
        span, depth = tree.find([*prefix, *keys])
        return (file, span.line) if depth == len(prefix) + len(keys) else None

    def _inline(self, chart: str, keys: list) -> Where | None:
        """The ``valuesInline`` line of the kustomization above the chart home that
        inflates ``chart`` (``<kustomization>/<home>/<name>``)."""
        name = posixpath.basename(chart)
        folder = posixpath.dirname(chart)
        while folder:
            folder = posixpath.dirname(folder)
            for base in _KUSTOMIZATIONS:
                path = posixpath.join(folder, base) if folder else base
                try:
                    text = self.read(path)
                except OSError:
                    continue
                place = self._inline_in(path, text, name, keys)
                if place is not None:
                    return place
            if not folder:
                break
        return None

    def _inline_in(self, path: str, text: str, name: str, keys: list) -> Where | None:
        if "helmCharts" not in text or "valuesInline" not in text:
            return None
        from ..lint.yamlpos import tree_values

        try:
            documents = tree_values(text)
        except (ValueError, RecursionError):
            return None
        value = documents[0][1] if documents else None
        charts = value.get("helmCharts") if isinstance(value, dict) else None
        for index, chart in enumerate(charts if isinstance(charts, list) else []):
            if isinstance(chart, dict) and chart.get("name") == name:
                return self._in_file(path, keys, ("helmCharts", index, "valuesInline"))
        return None

    def _line(self, file: str, text: str) -> int:
        lines = self._lines(file)
        if text.strip() and text in lines:  # a line the template writes as it is
            return lines.index(text) + 1
        found = _KEY.match(text)
        if found is None:
            return 1
        prefix, key = found.groups()
        for number, template in enumerate(lines, 1):
            other = _KEY.match(template)
            if other is not None and other.group(2) == key and \
                    len(other.group(1)) == len(prefix):
                return number
        return 1
