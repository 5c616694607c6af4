"""Bearer tokens: parsing the token file, 401/403 answers, authors recorded."""

from __future__ import annotations

import hashlib
import json

import pytest

from cfgpatch.server import parse_tokens
from server_support import JSON, JSON_PATCH, client_for

DEPLOY = "deploy-secret-0123456789"
READER = "reader-secret-0123456789"
TOKENS = json.dumps({"tokens": [
    {"name": "deployer", "token": DEPLOY, "read": [], "write": ["team-a-"]},
    {"name": "auditor", "sha256": hashlib.sha256(READER.encode()).hexdigest(),
     "read": [""], "write": []},
]})


def bearer(secret):
    return {"authorization": f"Bearer {secret}"}


@pytest.fixture
def api(tmp_path):
    with client_for(tmp_path, tokens=TOKENS) as client:
        yield client


def test_writes_record_the_token_name(api):
    answer = api.put("/v1/documents/team-a-cfg", content='{"a":1}',
                     headers={**JSON, **bearer(DEPLOY)}, params={"message": "first"})
    assert answer.status_code == 201
    history = api.get("/v1/documents/team-a-cfg/versions", headers=bearer(READER)).json()
    assert history["versions"][0]["author"] == "deployer"
    assert history["versions"][0]["message"] == "first"


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer wrong-token-000000000", "Basic x",
                                    f"Token {DEPLOY}"])
def test_missing_or_bad_token_is_401(api, header):
    headers = {**JSON, **({"authorization": header} if header else {})}
    answer = api.put("/v1/documents/team-a-cfg", content="{}", headers=headers)
    assert answer.status_code == 401
    assert answer.json()["code"] == "unauthorized"
    assert answer.headers["www-authenticate"].startswith("Bearer")
    assert api.get("/v1/documents/team-a-cfg", headers=headers).status_code == 401


def test_prefixes_limit_reads_and_writes(api):
    api.put("/v1/documents/team-a-cfg", content="{}", headers={**JSON, **bearer(DEPLOY)})
    other = api.put("/v1/documents/team-b-cfg", content="{}", headers={**JSON, **bearer(DEPLOY)})
    assert other.status_code == 403 and other.json()["code"] == "forbidden"
    by_reader = api.patch("/v1/documents/team-a-cfg", content="[]",
                          headers={**JSON_PATCH, **bearer(READER)})
    assert by_reader.status_code == 403
    assert api.get("/v1/documents/team-a-cfg", headers=bearer(DEPLOY)).status_code == 200
    assert api.get("/v1/documents/team-a-cfg", headers=bearer(READER)).status_code == 200
    listing = api.get("/v1/documents", headers=bearer(DEPLOY)).json()
    assert listing == {"documents": ["team-a-cfg"]}
    diff = api.get("/v1/diff", params={"from": "team-a-cfg", "to": "team-b-cfg"},
                   headers=bearer(DEPLOY))
    assert diff.status_code == 403
    assert api.get("/v1/documents/team-a-cfg/versions", headers=bearer(READER)).json()["head"] == 1


def test_public_endpoints_need_no_token(api):
    assert api.get("/healthz").status_code == 200
    assert api.get("/v1/openapi.json").status_code == 200


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("not json", "not JSON"),
        ('{"tokens": []}', "at least one"),
        ('{"tokens": [{"token": "0123456789abcdef"}]}', "'name'"),
        ('{"tokens": [{"name": "a", "token": "short"}]}', "16 characters"),
        ('{"tokens": [{"name": "a"}]}', "exactly one"),
        ('{"tokens": [{"name": "a\\u0000", "token": "0123456789abcdef"}]}', "printable"),
        ('{"tokens": [{"name": "a", "sha256": "zz"}]}', "64 lower-case hex"),
        ('{"tokens": [{"name": "a", "token": "0123456789abcdef", "read": "x"}]}', "list"),
        ('{"tokens": [{"name": "a", "token": "0123456789abcdef"},'
         ' {"name": "a", "token": "0123456789abcdeg"}]}', "repeats"),
    ],
)
def test_bad_token_files_are_refused(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        parse_tokens(text)


@pytest.mark.parametrize(("prefix", "name", "granted"), [
    ("", "anything", True),
    ("team", "team", True), ("team", "team-a", True), ("team", "team.cfg", True),
    ("team", "team_x", True), ("team", "teammate", False), ("team", "tea", False),
    ("team-", "team-a", True), ("team-", "team-", True), ("team-", "team", False),
    ("team-", "teammate", False),
    ("team-a", "team-a", True), ("team-a", "team-a-gw", True), ("team-a", "team-ab", False),
    ("team-a-", "team-a-gw", True), ("team-a-", "team-a", False),
    ("Team", "team", False),
])
def test_prefixes_stop_at_separators(prefix, name, granted):
    from cfgpatch.server.auth import prefix_grants

    assert prefix_grants(prefix, name) is granted


def test_team_does_not_reach_teammate(tmp_path):
    secret = "team-token-0123456789"
    tokens = json.dumps({"tokens": [{"name": "t", "token": secret, "write": ["team"]}]})
    with client_for(tmp_path, tokens=tokens) as api:
        ok = api.put("/v1/documents/team-gw", content="{}", headers={**JSON, **bearer(secret)})
        mate = api.put("/v1/documents/teammate", content="{}",
                       headers={**JSON, **bearer(secret)})
        assert (ok.status_code, mate.status_code) == (201, 403)


def test_prefixes_that_can_never_match_are_warned_about(tmp_path, capsys):
    text = json.dumps({"tokens": [{"name": "a", "token": "0123456789abcdef",
                                   "read": ["team-a/", "ok-", ""], "write": ["-x", "é"]}]})
    table = parse_tokens(text)
    assert len(table.warnings) == 3
    assert "'team-a/'" in table.warnings[0] and "grants nothing" in table.warnings[0]
    assert parse_tokens(TOKENS).warnings == ()
    from cfgpatch.cli import main

    path = tmp_path / "tokens.json"
    path.write_text(text)
    assert main(["serve", "--tokens", str(path), "--store", "mysql://x", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "warning" in err and "'team-a/'" in err
