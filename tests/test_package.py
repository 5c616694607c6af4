"""The package as people install it: a wheel and an sdist built from this tree, checked
by twine, installed into a fresh virtual environment with nothing else (no Node.js, no
make, no extras), and its command line and library used from there."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from conftest import require

ROOT = Path(__file__).resolve().parent.parent
WHEEL_LIMIT = 2 * 1024 * 1024

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: app
        image: app:1
"""


def _run(argv: list, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                          timeout=600, **kwargs)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The sdist and the wheel, built from a copy of the tracked tree (as a clone has it)."""
    require(shutil.which("git") is not None, "git is not installed")
    out = tmp_path_factory.mktemp("dist")
    tree = tmp_path_factory.mktemp("tree")
    files = _run(["git", "ls-files", "-z"], cwd=ROOT).stdout.split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tree / name)
    # a built page beside the sources must stay out of both archives
    static = tree / "src" / "cfgpatch" / "web" / "static"
    static.mkdir(parents=True, exist_ok=True)
    (static / "build.json").write_text("{}")
    (static / "index.html").write_text("<html></html>")
    done = _run([sys.executable, "-m", "build", "--outdir", out, tree])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def _one(dist: Path, pattern: str) -> Path:
    (found,) = dist.glob(pattern)
    return found


def test_the_wheel_is_small_and_holds_no_page(dist):
    wheel = _one(dist, "*.whl")
    assert wheel.stat().st_size < WHEEL_LIMIT
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert not [n for n in names if n.startswith("cfgpatch/web/static/")]
    for needed in ("cfgpatch/py.typed", "cfgpatch/kube/schema/data/builtin.json",
                   "cfgpatch/kube/kustomize/data/kustomize.json"):
        assert needed in names, needed
    assert any(n.endswith("licenses/LICENSE") for n in names)


def test_the_sdist_holds_no_page(dist):
    with tarfile.open(_one(dist, "*.tar.gz")) as sdist:
        names = sdist.getnames()
    assert not [n for n in names if "/web/static/" in n]
    assert any(n.endswith("/LICENSE") for n in names)


def test_twine_accepts_both(dist):
    done = _run([sys.executable, "-m", "twine", "check", "--strict",
                 _one(dist, "*.whl"), _one(dist, "*.tar.gz")])
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_package_description_has_no_link_that_breaks_off_the_repository():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / meta["readme"]["file"]).read_text()
    targets = re.findall(r"\]\(([^)]*)\)", text) + re.findall(r"src=\"([^\"]*)\"", text)
    assert all(t.startswith(("https://", "http://")) for t in targets), targets


@pytest.fixture(scope="module")
def installed(dist, tmp_path_factory) -> Path:
    """A fresh virtual environment with the wheel alone (its one dependency from the index)."""
    venv = tmp_path_factory.mktemp("venv")
    done = _run([sys.executable, "-m", "venv", venv])
    assert done.returncode == 0, done.stderr
    pip = _run([venv / "bin" / "python", "-m", "pip", "install", "-q", _one(dist, "*.whl")])
    assert pip.returncode == 0, pip.stderr
    return venv


def _cfgpatch(venv: Path, *args, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return _run([venv / "bin" / "cfgpatch", *args], cwd=cwd, env=env)


def test_the_installed_command_line_works(installed, tmp_path):
    (tmp_path / "deploy.yaml").write_text(DEPLOYMENT)
    patched = _cfgpatch(installed, "kube", "patch", "-f", "deploy.yaml", "--type", "strategic",
                        "-p", '{"spec":{"replicas":3}}', "-o", "yaml", cwd=tmp_path)
    assert patched.returncode == 0, patched.stderr
    assert "replicas: 3" in patched.stdout

    app = tmp_path / "app"
    app.mkdir()
    (app / "deploy.yaml").write_text(DEPLOYMENT)
    (app / "kustomization.yaml").write_text("resources: [deploy.yaml]\nnamePrefix: prod-\n")
    built = _cfgpatch(installed, "kube", "build", "app", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert "name: prod-web" in built.stdout

    linted = _cfgpatch(installed, "lint", "app", cwd=tmp_path)
    assert linted.returncode in (0, 1), linted.stdout + linted.stderr

    (tmp_path / "a.json").write_text('{"a": 1}')
    (tmp_path / "b.json").write_text('{"a": 2}')
    diffed = _cfgpatch(installed, "diff", "a.json", "b.json", cwd=tmp_path)
    assert diffed.returncode == 0, diffed.stderr
    assert diffed.stdout.strip() == '[{"op":"replace","path":"/a","value":2}]'

    version = _cfgpatch(installed, "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("cfgpatch "), version


def test_the_installed_library_exports_the_kube_api(installed, tmp_path):
    code = "from cfgpatch.kube import patch, build, apply, diff, upgrade, read, dump; print('ok')"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = _run([installed / "bin" / "python", "-c", code], cwd=tmp_path, env=env)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
