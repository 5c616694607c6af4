"""Helm charts in the preview: each ref's vendored chart is read from that ref's git tree
and inflated as ``kubectl kustomize --enable-helm`` does; charts and bases that need the
network are a note per entry point, not a failure of the preview.

scripts/record_preview_helm.py built both refs of tests/data/preview/helm-refs with
``kubectl.1.32 kustomize --enable-helm`` through a shim around the real helm that logged
every call and a digest of the chart folder it read.  The replay answers the preview's
helm calls from that recording only when the arguments, the values and the chart folder's
digest are the recorded ones; the live tests run ../shared/bin/helm (required in CI).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from cfgpatch.lint.options import BuildOptions
from cfgpatch.preview.engine import Options, preview
from cfgpatch.preview.report import exit_status
from conftest import SHARED, require
from preview_support import commit, git, new_repo

DATA = Path(__file__).resolve().parent / "data" / "preview"
REFS, RECORDED = DATA / "helm-refs", json.loads((DATA / "recorded-helm.json").read_text())
HELM = SHARED / "bin" / "helm"
COPY = re.compile(r"/[^\s'\"]*?/cfgpatch-preview-helm-[^/\s'\"]+")


def _files(ref: str) -> dict[str, str]:
    top = REFS / ref
    return {p.relative_to(top).as_posix(): p.read_text() for p in sorted(top.rglob("*"))
            if p.is_file()}


def _repo(root: Path) -> tuple[str, str]:
    """The two refs as commits (head's files replace base's)."""
    base = new_repo(root, _files("base"))
    for path in list(root.iterdir()):
        if path.name != ".git":
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    return base, commit(root, "head", _files("head"))


def _digest(chart: str) -> list[list[str]]:
    out = []
    for top, dirs, names in os.walk(chart):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(top, name)
            with open(path, "rb") as handle:
                out.append([os.path.relpath(path, chart), hashlib.sha256(handle.read()).hexdigest()])
    return out


class ReplayHelm:
    """Answers a helm call from the recording when its arguments, values and chart folder
    are one ref's; ``answered`` lists which ref answered each ``helm template``."""

    def __init__(self, root: Path) -> None:
        self.root, self.files, self.answered = str(root), {}, []

    def make_temp_dir(self) -> str:
        return "$TMP"

    def write_file(self, path: str, data: bytes) -> None:
        self.files[path] = data

    def remove_tree(self, path: str) -> None:
        assert path == "$TMP"

    def run(self, command, args, env):
        assert env["HELM_CONFIG_HOME"] == "$TMP/helm"
        normal = [COPY.sub("$TREE", a).replace(self.root, "$TREE") for a in args]
        digest = _digest(args[2]) if args[0] == "template" else None
        for ref, builds in RECORDED.items():
            for build in builds.values():
                for call in build["helm_calls"]:
                    if call["args"] != normal or call["chart_digest"] != digest:
                        continue
                    if any(yaml.safe_load(self.files[p]) != yaml.safe_load(text)
                           for p, text in call["values"].items()):
                        continue
                    if digest is not None:
                        self.answered.append(ref)
                    return call["exit_code"], call["stdout"].encode(), call["stderr"].encode()
        raise AssertionError(f"no recorded helm call is {normal} with that chart and values")


