"""What ``cfgpatch kube apply`` prints, cut into its parts, for the apply-mode tests
(the page must show the same patch, result and explanation as the command line)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from cfgpatch.cli import main


def cli_apply(tmp: Path, live: str, manifest: str, last: str = "", fmt: str = "yaml",
              overwrite: bool = True) -> dict:
    """Run ``cfgpatch kube apply`` on the texts; its output as
    ``{code, line, patch, result, notes, stderr}`` (``patch`` None when nothing is sent)."""
    (tmp / "manifest.yaml").write_text(manifest, encoding="utf-8")
    (tmp / "live.yaml").write_text(live, encoding="utf-8")
    argv = ["kube", "apply", "-f", str(tmp / "manifest.yaml"), "--live", str(tmp / "live.yaml"),
            "-o", fmt]
    if last.strip():
        (tmp / "last.yaml").write_text(last, encoding="utf-8")
        argv += ["--last-applied", str(tmp / "last.yaml")]
    if not overwrite:
        argv.append("--overwrite=false")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return {"code": code, "stderr": err.getvalue(), **_parts(out.getvalue())}


def _parts(text: str) -> dict:
    if not text:
        return {"line": "", "patch": None, "result": "", "notes": []}
    line, rest = text.split("\n", 1)
    patch = None
    if rest.startswith("# patch ("):
        _, patch, rest = rest.split("\n", 2)
    else:
        rest = rest.split("\n", 1)[1]
    head, _, explanation = rest.partition("# explanation")
    result = head.split("\n", 1)[1]
    notes = [note.removeprefix("#   ") for note in explanation.splitlines()[1:]]
    return {"line": line, "patch": patch, "result": result, "notes": notes}


def assert_same_refusal(cli_stderr: str, shown: str) -> None:
    """The page shows apimachinery's message of a patch kubectl cannot make (it has no
    file name for kubectl's wrapping); the CLI prints kubectl's whole message, which
    ends with it (``for:: ...``), then our hint."""
    message = cli_stderr.split("\ncfgpatch: ")[0].rstrip("\n")
    assert shown
    assert message.endswith(f"\nfor:: {shown.removeprefix('error: ').rstrip(chr(10))}")
