"""cfgpatch.fixtures: deterministic route tables (gen) and edits (mutate)."""

from __future__ import annotations

import pytest

from cfgpatch import run
from cfgpatch.diffing import diff, digest
from cfgpatch.errors import InvalidInput
from cfgpatch.fixtures import SplitMix64, generate, mutate
from cfgpatch.jsonvalue import canonical, validate


def test_prng_is_splitmix64():
    # First outputs of SplitMix64 seeded with 0 (published test vector).
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
    ]


def test_pinned_bytes():
    # Pinned so that any change of the generator (or a Python version that
    # behaves differently) is visible: these must never change.
    a = generate({"n": 200, "seed": 3})
    assert digest(canonical(a)) == "a329613f2ddd"
    assert digest(canonical(mutate(a, {"seed": 4, "edits": 30}))) == "ee5f6c2db9f3"


def test_shape_and_repetition():
    doc = generate({"n": 2000, "seed": 1})
    validate(doc)
    routes = doc["routes"]
    assert len(routes) == 2000
    texts = [canonical(r) for r in routes]
    assert len(set(texts)) < len(texts) // 2  # routes repeat a lot
    assert len({id(r) for r in routes}) == len(routes)  # but are separate objects
    kinds = {type(r["weight"]) for r in routes}
    assert kinds == {int, float}


def test_mutate_leaves_the_source_alone_and_is_deterministic():
    a = generate({"n": 300, "seed": 9})
    before = canonical(a)
    b = mutate(a, {"seed": 1, "edits": 40})
    assert canonical(a) == before
    assert canonical(b) == canonical(mutate(a, {"seed": 1, "edits": 40}))
    assert canonical(b) != canonical(mutate(a, {"seed": 2, "edits": 40}))
    assert mutate(a, {"seed": 1, "edits": 0}) == a


def test_edits_of_every_kind_show_up_in_the_diff():
    a = generate({"n": 500, "seed": 4})
    ops = diff(a, mutate(a, {"seed": 12, "edits": 8}))
    assert {op["op"] for op in ops} == {"add", "remove", "replace", "move"}


@pytest.mark.parametrize(
    "params",
    [{"n": -1}, {"n": 1.0}, {"n": True}, {"n": "3"}, {"size": 3}, {1: 2}, {"n": None},
     {}, {"n": 3}, {"seed": 3}, {"n": 3, "seed": 1, "size": 3}],
)
def test_run_rejects_bad_gen_arguments(params):
    assert run([["gen", "g", params]]) == ["error: invalid arguments"]


@pytest.mark.parametrize("params", [{}, {"seed": 1}, {"edits": 1}, {"seed": 1, "edits": -1},
                                    {"seed": 1, "edits": 1, "n": 1}])
def test_run_rejects_bad_mutate_arguments_before_looking_the_source_up(params):
    """Argument checks come before lookups: a missing member is invalid arguments even
    when the source does not exist."""
    assert run([["gen", "g", {"n": 3, "seed": 1}], ["mutate", "g", "h", params],
                ["mutate", "nope", "h", params]]) == [1] + ["error: invalid arguments"] * 2


@pytest.mark.parametrize(("build", "params"), [(generate, {"n": 3}), (generate, {}),
                                                (lambda p: mutate(generate({"n": 3, "seed": 1}),
                                                                  p), {"seed": 1})])
def test_missing_members_are_refused_by_the_functions_too(build, params):
    with pytest.raises(InvalidInput) as caught:
        build(params)
    assert caught.value.code == "invalid arguments" and "missing" in caught.value.message


def test_run_gen_and_mutate():
    out = run([
        ["gen", "g", {"n": 50, "seed": 1}],
        ["gen", "g", {"seed": 1, "n": 50}],
        ["mutate", "g", "h", {"seed": 1, "edits": 5}],
        ["mutate", "nope", "h", {"seed": 1, "edits": 1}],
        ["mutate", "g", "h", {"seed": 1, "edits": -2}],
        ["mutate", "g", "h", {"seed": 1, "edits": 1, "n": 1}],
        ["put", "plain", "[]"],
        ["mutate", "plain", "h", {"seed": 1, "edits": 1}],
        ["diff", "g", "g"],
        ["gen", "g", {"n": 0, "seed": 0}],
        ["get", "g"],
    ])
    assert out == [
        1, 2, 1,
        "error: unknown document",
        "error: invalid arguments",
        "error: invalid arguments",
        1,
        "error: invalid arguments",
        "[]",
        3,
        '{"routes":[],"service":"gateway-0"}',
    ]
