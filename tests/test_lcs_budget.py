"""cfgpatch.lcs.budget: the work limit of a diff, and diff/rebase honouring it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.diffing import diff, diff_ops, diff_stats
from cfgpatch.errors import LIMIT_EXCEEDED, LimitExceeded
from cfgpatch.lcs import WorkBudget, align
from cfgpatch.rebasing import rebase


def test_spending_past_the_limit_raises_limit_exceeded():
    budget = WorkBudget(5)
    budget.spend(5)
    assert budget.left == 0
    with pytest.raises(LimitExceeded) as caught:
        budget.spend(1)
    assert caught.value.code == LIMIT_EXCEEDED


def test_a_reversal_is_refused_under_a_small_limit_and_names_the_array():
    a = {"cfg": {"routes": list(range(3000))}}
    b = {"cfg": {"routes": list(range(3000))[::-1]}}
    with pytest.raises(LimitExceeded) as caught:
        diff_ops(a, b, work_limit=1000)
    assert "/cfg/routes" in caught.value.message
    assert "1000" in caught.value.message
    with pytest.raises(LimitExceeded):
        diff_stats(a, b, work_limit=1000)
    with pytest.raises(LimitExceeded):
        diff(a, b, work_limit=1000)


def test_the_limit_counts_the_whole_diff_not_one_array():
    one = [0, 1, 2, 3, 4, 5, 6, 7]
    other = [7, 6, 5, 4, 3, 2, 1, 0]
    needed = WorkBudget(10**9)
    align(one, other, needed)
    spent = 10**9 - needed.left
    assert spent > 0
    a, b = {"x": one, "y": one}, {"x": other, "y": other}
    assert diff_ops(a, b, work_limit=2 * spent) == diff_ops(a, b)
    with pytest.raises(LimitExceeded):
        diff_ops(a, b, work_limit=2 * spent - 1)


def test_rebase_passes_the_limit_to_its_diff():
    base = {"l": list(range(300))}
    mine = {"l": list(range(300))[::-1]}
    patch = [{"op": "replace", "path": "/l", "value": mine["l"]}]
    assert rebase(base, base, patch, work_limit=10**9) == diff(base, mine)
    with pytest.raises(LimitExceeded):
        rebase(base, base, patch, work_limit=500)


def test_prefix_and_suffix_are_free():
    long = list(range(10000))
    assert diff_ops({"l": long}, {"l": long[:5000] + ["x"] + long[5000:]}, work_limit=10) == [
        {"op": "add", "path": "/l/5000", "value": "x"}
    ]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=30), st.lists(st.integers(0, 4), max_size=30))
def test_under_the_limit_the_result_is_unchanged(a, b):
    budget = WorkBudget(10**9)
    expected = align(a, b)
    assert align(a, b, budget) == expected
    spent = 10**9 - budget.left
    assert align(a, b, WorkBudget(spent)) == expected
    if spent:
        with pytest.raises(LimitExceeded):
            align(a, b, WorkBudget(spent - 1))
