"""``cfgpatch remote``: a small client of the config service for scripts.

``cfgpatch remote get|put|apply|rebase|diff|history|delete|restore|retention
--server URL ...`` talks to ``cfgpatch serve`` over HTTP (standard library only).
The server comes from ``--server``, else ``$CFGPATCH_SERVER``, else
``http://127.0.0.1:8080``; the bearer token from ``--token``, else
``$CFGPATCH_TOKEN``.  ``put``, ``apply``, ``delete`` and ``restore`` print the
version the server answered (a write that changes nothing answers the head
and stores nothing unless ``--force``); errors go to standard error with the
server's code and message (exit 1), connection problems exit 2.  ``get --wait
S`` waits up to S seconds for a version other than ``--if-none-match N`` (by
default the head when it starts): exit 3 when none came.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from ..errors import INVALID_ARGUMENTS, CfgPatchError, InvalidInput
from .common import read_bytes

DEFAULT_SERVER = "http://127.0.0.1:8080"
TIMEOUT = 60
#: A version as the server takes it (``cfgpatch.server.inputs``): a positive integer.
_VERSION = re.compile(r"[1-9][0-9]{0,17}")


#: The exit status of ``get --wait`` when no new version came in time.
NOT_MODIFIED_EXIT = 3
#: Seconds added to ``--wait`` for the answer to arrive.
WAIT_MARGIN = 30


class RemoteError(Exception):
    """The server refused (``status`` set) or could not be reached (``status`` 0)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


@dataclass(frozen=True)
class Remote:
    """One server and token."""

    server: str
    token: str | None

    def call(self, method: str, path: str, *, query: dict | None = None, body: bytes | None = None,
             headers: dict | None = None, timeout: float = TIMEOUT) -> tuple[bytes, dict]:
        """Send one request; return the body and headers of a 2xx answer, else RemoteError."""
        url = self.server.rstrip("/") + path
        if query:
            given = {k: _utf8(str(v), k) for k, v in query.items() if v is not None}
            url += "?" + urllib.parse.urlencode(given)
        request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.read(), dict(answer.headers)
        except urllib.error.HTTPError as error:
            raise RemoteError(error.code, _describe(error.code, error.read())) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise RemoteError(0, f"cannot reach {self.server}: {reason}") from None


def _describe(status: int, body: bytes) -> str:
    try:
        data = json.loads(body)
        text = f"{data['error']}: {data['message']}" if data["message"] != data["code"] \
            else data["error"]
        if data.get("hint"):
            text += f"; {data['hint']}"
        return f"{text} (HTTP {status})"
    except (ValueError, KeyError, TypeError):
        return f"HTTP {status}: {body[:200].decode('utf-8', 'replace')}"


def _doc_path(name: str, *rest: str) -> str:
    return "/v1/documents/" + urllib.parse.quote(_utf8(name, "name"), safe="") + "".join(rest)


