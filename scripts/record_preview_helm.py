#!/usr/bin/env python3
"""Record ``kubectl kustomize --enable-helm`` on both refs of the preview's Helm repository.

``tests/data/preview/helm-refs/{base,head}`` are the files of two commits of a small
GitOps repository whose chart is vendored in it (``apps/web/charts/web``) and changes
between the refs.  For each ref and each kustomization folder, this builds the folder
with ``kubectl.1.32 kustomize --enable-helm --helm-command SHIM`` where SHIM is a shim
around the real helm (``../shared/bin/helm``, v3.15.4) that logs each call: its
arguments, the values files (``-f``), a digest of the chart folder ``helm template`` read
(every file's path and SHA-256), and helm's answer.  ``tests/data/preview/
recorded-helm.json`` then holds per ref and folder kubectl's exit code, output and error,
and the helm calls, so tests/test_preview_helm.py replays the preview's renders without
helm and checks that each ref's chart is read from that ref (the digests).  In the
recorded text the checkout's path is ``$TREE``, the shim ``$HELM`` and kustomize's
temporary folder ``$TMP``.

Usage: scripts/record_preview_helm.py [--helm PATH] [--check]
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
from record_kustomize_helm import build_dirs, kubectl, normalize  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REFS = ROOT / "tests" / "data" / "preview" / "helm-refs"
RECORDED = ROOT / "tests" / "data" / "preview" / "recorded-helm.json"

SHIM = '''#!{python}
import hashlib, json, os, subprocess, sys
args = sys.argv[1:]
values, digest = {{}}, None
for i, a in enumerate(args[:-1]):
    if a == "-f" and os.path.isfile(args[i + 1]):
        values[args[i + 1]] = open(args[i + 1], encoding="utf-8").read()
if args[:1] == ["template"]:
    chart = args[2]  # template RELEASE CHART (or --generate-name CHART)
    if os.path.isdir(chart):
        digest = []
        for top, dirs, names in os.walk(chart):
            dirs.sort()
            for name in sorted(names):
                path = os.path.join(top, name)
                data = open(path, "rb").read()
                digest.append([os.path.relpath(path, chart), hashlib.sha256(data).hexdigest()])
done = subprocess.run([{helm!r}, *args], capture_output=True)
with open({log!r}, "a", encoding="utf-8") as log:
    log.write(json.dumps({{"args": args, "values": values, "chart_digest": digest,
                          "exit_code": done.returncode, "stdout": done.stdout.decode(),
                          "stderr": done.stderr.decode()}}) + "\\n")
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
sys.exit(done.returncode)
'''


def record_ref(binary: str, helm: str, ref: str, work: Path) -> dict:
    tree = work / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(REFS / ref, tree)
    tree = tree.resolve()
    log, shim = work / "calls.jsonl", work / "helm"
    shim.write_text(SHIM.format(python=sys.executable, helm=helm, log=str(log)))
    shim.chmod(0o755)
    out = {}
    for rel in build_dirs(tree):
        log.unlink(missing_ok=True)
        proc = subprocess.run([binary, "kustomize", "--enable-helm", "--helm-command",
                               str(shim), str(tree / rel)], capture_output=True, timeout=120)
        calls = []
        if log.exists():
            for line in log.read_text(encoding="utf-8").splitlines():
                call = json.loads(line)
                calls.append({
                    "args": [normalize(a, tree, str(shim)) for a in call["args"]],
                    "values": {normalize(k, tree, str(shim)): v
                               for k, v in call["values"].items()},
                    "chart_digest": call["chart_digest"], "exit_code": call["exit_code"],
                    "stdout": call["stdout"],
                    "stderr": normalize(call["stderr"], tree, str(shim))})
        out[rel] = {"exit_code": proc.returncode,
                    "stdout": normalize(proc.stdout.decode(), tree, str(shim)),
                    "stderr": normalize(proc.stderr.decode(), tree, str(shim)),
                    "helm_calls": calls}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--helm", default=str(ROOT.parent / "shared" / "bin" / "helm"))
    parser.add_argument("--check", action="store_true", help="report changes, write nothing")
    args = parser.parse_args()
    binary = kubectl()
    if binary is None or not Path(args.helm).exists():
        print("kubectl.1.32 (next to kubectl on PATH) and helm are needed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as work:
        refs = {ref: record_ref(binary, args.helm, ref, Path(work)) for ref in ("base", "head")}
    text = json.dumps(refs, indent=1, sort_keys=True) + "\n"
    if RECORDED.exists() and RECORDED.read_text(encoding="utf-8") == text:
        return 0
    print(f"changed: {RECORDED.relative_to(ROOT)}")
    if args.check:
        return 1
    RECORDED.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
