"""``--log-format json``: one JSON object a line, with the request id of the answer."""

from __future__ import annotations

import json
import logging
import time

import httpx
from starlette.testclient import TestClient

from cfgpatch.server import create_app
from cfgpatch.server.logs import JsonFormatter
from cfgpatch.server.problems import REQUEST_ID
from cfgpatch.service import Service
from cfgpatch.store.memory import MemoryStore
from server_support import JSON, ServerProcess


def test_a_record_is_one_json_line_with_extras_and_the_request_id():
    record = logging.LogRecord("cfgpatch.access", logging.INFO, __file__, 1, "GET %s %d",
                               ("/x", 200), None)
    record.status = 200
    record.path = "/x"
    token = REQUEST_ID.set("req-1")
    try:
        line = JsonFormatter().format(record)
    finally:
        REQUEST_ID.reset(token)
    assert "\n" not in line
    parsed = json.loads(line)
    assert parsed["message"] == "GET /x 200" and parsed["level"] == "INFO"
    assert parsed["logger"] == "cfgpatch.access" and parsed["request_id"] == "req-1"
    assert parsed["status"] == 200 and parsed["time"].endswith("Z")


def test_a_traceback_stays_inside_its_line():
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    parsed = json.loads(JsonFormatter().format(record))
    assert "ValueError: boom" in parsed["exc_info"] and parsed["message"] == "failed"


def test_the_server_logs_json_lines(tmp_path):
    log = tmp_path / "server.log"
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", "--log-format", "json",
                           "--log-level", "info", log=log)
    try:
        httpx.put(server.url + "/v1/documents/cfg", content=b'{"a":1}', headers=JSON)
        httpx.get(server.url + "/v1/documents/cfg", headers={"x-request-id": "trace-42"})
    finally:
        server.stop()
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert any(line["logger"].startswith("uvicorn") for line in lines)


def test_the_access_log_is_json(tmp_path):
    log = tmp_path / "server.log"
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", "--log-format", "json",
                           "--log-level", "info", log=log, access_log=True)
    try:
        httpx.get(server.url + "/v1/documents/cfg", headers={"x-request-id": "trace-42"})
    finally:
        server.stop()
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    access = [line for line in lines if line["logger"] == "cfgpatch.access"
              and line.get("request_id") == "trace-42"]
    assert len(access) == 1
    assert access[0]["status"] == 404 and access[0]["method"] == "GET"
    assert access[0]["route"] == "/v1/documents/{name}" and access[0]["duration_ms"] >= 0


def test_text_lines_are_the_standard_formatters(monkeypatch):
    """``--log-format text``: the standard lines, their time text made once a second."""
    import time

    from cfgpatch.server import logs

    monkeypatch.setattr(logging.config, "dictConfig", lambda config: None)
    config = logs.configure("info", False)
    spec = dict(config["formatters"]["main"])
    factory = spec.pop("()")
    assert factory == "cfgpatch.server.logs.TextFormatter"
    ours, standard = logs.TextFormatter(**spec), logging.Formatter(logs.TEXT_FORMAT)
    made = []
    real = time.strftime
    monkeypatch.setattr(time, "strftime", lambda *args: made.append(args) or real(*args))
    start = int(time.time())
    for created in (start + 0.001, start + 0.5, start + 0.999, start + 1.25, start + 7.5):
        record = logging.LogRecord("cfgpatch.access", logging.INFO, __file__, 1, "%s %d",
                                   ("PATCH", 200), None)
        record.created, record.msecs = created, (created - int(created)) * 1000
        line = ours.format(record)
        assert line == standard.format(record)
    assert len(made) == 3 + 5  # ours: once a second (3 seconds); the standard one: each line


ACCESS_ARGS = ("cfgpatch.access", logging.INFO, "/srv/front.py", "_finish", "%s %s %d",
               ("PATCH", "/x", 200), {"request_id": "r-1", "status": 200, "route": "/x"})


def made_by_logging(name, level, pathname, func, msg, args, extra):
    return logging.getLogger(name).makeRecord(name, level, pathname, 0, msg, args, None,
                                              func, extra)


def test_a_quick_record_is_the_record_logging_makes():
    from cfgpatch.server.logs import quick_record

    before = time.time()
    quick, slow = quick_record(*ACCESS_ARGS), made_by_logging(*ACCESS_ARGS)
    assert type(quick) is logging.LogRecord
    assert list(quick.__dict__) == list(slow.__dict__)  # the extras last, in their order
    varying = {"created", "msecs", "relativeCreated"}
    assert {k: v for k, v in quick.__dict__.items() if k not in varying} == {
        k: v for k, v in slow.__dict__.items() if k not in varying}
    assert before <= quick.created <= slow.created and 0 <= quick.msecs < 1000
    moved = (slow.relativeCreated - quick.relativeCreated) - (slow.created - quick.created) * 1000
    assert abs(moved) < 0.01  # both measured from logging's start
    assert quick.getMessage() == "PATCH /x 200"


def test_a_quick_record_is_made_again_for_each_process_and_factory(monkeypatch):
    from cfgpatch.server import logs

    quick_record = logs.quick_record
    first = quick_record(*ACCESS_ARGS)
    monkeypatch.setattr(logs, "_PROCESS", [first.process + 1])  # as after a fork
    monkeypatch.setattr(logs.os, "getpid", lambda: first.process + 1)
    assert quick_record(*ACCESS_ARGS).process == first.process + 1
    monkeypatch.undo()

    class Tagged(logging.LogRecord):
        pass

    monkeypatch.setattr(logging, "_logRecordFactory", Tagged)
    assert type(quick_record(*ACCESS_ARGS)) is Tagged


def test_the_access_record_is_made_once_and_cheaply(monkeypatch, caplog):
    from cfgpatch.server import front

    caplog.set_level(logging.INFO, logger="cfgpatch.access")
    made = []
    monkeypatch.setattr(front, "quick_record", lambda *a: made.append(a) or
                        made_by_logging(*a))
    with TestClient(create_app(Service(MemoryStore())), base_url="http://localhost") as api:
        api.put("/v1/documents/cfg", content="{}", headers=JSON)
    assert [a[0] for a in made] == ["cfgpatch.access"]
    assert made[0][6]["route"] == "/v1/documents/{name}" and made[0][2] == front.__file__
    assert [r.getMessage().split()[1:4] for r in caplog.records] == [
        ["PUT", "/v1/documents/cfg", "201"]]
