#!/usr/bin/env python3
"""Server-side apply through the command line, beside client-side apply and the Go oracle.

The object of ``bench_kube_ssa.py`` (a Deployment of about 300 YAML lines, live with three
managers: ``helm`` applied it, ``hpa-controller`` and ``ops`` updated it; ``helm`` applies
a new version).  Timed side by side in one run, best of N rounds, interleaved:

* in process: :func:`cfgpatch.kube.ssa.server_side_apply` against our client-side
  ``kubectl_apply`` of the same object (``bench_kube_ssa.py``'s figures, measured again);
* through the CLI (whole processes): ``cfgpatch kube apply --server-side -f NEW --live
  LIVE --field-manager helm`` against ``cfgpatch kube apply -f NEW --live LIVE``;
* the Go oracle (``ssa-oracle -batch``), per case, its start-up subtracted, and one whole
  single-case process.

    python benchmarks/bench_ssa.py [--rounds 5] [--containers 8]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_kube_ssa import (  # noqa: E402
    ORACLE,
    SMD,
    deployment,
    live_with_three_managers,
    oracle_seconds,
    yaml_lines,
)

from cfgpatch.kube.engine.clientapply import kubectl_apply  # noqa: E402
from cfgpatch.kube.schema.node import builtin_schema  # noqa: E402
from cfgpatch.kube.ssa import server_side_apply  # noqa: E402

CFGPATCH = [sys.executable, "-m", "cfgpatch"]


#: The CLI runs as installed: with compiled bytecode (kept in a folder of its own, so a
#: PYTHONDONTWRITEBYTECODE environment does not make every run compile its modules).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "cfgpatch-bench-pycache")


def timed(argv: list[str], stdin: str | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True, env=ENV)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--containers", type=int, default=8)
    args = ap.parse_args()
    config = deployment(args.containers)
    live = live_with_three_managers(config)
    new = copy.deepcopy(config)
    new["spec"]["template"]["spec"]["containers"][0]["image"] = "registry.example.com/app0:2.0"
    del new["spec"]["replicas"]
    node = builtin_schema().for_kind("apps/v1", "Deployment")
    folder = Path(tempfile.mkdtemp(prefix="bench-ssa-"))
    (folder / "live.json").write_text(json.dumps(live))
    (folder / "new.json").write_text(json.dumps(new))
    ssa_cli = [*CFGPATCH, "kube", "apply", "--server-side", "-f", str(folder / "new.json"),
               "--live", str(folder / "live.json"), "--field-manager", "helm"]
    csa_cli = [*CFGPATCH, "kube", "apply", "-f", str(folder / "new.json"),
               "--live", str(folder / "live.json")]
    case = json.dumps({"live": live, "ops": [{"op": "apply", "manager": "helm",
                                              "object": new}]})
    ssa = csa = ssa_p = csa_p = one_oracle = float("inf")
    timed(ssa_cli)  # bytecode written once
    timed(csa_cli)
    for _ in range(args.rounds):  # interleaved
        t = time.perf_counter()
        server_side_apply(live, new, manager="helm")
        ssa = min(ssa, time.perf_counter() - t)
        t = time.perf_counter()
        kubectl_apply(new, live, node)
        csa = min(csa, time.perf_counter() - t)
        ssa_p = min(ssa_p, timed(ssa_cli))
        csa_p = min(csa_p, timed(csa_cli))
        if ORACLE.is_file():
            one_oracle = min(one_oracle, timed([str(ORACLE), "-smd-schema", str(SMD)], case))
    per_case = oracle_seconds(live, new, 30)
    print(f"Deployment of {yaml_lines(config)} YAML lines, live object of {yaml_lines(live)} "
          f"lines with 3 managers; best of {args.rounds}")
    print(f"{'what':<52}{'ms':>10}{'ratio':>8}")
    rows = [("server-side apply, in process", ssa, csa),
            ("client-side apply, in process", csa, csa),
            ("kube apply --server-side (CLI process)", ssa_p, csa_p),
            ("kube apply, client-side (CLI process)", csa_p, csa_p)]
    if per_case is not None:
        rows.append(("ssa-oracle -batch, per case (start-up subtracted)", per_case, csa))
        rows.append(("ssa-oracle, one single-case process", one_oracle, csa_p))
    for name, value, base in rows:
        print(f"{name:<52}{value * 1000:>10.1f}{value / base:>8.2f}")
    print("ratio: in process over client-side in process; processes over the client-side "
          "CLI process")


if __name__ == "__main__":
    main()
