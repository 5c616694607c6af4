#!/usr/bin/env python3
"""The Kubernetes engine on big objects and trees, side by side with kubectl.

``patch``: for objects of about 100 to 20,000 YAML lines (a ConfigMap with many keys, a
Deployment with many containers and env entries, a CustomResourceDefinition with a big
schema) and each ``--type``, the same command line run as ``cfgpatch kube patch`` and as
``kubectl patch --local`` (both whole processes, interleaved, best of N), plus our time
inside one process (read, patch, print, as without --explain); first, for a small object,
the split of our process time (Python start-up, imports, work) next to kubectl's process
start, so the process numbers can be read.

``build``: ``cfgpatch kube build`` against ``kubectl kustomize`` on generated trees of
10 to 400 resources (only when ``cfgpatch kube build`` exists).

    python benchmarks/bench_kube.py [--rounds 5] [--sizes 100,1000,5000,20000] [--kubectl PATH]

Prints one table per part; the ratio column is ours / kubectl's (below 1: we are faster).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from cfgpatch.kube import patch as kube_patch  # noqa: E402
from cfgpatch.kube.io import reader, writer  # noqa: E402

# ----------------------------------------------------------------- objects and patches


def configmap(lines: int) -> tuple[dict, dict]:
    keys = max(1, lines - 5)
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "big", "namespace": "ns"},
           "data": {f"key-{i:06d}": f"value number {i} with some text" for i in range(keys)}}
    patches = {
        "strategic": {"data": {"key-000003": "changed", "new-key": "added"}},
        "merge": {"data": {"key-000003": "changed", "key-000004": None}},
        "json": [{"op": "replace", "path": "/data/key-000003", "value": "changed"},
                 {"op": "add", "path": "/data/new-key", "value": "added"}],
    }
    return obj, patches


def deployment(lines: int) -> tuple[dict, dict]:
    # about 4 lines per env entry and 8 per container
    containers = max(1, lines // 400)
    env = max(1, (lines - 8 * containers) // (2 * containers))
    obj = {"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": "web", "namespace": "ns", "labels": {"app": "web"}},
           "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [
                        {"name": f"c{c}", "image": f"registry.example/app-{c}:1.0",
                         "ports": [{"containerPort": 8000 + c, "name": f"http-{c}"}],
                         "env": [{"name": f"VAR_{c}_{i}", "value": str(i)} for i in range(env)]}
                        for c in range(containers)]}}}}
    patches = {
        "strategic": {"spec": {"template": {"spec": {"containers": [
            {"name": "c0", "env": [{"name": "VAR_0_1", "value": "changed"},
                                   {"name": "ADDED", "value": "x"}]},
            {"name": "sidecar", "image": "sidecar:1"}]}}}},
        "merge": {"spec": {"replicas": 5, "template": {"metadata": {"labels": {"tier": "x"}}}}},
        "json": [{"op": "replace", "path": "/spec/template/spec/containers/0/env/1/value",
                  "value": "changed"},
                 {"op": "add", "path": "/spec/template/spec/containers/0/env/-",
                  "value": {"name": "ADDED", "value": "x"}}],
    }
    return obj, patches


def crd(lines: int) -> tuple[dict, dict]:
    fields = max(1, lines // 4)
    props = {f"field{i:05d}": {"type": "string", "description": f"field number {i}"}
             for i in range(fields)}
    obj = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
           "metadata": {"name": "widgets.example.com"},
           "spec": {"group": "example.com", "scope": "Namespaced",
                    "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                    "versions": [{"name": "v1", "served": True, "storage": True, "schema": {
                        "openAPIV3Schema": {"type": "object", "properties": {"spec": {
                            "type": "object", "properties": props}}}}}]}}
    spec_props = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties"
    patches = {  # no strategic: kubectl has no Go type for a CRD either ("not supported")
        "merge": {"metadata": {"labels": {"owner": "team-a"}}},
        "json": [{"op": "replace", "path": f"{spec_props}/field00003/description",
                  "value": "changed"},
                 {"op": "add", "path": f"{spec_props}/added", "value": {"type": "integer"}}],
    }
    return obj, patches


KINDS = {"ConfigMap": configmap, "Deployment": deployment, "CRD": crd}

# ----------------------------------------------------------------- timing


#: Python as installed packages run: with their byte code cached (some shells set
#: PYTHONDONTWRITEBYTECODE, which would add the compilation of every module to each run).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
#: ``python -m cfgpatch`` runs this checkout's code (not whatever copy is installed).
ENV["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), *filter(None, [ENV.get("PYTHONPATH")])])


def best_of(rounds: int, commands: list[list[str]], cwd: Path) -> list[float]:
    """Run each command once to warm caches, then ``rounds`` times interleaved; the
    minimum wall time of each."""
    best = [float("inf")] * len(commands)
    for command in commands:
        subprocess.run(command, cwd=cwd, capture_output=True, env=ENV)
    for _ in range(rounds):
        for index, command in enumerate(commands):
            start = time.perf_counter()
            done = subprocess.run(command, cwd=cwd, capture_output=True, env=ENV)
            elapsed = time.perf_counter() - start
            if done.returncode != 0:
                raise SystemExit(f"{command[:3]} failed: {done.stderr.decode()[:400]}")
            best[index] = min(best[index], elapsed)
    return best


def in_process(rounds: int, text: str, patch_text: str, patch_type: str) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        obj, notes, body, body_notes = reader.load_inputs(text, "obj.yaml", patch_text,
                                                          patch_type, True)
        result = kube_patch(obj, body, patch_type, notes=notes, patch_notes=body_notes,
                            explain=False)  # as the command line without --explain
        writer.dump(result.object, "json")
        best = min(best, time.perf_counter() - start)
    return best


def yaml_text(obj: dict) -> str:
    return writer.dump(obj, "yaml")


def bench_patch(args: argparse.Namespace, kubectl: str, work: Path) -> None:
    cfgpatch = [sys.executable, "-m", "cfgpatch"]
    bench_patch_startup(args, kubectl, work)
    print(f"{'kind':<11} {'lines':>6} {'type':<9} {'ours ms':>8} {'kubectl ms':>10} "
          f"{'ratio':>6} {'in-process ms':>13}")
    for kind, make in KINDS.items():
        for size in args.sizes:
            obj, patches = make(size)
            text = yaml_text(obj)
            (work / "obj.yaml").write_text(text)
            lines = text.count("\n")
            for patch_type, body in patches.items():
                patch_text = json.dumps(body)
                common = ["patch", "--local", "-f", "obj.yaml", "--type", patch_type,
                          "-p", patch_text, "-o", "json"]
                ours, theirs = best_of(args.rounds, [[*cfgpatch, "kube", *common],
                                                     [kubectl, *common]], work)
                inside = in_process(args.rounds, text, patch_text, patch_type)
                print(f"{kind:<11} {lines:>6} {patch_type:<9} {ours * 1000:>8.0f} "
                      f"{theirs * 1000:>10.0f} {ours / theirs:>6.2f} {inside * 1000:>13.1f}")


#: Imports the given modules in order (some, such as ``org.python.core`` that ``copy``
#: looks for, are attempts that fail: importtime lists them too).
IMPORT_ALL = ("import importlib\nfor name in {!r}:\n    try:\n        importlib.import_module(name)"
              "\n    except ImportError:\n        pass")


def patch_modules(work: Path, words: list[str]) -> list[str]:
    """The modules ``cfgpatch kube patch`` imports beyond a bare interpreter's (in
    import order), found by running it once under ``-X importtime``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "cfgpatch", "kube", *words],
                          cwd=work, capture_output=True, text=True, env=ENV)
    bare = subprocess.run([sys.executable, "-X", "importtime", "-c", "pass"],
                          capture_output=True, text=True, env=ENV)
    names = lambda out: [line.rsplit("|", 1)[1].strip() for line in out.splitlines()  # noqa: E731
                         if line.startswith("import time:") and "|" in line][1:]
    already = set(names(bare.stderr))
    return [name for name in names(done.stderr) if name not in already and name != "runpy"]


