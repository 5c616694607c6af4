"""Tests for cfgpatch.web.wording: the page's sentences about changes and rejections."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.kube import patch
from cfgpatch.web.rejections import rejection
from cfgpatch.web.wording import brief, change_entries, verdict

POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {
    "containers": [{"name": "app", "image": "a:1", "args": ["--x", "--y"]},
                   {"name": "side", "image": "s:1"}],
    "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "web",
                     "effect": "NoSchedule"}, {"key": "spot", "operator": "Exists"}]}}


def _texts(entries: list[dict]) -> list[str]:
    out = []
    for entry in entries:
        out.append(f"{entry['symbol']} {entry['path']} {entry['text']}")
        out += [f"    {item['symbol']} {item['text']}" for item in entry.get("items", ())]
    return out


def test_a_list_without_a_key_is_compared_as_values_without_contradictions():
    body = {"spec": {"tolerations": [{"key": "gpu", "operator": "Exists"},
                                     {"key": "spot", "operator": "Exists"}]}}
    entries = change_entries(patch(POD, body, "strategic").changes)
    assert len(entries) == 1, _texts(entries)  # no position-by-position sub-changes
    entry = entries[0]
    assert entry["path"] == "/spec/tolerations" and "replaced wholesale" in entry["text"]
    items = [item["text"] for item in entry["items"]]
    assert items == [
        'removed {"effect":"NoSchedule","key":"dedicated","operator":"Equal","value":"web"}',
        'inserted {"key":"gpu","operator":"Exists"}', "1 element kept as it was"]
    assert not any("changed" in text or "0 \u2192 0" in text for text in _texts(entries))


def test_a_keyed_list_replaced_by_a_merge_patch_names_what_is_lost():
    body = {"spec": {"containers": [{"name": "app", "image": "a:2"}]}}
    entries = change_entries(patch(POD, body, "merge").changes)
    texts = _texts(entries)
    assert texts[0].startswith("~ /spec/containers list replaced wholesale")
    assert any(text.endswith("lost: side") for text in texts)
    assert any("app restated with changes" in text for text in texts)
    assert "\u2212 /spec/containers/0/args removed (was [\"--x\",\"--y\"])" in texts


def test_a_keyed_merge_says_where_each_element_landed():
    body = {"spec": {"containers": [{"name": "new", "image": "n:1"}]}}
    texts = _texts(change_entries(patch(POD, body, "strategic").changes))
    assert texts[0] == "~ /spec/containers list merged by key name"
    assert "    + inserted new at 0" in texts
    assert "    = kept app: moved 0 \u2192 1" in texts


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=6)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=6), max_leaves=30),
       st.integers(10, 120))
def test_brief_never_cuts_inside_a_token(value, limit):
    text = brief(value, limit)
    if "\u2026" not in text:
        assert json.loads(text) == value
    elif isinstance(value, (dict, list)):
        head = text[: text.index(", \u2026")]
        closing = "}" if isinstance(value, dict) else "]"
        kept = json.loads(head + closing)  # whole members only
        assert len(kept) < len(value)
        if isinstance(value, dict):
            assert all(value[key] == item for key, item in kept.items())
        else:
            assert kept == value[: len(kept)]
    else:
        assert isinstance(value, str) and text.endswith('\u2026"')


def test_verdicts_and_rejections():
    assert verdict({"ok": True, "changes": [1]}) == "Accepted: 1 change (kubectl would exit 0)."
    assert verdict({"ok": True, "changes": []}).startswith("Accepted: the object is unchanged")
    said = rejection("testing value /a failed: test failed",
                     "the value at that path differs from the test value, so nothing was applied",
                     2, {"op": "test", "path": "/a"}, 3)
    assert said["plain"] == ("Operation 2 (test /a) failed: the value at that path differs from "
                             "the test value. Operations 0 to 1 before it were not applied "
                             "either: a JSON patch is applied completely or not at all.")
    assert said["kubectl"] == "error: testing value /a failed: test failed"
    assert rejection("boom", None)["plain"] == "Boom."


def test_verdict_says_what_a_merge_patch_loses():
    """A merge patch restating one container: the verdict names the lost one."""
    from cfgpatch.web import bridge

    obj = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n"
           "    spec:\n      containers:\n      - name: app\n        image: a:1\n"
           "      - name: metrics\n        image: m:1\n")
    patch = '{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"a:2"}]}}}}'
    data = bridge.compute(obj, patch)
    merge, strategic = data["views"]["merge"], data["views"]["strategic"]
    assert merge["verdict"] == ("Accepted: 2 changes, and container `metrics` is gone "
                                "(kubectl would exit 0).")
    assert merge["losses"] == ["container `metrics`"]
    assert strategic["losses"] == [] and "gone" not in strategic["verdict"]


def test_json_patch_lists_are_by_position_never_merged_by_key():
    from cfgpatch.web import bridge

    obj = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
           "  - name: app\n    image: a:1\n")
    data = bridge.compute(obj, '[{"op":"replace","path":"/spec/containers/0/image","value":"b"}]')
    texts = json.dumps(data["views"]["json"]["changes"])
    assert "merged by key" not in texts and "by position" in texts


def test_index_past_the_end_says_how_many_elements():
    from cfgpatch.web import bridge

    obj = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
           "  - name: app\n    image: a:1\n  - name: b\n    image: b:1\n")
    data = bridge.compute(obj, '[{"op":"add","path":"/spec/containers/5/image","value":"x"}]')
    plain = data["views"]["json"]["error"]["plain"]
    assert "`spec.containers` has 2 elements (positions 0 to 1), so position 5 is past" in plain
    assert "~1" not in plain
    data = bridge.compute(obj, '[{"op":"add","path":"/spec/containers/3","value":{}}]')
    assert "add at 2 appends" in data["views"]["json"]["error"]["plain"]
    data = bridge.compute(obj, '[{"op":"add","path":"/spec/containers/2","value":{"name":"c"}}]')
    assert data["results"]["json"]["ok"]
