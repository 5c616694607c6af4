#!/usr/bin/env python3
"""The Kubernetes engine on big objects and trees, side by side with kubectl.

``patch``: for objects of about 100 to 20,000 YAML lines (a ConfigMap with many keys, a
Deployment with many containers and env entries, a CustomResourceDefinition with a big
schema) and each ``--type``, the same command line run as ``cfgpatch kube patch`` and as
``kubectl patch --local`` (both whole processes, interleaved, best of N), plus our time
inside one process (read, patch, print, as without --explain); first, for a small object,
the split of our process time (Python start-up, imports, work) next to kubectl's process
start, so the process numbers can be read.

``build``: ``cfgpatch kube build`` against ``kubectl kustomize`` (whole processes, best
of N, interleaved; outputs checked identical first) on generated trees of about 100,
500 and 2,000 resources (bases of 25 apps, two overlays, strategic patches that merge
containers and env, JSON patches, generators, name references), plus our time inside
one process (the build and its YAML, without Python's start-up); first, a small folder
(``bench_kube_startup.py``: median CPU and wall time against ``kubectl kustomize``).
With ``--tree DIR`` (repeatable), real trees instead: every kustomization folder of
``DIR`` built by both, per folder (``bench_kube_tree.py``: median and total ratios).

    python benchmarks/bench_kube.py [--rounds 5] [--sizes 100,1000,5000,20000]
        [--part patch|build|all] [--build-sizes 100,500,2000] [--kubectl PATH]
        [--tree DIR [--tree DIR...]] [--verbose]

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
#: the processes run this checkout's code (not whatever cfgpatch the venv has installed)
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


def _app_docs(name: str, team: str) -> str:
    env = [{"name": f"SETTING_{k}", "value": f"value-{k}"} for k in range(10)]
    deploy = {"apiVersion": "apps/v1", "kind": "Deployment",
              "metadata": {"name": name, "labels": {"app": name}},
              "spec": {"replicas": 1, "selector": {"matchLabels": {"app": name}},
                       "template": {"metadata": {"labels": {"app": name}}, "spec": {
                           "serviceAccountName": name,
                           "containers": [
                               {"name": "main", "image": f"registry.example/{team}/{name}:1.0",
                                "ports": [{"containerPort": 8000, "name": "http"}],
                                "env": env, "envFrom": [{"configMapRef": {"name": name}}],
                                "volumeMounts": [{"name": "config", "mountPath": "/etc/app"}]},
                               {"name": "proxy", "image": "envoyproxy/envoy:v1.30",
                                "args": ["--config", "/etc/envoy.yaml"]}],
                           "volumes": [{"name": "config", "configMap": {"name": name}}]}}}}
    svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name},
           "spec": {"selector": {"app": name},
                    "ports": [{"name": "http", "port": 80, "targetPort": "http"}]}}
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name},
              "data": {"MODE": "fast", "LEVEL": "1", "FLAG": "yes"}}
    account = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name}}
    return "---\n".join(yaml_text(d) for d in (deploy, svc, config, account))


def write_tree(root: Path, resources: int) -> Path:
    """A realistic tree of about ``resources`` output resources; returns what to build.

    Apps of four resources each (Deployment with two containers, env, a ConfigMap
    volume; Service; ConfigMap; ServiceAccount), 25 apps to a base; every base has
    labels, a generator and a strategic patch; a ``staging`` overlay takes all bases
    (namespace, prefix, labels, images, replicas, a generator, strategic patches that
    merge containers and env by name, a JSON patch on every Service) and ``prod`` builds
    on staging (suffix, annotations, a patch that merges container resources).
    """
    apps = max(1, resources // 4)
    bases = []
    for first in range(0, apps, 25):
        base = root / f"team{first // 25:02d}"
        base.mkdir(parents=True)
        team = base.name
        files = []
        for i in range(first, min(apps, first + 25)):
            name = f"app{i:04d}"
            (base / f"{name}.yaml").write_text(_app_docs(name, team))
            files.append(f"{name}.yaml")
        (base / "kustomization.yaml").write_text(
            "resources:\n" + "".join(f"- {f}\n" for f in files)
            + f"labels:\n- pairs:\n    team: {team}\n  includeSelectors: true\n"
            + f"configMapGenerator:\n- name: {team}-shared\n  literals: [OWNER={team}]\n"
            + "patches:\n- target: {kind: Deployment}\n  patch: |-\n"
            + "    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: any}\n"
            + "    spec:\n      template:\n        spec:\n          containers:\n"
            + "          - name: main\n            env:\n            - name: TEAM\n"
            + f"              value: {team}\n")
        bases.append(f"../{team}")
    staging = root / "staging"
    staging.mkdir()
    (staging / "kustomization.yaml").write_text(
        "resources:\n" + "".join(f"- {b}\n" for b in bases)
        + "namespace: staging\nnamePrefix: stg-\nlabels:\n- pairs:\n    env: staging\n"
        + "images:\n- name: envoyproxy/envoy\n  newTag: v1.31.2\n"
        + "replicas:\n- name: app0000\n  count: 2\n"
        + "configMapGenerator:\n- name: flags\n  literals: [A=1, B=two]\n"
        + "patches:\n- target: {kind: Deployment, name: \"app00[0-4].*\"}\n  patch: |-\n"
        + "    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: any}\n"
        + "    spec:\n      template:\n        spec:\n          containers:\n"
        + "          - name: main\n            env:\n            - name: SETTING_3\n"
        + "              value: staged\n          - name: debug\n"
        + "            image: busybox:1.36\n"
        + "- target: {kind: Service}\n  patch: |-\n    - op: add\n"
        + "      path: /metadata/annotations\n      value: {exposed: \"true\"}\n")
    prod = root / "prod"
    prod.mkdir()
    (prod / "kustomization.yaml").write_text(
        "resources:\n- ../staging\nnameSuffix: -v2\ncommonAnnotations:\n  tier: prod\n"
        "patches:\n- target: {kind: Deployment}\n  patch: |-\n"
        "    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: any}\n"
        "    spec:\n      template:\n        spec:\n          containers:\n"
        "          - name: main\n            resources:\n              limits:\n"
        "                cpu: \"1\"\n                memory: 1Gi\n")
    return prod


def build_in_process(rounds: int, directory: str) -> float:
    from cfgpatch.kube.kustomize.build import build

    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        build(directory).yaml()
        best = min(best, time.perf_counter() - start)
    return best


def bench_build(args: argparse.Namespace, kubectl: str, work: Path) -> None:
    """``kube build`` vs ``kubectl kustomize`` (whole processes, interleaved, best of N),
    on the trees of :func:`write_tree`; the outputs are checked to be identical first."""
    print(f"{'resources':>9} {'ours ms':>8} {'kubectl ms':>10} {'ratio':>6} "
          f"{'in-process ms':>13}")
    for resources in args.build_sizes:
        tree = work / f"tree{resources}"
        target = str(write_tree(tree, resources))
        ours_cmd = [sys.executable, "-m", "cfgpatch", "kube", "build", target]
        theirs_cmd = [kubectl, "kustomize", target]
        mine = subprocess.run(ours_cmd, capture_output=True, env=ENV)
        theirs = subprocess.run(theirs_cmd, capture_output=True, env=ENV)
        if theirs.returncode or (mine.returncode, mine.stdout) != (0, theirs.stdout):
            raise SystemExit(f"outputs differ for {resources} resources: "
                             f"{mine.stderr.decode()[:400]}")
        count = theirs.stdout.count(b"\n---\n") + 1
        rounds = args.rounds if resources < 1000 else max(1, args.rounds // 3)
        ours, kubectl_time = best_of(rounds, [ours_cmd, theirs_cmd], work)
        inside = build_in_process(rounds, target)
        print(f"{count:>9} {ours * 1000:>8.0f} {kubectl_time * 1000:>10.0f} "
              f"{ours / kubectl_time:>6.2f} {inside * 1000:>13.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="100,1000,5000,20000",
                        type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--kubectl", default=shutil.which("kubectl"))
    parser.add_argument("--part", choices=("patch", "build", "all"), default="all")
    parser.add_argument("--build-sizes", default="100,500,2000",
                        type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--tree", action="append", default=[], metavar="DIR",
                        help="build: time every kustomization folder of this real tree "
                             "instead of the generated trees (repeatable)")
    parser.add_argument("--verbose", action="store_true",
                        help="--tree: one line per folder")
    args = parser.parse_args()
    if not args.kubectl:
        raise SystemExit("kubectl is not on PATH (give --kubectl)")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if args.part in ("patch", "all"):
            bench_patch(args, args.kubectl, work)
        if args.part in ("build", "all") and args.tree:
            from bench_kube_tree import bench_tree

            for tree in args.tree:
                bench_tree(Path(tree), args.kubectl, args.rounds, args.verbose)
        elif args.part in ("build", "all"):
            from bench_kube_startup import bench_small_build

            bench_small_build(args.rounds * 3, args.kubectl, work)
            bench_build(args, args.kubectl, work)


if __name__ == "__main__":
    main()
