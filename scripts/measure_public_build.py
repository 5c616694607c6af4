#!/usr/bin/env python3
"""Measure ``cfgpatch kube build`` against ``kubectl kustomize`` on checked-out repositories.

For every kustomization folder of every repository given (a directory, or a bare git
repository such as a ``fetch`` mirror, whose HEAD is extracted into ``--workdir``), this
runs ``kubectl.1.32 kustomize DIR`` and ``cfgpatch kube build DIR`` with the same options
(``--enable-helm --helm-command HELM`` for a folder whose kustomization names
``helmCharts``, ``helmGlobals`` or a HelmChartInflationGenerator, or whose bases do:
kubectl says ``must specify --enable-helm`` without it) and reports, per
repository and in total:

- folders kubectl builds: the share ``kube build`` prints byte for byte;
- folders kubectl refuses: the share where ``kube build`` refuses too with the same
  first error line (the first ``error:`` line of each one's stderr, the absolute
  path of the repository written ``$REPO``, a Go pointer kustomize prints left out;
  where kustomize panics, ``kube build`` refusing with the panic's message counts);
- folders that need the network (kubectl fails fetching a remote base or pulling a
  chart): counted apart, not compared;
- the list of differing folders, with the first line that differs;
- the same counts again for the ``--enable-helm`` folders alone (``--helm-only`` measures
  only those).  scripts/helm_public_corpus.py writes such folders of our own around
  public charts kept in git, for a measure that needs no chart repository.

The network is closed for both programs (proxies pointing to a closed port, git's
prompt and ssh disabled), so a remote base fails fast instead of hanging.  kubectl's
answers are cached in ``--cache`` (keyed by repository, commit and folder) so a second
run after a fix only runs ``kube build`` again.

A kustomization of ``kind: Component`` is not a folder one builds alone: it is left out,
as scripts/record_kustomize_trees.py does.

Usage:
    scripts/measure_public_build.py [--json OUT] [--workdir DIR] [--cache FILE]
        [--jobs N] [--helm-only] REPO ...

A REPO may be written ``PATH:SUBDIR`` to measure only the folders under SUBDIR.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
KUBECTL = shutil.which("kubectl.1.32") or "/usr/lib/google-cloud-sdk/bin/kubectl.1.32"
HELM = str((ROOT.parent / "shared" / "bin" / "helm").resolve())
KLOG_HEADER = re.compile(r"(?m)^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [\w.-]+:\d+\] ")
HELM_WORDS = re.compile(r"(?m)^\s*(helmCharts|helmGlobals)\s*:|HelmChartInflationGenerator")
#: kubectl's texts when it reached for the network (a remote base, ``helm pull``)
NETWORK = re.compile(
    r"git (clone|fetch|init)|failed to run '\S*git|helm pull|proxyconnect|dial tcp"
    r"|no such host|Could not resolve host|connection refused|network is unreachable"
    r"|hit \d+s timeout|unable to fetch|http(s)?://\S+: ")
CLOSED = "http://127.0.0.1:9"
NEEDS_HELM = "must specify --enable-helm"
GO_POINTER = re.compile(r" ?&\{0x[0-9a-f]+ <nil>\}")


@dataclass
class Answer:
    code: int
    stdout: str
    stderr: str

    def first_error(self) -> str:
        """The first ``error:`` line (else the first line), with a Go pointer kustomize
        prints (``merging from generator &{0xc000745200 <nil>}: ...``, a new address on
        every run) left out."""
        lines = self.stderr.splitlines()
        first = next((line for line in lines if line.startswith("error:")),
                     next((line for line in lines if line.strip()), ""))
        return GO_POINTER.sub("", first)


@dataclass
class Folder:
    rel: str
    helm: bool
    kubectl: Answer
    ours: Answer
    verdict: str = ""          # identical, same-error, differs, network
    detail: str = ""


@dataclass
class Repo:
    name: str
    path: Path
    commit: str
    subdir: str = ""
    folders: list[Folder] = field(default_factory=list)

    def count(self, verdict: str, helm_only: bool = False) -> int:
        return sum(1 for f in self.chosen(helm_only) if f.verdict == verdict)

    def chosen(self, helm_only: bool) -> list[Folder]:
        return [f for f in self.folders if f.helm] if helm_only else self.folders

    def built(self, helm_only: bool = False) -> list[Folder]:
        return [f for f in self.chosen(helm_only)
                if f.verdict != "network" and f.kubectl.code == 0]

    def refused(self, helm_only: bool = False) -> list[Folder]:
        return [f for f in self.chosen(helm_only)
                if f.verdict != "network" and f.kubectl.code != 0]

    def row(self, helm_only: bool = False) -> list[int]:
        """folders, kubectl builds, identical, kubectl refuses, same error, network, differing"""
        return [len(self.chosen(helm_only)), len(self.built(helm_only)),
                self.count("identical", helm_only), len(self.refused(helm_only)),
                self.count("same-error", helm_only), self.count("network", helm_only),
                self.count("differs", helm_only)]


def environment() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                 "all_proxy"):
        env[name] = CLOSED
    env.pop("NO_PROXY", None)
    env.pop("no_proxy", None)
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_SSH_COMMAND"] = "false"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def extract(mirror: Path, workdir: Path) -> tuple[Path, str]:
    """Write HEAD of a bare repository into ``workdir/<name>`` (objects it lacks are left out)."""
    name = mirror.parent.name.split("+", 1)[-1] if mirror.name == "repo" else mirror.stem
    commit = subprocess.run(["git", "--git-dir", str(mirror), "rev-parse", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    dest = workdir / name
    stamp = dest / ".measure-commit"
    if stamp.exists() and stamp.read_text().strip() == commit:
        return dest, commit
    listing = subprocess.run(["git", "--git-dir", str(mirror), "ls-tree", "-r", "-z", "HEAD"],
                             capture_output=True, check=True).stdout
    blobs = []
    for entry in filter(None, listing.split(b"\0")):
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            blobs.append((mode, sha, path.decode("utf-8", "surrogateescape")))
    with subprocess.Popen(["git", "--git-dir", str(mirror), "cat-file", "--batch"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE) as cat:
        assert cat.stdin and cat.stdout
        for mode, sha, path in blobs:
            cat.stdin.write(sha + b"\n")
            cat.stdin.flush()
            header = cat.stdout.readline().split()
            if header[1] == b"missing":
                continue
            data = cat.stdout.read(int(header[2]))
            cat.stdout.read(1)
            target = dest / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if mode == b"120000":
                os.symlink(data.decode("utf-8", "surrogateescape"), target)
            else:
                target.write_bytes(data)
        cat.stdin.close()
    stamp.write_text(commit + "\n")
    return dest, commit


def open_repo(spec: str, workdir: Path) -> Repo:
    path_text, _, subdir = spec.partition(":")
    path = Path(path_text).resolve()
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        checkout, commit = extract(path, workdir)
        return Repo(checkout.name, checkout, commit, subdir)
    stamp = path / ".measure-commit"
    commit = stamp.read_text().strip() if stamp.exists() else subprocess.run(
        ["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True,
        text=True).stdout.strip() or "-"
    return Repo(path.name, path, commit, subdir)


def kustomization(directory: Path) -> Path | None:
    for name in KUSTOMIZATION_FILES:
        if (directory / name).is_file():
            return directory / name
    return None


def build_folders(repo: Repo) -> list[tuple[str, bool]]:
    """(folder relative to the repository, whether it uses helm), sorted; no Components."""
    top = repo.path / repo.subdir if repo.subdir else repo.path
    out = []
    for directory in sorted([top, *[p for p in top.rglob("*") if p.is_dir()]]):
        if ".git" in directory.parts or directory.is_symlink():
            continue
        file = kustomization(directory)
        if file is None:
            continue
        text = file.read_text(encoding="utf-8", errors="replace")
        if any(line.strip() == "kind: Component" for line in text.splitlines()):
            continue
        rel = directory.relative_to(repo.path).as_posix()
        out.append((rel, bool(HELM_WORDS.search(text))))
    return out


def run(command: list[str], repo: Repo, timeout: float) -> Answer:
    try:
        proc = subprocess.run(command, capture_output=True, timeout=timeout, env=environment(),
                              cwd=str(repo.path))
    except subprocess.TimeoutExpired:
        return Answer(-1, "", f"error: hit {timeout:.0f}s timeout\n")
    root = str(repo.path)
    stdout = proc.stdout.decode("utf-8", "surrogateescape").replace(root, "$REPO")
    stderr = proc.stderr.decode("utf-8", "surrogateescape").replace(root, "$REPO")
    return Answer(proc.returncode, stdout, KLOG_HEADER.sub("", stderr))


def options(helm: bool, helm_command: str) -> list[str]:
    return ["--enable-helm", "--helm-command", helm_command] if helm else []


def first_difference(a: str, b: str) -> str:
    left, right = a.splitlines(), b.splitlines()
    for index, (x, y) in enumerate(zip(left, right)):
        if x != y:
            return f"line {index + 1}: kubectl {x!r} / kube build {y!r}"
    if len(left) != len(right):
        return f"kubectl {len(left)} lines / kube build {len(right)} lines"
    return "trailing bytes differ"


def same_error(kubectl: Answer, ours: Answer) -> bool:
    """The same first error line; where kustomize panics (``panic: MESSAGE``, exit 2, a Go
    stack trace), ``kube build``'s refusal with that message counts as the same."""
    theirs = kubectl.first_error()
    if kubectl.code == 2 and theirs.startswith("panic: "):
        theirs = "error: " + theirs[len("panic: "):]
    return theirs == ours.first_error()


