#!/usr/bin/env python3
"""Record the kustomize corpus: build every tree with real ``kubectl kustomize``.

Every directory under ``tests/data/kustomize/trees/<tree>/`` that holds a
kustomization file (``kustomization.yaml``, ``kustomization.yml`` or
``Kustomization``) and is not a ``kind: Component`` is a build.  For each build this
runs ``kubectl.1.NN kustomize DIR`` for every installed kubectl 1.27 ... 1.33 and
writes ``tests/data/kustomize/recorded/<tree>.json``:

    {"tree": ..., "kubectl": "v1.32.x", "builds": {
        "<dir relative to the tree>": {"exit_code": 0, "stdout": "...", "stderr": "...",
                                        "versions": {"1.27": "same", "1.28": {...}, ...}}}}

``stdout``/``stderr``/``exit_code`` are kubectl 1.32's; ``versions`` says for every other
binary whether it answered the same (``"same"``) or what it answered instead.  The
absolute path of the tree is written ``$TREE`` in the recorded text, so the files do not
depend on where the repository is checked out, and the klog header (time, process id) of
a line kustomize logs is left out (:data:`KLOG_HEADER`).  The suite replays the recordings without
kubectl (tests/test_kube_build_corpus.py); tests/test_kube_build_live.py runs the trees
through the installed binaries again.

Usage:
    scripts/record_kustomize_trees.py [--check] [--only TREE ...]

``--check`` builds again and reports recordings that changed, writing nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREES = ROOT / "tests" / "data" / "kustomize" / "trees"
RECORDED = ROOT / "tests" / "data" / "kustomize" / "recorded"
KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
VERSIONS = ("1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33")
ORACLE = "1.32"


def binaries() -> dict[str, str]:
    """The installed ``kubectl.1.NN`` binaries next to the ``kubectl`` on PATH."""
    found = shutil.which("kubectl")
    if not found:
        return {}
    folder = Path(found).resolve().parent
    return {v: str(folder / f"kubectl.{v}") for v in VERSIONS
            if (folder / f"kubectl.{v}").exists()}


def kubectl_version(kubectl: str) -> str:
    out = subprocess.run([kubectl, "version", "--client", "-o", "json"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)["clientVersion"]["gitVersion"]


def is_component(directory: Path) -> bool:
    for name in KUSTOMIZATION_FILES:
        path = directory / name
        if path.is_file():
            return any(line.strip() == "kind: Component"
                       for line in path.read_text(encoding="utf-8", errors="replace").splitlines())
    return False


def build_dirs(tree: Path) -> list[str]:
    """The directories of ``tree`` that kustomize can build, relative, sorted."""
    out = []
    for directory in sorted([tree, *[p for p in tree.rglob("*") if p.is_dir()]]):
        if any((directory / name).is_file() for name in KUSTOMIZATION_FILES) \
                and not is_component(directory):
            rel = directory.relative_to(tree).as_posix()
            out.append("." if rel == "." else rel)
    return out


#: klog's header of a line kustomize logs (``I1206 12:26:35.506807   31769 log.go:245] ``):
#: a time and a process id that change on every run, so the recording keeps the text
#: alone (as ``kube build`` prints it).
KLOG_HEADER = re.compile(r"(?m)^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [\w.-]+:\d+\] ")


def run_build(kubectl: str, tree: Path, rel: str) -> dict:
    proc = subprocess.run([kubectl, "kustomize", str(tree / rel) if rel != "." else str(tree)],
                          capture_output=True, timeout=120)
    root = str(tree)
    # bytes that are not UTF-8 (quoted from a file) are kept as surrogate escapes
    stdout = proc.stdout.decode("utf-8", "surrogateescape")
    stderr = proc.stderr.decode("utf-8", "surrogateescape")
    return {"exit_code": proc.returncode, "stdout": stdout.replace(root, "$TREE"),
            "stderr": KLOG_HEADER.sub("", stderr.replace(root, "$TREE"))}


def record_tree(tree: Path, kubectls: dict[str, str]) -> dict:
    builds = {}
    for rel in build_dirs(tree):
        answers = {v: run_build(path, tree, rel) for v, path in kubectls.items()}
        entry = dict(answers[ORACLE])
        entry["versions"] = {v: ("same" if answer == answers[ORACLE] else answer)
                             for v, answer in answers.items() if v != ORACLE}
        builds[rel] = entry
    return {"tree": tree.name, "kubectl": kubectl_version(kubectls[ORACLE]), "builds": builds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="report recordings that would change; write nothing")
    parser.add_argument("--only", nargs="*", metavar="TREE", help="record only these trees")
    args = parser.parse_args()
    kubectls = binaries()
    if ORACLE not in kubectls:
        print(f"kubectl.{ORACLE} not found next to kubectl on PATH", file=sys.stderr)
        return 2
    RECORDED.mkdir(parents=True, exist_ok=True)
    trees = [p for p in sorted(TREES.iterdir()) if p.is_dir()]
    if args.only:
        trees = [p for p in trees if p.name in args.only]
    changed = 0
    for tree in trees:
        recording = record_tree(tree, kubectls)
        text = json.dumps(recording, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        # a byte that was not UTF-8 (a surrogate escape) can only be written escaped
        text = re.sub("[\udc80-\udcff]", lambda m: f"\\u{ord(m.group()):04x}", text)
        target = RECORDED / f"{tree.name}.json"
        old = target.read_text(encoding="utf-8") if target.exists() else None
        if old != text:
            changed += 1
            print(f"{'changed' if old else 'new'}: {tree.name} ({len(recording['builds'])} builds)")
            if not args.check:
                target.write_text(text, encoding="utf-8")
    known = {p.stem for p in TREES.iterdir() if p.is_dir()}
    for stale in sorted(RECORDED.glob("*.json")):
        if stale.stem not in known:
            print(f"stale recording (no tree): {stale.name}")
    print(f"{len(trees)} trees, {changed} changed")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