def _utf8(text: str, what: str) -> str:
    """``text`` itself, or a clear error when a command-line word held bytes that are not
    UTF-8 (Python keeps them as lone surrogates, which no request can carry)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = text[error.start]
        shown = f"byte 0x{ord(bad) - 0xDC00:02x}" if 0xDC80 <= ord(bad) <= 0xDCFF \
            else f"U+{ord(bad):04X}"
        raise InvalidInput(f"{what} is not valid UTF-8 ({shown} at character {error.start + 1})",
                           code=INVALID_ARGUMENTS) from None
    return text


def register(subparsers: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--server", default=argparse.SUPPRESS,
                        help=f"service URL (default $CFGPATCH_SERVER or {DEFAULT_SERVER})")
    common.add_argument("--token", default=argparse.SUPPRESS,
                        help="bearer token (default $CFGPATCH_TOKEN)")
    parser = subparsers.add_parser(
        "remote", parents=[common], help="read and change documents on a cfgpatch server",
        description="A client of `cfgpatch serve` for scripts.",
    )
    commands = parser.add_subparsers(dest="remote_command", metavar="ACTION", required=True)

    get = commands.add_parser("get", parents=[common], help="print a document (head or version)")
    get.add_argument("name")
    get.add_argument("--version", type=int, help="an older version")
    get.add_argument("--wait", type=int, metavar="SECONDS",
                     help="long poll: wait up to SECONDS (the server's --max-wait at most) for "
                     "a version other than --if-none-match (default: the head now); exit 3 if "
                     "none came")
    get.add_argument("--if-none-match", type=int, metavar="N",
                     help="the version already known: with --wait, wait for another one; "
                     "without, exit 3 if the head is still N")
    get.add_argument("--version-only", action="store_true",
                     help="print the version number instead of the document")
    get.set_defaults(func=_run(_get))

    put = commands.add_parser("put", parents=[common], help="create or replace a document")
    put.add_argument("name")
    put.add_argument("file", help="the JSON document ('-' for stdin)")
    put.add_argument("--message", help="note recorded with the version")
    put.add_argument("--if-match", type=int, metavar="N", help="only if the head is version N")
    put.add_argument("--create", action="store_true", help="only if the document is new")
    put.add_argument("--force", action="store_true",
                     help="commit a new version even if the text is the head's")
    put.set_defaults(func=_run(_put))

    apply = commands.add_parser("apply", parents=[common], help="apply a patch on the server")
    apply.add_argument("name")
    apply.add_argument("file", help="the patch ('-' for stdin)")
    apply.add_argument("--type", choices=("json", "merge"), default="json",
                       help="json: RFC 6902 JSON Patch (default); merge: RFC 7386 merge patch")
    apply.add_argument("--base", type=int, metavar="N",
                       help="the version the patch was written against: rebased onto the head "
                       "if older (Cfgpatch-Rebase-From), its tests judged against the head too")
    apply.add_argument("--if-match", type=int, metavar="N",
                       help="only if the head is still version N (If-Match); else refused")
    apply.add_argument("--message", help="note recorded with the version")
    apply.add_argument("--force", action="store_true",
                       help="commit a new version even if the patch changes nothing")
    apply.set_defaults(func=_run(_apply))

    rebase = commands.add_parser("rebase", parents=[common],
                                 help="print a patch rebased onto the head (stores nothing)")
    rebase.add_argument("name")
    rebase.add_argument("file", help="the JSON Patch ('-' for stdin)")
    rebase.add_argument("--base", type=int, required=True, metavar="N")
    rebase.set_defaults(func=_run(_rebase))

    diff = commands.add_parser("diff", parents=[common],
                               help="print the patch from one document version to another")
    diff.add_argument("source", metavar="FROM", help="name or name@version")
    diff.add_argument("target", metavar="TO", help="name or name@version")
    diff.add_argument("--stats", action="store_true", help="print the statistics instead")
    diff.set_defaults(func=_run(_diff))

    history = commands.add_parser("history", parents=[common], help="list a document's versions")
    history.add_argument("name")
    history.add_argument("--json", action="store_true", help="print the server's JSON answer")
    history.add_argument("--limit", type=int, metavar="N", help="at most N versions (a page)")
    history.add_argument("--after", type=int, metavar="V", help="only versions after V")
    history.set_defaults(func=_run(_history))

    delete = commands.add_parser("delete", parents=[common],
                                 help="delete a document (a tombstone version; history kept)")
    delete.add_argument("name")
    delete.add_argument("--if-match", type=int, metavar="N", help="only if the head is version N")
    delete.add_argument("--message", help="note recorded with the tombstone")
    delete.set_defaults(func=_run(_delete))

    restore = commands.add_parser("restore", parents=[common],
                                  help="write an old version again as the newest one")
    restore.add_argument("name")
    restore.add_argument("version", type=int, help="the version to write again")
    restore.add_argument("--if-match", type=int, metavar="N", help="only if the head is version N")
    restore.add_argument("--message", help="note recorded with the version")
    restore.add_argument("--force", action="store_true",
                         help="commit a new version even if it is the head's text already")
    restore.set_defaults(func=_run(_restore))

    _register_retention(commands, common)


def _register_retention(commands: argparse._SubParsersAction,
                        common: argparse.ArgumentParser) -> None:
    retention = commands.add_parser("retention", parents=[common],
                                    help="show, set or run the retention policies")
    actions = retention.add_subparsers(dest="retention_command", metavar="ACTION", required=True)
    show = actions.add_parser("show", parents=[common], help="print the policies (JSON)")
    show.set_defaults(func=_run(_retention_show))
    put = actions.add_parser("set", parents=[common],
                             help="set the policy of a name prefix (no rule: remove it)")
    put.add_argument("prefix", help="the names it covers ('' for every name)")
    put.add_argument("--keep-last", type=int, metavar="N", help="keep the last N versions")
    put.add_argument("--keep-seconds", type=int, metavar="S",
                     help="keep the versions younger than S seconds")
    put.set_defaults(func=_run(_retention_set))
    run = actions.add_parser("run", parents=[common],
                             help="apply the policies now to every document you may write")
    run.add_argument("--prefix", help="only the documents whose name starts with it")
    run.set_defaults(func=_run(_retention_run))


def _run(action):
    def run(args: argparse.Namespace) -> int:
        server = getattr(args, "server", None) or os.environ.get("CFGPATCH_SERVER") \
            or DEFAULT_SERVER
        token = getattr(args, "token", None) or os.environ.get("CFGPATCH_TOKEN") or None
        try:
            output = action(Remote(server, token), args)
        except CfgPatchError as error:
            sys.stderr.write(f"cfgpatch: {error.describe()}\n")
            return 2
        except RemoteError as error:
            sys.stderr.write(f"cfgpatch: {error}\n")
            if error.status == 304:
                return NOT_MODIFIED_EXIT
            return 1 if error.status else 2
        sys.stdout.write(output if output.endswith("\n") else output + "\n")
        return 0

    return run


def _text(body: bytes) -> str:
    return body.decode("utf-8")


def _get(remote: Remote, args: argparse.Namespace) -> str:
    headers, query, timeout = {}, {"version": args.version}, float(TIMEOUT)
    known = args.if_none_match
    if args.wait is not None:
        if args.version is not None:
            raise InvalidInput("--wait follows the head: it cannot be given with --version",
                               code=INVALID_ARGUMENTS)
        if known is None:
            _, head = remote.call("HEAD", _doc_path(args.name))
            known = _version_of(head)
        query["wait"] = args.wait
        timeout = args.wait + WAIT_MARGIN
    if known is not None:
        headers["If-None-Match"] = f'"{known}"'
    try:
        body, answer = remote.call("GET", _doc_path(args.name), query=query, headers=headers,
                                   timeout=timeout)
    except RemoteError as error:
        if error.status != 304:
            raise
        waited = f" within {args.wait} s" if args.wait is not None else ""
        raise RemoteError(304, f"{args.name!r} is still at version {known}{waited} "
                          "(not modified)") from None
    return str(_version_of(answer)) if args.version_only else _text(body)


def _version_of(headers: dict) -> int:
    tag = next((v for k, v in headers.items() if k.lower() == "etag"), "")
    return int(tag.strip('W/"'))


def _write_query(args: argparse.Namespace) -> dict:
    return {"message": args.message, "force": "1" if args.force else None}


def _put(remote: Remote, args: argparse.Namespace) -> str:
    headers = {"Content-Type": "application/json"}
    if args.if_match is not None:
        headers["If-Match"] = f'"{args.if_match}"'
    if args.create:
        headers["If-None-Match"] = "*"
    body, _ = remote.call("PUT", _doc_path(args.name), query=_write_query(args),
                          body=read_bytes(args.file), headers=headers)
    return str(json.loads(body)["version"])


def _apply(remote: Remote, args: argparse.Namespace) -> str:
    kind = "json-patch" if args.type == "json" else "merge-patch"
    headers = {"Content-Type": f"application/{kind}+json"}
    if args.base is not None:
        headers["Cfgpatch-Rebase-From"] = str(args.base)
    if args.if_match is not None:
        headers["If-Match"] = f'"{args.if_match}"'
    body, _ = remote.call("PATCH", _doc_path(args.name), query=_write_query(args),
                          body=read_bytes(args.file), headers=headers)
    return str(json.loads(body)["version"])


def _rebase(remote: Remote, args: argparse.Namespace) -> str:
    body, _ = remote.call("POST", _doc_path(args.name, "/rebase"), query={"base": args.base},
                          body=read_bytes(args.file),
                          headers={"Content-Type": "application/json-patch+json"})
    return _text(body)


def _side(raw: str, label: str) -> str:
    """A diff side as typed (``name`` or ``name@version``), its version checked here so
    that a mistake is named by the argument the user typed (FROM or TO), not by the
    server's query key."""
    name, at, version = raw.partition("@")
    if not name:
        raise InvalidInput(f"{label} {raw[:80]!r} names no document: write NAME or NAME@VERSION",
                           code=INVALID_ARGUMENTS)
    if at and not _VERSION.fullmatch(version):
        raise InvalidInput(f"{label} {raw[:80]!r}: the version after '@' must be a positive "
                           f"integer of at most 18 digits, not {version[:40]!r}",
                           code=INVALID_ARGUMENTS)
    return raw


