"""Command-line interface: ``cfgpatch <command> ...`` (also ``python -m cfgpatch``).

Each sub-command lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` on it.  ``func``
receives the parsed arguments and returns the process exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: Sub-command modules, in the order ``--help`` lists them.  A module that is not
#: present (an optional part not installed) is skipped.
COMMAND_MODULES = ("apply", "diff", "kube", "lint", "serve", "remote", "site")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cfgpatch",
        description="Safe, explainable changes to JSON and Kubernetes configuration.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
