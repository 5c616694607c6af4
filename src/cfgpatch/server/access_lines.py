"""The access log's lines, written straight to the handler :func:`.logs.configure` set up.

Every answer logs one line on ``cfgpatch.access``.  Through :mod:`logging` that line
costs a record, the walk up the loggers, each one's filters, the handler's lock taken
twice, the formatter's steps and a write: about a tenth of the server's CPU per PATCH
(measured with and without ``--no-access-log``).  While the loggers are as
``configure`` left them (its one handler at the root, with its formatter; no handler
or filter on the way up from ``cfgpatch.access``; no record factory of another
program), :func:`write` makes the very line that formatter would make and writes it
under the handler's lock, as the handler's ``emit`` does.  Otherwise (a program
embedding the app configured logging its own way) it answers ``False`` and the caller
logs the usual way.  ``tests/test_server_access_lines.py`` checks the two ways give
the same bytes.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from .logs import TEXT_FORMAT, JsonFormatter, TextFormatter, json_time

_ACCESS = logging.getLogger("cfgpatch.access")
_MESSAGE = "%s %s %s %d %.1fms"


def write(where: str, method: str, path: str, status: int, seconds: float, request_id: str,
          route: str) -> bool:
    """Write the access line of one answer the short way; ``False`` when logging is not
    as ``configure`` left it (nothing written: log it the usual way)."""
    handler = _plain_handler()
    if handler is None or not request_id:
        return False
    now = time.time_ns()
    created, msecs = now / 1e9, now % 1_000_000_000 // 1_000_000 + 0.0
    message = _MESSAGE % (where, method, path, status, seconds * 1000)
    formatter = handler.formatter
    if type(formatter) is TextFormatter:
        stamp: Any = _Stamp(created, msecs)  # what formatTime reads of a record
        line = TEXT_FORMAT % {"asctime": formatter.formatTime(stamp),
                              "levelname": "INFO", "name": _ACCESS.name, "message": message}
    else:
        line = json.dumps({
            "time": json_time(created), "level": "INFO", "logger": _ACCESS.name,
            "message": message, "request_id": request_id, "client": where,
            "method": method, "path": path, "status": status,
            "duration_ms": round(seconds * 1000, 3), "route": route}, ensure_ascii=False)
    stream = handler.stream
    handler.acquire()
    try:
        stream.write(line + handler.terminator)
        stream.flush()
    except (OSError, ValueError):  # the usual way reports it (handleError)
        return False
    finally:
        handler.release()
    return True


def _plain_handler() -> Any:
    """The root's one handler when a record of ``cfgpatch.access`` would reach only it,
    unfiltered, and it is a plain ``StreamHandler`` with one of ``configure``'s
    formatters as ``configure`` makes them (by ``configure`` itself or by uvicorn from
    the same settings, in each worker); else ``None``."""
    if logging.getLogRecordFactory() is not logging.LogRecord:
        return None
    root = logging.root
    handlers = root.handlers
    if len(handlers) != 1 or root.filters:
        return None
    handler = handlers[0]
    if type(handler) is not logging.StreamHandler or handler.filters \
            or handler.level > logging.INFO:
        return None
    formatter: Any = handler.formatter
    kind = type(formatter)
    if kind is TextFormatter:
        if formatter._fmt != TEXT_FORMAT or formatter.datefmt is not None:
            return None
    elif kind is not JsonFormatter:
        return None
    logger: Any = _ACCESS
    while logger is not root:
        if logger.handlers or logger.filters or not logger.propagate or logger.disabled:
            return None
        logger = logger.parent
    return handler


class _Stamp:
    """What ``formatTime`` reads of a record."""

    __slots__ = ("created", "msecs")

    def __init__(self, created: float, msecs: float) -> None:
        self.created = created
        self.msecs = msecs
