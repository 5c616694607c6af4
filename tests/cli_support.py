"""Helpers for the command-line tests: input files in a temporary folder, and one call of
``cfgpatch.cli.main`` with what it printed."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
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


def run_kube_in_folder(files: dict[str, str | bytes], argv: list[str]) -> dict:
    """``cfgpatch kube ARGV`` in process, in a scratch folder holding ``files`` (text
    written as UTF-8, bytes as they are): its stdout, stderr and exit code."""
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files.items():
            data = text if isinstance(text, bytes) else text.encode("utf-8")
            (Path(folder) / name).write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        here = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["kube", *argv])
        finally:
            os.chdir(here)
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "exit_code": code}


def assert_agrees(ours: dict, kubectl: dict) -> None:
    """``cfgpatch kube`` answered as kubectl did: same exit code and standard output,
    standard error starting with kubectl's (and equal to it on success)."""
    assert ours["exit_code"] == kubectl["exit_code"], (ours["stderr"], kubectl["stderr"])
    assert ours["stdout"] == kubectl["stdout"]
    assert ours["stderr"].startswith(kubectl["stderr"]), ours["stderr"]
    if kubectl["exit_code"] == 0:
        assert ours["stderr"] == kubectl["stderr"]
