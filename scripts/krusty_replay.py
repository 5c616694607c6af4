#!/usr/bin/env python3
"""Replay kustomize's own build tests (api/krusty at a tag) through ``kubectl
kustomize`` and ``kube build``, and compare the two.

The test files are read from a local git mirror of kustomize.  Every test function is
*run* by a reader of the Go they are written in (scripts/krusty_go.py,
scripts/krusty_eval.py): plain harness scripts, tables of cases, helper functions,
loops, ``t.Run`` sub-tests, the enhanced harness of built-in plugins and the helm
tests (their chart copied from the tests' own testdata).  Each ``th.Run`` or
``th.RunWithErr`` is one *build*: the files the harness held at that moment, the
folder built and the options (plugins enabled means ``--enable-helm`` with
../shared/bin/helm; ``LoadRestrictionsNone`` means ``--load-restrictor``).

A build is not replayed, with the reason, when the test cannot be read whole, sets an
option ``kubectl kustomize`` has no flag for, skips itself, needs exec/Go plugins or
KRM function containers, or a helm chart from the network (``repo:`` with no chart in
the chart home).  Each other build is written to a folder and built by
``kubectl.1.32 kustomize`` and by ``kube build`` (in this process); it *passes* when
both succeed with identical output, or both fail with the same first line of error.

Usage:
    scripts/krusty_replay.py MIRROR [--tag kustomize/v5.5.0] [--only TEXT]
                             [--list FILE] [--record]

``--record`` writes every replayed build as a tree under
tests/data/kustomize/krusty/trees/ and kubectl's answer with our verdict to
tests/data/kustomize/krusty/recorded.json; tests/test_kube_kustomize_krusty.py replays
them without kubectl.  (The trees are kustomize's test inputs, written out as the
tests write them; nothing of the Go code is kept.)
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))

from krusty_eval import Build, Runner, Skipped  # noqa: E402
from krusty_go import Unsupported, parse_package  # noqa: E402

from cfgpatch.kube.kustomize.build import BuildError, build  # noqa: E402

DATA = ROOT / "tests" / "data" / "kustomize" / "krusty"
HELM = ROOT.parent / "shared" / "bin" / "helm"
KUBECTL = Path("/usr/lib/google-cloud-sdk/bin/kubectl.1.32")
#: what makes a test need exec or Go plugins, or KRM function containers
_PLUGIN_NEEDS = ("PrepExecPlugin", "BuildGoPlugin", "MakeFsOnDisk", "exec.LookPath")
_REMOTE_CHART = re.compile(r"^\s*-?\s*(repo|chartRepoUrl):\s*\S", re.M)
#: kubectl's refusal of a plugin that is not built in (no --enable-alpha-plugins)
_EXTERNAL = ("external plugins disabled", "unable to load external plugin")


def git(mirror: str, *args: str) -> str:
    return subprocess.run(["git", "-C", mirror, *args], capture_output=True, text=True,
                          check=True).stdout


def read_package(mirror: str, tag: str):
    names = git(mirror, "ls-tree", "--name-only", f"{tag}:api/krusty/").split()
    texts = [git(mirror, "show", f"{tag}:api/krusty/{n}") for n in sorted(names)
             if n.endswith("_test.go")]
    return parse_package(texts)


def testdata_reader(mirror: str, tag: str):
    """Files under api/krusty/PATH (a folder: every file by its relative path; a
    file: ``{"": bytes}``)."""
    def read(path: str) -> dict[str, bytes]:
        base = f"api/krusty/{path.lstrip('./')}"
        listing = git(mirror, "ls-tree", "-r", "--name-only", tag, "--", base).split("\n")
        out = {}
        for name in filter(None, listing):
            blob = subprocess.run(["git", "-C", mirror, "show", f"{tag}:{name}"],
                                  capture_output=True, check=True).stdout
            out["" if name == base else name[len(base) + 1:]] = blob
        return out
    return read


def collect(mirror: str, tag: str, only: str | None) -> list[tuple[str, Build | None, str]]:
    """(case name, build or None, reason it is not replayed) for every test."""
    pkg = read_package(mirror, tag)
    reader = testdata_reader(mirror, tag)
    out: list[tuple[str, Build | None, str]] = []
    for name in sorted(n for n in pkg.funcs if n.startswith("Test")):
        if only and only not in name:
            continue
        try:
            builds = Runner(pkg, reader).test(name)
        except Unsupported as err:
            needs = any(word in str(err) for word in _PLUGIN_NEEDS)
            out.append((name, None, ("needs exec/Go plugins or KRM functions: " if needs
                                     else "not read: ") + str(err)))
            continue
        except Skipped as err:
            out.append((name, None, f"skips itself: {err}"))
            continue
        if not builds:
            out.append((name, None, "builds nothing"))
        seen: Counter = Counter()
        for item in builds:
            seen[item.name] += 1
            label = item.name if seen[item.name] == 1 else f"{item.name}#{seen[item.name]}"
            out.append((label, item, _not_replayed(item)))
    return out


def _not_replayed(item: Build) -> str:
    for path, text in item.files.items():
        if path.endswith("kustomization.yaml") and isinstance(text, str) \
                and re.search(r"^openapi:\s*\n\s+path:\s*https?://", text, re.M):
            return "needs the network (an openapi schema from a URL)"
        if path.endswith("kustomization.yaml") and isinstance(text, str) \
                and "helmChart" in text and _REMOTE_CHART.search(text) \
                and not any(p.startswith(("charts/", "charts")) for p in item.files):
            return "needs the network (a helm chart from a repository)"
    return ""


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.#-]+", "_", name).replace("#", "--")


def write_tree(root: Path, item: Build) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for path, content in item.files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8", "surrogateescape") if isinstance(content, str) else content
        target.write_bytes(data)
    return root / item.directory if item.directory else root


def flags(item: Build) -> list[str]:
    out = []
    if item.plugins:
        out += ["--enable-helm", "--helm-command", str(HELM)]
    if item.load_restrictor != "LoadRestrictionsRootOnly":
        out += ["--load-restrictor", item.load_restrictor]
    return out


def kubectl(directory: Path, options: list[str]) -> tuple[int, str, str]:
    proc = subprocess.run([str(KUBECTL), "kustomize", str(directory), *options],
                          capture_output=True, timeout=300)
    return (proc.returncode, proc.stdout.decode("utf-8", "surrogateescape"),
            proc.stderr.decode("utf-8", "surrogateescape"))


def ours(directory: Path, options: list[str]) -> tuple[int, str, str]:
    kwargs: dict = {}
    if "--enable-helm" in options:
        from cfgpatch.cli.helm_runner import SubprocessHelm
        kwargs.update(enable_helm=True, helm_command=str(HELM), helm_runner=SubprocessHelm())
    if "--load-restrictor" in options:
        kwargs["load_restrictor"] = options[options.index("--load-restrictor") + 1]
    try:
        result = build(str(directory), **kwargs)
    except BuildError as err:
        return (3 if err.code == "kustomize unmodelled" else 1), "", f"error: {err.message}\n"
    except Exception as err:  # a crash is a finding, not the end of the run
        return 99, "", f"crash: {type(err).__name__}: {err}\n"
    return 0, result.yaml(), ""


#: a Go value holding a pointer that kustomize prints with %v (``merging from generator
#: &{0xc0003731e0 <nil>}: ...``): it changes on every run of kubectl too, and ``kube
#: build`` leaves it out (its hint says so), so the comparison leaves it out
_ADDRESS = re.compile(r" &\{0xc[0-9a-f]+ <nil>\}")


def first_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    return _ADDRESS.sub("", lines[0]) if lines else ""


def outcome(theirs: tuple[int, str, str], mine: tuple[int, str, str]) -> str:
    if theirs[0] == 0:
        if mine[0] == 0:
            return "pass" if mine[1] == theirs[1] else "differs"
        return {3: "not modelled", 99: "crash"}.get(mine[0], "refused")
    if mine[0] == 0:
        return "builds what kubectl refuses"
    if mine[0] == 3:
        return "not modelled"
    return "pass" if first_error(mine[2]) == first_error(theirs[2]) else "other error text"


def replay(item: Build, root: Path) -> dict:
    target = write_tree(root, item)
    options = flags(item)
    theirs = kubectl(target, options)
    if item.plugins and any(word in theirs[2] for word in _EXTERNAL):
        return {"skipped": "needs exec/Go plugins or KRM functions: " + first_error(theirs[2])}
    mine = ours(target, options)
    base = str(root)

    def portable(text: str) -> str:
        # the tree's own folder, then the folder of all trees (a base reached by "../")
        return text.replace(base, "$TREE").replace(str(root.parent), "$TREES")

    errors = [first_error(theirs[2])]
    verdict = outcome(theirs, mine)
    if verdict == "other error text":
        # kustomize visits some things in Go's map order (the referrers of name
        # references): ask again and accept any first line kubectl itself gives
        for _ in range(6):
            again = first_error(kubectl(target, options)[2])
            errors += [again] if again not in errors else []
        verdict = "pass" if first_error(mine[2]) in errors else verdict
    return {"directory": item.directory, "exit_code": theirs[0],
            "flags": [flag.replace(str(HELM), "$HELM") for flag in options],
            "stdout": portable(theirs[1]),
            "errors": [portable(e) for e in errors if e],
            "ours": verdict, "our_error": portable(first_error(mine[2]))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mirror")
    parser.add_argument("--tag", default="kustomize/v5.5.0")
    parser.add_argument("--only", help="replay only the tests whose name contains this")
    parser.add_argument("--list", help="write each build's outcome to this file")
    parser.add_argument("--record", action="store_true",
                        help="write the trees and kubectl's answers under tests/data")
    args = parser.parse_args()
    if not KUBECTL.exists():
        print(f"{KUBECTL} is needed", file=sys.stderr)
        return 2
    cases = collect(args.mirror, args.tag, args.only)
    table: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as work:
        for label, item, reason in cases:
            if item is None or reason:
                table[label] = {"skipped": reason}
                continue
            key = slug(label)
            root = DATA / "trees" / key if args.record else Path(work) / key
            if args.record and root.exists():
                shutil.rmtree(root)
            table[label] = replay(item, root)
            if "skipped" in table[label] and args.record:
                shutil.rmtree(root)
            elif args.record:
                table[label]["tree"] = key
    report(table, args.list)
    if args.record:
        (DATA / "trees").mkdir(parents=True, exist_ok=True)
        used = {case["tree"] for case in table.values() if "tree" in case}
        for stale in (DATA / "trees").iterdir():
            if stale.name not in used and not args.only:
                shutil.rmtree(stale)
        if args.only and (DATA / "recorded.json").exists():  # a part: the rest stays
            old = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))["cases"]
            table = {**old, **table}
        text = json.dumps({"tag": args.tag, "kubectl": "1.32", "cases": table}, indent=1,
                          sort_keys=True, ensure_ascii=False) + "\n"
        text = re.sub("[\udc80-\udcff]", lambda m: f"\\u{ord(m.group()):04x}", text)
        (DATA / "recorded.json").write_text(text, encoding="utf-8")
    return 0


def report(table: dict[str, dict], listing: str | None) -> None:
    counts = Counter(v.get("ours", "not replayed") for v in table.values())
    builds = Counter("builds" if v["exit_code"] == 0 else "refuses"
                     for v in table.values() if "exit_code" in v)
    replayed = sum(builds.values())
    print(f"cases: {len(table)}, replayed: {replayed} (kubectl 1.32 builds "
          f"{builds['builds']}, refuses {builds['refuses']}); passing: {counts['pass']}")
    for key, value in counts.most_common():
        print(f"  {key}: {value}")
    skipped = Counter(v["skipped"].split(":")[0] for v in table.values() if "skipped" in v)
    for key, value in skipped.most_common():
        print(f"  not replayed, {key}: {value}")
    if listing:
        Path(listing).write_text("".join(
            f"{k}\t{v.get('ours', 'skipped: ' + v.get('skipped', ''))}\n"
            for k, v in sorted(table.items())), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
