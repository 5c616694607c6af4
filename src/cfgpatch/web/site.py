"""Export the built patch tester page as plain static files.

The page is built once (``make web``) into ``cfgpatch/web/static``; exporting
copies that folder so that any static file server can serve it (``python -m
http.server``, nginx, an object store).  Every URL inside the page is relative,
so the copy works at any path prefix.

The build writes a gzip (``.gz``) and a brotli (``.br``) copy of every file that
compresses; the export makes sure each such file has its ``.gz`` (written here with
the standard library when missing) so that a server configured for precompressed
files (nginx ``gzip_static``/``brotli_static``, ``cfgpatch serve``) finds them.
Brotli copies come from the build (Node.js has brotli built in).
"""

from __future__ import annotations

import gzip
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
        add_gzip_copies(target)
    except OSError as exc:
        raise SiteError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target / "index.html"


#: Files that are not worth compressing (already compressed) or are the copies.
_PACKED = (".gz", ".br", ".zip", ".png", ".jpg", ".woff2")


def add_gzip_copies(folder: Path) -> list[Path]:
    """Write ``name.gz`` next to every file that lacks one and shrinks by at least 5 %;
    returns the files written."""
    written = []
    for path in sorted(folder.rglob("*")):
        gz = path.with_name(path.name + ".gz")
        if not path.is_file() or path.name.endswith(_PACKED) or gz.exists():
            continue
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) < 0.95 * len(data):
            gz.write_bytes(packed)
            written.append(gz)
    return written
