"""Measure kube preview on a real repository over consecutive commit pairs.

For each pair (parent, commit) of the first-parent history (newest first, --pairs of
them): the preview of parent..commit; every kustomization entry point it rendered is
built again by ``kubectl.1.32 kustomize`` on that commit's tree written to a temporary
folder, and the outputs must be equal byte for byte (or both refuse); then the two
raw renders are diffed here independently, leaf by leaf, and every difference must be
in the preview (no missed change).  Prints one line per pair and the totals; writes
nothing into the repository.

    python scripts/measure_preview.py /path/to/clone --pairs 50 [--all] [PATH...]
        [--enable-helm --helm-command HELM]

``--enable-helm``: the preview and kubectl both inflate ``helmCharts`` with HELM; entry
points that need the network are counted as ``not_rendered`` and not compared.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from cfgpatch.cli.helm_runner import SubprocessHelm  # noqa: E402
from cfgpatch.lint.options import BuildOptions  # noqa: E402
from cfgpatch.preview.engine import Options, preview  # noqa: E402
from cfgpatch.preview.gittree import GitRepo  # noqa: E402
from cfgpatch.preview.render import leaves  # noqa: E402


def kubectl() -> str:
    found = shutil.which("kubectl")
    if not found:
        raise SystemExit("kubectl is not installed")
    return os.path.join(os.path.dirname(os.path.realpath(found)), "kubectl.1.32")


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader without its ``=`` value tag (a plain ``=`` is a string)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:value"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def docs(text: str) -> dict:
    out = {}
    for doc in yaml.load_all(text, Loader=_Loader):  # noqa: S506 - a safe loader
        if isinstance(doc, dict):
            meta = doc.get("metadata") or {}
            out[(doc.get("apiVersion"), doc.get("kind"), meta.get("namespace") or "",
                 meta.get("name"))] = doc
    return out


def missed(report: dict, key: str, old: str, new: str) -> list[str]:
    """Differences between the raw renders that no reported change covers."""
    before, after = docs(old), docs(new)
    objects = [o for o in report["objects"] if o["entry_point"] == key]
    out = []
    for ident in set(before) | set(after):
        if before.get(ident) == after.get(ident):
            continue
        _, kind, namespace, name = ident
        found = [o for o in objects if (o["kind"], o["namespace"], o["name"]) == (
            kind, namespace, name) or (o.get("renamed_from") and (
                o["kind"], o["renamed_from"]["namespace"], o["renamed_from"]["name"]) == (
                kind, namespace, name))]
        if not found:
            out.append(f"{ident}: not in the preview")
            continue
        if ident not in before or ident not in after:
            continue
        paths = [c["path"] for o in found for c in o["changes"]]
        adds = [c["path"].rsplit("/", 1)[0] for o in found for c in o["changes"]
                if c["action"] in ("add", "remove")]
        a, b = leaves(before[ident]), leaves(after[ident])
        for pointer in set(a) | set(b):
            if a.get(pointer, KeyError) == b.get(pointer, KeyError):
                continue
            if not any(pointer == p or pointer.startswith(p + "/") for p in paths) and \
                    not any(pointer.startswith(p + "/") for p in adds):
                out.append(f"{ident} {pointer}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("repository")
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--all", action="store_true",
                        help="render every entry point at every pair, reached or not")
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="only entry points in or below these folders")
    parser.add_argument("--enable-helm", action="store_true",
                        help="both sides with --enable-helm (the preview and kubectl)")
    parser.add_argument("--helm-command", default="helm")
    args = parser.parse_intermixed_args()
    flags = ["--enable-helm", "--helm-command", args.helm_command] if args.enable_helm else []
    build = BuildOptions(enable_helm=args.enable_helm, helm_command=args.helm_command)
    repo = GitRepo.at(args.repository)
    binary = kubectl()
    commits = repo.text("rev-list", "--first-parent", f"--max-count={args.pairs + 1}",
                        args.ref).split()
    totals = {"pairs": 0, "renders": 0, "equal": 0, "both_refuse": 0, "refuse_other_text": 0,
              "differ": 0, "missed": 0, "entry_points": 0, "changed_objects": 0,
              "not_rendered": 0, "seconds": 0.0}
    trees: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="measure-preview-") as scratch:
        def tree(sha: str) -> str:
            if sha not in trees:
                folder = os.path.join(scratch, sha)
                repo.tree(sha).materialize(folder, tuple(args.paths) or ("",))
                trees[sha] = folder
            return trees[sha]

        for head, base in zip(commits, commits[1:], strict=False):
            kept: dict = {}
            started = time.perf_counter()
            report = preview(Options(repo.root, base, head, tuple(args.paths),
                                     all_entry_points=args.all, keep=kept, build=build,
                                     helm_runner=SubprocessHelm(),
                                     helm_command_locked=True))
            totals["seconds"] += time.perf_counter() - started
            totals["pairs"] += 1
            totals["entry_points"] += len(report["entry_points"])
            totals["changed_objects"] += len(report["objects"])
            totals["not_rendered"] += report["summary"].get("not_rendered", 0)
            notes = []
            before = (totals["renders"], totals["equal"])
            for key, renders in kept.items():
                for sha, render in zip((base, head), renders, strict=True):
                    if render.entry.kind not in ("kustomization", "config") or render.absent \
                            or render.note or not (render.built or render.error):
                        continue
                    folder = os.path.join(tree(sha), render.entry.path)
                    if not os.path.isdir(folder):
                        continue
                    proc = subprocess.run([binary, "kustomize", *flags, folder],
                                          capture_output=True,
                                          text=True, errors="surrogateescape")
                    totals["renders"] += 1
                    if proc.returncode == 0 and not render.error and proc.stdout == render.output:
                        totals["equal"] += 1
                    elif proc.returncode != 0 and render.error:
                        totals["both_refuse"] += 1
                        theirs = proc.stderr.replace(tree(sha), "<root>").strip()
                        ours = "error: " + render.error.replace(repo.root, "<root>")
                        if ours.strip() not in theirs:
                            totals["refuse_other_text"] += 1
                            notes.append(f"REFUSE-TEXT {key}@{sha[:8]}: ours={ours[:100]!r} "
                                         f"kubectl={theirs[:100]!r}")
                    else:
                        totals["differ"] += 1
                        notes.append(f"DIFFER {key}@{sha[:8]}: ours={render.error[:80]!r} "
                                     f"kubectl={proc.returncode}")
                old, new = renders
                if not old.error and not new.error and old.built and new.built \
                        and not old.absent and not new.absent:
                    lost = missed(report, key, old.output, new.output)
                    totals["missed"] += len(lost)
                    notes += [f"MISSED {key}: {m}" for m in lost[:5]]
            print(f"{base[:8]}..{head[:8]}: {len(report['entry_points'])} entry points, "
                  f"{len(report['objects'])} objects changed, {len(report['risks'])} risks, "
                  f"{totals['equal'] - before[1]}/{totals['renders'] - before[0]} renders "
                  "equal to kubectl's"
                  + "".join(f"\n  {n}" for n in notes), flush=True)
    print("TOTAL", totals)
    return 1 if totals["differ"] or totals["missed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
