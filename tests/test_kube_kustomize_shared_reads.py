"""Builds inside ``cached_reads`` read resource files through the cache's own nodes
(``shared_resource_documents``: not copied per build): no build may change them, so
every build gives what it gives without the cache, and the cache's nodes stay as read.
Lint's trace (``Trace(patch_values_only=True)``) records every step and what patches
did, exactly as the full trace does.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfgpatch.kube.io import kyaml_read
from cfgpatch.kube.io.kyaml import Node
from cfgpatch.kube.io.kyaml_read import cached_reads, read_resource_documents
from cfgpatch.kube.kustomize.build import BuildError, build
from cfgpatch.kube.kustomize.trace import PATCH, Trace

BASE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: &labels {app: web}
  annotations: {note: "1.50"}
spec:
  replicas: 1
  selector:
    matchLabels: *labels
  template:
    metadata:
      labels:
        <<: *labels
        tier: front
    spec:
      containers:
        - name: web
          image: web:1
          env: [{name: A, value: "1"}]
          ports: [{containerPort: 80}]
---
apiVersion: v1
kind: ConfigMapList
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: settings}
    data: {mode: fast}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
"""

#: A file with a key written twice (kustomize refuses it after reading it: the reader
#: drops the repeated key from its nodes, which must be a copy of the cache's).
REPEATED = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: twice}\ndata: {a: 1, a: 2}\n"

STEPS = {
    "repeated": "",
    "prefix": "namePrefix: dev-\n",
    "labels": "labels:\n  - pairs: {env: dev}\n    includeSelectors: true\n",
    "namespace": "namespace: apps\n",
    "annotations": "commonAnnotations: {team: blue}\n",
    "images": "images:\n  - {name: web, newTag: '2'}\n",
    "strategic": "patches:\n  - patch: |-\n      apiVersion: apps/v1\n      kind: Deployment\n"
                 "      metadata: {name: web}\n      spec:\n        template:\n          spec:\n"
                 "            containers:\n              - {name: web, image: web:3}\n",
    "json": "patches:\n  - target: {kind: Service}\n    patch: |-\n"
            "      - {op: replace, path: /spec/ports/0/port, value: 81}\n",
    "replacement": "replacements:\n  - source: {kind: Service, name: web, "
                   "fieldPath: spec.ports.0.targetPort}\n    targets:\n"
                   "      - select: {kind: Deployment}\n        fieldPaths: "
                   "[spec.template.spec.containers.0.ports.0.containerPort]\n",
}


def _shape(node: Node) -> tuple:
    return (node.kind, node.tag, node.value, node.style, node.line, node.column, node.file,
            tuple(_shape(c) for c in node.content))


def _tree(root: Path, overlays: list[list[str]]) -> list[Path]:
    (root / "base").mkdir(parents=True, exist_ok=True)
    (root / "base" / "all.yaml").write_text(BASE)
    (root / "base" / "kustomization.yaml").write_text("resources: [all.yaml]\n")
    out = []
    for number, steps in enumerate(overlays):
        folder = root / f"o{number}"
        folder.mkdir(exist_ok=True)
        patches = [STEPS[s] for s in steps if s in ("strategic", "json")]
        others = "".join(STEPS[s] for s in steps if s not in ("strategic", "json"))
        merged = "patches:\n" + "".join(p.split("\n", 1)[1] for p in patches) if patches else ""
        extra = ", twice.yaml" if "repeated" in steps else ""
        (folder / "twice.yaml").write_text(REPEATED)
        (folder / "kustomization.yaml").write_text(f"resources: [../base{extra}]\n" + others
                                                   + merged)
        out.append(folder)
    return out


def _cache_shapes(cache: dict) -> dict:
    return {key: [_shape(n) for n in nodes] for key, nodes in cache.items()}


def _build_all(folders: list[Path], trace: bool) -> list[str]:
    out = []
    for folder in folders:
        try:
            out.append(build(str(folder), Trace() if trace else None).yaml())
        except BuildError as err:
            out.append(f"error: {err.message}")
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(sorted(STEPS)), unique=True, max_size=5),
                min_size=1, max_size=3), st.booleans())
def test_builds_never_change_the_cached_nodes(tmp_path_factory, overlays, trace):
    root = tmp_path_factory.mktemp("tree")
    folders = _tree(root, overlays)
    alone = _build_all(folders, trace)  # no cache: each build reads its own nodes
    with cached_reads():
        cache = kyaml_read._CACHE.get()
        assert cache is not None
        first = _build_all(folders, trace)
        before = _cache_shapes(cache)
        assert any(key[0] == "resources" for key in cache)
        second = _build_all(folders, trace)
        assert _cache_shapes(cache) == before  # the cache's nodes are still as read
    assert first == second == alone
    fresh = read_resource_documents(BASE, str(root / "base" / "all.yaml"))
    key = ("resources", BASE, str(root / "base" / "all.yaml"))
    assert before[key] == [_shape(n) for n in fresh]


def _patch_steps(trace: Trace) -> list[tuple]:
    return [(s.field, s.index, s.kustomization, s.targets,
             [(t.label, t.before, t.after) for t in s.touches]) for s in trace.steps
            if s.kind == PATCH]


def test_lint_trace_keeps_every_step_and_what_patches_did(tmp_path):
    folder = _tree(tmp_path, [sorted(set(STEPS) - {"repeated"})])[0]
    full, light = Trace(), Trace(patch_values_only=True)
    assert build(str(folder), full).yaml() == build(str(folder), light).yaml()
    assert [(s.kind, s.field, s.index) for s in full.steps] == \
        [(s.kind, s.field, s.index) for s in light.steps]
    assert _patch_steps(full) == _patch_steps(light)
    assert len(_patch_steps(full)) == 2 and all(s[4] for s in _patch_steps(full))
    # transformers touched resources (the full trace says so); the light one copies none
    assert any(s.touches for s in full.steps if s.kind != PATCH)
    assert not any(s.touches for s in light.steps if s.kind not in (PATCH, "generator"))
