"""``cfgpatch kube build`` (cli/kube_build.py): output, errors, exit codes, --explain."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import SHARED, require
from kustomize_corpus import ROOT_SRC, TREES, builds


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "build", *args],
                          capture_output=True, text=True, env=ROOT_SRC, timeout=120)


@pytest.mark.parametrize("case", [b for b in builds() if b.tree in (
    "shop-overlays", "error-cycle", "legacy-fields")], ids=lambda b: b.id)
def test_command_line_prints_what_kubectl_prints(case):
    proc = run(str(case.directory))
    assert (proc.returncode, proc.stdout, proc.stderr) == case.expected()


@pytest.mark.parametrize("case", [b for b in builds() if b.tree == "env-files"
                                  and b.rel in ("latin1-value", "utf16")], ids=lambda b: b.id)
def test_bytes_that_are_not_utf8_are_printed_as_they_were(case):
    """kustomize quotes an env file's line that is not UTF-8 byte for byte; so do we."""
    proc = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "build",
                           str(case.directory)], capture_output=True, env=ROOT_SRC, timeout=120)
    code, out, err = case.expected()
    assert (proc.returncode, proc.stdout) == (code, out.encode("utf-8"))
    assert proc.stderr == err.encode("utf-8", "surrogateescape")
    assert b"\xe9" in proc.stderr or b"\xff\xfe" in proc.stderr


def test_json_output():
    proc = run(str(TREES / "selectors"), "-o", "json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["kind"] == "List"


def test_unmodelled_field_exits_3(tmp_path):
    (tmp_path / "kustomization.yaml").write_text("resources:\n- github.com/example/repo//base\n")
    proc = run(str(tmp_path))
    assert proc.returncode == 3
    assert "remote resource" in proc.stderr and "kustomization.yaml:2" in proc.stderr


def test_helm_charts_without_enable_helm_are_kustomizes_error(tmp_path):
    (tmp_path / "kustomization.yaml").write_text("helmCharts:\n- name: x\n")
    proc = run(str(tmp_path))
    assert proc.returncode == 1
    assert proc.stderr.endswith("`: must specify --enable-helm\n")


def test_enable_helm_runs_the_helm_command(tmp_path):
    helm = SHARED / "bin" / "helm"
    require(helm.exists(), f"{helm} is missing")
    chart = tmp_path / "charts" / "web"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: web\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text("size: 1\n")
    (chart / "templates" / "cm.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n"
        "data:\n  size: {{ .Values.size | quote }}\n")
    (tmp_path / "kustomization.yaml").write_text(
        "helmCharts:\n- name: web\n  releaseName: r\n  valuesInline: {size: 2}\n")
    proc = run(str(tmp_path), "--enable-helm", "--helm-command", str(helm))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "apiVersion: v1\ndata:\n  size: \"2\"\nkind: ConfigMap\nmetadata:\n  name: r\n"


def test_explain_human_names_patches_that_match_nothing():
    proc = run(str(TREES / "nomatch-patches"), "--explain")
    assert proc.returncode == 0
    assert proc.stderr.count("matched nothing") == 3
    assert "blame (file:line that last set each field):" in proc.stderr


def test_explain_json_is_one_document():
    proc = run(str(TREES / "custom-resource-lists"), "-o", "json", "--explain")
    document = json.loads(proc.stdout)
    assert set(document) == {"resources", "warnings", "explain"}
    lost = [r for p in document["explain"]["patches"] for t in p["targets"]
            for r in t["lists_replaced"]]
    assert {"path": "/spec/dnsNames", "lost": ["shop.acme.example", "www.shop.acme.example",
                                               "api.shop.acme.example"]} in lost


def _deep_tree(folder):
    deep = "[" * 3000 + "]" * 3000
    (folder / "kustomization.yaml").write_text("resources:\n- r.yaml\n")
    (folder / "r.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
                                   f"data:\n  x: {deep}\n")
    return folder


@pytest.mark.parametrize("explain", [[], ["--explain"]])
def test_a_tree_nested_too_deeply_is_refused_not_a_crash(tmp_path, explain):
    proc = run(str(_deep_tree(tmp_path)), *explain)
    assert proc.returncode == 3
    assert proc.stderr.startswith("error: a document is nested too deeply for cfgpatch kube "
                                  "build\n")
    assert "Traceback" not in proc.stderr


def test_explain_blames_the_fields_vars_replaced():
    proc = run(str(TREES / "vars" / "basic"), "--explain")
    assert proc.returncode == 0
    blame = proc.stderr.split("blame (file:line that last set each field):\n", 1)[1]
    assert "    /spec/ports/0/targetPort  (vars)\n" in blame
    assert "    /metadata/name  kustomization.yaml:4\n" in blame  # the prefix, not a var
