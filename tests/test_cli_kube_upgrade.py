"""``cfgpatch kube upgrade`` (``cli/kube_upgrade.py``)."""

from __future__ import annotations

import pytest

from cfgpatch.cli import main
from cli_support import write_inputs

OLD = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: app
        image: app:1
      - name: log
        image: log:1
---
# a comment-only document is skipped
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: gone
data:
  a: "1"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: kept
  annotations:
    helm.sh/resource-policy: keep
"""
NEW = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: app
        image: app:2
---
apiVersion: v1
kind: Service
metadata:
  name: fresh
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: taken
"""
LIVE = """\
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    namespace: default
  spec:
    replicas: 5
    template:
      spec:
        containers:
        - name: app
          image: app:1
        - name: log
          image: log:1
        - name: mesh-proxy
          image: proxy:1
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: taken
    namespace: default
"""


@pytest.fixture()
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return write_inputs(tmp_path, {"old.yaml": OLD, "new.yaml": NEW, "live.yaml": LIVE})


def test_upgrade_reports_every_object(files, capsys):
    code = main(["kube", "upgrade", "--old", "old.yaml", "--new", "new.yaml",
                 "--live", "live.yaml", "--show", "patch,explanation"])
    out = capsys.readouterr().out
    assert code == 1  # the ConfigMap "taken" exists but the old release lacks it
    lines = out.splitlines()
    assert lines[0] == "deployment.apps/web updated"
    # Helm 3's three-way patch undoes the manual scale to 5: the chart names replicas
    assert lines[2] == ('{"spec":{"replicas":2,"template":{"spec":{"$setElementOrder/containers":'
                        '[{"name":"app"}],"containers":[{"image":"app:2","name":"app"},'
                        '{"$patch":"delete","name":"log"}]}}}}')
    assert "kept spec.template.spec.containers[name=mesh-proxy]" in out
    assert "reverted spec.replicas" in out
    assert "service/fresh created" in lines
    assert any(line.startswith("configmap/taken conflict:") for line in lines)
    assert "configmap/gone deleted" in lines
    assert "configmap/kept kept (helm.sh/resource-policy: keep)" in lines


def test_upgrade_unchanged(files, capsys):
    code = main(["kube", "upgrade", "--old", "old.yaml", "--new", "old.yaml",
                 "--live", "old.yaml", "--show", "patch"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("deployment.apps/web unchanged\n# patch: {} (nothing is sent)\n")
