"""The page's apply mode, Python side (``cfgpatch.web.applymode``): for the same texts it
shows what ``cfgpatch kube apply`` prints (kubectl's line, the patch, the result, the
explanation, kubectl's warning and errors), on every recorded apply case."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from apply_cli_support import assert_same_refusal, cli_apply
from cfgpatch.kube.io import writer
from cfgpatch.web import bridge

RECORDED = Path(__file__).parent / "data" / "kube" / "apply" / "recorded.jsonl"
CASES = [row for row in map(json.loads, RECORDED.read_text().splitlines())
         if row["how"] == "apply"]


def page(live: str, manifest: str, last: str = "", **options) -> dict:
    data = json.loads(bridge.apply_json(live, manifest, last, json.dumps(options)))
    assert data == json.loads(json.dumps(bridge.compute_apply(live, manifest, last, options)))
    return data


@pytest.mark.parametrize("fmt", ["yaml", "json"])
@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_page_shows_what_the_cli_prints(case, fmt, tmp_path):
    # YAML inputs as kubectl prints them, and the case's JSON as it is
    as_text = writer.dump if fmt == "yaml" else (lambda obj, _fmt: json.dumps(obj))
    live, manifest = as_text(case["live"], "yaml"), as_text(case["manifest"], "yaml")
    overwrite = "--overwrite=false" not in case.get("flags", [])
    cli = cli_apply(tmp_path, live, manifest, fmt=fmt, overwrite=overwrite)
    data = page(live, manifest, format=fmt, overwrite=overwrite)
    assert data["ok"] == (cli["code"] == 0) == (case["code"] == 0)
    if not data["ok"]:
        assert_same_refusal(cli["stderr"], data["error"]["kubectl"])
        assert data["error"]["plain"]
        return
    assert data["line"] == cli["line"] == case["stdout"].strip()
    assert data["patch"]["text"] == cli["patch"]
    assert data["patch"]["content_type"] == (case["content_type"] or data["patch"]
                                             ["content_type"])
    assert "".join(text + "\n" for text, _, _ in data["lines"]) == cli["result"]
    assert [note["text"] for note in data["notes"]] == cli["notes"]
    assert data["warning"] == cli["stderr"].rstrip("\n") == case["stderr"].rstrip("\n")


def test_changed_lines_are_marked():
    case = next(c for c in CASES if c["id"] == "scale-reverted-replicas-in-manifest")
    data = page(json.dumps(case["live"]), json.dumps(case["manifest"]))
    marked = [text for text, mark, _ in data["lines"] if mark]
    assert marked == ["  replicas: 3"]
    assert data["patch"]["text"] == '{"spec":{"replicas":3}}'
    assert [note["code"] for note in data["notes"]] == ["reverted"]


def test_last_applied_editor_replaces_the_annotation(tmp_path):
    case = next(c for c in CASES if c["id"] == "scale-kept-replicas-never-applied")
    live, manifest = json.dumps(case["live"]), json.dumps(case["manifest"])
    last = json.dumps({**case["manifest"], "spec": {**case["manifest"]["spec"], "replicas": 5}})
    data = page(live, manifest, last)
    (tmp_path / "last.json").write_text(last)
    cli = cli_apply(tmp_path, live, manifest, last)
    assert data["patch"]["text"] == cli["patch"] and '"replicas":null' in cli["patch"]
    assert [note["text"] for note in data["notes"]] == cli["notes"]
    assert data["notes"][0]["code"] == "removed"


def test_no_live_object_is_created(tmp_path):
    from apply_cli_support import _parts
    from cfgpatch.cli import main

    manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n"
    data = page("", manifest)
    assert data["ok"] and data["line"] == "configmap/c created"
    (tmp_path / "m.yaml").write_text(manifest)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["kube", "apply", "-f", str(tmp_path / "m.yaml"), "--live", "none"]) == 0
    cli = _parts(out.getvalue())  # cfgpatch kube apply --live none: the same creation
    assert cli["line"] == data["line"] and cli["patch"] is None
    assert "".join(text + "\n" for text, _, _ in data["lines"]) == cli["result"]
    assert '"namespace":"default"' in data["result"]["metadata"]["annotations"][
        "kubectl.kubernetes.io/last-applied-configuration"]
    assert data["patch"]["text"] is None and "creates" in data["patch"]["note"]
    assert all(mark == "~" for _, mark, _ in data["lines"])


def test_unreadable_inputs_are_placed():
    data = page("kind: [unclosed\n", "apiVersion: v1\nkind: ConfigMap\n")
    assert data["ok"] is False
    error = data["inputs"]["live"]
    assert error["line"] == 1 or error["line"] == 2
    assert data["error"]["plain"].startswith("The live object cannot be read: ")
    data = page("", "")
    assert data["inputs"]["manifest"] is not None and data["inputs"]["live"] is None


def test_bad_options_and_internal_errors_do_not_raise():
    assert json.loads(bridge.apply_json("", "kind: X\n", "", "[1]"))["mode"] == "apply"
    assert json.loads(bridge.apply_json("", "kind: X\n", "", "{"))["error"]["plain"].startswith(
        "internal error")


def test_removing_replicas_says_the_server_defaults_it_to_one():
    """The HPA trap: replicas leaves the manifest, kubectl sends null, the server sets 1."""
    import json as _json

    from cfgpatch.web.applymode import compute_apply

    manifest = {"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web", "namespace": "default"},
                "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}}}}
    live = _json.loads(_json.dumps(manifest))
    live["metadata"]["annotations"] = {
        "kubectl.kubernetes.io/last-applied-configuration": _json.dumps(manifest) + "\n"}
    live["spec"]["replicas"] = 7
    del manifest["spec"]["replicas"]
    data = compute_apply(_json.dumps(live), _json.dumps(manifest), "", {})
    assert '"replicas":null' in data["patch"]["text"]
    [note] = [c for c in data["consequences"] if c["code"] == "replicas-defaulted"]
    assert "defaults it to 1" in note["text"] and "(it has 7 now)" in note["text"]
    assert "<the new last-applied configuration, below>" in data["readable"]["text"]
    assert _json.loads(data["readable"]["annotation"])["kind"] == "Deployment"
    assert ["-", "  replicas: 7"] in data["before_after"]
