"""Tests for cfgpatch.server.static: the built page served with precompressed files,
cache headers and entity tags (RFC 9110 content negotiation and conditional GET)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cfgpatch.server.static import IMMUTABLE, StaticSite, accepted_codings, choose_coding

BODY = "const x = 1;\n" * 400


@pytest.fixture
def site(tmp_path: Path) -> TestClient:
    (tmp_path / "index.html").write_text("<!doctype html><p>page</p>")
    (tmp_path / "app.0123456789ab.js").write_text(BODY)
    (tmp_path / "app.0123456789ab.js.gz").write_bytes(gzip.compress(BODY.encode()))
    (tmp_path / "app.0123456789ab.js.br").write_bytes(b"not really brotli")
    folder = tmp_path / "pyodide-0123456789ab"
    folder.mkdir()
    (folder / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(100))
    (tmp_path / "secret.txt").write_text("outside")
    root = tmp_path / "root"
    root.mkdir()
    for path in list(tmp_path.iterdir()):
        if path.name not in ("root", "secret.txt"):
            path.rename(root / path.name)
    return TestClient(StaticSite(root))


def test_brotli_gzip_or_the_file_by_accept_encoding(site):
    br = site.get("/app.0123456789ab.js", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert br.headers["content-encoding"] == "br" and br.headers["vary"] == "Accept-Encoding"
    gz = site.get("/app.0123456789ab.js", headers={"Accept-Encoding": "gzip"})
    assert gz.headers["content-encoding"] == "gzip" and gz.text == BODY  # httpx decodes it
    plain = site.get("/app.0123456789ab.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == BODY
    assert plain.headers["vary"] == "Accept-Encoding"
    assert plain.headers["content-type"].startswith("text/javascript")
    refused = site.get("/app.0123456789ab.js", headers={"Accept-Encoding": "br;q=0, gzip;q=0, *;q=0"})
    assert refused.status_code == 406


def test_hashed_names_are_immutable_and_the_page_is_revalidated(site):
    for path in ("/app.0123456789ab.js", "/pyodide-0123456789ab/pyodide.asm.wasm"):
        assert site.get(path).headers["cache-control"] == IMMUTABLE
    page = site.get("/")
    assert page.headers["cache-control"] == "no-cache" and "page" in page.text
    assert page.headers["content-type"].startswith("text/html")
    wasm = site.get("/pyodide-0123456789ab/pyodide.asm.wasm")
    assert wasm.headers["content-type"] == "application/wasm" and "vary" not in wasm.headers


def test_conditional_get_answers_304_per_representation(site):
    first = site.get("/", headers={"Accept-Encoding": "identity"})
    tag = first.headers["etag"]
    assert tag.startswith('"') and tag.endswith('"')
    again = site.get("/", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.headers["etag"] == tag and not again.content
    assert site.get("/", headers={"If-None-Match": f'"other", W/{tag}'}).status_code == 304
    assert site.get("/", headers={"If-None-Match": "*"}).status_code == 304
    assert site.get("/", headers={"If-None-Match": '"other"'}).status_code == 200
    br = site.get("/app.0123456789ab.js", headers={"Accept-Encoding": "br"}).headers["etag"]
    gz = site.get("/app.0123456789ab.js", headers={"Accept-Encoding": "gzip"}).headers["etag"]
    plain = site.get("/app.0123456789ab.js", headers={"Accept-Encoding": "identity"}).headers["etag"]
    assert len({br, gz, plain}) == 3  # a strong tag names one representation
    stale = site.get("/app.0123456789ab.js", headers={"Accept-Encoding": "gzip",
                                                      "If-None-Match": br})
    assert stale.status_code == 200


def test_head_missing_files_outside_paths_and_methods(site):
    head = site.head("/app.0123456789ab.js", headers={"Accept-Encoding": "identity"})
    assert head.status_code == 200 and head.content == b""
    assert int(head.headers["content-length"]) == len(BODY)
    assert site.get("/nothing.js").status_code == 404
    assert site.get("/../secret.txt").status_code == 404
    assert site.get("/%2e%2e/secret.txt").status_code == 404
    assert site.post("/").status_code == 405


def test_accept_encoding_parsing():
    assert accepted_codings("br;q=0.8, gzip") == {"br": 0.8, "gzip": 1.0}
    assert choose_coding(None, ("br", "gzip")) is None
    assert choose_coding("gzip, br", ("br", "gzip")) == "br"
    assert choose_coding("gzip;q=0.5", ("br", "gzip")) is None  # identity is preferred
    assert choose_coding("*", ("gzip",)) == "gzip"
    assert choose_coding("br", ()) is None
    assert choose_coding("identity;q=0", ("gzip",)) == ""
