"""Conditional requests as RFC 9110 says (section 13), the explicit rebase request, and
no lost update behind a stale If-Match."""

from __future__ import annotations

import json

import pytest

from server_support import JSON, JSON_PATCH, client_for
from server_support import patch_document as patch
from server_support import put_document as put

REBASE = "cfgpatch-rebase-from"


@pytest.fixture
def api(tmp_path):
    with client_for(tmp_path) as client:
        yield client


def head(api, name):
    return api.get(f"/v1/documents/{name}/versions").json()["head"]


def inc(path, value):
    return [{"op": "test", "path": path, "value": value},
            {"op": "replace", "path": path, "value": value + 1}]


# -- lost updates ---------------------------------------------------------------------

def test_the_measured_lost_update_is_a_412(api):
    put(api, "ctr", {"c": 0})
    assert patch(api, "ctr", [{"op": "replace", "path": "/c", "value": 1}],
                 if_match='"1"').json() == {"version": 2}
    stale = patch(api, "ctr", inc("/c", 0), if_match='"1"')
    assert stale.status_code == 412 and stale.json()["code"] == "precondition failed"
    assert "version 2" in stale.json()["message"]
    assert head(api, "ctr") == 2 and api.get("/v1/documents/ctr").text == '{"c":1}'


@pytest.mark.parametrize("merge", [False, True])
def test_a_stale_if_match_is_412_even_when_a_rebase_would_merge(api, merge):
    put(api, "cfg", {"a": 1, "b": 1})
    patch(api, "cfg", [{"op": "replace", "path": "/b", "value": 2}])
    body = {"a": 5} if merge else [{"op": "replace", "path": "/a", "value": 5}]
    stale = patch(api, "cfg", body, merge=merge, if_match='"1"')
    assert stale.status_code == 412
    assert head(api, "cfg") == 2


def test_explicit_rebase_request(api):
    put(api, "cfg", {"a": 1, "b": {"x": 1}, "l": [1]})
    patch(api, "cfg", [{"op": "replace", "path": "/b/x", "value": 2}])
    mine = [{"op": "replace", "path": "/a", "value": 5},
            {"op": "add", "path": "/c", "value": {"k": 1}}]
    applied = patch(api, "cfg", mine, **{REBASE: "1"})
    assert applied.status_code == 200 and applied.json() == {"version": 3}
    assert api.get("/v1/documents/cfg").text == '{"a":5,"b":{"x":2},"c":{"k":1},"l":[1]}'
    conflict = patch(api, "cfg", [{"op": "replace", "path": "/b/x", "value": 3}], **{REBASE: "1"})
    assert conflict.status_code == 409 and conflict.json()["error"] == "conflict at /b/x"
    assert head(api, "cfg") == 3


def test_rebase_judges_every_test_against_the_head(api):
    put(api, "ctr", {"c": 0, "other": 0})
    patch(api, "ctr", [{"op": "replace", "path": "/c", "value": 1}])
    lost = patch(api, "ctr", inc("/c", 0), **{REBASE: "1"})
    assert lost.status_code == 409 and lost.json()["error"] == "test failed at op 0"
    assert "at the head" in lost.json()["message"]
    assert head(api, "ctr") == 2
    # a test on what the head did not change, and a test of the patch's own work, pass
    fine = patch(api, "ctr", [{"op": "test", "path": "/other", "value": 0},
                              {"op": "add", "path": "/new", "value": {"k": 1}},
                              {"op": "test", "path": "/new", "value": {"k": 1}},
                              {"op": "replace", "path": "/other", "value": 7}], **{REBASE: "1"})
    assert fine.status_code == 200, fine.text
    assert api.get("/v1/documents/ctr").text == '{"c":1,"new":{"k":1},"other":7}'
    # a test that fails on the version it was written against is reported as Part 1 says
    base_fail = patch(api, "ctr", [{"op": "test", "path": "/c", "value": 5}], **{REBASE: "1"})
    assert base_fail.status_code == 409 and "at the head" not in base_fail.json()["message"]


def test_rebase_preview_judges_tests_against_the_head_too(api):
    put(api, "ctr", {"c": 0})
    patch(api, "ctr", [{"op": "replace", "path": "/c", "value": 1}])
    preview = api.post("/v1/documents/ctr/rebase", params={"base": 1},
                       content=json.dumps(inc("/c", 0)), headers=JSON_PATCH)
    assert preview.status_code == 409 and preview.json()["error"] == "test failed at op 0"


def test_rebase_of_a_merge_patch(api):
    put(api, "cfg", {"a": 1, "b": 1})
    patch(api, "cfg", {"b": 2}, merge=True)
    merged = patch(api, "cfg", {"a": 5}, merge=True, **{REBASE: "1"})
    assert merged.status_code == 200 and api.get("/v1/documents/cfg").text == '{"a":5,"b":2}'
    conflict = patch(api, "cfg", {"b": 9}, merge=True, **{REBASE: "1"})
    assert conflict.status_code == 409 and conflict.json()["pointer"] == "/b"


