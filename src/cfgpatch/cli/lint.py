"""``cfgpatch lint [PATH...]``: silent patch mistakes in a repository's kustomizations.

Exit status: 0 when nothing at or above ``--fail-on`` was found, 1 when something was,
2 on a usage error or when a kustomization does not build (the findings are printed
all the same).  When ``kubectl`` is on PATH (or ``--kubectl`` names it), a kustomization
lint's own resolution cannot build is checked with ``kubectl kustomize``: its error text
replaces lint's, and a kustomization kustomize does build is not reported.
"""

from __future__ import annotations

import os
import sys

from ..errors import CfgPatchError
from ..lazy_pattern import lazily

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

_ERR = lazily(r'"command failed" err="((?:[^"\\]|\\.)*)"')


def register(subparsers: argparse._SubParsersAction) -> None:
    from ..lint.formats import FORMATS

    parser = subparsers.add_parser(
        "lint",
        help="find silent patch mistakes in kustomizations, Flux Kustomizations and patches",
        description=(
            "Lint every kustomization (kustomization.yaml, .yml, Kustomization), every Flux "
            "Kustomization's spec.patches and every standalone patch mapped in .cfgpatch.yaml "
            "under PATH (default: the root). Each finding names the file, line and column of "
            "the patch text, a rule id (docs/lint.md), a level and what to do. Exit status: "
            "0 clean, 1 findings at or above --fail-on, 2 usage error or a kustomization that "
            "does not build."),
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="folders or files to lint (default: the root)")
    parser.add_argument("--root", default=".",
                        help="the repository root: paths in findings and SARIF are relative "
                             "to it, and .cfgpatch.yaml is read there (default: .)")
    parser.add_argument("--config", metavar="FILE",
                        help="the config file (default: ROOT/.cfgpatch.yaml if present)")
    parser.add_argument("--format", choices=FORMATS, default="human",
                        help="human (default), json, sarif (SARIF 2.1.0) or github "
                             "(workflow annotations)")
    parser.add_argument("--fail-on", choices=("error", "warning", "note", "never"),
                        default="error",
                        help="exit 1 when a finding at or above this level is reported "
                             "(default: error)")
    parser.add_argument("--schema", action="append", default=[], metavar="PATH",
                        help="a CRD file or folder (list keys of custom resources); "
                             "adds to the config's lint.schemas; repeatable")
    parser.add_argument("--disable", action="append", default=[], metavar="RULE",
                        help="a rule id not to report; repeatable")
    parser.add_argument("--output", "-o", metavar="FILE",
                        help="write the report to FILE instead of standard output")
    parser.add_argument("--show-notes", action="store_true",
                        help="human format: list every note in full (default: a rule with "
                             "more than 3 notes is summarised in one block, unless "
                             "--fail-on note)")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                        help="colour in the human format (auto: on a terminal, unless "
                             "NO_COLOR is set)")
    parser.add_argument("--kubectl", metavar="PATH",
                        help="kubectl used to confirm build failures (default: kubectl on "
                             "PATH)")
    parser.add_argument("--no-kubectl", action="store_true",
                        help="never run kubectl: build failures are lint's own resolution's")
    parser.add_argument("--load-restrictor", choices=("LoadRestrictionsRootOnly",
                                                      "LoadRestrictionsNone"),
                        help="as kubectl kustomize's; .cfgpatch.yaml lint.kustomize may set "
                             "it per folder")
    parser.add_argument("--enable-helm", action="store_true",
                        help="build helmCharts with helm, as kubectl kustomize --enable-helm")
    parser.add_argument("--helm-command", metavar="COMMAND",
                        help="the helm to run (default: helm)")
    parser.add_argument("--base", metavar="REF",
                        help="the git ref ssa-stuck-field compares the working tree with "
                             "(default: lint.base, else the merge-base with the default "
                             "branch)")
    parser.add_argument("--no-default-exclude", action="store_true",
                        help="also lint test data folders (testdata, test, tests, fixtures...)")
    parser.set_defaults(func=run_lint)


def _usage(message: str) -> int:
    sys.stderr.write(f"cfgpatch lint: {message}\n")
    return 2


def _relative(root: str, path: str) -> str | None:
    """``path`` (relative to the working directory) relative to ``root`` (a real path),
    POSIX; None when it is outside."""
    full = os.path.realpath(path)
    if full != root and not full.startswith(root.rstrip(os.sep) + os.sep):
        return None
    rel = os.path.relpath(full, root)
    return "" if rel == "." else rel.replace(os.sep, "/")


