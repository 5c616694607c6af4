"""Tests for cfgpatch.web.bridge: what the page computes, against the engine itself.

Every example of the page's menu (web/src/examples.json) is computed through the
bridge and compared, type by type, with the command line's path on the same texts
(``kube.io.reader`` to read, ``kube.patch`` to apply).  No browser is involved.
"""

from __future__ import annotations

import json
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch import kube
from cfgpatch.errors import CfgPatchError
from cfgpatch.jsonvalue import equal
from cfgpatch.kube.io import reader
from cfgpatch.web.bridge import TYPES, compute, compute_json
from cfgpatch.web.printed import printed_lines
from cfgpatch.web.render import differing_paths
from conftest import ROOT

EXAMPLES = json.loads((ROOT / "web" / "src" / "examples.json").read_text())
IDS = [example["id"] for example in EXAMPLES]


def engine(object_text: str, patch_text: str, patch_type: str) -> dict:
    obj, notes = reader.load_object(object_text)
    try:
        body, patch_notes = reader.load_patch(patch_text, patch_type)
        outcome = kube.patch(obj, body, patch_type, notes=notes, patch_notes=patch_notes)
    except CfgPatchError as exc:
        findings = getattr(exc, "findings", None) or ()
        return {"ok": False, "error": exc.describe(), "findings": [f.to_dict() for f in findings]}
    return {"ok": True, "object": outcome.object,
            "changes": [c.to_dict() for c in outcome.changes],
            "findings": [f.to_dict() for f in outcome.findings]}


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_each_type_matches_the_engine(example):
    data = compute(example["object"], example["patch"])
    assert data["inputs"] == {"object": None, "patch": None}
    for patch_type in TYPES:
        expected = engine(example["object"], example["patch"], patch_type)
        got = data["results"][patch_type]
        assert got == expected or (
            got["ok"] and expected["ok"] and equal(got["object"], expected["object"])
            and got["changes"] == expected["changes"] and got["findings"] == expected["findings"]
        ), patch_type
        view = data["views"][patch_type]
        if got["ok"]:
            texts = [text for text, _ in printed_lines(expected["object"], "yaml")]
            assert [line[0] for line in view["lines"]] == texts
            json_view = compute(example["object"], example["patch"], {"format": "json"})
            texts = [text for text, _ in printed_lines(expected["object"], "json")]
            assert [line[0] for line in json_view["views"][patch_type]["lines"]] == texts


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_differences_between_types_are_marked(example):
    data = compute(example["object"], example["patch"])
    ok = [t for t in TYPES if data["results"][t]["ok"]]
    for patch_type in ok:
        expected: set[str] = set()
        for other in ok:
            if other != patch_type:
                expected |= set(differing_paths(data["results"][patch_type]["object"],
                                                data["results"][other]["object"]))
        assert set(data["views"][patch_type]["differs"]) == expected


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_the_kubectl_command_carries_the_patch(example):
    data = compute(example["object"], example["patch"])
    patch_type = example["type"]
    argv = shlex.split(data["views"][patch_type]["command"])
    assert argv[:2] == ["kubectl", "patch"]
    assert f"--type={patch_type}" in argv
    body, _ = reader.load_patch(example["patch"], patch_type)
    assert json.loads(argv[argv.index("-p") + 1]) == body
    assert "--dry-run=server" in shlex.split(data["views"][patch_type]["dry_run"])


def test_merge_patch_example_names_the_lost_container():
    example = next(e for e in EXAMPLES if e["id"] == "merge-one-container")
    merge = compute(example["object"], example["patch"])["results"]["merge"]
    lists = [c for c in merge["changes"] if c["path"] == "/spec/template/spec/containers"]
    assert lists and lists[0]["how"] == "replaced"
    assert [item["name"] for item in lists[0]["lost"]] == ["metrics"]
    strategic = compute(example["object"], example["patch"])["results"]["strategic"]
    names = [c["name"] for c in strategic["object"]["spec"]["template"]["spec"]["containers"]]
    assert names == ["app", "metrics"]


def test_unreadable_object_is_an_input_error_for_every_type():
    data = compute("kind: [unclosed", "{}")
    error = data["inputs"]["object"]
    assert (error["line"], error["column"]) == (1, 16)
    assert error["plain"].startswith("Line 1, column 16: a '[' list that is not closed")
    assert error["kubectl"].startswith("error: error parsing -: error converting YAML")
    for patch_type in TYPES:
        assert data["results"][patch_type]["ok"] is False
        assert "object" in data["results"][patch_type]["error"]
        assert data["views"][patch_type]["error"]["plain"].startswith("The object cannot be read")


def test_unreadable_patch_is_an_input_error():
    data = compute("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", "a: [")
    assert data["inputs"]["object"] is None
    error = data["inputs"]["patch"]
    assert error["line"] == 1 and error["kubectl"].startswith('error: unable to parse "a: ["')
    assert all(not data["results"][t]["ok"] for t in TYPES)


def test_a_patch_one_type_cannot_read_fails_only_that_type():
    data = compute("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n",
                   '[{"op": "add", "path": "/data/x", "value": "y"}]')
    assert data["inputs"]["patch"] is None
    assert data["results"]["json"]["ok"]
    assert data["results"]["json"]["object"]["data"] == {"a": "b", "x": "y"}
    assert not data["results"]["merge"]["ok"] and not data["results"]["strategic"]["ok"]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80), st.text(max_size=80))
