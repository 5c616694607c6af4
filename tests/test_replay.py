"""cfgpatch.replay (the round trip of diff_stats) against apply_patch, and diff_stats
(counts, digest, round trip) against the literal reference diff."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adversaries import KINDS, pair
from cfgpatch.diffing import diff_plan, diff_stats, digest, plan_text
from cfgpatch.errors import CfgPatchError
from cfgpatch.jsonpatch import apply_patch
from cfgpatch.jsonvalue import MAX_DEPTH, canonical
from cfgpatch.moves import as_dicts
from cfgpatch.replay import Unreplayable, replay
from cfgpatch.text_cache import TextCache
from reference_diff import reference_diff

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([1.0, 0.5]),
                    st.sampled_from(["a", "b", "~", "/", "x/y~0"]))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5),
                            st.dictionaries(st.sampled_from(["a", "b", "c", "~1", "d/e"]), inner,
                                            max_size=4)),
    max_leaves=25,
)


def literal_stats(a, b) -> dict:
    """diff_stats computed the slow way: the reference patch, its text, apply_patch."""
    ops = reference_diff(a, b)
    counts = {"add": 0, "remove": 0, "replace": 0, "move": 0}
    for op in ops:
        counts[op["op"]] += 1
    try:
        roundtrip = canonical(apply_patch(a, ops)) == canonical(b)
    except CfgPatchError:
        roundtrip = False
    return {"ops": len(ops), **counts, "digest": digest(canonical(ops)), "roundtrip": roundtrip}


def check(a, b) -> None:
    before = canonical(a), canonical(b)
    assert diff_stats(a, b) == literal_stats(a, b)
    cache = TextCache()
    plan = diff_plan(a, b, cache)
    assert plan_text(plan, cache.text) == canonical(reference_diff(a, b))
    assert canonical(replay(a, plan, cache.text)) == before[1]  # the fast path is taken
    assert (canonical(a), canonical(b)) == before  # nothing was changed in place


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, values)
def test_diff_stats_equals_the_literal_reading(a, b):
    check(a, b)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("alphabet", [3, 400])
def test_adversaries_of_objects(kind, alphabet):
    a, b = pair(kind, 120, alphabet, 6, 7)
    as_doc = lambda xs: {"routes": [{"id": x, "tags": [x % 3, "t"]} for x in xs]}  # noqa: E731
    check(as_doc(a), as_doc(b))


def test_values_nested_to_the_limit():
    deep = leaf = []
    for _ in range(MAX_DEPTH - 3):  # {"a": [deep]} nests MAX_DEPTH deep
        leaf.append([])
        leaf = leaf[0]
    check({"a": [1]}, {"a": [deep]})
    check({"a": [deep, 1]}, {"a": [1, deep]})


def random_op(rng: random.Random, doc) -> dict:
    """An operation whose paths mostly exist in ``doc`` (sometimes not, or are malformed)."""
    def path() -> str:
        node, parts = doc, []
        while type(node) in (dict, list) and node and rng.random() < 0.7:
            if type(node) is dict:
                key = rng.choice(sorted(node))
                parts.append(key.replace("~", "~0").replace("/", "~1"))
                node = node[key]
            else:
                index = rng.randrange(len(node) + 1)
                parts.append(str(index))
                node = node[index] if index < len(node) else None
        if rng.random() < 0.15:
            parts.append(rng.choice(["zz", "01", "-", "9", "~2", ""]))
        return "".join("/" + part for part in parts)

    name = rng.choice(["add", "remove", "replace", "move"])
    if name == "move":
        return {"op": "move", "from": path(), "path": path()}
    if name == "remove":
        return {"op": "remove", "path": path()}
    return {"op": name, "path": path(), "value": rng.choice([1, "s", [1, {"k": []}], {"q": 2}])}


def as_plan(ops: list[dict]) -> list:
    return [(op["op"], op["path"], op.get("from") if op["op"] == "move" else op.get("value"),
             None) for op in ops]


def both_texts(doc, ops: list[dict]) -> tuple[str | None, str | None]:
    """Canonical text of ``apply_patch``'s result (``None`` if it fails) and of the
    replay's (``None`` if Unreplayable)."""
    try:
        expected = canonical(apply_patch(doc, ops, share_unchanged=True, trusted=True))
    except CfgPatchError:
        expected = None
    try:
        got = canonical(replay(doc, as_plan(ops), TextCache().text))
    except Unreplayable:
        got = None
    return expected, got


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, st.integers(0, 2**32))
def test_replay_never_succeeds_where_apply_patch_fails(doc, seed):
    rng = random.Random(seed)
    ops, current = [], doc
    for _ in range(rng.randrange(1, 6)):
        ops.append(random_op(rng, current))
        try:
            current = apply_patch(doc, ops)
        except CfgPatchError:
            break
    before = canonical(doc)
    expected, got = both_texts(doc, ops)
    if got is None:  # Unreplayable
        assert expected is None or any(
            op["path"].endswith("/-") for op in ops)  # "-": left to apply_patch on purpose
    assert got is None or got == expected
    assert canonical(doc) == before