def _on_path(name: str) -> str | None:
    """The executable ``name`` on PATH (``shutil.which``'s answer for a plain name,
    without importing shutil and with it bz2, lzma and zlib at every lint's start; the
    folders as ``os.get_exec_path()`` gives them, without the :mod:`warnings` it imports)."""
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def kubectl_confirm(root: str, kubectl: str, config=None):
    """``confirm(directory)``: kustomize's error text, or None when it builds (with the
    build options ``config`` gives the folder)."""
    def confirm(directory: str) -> str | None:
        import subprocess

        target = os.path.join(root, directory) if directory else root
        flags = config.build_options(directory).flags() if config is not None else []
        try:
            done = subprocess.run([kubectl, "kustomize", *flags, str(target)],
                                  capture_output=True,
                                  text=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"kubectl kustomize could not run: {exc}"
        if done.returncode == 0:
            return None
        return kustomize_message(done.stderr).replace(f"{root}/", "")
    return confirm


def kustomize_message(stderr: str) -> str:
    """kustomize's error from kubectl's standard error (``error: X`` or a klog line)."""
    match = _ERR.search(stderr)
    if match:
        return match.group(1).encode("utf-8").decode("unicode_escape", "replace") \
            if "\\" in match.group(1) else match.group(1)
    lines = [line for line in stderr.splitlines() if line.strip() and
             not line.startswith("# Warning")]
    text = lines[-1] if lines else "kubectl kustomize failed"
    return text.removeprefix("error: ")


def _config(args: argparse.Namespace, files):
    from ..lint.config import parse_config
    from ..lint.linter import read_config

    if args.config:
        with open(args.config, encoding="utf-8") as handle:
            text = handle.read()
        config = parse_config(text, args.config)
    else:
        config = read_config(files)
    from ..lint.rules import is_rule
    from ..records import replace
    for rule_id in args.disable:
        if not is_rule(rule_id):
            raise ValueError(f"--disable: unknown rule {rule_id!r} (see docs/lint.md)")
    options = config.options
    if args.load_restrictor:
        options = replace(options, load_restrictor=args.load_restrictor)
    if args.enable_helm:
        options = replace(options, enable_helm=True)
    if args.helm_command:
        options = replace(options, helm_command=args.helm_command)
    return replace(config, disable=config.disable | frozenset(args.disable),
                   schemas=(*config.schemas, *args.schema), options=options,
                   default_exclude=() if args.no_default_exclude else config.default_exclude)


def _base(root: str, ref: str, read: list):
    """The base ref of ``ssa-stuck-field`` (read only when a unit applies server-side;
    kept in ``read`` so that its chart copies are removed at the end)."""
    from pathlib import Path

    from .lint_base import base_ref

    base = base_ref(Path(root), ref)
    read.append(base)
    return base


def _color(choice: str, output: str | None) -> bool:
    if choice != "auto":
        return choice == "always"
    return output is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def run_lint(args: argparse.Namespace) -> int:
    from ..lint.files import DiskFiles
    from ..lint.formats import renderer
    from ..lint.linter import lint_files

    root = os.path.realpath(args.root)
    if not os.path.isdir(root):
        return _usage(f"--root {args.root} is not a folder")
    paths = []
    for path in args.paths or [root]:
        rel = _relative(root, path)
        if rel is None:
            return _usage(f"{path} is outside the root {root} (give --root)")
        if not os.path.exists(path):
            return _usage(f"{path}: no such file or folder")
        paths.append(rel)
    files = DiskFiles(root)
    schema_rel = [_relative(root, s) for s in args.schema]
    if None in schema_rel:
        return _usage("--schema must be inside the root")
    args.schema = schema_rel
    try:
        config = _config(args, files)
    except (CfgPatchError, OSError, ValueError) as exc:
        return _usage(str(getattr(exc, "message", exc)))
    if config.options.enable_helm or any(dict(e.changes).get("enable_helm")
                                         for e in config.kustomize):
        from .helm_runner import install  # kube build runs helm through it (a process)
        install()
    kubectl = None if args.no_kubectl else (args.kubectl or _on_path("kubectl"))
    confirm = kubectl_confirm(root, kubectl, config) if kubectl else None
    read: list = []
    try:
        report = lint_files(files, paths, config, confirm=confirm,
                            base=lambda: _base(root, args.base or config.base, read))
    except ValueError as exc:
        return _usage(str(exc))
    finally:
        for base in read:
            if base.helm is not None:
                base.helm.close()
    text = renderer(args.format)(report, color=_color(args.color, args.output),
                                 show_notes=args.show_notes or args.fail_on == "note",
                                 root_uri=_file_uri(root) if args.format == "sarif" else None)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    if report.build_failed():
        return 2
    if args.fail_on != "never" and report.at_or_above(args.fail_on):
        return 1
    return 0


def _file_uri(root: str) -> str:
    """``root`` (absolute) as a ``file:`` URI (SARIF's base of the paths)."""
    from pathlib import Path

    return Path(root).as_uri()
