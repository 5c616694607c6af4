"""``cfgpatch kube build DIR``: ``kubectl kustomize DIR``, exactly, with the reasons.

Standard output is what ``kubectl kustomize`` prints (``-o json``: the resources as a
``v1`` List); standard error carries kustomize's warnings and, when kustomize would
fail, its ``error: ...`` line (exit code 1).  A kustomization field ``kube build`` does
not model is refused (exit code 3) rather than built differently.  ``--explain`` also
writes every patch in the order kustomize applies it (targets, patches that matched
nothing, selectors that matched more kinds than the patch names, changes, lists
replaced and what they lost) and the blame of the output to standard error; with
``-o json --explain`` standard output is one JSON document with the resources, the
warnings and the explanation.
"""

from __future__ import annotations

import sys

from ..errors import KUSTOMIZE_UNMODELLED

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from ..kube.kustomize.build import BuildError
    from ..kube.kustomize.helm_options import HelmProcess

UNMODELLED_EXIT = 3


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "build", help="build a kustomization directory as `kubectl kustomize` does",
        description="Build the kustomization in DIR exactly as `kubectl kustomize DIR` "
                    "(kustomize v5.5) does, and explain every patch with --explain.")
    parser.add_argument("directory", metavar="DIR", nargs="?", default=".",
                        help="the kustomization directory (default: .)")
    parser.add_argument("-o", "--output", default="yaml", choices=("yaml", "json"),
                        help="yaml (default, kubectl kustomize's output) or json")
    parser.add_argument("--explain", action="store_true",
                        help="explain every patch and blame every output field "
                             "(standard error; with -o json, in the JSON output)")
    parser.add_argument("--load-restrictor", default="LoadRestrictionsRootOnly",
                        metavar="RESTRICTOR",
                        help="LoadRestrictionsRootOnly (default: files only from each "
                             "kustomization's directory and below) or LoadRestrictionsNone")
    parser.add_argument("--enable-helm", action="store_true",
                        help="inflate helmCharts with the external helm, as kustomize does")
    parser.add_argument("--helm-command", default="helm", metavar="HELM",
                        help="the helm executable (default: helm)")
    parser.add_argument("--helm-api-versions", action="append", default=[], metavar="V",
                        help="Kubernetes API versions for helm's Capabilities.APIVersions")
    parser.add_argument("--helm-kube-version", default="", metavar="V",
                        help="Kubernetes version for helm's Capabilities.KubeVersion")
    parser.add_argument("--helm-debug", action="store_true",
                        help="helm's debug output in its errors")
    parser.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    from ..kube.kustomize.build import BuildError, too_deep

    try:
        return _build_and_print(args)
    except RecursionError:  # printing or explaining a deeply nested result
        return refused(too_deep())
    except BuildError as error:
        return refused(error)


def refused(error: BuildError) -> int:
    """Print a build's refusal as kubectl kustomize does (then our hint); the exit code."""
    from .common import write_stderr

    for warning in error.warnings:
        sys.stderr.write(warning + "\n")
    write_stderr(f"error: {error.message}\n")
    if error.hint:
        sys.stderr.write(f"cfgpatch: {error.hint}\n")
    return UNMODELLED_EXIT if error.code == KUSTOMIZE_UNMODELLED else 1


def _helm_runner(enabled: bool) -> HelmProcess | None:
    """The subprocess helm runner, imported only when helm may run."""
    if not enabled:
        return None
    from .helm_runner import install

    return install()


def _build_and_print(args: argparse.Namespace) -> int:
    from ..kube.kustomize.build import build

    trace = None
    if args.explain:
        from ..kube.kustomize.trace import Trace

        trace = Trace()
    versions = tuple(v for item in args.helm_api_versions for v in item.split(",") if v)
    result = build(args.directory, trace,
                   load_restrictor=args.load_restrictor, enable_helm=args.enable_helm,
                   helm_command=args.helm_command, helm_api_versions=versions,
                   helm_kube_version=args.helm_kube_version, helm_debug=args.helm_debug,
                   helm_runner=_helm_runner(args.enable_helm))
    for warning in result.warnings:
        sys.stderr.write(warning + "\n")
    if not args.explain:
        sys.stdout.write(result.json() if args.output == "json" else result.yaml())
        return 0
    import json
    import os

    from ..kube.explain.build import explain

    explanation = explain(result, os.path.abspath(args.directory))
    if args.output == "json":
        document = {"resources": [r.value for r in result.resources],
                    "warnings": result.warnings, "explain": explanation.to_dict()}
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return 0
    sys.stdout.write(result.yaml())
    sys.stderr.write(explanation.describe())
    return 0
