#!/usr/bin/env python3
"""Record kustomize's strategic merge, one resource and one patch at a time.

Every directory under ``tests/data/kustomize/merge/cases/<case>/`` holds
``resource.yaml`` (the resources: usually one), ``patch.yaml`` (one strategic merge
patch) and optionally ``openapi.yaml`` (the kustomization's ``openapi: {path: ...}``).
For each case this writes a kustomization into a temporary copy of the directory,

    resources: [resource.yaml]
    patches: [{path: patch.yaml}]
    openapi: {path: openapi.yaml}     # when the case has one

runs ``kubectl.1.NN kustomize`` for every installed kubectl 1.27 ... 1.33 and writes
``tests/data/kustomize/merge/recorded.json``:

    {"kubectl": "v1.32.x", "cases": {"<case>": {"exit_code": 0, "stdout": "...",
        "stderr": "...", "versions": {"1.27": "same", ...}}}}

(kubectl 1.32's answer; ``versions`` as in scripts/record_kustomize_trees.py).  The
temporary directory is written ``$TREE`` in the recorded text.  The suite replays the
recordings (tests/test_kube_kustomize_merge.py).

``--schema`` instead measures where kyaml's embedded schema differs from the built-in
table (src/cfgpatch/kube/kustomize/data/kustomize.json): every kind of the table
is patched with a two-element ``metadata.finalizers`` (kyaml merges it only for a kind it
knows), and every merged list field of the kinds in /work/shared/k8s/paths.tsv is
probed with a patch element that matches one resource element on its merge key.

Usage:
    scripts/record_kustomize_merge.py [--check] [--only CASE ...]
    scripts/record_kustomize_merge.py --schema [--check]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from record_kustomize_trees import ORACLE, binaries, kubectl_version  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "data" / "kustomize" / "merge" / "cases"
RECORDED = ROOT / "tests" / "data" / "kustomize" / "merge" / "recorded.json"


def kustomization(case: Path) -> str:
    text = "resources:\n- resource.yaml\npatches:\n- path: patch.yaml\n"
    if (case / "openapi.yaml").exists():
        text += "openapi:\n  path: openapi.yaml\n"
    return text


def run_case(kubectl: str, case: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="kmerge-") as tmp:
        tree = Path(tmp)
        for name in ("resource.yaml", "patch.yaml", "openapi.yaml"):
            if (case / name).exists():
                shutil.copy(case / name, tree / name)
        (tree / "kustomization.yaml").write_text(kustomization(case), encoding="utf-8")
        proc = subprocess.run([kubectl, "kustomize", str(tree)], capture_output=True,
                              text=True, timeout=120)
        root = str(tree)
    return {"exit_code": proc.returncode, "stdout": proc.stdout.replace(root, "$TREE"),
            "stderr": _stable(proc.stderr.replace(root, "$TREE"))}


def _stable(stderr: str) -> str:
    """klog's header (``E1203 09:27:45.805720   21052 run.go:72]``) without time and pid."""
    lines = []
    for line in stderr.splitlines(keepends=True):
        if line[:1] in "EWI" and "] " in line and line[1:5].isdigit():
            line = line[0] + "0000 00:00:00.000000       0 " + line.split(" ", 3)[-1]
        lines.append(line)
    return "".join(lines)


def record_case(case: Path, kubectls: dict[str, str]) -> dict:
    answers = {v: run_case(path, case) for v, path in kubectls.items()}
    entry = dict(answers[ORACLE])
    entry["versions"] = {v: ("same" if answer == answers[ORACLE] else answer)
                         for v, answer in answers.items() if v != ORACLE}
    return entry


def record_cases(args: argparse.Namespace, kubectls: dict[str, str]) -> int:
    old = json.loads(RECORDED.read_text(encoding="utf-8")) if RECORDED.exists() else {}
    cases = dict(old.get("cases", {}))
    names = sorted(p.name for p in CASES.iterdir() if p.is_dir())
    chosen = [n for n in names if not args.only or n in args.only]
    changed = 0
    for name in chosen:
        entry = record_case(CASES / name, kubectls)
        if cases.get(name) != entry:
            changed += 1
            print(f"{'changed' if name in cases else 'new'}: {name}")
        cases[name] = entry
    for stale in sorted(set(cases) - set(names)):
        print(f"stale recording (no case): {stale}")
        del cases[stale]
    recording = {"kubectl": kubectl_version(kubectls[ORACLE]), "cases": cases}
    print(f"{len(chosen)} cases, {changed} changed")
    if not args.check:
        RECORDED.write_text(json.dumps(recording, indent=1, sort_keys=True,
                                       ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if args.check and changed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="report recordings that would change; write nothing")
    parser.add_argument("--only", nargs="*", metavar="CASE", help="record only these cases")
    parser.add_argument("--schema", action="store_true",
                        help="measure kyaml's schema facts instead of recording cases")
    args = parser.parse_args()
    kubectls = binaries()
    if ORACLE not in kubectls:
        print(f"kubectl.{ORACLE} not found next to kubectl on PATH", file=sys.stderr)
        return 2
    if args.schema:
        from measure_kustomize_schema import measure
        return measure(kubectls[ORACLE], check=args.check)
    return record_cases(args, kubectls)


if __name__ == "__main__":
    sys.exit(main())
