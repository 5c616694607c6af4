#!/usr/bin/env python3
"""Server-side apply against our client-side apply and the Go oracle, in process and CLI.

A Deployment of about 300 YAML lines is created by ``helm`` (apply), scaled by an
``hpa-controller`` (update) and annotated by ``ops`` (update); then ``helm`` applies a new
version (an image changed, ``replicas`` dropped).  Timed side by side in one run, best of
N rounds, interleaved:

* in process: :func:`cfgpatch.kube.ssa.server_side_apply` of the new version onto the
  live object with its three managers, against our client-side ``kubectl apply`` of the
  same version (:func:`cfgpatch.kube.engine.clientapply.kubectl_apply`: the three-way
  patch);
* through the CLI (whole processes, imports and printing included): ``cfgpatch kube
  apply --server-side -f NEW --live LIVE --field-manager helm`` against ``cfgpatch kube
  apply -f NEW --live LIVE``.  The server-side one prints ``managedFields`` too (the
  issue asks for them): 794 lines against 310;
* the Go oracle (``ssa-oracle``: kube-apiserver 1.32's field manager) on the same
  operation: per case in a batch (its start-up subtracted: an empty batch timed alone)
  and as one single-case process.

CPU time (``time.process_time``, and the children's user + system time for processes)
is the figure that holds up on a machine other work shares; wall time is printed too.
The CLI runs as installed: with compiled bytecode, kept in a folder of its own so that a
``PYTHONDONTWRITEBYTECODE`` environment does not make every run compile its modules.

    python benchmarks/bench_kube_ssa.py [--rounds 7] [--containers 8] [--no-cli]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from cfgpatch.kube.engine.clientapply import kubectl_apply  # noqa: E402
from cfgpatch.kube.schema.node import builtin_schema  # noqa: E402
from cfgpatch.kube.ssa import server_side_apply, update  # noqa: E402

SHARED = ROOT.parent / "shared"
ORACLE = SHARED / "bin" / "ssa-oracle"
SMD = SHARED / "oracles" / "ssa" / "k8s-1.32.4-smd-schema.yaml"
CFGPATCH = [sys.executable, "-m", "cfgpatch"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "cfgpatch-bench-pycache")

Times = tuple[float, float]  # (wall, cpu) seconds


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


def new_version(config: dict) -> dict:
    new = copy.deepcopy(config)
    new["spec"]["template"]["spec"]["containers"][0]["image"] = "registry.example.com/app0:2.0"
    del new["spec"]["replicas"]
    return new


def in_process(fn: Callable[[], object]) -> Times:
    """The best wall and CPU time of three calls."""
    wall, cpu = [], []
    for _ in range(3):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return min(wall), min(cpu)


def process(argv: list[str], stdin: str | None = None) -> Times:
    """One process's wall time and CPU time (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True, env=ENV)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def oracle_per_case(live: dict, new: dict, cases: int) -> Times | None:
    """The oracle's time per case in one batch, its start-up (an empty batch) subtracted."""
    if not ORACLE.is_file():
        return None
    case = {"id": "bench", "schema": "builtin", "live": live,
            "ops": [{"op": "apply", "manager": "helm", "object": new}]}
    many = "".join(json.dumps(dict(case, id=f"b{i}")) + "\n" for i in range(cases))
    argv = [str(ORACLE), "-batch", "-smd-schema", str(SMD)]
    empty = best([process(argv, "") for _ in range(3)])
    full = best([process(argv, many) for _ in range(3)])
    return (max(0.0, full[0] - empty[0]) / cases, max(0.0, full[1] - empty[1]) / cases)


def best(times: list[Times]) -> Times:
    return min(t[0] for t in times), min(t[1] for t in times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--containers", type=int, default=8)
    ap.add_argument("--no-cli", action="store_true", help="in process and the oracle only")
    args = ap.parse_args()
    config = deployment(args.containers)
    live = live_with_three_managers(config)
    new = new_version(config)
    node = builtin_schema().for_kind("apps/v1", "Deployment")
    folder = Path(tempfile.mkdtemp(prefix="bench-ssa-"))
    (folder / "live.json").write_text(json.dumps(live))
    (folder / "new.json").write_text(json.dumps(new))
    files = ["-f", str(folder / "new.json"), "--live", str(folder / "live.json")]
    ssa_cli = [*CFGPATCH, "kube", "apply", "--server-side", *files, "--field-manager", "helm"]
    csa_cli = [*CFGPATCH, "kube", "apply", *files]
    single = json.dumps({"live": live, "ops": [{"op": "apply", "manager": "helm",
                                                "object": new}]})
    rows: dict[str, list[Times]] = {k: [] for k in ("ssa", "csa", "ssa_p", "csa_p", "one")}
    if not args.no_cli:
        process(ssa_cli)  # bytecode written once
        process(csa_cli)
    for _ in range(args.rounds):  # interleaved
        rows["ssa"].append(in_process(lambda: server_side_apply(live, new, manager="helm")))
        rows["csa"].append(in_process(lambda: kubectl_apply(new, live, node)))
        if not args.no_cli:
            rows["ssa_p"].append(process(ssa_cli))
            rows["csa_p"].append(process(csa_cli))
        if ORACLE.is_file() and not args.no_cli:
            rows["one"].append(process([str(ORACLE), "-smd-schema", str(SMD)], single))
    per_case = oracle_per_case(live, new, 30)
    print(f"Deployment of {yaml_lines(config)} YAML lines ({args.containers} containers), "
          f"live object of {yaml_lines(live)} lines with 3 managers; best of {args.rounds}")
    print(f"{'what':<52}{'wall ms':>10}{'cpu ms':>10}{'ratio':>8}")
    table = [("server-side apply, in process", "ssa", "csa"),
             ("client-side apply, in process", "csa", "csa"),
             ("kube apply --server-side (CLI process)", "ssa_p", "csa_p"),
             ("kube apply, client-side (CLI process)", "csa_p", "csa_p"),
             ("ssa-oracle, one single-case process", "one", "csa_p")]
    for name, key, base in table:
        if rows[key]:
            wall, cpu = best(rows[key])
            print(f"{name:<52}{wall * 1000:>10.1f}{cpu * 1000:>10.1f}"
                  f"{cpu / best(rows[base])[1]:>8.2f}")
    if per_case is not None:
        print(f"{'ssa-oracle -batch, per case (start-up subtracted)':<52}"
              f"{per_case[0] * 1000:>10.1f}{per_case[1] * 1000:>10.1f}"
              f"{per_case[1] / best(rows['csa'])[1]:>8.2f}")
    else:
        print(f"{'ssa-oracle (Go)':<52}{'absent':>10}")
    print("ratio: CPU time over our client-side apply's (in process for the in-process rows "
          "and the oracle's per case; the client-side CLI process for processes)")


if __name__ == "__main__":
    main()
