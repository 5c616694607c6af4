#!/usr/bin/env python3
"""Record the kubectl corpus: run every planned case through real ``kubectl patch --local``.

For each entry of ``scripts/kube_case_plan.py`` this writes the manifest into a scratch
directory under its own file name, runs

    kubectl patch --local -f <manifest> --type <type> -p <patch> -o <json|yaml>

there and stores the object text, the patch text, the arguments and kubectl's stdout,
stderr and exit code in ``tests/data/kube/cases/<id>.json``.  The committed files are
the expected results; the suite replays them without kubectl.

A kubectl crash (exit code 2) prints a goroutine dump full of addresses; only its first
line (``panic: ...``) is kept.

Usage:
    scripts/record_kube_cases.py [--kubectl PATH] [--check] [--only ID ...]

``--kubectl`` defaults to ``kubectl.1.32`` next to the ``kubectl`` on PATH (else
``kubectl``).  ``--check`` records again and reports cases whose result changed,
writing nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = ROOT / "tests" / "data" / "kube" / "manifests"
CASES = ROOT / "tests" / "data" / "kube" / "cases"

sys.path.insert(0, str(ROOT / "scripts"))
from kube_case_plan import PLAN  # noqa: E402


def default_kubectl() -> str:
    found = shutil.which("kubectl")
    if found:
        pinned = Path(found).resolve().parent / "kubectl.1.32"
        if pinned.exists():
            return str(pinned)
        return found
    return "kubectl"


def kubectl_version(kubectl: str) -> str:
    out = subprocess.run([kubectl, "version", "--client", "-o", "json"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)["clientVersion"]["gitVersion"]


def object_head(text: str) -> tuple[str, str]:
    """apiVersion and kind of a manifest, read without a YAML library (top-level lines)."""
    if text.lstrip().startswith("{"):
        obj = json.loads(text)
        return obj.get("apiVersion", ""), obj.get("kind", "")
    fields = {}
    for line in text.splitlines():
        if line.startswith(("apiVersion:", "kind:")):
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields.get("apiVersion", ""), fields.get("kind", "")


def case_ids() -> list[tuple[str, tuple[str, str, str, str]]]:
    counters: dict[tuple[str, str], int] = {}
    out = []
    for entry in PLAN:
        manifest, ptype = entry[0], entry[1]
        stem = Path(manifest).stem
        counters[(stem, ptype)] = counters.get((stem, ptype), 0) + 1
        out.append((f"{stem}-{ptype}-{counters[(stem, ptype)]:02d}", entry))
    return out


def run_case(kubectl: str, manifest: str, ptype: str, patch: str, output: str) -> dict:
    text = (MANIFESTS / manifest).read_text()
    argv = ["patch", "--local", "-f", manifest, "--type", ptype, "-p", patch, "-o", output]
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / manifest).write_text(text)
        proc = subprocess.run([kubectl, *argv], cwd=scratch, capture_output=True, text=True,
                              timeout=60)
    stderr = proc.stderr
    if proc.returncode == 2:
        stderr = stderr.splitlines()[0] + "\n" if stderr else ""
    api_version, kind = object_head(text)
    return {
        "manifest": manifest,
        "api_version": api_version,
        "kind": kind,
        "object": text,
        "type": ptype,
        "patch": patch,
        "output": output,
        "argv": argv,
        "stdout": proc.stdout,
        "stderr": stderr,
        "exit_code": proc.returncode,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kubectl", default=default_kubectl())
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    version = kubectl_version(args.kubectl)
    CASES.mkdir(parents=True, exist_ok=True)
    changed = 0
    for case_id, (manifest, ptype, patch, output) in case_ids():
        if args.only and case_id not in args.only:
            continue
        case = {"id": case_id, "kubectl": version,
                **run_case(args.kubectl, manifest, ptype, patch, output)}
        path = CASES / f"{case_id}.json"
        if args.check:
            old = json.loads(path.read_text()) if path.exists() else {}
            keys = ("stdout", "stderr", "exit_code")
            if any(old.get(k) != case[k] for k in keys):
                changed += 1
                print(f"changed: {case_id}")
            continue
        path.write_text(json.dumps(case, indent=2, ensure_ascii=False) + "\n")
        print(f"{case_id}: exit {case['exit_code']}")
    if args.check:
        print(f"{changed} case(s) differ from the recording")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
