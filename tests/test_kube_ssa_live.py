"""Live: fresh random server-side apply cases, run by the Go oracle and by our engine.

The cases come from ``scripts/ssa_cases.py`` with a new seed each run (printed, so a
failure can be replayed with ``CFGPATCH_SSA_SEED``); ``../shared/bin/ssa-oracle`` answers
them.  Locally the test skips (with the reason printed) when the binary is missing; with
``CI=true`` it fails instead.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

from conftest import SHARED, require
from kube_ssa_support import CRDS, agree, replay

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from record_ssa import run_oracle  # noqa: E402
from ssa_cases import generate  # noqa: E402

ORACLE = SHARED / "bin" / "ssa-oracle"
SMD_SCHEMA = SHARED / "oracles" / "ssa" / "k8s-1.32.4-smd-schema.yaml"


def test_fresh_cases_agree_with_the_oracle() -> None:
    require(ORACLE.is_file() and os.access(ORACLE, os.X_OK), f"no oracle at {ORACLE}")
    require(SMD_SCHEMA.is_file(), f"no built-in SMD schema at {SMD_SCHEMA}")
    seed = int(os.environ.get("CFGPATCH_SSA_SEED", random.randrange(1 << 30)))
    print(f"server-side apply live seed: {seed}")
    cases = generate(seed, scale=0.15, prefix="live-")
    results = run_oracle(cases, ORACLE, CRDS, SMD_SCHEMA)
    total = agreed = 0
    failures = []
    for case in cases:
        for i, (mine, theirs) in enumerate(zip(replay(case), results[case["id"]])):
            total += 1
            if agree(mine, theirs):
                agreed += 1
            else:
                failures.append(f"{case['id']} op {i}")
    print(f"live agreement: {agreed}/{total} ops of {len(cases)} cases")
    assert agreed / total >= 0.995, failures[:10]
