#!/usr/bin/env python3
"""Replay the inputs of kustomize's own build tests (api/krusty at a tag) through
``kubectl kustomize`` and ``kube build``, and compare the two.

The test files are read from a local git mirror of kustomize (nothing of them is kept
or committed).  A test is replayed when its body is a plain harness script: files
written with ``WriteK``/``WriteC``/``WriteF`` from string literals and one ``Run`` or
``RunWithErr`` with the default options; other tests (plugins enabled, helm, tables of
cases, files built in Go code) are counted as not replayable.  Each replayable test
is written to a temporary folder and built by ``kubectl.1.32 kustomize`` and by
``kube build`` (in this process); a test *passes* when both succeed with identical
output, or both fail with the same first line of error.

Usage:
    scripts/krusty_replay.py MIRROR [--tag kustomize/v5.5.0] [--only NAME] [--list FILE]

MIRROR is the git directory of kustomize's repository.  ``--list`` writes one line per
replayed test (name and outcome) to FILE.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from cfgpatch.kube.kustomize.build import BuildError, build  # noqa: E402

K_HEADER = "\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
C_HEADER = "\napiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"
_FUNC = re.compile(r"^func (Test\w+)\(t \*testing\.T\) \{\n(.*?)^\}", re.S | re.M)
_GO_STRING = r'(?:"(?:[^"\\\n]|\\.)*"|`[^`]*`)'
_CALL = re.compile(rf"th\.(WriteK|WriteC|WriteF)\(\s*({_GO_STRING})\s*,\s*({_GO_STRING})\s*\)",
                   re.S)
_RUN = re.compile(rf"th\.(Run|RunWithErr)\(\s*({_GO_STRING})\s*,\s*th\.MakeDefaultOptions\(\)\s*\)")
_ALLOWED = re.compile(r"th\.(WriteK|WriteC|WriteF|Run|RunWithErr|MakeDefaultOptions|"
                      r"AssertActualEqualsExpected|AssertActualEqualsExpectedNoIdAnnotations)\(")


def go_string(literal: str) -> str:
    if literal.startswith("`"):
        return literal[1:-1]
    return bytes(literal[1:-1], "utf-8").decode("unicode_escape")


def cases(mirror: str, tag: str) -> list[tuple[str, list | None, str | None]]:
    """(test name, [(call, path, content)], directory to build) per test; the calls are
    None for a test that is not a plain harness script."""
    names = subprocess.run(["git", "-C", mirror, "ls-tree", "--name-only", f"{tag}:api/krusty/"],
                           capture_output=True, text=True, check=True).stdout.split()
    out = []
    for name in sorted(n for n in names if n.endswith("_test.go")):
        text = subprocess.run(["git", "-C", mirror, "show", f"{tag}:api/krusty/{name}"],
                              capture_output=True, text=True, check=True).stdout
        for match in _FUNC.finditer(text):
            test, body = match.group(1), match.group(2)
            out.append((test, *_script(body)))
    return out


def _script(body: str) -> tuple[list | None, str | None]:
    runs = _RUN.findall(body)
    if len(runs) != 1 or "MakeHarness(t)" not in body:
        return None, None
    remaining = _CALL.sub("", _RUN.sub("", body))
    other = [m for m in re.findall(r"th\.\w+\(", remaining) if not _ALLOWED.match(m)]
    if other or re.search(r"\bfor\b|:= \[\]|tests :=|func\(", body):
        return None, None
    calls = [(kind, go_string(path), go_string(content))
             for kind, path, content in _CALL.findall(body)]
    if not calls:
        return None, None
    return calls, go_string(runs[0][1])


def write(root: Path, calls: list) -> None:
    for kind, path, content in calls:
        target = root / path.lstrip("/")
        if kind in ("WriteK", "WriteC"):
            target = target / "kustomization.yaml"
            content = (K_HEADER if kind == "WriteK" else C_HEADER) + content
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def kubectl(binary: str, directory: Path) -> tuple[int, str, str]:
    proc = subprocess.run([binary, "kustomize", str(directory)], capture_output=True,
                          text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def ours(directory: Path) -> tuple[int, str, str]:
    try:
        result = build(str(directory))
    except BuildError as err:
        code = 3 if err.code == "kustomize unmodelled" else 1
        return code, "", f"error: {err.message}\n"
    except Exception as err:  # a crash is a finding, not the end of the run
        return 99, "", f"crash: {type(err).__name__}: {err}\n"
    return 0, result.yaml(), ""


def first_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    return lines[0] if lines else ""


def outcome(theirs: tuple[int, str, str], mine: tuple[int, str, str]) -> str:
    if theirs[0] == 0:
        if mine[0] == 0:
            return "pass" if mine[1] == theirs[1] else "differs"
        return "not modelled" if mine[0] == 3 else ("crash" if mine[0] == 99 else "refused")
    if mine[0] == 0:
        return "builds what kubectl refuses"
    if mine[0] == 3:
        return "not modelled"
    return "pass" if first_error(mine[2]) == first_error(theirs[2]) else "other error text"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mirror")
    parser.add_argument("--tag", default="kustomize/v5.5.0")
    parser.add_argument("--only", help="replay only the tests whose name contains this")
    parser.add_argument("--list", help="write each test's outcome to this file")
    args = parser.parse_args()
    found = shutil.which("kubectl")
    binary = str(Path(found).resolve().parent / "kubectl.1.32") if found else ""
    if not binary or not Path(binary).exists():
        print("kubectl.1.32 next to kubectl on PATH is needed", file=sys.stderr)
        return 2
    all_cases = cases(args.mirror, args.tag)
    counts: Counter = Counter()
    kubectl_ok: Counter = Counter()
    lines = []
    for test, calls, directory in all_cases:
        if args.only and args.only not in test:
            continue
        if calls is None or directory is None:
            counts["not replayable"] += 1
            continue
        with tempfile.TemporaryDirectory() as work:
            root = Path(work)
            write(root, calls)
            target = root / directory.lstrip("/")
            theirs, mine = kubectl(binary, target), ours(target)
        result = outcome(theirs, mine)
        counts[result] += 1
        kubectl_ok["builds" if theirs[0] == 0 else "refuses"] += 1
        lines.append(f"{test}\t{'builds' if theirs[0] == 0 else 'refuses'}\t{result}")
    replayed = sum(v for k, v in counts.items() if k != "not replayable")
    print(f"tests: {sum(counts.values())}, replayable: {replayed} "
          f"(kubectl 1.32 builds {kubectl_ok['builds']}, refuses {kubectl_ok['refuses']})")
    for key, value in counts.most_common():
        print(f"  {key}: {value}")
    if args.list:
        Path(args.list).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
