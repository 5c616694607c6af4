"""Changes: every changed path, and where each list element landed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.jsonvalue import equal
from cfgpatch.kube.explain.changes import compute_changes
from cfgpatch.kube.schema.rules import ATOMIC_RULE, ListRule, Shapes

C = ("spec", "containers")


class FakeShapes(Shapes):
    def __init__(self, rules: dict) -> None:
        self.rules = rules

    def list_rule(self, shape):
        return self.rules.get(shape)


SHAPES = FakeShapes({C: ListRule("keyed", ("name",)), ("metadata", "finalizers"): ListRule("set"),
                     ("spec", "tolerations"): ATOMIC_RULE})


def obj(*names, **extra):
    return {"spec": {"containers": [{"name": n, "image": f"{n}:1"} for n in names], **extra}}


def dicts(changes):
    return [c.to_dict() for c in changes]


def test_map_add_remove_replace_in_document_order():
    before = {"a": 1, "b": {"x": 1}, "c": 3}
    after = {"a": 2, "b": {"y": 1}, "d": 4}
    assert [c.describe() for c in compute_changes(before, after)] == [
        "/a: 1 -> 2", "/b/x: removed (was 1)", "/b/y: added 1", "/c: removed (was 3)",
        "/d: added 4"]


def test_keyed_list_new_item_first_and_merged_item():
    before = obj("app", "metrics")
    after = obj("side", "app", "metrics")
    after["spec"]["containers"][1]["image"] = "app:2"
    changes = compute_changes(before, after, shapes=SHAPES)
    assert dicts(changes)[0] == {
        "action": "list", "path": "/spec/containers", "how": "merged by key name",
        "landings": [{"action": "inserted", "to": 0, "key": "side"},
                     {"action": "merged", "from": 0, "to": 1, "key": "app"},
                     {"action": "kept", "from": 1, "to": 2, "key": "metrics"}]}
    assert changes[1].describe() == "/spec/containers/1/image: app:1 -> app:2"


def test_keyed_list_removed_element():
    changes = compute_changes(obj("app", "metrics"), obj("app"), shapes=SHAPES)
    assert changes[0].landings[-1].to_dict() == {"action": "removed", "from": 1, "key": "metrics"}
    assert changes[0].describe().endswith("removed metrics from 1)")


def test_merge_type_replaces_wholesale_and_names_lost():
    before = obj("app", "metrics")
    after = {"spec": {"containers": [{"name": "app", "image": "app:2"}]}}
    change = compute_changes(before, after, mode="merge", shapes=SHAPES)[0]
    assert change.how == "replaced"
    assert [c["name"] for c in change.lost] == ["metrics"]
    assert [ld.action for ld in change.landings] == ["changed", "removed"]
    assert "lost metrics" in change.describe()
    assert change.to_dict()["lost"] == [{"name": "metrics", "image": "metrics:1"}]


def test_atomic_list_under_strategic_is_replaced():
    before = {"spec": {"tolerations": [{"key": "k1"}, {"key": "k2"}]}}
    after = {"spec": {"tolerations": [{"key": "k3"}]}}
    change = compute_changes(before, after, shapes=SHAPES)[0]
    assert change.how == "replaced" and len(change.lost) == 2


def test_union_list_by_value():
    before = {"metadata": {"finalizers": ["a", "b"]}}
    after = {"metadata": {"finalizers": ["c", "a", "b"]}}
    change = compute_changes(before, after, shapes=SHAPES)[0]
    assert change.how == "union"
    assert [ld.describe() for ld in change.landings] == ["inserted c at 0", "kept a 0 -> 1",
                                                         "kept b 1 -> 2"]


def test_json_mode_positional_pairs_equal_items_and_changed_ones():
    before = {"l": ["a", {"x": 1}, "c"]}
    after = {"l": ["a", {"x": 2}, "c", "d"]}
    changes = compute_changes(before, after, mode="json")
    assert [ld.action for ld in changes[0].landings] == ["kept", "changed", "kept", "inserted"]
    assert changes[1].describe() == "/l/1/x: 1 -> 2"


def test_multi_key_landing_label():
    shapes = FakeShapes({("p",): ListRule("keyed", ("port", "protocol"))})
    before = {"p": [{"port": 53, "protocol": "TCP"}]}
    after = {"p": [{"port": 53, "protocol": "UDP"}, {"port": 53, "protocol": "TCP"}]}
    change = compute_changes(before, after, shapes=shapes)[0]
    assert change.landings[0].describe() == "inserted 53/UDP at 0"


def test_no_change_no_entries_and_type_exact():
    assert compute_changes({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2}]}) == []
    assert [c.action for c in compute_changes({"a": 1}, {"a": 1.0})] == ["replace"]


values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text("ab", max_size=2),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abc", max_size=2),
                                                                 inner, max_size=4),
    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(values, values, st.sampled_from(["strategic", "merge", "json"]))
def test_property_no_changes_iff_equal_and_landings_cover_both_lists(a, b, mode):
    changes = compute_changes({"v": a}, {"v": b}, mode=mode)
    assert (changes == []) == equal(a, b)
    for change in changes:
        if change.action == "list":
            targets = sorted(ld.target for ld in change.landings if ld.target is not None)
            sources = sorted(ld.source for ld in change.landings if ld.source is not None)
            assert targets == list(range(len(change.after)))
            assert sources == list(range(len(change.before)))


def test_big_lists_are_aligned_without_quadratic_work():
    before = {"l": list(range(3000))}
    after = {"l": list(range(1, 3000)) + ["new"]}
    (change,) = compute_changes(before, after, mode="json")
    actions = [ld.action for ld in change.landings]
    assert actions.count("kept") == 2999 and actions.count("inserted") == 1
    assert change.landings[-1].to_dict() == {"action": "removed", "from": 0}


def test_greedy_alignment_above_the_limit_still_covers_both_lists(monkeypatch):
    import cfgpatch.kube.explain.changes as changes
    monkeypatch.setattr(changes, "LCS_LIMIT", 4)
    before = {"l": ["a", "b", {"x": 1}, "c", "d"]}
    after = {"l": ["b", {"x": 2}, "d", "a"]}
    change = compute_changes(before, after, mode="json")[0]
    assert sorted(ld.source for ld in change.landings if ld.source is not None) == [0, 1, 2, 3, 4]
    assert sorted(ld.target for ld in change.landings if ld.target is not None) == [0, 1, 2, 3]
    assert [ld.action for ld in change.landings].count("kept") >= 1
