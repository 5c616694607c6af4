"""``cfgpatch apply DOC PATCH``: apply a JSON Patch (or merge patch) to a file."""

from __future__ import annotations

import argparse

from ..errors import INVALID_PATCH, CfgPatchError, InvalidInput
from ..jsonpatch import apply_patch
from ..mergepatch import apply_merge_patch
from .common import check_stdin_once, print_json, read_json, report


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "apply",
        help="apply a JSON Patch (RFC 6902) or merge patch (RFC 7386) to a JSON document",
        description=(
            "Apply PATCH_FILE to DOC_FILE and print the result as canonical JSON. "
            "A JSON Patch is all-or-nothing: if any operation fails nothing is printed, "
            "the failing operation is named on standard error and the exit code is 1."
        ),
    )
    parser.add_argument("doc", metavar="DOC_FILE", help="the JSON document ('-' for stdin)")
    parser.add_argument("patch", metavar="PATCH_FILE", help="the patch ('-' for stdin)")
    parser.add_argument(
        "--type",
        choices=("json", "merge"),
        default="json",
        help="json: RFC 6902 JSON Patch (default); merge: RFC 7386 JSON Merge Patch",
    )
    parser.add_argument("--pretty", action="store_true", help="indent the output")
    parser.set_defaults(func=run_apply)


def run_apply(args: argparse.Namespace) -> int:
    try:
        check_stdin_once(args.doc, args.patch)
        doc = read_json(args.doc)
        patch = read_json(args.patch)
        if args.type == "merge":
            result = apply_merge_patch(doc, patch)
        else:
            if type(patch) is not list:
                raise InvalidInput(
                    f"{args.patch}: a JSON Patch must be an array of operations",
                    code=INVALID_PATCH,
                )
            result = apply_patch(doc, patch, share_unchanged=True, trusted=True)
    except CfgPatchError as error:
        return report(error)
    print_json(result, pretty=args.pretty)
    return 0
