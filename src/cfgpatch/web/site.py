"""Export the built patch tester page as plain static files.

The page is built once (``make web``) into ``cfgpatch/web/static``; exporting
copies that folder so that any static file server can serve it (``python -m
http.server``, nginx, an object store).  Every URL inside the page is relative,
so the copy works at any path prefix.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..errors import CfgPatchError
from . import static_dir

#: The file that marks a folder as a previous export (safe to overwrite).
MARKER = "build.json"


class SiteError(CfgPatchError):
    """The site cannot be exported: not built, or the target is not ours to overwrite."""

    default_code = "site error"


def export_site(out_dir: str | Path, *, source: Path | None = None) -> Path:
    """Copy the built page into ``out_dir`` and return the path of its ``index.html``.

    ``out_dir`` may be missing, empty, or a previous export; any other non-empty
    folder is refused, so nobody's files are overwritten by accident.
    """
    source = source if source is not None else static_dir()
    if source is None:
        raise SiteError(
            "the page is not built",
            hint="run `make web` in the cfgpatch repository (needs Node.js 20 and npm)",
        )
    target = Path(out_dir)
    if target.exists() and not target.is_dir():
        raise SiteError(f"{target} exists and is not a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / MARKER).is_file():
        raise SiteError(
            f"{target} is not empty and is not a previous export",
            hint="choose an empty or new folder",
        )
    if target.resolve() == source.resolve():
        raise SiteError(f"{target} is the built site itself")
    try:
        if target.is_dir():
            shutil.rmtree(target)
        shutil.copytree(source, target)
    except OSError as exc:
        raise SiteError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target / "index.html"