@pytest.mark.parametrize(("value", "status", "code"), [
    ("0", 400, "invalid arguments"), ('"1"', 400, "invalid arguments"),
    ("x", 400, "invalid arguments"), ("1, 2", 400, "invalid arguments"),
    ("9", 404, "unknown version"),
])
def test_bad_rebase_requests(api, value, status, code):
    put(api, "cfg", {"a": 1})
    answer = patch(api, "cfg", [], **{REBASE: value})
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert head(api, "cfg") == 1


# -- RFC 9110 conditionals --------------------------------------------------------------

@pytest.mark.parametrize(("header", "value", "status"), [
    ("if-none-match", '"1"', 412),
    ("if-none-match", 'W/"1"', 412),         # weak comparison for If-None-Match
    ("if-none-match", '"7", "1"', 412),
    ("if-none-match", '"2"', 200),
    ("if-none-match", "*", 412),
    ("if-match", '"1"', 200),
    ("if-match", 'W/"1"', 412),               # strong comparison for If-Match
    ("if-match", '"5", "1"', 200),
    ("if-match", '"2"', 412),
    ("if-match", '"abc"', 412),               # a valid tag that names no version
    ("if-match", "*", 200),
    ("if-match", "", 412),                    # an empty list matches nothing
])
def test_put_on_an_existing_document(api, header, value, status):
    put(api, "cfg", {"a": 1})
    answer = put(api, "cfg", {"a": 2}, **{header: value})
    assert answer.status_code == status, answer.text
    assert head(api, "cfg") == (2 if status == 200 else 1)


@pytest.mark.parametrize(("header", "value", "status"), [
    ("if-match", "*", 412), ("if-match", '"1"', 412),
    ("if-none-match", "*", 201), ("if-none-match", '"1"', 201),
])
def test_put_on_a_missing_document(api, header, value, status):
    answer = put(api, "new", {"a": 1}, **{header: value})
    assert answer.status_code == status, answer.text
    exists = api.get("/v1/documents/new").status_code == 200
    assert exists == (status == 201)


def test_get_conditionals(api):
    put(api, "cfg", {"a": 1})
    for value in ("*", '"1"', 'W/"1"', '"3", "1"'):
        same = api.get("/v1/documents/cfg", headers={"if-none-match": value})
        assert same.status_code == 304 and same.headers["etag"] == '"1"', value
        assert same.content == b""
    assert api.get("/v1/documents/cfg", headers={"if-none-match": '"2"'}).status_code == 200
    assert api.get("/v1/documents/cfg", headers={"if-match": '"2"'}).status_code == 412
    assert api.get("/v1/documents/cfg", headers={"if-match": '"1"'}).text == '{"a":1}'
    # If-Match is evaluated first: false -> 412, even when If-None-Match would say 304
    both = api.get("/v1/documents/cfg", headers={"if-match": '"2"', "if-none-match": '"1"'})
    assert both.status_code == 412
    put(api, "cfg", {"a": 2})
    old = api.get("/v1/documents/cfg", params={"version": 1}, headers={"if-none-match": '"1"'})
    assert old.status_code == 304  # the selected representation is version 1
    assert api.get("/v1/documents/nope", headers={"if-none-match": "*"}).status_code == 404
    history = api.get("/v1/documents/cfg/versions", headers={"if-none-match": '"2"'})
    assert history.status_code == 304 and history.headers["etag"] == '"2"'


def test_evaluation_order_on_writes(api):
    put(api, "cfg", {"a": 1})
    # If-Match true, If-None-Match false -> 412
    assert put(api, "cfg", {"a": 2}, **{"if-match": '"1"', "if-none-match": '"1"'}
               ).status_code == 412
    # preconditions before the content: a stale If-Match with a broken body is a 412
    broken = api.put("/v1/documents/cfg", content=b'{"a":', headers={**JSON, "if-match": '"9"'})
    assert broken.status_code == 412
    broken_patch = api.patch("/v1/documents/cfg", content=b"[", headers={**JSON_PATCH,
                                                                          "if-match": '"9"'})
    assert broken_patch.status_code == 412
    # a request that would fail without its preconditions (404) ignores them
    assert patch(api, "nope", [], if_match='"1"').status_code == 404
    assert head(api, "cfg") == 1


@pytest.mark.parametrize("value", ["1", '"1" junk', '*, "1"', '"1', "W/1", '"a"b"'])
def test_malformed_precondition_headers_are_400(api, value):
    put(api, "cfg", {"a": 1})
    for header in ("if-match", "if-none-match"):
        answer = put(api, "cfg", {"a": 2}, **{header: value})
        assert answer.status_code == 400 and answer.json()["code"] == "invalid arguments"
    assert head(api, "cfg") == 1


