"""``cfgpatch kube patch``: ``kubectl patch --local``, with the reasons.

Flags are named as kubectl names them, so a command line can be swapped::

    cfgpatch kube patch -f deploy.yaml --type merge -p '{"spec":{...}}' -o json

The result goes to standard output exactly as kubectl prints it (``-o json``,
``-o yaml``, ``-o name``, or ``<kind>/<name> patched``); a file of several objects is
patched and printed object by object, its errors gathered as kubectl gathers them.
When kubectl would fail, standard error starts with kubectl's own ``error: ...`` line,
followed by our explanation; the exit code is 1 (2 where kubectl itself crashes).  ``--explain``
also writes the changes and findings of a successful patch to standard error.
"""

from __future__ import annotations

import os
import re
import sys

from ..errors import (
    INVALID_ARGUMENTS,
    KUBECTL_CRASH,
    MULTIPLE_DOCUMENTS,
    CfgPatchError,
    KubeError,
)
from .kube_files import read_bytes as _read_bytes
from .kube_files import read_file as _read_file
from .kube_files import read_object_file as _read_object_file
from .kube_files import source_name
from .kube_report import aggregate, report
from .kube_report import as_kube_error as _as_kube_error
from .kube_report import explain as _explain
from .kube_report import fail as _fail
from .kube_report import fail_all as _fail_all

# (the sub-command modules import these from here too)
__all__ = ["aggregate", "prepare_words", "register", "report", "resource_name", "run_patch",
           "source_name"]

TYPE_CHECKING = False
if TYPE_CHECKING:  # argparse and typing are left out of kube patch's start-up
    import argparse
    from typing import Any

#: Sibling modules that add more ``cfgpatch kube`` sub-commands, each with
#: ``register(sub)``; a module that does not exist (yet) is skipped.
KUBE_COMMAND_MODULES = ("kube_build", "kube_diff", "kube_apply", "kube_upgrade", "kube_preview",
                        "kube_server_side")
KUBECTL_FORMATS = ("go-template", "go-template-file", "json", "jsonpath", "jsonpath-as-json",
                   "jsonpath-file", "name", "template", "templatefile", "yaml")


def register(subparsers: argparse._SubParsersAction) -> None:
    import importlib

    kube = subparsers.add_parser(
        "kube", help="Kubernetes patches exactly as kubectl applies them, explained",
        description="Kubernetes patches exactly as kubectl applies them, explained.")
    sub = kube.add_subparsers(dest="kube_command", metavar="SUBCOMMAND")
    parser = sub.add_parser(
        "patch", help="apply a strategic, merge or json patch to one object (no cluster)",
        description="Apply a patch to the object in FILE as `kubectl patch --local` does, and "
                    "print the result. kubectl's flags are accepted under their kubectl names.")
    parser.add_argument("-f", "--filename", required=True, type=_flag_value, metavar="FILE",
                        help="the object, JSON or YAML ('-' for standard input)")
    parser.add_argument("--type", default="strategic", metavar="TYPE",
                        help="strategic (default), merge or json")
    parser.add_argument("-p", "--patch", type=_flag_value, metavar="PATCH",
                        help="the patch text (JSON or YAML)")
    parser.add_argument("--patch-file", metavar="F", help="a file holding the patch")
    parser.add_argument("-o", "--output", type=_flag_value, metavar="FORMAT",
                        help="json, yaml or name (default: '<kind>/<name> patched')")
    parser.add_argument("--explain", action="store_true",
                        help="also write the changes and findings to standard error")
    parser.add_argument("--as", dest="view", default="kubectl", choices=("kubectl", "kustomize"),
                        help="whose strategic merge to apply (default kubectl)")
    parser.add_argument("--schema", metavar="F",
                        help="OpenAPI v2/v3 document of your cluster, for the merge keys")
    parser.add_argument("--crd", metavar="F",
                        help="the CustomResourceDefinition, to show server-side apply's merge")
    parser.add_argument("-n", "--namespace", type=_flag_value, metavar="NS",
                        help="as kubectl: must match the object's namespace when it has one")
    parser.add_argument("--local", nargs="?", const="true", default="true", metavar="BOOL",
                        help="accepted for kubectl compatibility (always local)")
    parser.add_argument("--dry-run", nargs="?", const="client", metavar="MODE",
                        help="accepted for kubectl compatibility (nothing is ever sent)")
    parser.set_defaults(func=run_patch)
    for name in KUBE_COMMAND_MODULES:
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__package__}.{name}":
                continue
            raise
        module.register(sub)
    kube.set_defaults(func=lambda _args: _usage(kube))


