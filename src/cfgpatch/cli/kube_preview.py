"""``cfgpatch kube preview``: what a change to a GitOps repository does to the cluster.

Renders every entry point the change can reach at both refs (base from git objects;
head from git objects or the working tree), pairs and diffs their objects, attributes
every changed field to its file, line and commits, and says the risks first.  Exit
status: 0 nothing risky, 1 a risk found, 2 an error (an entry point that does not
build, a bad ref or configuration).  See docs/preview.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..errors import CfgPatchError
from .common import write_stderr

FORMATS = ("human", "markdown", "json", "sarif", "html")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "preview", help="what a change will do to the cluster: both git refs rendered, "
                        "every object diffed, every change traced to its line",
        description="Render the entry points a change reaches at --base and --head, diff "
                    "every object and name the file, line and commit behind each change.")
    parser.add_argument("paths", metavar="PATH", nargs="*",
                        help="only entry points in or below these folders")
    parser.add_argument("--base", help="the base ref (default: the merge base with the "
                                       "default branch)")
    parser.add_argument("--head", help="the head ref (default: the working tree)")
    parser.add_argument("--repository", "-C", default=".", help="the git repository")
    parser.add_argument("--format", default="human", choices=FORMATS)
    parser.add_argument("--output", "-o", help="write here (markdown: FILE, FILE.2, ... "
                                               "one per comment part)")
    parser.add_argument("--all", action="store_true", dest="all_entry_points",
                        help="render every entry point, even those the change cannot reach")
    parser.add_argument("--live", metavar="DIR",
                        help="objects as `kubectl get -o yaml` saved them: add the "
                             "client-side apply's own outcome on each")
    parser.add_argument("--server-side", action="store_true",
                        help="with --live: the outcome of server-side apply (kubectl apply "
                             "--server-side): conflicts with other field managers, fields "
                             "the apply removes, fields left stuck")
    parser.add_argument("--as", dest="as_tool", default="kubectl",
                        choices=("kubectl", "helm4", "flux"),
                        help="with --server-side: whose apply (kubectl's, the default, with "
                             "its client-side to server-side migration; helm4: Helm 4's, "
                             "as helm, without that migration; flux: kustomize-controller's "
                             "cleanup of kubectl's managers, then a forced apply)")
    parser.add_argument("--field-manager", metavar="NAME",
                        help="with --server-side: the applier's field manager (default: "
                             "the --as tool's: kubectl, helm, kustomize-controller; "
                             "argocd-controller for Argo CD, which applies as kubectl)")
    parser.add_argument("--force-conflicts", action="store_true",
                        help="with --server-side: take the conflicting fields over (shown "
                             "as forced, still a risk)")
    parser.add_argument("--enable-helm", action="store_true",
                        help="inflate helmCharts with the external helm (as kubectl "
                             "kustomize --enable-helm); .cfgpatch.yaml may set it per path")
    parser.add_argument("--helm-command", metavar="HELM",
                        help="the helm executable (default: helm); given here, it wins over "
                             ".cfgpatch.yaml's (which the head ref, a pull request, chooses)")
    parser.add_argument("--load-restrictor", default="LoadRestrictionsRootOnly",
                        choices=("LoadRestrictionsRootOnly", "LoadRestrictionsNone"),
                        help="kustomize's load restrictor for every entry point")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--report", metavar="JSON",
                        help="write a saved JSON report in --format instead of computing one")
    parser.set_defaults(func=run_preview)


def run_preview(args: argparse.Namespace) -> int:
    from ..preview.report import exit_status

    if (args.server_side or args.force_conflicts) and not args.live:
        write_stderr("error: --server-side and --force-conflicts need --live DIR\n")
        return 2
    if (args.field_manager is not None or args.as_tool != "kubectl") and not args.server_side:
        write_stderr("error: --as and --field-manager need --server-side\n")
        return 2
    try:
        report = _saved(args.report) if args.report else _compute(args)
    except CfgPatchError as error:
        write_stderr(f"error: {error.message}\n")
        return 2
    _write(args, report)
    return exit_status(report)


def _compute(args: argparse.Namespace) -> dict:
    from ..lint.options import BuildOptions
    from ..preview.engine import Options, preview
    from ..preview.serverside import server_side as server_side_of
    from .helm_runner import SubprocessHelm

    build = BuildOptions(args.load_restrictor, args.enable_helm, args.helm_command or "helm")
    server_side = server_side_of(args.as_tool, args.field_manager, args.force_conflicts) \
        if args.server_side else None
    return preview(Options(args.repository, args.base, args.head, tuple(args.paths),
                           args.all_entry_points, live=args.live, build=build,
                           helm_runner=SubprocessHelm(), server_side=server_side,
                           helm_command_locked=args.helm_command is not None))


def _saved(path: str) -> dict:
    from ..errors import INVALID_INPUT, InvalidInput
    from ..preview.report import SCHEMA

    try:
        with open(path, encoding="utf-8") as handle:
            report = json.load(handle)
    except (OSError, ValueError) as err:
        raise InvalidInput(f"{path}: cannot read the report ({err})",
                           code=INVALID_INPUT) from None
    if not isinstance(report, dict) or report.get("schema") != SCHEMA:
        raise InvalidInput(f"{path}: not a {SCHEMA} report", code=INVALID_INPUT)
    return report


def _write(args: argparse.Namespace, report: dict) -> None:
    if args.format == "markdown":
        from ..preview.markdown import render_markdown

        parts = render_markdown(report)
        if args.output:
            for number, part in enumerate(parts, 1):
                name = args.output if number == 1 else f"{args.output}.{number}"
                _save(name, part)
        else:
            sys.stdout.write("\n\n".join(parts))
        return
    if args.format == "json":
        text = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    elif args.format == "sarif":
        import cfgpatch

        from ..preview.sarif import render_sarif

        version = str(getattr(cfgpatch, "__version__", ""))
        text = json.dumps(render_sarif(report, version), indent=2) + "\n"
    elif args.format == "html":
        from ..preview.html import render_html

        text = render_html(report)
    else:
        from ..preview.human import render_human

        tty = sys.stdout.isatty() and not args.output
        colour = args.color == "always" or (args.color == "auto" and tty
                                            and not os.environ.get("NO_COLOR"))
        text = render_human(report, colour)
    if args.output:
        _save(args.output, text)
    else:
        sys.stdout.write(text)


def _save(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