def _diff(remote: Remote, args: argparse.Namespace) -> str:
    query = {"from": _side(args.source, "FROM"), "to": _side(args.target, "TO"),
             "stats": "1" if args.stats else None}
    body, _ = remote.call("GET", "/v1/diff", query=query)
    return _text(body)


def _history(remote: Remote, args: argparse.Namespace) -> str:
    body, _ = remote.call("GET", _doc_path(args.name, "/versions"),
                          query={"limit": args.limit, "after": args.after})
    if args.json:
        return _text(body)
    rows = [
        "\t".join([str(v["version"]), v["created_at"] or "-", v["author"] or "-",
                   v["message"] or ""])
        for v in json.loads(body)["versions"]
    ]
    return "\n".join(["version\tcreated_at\tauthor\tmessage", *rows])


def _if_match(args: argparse.Namespace) -> dict:
    return {} if args.if_match is None else {"If-Match": f'"{args.if_match}"'}


def _delete(remote: Remote, args: argparse.Namespace) -> str:
    body, _ = remote.call("DELETE", _doc_path(args.name), query={"message": args.message},
                          headers=_if_match(args))
    return str(json.loads(body)["version"])


def _restore(remote: Remote, args: argparse.Namespace) -> str:
    body, _ = remote.call("POST", _doc_path(args.name, "/restore"),
                          query={"version": args.version, **_write_query(args)},
                          headers=_if_match(args))
    return str(json.loads(body)["version"])


def _retention_show(remote: Remote, args: argparse.Namespace) -> str:
    return _text(remote.call("GET", "/v1/retention")[0])


def _retention_set(remote: Remote, args: argparse.Namespace) -> str:
    policy = {"prefix": args.prefix, "keep_last": args.keep_last,
              "keep_seconds": args.keep_seconds}
    body, _ = remote.call("PUT", "/v1/retention", body=json.dumps(policy).encode(),
                          headers={"Content-Type": "application/json"})
    return _text(body)


def _retention_run(remote: Remote, args: argparse.Namespace) -> str:
    body, _ = remote.call("POST", "/v1/retention/run", query={"prefix": args.prefix})
    return _text(body)
