"""What ``cfgpatch kube apply --server-side`` prints, for the page's server-side tests
(the page must show the same stored object, conflict text and explanation)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from cfgpatch.cli import main

TIME = "2026-12-07T00:00:00Z"


def cli_server_side(tmp: Path, live: str, manifest: str, crd: str = "", *,
                    manager: str = "", force: bool = False, fmt: str = "yaml",
                    time: str = TIME) -> dict:
    """``{code, out, explain, error}``: the printed object, the ``--explain`` lines and
    the error text (``error: ...`` and what follows) of a run on the texts."""
    (tmp / "manifest.yaml").write_text(manifest, encoding="utf-8")
    argv = ["kube", "apply", "--server-side", "-f", str(tmp / "manifest.yaml"),
            "-o", fmt, "--explain", "--time", time]
    if live.strip():
        (tmp / "live.yaml").write_text(live, encoding="utf-8")
        argv += ["--live", str(tmp / "live.yaml")]
    if crd.strip():
        (tmp / "crd.yaml").write_text(crd, encoding="utf-8")
        argv += ["--crd", str(tmp / "crd.yaml")]
    if manager:
        argv += ["--field-manager", manager]
    if force:
        argv.append("--force-conflicts")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    text = "\n" + err.getvalue()
    explain, _, error = text.partition("\nerror: ")
    error = error.split("\ncfgpatch: ")[0]  # our hint after kubectl's text
    lines = explain.strip("\n").split("\n") if explain.strip("\n") else []
    return {"code": code, "out": out.getvalue(), "explain": lines,
            "error": f"error: {error}".rstrip("\n") if error else ""}
