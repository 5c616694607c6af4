"""``cfgpatch site build OUT_DIR``: export the patch tester page as static files."""

from __future__ import annotations

import argparse
import shlex
import sys

from ..errors import CfgPatchError
from .common import report


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "site",
        help="export the Kubernetes patch tester page as static files",
        description=(
            "Work with the Kubernetes patch tester page, a static site that runs cfgpatch "
            "in the browser (Pyodide). The page must have been built with `make web`."
        ),
    )
    actions = parser.add_subparsers(dest="site_command", metavar="ACTION", required=True)
    build = actions.add_parser(
        "build",
        help="copy the built page into OUT_DIR",
        description=(
            "Copy the built page into OUT_DIR, ready for any static file server, for "
            "example `python -m http.server -d OUT_DIR`. OUT_DIR must be new, empty or "
            "a previous export."
        ),
    )
    build.add_argument("out_dir", metavar="OUT_DIR", help="the folder to write")
    build.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    from ..web.site import export_site

    try:
        index = export_site(args.out_dir)
    except CfgPatchError as error:
        return report(error)
    folder = shlex.quote(str(index.parent))
    sys.stdout.write(f"wrote {folder}; serve it with: python -m http.server -d {folder}\n")
    return 0
