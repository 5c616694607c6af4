"""The served OpenAPI document matches the routes, and the index page."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from cfgpatch.errors import CfgPatchError
from cfgpatch.server import create_app, openapi
from cfgpatch.server.inputs import REBASE_FROM, parse_side, parse_tag_list, parse_version
from cfgpatch.server.problems import STATUS
from cfgpatch.server.routing import NoApiRoute, Resource
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
              and not isinstance(r.app, NoApiRoute)
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


# -- the document states what the server enforces (issue 16) --------------------------
def _parameter(path: str, method: str, name: str) -> dict:
    item = openapi.document()["paths"][path]
    for parameter in item.get("parameters", []) + item[method].get("parameters", []):
        if parameter["name"] == name:
            return parameter["schema"]
    raise AssertionError(f"{method} {path} documents no {name}")


def _accepted(check, *args) -> bool:
    try:
        check(*args)
    except CfgPatchError:
        return False
    return True


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=' \t,*W/"13a', max_size=14))
def test_the_documented_tag_syntax_is_what_the_server_parses(text):
    documented = re.fullmatch(openapi.TAG_LIST_PATTERN, text) is not None
    assert documented == _accepted(parse_tag_list, [text], "If-Match"), text
    for method in ("get", "put", "patch"):
        for header in ("If-Match", "If-None-Match"):
            schema = _parameter("/v1/documents/{name}", method, header)
            assert schema == {"type": "string", "pattern": openapi.TAG_LIST_PATTERN}


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="ab-._0129@/", max_size=12)
       | st.from_regex(r"\A[a-z][a-z0-9._-]{0,5}@[0-9]{1,20}\Z"))
def test_the_documented_diff_sides_are_what_the_server_parses(text):
    for key in ("from", "to"):
        pattern = _parameter("/v1/diff", "get", key)["pattern"]
        assert (re.search(pattern, text) is not None) == _accepted(parse_side, text, key), text


@pytest.mark.parametrize("text", ["1", "9" * 18, "1" + "0" * 18, "0", "01", "-1", "1.0", ""])
def test_the_documented_version_range_is_what_the_server_parses(text):
    schema = _parameter("/v1/documents/{name}", "get", "version")
    documented = text.isdigit() and schema["minimum"] <= int(text) <= schema["maximum"] \
        and str(int(text)) == text
    assert documented == _accepted(parse_version, text, "version")
    assert _parameter("/v1/documents/{name}/rebase", "post", "base") == schema
    rebase_from = _parameter("/v1/documents/{name}", "patch", REBASE_FROM)
    assert (re.search(rebase_from["pattern"], text) is not None) == documented


@pytest.mark.parametrize("value, status", [("0", 200), ("1", 200), ("2", 400), ("true", 400),
                                           ("", 400)])
def test_stats_takes_the_documented_values_only(api, value, status):
    assert _parameter("/v1/diff", "get", "stats")["enum"] == ["0", "1"]
    api.put("/v1/documents/a", content="[1]", headers={"content-type": "application/json"})
    answer = api.get("/v1/diff", params={"from": "a", "to": "a", "stats": value})
    assert answer.status_code == status, answer.text


def test_every_route_documents_405_with_allow_and_the_guards_statuses():
    for path, item in openapi.document()["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            responses = op["responses"]
            assert {"405", "421", "500"} <= set(responses), (path, method)
            assert "Allow" in responses["405"]["headers"], (path, method)
            if path.startswith("/v1/documents/{name}") and method != "post":
                assert "412" in responses, (path, method)
