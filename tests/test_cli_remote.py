"""``cfgpatch remote`` against a real ``cfgpatch serve`` process (SQLite, tokens)."""

from __future__ import annotations

import json
import time

import pytest

from cfgpatch.cli import main
from server_support import ServerProcess

TOKEN = "remote-test-token-0123456789"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("remote")
    tokens = folder / "tokens.json"
    tokens.write_text(json.dumps({"tokens": [
        {"name": "scripts", "token": TOKEN, "read": [""], "write": ["app-"]}]}))
    process = ServerProcess(f"sqlite:///{folder / 'remote.db'}", "--tokens", str(tokens),
                            log=folder / "server.log")
    yield process
    process.stop()


def remote(server, capsys, *args, token=TOKEN):
    code = main(["remote", "--server", server.url, "--token", token, *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, name, value):
    path = tmp_path / name
    path.write_text(json.dumps(value) if not isinstance(value, str) else value)
    return str(path)


def test_put_get_apply_history_diff(server, capsys, tmp_path):
    doc = write(tmp_path, "doc.json", {"a": 1, "b": {"x": 1}})
    assert remote(server, capsys, "put", "app-cfg", doc, "--message", "first") == (0, "1\n", "")
    code, out, _ = remote(server, capsys, "get", "app-cfg")
    assert (code, out) == (0, '{"a":1,"b":{"x":1}}\n')
    patch = write(tmp_path, "p.json", [{"op": "replace", "path": "/b/x", "value": 2}])
    assert remote(server, capsys, "apply", "app-cfg", patch)[:2] == (0, "2\n")
    stale = write(tmp_path, "s.json", [{"op": "replace", "path": "/a", "value": 5}])
    assert remote(server, capsys, "rebase", "app-cfg", stale, "--base", "1")[1] == (
        '[{"op":"replace","path":"/a","value":5}]\n'
    )
    code, _, err = remote(server, capsys, "apply", "app-cfg", stale, "--if-match", "1")
    assert code == 1 and "precondition failed" in err and "HTTP 412" in err
    assert remote(server, capsys, "apply", "app-cfg", stale, "--base", "1")[:2] == (0, "3\n")
    merge = write(tmp_path, "m.json", {"b": None})
    assert remote(server, capsys, "apply", "app-cfg", merge, "--type", "merge")[:2] == (0, "4\n")
    assert remote(server, capsys, "get", "app-cfg")[1] == '{"a":5}\n'
    assert remote(server, capsys, "get", "app-cfg", "--version", "2")[1] == (
        '{"a":1,"b":{"x":2}}\n'
    )
    code, out, _ = remote(server, capsys, "history", "app-cfg")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("version") and len(lines) == 5
    assert lines[1].split("\t")[2:] == ["scripts", "first"]
    code, out, _ = remote(server, capsys, "history", "app-cfg", "--json")
    assert json.loads(out)["head"] == 4
    code, out, _ = remote(server, capsys, "diff", "app-cfg@1", "app-cfg")
    assert json.loads(out) == [{"op": "remove", "path": "/b"},
                               {"op": "replace", "path": "/a", "value": 5}]
    code, out, _ = remote(server, capsys, "diff", "app-cfg@1", "app-cfg@4", "--stats")
    assert json.loads(out)["ops"] == 2


def test_refusals_are_reported_with_code_and_exit_1(server, capsys, tmp_path):
    doc = write(tmp_path, "doc.json", {"a": 1})
    remote(server, capsys, "put", "app-x", doc)
    bad = write(tmp_path, "bad.json", [{"op": "test", "path": "/a", "value": 2}])
    code, out, err = remote(server, capsys, "apply", "app-x", bad)
    assert code == 1 and out == ""
    assert "test failed at op 0" in err and "HTTP 409" in err
    code, _, err = remote(server, capsys, "put", "other", doc)
    assert code == 1 and "forbidden" in err and "HTTP 403" in err
    code, _, err = remote(server, capsys, "get", "app-x", token="wrong-token-0000000000")
    assert code == 1 and "unauthorized" in err
    code, _, err = remote(server, capsys, "get", "app-missing")
    assert code == 1 and "unknown document" in err and "HTTP 404" in err
    code, _, err = remote(server, capsys, "put", "app-x", doc, "--create")
    assert code == 1 and "precondition failed" in err
    broken = write(tmp_path, "broken.json", "{")
    code, _, err = remote(server, capsys, "put", "app-x", broken)
    assert code == 1 and "invalid json" in err


def test_unreachable_server_exits_2(capsys, tmp_path):
    from server_support import free_port

    code = main(["remote", "--server", f"http://127.0.0.1:{free_port()}", "get", "x"])
    _, err = capsys.readouterr()
    assert code == 2 and "cannot reach" in err


def test_unreadable_file_exits_2(server, capsys, tmp_path):
    code, _, err = remote(server, capsys, "put", "app-y", str(tmp_path / "missing.json"))
    assert code == 2 and "cannot read" in err


@pytest.mark.parametrize("words, what", [
    (["put", "app-z", "DOC", "--message", "a\udcffb"], "message is not valid UTF-8 (byte 0xff"),
    (["get", "app-\udcfe"], "name is not valid UTF-8 (byte 0xfe at character 5)"),
])
def test_words_that_are_not_utf8_are_refused_before_any_request(server, capsys, tmp_path,
                                                                words, what):
    # a command line holding bytes that are not UTF-8 reaches Python as lone surrogates
    doc = write(tmp_path, "doc.json", {"a": 1})
    code, _, err = remote(server, capsys, *[doc if w == "DOC" else w for w in words])
    assert code == 2 and what in err
    assert remote(server, capsys, "get", "app-z")[0] == 1  # nothing was written


def test_serve_refuses_public_bind_without_tokens(capsys):
    assert main(["serve", "--host", "0.0.0.0", "--port", "1"]) == 2
    assert "refusing to bind" in capsys.readouterr().err


def test_serve_reports_bad_store_url(capsys):
    assert main(["serve", "--store", "mysql://x", "--port", "1"]) == 2
    assert "unknown store URL" in capsys.readouterr().err


def test_serve_defaults_to_sqlite_in_the_current_folder(tmp_path):
    """`make serve` needs no set-up: ./cfgpatch.db on 127.0.0.1."""
    import subprocess
    import sys

    import httpx

    from server_support import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "cfgpatch", "serve", "--port", str(port),
                             "--log-level", "warning"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(400):
            try:
                if httpx.get(url + "/healthz", timeout=1).json()["store"] == "SQLiteStore":
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        answer = httpx.put(url + "/v1/documents/x", content="{}",
                           headers={"content-type": "application/json"})
        assert answer.status_code == 201
        assert (tmp_path / "cfgpatch.db").is_file()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("sides, what", [
    (["app-a@x", "app-b"], "FROM 'app-a@x': the version after '@' must be a positive integer"),
    (["app-a", "app-b@0"], "TO 'app-b@0': the version after '@' must be a positive integer"),
    (["app-a", "app-b@"], "TO 'app-b@': the version after '@'"),
    (["@3", "app-b"], "FROM '@3' names no document"),
])
def test_diff_sides_are_checked_and_named_as_typed(capsys, sides, what):
    from server_support import free_port

    # nothing listens on the port: the mistake is found before any request is made
    code = main(["remote", "--server", f"http://127.0.0.1:{free_port()}", "diff", *sides])
    _, err = capsys.readouterr()
    assert code == 2 and what in err and "cannot reach" not in err


def test_force_commits_a_write_that_changes_nothing(server, capsys, tmp_path):
    doc = write(tmp_path, "doc.json", {"a": 1})
    assert remote(server, capsys, "put", "app-force", doc)[:2] == (0, "1\n")
    assert remote(server, capsys, "put", "app-force", doc)[:2] == (0, "1\n")
    assert remote(server, capsys, "put", "app-force", doc, "--force")[:2] == (0, "2\n")
    empty = write(tmp_path, "empty.json", [])
    assert remote(server, capsys, "apply", "app-force", empty)[:2] == (0, "2\n")
    assert remote(server, capsys, "apply", "app-force", empty, "--force")[:2] == (0, "3\n")
    code, out, _ = remote(server, capsys, "history", "app-force")
    assert code == 0 and len(out.splitlines()) == 4


def test_delete_restore_and_history_pages(server, capsys, tmp_path):
    for n in range(5):
        remote(server, capsys, "put", "app-life", write(tmp_path, "d.json", {"n": n}))
    code, _, err = remote(server, capsys, "delete", "app-life", "--if-match", "4")
    assert code == 1 and "HTTP 412" in err
    assert remote(server, capsys, "delete", "app-life", "--message", "gone")[:2] == (0, "6\n")
    code, _, err = remote(server, capsys, "get", "app-life")
    assert code == 1 and "HTTP 404" in err
    assert remote(server, capsys, "restore", "app-life", "2")[:2] == (0, "7\n")
    assert remote(server, capsys, "restore", "app-life", "7")[:2] == (0, "7\n")
    assert remote(server, capsys, "restore", "app-life", "7", "--force")[:2] == (0, "8\n")
    assert remote(server, capsys, "get", "app-life")[1] == '{"n":1}\n'
    code, out, _ = remote(server, capsys, "history", "app-life", "--limit", "2", "--after", "4")
    assert code == 0 and [row.split("\t")[0] for row in out.splitlines()[1:]] == ["5", "6"]
    assert out.splitlines()[2].endswith("\tgone")
    code, out, _ = remote(server, capsys, "history", "app-life", "--after", "6", "--json")
    assert [v["version"] for v in json.loads(out)["versions"]] == [7, 8]


def test_get_waits_for_the_next_version(server, capsys, tmp_path):
    import threading
    import urllib.request

    remote(server, capsys, "put", "app-watch", write(tmp_path, "w.json", {"n": 0}))
    assert remote(server, capsys, "get", "app-watch", "--version-only")[:2] == (0, "1\n")

    def later():
        time.sleep(0.8)
        request = urllib.request.Request(
            f"{server.url}/v1/documents/app-watch", data=b'{"n":1}', method="PUT",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"})
        urllib.request.urlopen(request, timeout=10).close()

    writer = threading.Thread(target=later)
    started = time.monotonic()
    writer.start()
    code, out, _ = remote(server, capsys, "get", "app-watch", "--wait", "20")
    writer.join()
    assert (code, out) == (0, '{"n":1}\n') and 0.5 < time.monotonic() - started < 15
    started = time.monotonic()
    code, out, err = remote(server, capsys, "get", "app-watch", "--wait", "1",
                            "--if-none-match", "2", "--version-only")
    assert (code, out) == (3, "") and "still at version 2 within 1 s" in err
    assert time.monotonic() - started >= 0.9
    code, out, _ = remote(server, capsys, "get", "app-watch", "--wait", "5",
                          "--if-none-match", "1", "--version-only")
    assert (code, out) == (0, "2\n")  # a version other than the one known: at once
    assert remote(server, capsys, "get", "app-watch", "--if-none-match", "2")[0] == 3
    code, _, err = remote(server, capsys, "get", "app-watch", "--wait", "1", "--version", "1")
    assert code == 2 and "--wait" in err


def test_retention_is_set_shown_and_run(server, capsys, tmp_path):
    for n in range(40):
        remote(server, capsys, "put", "app-old", write(tmp_path, "o.json", {"n": n}))
    code, out, _ = remote(server, capsys, "retention", "set", "app-old", "--keep-last", "3")
    assert code == 0 and json.loads(out) == {"prefix": "app-old", "keep_last": 3,
                                             "keep_seconds": None}
    assert {"prefix": "app-old", "keep_last": 3, "keep_seconds": None} in json.loads(
        remote(server, capsys, "retention", "show")[1])["policies"]
    code, out, _ = remote(server, capsys, "retention", "run", "--prefix", "app-old")
    assert code == 0 and json.loads(out) == {"removed": {"app-old": 32}, "versions": 32}
    code, out, _ = remote(server, capsys, "history", "app-old", "--json")
    assert json.loads(out)["versions"][0]["version"] == 33
    assert remote(server, capsys, "retention", "set", "app-old")[0] == 0  # removed
    assert "app-old" not in remote(server, capsys, "retention", "show")[1]
