#!/usr/bin/env python3
"""Server-side apply in process: our engine, our client-side apply, and the Go oracle.

A Deployment of about 300 YAML lines is created by ``helm`` (apply), scaled by an
``hpa-controller`` (update) and annotated by ``ops`` (update); then ``helm`` applies a new
version (an image changed, ``replicas`` dropped).  Timed side by side in one run, best of N
rounds, interleaved:

* ``ssa``: :func:`cfgpatch.kube.ssa.server_side_apply` of the new version onto the live
  object with its three managers (what ``kube apply --server-side`` computes);
* ``csa``: our client-side ``kubectl apply`` of the same version
  (:func:`cfgpatch.kube.engine.clientapply.kubectl_apply`: the three-way patch);
* ``oracle``: ``ssa-oracle -batch`` (kube-apiserver 1.32's field manager in Go) on the same
  operation, its process start-up subtracted (an empty batch timed alone), per case.

The command-line comparison (``kube apply --server-side`` against ``kube apply``, whole
processes) belongs with the command line.

    python benchmarks/bench_kube_ssa.py [--rounds 7] [--containers 8]
"""

from __future__ import annotations

import argparse
import copy
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from cfgpatch.kube.engine.clientapply import kubectl_apply  # noqa: E402
from cfgpatch.kube.schema.node import builtin_schema  # noqa: E402
from cfgpatch.kube.ssa import server_side_apply, update  # noqa: E402

SHARED = ROOT.parent / "shared"
ORACLE = SHARED / "bin" / "ssa-oracle"
SMD = SHARED / "oracles" / "ssa" / "k8s-1.32.4-smd-schema.yaml"


def container(i: int) -> dict:
    return {"name": f"c{i}", "image": f"registry.example.com/app{i}:1.0.{i}",
            "ports": [{"containerPort": 8000 + i, "protocol": "TCP", "name": f"http{i}"}],
            "env": [{"name": f"VAR_{j}", "value": f"value {j}"} for j in range(8)],
            "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "100m"}},
            "volumeMounts": [{"name": "data", "mountPath": f"/data/{i}"}],
            "args": ["--port", str(8000 + i), "--verbose"]}


def deployment(containers: int) -> dict:
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "default",
                         "labels": {"app": "web", "tier": "frontend"}},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                     "template": {"metadata": {"labels": {"app": "web"}}, "spec": {
                         "containers": [container(i) for i in range(containers)],
                         "volumes": [{"name": "data", "emptyDir": {}}]}}}}


def yaml_lines(obj: dict) -> int:
    import yaml

    return len(yaml.safe_dump(obj).splitlines())


def live_with_three_managers(config: dict) -> dict:
    t = "2025-01-01T00:00:0{}Z"
    first = server_side_apply(None, config, manager="helm", time=t.format(0)).object
    scaled = copy.deepcopy(first)
    scaled["spec"]["replicas"] = 7
    second = update(first, scaled, manager="hpa-controller", time=t.format(1)).object
    noted = copy.deepcopy(second)
    noted["metadata"]["annotations"] = {"ops.example.com/owner": "team-a"}
    return update(second, noted, manager="ops", time=t.format(2)).object


def best(fn, rounds: int) -> tuple[float, float]:  # noqa: ANN001
    """The best wall-clock and the best CPU time of ``rounds`` calls (the CPU time holds
    up on a machine other work shares)."""
    wall, cpu = [], []
    for _ in range(rounds):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return min(wall), min(cpu)


def oracle_seconds(live: dict, new: dict, rounds: int) -> float | None:
    if not ORACLE.is_file():
        return None
    case = {"id": "bench", "schema": "builtin", "live": live,
            "ops": [{"op": "apply", "manager": "helm", "object": new}]}
    many = "".join(json.dumps(dict(case, id=f"b{i}")) + "\n" for i in range(rounds))

    def run(text: str) -> float:
        t = time.perf_counter()
        subprocess.run([str(ORACLE), "-batch", "-smd-schema", str(SMD)], input=text,
                       capture_output=True, text=True, check=True)
        return time.perf_counter() - t
    empty = min(run("") for _ in range(3))
    full = min(run(many) for _ in range(3))
    return max(0.0, full - empty) / rounds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--containers", type=int, default=8)
    args = ap.parse_args()
    config = deployment(args.containers)
    live = live_with_three_managers(config)
    new = copy.deepcopy(config)
    new["spec"]["template"]["spec"]["containers"][0]["image"] = "registry.example.com/app0:2.0"
    del new["spec"]["replicas"]
    node = builtin_schema().for_kind("apps/v1", "Deployment")
    ssa = csa = (float("inf"), float("inf"))
    for _ in range(args.rounds):  # interleaved
        s = best(lambda: server_side_apply(live, new, manager="helm"), 3)
        c = best(lambda: kubectl_apply(new, live, node), 3)
        ssa = (min(ssa[0], s[0]), min(ssa[1], s[1]))
        csa = (min(csa[0], c[0]), min(csa[1], c[1]))
    oracle = oracle_seconds(live, new, 50)
    print(f"Deployment of {yaml_lines(config)} YAML lines ({args.containers} containers), "
          f"live object of {yaml_lines(live)} lines with 3 managers; best of {args.rounds}")
    print(f"{'what':<40}{'wall ms':>10}{'cpu ms':>10}{'ratio':>10}")
    for name, (wall, cpu) in (("server-side apply (ours, in process)", ssa),
                              ("client-side apply (ours, in process)", csa)):
        print(f"{name:<40}{wall * 1000:>10.2f}{cpu * 1000:>10.2f}{cpu / csa[1]:>10.2f}")
    if oracle is None:
        print(f"{'ssa-oracle (Go)':<40}{'absent':>10}")
    else:
        print(f"{'ssa-oracle (Go), per case (wall)':<40}{oracle * 1000:>10.2f}{'':>10}"
              f"{oracle / csa[0]:>10.2f}")
    print("ratio: CPU time over our client-side apply's (the oracle: wall time over wall time)")


if __name__ == "__main__":
    main()
