"""The flags ``kube apply``, ``kube update`` and ``kube upgrade`` share."""

from __future__ import annotations

import argparse

from .kube import _flag_value


def add_common_flags(parser: argparse.ArgumentParser, names: bool = False) -> None:
    """``-o``, ``-n``, ``--schema`` and ``--show``; ``names``: ``-o name`` too."""
    formats = ("yaml", "json", "name") if names else ("yaml", "json")
    parser.add_argument("-o", "--output", type=_flag_value, default="yaml", metavar="FORMAT",
                        choices=formats,
                        help="how to print the result (yaml, json)" + (
                            "; name: kubectl's -o name, each object's name alone"
                            if names else ""))
    parser.add_argument("-n", "--namespace", type=_flag_value, metavar="NS",
                        help="namespace for objects that name none (default: default); "
                             "kube apply: an object naming another one is an error, as "
                             "in kubectl")
    parser.add_argument("--schema", metavar="F",
                        help="OpenAPI v2/v3 document of your cluster, for the merge keys")
    parser.add_argument("--show", type=_parts, default=PARTS, metavar="PARTS",
                        help="what to print, comma-separated: patch, result, explanation "
                             "(default all; kubectl's line always comes first)")


PARTS = ("patch", "result", "explanation")
#: kubectl's --dry-run values.
DRY_RUNS = ("none", "client", "server")


def _parts(text: str) -> tuple[str, ...]:
    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown part {unknown[0]!r} (choose from "
                                         f"{', '.join(PARTS)})")
    return parts
