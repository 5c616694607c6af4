"""``cfgpatch serve``: run the config service over HTTP (uvicorn)."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import sys
from typing import TYPE_CHECKING

from ..limits import DEFAULT_MAX_DIFF_WORK

if TYPE_CHECKING:
    from ..limits import ServiceLimits
    from ..server import Limits

DEFAULT_STORE = "sqlite:///cfgpatch.db"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the versioned config service over HTTP",
        description=(
            "Serve the REST API (OpenAPI at /v1/openapi.json) over a SQLite file (default) or "
            "PostgreSQL. Without --tokens anyone who can reach the port may read and write, so "
            "the server then only binds to a loopback address."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    parser.add_argument(
        "--store",
        default=DEFAULT_STORE,
        help="sqlite:///relative.db, sqlite:////abs/path.db, postgresql://user@host/db "
        f"or memory:// (default {DEFAULT_STORE})",
    )
    parser.add_argument("--tokens", metavar="FILE", help="JSON file of bearer tokens")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a Host name to answer besides localhost, 127.0.0.1 and [::1] "
                        "(repeatable; '*': any). Other names get 421, against DNS rebinding. "
                        "Without it, a server with --tokens answers any name")
    parser.add_argument("--max-body", type=int, default=4 * 1024 * 1024, metavar="BYTES",
                        help="largest request body (default 4 MiB; larger: 413)")
    parser.add_argument("--max-document-bytes", type=int, metavar="BYTES",
                        help="largest stored version, as canonical JSON (default: --max-body, "
                        "so every stored document can be sent back); a PATCH whose result is "
                        "larger is refused with limit exceeded")
    parser.add_argument("--max-depth", type=int, default=64,
                        help="deepest nesting of a document, a patch or a patch's result "
                        "(default 64, at most 256)")
    parser.add_argument("--max-patch-ops", type=int, default=10_000,
                        help="most operations in one JSON Patch (default 10000)")
    parser.add_argument("--max-diff-work", type=int, default=DEFAULT_MAX_DIFF_WORK,
                        metavar="UNITS",
                        help="alignment work one diff, rebase or merge may do before it is refused "
                        f"with limit exceeded (default {DEFAULT_MAX_DIFF_WORK or 'none'}; "
                        "0: no limit)")
    parser.add_argument("--limit-concurrency", type=int, metavar="N",
                        help="answer 503 beyond N requests in progress (default: no limit)")
    parser.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="close a connection whose request line and headers are not "
                        "complete after this long (default 10; against slowloris)")
    parser.add_argument("--log-level", default="info",
                        choices=("critical", "error", "warning", "info", "debug"))
    parser.add_argument("--no-access-log", action="store_true", help="do not log each request")
    parser.set_defaults(func=run_serve)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def configured_limits(args: argparse.Namespace) -> tuple[Limits, ServiceLimits]:
    """The transport's :class:`~cfgpatch.server.Limits` and the service's
    :class:`~cfgpatch.limits.ServiceLimits` the options ask for (``ValueError``
    for nonsense); ``--max-diff-work 0`` turns the work budget off."""
    from ..server import Limits, service_limits

    kept = service_limits(max_body=args.max_body, max_depth=args.max_depth,
                          max_patch_ops=args.max_patch_ops,
                          max_document_bytes=args.max_document_bytes,
                          max_diff_work=args.max_diff_work or None)
    return Limits(args.max_body), kept


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server import create_app, load_tokens
        from ..server.protocol import header_timeout_protocol
    except ModuleNotFoundError as exc:
        sys.stderr.write(f"cfgpatch serve needs the server extra (pip install 'cfgpatch[server]'):"
                         f" {exc.name} is missing\n")
        return 2
    from ..errors import CfgPatchError
    from ..service import Service
    from ..store import open_store

    if args.tokens is None and not is_loopback(args.host):
        sys.stderr.write(
            f"cfgpatch serve: refusing to bind {args.host} without --tokens: anyone could "
            "write. Give a token file or bind 127.0.0.1.\n"
        )
        return 2
    try:
        limits, kept = configured_limits(args)
        protocol = header_timeout_protocol(args.header_timeout)
        tokens = load_tokens(args.tokens) if args.tokens else None
        for warning in tokens.warnings if tokens else ():
            sys.stderr.write(f"cfgpatch serve: warning: {warning}\n")
        store = open_store(args.store)
    except (ValueError, CfgPatchError) as exc:
        text = exc.describe() if isinstance(exc, CfgPatchError) else str(exc)
        sys.stderr.write(f"cfgpatch serve: {text}\n")
        return 2
    from ..store import MemoryStore

    if isinstance(store, MemoryStore):  # not thread-safe on its own
        from ..server.serialized import SerializedStore

        store = SerializedStore(store)
    app = create_app(Service(store, limits=kept), tokens=tokens, limits=limits,
                     static_dir=_static_dir(), allowed_hosts=args.allowed_host)
    # Store failures and internal errors are logged by cfgpatch.server with a request id.
    logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        level=args.log_level.upper())
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                access_log=not args.no_access_log, server_header=False,
                limit_concurrency=args.limit_concurrency, http=protocol)
    return 0


def _static_dir():
    """The built web page, if the web module is present and built."""
    try:
        from ..web import static_dir
    except ImportError:
        return None
    return static_dir()