def prepare_words(words: list[str]) -> list[str]:
    """``cfgpatch kube patch``'s words, ready for argparse.

    kubectl's ``-p``/``--patch`` take the next word as the patch even when it starts
    with ``-`` (``-p '---'``, ``-p -1``); argparse would read it as an option, so such a
    pair becomes ``--patch=WORD``.

    >>> prepare_words(["kube", "patch", "-f", "o.yaml", "-p", "---"])
    ['kube', 'patch', '-f', 'o.yaml', '--patch=---']
    """
    if words[:2] != ["kube", "patch"]:
        return words
    out, index = [], 0
    while index < len(words):
        word = words[index]
        if word in ("-p", "--patch") and index + 1 < len(words) and (
                words[index + 1].startswith("-")):
            out.append("--patch=" + words[index + 1])
            index += 2
            continue
        out.append(word)
        index += 1
    return out


def _flag_value(text: str) -> str:
    """kubectl's short flags accept ``-o=json``; argparse would keep the ``=``."""
    return text[1:] if text.startswith("=") else text


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_patch(args: argparse.Namespace) -> int:
    try:
        _check_flags(args)
        object_text = _read_object_file(args.filename)
        patch_bytes, shown = _patch_bytes(args)
        if _several_documents(object_text):
            return _run_several(args, object_text, patch_bytes, shown)
        obj, notes, patch, patch_notes = _read_inputs(args, object_text, patch_bytes, shown)
        outcome = _patch(args, obj, patch, notes, patch_notes)
        text = _render(outcome.object, obj, args.output, _verbatim(args))
    except KubeError as error:
        if error.code == MULTIPLE_DOCUMENTS:  # a list of several items, a JSON stream
            return _run_several(args, object_text, patch_bytes, shown)
        return _fail(error)
    except CfgPatchError as error:
        return _fail(_as_kube_error(error))
    sys.stdout.write(text)
    if args.explain:
        _explain(outcome.changes, outcome.findings)
    return 0


def _verbatim(args: argparse.Namespace) -> bool:
    return args.type == "merge" and _raw_numbers_differ(args.patch_text)


def _several_documents(text: str) -> bool:
    """Whether kubectl reads the YAML ``-f`` text as several documents: two pieces, or
    one followed by a bad ``---`` line.  (A JSON stream is found by the one-object
    reader, which reads JSON anyway: its ``multiple documents`` error.)"""
    from ..kube.go import jsondecode
    from ..kube.io import docsplit

    if jsondecode.first_non_space(text) == "{":
        return False
    count = 0
    try:
        for _ in docsplit.pieces(text):
            count += 1
            if count == 2:
                return True
    except docsplit.SeparatorError:
        return count > 0
    return False


def _run_several(args: argparse.Namespace, object_text: str, patch_bytes: bytes,
                 shown: str | None) -> int:
    """kubectl patch on a file of several objects: each is patched and printed in turn,
    and the errors are printed at the end, as kubectl's visitors gather them (see
    :func:`_fail_all`); an error in reading the file ends the reading where it comes."""
    from ..kube.io import reader, unstructured

    patch, patch_notes, pending = reader.load_patch_or_error(patch_bytes, args.type, shown)
    check = _strategic_check(args)
    failed: list[KubeError] = []  # objects read that could not be patched
    unread: list[KubeError] = []  # documents that could not be read as objects
    count = 0
    try:
        for item in reader.load_objects(object_text, source_name(args.filename)):
            if isinstance(item, KubeError):
                unread.append(item)
                continue
            count += 1
            obj, notes = item
            try:
                _check_namespace(obj, args.namespace)
                if pending is not None:
                    if check is not None:
                        check(obj)
                    raise pending
                outcome = _patch(args, obj, patch, list(notes), list(patch_notes))
                text = _render(outcome.object, obj, args.output, _verbatim(args))
            except CfgPatchError as error:
                failed.append(_as_kube_error(error))
                if error.code == KUBECTL_CRASH:  # kubectl dies here, printing only this
                    return _fail(failed[-1])
                continue
            sys.stdout.write(text)
            if args.explain:
                sys.stderr.write(f"cfgpatch: {resource_name(outcome.object)}:\n")
                _explain(outcome.changes, outcome.findings)
    except KubeError as error:  # the reading of the file stops here
        unread.append(error)
    if not failed and not unread and not count:
        failed.append(unstructured.no_objects(f"{args.filename} holds no object"))
    return _fail_all(failed, unread) if failed or unread else 0


def _check_flags(args: argparse.Namespace) -> None:
    if args.type not in ("strategic", "merge", "json"):
        raise KubeError(f'--type must be one of [json merge strategic], not "{args.type}"')
    if args.output not in (None, "json", "yaml", "name"):
        if args.output.split("=", 1)[0] in KUBECTL_FORMATS:
            raise KubeError(f"output format {args.output} is not supported",
                            code=INVALID_ARGUMENTS, hint="cfgpatch prints json, yaml or name")
        raise KubeError(
            f'unable to match a printer suitable for the output format "{args.output}", '
            f"allowed formats are: {','.join(KUBECTL_FORMATS)}")


