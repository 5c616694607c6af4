"""Command-line interface: ``cfgpatch <command> ...`` (also ``python -m cfgpatch``).

Each sub-command lives in its own module of this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` on it.  ``func``
receives the parsed arguments and returns the process exit code.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from types import SimpleNamespace

#: Sub-command modules, in the order ``--help`` lists them.  A module that is not
#: present (an optional part not installed) is skipped.
COMMAND_MODULES = ("apply", "diff", "kube", "lint", "serve", "remote", "site")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every sub-command, or of ``only`` (start-up stays short: a command
    line imports the modules of its own sub-command and no other)."""
    import argparse
    import importlib

    parser = argparse.ArgumentParser(
        prog="cfgpatch",
        description="Safe, explainable changes to JSON and Kubernetes configuration.",
    )
    class _Version(argparse.Action):  # asks the installed metadata only when used
        def __call__(self, parser: argparse.ArgumentParser, *_args: object) -> None:
            sys.stdout.write(f"cfgpatch {_version()}\n")
            parser.exit()

    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="show program's version number and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue
            raise
        module.register(subparsers)
    return parser


def _version() -> str:
    """The installed distribution's version (the package's own when run from a tree)."""
    from importlib import metadata

    try:
        return metadata.version("cfgpatch")
    except metadata.PackageNotFoundError:
        import cfgpatch

        return cfgpatch.__version__


def _kube_build_args(words: list[str]) -> argparse.Namespace:
    import argparse

    from . import kube_build

    parser = argparse.ArgumentParser(prog="cfgpatch kube")
    kube_build.register(parser.add_subparsers(dest="kube_command"))
    return parser.parse_args(["build", *words])


def main(argv: list[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | SimpleNamespace | None = None
    if words[:2] == ["kube", "patch"]:  # the usual spellings, without argparse's start-up
        from .kube_patch_words import parse

        args = parse(words[2:])
    elif words[:2] == ["kube", "build"]:  # the usual spellings, then its parser alone
        from .kube_build_words import parse as parse_build

        args = parse_build(words[2:]) or _kube_build_args(words[2:])
    elif words[:1] == ["lint"]:  # the usual spellings, else argparse reads them
        from .lint_words import parse as parse_lint

        args = parse_lint(words[1:])
    if args is None:
        parser, args = _parse_args(words)
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def _parse_args(words: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    only = words[0] if words and words[0] in COMMAND_MODULES else None
    parser = build_parser(only)
    prepare = getattr(sys.modules.get(f"{__name__}.{only}"), "prepare_words", None)
    if prepare is not None:  # a sub-command that reads its words as another tool does
        words = prepare(words)
    return parser, parser.parse_args(words)
