"""Start-up guards of the command line: run ``cfgpatch WORDS...`` in a fresh interpreter
(this checkout's ``src`` first on the path) and say which of some modules it imported."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def run_noting_modules(words: list[str], cwd: Path, modules: Iterable[str]
                       ) -> tuple[subprocess.CompletedProcess, list[str]]:
    """The finished ``cfgpatch WORDS`` (its output without the last line) and which of
    ``modules`` it imported, sorted."""
    script = ("import sys\nfrom cfgpatch.cli import main\ncode = main(sys.argv[1:])\n"
              f"print(sorted(set({sorted(modules)!r}) & set(sys.modules)))\nsys.exit(code)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", script, *words], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=120)
    *output, last = done.stdout.splitlines(keepends=True) or [""]
    imported = ast.literal_eval(last) if last.startswith("[") else ["(no list printed)"]
    return subprocess.CompletedProcess(done.args, done.returncode, "".join(output),
                                       done.stderr), imported
