"""Asking several kubectl binaries the same cases, and storing their answers compactly.

Shared by the recording scripts whose corpus keeps kubectl 1.32's answer to each case,
``same_in`` (the other versions that answered the same) and the answers of the versions
that differ.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REFERENCE = "1.32"


def default_bin_dir() -> str:
    """The folder the ``kubectl`` on PATH links into (it holds ``kubectl.1.27`` ...)."""
    found = shutil.which("kubectl")
    return str(Path(os.path.realpath(found)).parent) if found else "."


def answer_of(proc: subprocess.CompletedProcess) -> dict:
    """A finished kubectl run as stored: stdout, stderr and exit code (bytes decoded as
    UTF-8, undecodable bytes kept; a Go panic, exit code 2, keeps its first line only, as
    the rest is a stack trace with addresses)."""
    stdout = proc.stdout.decode("utf-8", "surrogateescape")
    stderr = proc.stderr.decode("utf-8", "surrogateescape")
    if proc.returncode == 2:
        stderr = stderr.splitlines()[0] + "\n" if stderr else ""
    return {"stdout": stdout, "stderr": stderr, "exit_code": proc.returncode}


def ask_every_version(cases: list[dict], versions: tuple[str, ...], bin_dir: str, jobs: int,
                      run: Callable[[str, dict], dict]) -> dict[str, dict[str, dict]]:
    """``run(binary, case)`` for every case and version: case id -> version -> answer."""
    binaries = {v: str(Path(bin_dir) / f"kubectl.{v}") for v in versions}
    work = [(case, version) for case in cases for version in versions]
    with ThreadPoolExecutor(jobs) as pool:
        outcomes = list(pool.map(lambda job: run(binaries[job[1]], job[0]), work))
    results: dict[str, dict[str, dict]] = {}
    for (case, version), outcome in zip(work, outcomes, strict=True):
        results.setdefault(case["id"], {})[version] = outcome
    return results


def stored_lines(cases: list[dict], results: dict[str, dict[str, dict]],
                 versions: tuple[str, ...]) -> list[str]:
    """One JSON line per case: the case, 1.32's answer, ``same_in`` and differing answers."""
    lines = []
    for case in cases:
        answers = results[case["id"]]
        reference = answers[REFERENCE]
        stored = dict(case, kubectl={REFERENCE: reference})
        stored["same_in"] = [v for v in versions if v != REFERENCE and answers[v] == reference]
        stored["kubectl"].update({v: r for v, r in answers.items() if r != reference})
        lines.append(json.dumps(stored, sort_keys=True))
    return lines


def write_or_check(path: Path, lines: list[str], check: bool) -> int:
    """Write the recording ``lines`` to ``path``; with ``check``, write nothing and say how
    many lines differ from the file (the exit status: 1 when any do)."""
    if check:
        old = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        changed = sorted(set(lines) ^ set(old))
        print(f"{len(changed)} line(s) differ from the recording")
        return 1 if changed else 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


def record_cases(argv: list[str] | None, description: str, cases: list[dict],
                 versions: tuple[str, ...], run: Callable[[str, dict], dict],
                 path: Path) -> int:
    """The command line of a recorder whose stored cases are ``cases`` as they are:
    ``--bin-dir``, ``--jobs``, and ``--check`` (write nothing, report the lines that
    would change)."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--bin-dir", default=default_bin_dir())
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args(argv)
    results = ask_every_version(cases, versions, args.bin_dir, args.jobs, run)
    lines = stored_lines(cases, results, versions)
    if args.check:
        return write_or_check(path, lines, check=True)
    write_or_check(path, lines, check=False)
    differ = sum(1 for c in cases if len({json.dumps(r) for r in results[c["id"]].values()}) > 1)
    print(f"{len(cases)} cases recorded; {differ} differ between kubectl versions")
    return 0
