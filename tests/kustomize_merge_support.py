"""Shared by the kustomize merge tests: the recorded cases, our answer for a case, and a
generator of random realistic resources and strategic patches (for the live test)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

from cfgpatch.errors import KubeError
from cfgpatch.kube.io.kyaml_read import read_document, read_documents
from cfgpatch.kube.io.kyaml_scalars import node_value
from cfgpatch.kube.io.kyaml_write import write_value
from cfgpatch.kube.kustomize.merge import apply_strategic
from cfgpatch.kube.kustomize.schema import KustomizeSchema
from cfgpatch.kube.kustomize.styles import styled_value

MERGE_DATA = Path(__file__).parent / "data" / "kustomize" / "merge"
RECORDED = json.loads((MERGE_DATA / "recorded.json").read_text(encoding="utf-8"))["cases"]


@dataclass(frozen=True)
class Answer:
    """What a build of one resource file and one patch printed."""

    exit_code: int
    documents: tuple[str, ...]  # printed resources, as kustomize separates them
    error: str  # "error: <message>" (first line) on failure

    @classmethod
    def from_kubectl(cls, exit_code: int, stdout: str, stderr: str) -> Answer:
        docs = tuple(d for d in ("\n" + stdout).split("\n---\n") if d.strip())
        docs = tuple(d.lstrip("\n") + ("" if d.endswith("\n") else "\n") for d in docs)
        error = next((line for line in stderr.splitlines() if line.startswith("error: ")),
                     "")
        full = stderr[stderr.find("error: "):] if "error: " in stderr else ""
        return cls(exit_code, docs if exit_code == 0 else (), full or error)


def schema_for(openapi_text: str | None) -> KustomizeSchema:
    if openapi_text is None:
        return KustomizeSchema.builtin()
    return KustomizeSchema.with_openapi(node_value(read_document(openapi_text)))


def our_answer(resources_text: str, patch_text: str, openapi_text: str | None) -> Answer:
    """Apply the patch to the resources it names (kind and name), as one build would."""
    resources = [styled_value(n) for n in read_documents(resources_text)]
    patch = styled_value(read_document(patch_text))
    schema = schema_for(openapi_text)
    out = []
    try:
        for resource in resources:
            if _targets(patch, resource):
                resource = apply_strategic(resource, patch, schema)
            if resource is not None:
                out.append(write_value(resource))
    except KubeError as exc:
        return Answer(1, (), f"error: {exc.message}\n")
    return Answer(0, tuple(out), "")


def _targets(patch: dict, resource: dict) -> bool:
    def ident(doc: dict) -> tuple:
        meta = doc.get("metadata") if isinstance(doc.get("metadata"), dict) else {}
        return doc.get("kind"), meta.get("name")
    return ident(patch) == ident(resource)


def same(ours: Answer, theirs: Answer) -> bool:
    """Byte-identical printed resources (kustomize may order documents differently: each
    one must be identical), or the same error text."""
    if ours.exit_code != 0 or theirs.exit_code != 0:
        return ours.exit_code != 0 and theirs.exit_code != 0 and ours.error == theirs.error
    return sorted(ours.documents) == sorted(theirs.documents)


def case_texts(name: str) -> tuple[str, str, str | None]:
    folder = MERGE_DATA / "cases" / name
    openapi = folder / "openapi.yaml"
    return ((folder / "resource.yaml").read_text(encoding="utf-8"),
            (folder / "patch.yaml").read_text(encoding="utf-8"),
            openapi.read_text(encoding="utf-8") if openapi.exists() else None)


# ----------------------------------------------------------------- random cases


class Generator:
    """Random Deployments, Services and custom resources, and patches for them: keyed
    lists (one key, two keys), lists of scalars, replaced lists, nulls, directives."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, items: list):
        return items[self.rng.randrange(len(items))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def case(self, name: str) -> tuple[dict, dict]:
        make = self.pick([self.deployment, self.service, self.widget])
        return make(name, False), make(name, True)

    def listed(self, make, patch: bool) -> list:
        items = [make(patch) for _ in range(self.rng.randrange(0 if patch else 1, 4))]
        if patch and self.chance(0.15):
            items.insert(self.rng.randrange(len(items) + 1),
                         {"$patch": self.pick(["merge", "delete", "replace"])})
        if patch and self.chance(0.05):
            items.insert(self.rng.randrange(len(items) + 1), {"image": "lonely"})
        return items

    def meta(self, name: str, patch: bool) -> dict:
        meta: dict = {"name": name}
        if self.chance(0.5):
            meta["labels"] = {self.pick(["app", "tier"]): self.pick(["web", "db"])}
        if not patch and self.chance(0.2):
            meta["labels"] = {"gone": None, "k": "v"}
        if self.chance(0.3):
            meta["finalizers"] = [self.pick(["f1", "f2", "f3"])
                                  for _ in range(self.rng.randrange(1, 3))]
        if patch and self.chance(0.1):
            meta["$deleteFromPrimitiveList/finalizers"] = ["f1"]
        return meta

    def container(self, patch: bool) -> dict:
        c: dict = {"name": self.pick(["a", "b", "c"])}
        if self.chance(0.7):
            c["image"] = self.pick(["nginx", "redis:1", "busybox"])
        if self.chance(0.4):
            c["env"] = [{"name": self.pick(["A", "B", "C"]), "value": self.pick(["1", "x"])}
                        for _ in range(self.rng.randrange(3))]
        if self.chance(0.4):
            c["ports"] = [self.container_port() for _ in range(self.rng.randrange(3))]
        if self.chance(0.3):
            c["args"] = [self.pick(["-v", "-x", "run"]) for _ in range(self.rng.randrange(3))]
        if self.chance(0.3):
            c["volumeMounts"] = [{"name": self.pick(["data", "cfg"]),
                                  "mountPath": self.pick(["/d", "/c"])}
                                 for _ in range(self.rng.randrange(1, 3))]
        if patch and self.chance(0.15):
            c["$patch"] = self.pick(["delete", "replace", "merge"])
        if patch and self.chance(0.1):
            c[self.pick(["image", "env", "ports"])] = None
        return c

    def container_port(self) -> dict:
        port: dict = {"containerPort": self.pick([80, 443, 53])}
        if self.chance(0.6):
            port["protocol"] = self.pick(["TCP", "UDP"])
        if self.chance(0.5):
            port["name"] = self.pick(["http", "dns", "x"])
        return port

    def pod_spec(self, patch: bool) -> dict:
        spec: dict = {}
        if self.chance(0.8):
            spec["containers"] = self.listed(self.container, patch)
        if self.chance(0.3):
            spec["initContainers"] = self.listed(self.container, patch)
        if self.chance(0.3):
            spec["volumes"] = [{"name": self.pick(["data", "cfg"]),
                                self.pick(["emptyDir", "configMap"]): {}}
                               for _ in range(self.rng.randrange(1, 3))]
        if self.chance(0.3):
            spec["tolerations"] = [{"key": self.pick(["k1", "k2"]), "operator": "Exists"}
                                   for _ in range(self.rng.randrange(1, 3))]
        if self.chance(0.3):
            spec["imagePullSecrets"] = [{"name": self.pick(["r1", "r2"])}
                                        for _ in range(self.rng.randrange(1, 3))]
        if self.chance(0.2):
            spec["nodeSelector"] = {self.pick(["zone", "disk"]): self.pick(["a", "ssd"])}
        if patch and self.chance(0.1):
            spec["$patch"] = self.pick(["replace", "delete"])
        if patch and self.chance(0.1):
            spec["$retainKeys"] = ["containers"]
        if patch and self.chance(0.1):
            spec["$setElementOrder/containers"] = [{"name": "b"}, {"name": "a"}]
        if patch and self.chance(0.1):
            spec[self.pick(["nodeSelector", "volumes", "tolerations"])] = None
        return spec

    def deployment(self, name: str, patch: bool) -> dict:
        doc: dict = {"apiVersion": "apps/v1", "kind": "Deployment",
                     "metadata": self.meta(name, patch)}
        if not patch or self.chance(0.8):
            spec: dict = {"template": {"spec": self.pod_spec(patch)}}
            if self.chance(0.5):
                spec["replicas"] = self.pick([1, 2, 3])
            if not patch and self.chance(0.2):
                spec["paused"] = None
            if self.chance(0.2):
                spec["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}
            doc["spec"] = spec
        if patch and self.chance(0.03):
            doc["$patch"] = self.pick(["delete", "replace"])
        return doc

    def service_port(self, patch: bool) -> dict:
        port: dict = {}
        if not patch or self.chance(0.9):
            port["port"] = self.pick([53, 80, 9153])
        if self.chance(0.6):
            port["protocol"] = self.pick(["TCP", "UDP"])
        if self.chance(0.5):
            port["name"] = self.pick(["dns", "http", "m"])
        if self.chance(0.3):
            port["targetPort"] = self.pick([1, 2, "x"])
        if patch and self.chance(0.15):
            port["$patch"] = "delete"
        return port

    def service(self, name: str, patch: bool) -> dict:
        return {"apiVersion": "v1", "kind": "Service", "metadata": self.meta(name, patch),
                "spec": {"ports": self.listed(self.service_port, patch),
                         "selector": {"app": "web"}}}

    def widget(self, name: str, patch: bool) -> dict:
        def member(_patch: bool) -> dict:
            return {"name": self.pick(["a", "b", "c"]), "v": self.pick([1, 2])}
        doc: dict = {"apiVersion": "example.com/v1", "kind": "Widget",
                     "metadata": self.meta(name, patch),
                     "spec": {"items": self.listed(member, patch), "size": self.pick([1, 2])}}
        if self.chance(0.3):
            doc["items"] = [{"name": self.pick(["a", "b"])}]
        if not patch and self.chance(0.3):
            doc["spec"]["gone"] = None
        if patch and self.chance(0.2):
            doc["spec"]["size"] = None
        if patch and self.chance(0.1):
            doc["spec"]["$patch"] = self.pick(["replace", "delete"])
        return doc
