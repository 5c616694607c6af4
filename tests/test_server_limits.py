"""Bad requests get a clear 4xx JSON answer and change nothing."""

from __future__ import annotations

import inspect
import json
import time

import pytest

from cfgpatch.diffing import diff_ops
from cfgpatch.limits import ServiceLimits
from cfgpatch.server import Limits
from server_support import JSON, JSON_PATCH, MERGE_PATCH, client_for

LIMITS = Limits(max_body=2000)
SERVICE_LIMITS = ServiceLimits(max_depth=8, max_patch_ops=5, max_document_bytes=2000)


@pytest.fixture
def api(tmp_path):
    with client_for(tmp_path, limits=LIMITS, service_limits=SERVICE_LIMITS) as client:
        client.put("/v1/documents/cfg", content='{"a":1}', headers=JSON)
        yield client


def snapshot(api):
    history = api.get("/v1/documents/cfg/versions").json()
    return api.get("/v1/documents").json(), [v["version"] for v in history["versions"]]


def nested(depth):
    return "[" * depth + "]" * depth


BAD_REQUESTS = [
    # (method, path, body, headers, status, code)
    ("PUT", "/v1/documents/cfg", b'{"a":', JSON, 400, "invalid json"),
    ("PUT", "/v1/documents/cfg", b'{"a":NaN}', JSON, 400, "invalid json"),
    ("PUT", "/v1/documents/cfg", b'{"a":1,"a":2}', JSON, 400, "invalid json"),
    ("PUT", "/v1/documents/cfg", b'{"a":"\xff\xfe"}', JSON, 400, "invalid json"),
    ("PUT", "/v1/documents/cfg", b"", JSON, 400, "invalid json"),
    ("PUT", "/v1/documents/cfg", b"{}", {"content-type": "text/plain"}, 415,
     "unsupported media type"),
    ("PUT", "/v1/documents/cfg", b"{}", {}, 415, "unsupported media type"),
    ("PUT", "/v1/documents/cfg", b"{}", {"content-type": "application/json; charset=latin-1"},
     415, "unsupported media type"),
    ("PUT", "/v1/documents/cfg", b'{"x":"' + b"a" * 3000 + b'"}', JSON, 413, "body too large"),
    ("PUT", "/v1/documents/cfg", nested(9).encode(), JSON, 400, "limit exceeded"),
    ("PUT", "/v1/documents/cfg", nested(5000).encode(), JSON, 413, "body too large"),
    ("PUT", "/v1/documents/%2E%2E", b"{}", JSON, 400, "invalid name"),
    ("PUT", "/v1/documents/..%2Fcfg", b"{}", JSON, 400, "invalid name"),
    ("PUT", "/v1/documents/a%5Cb", b"{}", JSON, 400, "invalid name"),
    ("PUT", "/v1/documents/.hidden", b"{}", JSON, 400, "invalid name"),
    ("PUT", "/v1/documents/a%00b", b"{}", JSON, 400, "invalid name"),
    ("PUT", "/v1/documents/caf%C3%A9", b"{}", JSON, 400, "invalid name"),
    ("PUT", "/v1/documents/" + "n" * 201, b"{}", JSON, 400, "invalid name"),
    ("PATCH", "/v1/documents/cfg", b"[]", JSON, 415, "unsupported media type"),
    ("PATCH", "/v1/documents/cfg", b"[", JSON_PATCH, 400, "invalid json"),
    ("PATCH", "/v1/documents/cfg", b"\xc3\x28", JSON_PATCH, 400, "invalid json"),
    ("PATCH", "/v1/documents/cfg", json.dumps([{"op": "test", "path": "/a", "value": 1}] * 6)
     .encode(), JSON_PATCH, 400, "limit exceeded"),
    ("PATCH", "/v1/documents/cfg", json.dumps([{"op": "add", "path": "/b",
                                                "value": json.loads(nested(8))}]).encode(),
     JSON_PATCH, 400, "limit exceeded"),
    ("PATCH", "/v1/documents/cfg", b'[{"op":"add","path":"b","value":1}]', JSON_PATCH, 400,
     "invalid pointer"),
    # results: deeper than --max-depth through a long path, or through a copy into itself
    ("PATCH", "/v1/documents/cfg", json.dumps([
        {"op": "add", "path": "/b", "value": {"c": {"d": {"e": {"f": {}}}}}},
        {"op": "add", "path": "/b/c/d/e/f/g", "value": [[[]]]}]).encode(),
     JSON_PATCH, 400, "limit exceeded"),
    ("PATCH", "/v1/documents/cfg", json.dumps([
        {"op": "add", "path": "/x", "value": json.loads(nested(4))},
        {"op": "copy", "from": "/x", "path": "/x/0/0/0/0"}]).encode(),
     JSON_PATCH, 400, "limit exceeded"),
    # results larger than --max-document-bytes: a few copies of one value
    ("PATCH", "/v1/documents/cfg", json.dumps([
        {"op": "add", "path": "/x", "value": "x" * 400},
        *({"op": "copy", "from": "/x", "path": f"/y{i}"} for i in range(4))]).encode(),
     JSON_PATCH, 400, "limit exceeded"),
    ("PATCH", "/v1/documents/cfg", json.dumps({"x": "x" * 1000, "y": "y" * 980}).encode(),
     MERGE_PATCH, 400, "limit exceeded"),
    ("PATCH", "/v1/documents/cfg", b'{"a":' + nested(8).encode() + b"}", MERGE_PATCH, 400,
     "limit exceeded"),
    ("PATCH", "/v1/documents/cfg?message=" + "m" * 1001, b"[]", JSON_PATCH, 400,
     "invalid arguments"),
    ("PATCH", "/v1/documents/cfg", b"[]", {**JSON_PATCH, "if-match": '"0"'}, 412,
     "precondition failed"),
    ("PATCH", "/v1/documents/cfg", b"[]", {**JSON_PATCH, "if-match": "0"}, 400,
     "invalid arguments"),
    ("PATCH", "/v1/documents/cfg", b"[]", {**JSON_PATCH, "if-match": '"99"'}, 412,
     "precondition failed"),
    ("PATCH", "/v1/documents/cfg?message=a%00b", b"[]", JSON_PATCH, 400, "invalid arguments"),
    ("PATCH", "/v1/documents/cfg?message=%FF%FE", b"[]", JSON_PATCH, 400, "invalid arguments"),
    ("PUT", "/v1/documents/%FF", b"{}", JSON, 400, "invalid arguments"),
    ("GET", "/v1/documents/cfg?version=99", b"", {}, 404, "unknown version"),
    ("GET", "/v1/documents/cfg?version=abc", b"", {}, 400, "invalid arguments"),
    ("POST", "/v1/documents/cfg/rebase?base=1", b"{}", JSON_PATCH, 400, "invalid patch"),
    ("POST", "/v1/documents/cfg/rebase?base=1", b"[]", {"content-type": "text/plain"}, 415,
     "unsupported media type"),
]