def test_each_ref_inflates_its_own_chart_as_kubectl_kustomize_does(tmp_path):
    root = tmp_path / "repo"
    base, head = _repo(root)
    replay, kept = ReplayHelm(root), {}
    report = preview(Options(str(root), base, head, helm_runner=replay, keep=kept))
    old, new = kept["apps/web"]
    assert old.output == RECORDED["base"]["apps/web"]["stdout"]
    assert new.output == RECORDED["head"]["apps/web"]["stdout"]
    assert replay.answered == ["base", "head"]  # base's chart from base's git tree
    web = {o["kind"]: o for o in report["objects"] if o["entry_point"] == "apps/web"}
    assert {c["path"] for c in web["Deployment"]["changes"]} >= {
        "/spec/replicas", "/spec/template/spec/containers/0/image"}
    assert any(r["rule"] == "image" for r in web["Deployment"]["risks"])
    image = next(c for c in web["Deployment"]["changes"] if c["path"].endswith("/image"))
    assert [(w["file"], w["line"]) for w in image["attribution"]] == [
        ("apps/web/charts/web/templates/deploy.yaml", 19),  # image: {{ .Values.image }}
        ("apps/web/charts/web/values.yaml", 2)]  # image: nginx:1.27
    assert image["attribution"][1]["commits"][0]["subject"] == "head"
    replicas = next(c for c in web["Deployment"]["changes"] if c["path"] == "/spec/replicas")
    assert [(w["file"], w["line"]) for w in replicas["attribution"]] == [
        ("apps/web/charts/web/templates/deploy.yaml", 8),
        ("apps/web/kustomization.yaml", 7)]  # valuesInline: {replicas: 3} wins
    port = next(c for c in web["Service"]["changes"] if c["path"] == "/spec/ports/1")
    assert (port["attribution"][0]["file"], port["attribution"][0]["line"]) == (
        "apps/web/charts/web/templates/svc.yaml", 12)
    assert port["attribution"][0]["commits"][0]["subject"] == "head"
    assert sorted(c["path"] for c in web["Service"]["changes"] if c["action"] == "add") == [
        "/spec/ports/0/name", "/spec/ports/1"]
    entry = next(e for e in report["entry_points"] if e["path"] == "apps/web")
    assert entry["options"] == ["--enable-helm", "--helm-command", "helm"]
    assert exit_status(report) == 1  # the image risk; no error


def test_charts_and_bases_that_need_the_network_are_notes_not_errors(tmp_path):
    root = tmp_path / "repo"
    base, head = _repo(root)
    report = preview(Options(str(root), base, head, helm_runner=ReplayHelm(root)))
    notes = {e["path"]: e["not_rendered"] for e in report["entry_points"]
             if "not_rendered" in e}
    assert set(notes) == {"apps/remote", "apps/remote-base"}
    assert "helm pull" in notes["apps/remote"]["head"]
    assert "https://charts.example.invalid/podinfo" in notes["apps/remote"]["base"]
    assert "https://github.com/example/gitops//base?ref=v1" in notes["apps/remote-base"]["head"]
    assert "network" in notes["apps/remote-base"]["base"]
    assert report["summary"]["errors"] == 0 and report["summary"]["not_rendered"] == 2
    assert not [o for o in report["objects"] if o["entry_point"].startswith("apps/remote")]
    from cfgpatch.preview.human import render_human
    from cfgpatch.preview.markdown import render_markdown

    human = render_human(report)
    assert "not rendered: apps/remote at head: " in human
    assert human.splitlines()[1].startswith("1 entry point(s) rendered, ")
    assert "; not rendered (network): 2" in human.splitlines()[1]
    assert ":information_source: not rendered: `apps/remote-base`" in render_markdown(report)[0]
    # and nothing was pulled into the repository
    assert not (root / "apps/remote/charts").exists()


def test_the_working_tree_head_reads_its_chart_in_place(tmp_path):
    root = tmp_path / "repo"
    base = new_repo(root, _files("base"))
    for name, text in _files("head").items():
        (root / name).write_text(text)
    replay, kept = ReplayHelm(root), {}
    preview(Options(str(root), base, None, helm_runner=replay, keep=kept))
    assert kept["apps/web"][1].output == RECORDED["head"]["apps/web"]["stdout"]
    assert replay.answered == ["base", "head"]
    assert "??" not in git(root, "status", "--porcelain")  # nothing pulled or written


def test_without_enable_helm_the_chart_is_kustomizes_own_refusal(tmp_path):
    root = tmp_path / "repo"
    files = _files("base")
    del files[".cfgpatch.yaml"]
    base = new_repo(root, files)
    (root / "apps/web/charts/web/values.yaml").write_text("replicas: 4\nimage: x\nport: 1\n")
    report = preview(Options(str(root), base, None, helm_runner=ReplayHelm(root)))
    entry = next(e for e in report["entry_points"] if e["path"] == "apps/web")
    assert "must specify --enable-helm" in entry["error"]["head"]


