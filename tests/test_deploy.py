"""The manifests under deploy/: built by our own ``kube build`` (and, where kubectl is
installed, byte for byte as ``kubectl kustomize``), ``lint``-clean, every container
argument one that ``cfgpatch serve`` takes, probes on /healthz, and a memory request
that holds what a server measured here really uses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import yaml

from cfgpatch.cli import main
from cfgpatch.cli.serve import register
from server_support import JSON, JSON_PATCH, ServerProcess

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
TREES = ["base", "overlays/production"]


def build(tree: str, capsys) -> str:
    assert main(["kube", "build", str(DEPLOY / tree)]) == 0
    return capsys.readouterr().out


def objects(tree: str, capsys) -> dict[str, dict]:
    return {doc["kind"]: doc for doc in yaml.safe_load_all(build(tree, capsys))}


def container(tree: str, capsys) -> dict:
    return objects(tree, capsys)["Deployment"]["spec"]["template"]["spec"]["containers"][0]


@pytest.mark.parametrize("tree", TREES)
def test_the_manifests_build_as_kubectl_builds_them(tree, capsys):
    ours = build(tree, capsys)
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        if os.environ.get("CI") == "true":
            pytest.fail("kubectl is not on PATH")
        pytest.skip("kubectl is not on PATH")
    theirs = subprocess.run([kubectl, "kustomize", str(DEPLOY / tree)], capture_output=True,
                            text=True, check=True).stdout
    assert ours == theirs


def test_the_manifests_are_lint_clean(capsys):
    assert main(["lint", "--format", "json", "--root", str(ROOT), str(DEPLOY)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["findings"] == [] and report["summary"]["linted"] == 2
    assert report["summary"]["patches"] >= 2


@pytest.mark.parametrize("tree", TREES)
def test_the_container_runs_serve_with_options_it_takes(tree, capsys):
    import argparse

    spec = container(tree, capsys)
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(spec["args"])  # an unknown option exits with status 2
    assert args.host == "0.0.0.0" and args.tokens and args.log_format == "json"
    env = {item["name"]: item for item in spec["env"]}
    assert env["CFGPATCH_STORE"]["valueFrom"]["secretKeyRef"]["key"] == "url"
    for probe in ("readinessProbe", "livenessProbe"):
        assert spec[probe]["httpGet"]["path"] == "/healthz"
        assert spec[probe]["timeoutSeconds"] > args.health_timeout  # 503 arrives in time
    assert spec["ports"][0]["containerPort"] == args.port


def test_production_runs_replicas_of_workers_on_postgresql(capsys):
    built = objects("overlays/production", capsys)
    deployment = built["Deployment"]
    assert deployment["metadata"]["namespace"] == "config"
    assert deployment["spec"]["replicas"] == 3
    spec = deployment["spec"]["template"]["spec"]["containers"][0]
    assert "--workers=2" in spec["args"] and "--workers=1" not in spec["args"]
    assert {"PGSSLMODE", "PGAPPNAME"} <= {item["name"] for item in spec["env"]}
    assert spec["image"].endswith(":0.1.0")
    assert built["PodDisruptionBudget"]["spec"]["minAvailable"] == 2
    assert built["Service"]["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]


def mebibytes(quantity: str) -> float:
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024}
    for suffix, factor in units.items():
        if quantity.endswith(suffix):
            return float(quantity[: -len(suffix)]) * factor
    return float(quantity) / 2**20


def tree_rss(pid: int) -> float:
    """Resident memory (MiB) of a process and all its descendants."""
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        todo.extend(int(child) for child in children)
    return total


@pytest.mark.timeout(120)
def test_the_memory_request_holds_a_measured_server(tmp_path, capsys):
    """The production pod's processes (supervisor and two workers) after 800 commits of
    a 4 KB document stay under its memory request, with room for the caches' ceiling."""
    resources = container("overlays/production", capsys)["resources"]
    request = mebibytes(resources["requests"]["memory"])
    limit = mebibytes(resources["limits"]["memory"])
    server = ServerProcess(f"sqlite:///{tmp_path / 'm.db'}", "--workers", "2")
    try:
        doc = {"routes": [{"name": f"r{i}", "upstream": f"http://svc-{i}:8080", "timeout": 30}
                          for i in range(60)], "n": 0}
        with httpx.Client(base_url=server.url, timeout=30) as client:
            for name in ("a", "b", "c", "d"):
                client.put(f"/v1/documents/{name}", content=json.dumps(doc), headers=JSON)
                for k in range(200):
                    body = json.dumps([{"op": "replace", "path": "/n", "value": k}])
                    assert client.patch(f"/v1/documents/{name}", content=body,
                                        headers=JSON_PATCH).status_code == 200
        time.sleep(0.5)
        used = tree_rss(server.proc.pid)
    finally:
        server.stop()
    print(f"measured {used:.0f} MiB; request {request:.0f} MiB, limit {limit:.0f} MiB")
    assert 50 < used < request < limit
    cache_ceiling = 2 * 64  # MiB: two workers, the service's default cache bound each
    assert used + cache_ceiling < limit