@pytest.mark.parametrize(("method", "path", "body", "headers", "status", "code"), BAD_REQUESTS,
                         ids=[f"{r[0]}-{r[5]}-{i}" for i, r in enumerate(BAD_REQUESTS)])
def test_bad_request_is_refused_and_changes_nothing(api, method, path, body, headers, status,
                                                    code):
    before = snapshot(api)
    answer = api.request(method, path, content=body, headers=headers)
    assert answer.status_code == status, answer.text
    payload = answer.json()
    assert payload["code"] == code
    assert payload["message"] and isinstance(payload["message"], str)
    assert snapshot(api) == before
    assert api.get("/v1/documents/cfg").text == '{"a":1}'


def test_limits_hold_on_rebased_results(api):
    api.patch("/v1/documents/cfg", content=b'[{"op":"add","path":"/h","value":1}]',
              headers=JSON_PATCH)
    big = json.dumps([{"op": "add", "path": "/x", "value": "x" * 700},
                      {"op": "copy", "from": "/x", "path": "/y"},
                      {"op": "copy", "from": "/x", "path": "/z"}])
    answer = api.patch("/v1/documents/cfg", content=big,
                       headers={**JSON_PATCH, "cfgpatch-rebase-from": "1"})
    assert answer.status_code == 400 and answer.json()["code"] == "limit exceeded"
    assert "--max-document-bytes" in answer.json()["message"]
    assert api.get("/v1/documents/cfg/versions").json()["head"] == 2