def _patch_bytes(args: argparse.Namespace) -> tuple[bytes, str | None]:
    """The patch as kubectl reads it (bytes), and what its errors quote (``None``: the -p
    text; ``""`` for a file); ``args.patch_text`` is set to its text."""
    if args.patch is not None and args.patch_file is not None:
        raise KubeError("cannot specify --patch and --patch-file together")
    # kubectl reads the patch as bytes, and quotes only the -p text in its errors
    if args.patch_file is not None:
        patch_bytes, shown = _read_bytes(args.patch_file, "unable to read patch file: open "
                                         "{path}: no such file or directory"), ""
    else:
        patch_bytes, shown = os.fsencode(args.patch or ""), None
        if not patch_bytes:
            raise KubeError("must specify --patch or --patch-file containing the contents "
                            "of the patch")
    args.patch_text = patch_bytes.decode("utf-8", "replace")
    return patch_bytes, shown


def _strategic_check(args: argparse.Namespace) -> Any:
    """What kubectl checks of an object before it parses a strategic patch: its kind must
    be one it knows (``None`` when there is nothing to check)."""
    if args.type != "strategic" or args.view != "kubectl":
        return None
    from ..kube import check_strategic_supported

    def check(obj: Any) -> None:
        check_strategic_supported(obj, _schema(args))

    return check


def _read_inputs(args: argparse.Namespace, object_text: str, patch_bytes: bytes,
                 shown: str | None) -> tuple[Any, list, Any, list]:
    from ..kube.io import reader

    # Both inputs, failing in kubectl's order (a YAML patch error first, then the
    # object, then a JSON patch that does not parse).
    obj, notes, patch, patch_notes = reader.load_inputs(
        object_text, source_name(args.filename), patch_bytes, args.type,
        check=_strategic_check(args), shown=shown)
    _check_namespace(obj, args.namespace)
    return obj, list(notes), patch, list(patch_notes)


def _schema(args: argparse.Namespace) -> Any:
    """The user's ``--schema`` (read once), or None for the built-in table."""
    if not args.schema:
        return None
    if getattr(args, "loaded_schema", None) is None:
        from ..kube.schema.openapi import load_openapi

        args.loaded_schema = load_openapi(
            _read_file(args.schema, 'the path "{path}" does not exist')
        )
    return args.loaded_schema


def _check_namespace(obj: Any, namespace: str | None) -> None:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    own = meta.get("namespace") if isinstance(meta, dict) else None
    if namespace and isinstance(own, str) and own and own != namespace:
        raise KubeError(
            f'the namespace from the provided object "{own}" does not match the namespace '
            f'"{namespace}". You must pass \'--namespace={own}\' to perform this operation.')


def _patch(args: argparse.Namespace, obj: Any, patch: Any, notes: list,
           patch_notes: list) -> Any:
    from .. import kube
    from ..kube.io import reader

    schema, crd = _schema(args), None
    if args.crd:
        crd, _ = reader.load_object(_read_file(args.crd, 'the path "{path}" does not exist'),
                                    args.crd)
    return kube.patch(obj, patch, args.type, schema=schema, crd=crd, as_=args.view,
                      notes=notes, patch_notes=patch_notes, explain=args.explain)


def resource_name(obj: Any) -> str:
    """kubectl's ``<kind>.<group>/<name>`` for an object.

    >>> resource_name({"apiVersion": "apps/v1", "kind": "Deployment",
    ...                "metadata": {"name": "web"}})
    'deployment.apps/web'
    """
    api_version = obj.get("apiVersion") if isinstance(obj, dict) else None
    group = api_version.rsplit("/", 1)[0] if isinstance(api_version, str) and \
        "/" in api_version else ""
    kind = str(obj.get("kind", "")).lower() if isinstance(obj, dict) else ""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    name = meta.get("name") if isinstance(meta, dict) else None
    if not isinstance(name, str) or not name:
        name = "<unknown>"
    return f"{kind}.{group}/{name}" if group else f"{kind}/{name}"


_NUMBER = re.compile(r'"(?:[^"\\]|\\.)*"|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)')


def _raw_numbers_differ(text: str) -> bool:
    """Whether a JSON merge patch writes a number other than as Go would (``2.0``, ``1e3``).

    kubectl's merge patch keeps the patch's number text, and ``patched (no change)`` is
    decided on the bytes, so ``replicas: 2.0`` over ``2`` counts as a change.  YAML
    patches (text not starting with ``{``) are converted first and never differ.
    """
    from ..kube.go.json import kube_number, number_text

    if not text.lstrip().startswith("{"):
        return False
    for match in _NUMBER.finditer(text):
        token = match.group(1)
        if token is None:
            continue
        value = int(token) if re.fullmatch(r"-?\d+", token) else float(token)
        if number_text(kube_number(value)) != token:
            return True
    return False


def _render(result: Any, original: Any, output: str | None, verbatim: bool = False) -> str:
    from ..jsonvalue import equal
    from ..kube.io import writer

    if output in ("json", "yaml"):
        return writer.dump(result, output)
    if output == "name":
        return resource_name(result) + "\n"
    suffix = " (no change)" if equal(result, original) and not verbatim else ""
    return f"{resource_name(result)} patched{suffix}\n"


