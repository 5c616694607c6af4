"""kube preview on generated repositories: every change is found, paired and attributed.

* the ablation test: reverting the hunk a change is attributed to makes that change
  disappear and leaves every other change in place;
* the completeness test: the raw renders of both refs, diffed here independently (leaf
  by leaf), hold no difference the preview does not report;
* hash renames of generated ConfigMaps are pairs, with their referrers.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from cfgpatch.preview.engine import Options, preview
from cfgpatch.preview.render import leaves
from preview_support import EDITS, apply_edits, commit, git, gitops_files, new_repo

yaml = pytest.importorskip("yaml")


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader without its ``=`` value tag (a plain ``=`` is a string)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:value"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def _key(obj: dict) -> tuple:
    name = obj.get("renamed_from", {}).get("name", obj["name"])
    return obj["entry_point"], obj["kind"], name


def _changes(report: dict) -> dict[tuple, dict]:
    out = {}
    for obj in report["objects"]:
        if obj["status"] in ("added", "removed"):
            out[(*_key(obj), obj["status"])] = {"attribution": obj.get("sources", [])}
            continue
        for change in obj["changes"]:
            out[(*_key(obj), change["path"])] = change
    return out


def _places(change: dict) -> list[dict]:
    places = []
    for where in change["attribution"]:
        places += where.get("follows", []) if where["file"].startswith("(") else [where]
    return places


def _revert(root: Path, base: str, place: dict) -> None:
    """Put back base's text of the hunks of ``place``'s file that overlap its lines."""
    file = place["file"]
    old = git(root, "show", f"{base}:{file}").splitlines(keepends=True)
    new = (root / file).read_text().splitlines(keepends=True)
    first, last = place["line"] - 1, place.get("end_line", place["line"])
    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
        overlaps = j1 < last and first < max(j2, j1 + 1) if place["side"] == "head" \
            else i1 < last and first < max(i2, i1 + 1)
        out += old[i1:i2] if tag != "equal" and overlaps else new[j1:j2]
    (root / file).write_text("".join(out))


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    base = new_repo(root, gitops_files())
    apply_edits(root, list(EDITS))
    head = commit(root, "edits")
    return root, base, head


def test_every_change_is_attributed_to_a_line_and_a_commit(repo):
    root, base, head = repo
    report = preview(Options(str(root), base, head))
    assert report["summary"]["errors"] == 0
    changes = _changes(report)
    assert changes
    for key, change in changes.items():
        places = _places(change)
        assert places, key
        assert all(p["line"] > 0 for p in places), key
        assert any(c["sha"] == head for p in places for c in p["commits"]), key


def test_ablation_reverting_the_attributed_hunk_removes_that_change_only(repo):
    root, base, head = repo
    full = _changes(preview(Options(str(root), base, head)))
    checked = 0
    for key, change in full.items():
        places = [p for p in _places(change) if p["side"] == "head"]
        if not places:
            continue
        git(root, "checkout", "-q", head, "--", ".")
        for place in places:
            _revert(root, base, place)
        after = _changes(preview(Options(str(root), base, None)))
        assert key not in after, f"{key} still there after reverting {places}"
        same_hunk = {k for k, c in full.items() if any(
            (p["file"], p["line"]) in {(q["file"], q["line"]) for q in places}
            or _overlap(p, places) for p in _places(c))}
        missing = set(full) - set(after) - same_hunk
        assert not missing, f"reverting {places} also removed {missing}"
        checked += 1
    git(root, "checkout", "-q", head, "--", ".")
    assert checked >= len(EDITS)


def _overlap(place: dict, places: list[dict]) -> bool:
    return any(place["file"] == q["file"] and place["line"] <= q.get("end_line", q["line"])
               and q["line"] <= place.get("end_line", place["line"]) for q in places)


def _docs(text: str) -> dict[tuple, dict]:
    out = {}
    for doc in yaml.load_all(text, Loader=_Loader):  # noqa: S506 - a safe loader
        if isinstance(doc, dict):
            meta = doc.get("metadata") or {}
            out[(doc.get("kind"), meta.get("namespace") or "", meta.get("name"))] = doc
    return out


def test_no_difference_between_the_raw_renders_is_missed(repo):
    root, base, head = repo
    kept: dict = {}
    report = preview(Options(str(root), base, head, keep=kept))
    reported = _changes(report)
    for entry_key, (old, new) in kept.items():
        if entry_key == "plain":
            continue
        before, after = _docs(old.output), _docs(new.output)
        objects = [o for o in report["objects"] if o["entry_point"] == entry_key]
        for ident in set(before) | set(after):
            if ident in before and ident in after and before[ident] == after[ident]:
                continue
            found = [o for o in objects if (o["kind"], o["namespace"], o["name"]) == ident
                     or (o.get("renamed_from") and (o["kind"], o["renamed_from"]["namespace"],
                                                   o["renamed_from"]["name"]) == ident)]
            assert found, f"{entry_key}: {ident} differs but is not in the preview"
            if ident not in before or ident not in after:
                continue
            paths = [c["path"] for o in found for c in o["changes"]]
            a, b = leaves(before[ident]), leaves(after[ident])
            for pointer in set(a) | set(b):
                if a.get(pointer, object()) == b.get(pointer, object()):
                    continue
                assert any(pointer == p or pointer.startswith(p + "/")
                           or _shifted(pointer, p, found) for p in paths), \
                    f"{ident} {pointer} changed but no change covers it"
    assert reported


def _shifted(pointer: str, path: str, found: list[dict]) -> bool:
    """Positions after an inserted or removed list element shift: covered by it."""
    parent = path.rsplit("/", 1)[0]
    return any(c["action"] in ("add", "remove") and c["path"].rsplit("/", 1)[0] == parent
               for o in found for c in o["changes"]) and pointer.startswith(parent + "/")


def test_generated_configmap_with_a_new_hash_is_renamed_with_its_referrers(repo):
    root, base, head = repo
    report = preview(Options(str(root), base, head))
    renamed = [o for o in report["objects"] if o["status"] == "hash-renamed"]
    assert [o["kind"] for o in renamed] == ["ConfigMap"]
    assert renamed[0]["renamed_from"]["name"].startswith("prod-settings-")
    assert renamed[0]["referrers"] == ["Deployment/prod-web"]
    deployment = next(o for o in report["objects"] if o["kind"] == "Deployment")
    ref = next(c for c in deployment["changes"] if c["path"].endswith("configMapRef/name"))
    assert ref["attribution"][0]["via"] == f"ConfigMap/{renamed[0]['name']}"
    followed = {w["file"] for w in ref["attribution"][0]["follows"]}
    assert followed == {"base/kustomization.yaml", "overlays/prod/kustomization.yaml"}


def test_risks_come_with_their_line(repo):
    root, base, head = repo
    report = preview(Options(str(root), base, head))
    rules = {r["rule"] for r in report["risks"]}
    assert {"image", "removed"} <= rules  # the Namespace shop is deleted (store added)
    image = next(r for r in report["risks"] if r["rule"] == "image")
    assert image["message"] == "image nginx:1.26 -> nginx:1.27"
    assert image["file"] == "overlays/prod/kustomization.yaml"


def test_untouched_entry_points_are_not_rendered(tmp_path):
    root = tmp_path / "repo"
    base = new_repo(root, gitops_files())
    apply_edits(root, ["plain"])
    report = preview(Options(str(root), base, None))
    assert [e["path"] for e in report["entry_points"]] == ["plain"]
    assert report["skipped_entry_points"] == ["overlays/prod"]
