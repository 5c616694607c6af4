"""Live differential tests: the engine against real kubectl binaries (required in CI).

* every recorded corpus case is run through each installed ``kubectl.1.27`` ...
  ``kubectl.1.33`` and through ``cfgpatch kube patch``; any disagreement fails unless
  :data:`KNOWN_VERSION_DIFFERENCES` explains it (and the explanation must match what
  the older binary printed);
* a property test builds random objects and random strategic patches from the merge
  schema (directives included) and compares the engine with kubectl 1.32; a second
  one does the same for merge patches and random JSON Patch operations.

Compared: the exit code; on success the ``-o json`` output byte for byte; on failure
the first line of standard error (kubectl's ``error: ...`` or ``panic: ...``).
Locally these tests skip when kubectl is absent; with ``CI=true`` they fail instead.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfgpatch.kube.schema.node import SCALAR_KINDS, builtin_schema
from conftest import require
from test_kube_corpus import CASES, Case, run_cli
from test_kube_kustomize import (
    CONTAINER_CASES,
    CONTAINER_PORT_CASES,
    DEPLOY,
    DNS,
    SERVICE_PORT_CASES,
)

VERSIONS = ("1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33")


def kubectl_binaries() -> dict[str, str]:
    """Installed ``kubectl.1.NN`` binaries next to the ``kubectl`` on PATH."""
    found = shutil.which("kubectl")
    if not found:
        return {}
    folder = Path(os.path.realpath(found)).parent
    return {v: str(folder / f"kubectl.{v}") for v in VERSIONS
            if (folder / f"kubectl.{v}").exists()}


BINARIES = kubectl_binaries()


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    first_error: str

    def describe(self) -> str:
        return f"exit {self.code}: " + (self.first_error or self.stdout[:300])


def _first_line(text: str) -> str:
    return text.splitlines()[0] if text.strip() else ""


def run_kubectl(binary: str, manifest: str, object_text: str, argv: tuple[str, ...]) -> Outcome:
    """``<binary> <argv>`` in a scratch folder holding the object as ``manifest``."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / manifest).write_text(object_text, encoding="utf-8")
        proc = subprocess.run([binary, *argv], capture_output=True, text=True, timeout=60,
                              cwd=folder)
    return Outcome(proc.returncode, proc.stdout, _first_line(proc.stderr))


def run_engine(manifest: str, object_text: str, argv: tuple[str, ...]) -> Outcome:
    """``cfgpatch kube <argv>`` on the same inputs (through the CLI contract)."""
    run = run_cli(Case("live", manifest, object_text, "", "", argv, "", "", 0))
    return Outcome(run.code, run.stdout, _first_line(run.stderr))


def patch_argv(manifest: str, patch_type: str, patch_text: str) -> tuple[str, ...]:
    return ("patch", "--local", "-f", manifest, "--type", patch_type, "-p", patch_text,
            "-o", "json")


# ------------------------------------------------------------ known differences


@dataclass(frozen=True)
class VersionDifference:
    """A documented way an older or newer kubectl differs from 1.32 on some input."""

    versions: tuple[str, ...]
    reason: str
    applies: object  # (case patch text) -> bool
    expected: object  # (outcome of that version) -> bool


KNOWN_VERSION_DIFFERENCES = (
    VersionDifference(
        ("1.27",),
        "$deleteFromPrimitiveList/<f> on a list without merge strategy (e.g. Namespace "
        "spec.finalizers) is ignored by 1.27 and applied by 1.28+ (lab case F15)",
        lambda patch_text: "$deleteFromPrimitiveList/" in patch_text,
        lambda outcome: outcome.code == 0),
    VersionDifference(
        ("1.27", "1.28", "1.29", "1.30", "1.31"),
        "a list or map field added to the API after that release is unknown to the older "
        "kubectl: present in both object and patch it fails the schema lookup",
        lambda patch_text: True,
        lambda outcome: outcome.first_error.startswith("error: unable to find api field")),
)


def explained(version: str, patch_text: str, outcome: Outcome) -> str | None:
    for difference in KNOWN_VERSION_DIFFERENCES:
        if (version in difference.versions and difference.applies(patch_text)
                and difference.expected(outcome)):
            return difference.reason
    return None


# ------------------------------------------------------------ corpus, every binary


def _need_kubectl() -> None:
    require(bool(BINARIES), "kubectl binaries (kubectl.1.27 ... kubectl.1.33) not installed")


