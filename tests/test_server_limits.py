"""Bad requests get a clear 4xx JSON answer and change nothing."""

from __future__ import annotations

import json

import pytest

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
