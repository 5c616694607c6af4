"""``cfgpatch kube diff OLD NEW``: the two-way patch kubectl would compute between two
objects (``CreateTwoWayMergePatch``, what ``kubectl edit`` sends).

::

    cfgpatch kube diff old.yaml new.yaml [--type strategic|merge] [--explain]

Standard output gets the patch exactly as kubectl writes it (one line of JSON, keys
sorted).  The type defaults to ``strategic`` for a kind kubectl knows and to ``merge``
(a JSON merge patch, kubectl's fallback) for any other; ``--type strategic`` on an
unknown kind is kubectl's error.  ``--explain`` adds, on standard error, what the patch
does field by field.  Exit code as ``diff`` and ``kubectl diff``: 0 when the objects
are the same (the patch is ``{}``), 1 when they differ, 2 on an error.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import CfgPatchError, KubeError
from .kube import _fail, _schema
from .kube_apply import read_object


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "diff", help="the patch kubectl would compute from OLD to NEW (two-way)",
        description="Print the two-way patch kubectl computes from OLD to NEW.")
    parser.add_argument("old", metavar="OLD", help="the object before (JSON or YAML)")
    parser.add_argument("new", metavar="NEW", help="the object after")
    parser.add_argument("--type", choices=("strategic", "merge"),
                        help="strategic (default for built-in kinds) or merge")
    parser.add_argument("--explain", action="store_true",
                        help="also write what the patch does to standard error")
    parser.add_argument("--schema", metavar="F",
                        help="OpenAPI v2/v3 document of your cluster, for the merge keys")
    parser.set_defaults(func=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    from ..kube.applying import diff
    from ..kube.io.unstructured import normalize

    try:
        old, new = normalize(read_object(args.old)), normalize(read_object(args.new))
        found = diff(old, new, type=args.type, schema=_schema(args), explain=args.explain)
    except KubeError as error:
        return max(_fail(error), 2)
    except CfgPatchError as error:
        sys.stderr.write(f"error: {error.message}\n")
        return 2
    sys.stdout.write(found.patch_text + "\n")
    if args.explain:
        sys.stderr.write("cfgpatch: no change\n" if not found.notes else "cfgpatch: the patch:\n")
        for note in found.notes:
            sys.stderr.write(f"  {note.describe()}\n")
    return 0 if found.patch_text == "{}" else 1