def test_corpus_against_every_installed_kubectl():
    _need_kubectl()
    require(bool(CASES), "no recorded corpus cases under tests/data/kube/cases")
    failures = []
    with ThreadPoolExecutor(max_workers=4) as pool:
        jobs = [(case, v, pool.submit(run_kubectl, binary, case.manifest, case.object_text,
                                      case.argv))
                for case in CASES for v, binary in BINARIES.items()]
        engine = {case.name: run_engine(case.manifest, case.object_text, case.argv)
                  for case in CASES}
        for case, version, future in jobs:
            theirs, ours = future.result(), engine[case.name]
            if theirs == ours or explained(version, case.patch_text, theirs):
                continue
            failures.append(f"{case.name} kubectl {version}: {theirs.describe()}\n"
                            f"    engine: {ours.describe()}")
    assert not failures, f"{len(failures)} disagreements:\n" + "\n".join(failures[:30])


# ------------------------------------------------------------ property test

KINDS = [("apps/v1", "Deployment"), ("v1", "Service"), ("v1", "Pod"), ("v1", "Namespace"),
         ("apps/v1", "StatefulSet"), ("apps/v1", "DaemonSet"), ("batch/v1", "Job"),
         ("networking.k8s.io/v1", "NetworkPolicy"), ("v1", "ServiceAccount"),
         ("rbac.authorization.k8s.io/v1", "Role"), ("v1", "Node"),
         ("policy/v1", "PodDisruptionBudget"), ("v1", "ConfigMap")]
SKIP_FIELDS = {"apiVersion", "kind", "status", "managedFields", "creationTimestamp",
               "deletionTimestamp", "name"}
OPAQUE = {"IntOrString", "Quantity", "Time", "MicroTime", "Duration", "FieldsV1",
          "RawExtension"}
WORDS = ["a", "b", "c"]