def test_any_text_gives_an_answer_never_an_exception(object_text, patch_text):
    data = json.loads(compute_json(object_text, patch_text))
    assert set(data["results"]) == set(TYPES)
    for patch_type in TYPES:
        result = data["results"][patch_type]
        assert "internal error" not in result.get("error", ""), result["error"]
        assert set(result) in ({"ok", "object", "changes", "findings"}, {"ok", "error", "findings"})


def test_compute_json_round_trips():
    example = EXAMPLES[0]
    assert json.loads(compute_json(example["object"], example["patch"])) == json.loads(
        json.dumps(compute(example["object"], example["patch"]))
    )


def test_reading_the_same_object_twice_gives_independent_results():
    example = next(e for e in EXAMPLES if e["id"] == "merge-one-container")
    first = compute(example["object"], example["patch"])
    first["results"]["merge"]["object"]["spec"]["replicas"] = 99  # a caller scribbling
    second = compute(example["object"], example["patch"])
    assert second["results"]["merge"]["object"]["spec"]["replicas"] == 2
    assert second == compute(example["object"], example["patch"])


@pytest.mark.parametrize("example", EXAMPLES, ids=IDS)
def test_the_json_equivalent_gives_the_same_object(example):
    from cfgpatch.jsonpatch import apply_patch

    data = compute(example["object"], example["patch"])
    obj, _ = reader.load_object(example["object"])
    for patch_type in ("strategic", "merge"):
        result, view = data["results"][patch_type], data["views"][patch_type]
        if not result["ok"] or equal(result["object"], obj):
            assert "json_ops" not in view
            continue
        assert equal(apply_patch(obj, view["json_ops"]), result["object"])
        argv = shlex.split(view["json_command"])
        assert "--type=json" in argv
        assert json.loads(argv[argv.index("-p") + 1]) == view["json_ops"]


def test_yaml_notes_say_which_input_they_point_into():
    object_text = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 'x'}\n"
    object_text += "binaryData: {}\nimmutable: yes\n"
    patch_text = "data:\n  b: on\n"
    data = compute(object_text, patch_text)
    for patch_type in ("strategic", "merge"):
        notes = [f for f in data["results"][patch_type]["findings"]
                 if f["code"] == "yaml-type-change"]
        by_path = {f["path"]: f["message"] for f in notes}
        assert set(by_path) == {"/immutable", "/data/b"}, patch_type
        assert by_path["/immutable"].startswith("in the object,")
        assert by_path["/data/b"].startswith("in the patch,")
        assert data["results"][patch_type] == engine(object_text, patch_text, patch_type)


def test_a_rejected_json_patch_names_the_failing_operation_and_its_place():
    obj = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"
    patch = ('[{"op": "add", "path": "/data/x", "value": "y"},\n'
             ' {"op": "remove", "path": "/data/nope"},\n'
             ' {"op": "add", "path": "/data/z", "value": "w"}]')
    view = compute(obj, patch)["views"]["json"]
    error = view["error"]
    assert error["op_index"] == 1
    assert error["plain"].startswith("Operation 1 (remove /data/nope) failed")
    assert "Operation 0 before it was not applied either" in error["plain"]
    assert error["kubectl"].startswith("error: ")
    assert error["place"]["line"] == 2 and error["place"]["column"] == 2
    assert view["verdict"].startswith("Rejected")


def test_results_are_marked_where_changed_and_where_warned():
    example = next(e for e in EXAMPLES if e["id"] == "merge-one-container")
    view = compute(example["object"], example["patch"])["views"]["merge"]
    marks = {text.strip(): mark for text, mark, _ in view["lines"]}
    assert marks["- image: nginx:1.27"] == "~"
    assert marks["containers:"] == "!"  # merge-list-replaced is about the list
    warned = next(f for f in view["findings"] if f["code"] == "merge-list-replaced")
    assert view["lines"][warned["line"]][0].strip() == "containers:"
    assert any(differs for _, _, differs in view["lines"])  # strategic keeps metrics


def test_before_after_shows_removed_lines_only_when_asked():
    example = next(e for e in EXAMPLES if e["id"] == "merge-one-container")
    plain = compute(example["object"], example["patch"])["views"]["merge"]
    assert "before_after" not in plain
    view = compute(example["object"], example["patch"], {"diff": True})["views"]["merge"]
    removed = [text.strip() for sign, text in view["before_after"] if sign == "-"]
    added = [text.strip() for sign, text in view["before_after"] if sign == "+"]
    assert "name: metrics" in removed and "- image: nginx:1.27" in added
    kept = [text for sign, text in view["before_after"] if sign != "-"]
    assert kept == [line[0] for line in view["lines"]]


def test_the_kustomize_view_goes_through_the_engine():
    example = next(e for e in EXAMPLES if e["id"] == "custom-resource")
    data = compute(example["object"], example["patch"], {"kustomize": True})
    view = data["kustomize"]
    obj, _ = reader.load_object(example["object"])
    body, _ = reader.load_patch(example["patch"], "strategic")
    expected = kube.patch(obj, body, "strategic", as_="kustomize")
    assert view["ok"] and equal(view["object"], expected.object)
    assert [f["code"] for f in view["findings"]] == [f.code for f in expected.findings]
    assert "kustomize" not in compute(example["object"], example["patch"])
