#!/usr/bin/env python3
"""Record the patches real kubectl creates, as test data for patch creation.

Each case runs a real kubectl against the fake API server of ``fake_kube_api.py``:

* ``apply`` cases: the server holds ``live``; ``kubectl apply -f manifest
  --validate=false`` (client-side) GETs it, computes the three-way patch from the
  live object's last-applied annotation, the manifest and the live object, and
  PATCHes it; recorded: the body (byte for byte), its content type, exit code,
  standard output and error;
* ``edit`` cases: the server holds ``old``; ``kubectl edit`` runs an editor that
  writes ``new`` over the file, and kubectl PATCHes the two-way patch
  (``CreateTwoWayMergePatch``; a JSON merge patch for a custom resource).

One JSON line per case goes to ``tests/data/kube/apply/recorded.jsonl``; the inputs are
defined in ``scripts/kube_apply_cases.py``.

    python scripts/record_kube_apply.py [--kubectl kubectl]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from fake_kube_api import kubectl_apply, kubectl_edit  # noqa: E402
from kube_apply_cases import CASES  # noqa: E402

OUT = ROOT / "tests" / "data" / "kube" / "apply" / "recorded.jsonl"


def record(kubectl: str, case: dict) -> dict:
    if case["how"] == "apply":
        sent = kubectl_apply(kubectl, case["live"], case["manifest"], tuple(case.get("flags", ())))
    else:
        sent = kubectl_edit(kubectl, case["old"], case["new"])
    return {**case, "code": sent.code, "stdout": sent.stdout, "stderr": sent.stderr,
            "content_type": sent.content_type, "patch": sent.patch}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kubectl", default="kubectl")
    args = parser.parse_args()
    version = subprocess.run([args.kubectl, "version", "--client", "-o", "json"],
                             capture_output=True, text=True, check=True)
    git_version = json.loads(version.stdout)["clientVersion"]["gitVersion"]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as out:
        for case in CASES:
            row = record(args.kubectl, case)
            row["kubectl"] = git_version
            out.write(json.dumps(row, sort_keys=True) + "\n")
            print(f"{case['id']}: rc={row['code']} {row['content_type'] or 'no PATCH'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
