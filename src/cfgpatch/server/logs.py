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

import json
import logging
import logging.config
import time
from datetime import UTC, datetime

from .problems import REQUEST_ID

#: ``LogRecord`` attributes that are the record's own, not ``extra=`` fields.
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime", "color_message", "taskName"}
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


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
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
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

