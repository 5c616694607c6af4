"""The outcome of one lint run: findings, what was linted, and the texts to quote.

:class:`Report` is what every output format renders; :meth:`Report.to_dict` is the
``--format json`` document (and what :func:`cfgpatch.lint.lint_files` returns).
"""

from __future__ import annotations

from ..records import dataclass, field
from .finding import LintFinding
from .rules import LEVELS, level_rank

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

FORMAT_VERSION = 1


@dataclass
class Report:
    """What ``cfgpatch lint`` found: the findings, the targets linted, the files' texts."""

    findings: list[LintFinding]
    #: What was linted: {"kind": "kustomization"|"flux"|"standalone", "path": ..., "patches": n}
    targets: list[dict] = field(default_factory=list)
    #: The files' texts (path -> text), to quote offending lines; may be lazy.
    texts: Mapping[str, str] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        out = {level: 0 for level in reversed(LEVELS)}
        for finding in self.findings:
            out[finding.level] += 1
        return out

    def at_or_above(self, level: str) -> list[LintFinding]:
        rank = level_rank(level)
        return [f for f in self.findings if level_rank(f.level) >= rank]

    def build_failed(self) -> bool:
        return any(f.rule == "build-failed" for f in self.findings)

    def patch_count(self) -> int:
        return sum(t.get("patches", 0) for t in self.targets)

    def line(self, path: str, number: int) -> str | None:
        """Line ``number`` (1-based) of ``path``, if the text is known."""
        try:
            text = self.texts[path]
        except (KeyError, OSError, UnicodeDecodeError):
            return None
        lines = text.splitlines()
        return lines[number - 1] if 0 < number <= len(lines) else None

    def to_dict(self) -> dict:
        return {
            "version": FORMAT_VERSION,
            "findings": [f.to_dict() for f in self.findings],
            "summary": {**self.counts(), "files": len({f.location.file for f in self.findings}),
                        "linted": len(self.targets), "patches": self.patch_count()},
            "linted": self.targets,
        }
