"""The served OpenAPI document matches the routes, and the index page."""

from __future__ import annotations

import pytest
from starlette.routing import Route

from cfgpatch.server import create_app, openapi
from cfgpatch.server.app import Resource
from cfgpatch.server.problems import STATUS
from cfgpatch.service import Service
from server_support import client_for


@pytest.fixture
def api(tmp_path):
    with client_for(tmp_path) as client:
        yield client


def test_document_is_served_and_well_formed(api):
    doc = api.get("/v1/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    for path, item in doc["paths"].items():
        assert path.startswith("/")
        for method, op in item.items():
            if method == "parameters":
                continue
            assert op["summary"] and op["responses"], (path, method)
            for status in op["responses"]:
                assert 200 <= int(status) < 600


def test_every_route_is_documented_and_every_documented_route_exists():
    app = create_app(Service(), close_store=False)
    routed = {(r.path, m.lower()) for r in app.routes if isinstance(r, Route)
              for m in _methods(r) - {"HEAD"}} - {("/", "get")}
    documented = {(p, m) for p, item in openapi.document()["paths"].items()
                  for m in item if m != "parameters"}
    assert routed == documented


def _methods(route: Route) -> set[str]:
    app = route.app
    return set(app.handlers) if isinstance(app, Resource) else set(route.methods or ())


def test_every_error_status_is_documented():
    text = str(openapi.document())
    for status in set(STATUS.values()):
        assert str(status) in text


def test_index_page_without_web_build(tmp_path):
    app = create_app(Service(), close_store=False, static_dir=None)
    from starlette.testclient import TestClient

    page = TestClient(app, base_url="http://localhost").get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "/v1/openapi.json" in page.text and "/v1/documents/{name}" in page.text


def test_web_build_is_mounted_at_root(tmp_path):
    (tmp_path / "index.html").write_text("<html>tester page</html>")
    app = create_app(Service(), close_store=False, static_dir=tmp_path)
    from starlette.testclient import TestClient

    client = TestClient(app, base_url="http://localhost")
    assert "tester page" in client.get("/").text
    assert client.get("/healthz").json()["ok"] is True
