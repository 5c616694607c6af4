#!/usr/bin/env python3
"""Record what ``kubectl kustomize`` (1.32) builds when a kustomization's ``openapi:``
document is a CRD's schema as ``cfgpatch.web.crdinput.openapi_document`` makes it: the
page's kustomize view with a pasted CRD is checked against these answers
(``tests/test_web_crdinput.py``).

    .venv/bin/python scripts/record_web_crd_kustomize.py

Writes ``tests/data/web/crd-kustomize/recorded.jsonl``: per case the CRD, the object,
the patch, whether an ``openapi:`` document was given, and kustomize's output object.
"""

from __future__ import annotations

import copy
import json
import subprocess
import tempfile
from pathlib import Path

import yaml

from cfgpatch.web.crdinput import openapi_document

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "web" / "crd-kustomize" / "recorded.jsonl"
KUBECTL = "/usr/lib/google-cloud-sdk/bin/kubectl.1.32"

PORTS = {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
         "items": {"type": "object", "properties": {"name": {"type": "string"},
                                                    "port": {"type": "integer"}}}}
TAGS = {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}


def crd(ports: dict, tags: dict = TAGS, group: str = "example.com") -> dict:
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": f"gizmos.{group}"},
            "spec": {"group": group, "scope": "Namespaced",
                     "names": {"kind": "Gizmo", "plural": "gizmos"},
                     "versions": [{"name": "v1", "served": True, "storage": True,
                                   "schema": {"openAPIV3Schema": {
                                       "type": "object", "properties": {"spec": {
                                           "type": "object",
                                           "properties": {"ports": ports, "tags": tags}}}}}}]}}


OBJECT = {"apiVersion": "example.com/v1", "kind": "Gizmo", "metadata": {"name": "g"},
          "spec": {"ports": [{"name": "http", "port": 80}, {"name": "metrics", "port": 9090}],
                   "tags": ["a", "b"]}}
PATCHES = {
    "port-changed": {"spec": {"ports": [{"name": "http", "port": 81}]}},
    "port-added-tag-added": {"spec": {"ports": [{"name": "grpc", "port": 9000}],
                                      "tags": ["c"]}},
    "port-deleted": {"spec": {"ports": [{"name": "metrics", "$patch": "delete"}]}},
}
MERGE = {**PORTS, "x-kubernetes-patch-strategy": "merge"}
MERGE_KEY = {**PORTS, "x-kubernetes-patch-strategy": "merge",
             "x-kubernetes-patch-merge-key": "name"}
TAGS_MERGE = {**TAGS, "x-kubernetes-patch-strategy": "merge"}
CRDS = {
    "list-map-only": crd(PORTS),
    "patch-strategy": crd(MERGE, TAGS_MERGE),
    "merge-key": crd(MERGE_KEY),
}


def build(crd_obj: dict, obj: dict, patch: dict) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "cr.yaml").write_text(yaml.safe_dump(obj))
        body = {"apiVersion": obj["apiVersion"], "kind": obj["kind"],
                "metadata": {"name": obj["metadata"]["name"]}, **copy.deepcopy(patch)}
        (root / "patch.yaml").write_text(yaml.safe_dump(body))
        (root / "doc.json").write_text(json.dumps(openapi_document(crd_obj)))
        (root / "kustomization.yaml").write_text(yaml.safe_dump({
            "resources": ["cr.yaml"], "patches": [{"path": "patch.yaml"}],
            "openapi": {"path": "doc.json"}}))
        done = subprocess.run([KUBECTL, "kustomize", str(root)], capture_output=True,
                              text=True, check=True, timeout=60)
    return yaml.safe_load(done.stdout)


def main() -> None:
    OUT.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for crd_id, crd_obj in CRDS.items():
        for patch_id, patch in PATCHES.items():
            rows.append({"id": f"{crd_id}/{patch_id}", "crd": crd_obj, "object": OBJECT,
                         "patch": patch, "kubectl": "1.32",
                         "output": build(crd_obj, OBJECT, patch)})
    OUT.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))
    print(f"{len(rows)} cases -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