def test_plan_as_dicts_keeps_the_key_order():
    plan = [("remove", "/a", None, None), ("move", "/b", "/c", None), ("add", "/d", 1, "/d")]
    assert [list(op) for op in as_dicts(plan)] == [
        ["op", "path"], ["op", "from", "path"], ["op", "path", "value"]]


def list_runs(rng: random.Random, size: int) -> list:
    """Operations on the list ``/l`` that come in runs, as a diff writes them:
    removes of one place repeated, adds at consecutive places (sometimes out of
    range, or broken by another operation)."""
    ops: list[dict] = []
    for _ in range(rng.randrange(1, 5)):
        start = rng.randrange(size + 3)
        count = rng.randrange(1, 5)
        if rng.random() < 0.5:
            ops += [{"op": "remove", "path": f"/l/{start}"}] * count
        else:
            value = rng.choice([7, "s", [1, [2]], {"k": {}}])
            ops += [{"op": "add", "path": f"/l/{start + q}", "value": value}
                    for q in range(count)]
        if rng.random() < 0.3:
            ops.append({"op": "replace", "path": f"/l/{rng.randrange(size + 1)}", "value": 0})
        size = max(0, size - count) if ops[-1]["op"] == "remove" else size + count
    return ops


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=8), st.integers(0, 2**32))
def test_runs_in_a_list_replay_as_apply_patch_does(items, seed):
    rng = random.Random(seed)
    doc = {"l": items, "other": [1]}
    ops = list_runs(rng, len(items))
    expected, got = both_texts(doc, ops)
    assert got == expected
    assert doc == {"l": items, "other": [1]}


def test_a_run_of_adds_too_deep_is_left_to_apply_patch():
    deep = leaf = []
    for _ in range(MAX_DEPTH - 2):  # deep nests MAX_DEPTH - 1 levels: too deep at /l/k
        leaf.append([])
        leaf = leaf[0]
    ops = [{"op": "add", "path": "/l/0", "value": 1}, {"op": "add", "path": "/l/1", "value": 2},
           {"op": "add", "path": "/l/2", "value": deep}]
    with pytest.raises(CfgPatchError):
        apply_patch({"l": []}, ops)
    with pytest.raises(Unreplayable):
        replay({"l": []}, as_plan(ops), TextCache().text)


@pytest.mark.parametrize("ops", [
    [{"op": "replace", "path": "/r/0/a", "value": 1}, {"op": "replace", "path": "/r/1/a", "value": 2},
     {"op": "add", "path": "/r/2/b", "value": 3}, {"op": "remove", "path": "/r/1/a"}],
    [{"op": "add", "path": "/o/x~1y/k", "value": 1}, {"op": "add", "path": "/o/~0/k", "value": 2},
     {"op": "remove", "path": "/o/x~1y/k"}],
    [{"op": "replace", "path": "/r/0/a", "value": 1}, {"op": "add", "path": "/r/9/a", "value": 2}],
    [{"op": "replace", "path": "/r/0/a", "value": 1}, {"op": "add", "path": "/r/01/a", "value": 2}],
    [{"op": "add", "path": "/o/~0/k", "value": 1}, {"op": "add", "path": "/o/~2/k", "value": 2}],
    [{"op": "add", "path": "/o/~0/k", "value": 1}, {"op": "add", "path": "/o/nope/k", "value": 2}],
])
def test_siblings_of_the_last_parent_replay_as_apply_patch_does(ops):
    """Consecutive operations in sibling containers (the walk steps across, not from the
    root), escaped keys, missing siblings and bad indices included."""
    doc = {"r": [{"a": 0}, {"a": 0}, {"a": 0}], "o": {"x/y": {}, "~": {"k": 0}}}
    before = canonical(doc)
    expected, got = both_texts(doc, ops)
    assert got == expected
    assert canonical(doc) == before
