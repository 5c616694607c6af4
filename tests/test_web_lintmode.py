"""web/lintmode.py: the page's lint mode on the Python side (no browser).

The page's findings are ``cfgpatch lint``'s: the report is ``lint_files`` on the same texts
in memory, for every corpus tree, and the views carry the quoted line and the places."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cfgpatch.lint import MemoryFiles, lint_files
from cfgpatch.lint.rules import rule
from cfgpatch.web.lintmode import lint_json, lint_view, read_files, skipped_note

ROOT = Path(__file__).resolve().parents[1]
TREES = ROOT / "tests" / "data" / "lint" / "trees"
EXAMPLE = json.loads((ROOT / "web" / "src" / "lint-example.json").read_text())


def tree_files(root: Path) -> list[dict]:
    return [{"path": p.relative_to(root).as_posix(), "text": p.read_text(encoding="utf-8")}
            for p in sorted(root.rglob("*")) if p.is_file()]


@pytest.mark.parametrize("name", sorted(p.name for p in TREES.iterdir()))
def test_the_report_is_lint_files_on_the_same_texts(name):
    files = tree_files(TREES / name)
    view = json.loads(lint_json(json.dumps(files)))
    expected = lint_files(MemoryFiles({f["path"]: f["text"] for f in files})).to_dict()
    assert view["ok"] and view["report"] == expected
    shown = [f for group in view["files"] for f in group["findings"]]
    assert [(f["file"], f["line"], f["rule"]) for f in shown] == \
        [(f["file"], f["line"], f["rule"]) for f in expected["findings"]]
    for finding in shown:
        text = {f["path"]: f["text"] for f in files}[finding["file"]]
        assert finding["quote"] == text.splitlines()[finding["line"] - 1]
        assert finding["help"] == rule(finding["rule"]).help
        assert finding["place"]["label"] == f"{finding['file']}:{finding['line']}:" \
                                            f"{finding['column']}"
    assert view["tone"] == ("ok" if not expected["findings"] else
                            "failed" if expected["summary"]["error"] else "warning")


def test_the_example_of_the_page_shows_its_four_mistakes():
    view = lint_view(EXAMPLE["files"])
    rules = [f["rule"] for group in view["files"] for f in group["findings"]]
    assert sorted(rules) == ["atomic-list-replaced", "field-set-twice",
                             "index-into-keyed-list", "patch-matches-nothing"]
    assert view["summary"] == ("4 findings (1 error, 3 warnings, 0 notes) in 1 file; "
                               "4 patches checked (2 kustomizations)")
    assert view["files"][0]["counts"] == "1 error, 3 warnings"
    twice = next(f for f in view["files"][0]["findings"] if f["rule"] == "field-set-twice")
    assert twice["related"][0]["label"] == "overlays/prod/replicas.yaml:6:3"


def test_paths_are_normalised_and_mistakes_named_per_file():
    texts, inputs = read_files([{"path": "./a//k.yaml", "text": "x"}, {"path": "a/k.yaml"},
                                {"path": "../up.yaml"}, {"path": ""}, "junk"])
    assert texts == {"a/k.yaml": "x"}
    assert [i["path"] for i in inputs] == ["a/k.yaml", "a/k.yaml", "../up.yaml", "", ""]
    problems = [i["problem"] for i in inputs]
    assert problems[0] is None
    assert problems[1] == "File 1 has the same path; give each file its own."
    assert "leaves the folder" in problems[2]
    assert problems[3] == problems[4] == "Give this file a path (such as base/kustomization.yaml)."
    view = lint_view([{"path": "", "text": "resources: []"}])
    assert not view["ok"] and view["report"] is None
    assert view["verdict"] == "Some files need a path before they can be linted."


def test_a_bad_config_is_placed_at_its_file_line_and_column():
    view = lint_view([{"path": ".cfgpatch.yaml", "text": "lint:\n  colour: red\n"},
                      {"path": "kustomization.yaml", "text": "resources: []\n"}])
    assert not view["ok"]
    assert view["error"] == {"plain": ".cfgpatch.yaml:2:3: unknown key lint.colour (known: "
                                      "include, exclude, default-exclude, disable, severity, "
                                      "schemas, patches, kustomize, flux-sources, "
                                      "flux-other-sources, base)",
                             "file": ".cfgpatch.yaml", "line": 2, "column": 3}
    assert view["verdict"].startswith("The configuration cannot be used: .cfgpatch.yaml:2:3:")


def test_nothing_to_lint_and_no_files_are_said_so():
    view = lint_view([{"path": "notes.yaml", "text": "a: 1\n"}])
    assert view["ok"] and view["tone"] == "pending" and view["summary"] == ""
    assert view["verdict"].startswith("Nothing to lint: no kustomization")
    empty = lint_view([])
    assert empty["tone"] == "pending" and empty["verdict"].startswith("Add the files")


def test_what_the_page_did_not_read_is_worded_here():
    assert skipped_note([]) == ""
    assert skipped_note([{"path": ".git", "reason": "folder"},
                         {"path": "logo.png", "reason": "binary"}]) == (
        "2 entries were not read: .git (a folder cfgpatch lint does not walk), "
        "logo.png (not UTF-8 text).")
    many = skipped_note([{"path": f"f{i}", "reason": "large"} for i in range(10)])
    assert many.endswith("f7 (larger than 1 MB) and 2 more.")
    view = lint_view(EXAMPLE["files"], {"skipped": [{"path": "x.bin", "reason": "binary"}]})
    assert view["skipped"] == "1 entry was not read: x.bin (not UTF-8 text)."


def test_a_broken_message_is_an_internal_error_never_an_exception():
    assert json.loads(lint_json("not json"))["internal"].startswith("internal error")
    assert json.loads(lint_json("{}"))["verdict"].startswith("Add the files")


def test_no_namespace_is_explained_and_the_other_kustomizations_still_linted():
    from cfgpatch.web.lintmode import lint_view

    deploy = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
              "  namespace: prod\nspec:\n  replicas: 1\n")
    patch = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n"
    twice = "resources:\n- deploy.yaml\npatches:\n- path: patch.yaml\n- path: patch.yaml\n"
    files = [
        {"path": "a/kustomization.yaml", "text": "resources:\n- deploy.yaml\npatches:\n- path: patch.yaml\n"},
        {"path": "a/deploy.yaml", "text": deploy},
        {"path": "a/patch.yaml", "text": patch},
        {"path": "b/kustomization.yaml", "text": twice},
        {"path": "b/deploy.yaml", "text": deploy.replace("  namespace: prod\n", "")},
        {"path": "b/patch.yaml", "text": patch},
    ]
    view = lint_view(files)
    failed = [f for g in view["files"] for f in g["findings"] if f["rule"] == "build-failed"]
    assert len(failed) == 1 and "[noNs]" in failed[0]["message"]
    assert "The Deployment `web` in these files is in namespace `prod`" in failed[0]["explain"]
    assert "Add `namespace: prod` to the patch's `metadata`" in failed[0]["explain"]
    others = [f for g in view["files"] for f in g["findings"] if f["rule"] != "build-failed"]
    assert others and others[0]["file"] == "b/patch.yaml"
    assert view["verdict"] == ("A kustomization does not build; the other patches were still "
                               "linted (1 more finding below).")
