"""``cfgpatch diff A B`` and ``cfgpatch rebase --base B --head H PATCH``: generated patches."""

from __future__ import annotations

import argparse
import sys

from ..diffing import diff, diff_stats
from ..errors import INVALID_PATCH, CfgPatchError, InvalidInput, MergeConflict
from ..jsonpatch import apply_patch
from ..rebasing import conflict_values, rebase
from .common import check_stdin_once, print_json, read_json, report


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "diff",
        help="print the JSON Patch that turns A_FILE into B_FILE (deterministic, with moves)",
        description=(
            "Print the JSON Patch (canonical JSON) that turns A_FILE into B_FILE: removals "
            "first, then adds and replaces, with moves where a value only changed place. "
            "The same two documents always give the same bytes."
        ),
    )
    parser.add_argument("a", metavar="A_FILE", help="the old document ('-' for stdin)")
    parser.add_argument("b", metavar="B_FILE", help="the new document ('-' for stdin)")
    parser.add_argument(
        "--stats", action="store_true",
        help="print counts, the digest of the patch and whether it round-trips instead",
    )
    parser.add_argument("--pretty", action="store_true", help="indent the output")
    parser.set_defaults(func=run_diff)

    parser = subparsers.add_parser(
        "rebase",
        help="carry a patch written against BASE_FILE over to HEAD_FILE (three-way merge)",
        description=(
            "Replay PATCH_FILE on BASE_FILE, merge the result with HEAD_FILE value by value "
            "(arrays are atomic), and print the patch to apply to HEAD_FILE. On a conflict "
            "nothing is printed on standard output, the conflicting pointer and the three "
            "values there are shown on standard error, and the exit code is 1."
        ),
    )
    parser.add_argument("--base", required=True, metavar="BASE_FILE",
                        help="the document the patch was written against")
    parser.add_argument("--head", required=True, metavar="HEAD_FILE",
                        help="the current document")
    parser.add_argument("patch", metavar="PATCH_FILE", help="the JSON Patch ('-' for stdin)")
    parser.add_argument("--pretty", action="store_true", help="indent the output")
    parser.set_defaults(func=run_rebase)


def run_diff(args: argparse.Namespace) -> int:
    try:
        check_stdin_once(args.a, args.b)
        a = read_json(args.a)
        b = read_json(args.b)
        result = diff_stats(a, b) if args.stats else diff(a, b)
    except CfgPatchError as error:
        return report(error)
    print_json(result, pretty=args.pretty)
    return 0


def run_rebase(args: argparse.Namespace) -> int:
    try:
        check_stdin_once(args.base, args.head, args.patch)
        base = read_json(args.base)
        head = read_json(args.head)
        patch = read_json(args.patch)
        if type(patch) is not list:
            raise InvalidInput(f"{args.patch}: a JSON Patch must be an array of operations",
                               code=INVALID_PATCH)
        result = rebase(base, head, patch)
    except MergeConflict as conflict:
        return _report_conflict(conflict, base, head, patch)
    except CfgPatchError as error:
        return report(error)
    print_json(result, pretty=args.pretty)
    return 0


def _report_conflict(conflict: MergeConflict, base, head, patch) -> int:
    mine = apply_patch(base, patch, share_unchanged=True)
    pointer = conflict.pointer or ""
    values = conflict_values(base, mine, head, pointer)
    sys.stderr.write(
        f"cfgpatch: conflict at {pointer or '(root)'}: the patch and the head changed it "
        "differently\n"
        f"  base: {values['base']}\n  mine: {values['mine']}\n  head: {values['head']}\n"
    )
    return 1
