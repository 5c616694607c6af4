"""cfgpatch.lcs.myers: a search with a limit gives up early when its pace is hopeless,
and finishes when the distance is within the limit however slowly it starts."""

from __future__ import annotations

from cfgpatch.lcs import WorkBudget, align
from cfgpatch.lcs.myers import HOPELESS, frontiers
from cfgpatch.lcs.runs import Run
from reference_diff import align as reference_align


def pairs(runs: list[Run]) -> list[tuple[int, int]]:
    return [(i + k, j + k) for i, j, length in runs for k in range(length)]


def spent(a: list, b: list, limit: int) -> tuple[object, int, list[int]]:
    budget, reach = WorkBudget(10**9), []
    found = frontiers(a, b, limit, budget, reach)
    return found, budget.limit - budget.left, reach


def test_a_reversal_gives_up_at_the_first_lookout():
    a = list(range(2000))
    found, steps, reach = spent(a, a[::-1], 256)
    assert found is None
    assert steps == sum(d + 1 for d in range(65))  # costs 0..64, not 0..256
    assert reach and reach[0] < 2 * len(a)


def test_a_distance_within_the_limit_is_found_after_a_slow_start():
    # 30 differences on each side at the end (where the search starts: a cost of
    # 60 with no equal pair), 3,000 equal elements, 60 more at the start.
    def side(tag: str) -> list:
        return [f"{tag}{k}" for k in range(30)] + list(range(3000)) + [f"{tag}e{k}" for k in range(30)]

    found, _, _ = spent(side("x"), side("y"), 256)
    assert found is not None and len(found) - 1 == 120


def test_a_slow_pace_at_a_lookout_gives_up_though_the_limit_would_do():
    # The price of looking out: 60 + 60 differences at the end take the first 120
    # costs, so at cost 64 the search is far from the end at its pace and stops,
    # though the distance (240) is within the limit.  The other methods give the
    # same walk (test_giving_up_changes_no_alignment).
    def side(tag: str) -> list:
        return [f"{tag}{k}" for k in range(60)] + list(range(3000)) + [f"{tag}e{k}" for k in range(60)]

    assert spent(side("x"), side("y"), 256)[0] is None
    assert spent(side("x"), side("y"), None)[0] is not None


def test_giving_up_changes_no_alignment():
    for shift in (1, 7, 300):
        a = list(range(1500))
        b = a[shift:] + a[:shift]
        assert pairs(align(a, b)) == reference_align(a, b)
    a = list(range(600))
    assert pairs(align(a, a[::-1])) == reference_align(a, a[::-1])
    x = [f"x{k}" for k in range(60)] + list(range(900)) + [f"xe{k}" for k in range(60)]
    y = [f"y{k}" for k in range(60)] + list(range(900)) + [f"ye{k}" for k in range(60)]
    assert pairs(align(x, y)) == reference_align(x, y)


def test_hopeless_is_a_factor_above_one():
    assert HOPELESS > 1
