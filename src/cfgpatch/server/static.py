"""Serving the built patch tester page: precompressed files, cache headers, ETags.

``web/build.mjs`` (and ``cfgpatch site build``) write next to each file that
compresses a gzip (``.gz``) and a brotli (``.br``) copy.  :class:`StaticSite`, an ASGI
app, answers ``GET`` and ``HEAD`` for the files of such a folder:

* the representation: brotli when the request's ``Accept-Encoding`` allows ``br`` and
  the ``.br`` file exists, else gzip, else the file itself (RFC 9110 section 12.5.3:
  codings with ``q=0`` are refused; ``identity`` is acceptable unless refused), with
  ``Content-Encoding`` and ``Vary: Accept-Encoding`` whenever the file has variants;
* caching: a file whose name (or folder name) holds its content's hash
  (``app.3f2a…d1.js``, ``pyodide-8545…/``) never changes, so it is
  ``Cache-Control: public, max-age=31536000, immutable``; anything else (``index.html``)
  is ``no-cache``, to be revalidated on every use;
* validators: a strong ``ETag`` per representation (the digest of the file's content,
  with ``-br`` or ``-gzip`` for an encoded one, RFC 9110 section 8.8.3.3), and
  ``If-None-Match`` answered with ``304 Not Modified`` (weak comparison, ``*``, lists).

Digests are computed once per file and kept (the folder is a build output: it does
not change while it is served).  Paths are resolved inside the folder only.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path

from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.types import Receive, Scope, Send

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
#: A content hash in a file or folder name, as build.mjs writes it.
_HASHED = re.compile(r"(?:^|[./-])[0-9a-f]{12}(?:[./]|$)")
#: Preference order of the encodings we have files for (file suffix, coding name).
_ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
          ".json": "application/json", ".css": "text/css", ".html": "text/html",
          ".zip": "application/zip", ".bin": "application/octet-stream",
          ".txt": "text/plain"}


def accepted_codings(header: str | None) -> dict[str, float]:
    """``Accept-Encoding`` as {coding: qvalue}; ``*`` stands for codings not named.

    >>> accepted_codings("gzip;q=0.5, br, identity;q=0")
    {'gzip': 0.5, 'br': 1.0, 'identity': 0.0}
    """
    out: dict[str, float] = {}
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        out[name] = quality
    return out


def choose_coding(header: str | None, available: tuple[str, ...]) -> str | None:
    """The coding to send (``None`` for the file itself), or ``""`` when the request
    refuses every representation we have (then 406)."""
    if header is None:
        return None  # no preference stated: the file as it is (RFC 9110 12.5.3)
    accepted = accepted_codings(header)
    star = accepted.get("*")

    def quality(name: str) -> float:
        return accepted.get(name, star if star is not None else 0.0)

    best = max((c for c in available if quality(c) > 0), key=quality, default=None)
    identity = accepted.get("identity", star if star is not None and star == 0 else 1.0)
    if best is not None and quality(best) >= identity:
        return best
    return None if identity > 0 else ""


def _tags(header: str) -> list[str]:
    """The entity tags of an ``If-None-Match`` value, opaque parts for weak comparison."""
    return [tag.removeprefix("W/") for tag in re.findall(r'(?:W/)?"[^"]*"|\*', header)]


@dataclass
class _File:
    path: Path
    variants: dict[str, Path] = field(default_factory=dict)
    digest: str = ""

    def etag(self, coding: str | None) -> str:
        if not self.digest:
            hashed = hashlib.sha256()
            with self.path.open("rb") as stream:
                for chunk in iter(lambda: stream.read(1 << 20), b""):
                    hashed.update(chunk)
            self.digest = hashed.hexdigest()[:20]
        return f'"{self.digest}-{coding}"' if coding else f'"{self.digest}"'


class StaticSite:
    """An ASGI app serving the files of ``directory`` (see the module docstring)."""

    def __init__(self, directory: Path) -> None:
        self.root = Path(directory).resolve()
        self._files: dict[str, _File | None] = {}

    def _lookup(self, url_path: str) -> _File | None:
        if url_path in self._files:
            return self._files[url_path]
        found = None
        relative = url_path.lstrip("/") or "index.html"
        if relative.endswith("/"):
            relative += "index.html"
        candidate = (self.root / relative).resolve()
        if candidate.is_relative_to(self.root) and candidate.is_file() \
                and "\x00" not in relative:
            found = _File(candidate, {coding: candidate.with_name(candidate.name + suffix)
                                      for coding, suffix in _ENCODINGS
                                      if candidate.with_name(candidate.name + suffix).is_file()})
        if len(self._files) < 10000:
            self._files[url_path] = found
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = self.respond(scope)
        await response(scope, receive, send)

    def respond(self, scope: Scope) -> Response:
        if scope["method"] not in ("GET", "HEAD"):
            return PlainTextResponse("method not allowed", 405, headers={"Allow": "GET, HEAD"})
        found = self._lookup(scope["path"])
        if found is None:
            return PlainTextResponse("not found", 404)
        headers = {key.decode("latin-1").lower(): value.decode("latin-1")
                   for key, value in scope.get("headers", [])}
        coding = choose_coding(headers.get("accept-encoding"), tuple(found.variants))
        if coding == "":
            return PlainTextResponse("no acceptable encoding", 406)
        relative = found.path.relative_to(self.root).as_posix()
        out = {
            "cache-control": IMMUTABLE if _HASHED.search(relative) else REVALIDATE,
            "etag": found.etag(coding),
        }
        if found.variants:
            out["vary"] = "Accept-Encoding"
        condition = headers.get("if-none-match")
        if condition is not None:
            tags = _tags(condition)
            if "*" in tags or out["etag"] in tags:
                return Response(status_code=304, headers=out)
        if coding:
            out["content-encoding"] = coding
        path = found.variants[coding] if coding else found.path
        media = _TYPES.get(found.path.suffix) or mimetypes.guess_type(found.path.name)[0] \
            or "application/octet-stream"
        if media.startswith("text/") or media == "application/json":
            media += "; charset=utf-8"
        return FileResponse(path, headers=out, media_type=media, stat_result=path.stat())
