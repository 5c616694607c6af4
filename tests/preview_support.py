"""Generated git repositories for the kube preview tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
       "GIT_COMMITTER_EMAIL": "t@example.com", "HOME": "/tmp", "PATH": "/usr/bin:/bin"}


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True, env=ENV).stdout


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def commit(root: Path, message: str, files: dict[str, str] | None = None) -> str:
    if files:
        write(root, files)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def new_repo(root: Path, files: dict[str, str]) -> str:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    return commit(root, "base", files)


def case_repo(tmp_path: Path, case: dict, live_files: dict[str, str]
              ) -> tuple[Path, str, str, Path]:
    """A recorded case's repository (its ``base_files`` committed, then its
    ``head_files``) and a folder of live objects: root, base and head commits, folder."""
    root = tmp_path / "repo"
    base = new_repo(root, case["base_files"])
    head = commit(root, "head", case["head_files"])
    live = tmp_path / "live"
    live.mkdir()
    write(live, live_files)
    return root, base, head, live


DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - containerPort: 8080
        envFrom:
        - configMapRef:
            name: settings
"""

SERVICE = """apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 8080
"""

BASE_KUSTOMIZATION = """resources:
- deployment.yaml
- service.yaml
configMapGenerator:
- name: settings
  literals:
  - LOG_LEVEL=info
  - MODE=fast
"""

COMPONENT = """apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
patches:
- path: annotate.yaml
"""

COMPONENT_PATCH = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    team: blue
"""

OVERLAY = """resources:
- ../../base
components:
- ../../components/annotate
namePrefix: prod-
labels:
- pairs:
    tier: frontend
images:
- name: nginx
  newTag: "1.26"
patches:
- path: replicas.yaml
"""

REPLICAS = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
"""


def gitops_files() -> dict[str, str]:
    return {"base/deployment.yaml": DEPLOYMENT, "base/service.yaml": SERVICE,
            "base/kustomization.yaml": BASE_KUSTOMIZATION,
            "components/annotate/kustomization.yaml": COMPONENT,
            "components/annotate/annotate.yaml": COMPONENT_PATCH,
            "overlays/prod/kustomization.yaml": OVERLAY,
            "overlays/prod/replicas.yaml": REPLICAS,
            "plain/namespace.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n"}


#: Independent edits, each one hunk in one file (resource, patch, generator input,
#: image transformer, component patch, label transformer, plain manifest, new resource).
EDITS = {
    "resource": ("base/deployment.yaml", "containerPort: 8080", "containerPort: 9090"),
    "patch": ("overlays/prod/replicas.yaml", "replicas: 3", "replicas: 4"),
    "generator": ("base/kustomization.yaml", "LOG_LEVEL=info", "LOG_LEVEL=debug"),
    "image": ("overlays/prod/kustomization.yaml", 'newTag: "1.26"', 'newTag: "1.27"'),
    "component": ("components/annotate/annotate.yaml", "team: blue", "team: green"),
    "labels": ("overlays/prod/kustomization.yaml", "tier: frontend", "tier: web"),
    "plain": ("plain/namespace.yaml", "name: shop", "name: store"),
    "service-port": ("base/service.yaml", "port: 80\n", "port: 8080\n"),
}


def apply_edits(root: Path, names: list[str]) -> None:
    for name in names:
        file, old, new = EDITS[name]
        path = root / file
        text = path.read_text()
        assert old in text, (file, old)
        path.write_text(text.replace(old, new, 1))
