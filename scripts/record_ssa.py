#!/usr/bin/env python3
"""Record server-side apply cases from the Go oracle (``../shared/bin/ssa-oracle``).

The oracle is the API server's own field manager (k8s.io/apimachinery v0.32.4
``pkg/util/managedfields`` with structured-merge-diff v4.4.2, the built-in schema of
Kubernetes 1.32, CRD schemas converted as kube-apiserver converts them).  The cases come
from :mod:`ssa_cases` (deterministic for the seed); the records go to
``tests/data/kube/ssa/cases.jsonl.gz``: one line per case, its ops and the oracle's results
(gzip with no timestamp, so a re-recording of the same answers is byte-identical).

    python scripts/record_ssa.py [--seed N] [--scale X] [--out FILE]
"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssa_cases import csa_flow_cases, csa_flow_extend, generate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ORACLE = SHARED / "bin" / "ssa-oracle"
SMD_SCHEMA = SHARED / "oracles" / "ssa" / "k8s-1.32.4-smd-schema.yaml"
DATA = ROOT / "tests" / "data" / "kube" / "ssa"


class _NoDates(yaml.SafeLoader):
    """YAML 1.1 without timestamps (the oracle's single-case output is YAML)."""


_NoDates.yaml_implicit_resolvers = {
    k: [r for r in v if r[0] != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def _run_single(case: dict, oracle: Path, data: Path) -> list:
    """A case whose schema is an OpenAPI document: the oracle's ``-schema`` mode."""
    doc = data / case["schema"].split(":", 1)[1]
    done = subprocess.run([str(oracle), "-schema", str(doc)],
                          input=json.dumps({"live": case["live"], "ops": case["ops"]}),
                          capture_output=True, text=True, check=True)
    return yaml.load(done.stdout, Loader=_NoDates)


def run_oracle(cases: list[dict], oracle: Path = ORACLE, crd_dir: Path = DATA / "crds",
               smd_schema: Path = SMD_SCHEMA) -> dict:
    """The oracle's results by case id (one batch run; OpenAPI cases one by one)."""
    out = {c["id"]: _run_single(c, oracle, crd_dir.parent)
           for c in cases if c["schema"].startswith("openapi:")}
    cases = [c for c in cases if not c["schema"].startswith("openapi:")]
    text = "".join(json.dumps(c, sort_keys=True) + "\n" for c in cases)
    done = subprocess.run([str(oracle), "-batch", "-smd-schema", str(smd_schema),
                           "-crd-dir", str(crd_dir)], input=text, capture_output=True,
                          text=True, check=True)
    for line in done.stdout.splitlines():
        if line.strip():
            rec = json.loads(line)
            out[rec["id"]] = rec["results"]
    for results in out.values():
        for res in results:
            if "errors:\n" in res.get("error", ""):
                res["error"] = _sorted_errors(res["error"])
    return out


def _sorted_errors(text: str) -> str:
    """Several validation errors in a fixed order (the server lists them in Go's random
    map order), so that a re-recording gives the same bytes."""
    head, _, rest = text.partition("errors:\n")
    return head + "errors:\n" + "\n".join(sorted(rest.split("\n")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--out", type=Path, default=DATA / "cases.jsonl.gz")
    args = ap.parse_args()
    cases = generate(args.seed, args.scale)
    cases += csa_flow_extend(csa_flow_cases(args.seed, max(1, int(80 * args.scale))),
                             run_oracle)
    results = run_oracle(cases)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(dict(c, results=results[c["id"]]), sort_keys=True,
                        separators=(",", ":")) + "\n" for c in cases]
    with args.out.open("wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb",
                                                   mtime=0) as f:
        f.write("".join(lines).encode("utf-8"))
    ops = sum(len(c["ops"]) for c in cases)
    fails = sum(1 for c in cases for r in results[c["id"]] if not r["ok"])
    print(f"{args.out}: {len(cases)} cases, {ops} ops ({fails} refused)")


if __name__ == "__main__":
    main()