def test_documents_at_the_limits_are_accepted(api):
    at_depth = [{"op": "add", "path": "/b", "value": json.loads(nested(6))},
                {"op": "add", "path": "/b/0/0/0/0/0/0", "value": []}]  # 7 tokens + 1 = 8
    assert api.patch("/v1/documents/cfg", content=json.dumps(at_depth),
                     headers=JSON_PATCH).status_code == 200
    size = 2000 - len('{"a":1,"b":[[[[[[[]]]]]]],"x":"","y":""}')
    for key, length in (("x", size // 2), ("y", size - size // 2)):
        fill = [{"op": "add", "path": f"/{key}", "value": key * length}]
        answer = api.patch("/v1/documents/cfg", content=json.dumps(fill), headers=JSON_PATCH)
        assert answer.status_code == 200, answer.text
    assert len(api.get("/v1/documents/cfg").content) == 2000


def test_declared_length_over_limit_is_413_before_reading(api):
    answer = api.put("/v1/documents/cfg", content=b"{}",
                     headers={**JSON, "content-length": "999999999"})
    assert answer.status_code == 413


def test_limits_refuse_nonsense():
    with pytest.raises(ValueError):
        ServiceLimits(max_depth=0)
    with pytest.raises(ValueError):
        ServiceLimits(max_depth=1000)
    with pytest.raises(ValueError):
        ServiceLimits(max_document_bytes=0)
    with pytest.raises(ValueError):
        ServiceLimits(work_limit=-1)
    with pytest.raises(ValueError):
        Limits(max_body=0)


# -- the work budget of one request (issue 16: a 4,000-number reversal took 15 s) ----------
#: Until the alignment takes ``work_limit`` (perf's part of issue 16), the service cannot
#: pass a budget on; the tests below then fail and are expected to (strictly).
BUDGET_LANDED = "work_limit" in inspect.signature(diff_ops).parameters
needs_budget = pytest.mark.xfail(not BUDGET_LANDED, strict=True,
                                 reason="diff_ops has no work_limit yet")
SMALL_BUDGET = 10_000
NUMBERS = list(range(4000))


@pytest.fixture
def budgeted(tmp_path):
    with client_for(tmp_path, service_limits=ServiceLimits(work_limit=SMALL_BUDGET)) as client:
        client.put("/v1/documents/up", content=json.dumps({"l": NUMBERS}), headers=JSON)
        client.put("/v1/documents/down", content=json.dumps({"l": NUMBERS[::-1]}),
                   headers=JSON)
        client.put("/v1/documents/up", content=json.dumps({"l": NUMBERS, "x": 1}),
                   headers=JSON)  # up@2: the head moved on elsewhere
        yield client


def _refused_quickly(call) -> dict:
    started = time.monotonic()
    answer = call()
    elapsed = time.monotonic() - started
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["code"] == "limit exceeded" and str(SMALL_BUDGET) in body["message"], body
    assert elapsed < 3, f"refused only after {elapsed:.1f} s"  # unbounded: about 15 s
    return body


@needs_budget
@pytest.mark.parametrize("stats", ["0", "1"])
def test_a_diff_beyond_the_budget_is_refused_quickly(budgeted, stats):
    _refused_quickly(lambda: budgeted.get(
        "/v1/diff", params={"from": "up@1", "to": "down", "stats": stats}))


@needs_budget
def test_a_rebase_beyond_the_budget_is_refused_quickly_and_writes_nothing(budgeted):
    reverse = json.dumps([{"op": "replace", "path": "/l", "value": NUMBERS[::-1]}])
    _refused_quickly(lambda: budgeted.post("/v1/documents/up/rebase", params={"base": "1"},
                                           content=reverse, headers=JSON_PATCH))
    _refused_quickly(lambda: budgeted.patch("/v1/documents/up", content=reverse,
                                            headers={**JSON_PATCH,
                                                     "Cfgpatch-Rebase-From": "1"}))
    assert budgeted.get("/v1/documents/up/versions").json()["head"] == 2


@needs_budget
def test_work_within_the_budget_is_answered(budgeted):
    budgeted.put("/v1/documents/small", content='{"l":[1,2,3,4]}', headers=JSON)
    budgeted.put("/v1/documents/small", content='{"l":[4,3,2,1]}', headers=JSON)
    answer = budgeted.get("/v1/diff", params={"from": "small@1", "to": "small"})
    assert answer.status_code == 200 and answer.json(), answer.text
    same = budgeted.get("/v1/diff", params={"from": "up@1", "to": "up"})  # equal arrays: free
    assert same.json() == [{"op": "add", "path": "/x", "value": 1}]
    patch = json.dumps([{"op": "replace", "path": "/l/0", "value": -1}])
    answer = budgeted.patch("/v1/documents/up", content=patch,
                            headers={**JSON_PATCH, "Cfgpatch-Rebase-From": "1"})
    assert answer.status_code == 200, answer.text


def test_an_index_of_thousands_of_digits_is_a_422_everywhere(tmp_path):
    """remove, test and copy, a rebase preview and a rebased PATCH: an index past the end
    is path not found, however many digits it has (a conversion used to answer 500)."""
    huge = "1" * 5000
    with client_for(tmp_path) as client:
        client.put("/v1/documents/cfg", content='{"a":[1,2]}', headers=JSON)
        client.put("/v1/documents/cfg", content='{"a":[1,2],"b":0}', headers=JSON)
        for op in ({"op": "remove", "path": f"/a/{huge}"},
                   {"op": "test", "path": f"/a/{huge}", "value": 1},
                   {"op": "copy", "from": f"/a/{huge}", "path": "/c"}):
            body = json.dumps([op])
            for answer in (
                    client.patch("/v1/documents/cfg", content=body, headers=JSON_PATCH),
                    client.patch("/v1/documents/cfg", content=body,
                                 headers={**JSON_PATCH, "cfgpatch-rebase-from": "1"}),
                    client.post("/v1/documents/cfg/rebase?base=1", content=body,
                                headers=JSON_PATCH)):
                assert answer.status_code == 422, answer.text[:200]
                assert answer.json()["error"] == "path not found at op 0"
        assert client.get("/v1/documents/cfg").headers["etag"] == '"2"'
