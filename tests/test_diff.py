"""cfgpatch.diff: the contract's worked examples, the literal reference as oracle,
round trips, tie-break adversaries, depth 256 and hash-seed determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cfgpatch import run
from cfgpatch.diffing import diff, digest, patch_text
from cfgpatch.fixtures import SplitMix64
from cfgpatch.jsonpatch import apply_patch
from cfgpatch.jsonvalue import MAX_DEPTH, canonical, deep_copy
from cfgpatch.lcs import align
from reference_diff import align as reference_align
from reference_diff import reference_diff

ROOT = Path(__file__).resolve().parent.parent


def text_of_diff(a, b) -> str:
    return patch_text(diff(a, b))


def check_against_reference(a, b) -> str:
    """Byte identity with the reference, the round trip, and untouched inputs."""
    before = (canonical(a), canonical(b))
    got = text_of_diff(a, b)
    assert got == canonical(reference_diff(a, b))
    assert canonical(apply_patch(a, json.loads(got))) == before[1]
    assert (canonical(a), canonical(b)) == before
    return got


# -- worked examples of Parts 2 and 3 (verbatim outputs) ----------------------------


def test_part2_worked_example():
    a = {"name": "edge", "ttl": 30, "tags": ["a"], "old": True}
    b = {"name": "edge", "ttl": 60, "tags": ["a", "b"], "region": "eu"}
    assert text_of_diff(a, b) == (
        '[{"op":"remove","path":"/old"},'
        '{"op":"add","path":"/region","value":"eu"},'
        '{"op":"add","path":"/tags/1","value":"b"},'
        '{"op":"replace","path":"/ttl","value":60}]'
    )


def test_suffix_is_matched_before_the_middle():
    assert text_of_diff(["p", "x"], ["x", "x"]) == '[{"op":"replace","path":"/0","value":"x"}]'
    assert text_of_diff(["a"], ["a", "a"]) == '[{"op":"add","path":"/1","value":"a"}]'


def test_paired_gap_elements_are_diffed_recursively():
    assert text_of_diff([{"a": 1}], [{"a": 2}]) == '[{"op":"replace","path":"/0/a","value":2}]'


def test_part3_object_move():
    a = {"db": {"host": "h", "port": 5432}, "app": {"name": "x"}}
    b = {"app": {"name": "x"}, "database": {"host": "h", "port": 5432}}
    assert text_of_diff(a, b) == '[{"from":"/db","op":"move","path":"/database"}]'


def test_part3_array_rotation_is_one_move():
    x, y, z = {"x": 1}, {"y": 1}, {"z": 1}
    assert text_of_diff([x, y, z], [y, z, x]) == '[{"from":"/0","op":"move","path":"/2"}]'


def test_part3_insert_between_blocks_the_move():
    x, y, z, new = {"x": 1}, {"y": 1}, {"z": 1}, {"n": 1}
    got = json.loads(text_of_diff([x, y, z], [y, new, z, x]))
    assert got == reference_diff([x, y, z], [y, new, z, x]) == [
        {"op": "remove", "path": "/0"}, {"op": "add", "path": "/1", "value": new},
        {"op": "add", "path": "/3", "value": x}]


def test_part3_rebase_worked_example():
    ops = [
        ["put", "cfg", '{"a":1,"b":{"x":1},"l":[1]}'],
        ["apply", "cfg", '[{"op":"replace","path":"/b/x","value":2}]'],
        ["rebase", "cfg", '[{"op":"replace","path":"/a","value":5},'
                          '{"op":"add","path":"/c","value":{"k":1}}]', 1],
        ["apply", "cfg", '[{"op":"replace","path":"/a","value":5},'
                         '{"op":"add","path":"/c","value":{"k":1}}]', 1],
        ["get", "cfg"],
        ["rebase", "cfg", '[{"op":"replace","path":"/b/x","value":3}]', 1],
    ]
    assert run(ops) == [
        1,
        2,
        '[{"op":"replace","path":"/a","value":5},{"op":"add","path":"/c","value":{"k":1}}]',
        3,
        '{"a":5,"b":{"x":2},"c":{"k":1},"l":[1]}',
        "error: conflict at /b/x",
    ]


# -- individual rules --------------------------------------------------------------


def test_equal_documents_give_an_empty_patch():
    doc = {"a": [1, {"b": None}], "c": 1.0}
    assert diff(doc, deep_copy(doc)) == []


def test_top_level_replace_uses_the_empty_pointer():
    assert diff(1, "1") == [{"op": "replace", "path": "", "value": "1"}]
    assert diff([1], {"0": 1}) == [{"op": "replace", "path": "", "value": {"0": 1}}]


@pytest.mark.parametrize(
    ("x", "y"), [(1, 1.0), (1, True), (0, False), (1.0, True), (None, False), ("1", 1)]
)
def test_number_kinds_and_types_differ(x, y):
    assert diff({"v": x}, {"v": y}) == [{"op": "replace", "path": "/v", "value": y}]
    assert diff([x], [y]) == [{"op": "replace", "path": "/0", "value": y}]


def test_key_order_does_not_matter():
    assert diff({"a": 1, "b": [{"x": 1, "y": 2}]}, {"b": [{"y": 2, "x": 1}], "a": 1}) == []


def test_keys_are_escaped_and_sorted_by_python_order():
    got = diff({"a/b": 1, "~": 1, "B": 1}, {"a/b": 2, "~": 2, "B": 2})
    assert [op["path"] for op in got] == ["/B", "/a~1b", "/~0"]


def test_removals_come_first_and_repeat_the_survivor_index():
    got = diff(["k", 1, 2, 3, "k2"], ["k", "k2", "x"])
    assert got == [
        {"op": "remove", "path": "/1"},
        {"op": "remove", "path": "/1"},
        {"op": "remove", "path": "/1"},
        {"op": "add", "path": "/2", "value": "x"},
    ]


def test_pair_uses_survivor_index_in_phase_one_and_b_position_in_phase_two():
    a = ["gone", {"k": 1, "old": 1}]
    b = ["new", "new2", {"k": 2}]
    got = diff(a, b)
    assert got == reference_diff(a, b)
    assert canonical(apply_patch(a, got)) == canonical(b)


def test_append_uses_a_number_never_dash():
    got = diff([1], [1, 2, 3])
    assert [op["path"] for op in got] == ["/1", "/2"]


def test_result_values_are_independent_copies():
    b = {"x": {"deep": [1]}}
    got = diff({}, b)
    got[0]["value"]["deep"].append(2)
    assert b == {"x": {"deep": [1]}}


# -- the alignment: fast walk vs the quadratic table -------------------------------


def pairs(runs):
    return [(i + k, j + k) for i, j, length in runs for k in range(length)]


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.integers(0, 3), max_size=14),
    st.lists(st.integers(0, 3), max_size=14),
)
def test_alignment_equals_the_quadratic_table(a, b):
    assert pairs(align(a, b)) == reference_align(a, b)


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.integers(0, 9), max_size=16),
    st.lists(st.integers(0, 9), max_size=16),
    st.integers(0, 3),
)
def test_alignment_with_one_sided_elements_set_aside(a, b, threshold):
    # With a low threshold the walk sets aside elements found on one side only
    # (the path taken for very different arrays); the answer must not change.
    import cfgpatch.lcs as lcs

    saved = lcs.COMPRESS_AFTER
    lcs.COMPRESS_AFTER = threshold
    try:
        assert pairs(align(a, b)) == reference_align(a, b)
    finally:
        lcs.COMPRESS_AFTER = saved


def test_unrelated_generated_tables_match_the_reference():
    from cfgpatch.fixtures import generate

    a = generate({"n": 300, "seed": 1})
    b = generate({"n": 250, "seed": 2})
    check_against_reference(a, b)
    check_against_reference({"r": a["routes"][:100] + b["routes"]}, {"r": b["routes"][::-1]})


ADVERSARIAL = {
    "all equal": ([7] * 40, [7] * 37),
    "alternating": ([1, 2] * 20, [2, 1] * 21),
    "single change in a run": ([5] * 30 + [6] + [5] * 30, [5] * 61),
    "reversed": (list(range(30)), list(range(29, -1, -1))),
    "shifted": (list(range(20)) * 2, list(range(1, 20)) * 2),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_alignment_adversaries(name):
    a, b = ADVERSARIAL[name]
    assert pairs(align(a, b)) == reference_align(a, b)
    assert pairs(align(b, a)) == reference_align(b, a)


BIG_ADVERSARIES = {
    "all equal, one changed": ([{"r": 1}] * 1500, [{"r": 1}] * 700 + [{"r": 2}] + [{"r": 1}] * 799),
    "alternating, shifted": ([{"a": 1}, {"b": 1}] * 600, [{"b": 1}, {"a": 1}] * 600),
    "key order only": ([{"a": 1, "b": [1, 2]}] * 50, [{"b": [1, 2], "a": 1}] * 50),
    "kinds in a long run": ([1] * 400 + [1.0] + [1] * 400, [1] * 400 + [True] + [1] * 400),
}


@pytest.mark.parametrize("name", sorted(BIG_ADVERSARIES))
def test_big_adversaries_match_the_reference(name):
    a, b = BIG_ADVERSARIES[name]
    check_against_reference(a, b)
    check_against_reference(b, a)
    check_against_reference(a[::-1], b)


KIND_ADVERSARIES = [
    ([1, 1.0, True] * 5, [True, 1, 1.0] * 5),
    ([{"a": 1, "b": 2}, {"a": 1.0, "b": 2}] * 4, [{"b": 2, "a": 1.0}, {"b": 2, "a": True}] * 4),
    ([[1], [1.0], [True], [1]], [[True], [1], [1.0]]),
    ([{"r": [1, {"x": 0}]}] * 6 + [{"r": [1, {"x": 0.0}]}], [{"r": [1, {"x": 0.0}]}] * 3),
]


@pytest.mark.parametrize("case", range(len(KIND_ADVERSARIES)))
def test_kind_adversaries_match_the_reference(case):
    a, b = KIND_ADVERSARIES[case]
    check_against_reference(a, b)
    check_against_reference(b, a)


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_documents_match_the_reference(name):
    a, b = ADVERSARIAL[name]
    wrap = [{"v": v, "k": [v]} for v in a], [{"v": v, "k": [v]} for v in b]
    check_against_reference(*wrap)
    check_against_reference(wrap[1], wrap[0])


# -- random documents: byte identity with the reference and the round trip ---------

SCALARS = st.sampled_from([0, 1, 1.0, True, False, None, "", "a", "b", "~/", "é", 2, 2.5])
KEYS = st.sampled_from(["a", "b", "c", "a/b", "~1", ""])
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=24,
)


@st.composite
def similar(draw, value, depth=0):
    """A value derived from ``value`` by a few edits (so diffs stay small and interesting)."""
    if depth > 4 or draw(st.integers(0, 9)) == 0:
        return draw(VALUES) if draw(st.booleans()) else value
    if type(value) is list:
        out = [draw(similar(v, depth + 1)) if draw(st.integers(0, 3)) == 0 else v for v in value]
        for _ in range(draw(st.integers(0, 3))):
            kind = draw(st.integers(0, 3))
            if kind == 0 and out:
                out.pop(draw(st.integers(0, len(out) - 1)))
            elif kind == 1:
                pick = draw(st.sampled_from(out)) if out and draw(st.booleans()) else draw(VALUES)
                out.insert(draw(st.integers(0, len(out))), pick)
            elif kind == 2 and out:
                item = out.pop(draw(st.integers(0, len(out) - 1)))
                out.insert(draw(st.integers(0, len(out))), item)
            elif kind == 3 and len(out) > 1:
                out.reverse()
        return out
    if type(value) is dict:
        out = {k: draw(similar(v, depth + 1)) if draw(st.booleans()) else v
               for k, v in value.items()}
        if draw(st.booleans()):
            out[draw(KEYS)] = draw(VALUES)
        if out and draw(st.booleans()):
            out.pop(draw(st.sampled_from(sorted(out))))
        if out and draw(st.integers(0, 3)) == 0:  # rename a key: a move candidate
            old = draw(st.sampled_from(sorted(out)))
            out[draw(KEYS)] = out.pop(old)
        return out
    return value


@st.composite
def document_pairs(draw):
    a = draw(VALUES)
    b = draw(similar(a)) if draw(st.integers(0, 4)) else draw(VALUES)
    return a, b


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document_pairs())
def test_random_pairs_match_the_reference_byte_for_byte(pair):
    check_against_reference(*pair)


def _random_value(rng: SplitMix64, depth: int = 0):
    roll = rng.below(10)
    if depth > 3 or roll < 4:
        return rng.pick(PLAIN_SCALARS)
    if roll < 7:
        return [_random_value(rng, depth + 1) for _ in range(rng.below(7))]
    return {rng.pick(PLAIN_KEYS): _random_value(rng, depth + 1) for _ in range(rng.below(5))}


def _random_edit(value, rng: SplitMix64, depth: int = 0):
    if rng.below(8) == 0:
        return _random_value(rng, depth)
    if type(value) is list:
        out = [_random_edit(v, rng, depth + 1) if rng.below(3) == 0 else v for v in value]
        for _ in range(rng.below(4)):
            kind = rng.below(4)
            if kind == 0 and out:
                del out[rng.below(len(out))]
            elif kind == 1:
                item = rng.pick(out) if out and rng.below(2) else _random_value(rng, depth + 1)
                out.insert(rng.below(len(out) + 1), item)
            elif kind == 2 and out:
                item = out.pop(rng.below(len(out)))
                out.insert(rng.below(len(out) + 1), item)
        return out
    if type(value) is dict:
        out = {k: _random_edit(v, rng, depth + 1) for k, v in value.items()}
        if rng.below(2):
            out[rng.pick(PLAIN_KEYS)] = _random_value(rng, depth + 1)
        if out and rng.below(3) == 0:
            out[rng.pick(PLAIN_KEYS)] = out.pop(rng.pick(sorted(out)))
        return out
    return value


PLAIN_SCALARS = (0, 1, 1.0, True, False, None, "", "a", "b", "~/", 2, 0.5)
PLAIN_KEYS = ("a", "b", "c", "d", "a/b", "~0")


def test_thousands_of_seeded_pairs_match_the_reference():
    rng = SplitMix64(2026)
    moves = 0
    for _ in range(3000):
        a = _random_value(rng)
        b = _random_edit(a, rng) if rng.below(5) else _random_value(rng)
        moves += '"move"' in check_against_reference(a, b)
    assert moves > 20  # the move pass is really exercised


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from([{"a": [1, 2]}, {"b": {}}, [3], {"a": [1, 2.0]}, 1]),
                max_size=8),
       st.lists(st.sampled_from([{"a": [1, 2]}, {"b": {}}, [3], {"a": [True, 2]}, 1]),
                max_size=8))
def test_move_heavy_arrays_match_the_reference(a, b):
    check_against_reference({"l": a, "m": b[:2]}, {"l": b, "m": a[:2]})


# -- big documents from gen/mutate ---------------------------------------------------


@pytest.mark.parametrize(
    ("n", "edits", "seed"), [(300, 8, 1), (300, 60, 4), (1000, 5, 2), (2000, 3, 3), (3000, 2, 5)]
)
def test_generated_route_tables_match_the_reference(n, edits, seed):
    from cfgpatch.fixtures import generate, mutate

    a = generate({"n": n, "seed": seed})
    b = mutate(a, {"seed": seed + 100, "edits": edits})
    check_against_reference(a, b)


def through_run(a, b, spell=canonical) -> str:
    """The diff of ``a`` and ``b`` stored by ``put`` from text (read as the service reads)."""
    result = run([["put", "a", spell(a)], ["put", "b", spell(b)], ["diff", "a", "b"],
                  ["diff_stats", "a", "b"]])
    assert result[3]["roundtrip"] is True
    return result[2]


@pytest.mark.parametrize(("n", "edits", "seed"), [(300, 60, 4), (2000, 3, 3)])
def test_generated_tables_stored_as_text_match_the_reference(n, edits, seed):
    from cfgpatch.fixtures import generate, mutate

    a = generate({"n": n, "seed": seed})
    b = mutate(a, {"seed": seed + 100, "edits": edits})
    expected = canonical(reference_diff(a, b))
    assert through_run(a, b) == expected
    assert through_run(a, b, lambda v: json.dumps(v, indent=1)) == expected


@pytest.mark.parametrize("name", sorted(BIG_ADVERSARIES))
def test_adversaries_stored_as_text_match_the_reference(name):
    a, b = BIG_ADVERSARIES[name]
    for x, y in ((a, b), (b, a), ({"l": a}, {"l": b[::-1]})):
        assert through_run(x, y) == canonical(reference_diff(x, y))


@pytest.mark.parametrize(("want", "got"), [
    (1, 1.0), (1, True), (0, False), ({"a": [1]}, {"a": [1.0]}), ([{"a": 1}], [{"a": True}]),
    ({"a": 1}, {"a": 1, "b": None}), ([1, 2], [1, 2, 2]), ("1", 1),
])
def test_roundtrip_compares_number_kinds_and_shapes_exactly(monkeypatch, want, got):
    """The round trip compares the replayed value with ``b`` as canonical text would:
    a result that Python's ``==`` finds equal but whose text differs is not a round trip."""
    import cfgpatch.replay
    from cfgpatch.diffing import diff_stats

    a, b = {"v": "before"}, {"v": want}
    assert diff_stats(a, b)["roundtrip"] is True
    monkeypatch.setattr(cfgpatch.replay, "replay", lambda doc, plan, text_of: {"v": got})
    assert diff_stats(a, b)["roundtrip"] is False


