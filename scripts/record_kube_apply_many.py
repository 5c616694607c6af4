#!/usr/bin/env python3
"""Record real ``kubectl apply`` of files of several objects, as test data.

Each case of ``scripts/kube_apply_many_cases.py`` runs kubectl 1.27, 1.32 and 1.33
against the fake API server of ``fake_kube_api.py`` holding the case's live objects:
``kubectl apply -f FILE --validate=false [flags]`` (or the case's own ``-f`` arguments
over its folder of files).  Recorded: 1.32's exit code,
standard output and error, and every PATCH and POST in order (method, path, content
type, body, byte for byte); ``same_in`` lists the versions that did the same, and
the answers of the others are kept beside it.

One JSON line per case goes to ``tests/data/kube/apply/several.jsonl``.

    python scripts/record_kube_apply_many.py [--bin-dir DIR] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from fake_kube_api import kubectl_apply_files  # noqa: E402
from kube_apply_many_cases import CASES, inputs_of  # noqa: E402
from kubectl_versions import REFERENCE, ask_every_version, stored_lines  # noqa: E402

OUT = ROOT / "tests" / "data" / "kube" / "apply" / "several.jsonl"
VERSIONS = ("1.27", "1.32", "1.33")


def run(kubectl: str, case: dict) -> dict:
    files, file_args = inputs_of(case)
    done = kubectl_apply_files(kubectl, case["live"], files, file_args,
                               [tuple(kind) for kind in case["kinds"]], tuple(case["flags"]))
    return {"exit_code": done.code, "stdout": done.stdout, "stderr": done.stderr,
            "writes": [list(write) for write in done.writes]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    kubectl = shutil.which("kubectl")
    default_dir = str(Path(kubectl).resolve().parent) if kubectl else "."
    parser.add_argument("--bin-dir", default=default_dir,
                        help="the folder holding kubectl.1.27 ... kubectl.1.33")
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args()
    answers = ask_every_version(CASES, VERSIONS, args.bin_dir, args.jobs, run)
    lines = stored_lines(CASES, answers, VERSIONS)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    for line in lines:
        row = json.loads(line)
        first = row["kubectl"][REFERENCE]
        print(f"{row['id']}: rc={first['exit_code']} writes={len(first['writes'])}"
              f" same in {', '.join(row['same_in']) or 'no other version'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