def _live_helm() -> str:
    require(HELM.exists(), f"helm is not at {HELM}")
    return str(HELM)


def test_live_helm_renders_equal_the_recorded_kubectl_kustomize(tmp_path, monkeypatch):
    from cfgpatch.cli.helm_runner import SubprocessHelm

    helm = _live_helm()
    scratch = tmp_path / "scratch"  # its own temporary folder: other workers use /tmp
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    root = tmp_path / "repo"
    base, head = _repo(root)
    kept: dict = {}
    report = preview(Options(str(root), base, head, keep=kept, helm_runner=SubprocessHelm(),
                             build=BuildOptions(helm_command=helm)))
    assert kept["apps/web"][0].output == RECORDED["base"]["apps/web"]["stdout"]
    assert kept["apps/web"][1].output == RECORDED["head"]["apps/web"]["stdout"]
    assert report["summary"]["errors"] == 0
    assert not list(scratch.glob("cfgpatch-preview-helm-*/apps"))  # copies removed


def test_live_command_line_enable_helm(tmp_path):
    helm = _live_helm()
    root = tmp_path / "repo"
    files = _files("base")
    del files[".cfgpatch.yaml"]
    base = new_repo(root, files)
    (root / "apps/web/charts/web/values.yaml").write_text(
        "replicas: 1\nimage: nginx:1.27\nport: 8080\n")
    command = [sys.executable, "-m", "cfgpatch", "kube", "preview", "-C", str(root),
               "--base", base, "--format", "json", "apps/web"]
    plain = subprocess.run(command, capture_output=True, text=True)
    assert plain.returncode == 2 and "must specify --enable-helm" in plain.stdout
    done = subprocess.run([*command, "--enable-helm", "--helm-command", helm],
                          capture_output=True, text=True)
    assert done.returncode == 1, done.stderr  # the image risk
    report = json.loads(done.stdout)
    assert [r["rule"] for r in report["risks"]] == ["image"]
    assert report["entry_points"][0]["options"] == ["--enable-helm", "--helm-command", helm]


def test_command_line_helm_command_reaches_the_build(tmp_path):
    root = tmp_path / "repo"
    files = _files("base")
    del files[".cfgpatch.yaml"]
    base = new_repo(root, files)
    (root / "apps/web/charts/web/values.yaml").write_text("replicas: 4\nimage: x\nport: 1\n")
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "preview", "-C", str(root),
                           "--base", base, "--format", "json", "apps/web", "--enable-helm",
                           "--helm-command", "/x/helm"], capture_output=True, text=True)
    assert done.returncode == 2
    error = json.loads(done.stdout)["entry_points"][0]["error"]["head"]
    assert "fork/exec /x/helm: no such file or directory" in error


def test_live_reverting_the_attributed_value_removes_that_change_only(tmp_path):
    """Ablation with the real helm: for each change of the chart's Deployment, putting
    back the base's version of the value file it is attributed to (one hunk each) makes
    that change disappear and leaves the other."""
    from cfgpatch.cli.helm_runner import SubprocessHelm

    helm = _live_helm()
    root = tmp_path / "repo"
    base = new_repo(root, _files("base"))
    head = _files("head")

    def changes() -> dict[str, list[tuple[str, int]]]:
        report = preview(Options(str(root), base, None, ["apps/web"], helm_runner=SubprocessHelm(),
                                 build=BuildOptions(helm_command=helm)))
        deployment = next(o for o in report["objects"] if o["kind"] == "Deployment")
        return {c["path"]: [(w["file"], w["line"]) for w in c["attribution"]]
                for c in deployment["changes"]}

    for name, text in head.items():
        (root / name).write_text(text)
    found = changes()
    assert set(found) == {"/spec/replicas", "/spec/template/spec/containers/0/image"}
    for path, places in found.items():
        values = [f for f, _ in places if "/templates/" not in f]
        assert len(values) == 1
        (root / values[0]).write_text(_files("base")[values[0]])
        assert set(changes()) == set(found) - {path}
        (root / values[0]).write_text(head[values[0]])
