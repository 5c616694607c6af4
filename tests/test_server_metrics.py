"""``GET /metrics``: Prometheus text counting requests, latencies, commits, conflicts and
store errors, in one process and summed over ``--workers`` processes."""

from __future__ import annotations

import json

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from cfgpatch.errors import StoreError
from cfgpatch.server import create_app
from cfgpatch.service import Service
from cfgpatch.store.memory import MemoryStore
from server_support import JSON, JSON_PATCH, ServerProcess, client_for, patch_document, put_document


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """Every sample of the exposition text, by name and sorted labels."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def value(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def api(tmp_path):
    with client_for(tmp_path) as client:
        yield client


def test_requests_commits_and_conflicts_are_counted(api):
    before = api.get("/metrics").text
    put_document(api, "cfg", {"n": 0})
    patch_document(api, "cfg", [{"op": "replace", "path": "/n", "value": 1}])
    patch_document(api, "cfg", [{"op": "test", "path": "/n", "value": 0}])  # 409 test failed
    patch_document(api, "cfg", [{"op": "add", "path": "/x", "value": 1}], if_match='"1"')  # 412
    api.get("/v1/documents/cfg")
    api.get("/v1/documents/other")  # 404
    answer = api.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
    after = answer.text

    def delta(name, **labels):
        return value(after, name, **labels) - value(before, name, **labels)

    doc = "/v1/documents/{name}"
    assert delta("cfgpatch_http_requests_total", route=doc, method="PATCH", status="200") == 1
    assert delta("cfgpatch_http_requests_total", route=doc, method="PATCH", status="409") == 1
    assert delta("cfgpatch_http_requests_total", route=doc, method="PATCH", status="412") == 1
    assert delta("cfgpatch_http_requests_total", route=doc, method="GET", status="404") == 1
    assert delta("cfgpatch_http_request_duration_seconds_count", route=doc, method="GET") == 2
    assert delta("cfgpatch_commits_total") == 2
    assert delta("cfgpatch_conflicts_total", code="test failed") == 1
    assert delta("cfgpatch_conflicts_total", code="precondition failed") == 1
    assert "cfg" not in {v for key in samples(after) for _, v in key[1]}  # no names as labels


def test_writes_that_change_nothing_are_not_commits(api):
    put_document(api, "cfg", {"n": 0})
    before = api.get("/metrics").text
    assert put_document(api, "cfg", {"n": 0}).json() == {"version": 1}
    assert patch_document(api, "cfg", []).json() == {"version": 1}
    assert patch_document(api, "cfg", {"n": 0}, merge=True).json() == {"version": 1}
    assert api.post("/v1/documents/cfg/restore?version=1").json() == {"version": 1}
    assert value(api.get("/metrics").text, "cfgpatch_commits_total") == value(
        before, "cfgpatch_commits_total")
    assert api.put("/v1/documents/cfg?force=1", content='{"n":0}', headers=JSON).json() == {
        "version": 2}
    assert api.delete("/v1/documents/cfg").status_code == 200
    assert value(api.get("/metrics").text, "cfgpatch_commits_total") == value(
        before, "cfgpatch_commits_total") + 2


class FailingStore(MemoryStore):
    def head_version(self, name):
        raise StoreError("database on fire")

    def names(self):
        raise StoreError("database on fire")


class Counting(Service):
    def cache_bytes(self) -> int:
        return 12345


def test_store_errors_and_cache_bytes():
    app = create_app(Counting(FailingStore()), close_store=False)
    client = TestClient(app, base_url="http://localhost", raise_server_exceptions=False)
    before = client.get("/metrics").text
    assert client.get("/healthz").status_code == 503
    assert client.get("/v1/documents").status_code == 503
    after = client.get("/metrics").text
    assert value(after, "cfgpatch_store_errors_total") - value(
        before, "cfgpatch_store_errors_total") == 2
    assert value(after, "cfgpatch_cache_bytes") == 12345


def test_workers_are_summed(tmp_path):
    folder = tmp_path / "metrics"
    folder.mkdir()
    server = ServerProcess(f"sqlite:///{tmp_path / 'w.db'}", "--workers", "2",
                           env={"PROMETHEUS_MULTIPROC_DIR": str(folder)})
    try:
        httpx.put(server.url + "/v1/documents/cfg", content=b'{"n":0}', headers=JSON)
        for k in range(40):  # a new connection each: the workers take turns accepting
            body = json.dumps([{"op": "replace", "path": "/n", "value": k + 1}])
            answer = httpx.patch(server.url + "/v1/documents/cfg", content=body,
                                 headers=JSON_PATCH)
            assert answer.status_code == 200
        # a latency series exists only in a process that answered a request
        pids = {path.stem.rsplit("_", 1)[-1] for path in folder.glob("histogram_*.db")}
        text = httpx.get(server.url + "/metrics").text
    finally:
        server.stop()
    assert len(pids) == 2, "both workers answered"
    assert value(text, "cfgpatch_commits_total") == 41
    assert value(text, "cfgpatch_http_requests_total", route="/v1/documents/{name}",
                 method="PATCH", status="200") == 40
