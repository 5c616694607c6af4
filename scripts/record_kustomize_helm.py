#!/usr/bin/env python3
"""Record kubectl kustomize's Helm chart builds: ``kubectl.1.32 kustomize --enable-helm
--helm-command HELM DIR`` on every build directory of tests/data/kustomize/helm-trees.

HELM is a shim around the real helm (``../shared/bin/helm``, v3.15.4) that logs every
call kustomize makes: its arguments, the values files it passes (``-f``), the helm
homes it sets (``HELM_CONFIG_HOME``, ``HELM_CACHE_HOME``, ``HELM_DATA_HOME``), and
helm's answer.  ``tests/data/kustomize/recorded-helm/<tree>.json`` then holds, per build
directory, kubectl's exit code, output and errors, and the helm calls in order, so the
suite replays a build without helm and checks that ``kube build`` calls helm exactly as
kustomize does.  A ``.kubectl-flags`` file in a build directory adds flags (for example
``--load-restrictor LoadRestrictionsNone``).  In the recorded text the tree's path is
``$TREE``, the shim ``$HELM`` and kustomize's temporary folder ``$TMP``.

Usage: scripts/record_kustomize_helm.py [--helm PATH] [--check]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "tests" / "data" / "kustomize" / "helm-trees"
RECORDED = ROOT / "tests" / "data" / "kustomize" / "recorded-helm"
KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
TEMP = re.compile(r"/[^\s'\"\]]*?/kustomize-helm-\d+")

SHIM = '''#!{python}
import json, os, subprocess, sys
args = sys.argv[1:]
HOMES = ("HELM_CONFIG_HOME", "HELM_CACHE_HOME", "HELM_DATA_HOME")
values = {{}}
for i, a in enumerate(args[:-1]):
    if a == "-f" and os.path.isfile(args[i + 1]):
        values[args[i + 1]] = open(args[i + 1], encoding="utf-8").read()
done = subprocess.run([{helm!r}, *args], capture_output=True)
with open({log!r}, "a", encoding="utf-8") as log:
    env = {{k: v for k, v in os.environ.items() if k in HOMES}}
    log.write(json.dumps({{"args": args, "values": values, "env": env,
                          "exit_code": done.returncode,
                          "stdout": done.stdout.decode(), "stderr": done.stderr.decode()}}) + "\\n")
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
sys.exit(done.returncode)
'''


def kubectl() -> str | None:
    found = shutil.which("kubectl")
    if not found:
        return None
    candidate = Path(found).resolve().parent / "kubectl.1.32"
    return str(candidate) if candidate.exists() else None


def build_dirs(tree: Path) -> list[str]:
    out = []
    for directory in sorted([tree, *[p for p in tree.rglob("*") if p.is_dir()]]):
        for name in KUSTOMIZATION_FILES:
            path = directory / name
            if path.is_file() and "kind: Component" not in path.read_text(encoding="utf-8"):
                rel = directory.relative_to(tree).as_posix()
                out.append("." if rel == "." else rel)
                break
    return out


def normalize(text: str, tree: Path, shim: str) -> str:
    return TEMP.sub("$TMP", text.replace(shim, "$HELM").replace(str(tree), "$TREE"))


def record_build(binary: str, helm: str, tree: Path, rel: str, work: Path) -> dict:
    log, shim = work / "calls.jsonl", work / "helm"
    log.unlink(missing_ok=True)
    shim.write_text(SHIM.format(python=sys.executable, helm=helm, log=str(log)))
    shim.chmod(0o755)
    directory = tree / rel if rel != "." else tree
    flags_file = directory / ".kubectl-flags"
    flags = flags_file.read_text().split() if flags_file.exists() else []
    proc = subprocess.run([binary, "kustomize", "--enable-helm", "--helm-command", str(shim),
                           *flags, str(directory)], capture_output=True, timeout=120)
    calls = []
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            call = json.loads(line)
            calls.append({
                "args": [normalize(a, tree, str(shim)) for a in call["args"]],
                "values": {normalize(k, tree, str(shim)): v for k, v in call["values"].items()},
                "env": {k: normalize(v, tree, str(shim)) for k, v in call["env"].items()},
                "exit_code": call["exit_code"], "stdout": call["stdout"],
                "stderr": normalize(call["stderr"], tree, str(shim))})
    return {"flags": flags, "exit_code": proc.returncode,
            "stdout": normalize(proc.stdout.decode(), tree, str(shim)),
            "stderr": normalize(proc.stderr.decode(), tree, str(shim)), "helm_calls": calls}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--helm", default=str(ROOT.parent / "shared" / "bin" / "helm"))
    parser.add_argument("--check", action="store_true", help="report changes, write nothing")
    args = parser.parse_args()
    binary = kubectl()
    if binary is None or not Path(args.helm).exists():
        print("kubectl.1.32 (next to kubectl on PATH) and helm are needed", file=sys.stderr)
        return 2
    RECORDED.mkdir(parents=True, exist_ok=True)
    changed = 0
    with tempfile.TemporaryDirectory() as work:
        for tree in sorted(p for p in TREES.iterdir() if p.is_dir()):
            builds = {rel: record_build(binary, args.helm, tree.resolve(), rel, Path(work))
                      for rel in build_dirs(tree)}
            text = json.dumps({"tree": tree.name, "builds": builds}, indent=1,
                              sort_keys=True) + "\n"
            target = RECORDED / f"{tree.name}.json"
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                changed += 1
                print(f"changed: {tree.name} ({len(builds)} builds)")
                if not args.check:
                    target.write_text(text, encoding="utf-8")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