def bench_patch_startup(args: argparse.Namespace, kubectl: str, work: Path) -> None:
    """Where a small ``kube patch`` process spends its time, next to kubectl's.

    Measured interleaved (best of ``--rounds``): a bare interpreter (``python -c
    pass``), the interpreter importing what the command imports, the command itself,
    and kubectl's process start (``kubectl version --client``) and its patch.
    """
    obj, patches = configmap(10)
    (work / "small.yaml").write_text(yaml_text(obj))
    words = ["patch", "--local", "-f", "small.yaml", "--type", "merge",
             "-p", json.dumps(patches["merge"]), "-o", "json"]
    modules = patch_modules(work, words)
    ours = [n for n in modules if n.startswith("cfgpatch")]
    commands = [[sys.executable, "-c", "pass"],
                [sys.executable, "-c", IMPORT_ALL.format(modules)],
                [sys.executable, "-m", "cfgpatch", "kube", *words],
                [kubectl, "version", "--client"],
                [kubectl, *words]]
    rounds = args.rounds * 3
    print(f"start-up of a small kube patch ({len(ours)} cfgpatch modules and "
          f"{len(modules) - len(ours)} others imported; best of {rounds}, interleaved):")
    for label, times in (("wall", best_of(rounds, commands, work)),
                         ("CPU", cpu_best_of(rounds, commands, work))):
        bare, imports, command, kube_start, kube_patch_ms = (t * 1000 for t in times)
        print(f"  {label:>4} ours: {command:4.0f} ms = Python start-up {bare:.0f} ms + imports "
              f"{imports - bare:.0f} ms + reading, patching, printing {command - imports:.0f} ms;"
              f" kubectl: {kube_patch_ms:.0f} ms, of which its process start (kubectl version"
              f" --client) {kube_start:.0f} ms; ours / kubectl {command / kube_patch_ms:.2f}")
    sys.stdout.flush()