class Generator:
    """Random objects and strategic patches shaped by the merge schema."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def scalar(self, node) -> object:
        if node.kind == "slice":
            return self.r.choice(["YQ==", "Yg=="])
        if node.kind in ("int32", "int64", "int"):
            return self.r.randint(1, 3)
        if node.kind == "bool":
            return self.r.random() < 0.5
        if node.kind == "float64":
            return self.r.choice([0.5, 1.5])
        return self.r.choice(WORDS)

    def is_scalar(self, node) -> bool:
        if node.kind == "slice" and node.elem.kind == "uint8":
            return True  # []byte is a base64 string in JSON
        return node.kind in SCALAR_KINDS or node.kind == "open" or (
            node.kind == "struct" and (node.name in OPAQUE or not node.field_names()))

    def fields(self, node, count: int) -> list[str]:
        names = [n for n in node.field_names() if n not in SKIP_FIELDS]
        weights = []
        for name in names:
            child, meta = node.field(name)
            weights.append(6 if meta.strategy or meta.retain_keys else
                           3 if child.kind in ("slice", "map", "struct") else 1)
        picked: list[str] = []
        for _ in range(min(count, len(names))):
            name = self.r.choices(names, weights)[0]
            if name not in picked:
                picked.append(name)
        return picked

    def value(self, node, meta, depth: int) -> object:
        if self.is_scalar(node):
            return self.scalar(node)
        if node.kind == "slice":
            return self.items(node, meta, depth)
        if node.kind == "map":
            return {k: self.value(node.elem, None, depth + 1)
                    for k in self.r.sample(["x", "y"], self.r.randint(1, 2))}
        if depth > 4:
            return {}
        return {name: self.value(*node.field(name), depth + 1)
                for name in self.fields(node, self.r.randint(1, 3))}

    def items(self, node, meta, depth: int) -> list:
        elem = node.elem
        key = meta.merge_key if meta is not None else ""
        if self.is_scalar(elem) or depth > 4:
            return [self.scalar(elem) for _ in range(self.r.randint(1, 3))]
        out = []
        for key_value in self.r.sample(self.key_pool(elem, key), self.r.randint(1, 3)):
            made = self.value(elem, None, depth + 1)
            item = made if isinstance(made, dict) else {}
            if key:
                item[key] = key_value
            out.append(item)
        return out

    def key_pool(self, elem, key: str) -> list:
        if key and elem.kind == "struct" and elem.field(key) is not None:
            child = elem.field(key)[0]
            if child.kind in ("int32", "int64"):
                return [1, 2, 3]
        return WORDS

    def patch(self, node, current, depth: int = 0) -> dict:
        out: dict = {}
        present = [k for k in current if k not in SKIP_FIELDS] if isinstance(current,
                                                                              dict) else []
        names = self.fields(node, self.r.randint(1, 2))
        if present and self.r.random() < 0.7:
            names = [self.r.choice(present)] + names[:1]
        for name in dict.fromkeys(names):
            found = node.field(name)
            if found is None:
                continue
            child, meta = found
            old = current.get(name) if isinstance(current, dict) else None
            roll = self.r.random()
            if roll < 0.08:
                out[name] = None
            elif child.kind == "slice":
                self.list_patch(out, name, child, meta, old, depth)
            elif child.kind == "struct" and not self.is_scalar(child) and depth < 5:
                inner = self.patch(child, old, depth + 1)
                if meta.retain_keys and self.r.random() < 0.7:
                    inner["$retainKeys"] = sorted(set(inner) | set(
                        self.r.sample(child.field_names(), 1)))
                out[name] = inner
            else:
                out[name] = self.value(child, meta, depth + 1)
        if self.r.random() < 0.05:
            out["$patch"] = self.r.choice(["replace", "delete"])
        return out

    def list_patch(self, out: dict, name: str, child, meta, old, depth: int) -> None:
        items = self.items(child, meta, depth + 1)
        key = meta.merge_key
        olds = old if isinstance(old, list) else []
        if key and items and isinstance(items[0], dict):
            reuse = [o.get(key) for o in olds if isinstance(o, dict) and key in o]
            for item in items:
                if reuse and self.r.random() < 0.6:
                    item[key] = self.r.choice(reuse)
                    if self.r.random() < 0.3:
                        patched = self.patch(child.elem, next(
                            (o for o in olds if o.get(key) == item[key]), {}), depth + 1)
                        item.update({k: v for k, v in patched.items() if k != key})
                if self.r.random() < 0.1:
                    item["$patch"] = "delete"
            if self.r.random() < 0.15:
                order = [{key: v} for v in dict.fromkeys(
                    [i[key] for i in items if key in i] + reuse)]
                self.r.shuffle(order)
                out[f"$setElementOrder/{name}"] = order
        elif meta.strategy == "merge" and olds and self.r.random() < 0.3:
            out[f"$deleteFromPrimitiveList/{name}"] = [self.r.choice(olds)]
        out[name] = items


def random_case(seed: int) -> tuple[str, str]:
    gen = Generator(seed)
    api_version, kind = gen.r.choice(KINDS)
    node = builtin_schema().for_kind(api_version, kind)
    obj = {"apiVersion": api_version, "kind": kind, "metadata": {"name": "x"}}
    for name in gen.fields(node, gen.r.randint(2, 3)):
        obj[name] = gen.value(*node.field(name), 1)
    if isinstance(obj.get("metadata"), dict):
        obj["metadata"]["name"] = "x"
    patch = gen.patch(node, obj)
    return json.dumps(obj), json.dumps(patch)


@settings(max_examples=int(os.environ.get("KUBE_PROPERTY_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.integers(0, 2**31))
def test_property_random_strategic_patches_agree_with_kubectl(seed):
    _need_kubectl()
    binary = BINARIES.get("1.32") or next(iter(BINARIES.values()))
    object_text, patch_text = random_case(seed)
    argv = patch_argv("object.json", "strategic", patch_text)
    theirs = run_kubectl(binary, "object.json", object_text, argv)
    ours = run_engine("object.json", object_text, argv)
    if theirs.code == 2 and ours.code == 2:
        return  # both crash; the panic text itself is not part of the contract
    if ours != theirs:
        # Some patches make kubectl itself vary from run to run (Go map iteration order,
        # e.g. a value both in $deleteFromPrimitiveList/f and in f): accept the engine
        # when it gives one of kubectl's own answers and flags the case.
        answers = {run_kubectl(binary, "object.json", object_text, argv) for _ in range(8)}
        if len(answers | {theirs}) > 1 and ours in answers:
            assert "kubectl-nondeterministic" in _finding_codes(object_text, patch_text)
            return
    assert ours == theirs, (f"object {object_text}\npatch {patch_text}\n"
                            f"kubectl {theirs.describe()}\nengine  {ours.describe()}")


def _pointers(value, prefix: str = "") -> list[str]:
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _pointers(child, f"{prefix}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _pointers(child, f"{prefix}/{i}")
    return out


def random_json_patch(seed: int, obj: dict) -> str:
    """Random JSON Patch operations aimed at (and next to) the object's own paths."""
    r = random.Random(seed)
    pointers = _pointers(obj)
    ops = []
    for _ in range(r.randint(1, 3)):
        op = {"op": r.choice(["add", "remove", "replace", "move", "copy", "test"]),
              "path": r.choice(pointers) + r.choice(["", "", "/-", "/0", "/new"])}
        if op["op"] in ("move", "copy"):
            op["from"] = r.choice(pointers)
        if op["op"] in ("add", "replace", "test"):
            op["value"] = r.choice([1, "a", None, {"k": [1]}, [1, 2], 1.5, True])
        ops.append(op)
    return json.dumps(ops)


