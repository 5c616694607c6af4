"""Helpers for the command-line tests: input files in a temporary folder, and one call of
``cfgpatch.cli.main`` with what it printed."""

from __future__ import annotations

import json
from pathlib import Path

from cfgpatch.cli import main


def write_inputs(folder: Path, files: dict[str, object]) -> Path:
    """Write ``files`` (name -> text, or a JSON value written as JSON) into ``folder``."""
    for name, content in files.items():
        text = content if isinstance(content, str) else json.dumps(content)
        (folder / name).write_text(text)
    return folder


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """``cfgpatch ARGV...`` in process: the exit status, stdout and stderr."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