def cpu_best_of(rounds: int, commands: list[list[str]], cwd: Path) -> list[float]:
    """As :func:`best_of`, in CPU time (user + system) of each child process, which the
    other load of a shared machine disturbs less than wall time."""
    best = [float("inf")] * len(commands)
    for _ in range(rounds):
        for index, command in enumerate(commands):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(command, cwd=cwd, capture_output=True, env=ENV, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            best[index] = min(best[index], used)
    return best


# ----------------------------------------------------------------- build


def write_tree(root: Path, resources: int) -> None:
    """A base of ``resources`` Deployments and Services and an overlay patching them."""
    base = root / "base"
    base.mkdir(parents=True)
    names = []
    for i in range(resources // 2):
        name = f"app{i:04d}"
        obj, _ = deployment(60)
        obj["metadata"] = {"name": name, "labels": {"app": name}}
        svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
               "spec": {"selector": {"app": name}, "ports": [{"port": 80, "targetPort": 8000}]}}
        (base / f"{name}.yaml").write_text(yaml_text(obj) + "---\n" + yaml_text(svc))
        names.append(f"{name}.yaml")
    (base / "kustomization.yaml").write_text("resources:\n" + "".join(f"- {n}\n" for n in names))
    overlay = root / "overlay"
    overlay.mkdir()
    (overlay / "replicas.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: not-used\n"
        "spec:\n  replicas: 2\n")
    (overlay / "kustomization.yaml").write_text(
        "resources:\n- ../base\nnamespace: prod\nnamePrefix: prod-\n"
        "labels:\n- pairs:\n    env: prod\n"
        "patches:\n- path: replicas.yaml\n  target:\n    kind: Deployment\n"
        "- patch: |-\n    - op: add\n      path: /metadata/annotations\n"
        "      value: {team: a}\n  target:\n    kind: Service\n"
        "images:\n- name: registry.example/app-0\n  newTag: \"2.0\"\n")


def bench_build(args: argparse.Namespace, kubectl: str, work: Path) -> None:
    probe = subprocess.run([sys.executable, "-m", "cfgpatch", "kube", "build", "--help"],
                           capture_output=True)
    if probe.returncode != 0:
        print("build: `cfgpatch kube build` is not available in this checkout; skipped")
        return
    print(f"{'resources':>9} {'ours ms':>8} {'kubectl ms':>10} {'ratio':>6}")
    for resources in (10, 100, 400):
        tree = work / f"tree{resources}"
        write_tree(tree, resources)
        overlay = str(tree / "overlay")
        ours, theirs = best_of(args.rounds, [
            [sys.executable, "-m", "cfgpatch", "kube", "build", overlay],
            [kubectl, "kustomize", overlay]], work)
        print(f"{resources:>9} {ours * 1000:>8.0f} {theirs * 1000:>10.0f} {ours / theirs:>6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="100,1000,5000,20000",
                        type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--kubectl", default=shutil.which("kubectl"))
    parser.add_argument("--part", choices=("patch", "build", "all"), default="all")
    args = parser.parse_args()
    if not args.kubectl:
        raise SystemExit("kubectl is not on PATH (give --kubectl)")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if args.part in ("patch", "all"):
            bench_patch(args, args.kubectl, work)
        if args.part in ("build", "all"):
            bench_build(args, args.kubectl, work)


if __name__ == "__main__":
    main()