@settings(max_examples=int(os.environ.get("KUBE_PROPERTY_EXAMPLES", "60")) // 2,
          deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.integers(0, 2**31))
def test_property_random_merge_and_json_patches_agree_with_kubectl(seed):
    _need_kubectl()
    binary = BINARIES.get("1.32") or next(iter(BINARIES.values()))
    object_text, merge_text = random_case(seed)
    json_text = random_json_patch(seed, json.loads(object_text))
    for patch_type, patch_text in (("merge", merge_text), ("json", json_text)):
        argv = patch_argv("object.json", patch_type, patch_text)
        theirs = run_kubectl(binary, "object.json", object_text, argv)
        ours = run_engine("object.json", object_text, argv)
        if theirs.code == 2 and ours.code == 2:
            continue
        assert ours == theirs, (f"object {object_text}\n{patch_type} {patch_text}\n"
                                f"kubectl {theirs.describe()}\nengine  {ours.describe()}")


def _finding_codes(object_text: str, patch_text: str) -> list[str]:
    from cfgpatch.kube import patch
    return [f.code for f in patch(json.loads(object_text), json.loads(patch_text)).findings]


def test_generator_is_deterministic_and_builds_directives():
    cases = [random_case(seed) for seed in range(200)]
    assert cases == [random_case(seed) for seed in range(200)]
    text = " ".join(p for _, p in cases)
    for directive in ("$patch", "$setElementOrder/", "$retainKeys", "$deleteFromPrimitiveList/",
                      "null"):
        assert directive in text, directive


# ------------------------------------------------------------ kustomize view, live


def kustomize_pairs() -> list[tuple[str, dict, dict]]:
    """(id, resource, patch body) for every recorded kustomize case."""
    pairs = [(f"svc-{i}", DNS, {"spec": {"ports": body}})
             for i, (body, _) in enumerate(SERVICE_PORT_CASES)]
    pairs += [(f"cport-{i}", DEPLOY, {"spec": {"template": {"spec": {"containers": [
        {"name": "app", "ports": body}]}}}}) for i, (body, _) in enumerate(CONTAINER_PORT_CASES)]
    pairs += [(f"containers-{i}", DEPLOY, {"spec": {"template": {"spec": {"containers": body}}}})
              for i, (body, _) in enumerate(CONTAINER_CASES)]
    pairs += [("finalizers", DEPLOY, {"metadata": {"finalizers": ["b.example/two", "c"]}}),
              ("env-null", DEPLOY, {"spec": {"template": {"spec": {"containers": [
                  {"name": "app", "env": [{"name": "MODE", "value": None}]}]}}}}),
              ("directives", DEPLOY, {"metadata": {
                  "$deleteFromPrimitiveList/finalizers": ["a.example/one"]}, "spec": {
                  "template": {"spec": {"$setElementOrder/containers": [{"name": "metrics"}]}}}})]
    return pairs


def run_kustomize(binary: str, resource: dict, body: dict) -> dict | str:
    import yaml

    head = {"apiVersion": resource["apiVersion"], "kind": resource["kind"]}
    document = {**head, **body, "metadata": {"name": resource["metadata"]["name"],
                                             **body.get("metadata", {})}}
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "res.json").write_text(json.dumps(resource))
        Path(folder, "patch.json").write_text(json.dumps(document))
        Path(folder, "kustomization.yaml").write_text(
            "resources: [res.json]\npatches:\n- path: patch.json\n")
        proc = subprocess.run([binary, "kustomize", folder], capture_output=True, text=True,
                              timeout=60)
    return yaml.safe_load(proc.stdout) if proc.returncode == 0 else proc.stderr


def test_kustomize_view_against_kubectl_kustomize():
    _need_kubectl()
    from cfgpatch.kube import patch

    binary = BINARIES.get("1.32") or next(iter(BINARIES.values()))
    failures = []
    for name, resource, body in kustomize_pairs():
        head = {"apiVersion": resource["apiVersion"], "kind": resource["kind"],
                "metadata": {"name": resource["metadata"]["name"]}}
        full = {**head, **body, "metadata": {**head["metadata"], **body.get("metadata", {})}}
        ours = patch(json.loads(json.dumps(resource)), full, as_="kustomize").object
        theirs = run_kustomize(binary, resource, body)
        if ours != theirs:
            failures.append(f"{name}: kustomize {theirs}\n    engine {ours}")
    assert not failures, "\n".join(failures)
