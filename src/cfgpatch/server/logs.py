"""The server's log lines: plain text for people, or one JSON object a line.

``cfgpatch serve --log-format json`` writes every line (the server's, uvicorn's
and the access log ``cfgpatch.access``) as a JSON object on standard error::

    {"time": "2026-12-07T03:12:45.120Z", "level": "INFO", "logger": "cfgpatch.access",
     "message": "127.0.0.1:50412 PATCH /v1/documents/cfg 200 4.1ms",
     "request_id": "5f0c2a9e1b7d4c3a", "method": "PATCH", "path": "/v1/documents/cfg",
     "status": 200, "duration_ms": 4.104, "route": "/v1/documents/{name}",
     "client": "127.0.0.1:50412"}

``request_id`` is on every line written while a request is answered (the id the
answer's ``X-Request-Id`` carries); a traceback is in ``exc_info`` as text.
"""

from __future__ import annotations

import asyncio
import json
import logging
import logging.config
import os
import threading
import time
from datetime import UTC, datetime
from typing import Any

from .problems import REQUEST_ID

#: ``LogRecord`` attributes that are the record's own, not ``extra=`` fields.
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime", "color_message", "taskName"}
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def quick_record(name: str, level: int, pathname: str, func: str, msg: str, args: tuple,
                 extra: dict[str, Any]) -> logging.LogRecord:
    """The record ``logging.getLogger(name).makeRecord(name, level, pathname, 0, msg, args,
    None, func, extra)`` would make, made for a fraction of its cost: what stays the
    same from one record to the next (level name, file and module names, the process's
    id and name) is looked up once a process.  The access log makes one per request.
    With another record factory set (``logging.setLogRecordFactory``) that factory makes
    it, as ``makeRecord`` would."""
    if logging.getLogRecordFactory() is not logging.LogRecord:
        return logging.getLogger(name).makeRecord(name, level, pathname, 0, msg, args, None,
                                                  func, extra)
    key = (name, level, pathname, func)
    fixed = _FIXED.get(key)
    if fixed is None or fixed["process"] != _PROCESS[0]:
        fixed = _FIXED[key] = _fixed_fields(*key)
    record = logging.LogRecord.__new__(logging.LogRecord)
    fields = record.__dict__
    fields.update(fixed)  # LogRecord's own attributes, in its order
    fields["msg"], fields["args"] = msg, args
    now = time.time_ns()
    fields["created"] = created = now / 1e9
    fields["msecs"] = now % 1_000_000_000 // 1_000_000 + 0.0
    # the model record's own relativeCreated, moved on (logging's start time is seconds
    # or nanoseconds depending on the Python version)
    fields["relativeCreated"] = fixed["relativeCreated"] + (created - fixed["created"]) * 1000
    if logging.logThreads:
        fields["thread"] = threading.get_ident()
        fields["threadName"] = threading.current_thread().name
    if getattr(logging, "logAsyncioTasks", False):  # Python 3.12 and later
        fields["taskName"] = _task_name()
    fields.update(extra)
    return record


def _fixed_fields(name: str, level: int, pathname: str, func: str) -> dict[str, Any]:
    """The attributes :func:`quick_record`'s records share (the others hold places)."""
    _PROCESS[0] = os.getpid()
    return dict(logging.LogRecord(name, level, pathname, 0, "", (), None, func).__dict__)


def _task_name() -> str | None:
    """The name of the asyncio task running, as ``LogRecord`` gives it (3.12 and later)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return None
    return task.get_name() if task is not None else None


#: The shared attributes of :func:`quick_record`'s records by (logger, level, file,
#: function), and this process's id (a forked child looks them up again).
_FIXED: dict[tuple[str, int, str, str], dict[str, Any]] = {}
_PROCESS = [os.getpid()]
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=lambda: _PROCESS.__setitem__(0, os.getpid()))


class TextFormatter(logging.Formatter):
    """The standard formatter, whose time text (``2026-12-07 14:31:05,120``) is made once a
    second: the access log writes a line per request, and ``strftime`` was a sixth of
    the line's cost."""

    _second: tuple[int, str] = (-1, "")  # one tuple: threads swap it whole

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        msec = self.default_msec_format
        if datefmt is not None or self.converter is not time.localtime or msec is None:
            return super().formatTime(record, datefmt)
        second, text = self._second
        if second != int(record.created):
            second = int(record.created)
            text = time.strftime(self.default_time_format, time.localtime(second))
            self._second = (second, text)
        return msec % (text, record.msecs)


class JsonFormatter(logging.Formatter):
    """One JSON object a record (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict = {
            "time": json_time(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or REQUEST_ID.get()
        if request_id:
            line["request_id"] = request_id
        for key, value in record.__dict__.items():
            if key not in _STANDARD and key not in line:
                line[key] = value if isinstance(value, (str, int, float, bool)) else str(value)
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def json_time(created: float) -> str:
    """A record's time as JSON lines give it: ``2026-12-07T03:12:45.120Z``."""
    return datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def configure(level: str, json_lines: bool) -> dict:
    """Set up logging for ``serve`` and return uvicorn's ``log_config`` to match."""
    formatter = "cfgpatch.server.logs.JsonFormatter" if json_lines else None
    handler = {"class": "logging.StreamHandler", "formatter": "main",
               "stream": "ext://sys.stderr"}
    main = ({"()": formatter} if formatter else
            {"()": "cfgpatch.server.logs.TextFormatter", "fmt": TEXT_FORMAT})
    config = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": main},
        "handlers": {"main": handler},
        "root": {"handlers": ["main"], "level": level.upper()},
        "loggers": {name: {"handlers": [], "propagate": True, "level": level.upper()}
                    for name in ("uvicorn", "uvicorn.error", "uvicorn.access")},
    }
    logging.config.dictConfig(config)
    return config

