"""Entry points: top-level kustomizations, Flux Kustomizations (the generated
kustomization, targetNamespace and namePrefix), plain folders, .cfgpatch.yaml; and
preview.ignore (counted, never dropped silently)."""

from __future__ import annotations

import pytest

from cfgpatch.errors import InvalidInput
from cfgpatch.preview.config import parse_preview_config
from cfgpatch.preview.engine import Options, preview
from preview_support import apply_edits, commit, git, gitops_files, new_repo

FLUX = """apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps
  namespace: flux-system
spec:
  interval: 10m
  path: ./apps/shop
  sourceRef:
    kind: GitRepository
    name: flux-system
  targetNamespace: shop
  namePrefix: eu-
"""

APP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: shop
data:
  color: blue
"""


def test_flux_kustomization_renders_its_folder_with_its_fields(tmp_path):
    root = tmp_path / "repo"
    base = new_repo(root, {"clusters/prod/apps.yaml": FLUX, "apps/shop/nested/cm.yaml": APP})
    (root / "apps/shop/nested/cm.yaml").write_text(APP.replace("blue", "red"))
    report = preview(Options(str(root), base, None))
    flux = [e for e in report["entry_points"] if e["kind"] == "flux"]
    assert len(flux) == 1 and flux[0]["flux"]["name"] == "apps"
    changed = next(o for o in report["objects"] if o["entry_point"] == flux[0]["key"])
    assert (changed["namespace"], changed["name"]) == ("shop", "eu-shop")
    assert changed["changes"][0]["attribution"][0]["file"] == "apps/shop/nested/cm.yaml"
    # the Flux object's own field moves the objects: attributed to the Flux file
    red = commit(root, "red")
    (root / "clusters/prod/apps.yaml").write_text(FLUX.replace("eu-", "us-"))
    report = preview(Options(str(root), red, None))
    renamed = next(o for o in report["objects"] if o["entry_point"] == flux[0]["key"])
    assert renamed["status"] == "renamed"
    assert any(r["rule"] == "removed" for r in renamed["risks"])
    name = next(c for c in renamed["changes"] if c["path"] == "/metadata/name")
    assert name["attribution"][0]["file"] == "clusters/prod/apps.yaml"
    assert [e["path"] for e in report["entry_points"]] == ["apps/shop", "clusters/prod"]


def test_preview_config_adds_paths_and_ignores_fields_counting_them(tmp_path):
    root = tmp_path / "repo"
    files = gitops_files()
    files[".cfgpatch.yaml"] = ("preview:\n  ignore:\n  - {kind: Deployment, path: "
                               "metadata.annotations}\n  - {kind: Namespace}\n")
    base = new_repo(root, files)
    apply_edits(root, ["component", "plain", "patch"])
    report = preview(Options(str(root), base, None))
    ignored = report["summary"]["ignored"]
    assert ignored["changes"] >= 1 and ignored["objects"] >= 1
    deployment = next(o for o in report["objects"] if o["kind"] == "Deployment")
    assert [c["path"] for c in deployment["changes"]] == ["/spec/replicas"]
    assert deployment["ignored_changes"] == 1
    assert not [o for o in report["objects"] if o["kind"] == "Namespace"]


@pytest.mark.parametrize("text,where", [
    ("preview:\n  ignroe: []\n", ".cfgpatch.yaml:2: unknown key preview.ignroe"),
    ("preview:\n  ignore:\n  - {knd: Secret}\n", ".cfgpatch.yaml:3: unknown key knd"),
    ("preview:\n  paths: [{path: a, options: 3}]\n", "options must be a list"),
])
def test_bad_config_is_named_with_its_line(text, where):
    with pytest.raises(InvalidInput) as caught:
        parse_preview_config(text)
    assert where in caught.value.message


def test_config_paths_with_options_are_entry_points_built_with_them(tmp_path):
    root = tmp_path / "repo"
    files = gitops_files()
    files[".cfgpatch.yaml"] = ("preview:\n  paths:\n  - {path: base, options: "
                               "[--enable-helm, --helm-command=helm3]}\n")
    base = new_repo(root, files)
    apply_edits(root, ["resource"])
    report = preview(Options(str(root), base, None))
    entry = next(e for e in report["entry_points"] if e["path"] == "base")
    assert entry["kind"] == "config" and "error" not in entry
    assert entry["options"] == ["--enable-helm", "--helm-command", "helm3"]


LIVE = """apiVersion: v1
kind: Service
metadata:
  name: prod-web
  labels: {tier: frontend, owner: ops}
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","kind":"Service","metadata":{"annotations":{},"labels":{"owner":"ops","tier":"frontend"},"name":"prod-web","namespace":"default"},"spec":{"ports":[{"port":80,"targetPort":8080}],"selector":{"app":"web"}}}
  namespace: default
spec:
  ports:
  - port: 80
    targetPort: 8080
  selector: {app: web}
"""


def test_live_objects_get_the_client_side_apply_outcome(tmp_path):
    root = tmp_path / "repo"
    base = new_repo(root, gitops_files())
    apply_edits(root, ["service-port"])
    live = tmp_path / "live"
    live.mkdir()
    (live / "svc.yaml").write_text(LIVE)
    report = preview(Options(str(root), base, None, live=str(live)))
    service = next(o for o in report["objects"] if o["kind"] == "Service")
    assert service["live"]["exists"] and not service["live"]["unchanged"]
    removal = [r for r in service["risks"] if r["rule"] == "live-removal"]
    assert [r["path"] for r in removal] == ["/metadata/labels/owner"]
    assert any(c["path"] == "/spec/ports/0/port" or c["path"].startswith("/spec/ports")
               for c in service["live"]["changes"])


ARGO = """apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: shop
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/Acme/GitOps.git
    targetRevision: HEAD
    path: apps/shop
  destination: {server: "https://kubernetes.default.svc", namespace: shop}
"""


def test_argo_cd_applications_of_this_repository_are_entry_points(tmp_path):
    root = tmp_path / "repo"
    base = new_repo(root, {"argocd/shop.yaml": ARGO, "apps/shop/nested/cm.yaml": APP,
                           "argocd/other.yaml": ARGO.replace("Acme/GitOps", "acme/other")
                           .replace("apps/shop", "apps/other").replace("name: shop", "name: o")})
    git(root, "remote", "add", "origin", "git@github.com:acme/gitops.git")
    (root / "apps/shop/nested").rename(root / "apps/shop/moved")
    (root / "apps/shop/cm.yaml").write_text(APP.replace("blue", "red"))
    report = preview(Options(str(root), base, None))
    argo = [e for e in report["entry_points"] if e["kind"] == "argocd"]
    assert [e["path"] for e in argo] == ["apps/shop"]
    changed = [o for o in report["objects"] if o["entry_point"] == "apps/shop"]
    assert [(o["name"], o["status"]) for o in changed] == [("shop", "added")]
