"""Tests for cfgpatch.web.site and ``cfgpatch site build``: exporting the built page."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfgpatch.cli import main
from cfgpatch.web import static_dir
from cfgpatch.web.site import SiteError, export_site
from conftest import require


@pytest.fixture
def fake_build(tmp_path: Path) -> Path:
    source = tmp_path / "static"
    (source / "py").mkdir(parents=True)
    (source / "index.html").write_text("<!doctype html>")
    (source / "app.js").write_text("// app")
    (source / "build.json").write_text("{}")
    (source / "py" / "cfgpatch.zip").write_bytes(b"PK")
    return source


def test_export_adds_gzip_copies_where_the_build_has_none(fake_build: Path, tmp_path: Path):
    import gzip

    (fake_build / "big.js").write_text("let x = 1;\n" * 500)
    index = export_site(tmp_path / "out", source=fake_build)
    packed = index.parent / "big.js.gz"
    assert gzip.decompress(packed.read_bytes()) == (fake_build / "big.js").read_bytes()
    assert not (index.parent / "py" / "cfgpatch.zip.gz").exists()  # zips are compressed
    assert not (index.parent / "index.html.gz").exists()  # too small to gain


def test_export_copies_every_file(fake_build: Path, tmp_path: Path):
    index = export_site(tmp_path / "out", source=fake_build)
    assert index == tmp_path / "out" / "index.html"
    copied = sorted(p.relative_to(tmp_path / "out").as_posix() for p in index.parent.rglob("*"))
    assert copied == ["app.js", "build.json", "index.html", "py", "py/cfgpatch.zip"]  # nothing shrinks


def test_export_replaces_a_previous_export(fake_build: Path, tmp_path: Path):
    out = tmp_path / "out"
    export_site(out, source=fake_build)
    (out / "stale.txt").write_text("old")
    export_site(out, source=fake_build)
    assert not (out / "stale.txt").exists()


def test_export_refuses_a_folder_that_is_not_ours(fake_build: Path, tmp_path: Path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    with pytest.raises(SiteError) as info:
        export_site(out, source=fake_build)
    assert "not empty" in info.value.message
    assert (out / "notes.txt").read_text() == "keep me"
    with pytest.raises(SiteError) as info:
        export_site(out / "notes.txt", source=fake_build)
    assert "not a folder" in info.value.message


def test_export_without_a_build_names_the_fix(tmp_path: Path, monkeypatch):
    monkeypatch.setattr("cfgpatch.web.site.static_dir", lambda: None)
    with pytest.raises(SiteError) as info:
        export_site(tmp_path / "out")
    assert "make web" in info.value.describe()


def test_cli_reports_errors_without_a_traceback(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.setattr("cfgpatch.web.site.static_dir", lambda: None)
    assert main(["site", "build", str(tmp_path / "out")]) == 1
    assert "the page is not built" in capsys.readouterr().err


def test_cli_exports_the_real_build(tmp_path: Path, capsys):
    require(static_dir() is not None, "the page is not built (run `make web`)")
    assert main(["site", "build", str(tmp_path / "site")]) == 0
    assert "http.server" in capsys.readouterr().out
    import json

    files = json.loads((static_dir() / "build.json").read_text())["files"]
    names = ["index.html", files["app"], files["worker"], files["boot"], files["style"],
             files["snapshot"], *files["archives"]]
    names += [files["pyodide"] + name for name in ("pyodide.mjs", "pyodide.asm.wasm",
                                                     "python_stdlib.zip")]
    for name in names:
        assert (tmp_path / "site" / name).is_file(), name
    for name in (files["app"], files["snapshot"], files["pyodide"] + "pyodide.asm.wasm"):
        for suffix in (".gz", ".br"):
            assert (tmp_path / "site" / (name + suffix)).is_file(), name + suffix