def judge(folder: Folder) -> None:
    kubectl, ours = folder.kubectl, folder.ours
    if kubectl.code != 0 and NETWORK.search(kubectl.stderr):
        folder.verdict = "network"
    elif kubectl.code == 0 and ours.code == 0 and kubectl.stdout == ours.stdout:
        folder.verdict = "identical"
    elif kubectl.code != 0 and ours.code != 0 and same_error(kubectl, ours):
        folder.verdict = "same-error"
    else:
        folder.verdict = "differs"
        if kubectl.code == 0 and ours.code == 0:
            folder.detail = first_difference(kubectl.stdout, ours.stdout)
        else:
            folder.detail = (f"kubectl exit {kubectl.code} {kubectl.first_error()[:200]!r} / "
                             f"kube build exit {ours.code} {ours.first_error()[:200]!r}")


class Cache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.data: dict[str, dict] = {}
        if path and path.exists():
            self.data = json.loads(path.read_text(encoding="utf-8"))

    @staticmethod
    def key(repo: Repo, rel: str, helm: bool) -> str:
        return hashlib.sha1(f"{repo.name}@{repo.commit}:{rel}:{helm}".encode()).hexdigest()

    def save(self) -> None:
        if self.path:
            self.path.write_text(json.dumps(self.data), encoding="utf-8")


