"""Which commits of base..head touched a line: ``git blame`` for the head side, the
base line followed forward through each commit's hunks for the base side.

A head-side line (a field that exists after the change) is blamed on the head commit
(or the working tree, with ``--contents``) with the range ``^base``, so a line older
than base is a boundary and names no commit.  A base-side line (a field that
disappeared) is followed from base through the first-parent commits of the range:
the first commit whose hunk covers it is the commit that removed or rewrote it (the
working tree last, when head is the working tree).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .gittree import WORKTREE, GitRepo

ZERO = "0" * 40
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)


@dataclass
class Commit:
    sha: str
    subject: str = ""
    author: str = ""

    def to_dict(self) -> dict:
        return {"sha": self.sha, "subject": self.subject, "author": self.author}


WORKING_TREE = Commit(ZERO, "(not committed yet)", "")


@dataclass
class Attributor:
    repo: GitRepo
    base: str
    head: str  # a commit, or WORKTREE
    _blame: dict[str, dict[int, str]] = field(default_factory=dict)
    _commits: dict[str, Commit] = field(default_factory=dict)
    _range: list[str] | None = None
    _all: set[str] | None = None
    _hunks: dict[tuple[str, str], list[tuple[int, int, int, int]]] = field(default_factory=dict)
    #: side ("base" or "head") -> a reader of that side's files (for :meth:`extent`)
    readers: dict[str, Callable[[str], str]] = field(default_factory=dict)
    _lines: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def extent(self, side: str, file: str, line: int) -> int:
        """The last line of the YAML block that starts at ``line``: a list element or a
        key with everything indented below it (a generator entry and its literals, an
        ``images`` entry and its ``newTag``); ``line`` itself for a scalar."""
        if not line or file.startswith("(") or side not in self.readers:
            return line
        key = (side, file)
        if key not in self._lines:
            try:
                self._lines[key] = self.readers[side](file).splitlines()
            except (OSError, KeyError):
                self._lines[key] = []
        lines = self._lines[key]
        if line > len(lines):
            return line
        start = lines[line - 1]
        indent = len(start) - len(start.lstrip(" "))
        last = line
        for number in range(line + 1, len(lines) + 1):
            text = lines[number - 1]
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            inner = len(text) - len(text.lstrip(" "))
            key_with_list = start.rstrip().endswith(":") and not start.lstrip().startswith("-")
            if inner > indent or (inner == indent and key_with_list
                                  and text.lstrip().startswith("- ")):
                last = number
                continue
            break
        return last

    def range(self) -> list[str]:
        if self._range is None:
            head = "HEAD" if self.head == WORKTREE else self.head
            self._range = self.repo.commits(self.base, head)
        return self._range

    def all_commits(self) -> set[str]:
        """Every commit of base..head (a merged branch's own commits included)."""
        if self._all is None:
            head = "HEAD" if self.head == WORKTREE else self.head
            self._all = set(self.repo.text("rev-list", f"{self.base}..{head}").split())
        return self._all

    def head_commits(self, file: str, line: int, end: int = 0) -> list[Commit]:
        """The commits of base..head that last wrote lines ``line``..``end`` of ``file``
        at head."""
        if not line or file.startswith("("):
            return []
        if file not in self._blame:
            self._blame[file] = self._run_blame(file)
        in_range = self.all_commits()
        found: dict[str, Commit] = {}
        for number in range(line, max(line, end) + 1):
            sha = self._blame[file].get(number)
            if sha == ZERO:
                found[sha] = WORKING_TREE
            elif sha is not None and sha in in_range:
                found[sha] = self.commit(sha)
        return list(found.values())

    def base_commits(self, file: str, line: int, end: int = 0) -> list[Commit]:
        """The commits of base..head that removed or rewrote lines ``line``..``end`` of
        ``file`` at base."""
        found: dict[str, Commit] = {}
        for number in range(line, max(line, end) + 1):
            for commit in self._base_commit(file, number):
                found[commit.sha] = commit
        return list(found.values())

    def _base_commit(self, file: str, line: int) -> list[Commit]:
        if not line or file.startswith("("):
            return []
        steps = [(c, f"{c}^") for c in self.range()]
        if self.head == WORKTREE:
            steps.append((ZERO, "HEAD"))
        for sha, parent in steps:
            touched, line = self._follow(parent, sha, file, line)
            if touched:
                return [WORKING_TREE if sha == ZERO else self.commit(sha)]
        return []

    def _follow(self, parent: str, sha: str, file: str, line: int) -> tuple[bool, int]:
        key = (sha, file)
        if key not in self._hunks:
            args = ["diff", "-U0", "--no-color", "--no-renames", parent]
            if sha != ZERO:
                args.append(sha)
            text = self.repo.text(*args, "--", file, check=False)
            self._hunks[key] = [(int(a), int(b) if b else 1, int(c),
                                 int(d) if d else 1)
                                for a, b, c, d in _HUNK.findall(text)]
        shift = 0
        for old, old_len, _new, new_len in self._hunks[key]:
            if old_len == 0:  # an insertion after line ``old``
                if line > old:
                    shift += new_len
                continue
            if old <= line < old + old_len:
                return True, line
            if line >= old + old_len:
                shift += new_len - old_len
        return False, line + shift

    def _run_blame(self, file: str) -> dict[int, str]:
        if self.head == WORKTREE:
            args = ["blame", "--porcelain", "--contents", file, f"^{self.base}", "--", file]
        else:
            args = ["blame", "--porcelain", f"{self.base}..{self.head}", "--", file]
        text = self.repo.text(*args, check=False)
        out: dict[int, str] = {}
        for match in re.finditer(r"^([0-9a-f]{40}) \d+ (\d+)(?: (\d+))?$", text, re.M):
            out[int(match[2])] = match[1]
        return out

    def commit(self, sha: str) -> Commit:
        if sha not in self._commits:
            text = self.repo.text("show", "-s", "--format=%s%x00%an", sha, check=False)
            subject, _, author = text.strip("\n").partition("\0")
            self._commits[sha] = Commit(sha, subject, author)
        return self._commits[sha]
