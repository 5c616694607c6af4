"""``cfgpatch serve``: run the config service over HTTP (uvicorn)."""

from __future__ import annotations

import argparse
import gc
import ipaddress
import json
import os
import shutil
import sys
import tempfile
from typing import TYPE_CHECKING, Any

from ..limits import DEFAULT_MAX_DIFF_WORK

if TYPE_CHECKING:
    from ..limits import ServiceLimits
    from ..server import Limits
    from ..server.limits import Timeouts

DEFAULT_STORE = "sqlite:///cfgpatch.db"
#: The environment variable naming the store when --store is not given.
STORE_VARIABLE = "CFGPATCH_STORE"
#: The environment variable carrying the options to worker processes (``--workers``).
WORKER_OPTIONS = "CFGPATCH_SERVE_OPTIONS"
#: Seconds uvicorn lets requests in progress (long polls) finish when told to stop.
GRACEFUL_SHUTDOWN = 5
#: The cycle collector's thresholds in a server process (Python's: 700, 10, 10).  A
#: request allocates a few thousand objects, nearly all freed by reference counting;
#: with Python's, the collector ran every few requests and walked what the requests
#: in progress held (about 5 % of a PATCH's instructions, measured with callgrind).
SERVER_GC_THRESHOLDS = (20_000, 20, 20)


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
        default=os.environ.get(STORE_VARIABLE) or DEFAULT_STORE,
        help="sqlite:///relative.db, sqlite:////abs/path.db, postgresql://user@host/db "
        f"or memory:// (default: ${STORE_VARIABLE}, else {DEFAULT_STORE}; the variable keeps "
        "a password out of the process list)",
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
    parser.add_argument("--cache-bytes", type=int, metavar="BYTES",
                        help="memory the service's caches of each worker may hold, estimated "
                        "(default 64 MiB)")
    parser.add_argument("--limit-concurrency", type=int, metavar="N",
                        help="answer 503 beyond N requests in progress per worker, counted once "
                        "their bodies are in (default: no limit)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="worker processes sharing the port and the store (default 1; "
                        "SQLite or PostgreSQL, not memory://)")
    parser.add_argument("--http", default="auto", choices=("auto", "httptools", "h11"),
                        help="the HTTP/1.1 parser: httptools (C, the faster) or h11 (pure "
                        "Python); auto: httptools when installed (default)")
    parser.add_argument("--loop", default="auto", choices=("auto", "asyncio", "uvloop"),
                        help="the event loop: uvloop (libuv, the faster) or asyncio; auto: "
                        "uvloop when installed (default)")
    parser.add_argument("--header-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="close a connection whose request line and headers are not "
                        "complete after this long (default 10; against slowloris)")
    parser.add_argument("--body-timeout", type=float, default=20.0, metavar="SECONDS",
                        help="answer 408 and close when a request body is not complete this "
                        "long after its head (default 20)")
    parser.add_argument("--keep-alive-timeout", type=float, default=5.0, metavar="SECONDS",
                        help="close an idle kept-alive connection after this long (default 5)")
    parser.add_argument("--health-timeout", type=float, default=1.0, metavar="SECONDS",
                        help="/healthz answers 503 when the store has not answered after this "
                        "long (default 1)")
    parser.add_argument("--request-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="answer 503 when the store and the computation of a request have "
                        "not finished after this long (default 10)")
    parser.add_argument("--max-wait", type=int, default=60, metavar="SECONDS",
                        help="longest ?wait= of a long poll (default 60)")
    parser.add_argument("--poll-interval", type=float, default=0.5, metavar="SECONDS",
                        help="how often long polls read the head for commits made by other "
                        "processes (default 0.5)")
    parser.add_argument("--retention-sweep", type=float, metavar="SECONDS",
                        help="apply the retention policies to every document this often (each "
                        "worker; default: only when a write starts a block of 32 versions, or "
                        "on POST /v1/retention/run)")
    parser.add_argument("--log-level", default="info",
                        choices=("critical", "error", "warning", "info", "debug"))
    parser.add_argument("--log-format", default="text", choices=("text", "json"),
                        help="text lines, or one JSON object a line (default text)")
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


def configured_timeouts(args: argparse.Namespace) -> Timeouts:
    """The server's :class:`~cfgpatch.server.limits.Timeouts` (``ValueError`` for nonsense)."""
    from ..server.limits import Timeouts

    if not args.keep_alive_timeout > 0:
        raise ValueError("the keep-alive timeout must be a positive number of seconds")
    return Timeouts(body=args.body_timeout, health=args.health_timeout,
                    request=args.request_timeout, max_wait=args.max_wait,
                    poll_interval=args.poll_interval, retention_sweep=args.retention_sweep)


def build_app(args: argparse.Namespace, *, warn: bool = True) -> Any:
    """The ASGI app the options ask for (``ValueError`` / ``CfgPatchError`` if they are
    wrong or the store cannot be opened); ``warn``: print the token file's warnings."""
    from ..server import create_app, load_tokens
    from ..server.protocol import header_timeout_protocol
    from ..service import Service
    from ..store import MemoryStore, open_store

    if args.workers < 1:
        raise ValueError("--workers must be 1 or more")
    if args.workers > 1 and args.store.startswith("memory:"):
        raise ValueError("--workers needs a store the processes share (sqlite:/// or "
                         "postgresql://), not memory://")
    if args.cache_bytes is not None and args.cache_bytes < 1:
        raise ValueError("--cache-bytes must be a positive number of bytes")
    limits, kept = configured_limits(args)
    timeouts = configured_timeouts(args)
    header_timeout_protocol(args.header_timeout, http_parser(args))
    tokens = load_tokens(args.tokens) if args.tokens else None
    for warning in tokens.warnings if tokens and warn else ():
        sys.stderr.write(f"cfgpatch serve: warning: {warning}\n")
    store = open_store(args.store)
    if isinstance(store, MemoryStore):  # not thread-safe on its own
        from ..server.serialized import SerializedStore

        store = SerializedStore(store)
    sizes = {} if args.cache_bytes is None else {"cache_bytes": args.cache_bytes}
    app = create_app(Service(store, limits=kept, **sizes), tokens=tokens, limits=limits,
                     static_dir=_static_dir(), allowed_hosts=args.allowed_host,
                     timeouts=timeouts, limit_concurrency=args.limit_concurrency,
                     access_log=not args.no_access_log)
    return app


def http_parser(args: argparse.Namespace) -> str:
    """The parser ``--http`` names (``auto``: httptools when installed, else h11)."""
    from ..server.protocol import default_parser

    chosen = getattr(args, "http", "auto")
    return default_parser() if chosen == "auto" else chosen


def worker_app() -> Any:
    """The app of one worker process, from the options the parent left in the environment."""
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
    return build_app(argparse.Namespace(**json.loads(os.environ[WORKER_OPTIONS])), warn=False)


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server.logs import configure
        from ..server.metrics import MULTIPROCESS_DIR
        from ..server.protocol import header_timeout_protocol
    except ModuleNotFoundError as exc:
        sys.stderr.write(f"cfgpatch serve needs the server extra (pip install 'cfgpatch[server]'):"
                         f" {exc.name} is missing\n")
        return 2
    from ..errors import CfgPatchError

    if args.tokens is None and not is_loopback(args.host):
        sys.stderr.write(
            f"cfgpatch serve: refusing to bind {args.host} without --tokens: anyone could "
            "write. Give a token file or bind 127.0.0.1.\n"
        )
        return 2
    try:
        app = build_app(args)  # in the parent too: options checked, store migrated once
    except (ValueError, CfgPatchError) as exc:
        text = exc.describe() if isinstance(exc, CfgPatchError) else str(exc)
        sys.stderr.write(f"cfgpatch serve: {text}\n")
        return 2
    # Store failures and internal errors are logged by cfgpatch.server with a request id.
    log_config = configure(args.log_level, args.log_format == "json")
    common = dict(host=args.host, port=args.port, log_level=args.log_level, access_log=False,
                  server_header=False, log_config=log_config,
                  http=header_timeout_protocol(args.header_timeout, http_parser(args)),
                  loop=args.loop,
                  timeout_keep_alive=args.keep_alive_timeout,
                  timeout_graceful_shutdown=GRACEFUL_SHUTDOWN)
    if args.workers == 1:
        gc.set_threshold(*SERVER_GC_THRESHOLDS)
        uvicorn.run(app, **common)
        return 0
    app.state.service.store.close()  # each worker opens its own
    metrics_dir = None
    if not os.environ.get(MULTIPROCESS_DIR):
        metrics_dir = os.environ[MULTIPROCESS_DIR] = tempfile.mkdtemp(prefix="cfgpatch-metrics-")
    os.environ[WORKER_OPTIONS] = json.dumps(vars(args), default=lambda _: None)
    try:
        uvicorn.run(f"{__name__}:worker_app", factory=True, workers=args.workers, **common)
    finally:
        if metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def _static_dir():
    """The built web page, if the web module is present and built."""
    try:
        from ..web import static_dir
    except ImportError:
        return None
    return static_dir()