def test_a_tag_list_may_hold_commas_inside_tags_and_empty_elements(api):
    put(api, "cfg", {"a": 1})
    assert put(api, "cfg", {"a": 2}, **{"if-match": '"x,y", , "1"'}).status_code == 200


def test_method_not_allowed_says_what_is_allowed(api):
    put(api, "cfg", {"a": 1})
    wrong = api.post("/v1/documents/cfg")
    assert wrong.status_code == 405 and wrong.json()["code"] == "method not allowed"
    assert set(wrong.headers["allow"].replace(" ", "").split(",")) == {
        "DELETE", "GET", "HEAD", "PUT", "PATCH"}
    post = api.post("/v1/diff")
    assert post.status_code == 405 and post.headers["allow"].replace(" ", "") == "GET,HEAD"
    rebase = api.get("/v1/documents/cfg/rebase")
    assert rebase.status_code == 405 and rebase.headers["allow"] == "POST"


# -- found by probing the server (stop 25) ------------------------------------------------

def test_a_304_on_the_history_carries_the_head_that_was_judged(api, monkeypatch):
    """The head can move between judging If-None-Match and answering: the 304 must name
    the version judged (a later one would relabel a client's stale copy as current)."""
    from cfgpatch.service import Service

    put(api, "h", {"a": 1})

    original = Service.versions

    def write_in_between(self, name, when, **page):
        answer = original(self, name, when, **page)
        self.put(name, '{"a":2}')  # another client's write lands now
        return answer

    monkeypatch.setattr(Service, "versions", write_in_between)
    answer = api.get("/v1/documents/h/versions", headers={"if-none-match": '"1"'})
    assert answer.status_code == 304 and answer.headers["etag"] == '"1"'


def test_the_rebase_preview_judges_preconditions_and_names_its_head(api):
    put(api, "cfg", {"a": 1, "b": 1})
    patch(api, "cfg", [{"op": "replace", "path": "/b", "value": 2}])
    body = json.dumps([{"op": "replace", "path": "/a", "value": 5}])
    url = "/v1/documents/cfg/rebase"
    ok = api.post(url, params={"base": 1}, content=body, headers=JSON_PATCH)
    assert ok.status_code == 200 and ok.headers["etag"] == '"2"'
    for header, value in (("if-match", '"1"'), ("if-match", '"9"'), ("if-none-match", "*"),
                          ("if-none-match", '"2"')):
        refused = api.post(url, params={"base": 1}, content=body,
                           headers={**JSON_PATCH, header: value})
        assert refused.status_code == 412, (header, value)
        assert refused.json()["code"] == "precondition failed"
    guarded = api.post(url, params={"base": 1}, content=body,
                       headers={**JSON_PATCH, "if-match": '"2"'})
    assert guarded.status_code == 200 and guarded.text == ok.text
    # the preview's tag guards the write that sends its patch
    assert patch(api, "cfg", json.loads(ok.text), if_match=ok.headers["etag"]).status_code == 200


@pytest.mark.parametrize(("method", "path"), [
    ("PATCH", "/v1/documents/cfg/"), ("PUT", "/v1/document/cfg"), ("GET", "/v1/nope"),
    ("DELETE", "/v1"), ("POST", "/v1/documents/cfg/versions/x"),
])
def test_api_paths_that_name_no_route_are_a_json_404_even_with_the_page(tmp_path, method,
                                                                          path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<!doctype html><title>page</title>")
    with client_for(tmp_path, static_dir=site) as client:
        put(client, "cfg", {"a": 1})
        answer = client.request(method, path, content=b"[]", headers=JSON_PATCH)
        assert answer.status_code == 404 and answer.json()["code"] == "not found"
        assert path in answer.json()["message"]
        assert "allow" not in answer.headers
        assert client.get("/").status_code == 200  # the page is still served


def test_the_trailing_slash_is_named(api):
    answer = api.get("/v1/documents/cfg/")
    assert answer.status_code == 404 and "without the trailing '/'" in answer.json()["message"]


@pytest.mark.parametrize(("path", "params"), [
    ("/v1/documents/cfg", [("version", "1"), ("version", "1")]),
    ("/v1/diff", [("from", "cfg"), ("from", "cfg"), ("to", "cfg")]),
    ("/v1/diff", [("from", "cfg"), ("to", "cfg"), ("stats", "1"), ("stats", "0")]),
])
def test_a_query_key_given_twice_is_a_400(api, path, params):
    put(api, "cfg", {"a": 1})
    answer = api.get(path, params=params)
    assert answer.status_code == 400 and answer.json()["code"] == "invalid arguments"
    assert "may be given once" in answer.json()["message"]


def test_a_write_with_a_message_given_twice_writes_nothing(api):
    put(api, "cfg", {"a": 1})
    answer = api.patch("/v1/documents/cfg", params=[("message", "one"), ("message", "two")],
                       content="[]", headers=JSON_PATCH)
    assert answer.status_code == 400 and head(api, "cfg") == 1
