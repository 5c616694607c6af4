"""The Host check against DNS rebinding: without tokens only loopback names are answered."""

from __future__ import annotations

import json

import httpx
import pytest

from cfgpatch.server.hosts import host_name, host_policy, is_loopback_name
from server_support import JSON, ServerProcess, client_for
from test_server_auth import DEPLOY, TOKENS


@pytest.fixture
def api(tmp_path):
    with client_for(tmp_path) as client:
        yield client


@pytest.mark.parametrize("host", ["localhost", "localhost:8080", "LocalHost:1", "127.0.0.1",
                                  "127.0.0.1:8080", "127.1.2.3:9", "[::1]", "[::1]:8080"])
def test_loopback_names_are_answered(api, host):
    assert api.get("/v1/documents", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["rebind.example", "rebind.example:8080", "localhost.example",
                                  "evil.localhost", "127.0.0.1.nip.io", "0.0.0.0", "[::2]",
                                  "10.0.0.1:8080", "localhost.", ""])
def test_other_names_get_421_and_change_nothing(api, host):
    answer = api.put("/v1/documents/cfg", content="{}", headers={**JSON, "host": host})
    assert answer.status_code == 421 and answer.json()["code"] == "misdirected request"
    assert "--allowed-host" in answer.json()["message"]
    for path in ("/v1/documents", "/healthz", "/", "/v1/openapi.json"):
        assert api.get(path, headers={"host": host}).status_code == 421, path
    assert api.get("/v1/documents").json() == {"documents": []}


def test_allowed_hosts_add_names(tmp_path):
    with client_for(tmp_path, allowed_hosts=["config.internal"]) as api:
        assert api.get("/healthz", headers={"host": "config.internal:443"}).status_code == 200
        assert api.get("/healthz", headers={"host": "CONFIG.internal"}).status_code == 200
        assert api.get("/healthz", headers={"host": "localhost"}).status_code == 200
        assert api.get("/healthz", headers={"host": "rebind.example"}).status_code == 421


def test_tokens_accept_any_name_unless_allowed_hosts_are_given(tmp_path):
    with client_for(tmp_path, tokens=TOKENS, base_url="http://config.example") as api:
        answer = api.put("/v1/documents/team-a-x", content="{}",
                         headers={**JSON, "authorization": f"Bearer {DEPLOY}"})
        assert answer.status_code == 201
    (tmp_path / "b").mkdir()
    with client_for(tmp_path / "b", tokens=TOKENS, allowed_hosts=["cfg.example"],
                    base_url="http://other.example") as api:
        assert api.get("/healthz").status_code == 421


def test_star_answers_every_name(tmp_path):
    with client_for(tmp_path, allowed_hosts=["*"], base_url="http://anything.example") as api:
        assert api.get("/healthz").status_code == 200


def test_names_and_policies():
    assert host_name("[::1]:80") == "[::1]" and host_name("Example.COM:1") == "example.com"
    assert host_name("a:b") == "a:b"
    assert is_loopback_name("127.0.0.1") and is_loopback_name("[::1]")
    assert not is_loopback_name("localhost.example") and not is_loopback_name("[::ffff:1.2.3.4]")
    assert host_policy(None, tokens=True) is None and host_policy(["*"], tokens=False) is None
    assert host_policy(None, tokens=False) is not None


def test_a_real_server_refuses_a_rebinding_host(tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path / 'h.db'}", "--allowed-host", "cfg.test")
    try:
        body, kind = json.dumps({"a": 1}), {"content-type": "application/json"}
        rebound = httpx.put(server.url + "/v1/documents/x", content=body,
                            headers={**kind, "host": "rebind.example"})
        assert rebound.status_code == 421
        named = httpx.put(server.url + "/v1/documents/x", content=body,
                          headers={**kind, "host": "cfg.test:8080"})
        assert named.status_code == 201
        assert httpx.get(server.url + "/v1/documents/x/versions").json()["head"] == 1
    finally:
        server.stop()
