"""The access line written the short way is the line logging would write, byte for byte,
and the short way steps aside whenever logging is set up otherwise."""

from __future__ import annotations

import io
import logging
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.server import access_lines
from cfgpatch.server.front import ROUTE_KEY, Answer, Front, Slots
from cfgpatch.server.limits import Limits, Timeouts
from cfgpatch.server.logs import configure

#: A fixed clock for both ways (nanoseconds): 2026-12-07 14:31:05.120789 UTC.
NOW_NS = 1_796_653_865_120_789_000


@contextmanager
def configured(json_lines: bool) -> Iterator[io.StringIO]:
    """Logging as ``cfgpatch serve`` sets it up, its handler writing to a string; the
    previous set-up back afterwards."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    stream = io.StringIO()
    with mock.patch.object(sys, "stderr", stream):
        configure("info", json_lines)
    try:
        yield stream
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def finish(scope: dict, status: int, seconds: float, request_id: str) -> None:
    """The front's end of one answer (metrics and access line)."""
    front = Front(None, limits=Limits(), timeouts=Timeouts(), slots=Slots(None))
    answer = Answer(lambda message: None, request_id)
    answer.status = status
    front._finish(scope, answer, seconds)


def both_ways(json_lines: bool, scope: dict, status: int, seconds: float,
              request_id: str) -> tuple[str, str]:
    """The access line of one answer the short way, and logging's."""
    lines = []
    for short in (True, False):
        with configured(json_lines) as stream, \
                mock.patch.object(time, "time_ns", return_value=NOW_NS):
            if short:
                finish(scope, status, seconds, request_id)
            else:
                with mock.patch.object(access_lines, "_plain_handler", return_value=None):
                    finish(scope, status, seconds, request_id)
            lines.append(stream.getvalue())
    return lines[0], lines[1]


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
scopes = st.fixed_dictionaries({
    "type": st.just("http"),
    "method": st.sampled_from(["GET", "HEAD", "PUT", "PATCH", "DELETE", "POST"]),
    "path": texts.map(lambda text: "/v1/documents/" + text),
    "client": st.one_of(st.none(), st.tuples(st.sampled_from(["127.0.0.1", "::1", "10.1.2.3"]),
                                             st.integers(1, 65535))),
    ROUTE_KEY: st.sampled_from(["/v1/documents/{name}", "/healthz", "/v1/documents"]),
})


@settings(max_examples=150, deadline=None)
@given(json_lines=st.booleans(), scope=scopes, status=st.sampled_from([200, 201, 304, 400,
                                                                         404, 409, 412, 503]),
       seconds=st.floats(0, 100, allow_nan=False), request_id=texts.filter(bool))
def test_the_short_way_writes_logging_s_own_line(json_lines, scope, status, seconds,
                                                 request_id):
    short, usual = both_ways(json_lines, scope, status, seconds, request_id)
    assert short == usual
    assert short.endswith("\n") and scope["method"] in short


def test_a_line_of_each_format_reads_as_expected():
    scope = {"type": "http", "method": "PATCH", "path": "/v1/documents/cfg",
             "client": ("127.0.0.1", 50412), ROUTE_KEY: "/v1/documents/{name}"}
    text, _ = both_ways(False, scope, 200, 0.0041, "5f0c2a9e")
    assert text.endswith(" INFO cfgpatch.access: 127.0.0.1:50412 PATCH /v1/documents/cfg "
                         "200 4.1ms\n")
    assert text[:4] == time.strftime("%Y", time.localtime(NOW_NS / 1e9)) and ",120 " in text
    json_line, _ = both_ways(True, scope, 200, 0.0041, "5f0c2a9e")
    assert json_line.startswith('{"time": "2026-12-07T14:31:05.120Z", "level": "INFO", '
                                '"logger": "cfgpatch.access", "message": "127.0.0.1:50412 '
                                'PATCH /v1/documents/cfg 200 4.1ms", "request_id": '
                                '"5f0c2a9e", "client": "127.0.0.1:50412", "method": "PATCH"')


def _write() -> bool:
    return access_lines.write("127.0.0.1:1", "GET", "/x", 200, 0.001, "id-1", "/x")


def test_the_short_way_writes_under_serve_s_set_up():
    for json_lines in (False, True):
        with configured(json_lines) as stream:
            assert _write() and "GET /x 200" in stream.getvalue()


def test_an_empty_request_id_goes_the_usual_way():
    with configured(True) as stream:
        assert not access_lines.write("-", "GET", "/x", 200, 0.001, "", "/x")
        assert stream.getvalue() == ""


def test_any_other_set_up_goes_the_usual_way(tmp_path):
    """Each change that could make logging's line differ, or send it elsewhere too."""
    access = logging.getLogger("cfgpatch.access")
    parent = logging.getLogger("cfgpatch")
    changes = {
        "a filter on the handler": lambda root: root.handlers[0].addFilter(lambda r: True),
        "a filter on the root": lambda root: root.addFilter(lambda r: True),
        "a second handler": lambda root: root.addHandler(logging.NullHandler()),
        "a handler on cfgpatch": lambda root: parent.addHandler(logging.NullHandler()),
        "a filter on the access logger": lambda root: access.addFilter(lambda r: True),
        "no propagation": lambda root: setattr(access, "propagate", False),
        "a disabled logger": lambda root: setattr(access, "disabled", True),
        "a quieter handler": lambda root: root.handlers[0].setLevel(logging.WARNING),
        "another format": lambda root: root.handlers[0].setFormatter(
            logging.Formatter("%(message)s")),
        "a date format": lambda root: setattr(root.handlers[0].formatter, "datefmt", "%H"),
        "a file handler": lambda root: root.handlers.__setitem__(
            0, logging.FileHandler(tmp_path / "log.txt", delay=True)),
        "a record factory": lambda root: logging.setLogRecordFactory(
            lambda *a, **k: logging.LogRecord(*a, **k)),
    }
    for what, change in changes.items():
        with configured(False) as stream:
            try:
                change(logging.getLogger())
                assert not _write(), what
                assert stream.getvalue() == "", what
            finally:
                for logger in (access, parent):
                    logger.filters.clear()
                    logger.handlers.clear()
                access.propagate, access.disabled = True, False
                logging.getLogger().filters.clear()
                logging.setLogRecordFactory(logging.LogRecord)
