"""``cfgpatch kube patch``: kubectl's flags, kubectl's output, our explanation."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from cfgpatch.cli import main
from cli_support import run_cli, write_inputs

DEPLOY = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.25
        env: [{name: LOG_LEVEL, value: info}]
      - name: metrics
        image: statsd:v0.26
"""
PROM = """apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: main}
spec:
  containers: [{name: prometheus, image: p:1}, {name: sidecar, image: s:1}]
"""
CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: prometheuses.monitoring.coreos.com}
spec:
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              containers:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object}
"""
ONE_CONTAINER = '{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.27"}]}}}}'


@pytest.fixture()
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return write_inputs(tmp_path, {"deploy.yaml": DEPLOY, "prom.yaml": PROM, "crd.yaml": CRD})


def cli(capsys, *argv):
    return run_cli(capsys, "kube", "patch", *argv)


def test_merge_json_output_and_explain_names_lost_metrics(files, capsys):
    code, out, err = cli(capsys, "-f", "deploy.yaml", "--type", "merge", "-p", ONE_CONTAINER,
                         "-o", "json", "--explain")
    assert code == 0
    assert out.startswith('{\n    "apiVersion": "apps/v1",')
    assert [c["name"] for c in json.loads(out)["spec"]["template"]["spec"]["containers"]] == \
        ["app"]
    assert "lost metrics" in err and "[merge-list-replaced]" in err


def test_default_output_is_kubectls_patched_line(files, capsys):
    assert cli(capsys, "-f", "deploy.yaml", "-p", '{"spec":{"replicas":3}}') == \
        (0, "deployment.apps/web patched\n", "")
    assert cli(capsys, "-f", "deploy.yaml", "-p", '{"spec":{"replicas":2}}') == \
        (0, "deployment.apps/web patched (no change)\n", "")
    assert cli(capsys, "-f", "deploy.yaml", "-p", "{}", "-o", "name")[1] == \
        "deployment.apps/web\n"


def test_kubectl_flag_spellings(files, capsys):
    assert cli(capsys, "-f=deploy.yaml", "--local=true", "--dry-run=client", "--type=json",
               "-p=[]", "-o=name") == (0, "deployment.apps/web\n", "")
    assert cli(capsys, "--filename", "deploy.yaml", "--patch", "{}", "-oname", "-n", "x")[1] == \
        "deployment.apps/web\n"
    (files / "ns.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, "
                                   "namespace: a}\n")
    code, _, err = cli(capsys, "-f", "ns.yaml", "-n", "foo", "-p", "{}")
    assert code == 1 and err.splitlines()[0] == (
        'error: the namespace from the provided object "a" does not match the namespace "foo". '
        "You must pass '--namespace=a' to perform this operation.")


@pytest.mark.parametrize("patch_type, body, line", [
    ("merge", '{"spec":{"replicas":2.0}}', "deployment.apps/web patched\n"),
    ("merge", '{"spec":{"replicas":2e0}}', "deployment.apps/web patched\n"),
    ("merge", '{"spec":{"replicas":  2 }}', "deployment.apps/web patched (no change)\n"),
    ("merge", "spec: {replicas: 2.0}", "deployment.apps/web patched (no change)\n"),
    ("strategic", '{"spec":{"replicas":2.0}}', "deployment.apps/web patched (no change)\n"),
])
def test_no_change_is_decided_on_kubectls_bytes(files, capsys, patch_type, body, line):
    # kubectl's merge patch keeps the patch's number text (recorded from kubectl 1.32)
    assert cli(capsys, "-f", "deploy.yaml", "--type", patch_type, "-p", body)[1] == line


@pytest.mark.parametrize("body, line", [
    ('{"metadata":{"name":null}}', "deployment.apps/<unknown> patched\n"),
    ('{"metadata":{"name":5}}', "deployment.apps/<unknown> patched\n"),
    ('{"apiVersion":null}', "deployment/web patched\n"),
])
def test_patched_line_names_the_result(files, capsys, body, line):
    assert cli(capsys, "-f", "deploy.yaml", "--type", "merge", "-p", body)[1] == line


def test_yaml_output_and_yaml_patch(files, capsys):
    code, out, _ = cli(capsys, "-f", "deploy.yaml", "-p", "spec: {replicas: 5}", "-o", "yaml")
    assert code == 0 and "  replicas: 5\n" in out and out.startswith("apiVersion: apps/v1\n")


def test_patch_file_and_stdin_object(files, capsys, monkeypatch):
    (files / "p.json").write_text('{"spec":{"replicas":4}}')
    monkeypatch.setattr(sys, "stdin", open(files / "deploy.yaml"))  # noqa: SIM115
    code, out, _ = cli(capsys, "-f", "-", "--patch-file", "p.json", "-o", "json")
    assert code == 0 and json.loads(out)["spec"]["replicas"] == 4


def test_custom_resource_error_then_explanation(files, capsys):
    code, out, err = cli(capsys, "-f", "prom.yaml", "-p", '{"spec":{"containers":[]}}')
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == ("error: strategic merge patch is not supported for "
                        "monitoring.coreos.com/v1, Kind=Prometheus locally, try --type merge")
    assert any("[fallback-view]" in line for line in lines[1:])


def test_crd_flag_adds_the_server_side_apply_view(files, capsys):
    body = '{"spec":{"containers":[{"name":"prometheus","image":"p:2"}]}}'
    code, _, err = cli(capsys, "-f", "prom.yaml", "-p", body, "--crd", "crd.yaml")
    assert code == 1 and "[server-side-apply-view]" in err and "merges /spec/containers" in err


def test_as_kustomize(files, capsys):
    body = '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"s"}]}}}}'
    code, out, _ = cli(capsys, "-f", "deploy.yaml", "-p", body, "--as", "kustomize", "-o", "json")
    assert code == 0
    assert [c["name"] for c in json.loads(out)["spec"]["template"]["spec"]["containers"]] == \
        ["side", "app", "metrics"]


@pytest.mark.parametrize("argv, message", [
    (["-f", "nope.yaml", "-p", "{}"], 'error: the path "nope.yaml" does not exist'),
    (["-f", "deploy.yaml"],
     "error: must specify --patch or --patch-file containing the contents of the patch"),
    (["-f", "deploy.yaml", "-p", "{}", "--patch-file", "x"],
     "error: cannot specify --patch and --patch-file together"),
    (["-f", "deploy.yaml", "--patch-file", "nope"],
     "error: unable to read patch file: open nope: no such file or directory"),
    (["-f", "deploy.yaml", "-p", "{}", "--type", "foo"],
     'error: --type must be one of [json merge strategic], not "foo"'),
    (["-f", "deploy.yaml", "-p", "{}", "-o", "xml"],
     'error: unable to match a printer suitable for the output format "xml", allowed formats '
     "are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,"
     "template,templatefile,yaml"),
    (["-f", "deploy.yaml", "-p", '{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}'],
     "error: map: map[image:x] does not contain declared merge key: name"),
])
def test_kubectl_error_lines(files, capsys, argv, message):
    code, out, err = cli(capsys, *argv)
    assert (code, out, err.splitlines()[0]) == (1, "", message)


def test_crash_exit_code_two(files, capsys):
    (files / "t.yaml").write_text(DEPLOY.replace("      containers:", "      tolerations: "
                                                 "[{key: k1}]\n      containers:"))
    code, out, err = cli(capsys, "-f", "t.yaml", "-p", '{"spec":{"template":{"spec":'
                         '{"$setElementOrder/tolerations":[{"key":"k1"}]}}}}')
    assert code == 2 and out == "" and err.startswith("panic: ")


def test_python_dash_m_works_the_same(files):
    proc = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "patch", "-f",
                           "deploy.yaml", "--type", "json", "-p",
                           '[{"op":"replace","path":"/spec/replicas","value":7}]', "-o", "json"],
                          capture_output=True, text=True, cwd=files, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["spec"]["replicas"] == 7


# Which error wins when both inputs are broken, as kubectl 1.32 answers (recorded):
# a YAML patch error first, then the object, then (strategic on an unknown kind) the
# "not supported" error, and only then a JSON patch that does not parse.
BROKEN_OBJECT = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n"
CUSTOM = "apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: x}\n"
ERROR_ORDER = [
    (BROKEN_OBJECT, ["-p", "a: ["],
     'error: unable to parse "a: [": yaml: line 1: did not find expected node content'),
    (BROKEN_OBJECT, ["-p", "{bad"],
     "error: error parsing obj.yaml: error converting YAML to JSON: yaml: line 3: "
     "did not find expected ',' or '}'"),
    (CUSTOM, ["-p", "{bad"],
     "error: strategic merge patch is not supported for monitoring.coreos.com/v1, "
     "Kind=Prometheus locally, try --type merge"),
    (CUSTOM, ["--type", "merge", "-p", "{bad"], "error: Invalid JSON Patch"),
]


@pytest.mark.parametrize("obj,flags,first_line", ERROR_ORDER)
def test_error_order_when_both_inputs_are_broken(tmp_path, monkeypatch, capsys, obj, flags,
                                                 first_line):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "obj.yaml").write_text(obj)
    assert main(["kube", "patch", "--local", "-f", "obj.yaml", "-o", "json", *flags]) == 1
    assert capsys.readouterr().err.splitlines()[0] == first_line


def test_several_objects_are_explained_one_by_one(files, capsys):
    (files / "two.yaml").write_text(DEPLOY + "---\n" + DEPLOY.replace("name: web", "name: api"))
    code, out, err = run_cli(capsys, "kube", "patch", "-f", "two.yaml", "--type", "merge",
                             "-p", '{"spec":{"replicas":3}}', "--explain")
    assert code == 0
    assert out == "deployment.apps/web patched\ndeployment.apps/api patched\n"
    assert err.index("cfgpatch: deployment.apps/web:") < err.index("cfgpatch: deployment.apps/api:")
    assert err.count("/spec/replicas") == 2


def test_several_objects_from_standard_input(files, capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(DEPLOY + "---\nmetadata: {name: n}\n---\n" + PROM))
    code, out, err = run_cli(capsys, "kube", "patch", "-f", "-", "--type", "merge",
                             "-p", '{"metadata":{"labels":{"a":"b"}}}', "-o", "name")
    assert code == 1
    assert out == "deployment.apps/web\nprometheus.monitoring.coreos.com/main\n"
    # kubectl names standard input STDIN in its messages (kubectl 1.32, asked by hand)
    assert err.startswith('error: unable to decode "STDIN": Object \'Kind\' is missing')


def test_a_single_object_from_standard_input_is_named_stdin(files, capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("apiVersion: v1\nkind: ConfigMap\ndata: [\n"))
    code, _, err = run_cli(capsys, "kube", "patch", "-f", "-", "-p", '{"data":{"x":"1"}}')
    assert code == 1
    assert err.startswith("error: error parsing STDIN: error converting YAML to JSON: yaml: "
                          "line 3: did not find expected node content\n")


@pytest.mark.parametrize("several", [False, True])
def test_json_nested_too_deeply_is_an_error_not_a_crash(files, capsys, several):
    deep = '{"a":' * 3000 + "1" + "}" * 3000
    first = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}\n'
    last = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"},"data":' + deep + "}\n"
    (files / "deep.json").write_text((first if several else "") + last)
    code, out, err = run_cli(capsys, "kube", "patch", "-f", "deep.json", "--type", "merge",
                             "-p", "{}", "-o", "name")
    assert code == 1
    assert out == ("configmap/a\n" if several else "")
    assert err.startswith("error: the input is nested too deeply for cfgpatch")
