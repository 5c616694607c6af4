"""cfgpatch.lcs: every alignment method gives the contract's walk, byte for byte.

The oracle is the literal quadratic table of ``tests/reference_diff.py``; the
inputs are the adversaries of ``tests/adversaries.py`` (reversals, rotations,
interleavings, shuffles, block moves, many equal elements, unrelated arrays)
with edits sprinkled in, so elements found on one side only occur too.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversaries import KINDS, pair
from cfgpatch.diffing import diff, patch_text
from cfgpatch.jsonpatch import apply_patch
from cfgpatch.jsonvalue import canonical
from cfgpatch.lcs import METHODS, WorkBudget, align
from reference_diff import align as reference_align
from reference_diff import reference_diff


def pairs(runs):
    return [(i + k, j + k) for i, j, length in runs for k in range(length)]


def check_methods(a, b):
    expected = reference_align(a, b)
    for method in (None, *METHODS):
        assert pairs(align(a, b, method=method)) == expected, method
    return expected


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(KINDS), st.integers(0, 40), st.integers(1, 60), st.integers(0, 6),
       st.integers(0, 2**32))
def test_every_method_walks_as_the_table_on_adversaries(kind, n, alphabet, edits, seed):
    a, b = pair(kind, n, alphabet, edits, seed)
    check_methods(a, b)
    check_methods(b, a)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=24), st.lists(st.integers(0, 4), max_size=24))
def test_every_method_walks_as_the_table_on_random_arrays(a, b):
    check_methods(a, b)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("n", "alphabet"), [(400, 400), (400, 3), (300, 40)])
def test_bigger_adversaries(kind, n, alphabet):
    for seed in range(2):
        a, b = pair(kind, n, alphabet, 5, seed)
        check_methods(a, b)


def test_the_chosen_method_costs_what_it_is_charged():
    a, b = pair("reversal", 3000, 3000, 0, 1)
    budget = WorkBudget(10**9)
    assert pairs(align(a, b, budget)) == [(2999, 0)]
    # The O(ND) search tried up to distance 256 (about 33,000 steps), then the
    # sparse method (about one step per element); the search alone would take
    # millions.
    assert 10**9 - budget.left < 50_000
    forced = WorkBudget(10**9)
    align(a, b, forced, method="myers")
    assert 10**9 - forced.left > 4_000_000


def test_an_unknown_method_is_refused():
    with pytest.raises(ValueError):
        align([1], [2], method="table")


def routes(count: int, start: int = 0) -> list[dict]:
    return [{"path": f"/r/{k % 7}", "id": k, "backend": {"port": 8000 + k % 5}}
            for k in range(start, start + count)]


@pytest.mark.parametrize("kind", KINDS)
def test_documents_with_adversarial_arrays_match_the_reference(kind):
    for alphabet in (120, 4):
        numbers_a, numbers_b = pair(kind, 120, alphabet, 4, 7)
        table = routes(2000)
        a = {"routes": [table[k] for k in numbers_a]}
        b = {"routes": [table[k % 2000] for k in numbers_b]}
        got = patch_text(diff(a, b))
        assert got == canonical(reference_diff(a, b))
        assert canonical(apply_patch(a, json.loads(got))) == canonical(b)