def measure_folder(repo: Repo, rel: str, helm: bool, args: argparse.Namespace,
                   cache: Cache) -> Folder:
    """Both answers for one folder; a folder whose bases need helm (kubectl says ``must
    specify --enable-helm``) is measured again with it, as its users build it."""
    folder = measure_once(repo, rel, helm, args, cache)
    if not helm and NEEDS_HELM in folder.kubectl.stderr:
        return measure_once(repo, rel, True, args, cache)
    return folder


def measure_once(repo: Repo, rel: str, helm: bool, args: argparse.Namespace,
                 cache: Cache) -> Folder:
    directory = str(repo.path / rel)
    key = Cache.key(repo, rel, helm)
    if key in cache.data:
        kubectl = Answer(**cache.data[key])
    else:
        kubectl = run([args.kubectl, "kustomize", directory, *options(helm, args.helm)], repo,
                      args.timeout)
        cache.data[key] = kubectl.__dict__
    ours = run([sys.executable, "-m", "cfgpatch", "kube", "build", directory,
                *options(helm, args.helm)], repo, args.timeout)
    folder = Folder(rel, helm, kubectl, ours)
    judge(folder)
    return folder


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


HEADER = ("| repository | commit | folders | kubectl builds | identical | kubectl refuses "
          "| same error | needs network | differing |\n|---|---|---|---|---|---|---|---|---|")


