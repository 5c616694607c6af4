"""``cfgpatch serve``: what its options turn into, and the work budget end to end."""

from __future__ import annotations

import argparse
import json

import httpx
import pytest

from cfgpatch.cli import main
from cfgpatch.cli.serve import configured_limits, register
from cfgpatch.limits import DEFAULT_MAX_DIFF_WORK
from cfgpatch.server.limits import DEFAULT_MAX_BODY, DEFAULT_MAX_DEPTH, DEFAULT_MAX_PATCH_OPS
from server_support import ServerProcess
from test_server_limits import NUMBERS, needs_budget


def options(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_defaults_are_the_documented_ones():
    limits, kept = configured_limits(options())
    assert limits.max_body == DEFAULT_MAX_BODY == 4 * 1024 * 1024
    assert kept.max_document_bytes == DEFAULT_MAX_BODY  # so a stored version can be sent back
    assert kept.max_depth == DEFAULT_MAX_DEPTH and kept.max_patch_ops == DEFAULT_MAX_PATCH_OPS
    assert kept.work_limit == DEFAULT_MAX_DIFF_WORK
    assert options().header_timeout == 10.0


def test_each_limit_option_reaches_its_limit():
    limits, kept = configured_limits(options(
        "--max-body", "1000", "--max-document-bytes", "5000", "--max-depth", "9",
        "--max-patch-ops", "7", "--max-diff-work", "12345"))
    assert limits.max_body == 1000
    assert (kept.max_document_bytes, kept.max_depth, kept.max_patch_ops, kept.work_limit) == (
        5000, 9, 7, 12345)
    assert configured_limits(options("--max-diff-work", "0"))[1].work_limit is None


@pytest.mark.parametrize("argv, fragment", [
    (["--max-diff-work", "-5"], "work_limit"),
    (["--max-depth", "300"], "max_depth"),
    (["--max-document-bytes", "0"], "max_document_bytes"),
    (["--header-timeout", "0"], "header timeout"),
])
def test_nonsense_limits_stop_the_server_before_it_starts(capsys, argv, fragment):
    assert main(["serve", "--port", "1", "--store", "memory://", *argv]) == 2
    assert fragment in capsys.readouterr().err


@needs_budget
def test_max_diff_work_refuses_the_measured_reversal(tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", "--max-diff-work", "10000")
    try:
        for name, numbers in (("up", NUMBERS), ("down", NUMBERS[::-1])):
            httpx.put(f"{server.url}/v1/documents/{name}", content=json.dumps(numbers),
                      headers={"content-type": "application/json"}, timeout=10)
        answer = httpx.get(f"{server.url}/v1/diff", params={"from": "up", "to": "down"},
                           timeout=10)
        assert answer.status_code == 400 and answer.json()["code"] == "limit exceeded"
    finally:
        server.stop()


def test_timeouts_reach_the_server():
    from cfgpatch.cli.serve import configured_timeouts

    timeouts = configured_timeouts(options(
        "--body-timeout", "3", "--health-timeout", "0.5", "--request-timeout", "4",
        "--max-wait", "9", "--poll-interval", "0.25"))
    assert (timeouts.body, timeouts.health, timeouts.request, timeouts.max_wait,
            timeouts.poll_interval) == (3, 0.5, 4, 9, 0.25)
    defaults = configured_timeouts(options())
    assert (defaults.body, defaults.health, defaults.request, defaults.max_wait) == (
        20, 1.0, 10, 60)
    assert defaults.retention_sweep is None
    assert configured_timeouts(options("--retention-sweep", "300")).retention_sweep == 300


@pytest.mark.parametrize("argv, fragment", [
    (["--body-timeout", "0"], "body timeout"),
    (["--keep-alive-timeout", "-1"], "keep-alive"),
    (["--workers", "0"], "--workers"),
    (["--workers", "2"], "memory://"),
    (["--cache-bytes", "0"], "--cache-bytes"),
    (["--retention-sweep", "0"], "retention sweep"),
])
def test_nonsense_timeouts_and_workers_stop_the_server(capsys, argv, fragment):
    assert main(["serve", "--port", "1", "--store", "memory://", *argv]) == 2
    assert fragment in capsys.readouterr().err


@pytest.mark.timeout(180)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_workers_share_the_store_and_lose_no_increment(tmp_path, backend):
    import pg_support
    from load_support import run_increments, verify_increments

    if backend == "sqlite":
        from cfgpatch.store.sqlite import SQLiteStore

        url = f"sqlite:///{tmp_path / 'w.db'}"
        open_store, cleanup = (lambda: SQLiteStore(tmp_path / "w.db")), (lambda: None)
    else:
        from cfgpatch.store.postgres import PostgresStore

        pg_support.require_postgres()
        prefix = pg_support.unique_prefix()
        url = pg_support.url_with_prefix(prefix)
        open_store, cleanup = (lambda: PostgresStore.from_url(url)), (
            lambda: pg_support.drop_prefix(prefix))
    server = ServerProcess(url, "--workers", "2", log=tmp_path / "server.log")
    try:
        outcome = run_increments([server.url], "ctr", clients=8, each=10)
        server.stop()
        store = open_store()
        try:
            summary = verify_increments(store, "ctr", outcome)
        finally:
            store.close()
    finally:
        server.stop()
        cleanup()
    assert summary["increments"] == 80, summary


def test_the_server_refuses_numbers_a_double_cannot_hold(tmp_path):
    from server_support import client_for, put_document

    assert configured_limits(options())[1].exact_numbers
    with client_for(tmp_path, service_limits=configured_limits(options())[1]) as client:
        for text in ("0.1000000000000000000001", "1e-400", "3.14159265358979323846"):
            answer = put_document(client, "cfg", {"a": [1, json.loads(text, parse_float=str)]})
            assert answer.status_code in (200, 201), answer.text  # a string: kept
            answer = client.put("/v1/documents/n", content=f'{{"a": [1, {text}]}}',
                                headers={"content-type": "application/json"})
            assert answer.status_code == 400 and answer.json()["code"] == "invalid json"
            assert "/a/1" in answer.text


def test_cache_bytes_reaches_the_service():
    from cfgpatch.cli.serve import build_app

    held = {}
    for argv in ((), ("--cache-bytes", "100000")):
        service = build_app(options("--store", "memory://", *argv)).state.service
        for i in range(20):
            service.put_value(f"d{i}", {"a": [str(j) * 5 for j in range(2000)]})
            service.get(f"d{i}")
        held[argv] = service.cache_bytes()
    assert held[("--cache-bytes", "100000")] * 5 < held[()]


def test_a_server_process_collects_cycles_less_often(monkeypatch):
    """Each server process (the one of ``--workers 1``, every worker of more) raises the
    cycle collector's thresholds: a request's objects are freed by reference counting."""
    import gc

    import uvicorn

    from cfgpatch.cli import serve
    from cfgpatch.server import logs

    before = gc.get_threshold()
    seen = []
    monkeypatch.setattr(logs, "configure", lambda level, json_lines: {})  # logging untouched
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: seen.append(gc.get_threshold()))
    try:
        gc.set_threshold(700, 10, 10)
        assert main(["serve", "--store", "memory://", "--port", "1"]) == 0
        gc.set_threshold(700, 10, 10)
        monkeypatch.setenv(serve.WORKER_OPTIONS, json.dumps(
            vars(options("--store", "memory://")), default=lambda _: None))
        serve.worker_app()
        seen.append(gc.get_threshold())
    finally:
        gc.set_threshold(*before)
    assert seen == [serve.SERVER_GC_THRESHOLDS] * 2
    assert serve.SERVER_GC_THRESHOLDS[0] > 700