# -- depth ---------------------------------------------------------------------------


def nested(depth: int, leaf):
    value = leaf
    for level in range(depth - 1):
        value = [value, level] if level % 2 else {"k": value, "n": level}
    return value


def test_depth_256_diff_apply_and_text():
    a = nested(MAX_DEPTH - 1, [1, 2, {"y": 1}])
    b = nested(MAX_DEPTH - 1, [1, 3, {"x": 1}])
    got = diff(a, b)
    inner = "".join("/0" if level % 2 else "/k" for level in reversed(range(MAX_DEPTH - 2)))
    assert got == [{"op": "remove", "path": f"{inner}/2/y"},
                   {"op": "replace", "path": f"{inner}/1", "value": 3},
                   {"op": "add", "path": f"{inner}/2/x", "value": 1}]
    assert canonical(apply_patch(a, got)) == canonical(b)
    assert run([["put", "a", canonical(a)], ["put", "b", canonical(b)],
                ["diff_stats", "a", "b"]])[2]["roundtrip"] is True


# -- determinism across hash seeds -----------------------------------------------------

_DIGEST_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from cfgpatch.diffing import diff, digest, patch_text
from cfgpatch.errors import InvalidInput
from cfgpatch.fixtures import SplitMix64
from cfgpatch.fixtures import generate, mutate
pairs = [
    ({"k%d" % i: {"v": i % 3} for i in range(60)}, {"k%d" % i: {"v": i % 4} for i in range(5, 70)}),
    ({"s": [{"a": 1}, {"b": 2}, {"c": 3}] * 5}, {"s": [{"b": 2}, {"c": 3}, {"a": 1}] * 5}),
]
base = generate({"n": 400, "seed": 5})
pairs.append((base, mutate(base, {"seed": 6, "edits": 20})))
print(json.dumps([digest(patch_text(diff(a, b))) for a, b in pairs]))
"""


def test_digests_do_not_depend_on_the_hash_seed():
    outputs = set()
    for seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST_SCRIPT, str(ROOT / "src")],
            env=env, capture_output=True, text=True, check=True, timeout=120,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert len(json.loads(outputs.pop())) == 3


def test_digest_is_sha1_prefix():
    assert digest("[]") == "97d170e1550e"