def table(repos: list[Repo], helm_only: bool, what: str) -> list[str]:
    """The table of ``repos`` (with ``helm_only``, their ``--enable-helm`` folders) and its
    summary sentence."""
    lines = [HEADER]
    totals = [0] * 7
    for repo in repos:
        row = repo.row(helm_only)
        if helm_only and not row[0]:
            continue
        totals = [a + b for a, b in zip(totals, row)]
        name = repo.name + (f" ({repo.subdir})" if repo.subdir else "")
        lines.append(f"| {name} | {repo.commit[:12]} | " + " | ".join(map(str, row)) + " |")
    lines.append("| **total** | | " + " | ".join(f"**{n}**" for n in totals) + " |")
    lines.append("")
    lines.append(f"{what}: byte-identical: {totals[2]}/{totals[1]} "
                 f"({share(totals[2], totals[1])}) of the folders kubectl builds; same first "
                 f"error line: {totals[4]}/{totals[3]} ({share(totals[4], totals[3])}) of "
                 f"those it refuses; {totals[5]} need the network")
    return lines


def report(repos: list[Repo]) -> str:
    lines = table(repos, False, "all folders")
    if any(f.helm for repo in repos for f in repo.folders):
        lines += ["", "`--enable-helm` folders (helmCharts, helmGlobals or the "
                  "HelmChartInflationGenerator):", ""]
        lines += table(repos, True, "--enable-helm folders")
    differing = [(repo, f) for repo in repos for f in repo.folders if f.verdict == "differs"]
    if differing:
        lines.append("")
        lines.append("differing folders:")
        for repo, folder in differing:
            lines.append(f"- {repo.name}/{folder.rel}{' (helm)' if folder.helm else ''}: "
                         f"{folder.detail}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repos", nargs="+", metavar="REPO",
                        help="a checked-out repository or a bare git repository (PATH[:SUBDIR])")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cfgpatch-public"),
                        help="where bare repositories are extracted")
    parser.add_argument("--cache", type=Path, default=None,
                        help="kubectl's answers, kept between runs (JSON)")
    parser.add_argument("--json", type=Path, default=None, help="write every answer here")
    parser.add_argument("--kubectl", default=KUBECTL)
    parser.add_argument("--helm", default=HELM, help="the helm binary for --enable-helm")
    parser.add_argument("--helm-only", action="store_true",
                        help="measure only the folders that need --enable-helm")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    cache = Cache(args.cache)
    repos = [open_repo(spec, args.workdir) for spec in args.repos]
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for repo in repos:
            work = [item for item in build_folders(repo) if item[1] or not args.helm_only]
            repo.folders = list(pool.map(
                lambda item, repo=repo: measure_folder(repo, *item, args, cache), work))
            print(f"{repo.name}: {len(repo.folders)} folders, {repo.count('differs')} differ",
                  file=sys.stderr)
            cache.save()  # after each repository: a run cut short keeps kubectl's answers
            if args.json:
                write_json(args.json, [r for r in repos if r.folders])
    print(report(repos), end="")
    print(f"({time.monotonic() - started:.0f} s)", file=sys.stderr)
    return 0


def write_json(path: Path, repos: list[Repo]) -> None:
    path.write_text(json.dumps(
        [{"repo": r.name, "commit": r.commit, "subdir": r.subdir,
          "folders": [{"folder": f.rel, "helm": f.helm, "verdict": f.verdict,
                       "detail": f.detail, "kubectl": f.kubectl.__dict__,
                       "kube_build": f.ours.__dict__} for f in r.folders]}
         for r in repos], indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
