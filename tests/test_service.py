"""The ``run(operations)`` contract (Part 1) and the versioned service under it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch import run
from cfgpatch.errors import CfgPatchError
from cfgpatch.service import Service


def p(*ops) -> str:
    return json.dumps(list(ops))


def test_worked_example_verbatim():
    operations = [
        ["put", "cfg", "{\"service\":\"gateway\",\"routes\":[\"a\",\"b\"],\"limits\":{\"rps\":100}}"],
        ["apply", "cfg", "[{\"op\":\"add\",\"path\":\"/routes/1\",\"value\":\"x\"},{\"op\":\"replace\",\"path\":\"/limits/rps\",\"value\":250},{\"op\":\"test\",\"path\":\"/routes/1\",\"value\":\"x\"}]"],
        ["get", "cfg"],
        ["get", "cfg", 1],
    ]
    assert run(operations) == [
        1,
        2,
        "{\"limits\":{\"rps\":250},\"routes\":[\"a\",\"x\",\"b\"],\"service\":\"gateway\"}",
        "{\"limits\":{\"rps\":100},\"routes\":[\"a\",\"b\"],\"service\":\"gateway\"}",
    ]


@pytest.mark.parametrize(
    "operation",
    [
        [],
        "get",
        ("get", "x"),
        [1, "x"],
        [None],
        ["put", "", "{}"],
        ["put", 1, "{}"],
        ["put", "x", {}],
        ["put", "x"],
        ["put", "x", "{}", "extra"],
        ["get", "x", True],
        ["get", "x", 1.0],
        ["get", "x", "1"],
        ["apply", "x", ["op"]],
        ["apply", "x", "[]", False],
        ["get"],
    ],
)
def test_invalid_arguments(operation):
    assert run([operation]) == ["error: invalid arguments"]


def test_unknown_operation_is_checked_before_the_argument_count():
    assert run([["frobnicate"], ["frobnicate", 1, 2, 3], ["GET", "x"]]) == [
        "error: unknown operation"
    ] * 3


def test_lookup_order():
    results = run(
        [
            ["apply", "nope", "not json"],
            ["put", "cfg", "{}"],
            ["get", "cfg", 2],
            ["get", "cfg", 0],
            ["get", "cfg", -1],
            ["apply", "cfg", "not json"],
            ["apply", "cfg", "NaN"],
            ["apply", "cfg", "{\"op\":\"add\"}"],
            ["apply", "cfg", "[{\"op\":\"remove\",\"path\":\"/x\"}]"],
            ["put", "cfg", "[Infinity]"],
            ["get", "cfg"],
        ]
    )
    assert results == [
        "error: unknown document",
        1,
        "error: unknown version",
        "error: unknown version",
        "error: unknown version",
        "error: invalid json",
        "error: invalid json",
        "error: invalid patch",
        "error: path not found at op 0",
        "error: invalid json",
        "{}",
    ]


def test_versions_count_from_one_and_empty_patch_commits():
    assert run(
        [
            ["put", "a", "1"],
            ["put", "a", "2"],
            ["apply", "a", "[]"],
            ["get", "a", 1],
            ["get", "a", 3],
            ["put", "b", "[]"],
        ]
    ) == [1, 2, 3, "1", "2", 1]


def test_failed_patch_leaves_every_version_untouched():  # incident symptom 1
    results = run(
        [
            ["put", "cfg", '{"routes":["a"],"limits":{"rps":1}}'],
            ["apply", "cfg", p({"op": "add", "path": "/routes/-", "value": "b"})],
            [
                "apply",
                "cfg",
                p(
                    {"op": "replace", "path": "/limits/rps", "value": 9},
                    {"op": "remove", "path": "/routes/0"},
                    {"op": "test", "path": "/routes/0", "value": "zzz"},
                ),
            ],
            ["get", "cfg"],
            ["get", "cfg", 1],
            ["get", "cfg", 3],
        ]
    )
    assert results == [
        1,
        2,
        "error: test failed at op 2",
        '{"limits":{"rps":1},"routes":["a","b"]}',
        '{"limits":{"rps":1},"routes":["a"]}',
        "error: unknown version",
    ]


def test_no_shared_structure_between_versions():
    results = run(
        [
            ["put", "cfg", '{"a":{"l":[1]}}'],
            ["apply", "cfg", p({"op": "copy", "from": "/a", "path": "/b"})],
            ["apply", "cfg", p({"op": "add", "path": "/b/l/-", "value": 2})],
            ["apply", "cfg", p({"op": "add", "path": "/a/l/0", "value": 0})],
            ["get", "cfg", 1],
            ["get", "cfg", 2],
            ["get", "cfg", 3],
            ["get", "cfg"],
        ]
    )
    assert results[4:] == [
        '{"a":{"l":[1]}}',
        '{"a":{"l":[1]},"b":{"l":[1]}}',
        '{"a":{"l":[1]},"b":{"l":[1,2]}}',
        '{"a":{"l":[0,1]},"b":{"l":[1,2]}}',
    ]


def test_incident_symptoms_through_run():
    results = run(
        [
            ["put", "c", '{"routes":["r0","r1"],"~1":"tilde","a":{"x":1},"flag":true}'],
            ["apply", "c", p({"op": "add", "path": "/routes/1", "value": "new"})],
            ["apply", "c", p({"op": "replace", "path": "/~01", "value": "found"})],
            ["apply", "c", p({"op": "move", "from": "/a", "path": "/a/old"})],
            ["apply", "c", p({"op": "test", "path": "/flag", "value": 1})],
            ["apply", "c", p({"op": "remove", "path": "/routes/-1"})],
            ["apply", "c", p({"op": "remove", "path": "/routes/01"})],
            ["get", "c"],
        ]
    )
    assert results == [
        1,
        2,
        3,
        "error: invalid move at op 0",
        "error: test failed at op 0",
        "error: invalid index at op 0",
        "error: invalid index at op 0",
        '{"a":{"x":1},"flag":true,"routes":["r0","new","r1"],"~1":"found"}',
    ]


def test_floats_print_as_floats():
    assert run([["put", "n", "[1.0, 1, 2.50, 1e3]"], ["get", "n"]]) == [1, "[1.0,1,2.5,1000.0]"]


def test_bad_input_never_raises():
    deep = "[" * 100_000 + "]" * 100_000
    many = json.dumps([{"op": "add", "path": "/-", "value": i} for i in range(100_000)])
    results = run(
        [
            ["put", "deep", deep],
            ["put", "big", "1" * 5000],
            ["put", "dup", '{"a":1,"a":2}'],
            ["put", "sur", '"\\udc00"'],
            ["put", "l", "[]"],
            ["apply", "l", many],
            ["apply", "l", p({"op": "add", "path": "/0", "value": 1})],
        ]
    )
    assert results == [
        "error: invalid json",
        "error: invalid json",
        "error: invalid json",
        "error: invalid json",
        1,
        2,
        3,
    ]


def test_service_api_raises_the_error_type():
    service = Service()
    service.put("cfg", '{"a":1}')
    with pytest.raises(CfgPatchError) as info:
        service.apply("cfg", p({"op": "remove", "path": "/b"}))
    assert info.value.code == "path not found" and info.value.op_index == 0
    assert service.apply_merge_patch("cfg", '{"a":null,"b":[1]}') == 2
    assert service.get("cfg") == '{"b":[1]}'
    assert [v.version for v in service.versions("cfg")[1]] == [1, 2]


ops_strategy = st.lists(
    st.fixed_dictionaries(
        {
            "op": st.sampled_from(["add", "remove", "replace", "test", "move", "copy"]),
            "path": st.sampled_from(["", "/a", "/a/0", "/a/-", "/b", "/b/c", "/x"]),
        },
        optional={
            "value": st.sampled_from([1, 1.0, True, None, [1], {"c": 1}]),
            "from": st.sampled_from(["/a", "/b", "/a/0", ""]),
        },
    ),
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ops_strategy, min_size=1, max_size=6))
def test_failed_patches_leave_all_versions_byte_identical(patches):
    service = Service()
    service.put("d", '{"a":[1,2],"b":{"c":1}}')
    texts = [service.get("d", 1)]
    for patch in patches:
        before = [service.get("d", v) for v in range(1, len(texts) + 1)]
        assert before == texts
        try:
            service.apply("d", json.dumps(patch))
        except CfgPatchError:
            assert service.head("d") == len(texts)
        else:
            texts.append(service.get("d"))
    assert [service.get("d", v) for v in range(1, len(texts) + 1)] == texts


# -- preconditions and the rebase rules of the HTTP layer, decided in the service ---------

def _tags(*versions):
    from cfgpatch.preconditions import TagList

    return TagList(strong=frozenset(versions))


def test_conditional_writes_are_decided_by_the_service():
    from cfgpatch.errors import PreconditionFailed
    from cfgpatch.preconditions import Preconditions, TagList

    service = Service()
    service.put("d", '{"c":0}')
    service.apply("d", p({"op": "replace", "path": "/c", "value": 1}))
    stale = Preconditions(if_match=_tags(1))
    for write in (lambda: service.put("d", "{}", when=stale),
                  lambda: service.apply("d", "[]", when=stale),
                  lambda: service.apply_merge_patch("d", "{}", when=stale),
                  lambda: service.put("d", "{}", when=Preconditions(if_none_match=_tags(2))),
                  lambda: service.put("new", "{}", when=Preconditions(if_match=TagList(any=True))),
                  lambda: service.put("d", "not json", when=stale)):  # 412 before the content
        with pytest.raises(PreconditionFailed):
            write()
    assert service.head("d") == 2 and service.store.head_version("new") is None
    assert service.apply("d", "[]", when=Preconditions(if_match=_tags(2))) == 3


def test_a_precondition_is_judged_again_after_a_lost_race():
    """The head moves between the first check and the append: the retry judges it anew."""
    from cfgpatch.errors import PreconditionFailed
    from cfgpatch.preconditions import Preconditions
    from cfgpatch.store.memory import MemoryStore

    class Interleaved(MemoryStore):
        def __init__(self):
            super().__init__()
            self.sneak = False

        def append(self, name, text, *, expected_head, **kwargs):
            if self.sneak:
                self.sneak = False
                super().append(name, '{"c":99}', expected_head=expected_head, value={"c": 99})
            return super().append(name, text, expected_head=expected_head, **kwargs)

    store = Interleaved()
    service = Service(store)
    service.put("d", '{"c":0}')
    store.sneak = True
    with pytest.raises(PreconditionFailed):
        service.apply("d", p({"op": "replace", "path": "/c", "value": 1}),
                      when=Preconditions(if_match=_tags(1)))
    assert service.get("d") == '{"c":99}' and service.head("d") == 2
    store.sneak = True  # without a precondition the write is recomputed on the new head
    assert service.apply("d", p({"op": "test", "path": "/c", "value": 99})) == 4


def test_tests_on_head_is_the_http_rule_and_run_keeps_the_contract():
    """Part 3b: the replay on base decides failures, "the head plays no part": run()
    commits a stale-base apply whose test would fail against the head; the service's
    tests_on_head option (the HTTP rebase request) refuses it."""
    from cfgpatch.errors import TestFailed

    guarded = p({"op": "test", "path": "/c", "value": 0}, {"op": "replace", "path": "/c", "value": 1})
    assert run([["put", "d", '{"c":0}'], ["apply", "d", p({"op": "replace", "path": "/c", "value": 1})],
                ["apply", "d", guarded, 1], ["rebase", "d", guarded, 1], ["get", "d"]]) == [
        1, 2, 3, "[]", '{"c":1}']
    service = Service()
    service.put("d", '{"c":0}')
    service.apply("d", p({"op": "replace", "path": "/c", "value": 1}))
    for call in (lambda: service.apply("d", guarded, 1, tests_on_head=True),
                 lambda: service.rebase("d", guarded, 1, tests_on_head=True)):
        with pytest.raises(TestFailed) as caught:
            call()
        assert caught.value.wire() == "test failed at op 0"
    assert service.head("d") == 2


def test_read_and_versions_answer_not_modified():
    from cfgpatch.preconditions import Preconditions

    service = Service()
    service.put("d", "[1]")
    assert service.read("d") == (1, "[1]")
    assert service.read("d", when=Preconditions(if_none_match=_tags(1))) == (1, None)
    assert service.versions("d", when=Preconditions(if_none_match=_tags(1))) == (1, None)
    assert [v.version for v in service.versions("d")[1]] == [1]


# -- writes that change nothing, hostile input -----------------------------------


def test_a_write_that_changes_nothing_answers_the_head_unless_forced():
    service = Service()
    assert service.put("d", '{"a": 1}') == 1
    assert service.put("d", '{"a":1}', force=False) == 1  # the same text, spelled otherwise
    assert service.apply("d", "[]", force=False) == 1
    assert service.apply("d", p({"op": "test", "path": "/a", "value": 1}), force=False) == 1
    assert service.apply("d", p({"op": "replace", "path": "/a", "value": 1}), force=False) == 1
    assert service.apply_merge_patch("d", '{"a":1}', force=False) == 1
    assert [i.version for i in service.versions("d")[1]] == [1]
    assert service.apply("d", "[]") == 2  # run()'s contract: an empty patch commits
    assert service.put("d", '{"a":1}', force=True) == 3
    assert service.apply("d", p({"op": "add", "path": "/b", "value": 2}), force=False) == 4
    assert run([["put", "x", "{}"], ["apply", "x", "[]"], ["put", "x", "{}"]]) == [1, 2, 3]


@pytest.mark.parametrize("op", [
    {"op": "remove", "path": "/a/" + "1" * 4301},
    {"op": "test", "path": "/a/" + "1" * 5000, "value": 1},
    {"op": "copy", "from": "/a/" + "2" * 5000, "path": "/b"},
])
def test_an_index_of_thousands_of_digits_is_path_not_found_in_apply_and_rebase(op):
    service = Service()
    service.put("d", '{"a":[1,2]}')
    service.put("d", '{"a":[1,2],"z":0}')
    for call in (lambda: service.apply("d", p(op)),
                 lambda: service.rebase("d", p(op), 1, tests_on_head=True),
                 lambda: service.apply("d", p(op), 1, tests_on_head=True)):
        with pytest.raises(CfgPatchError) as info:
            call()
        assert info.value.wire() == "path not found at op 0"
    assert service.head("d") == 2


def test_exact_numbers_refuses_rounded_numbers_in_documents_and_patches():
    from cfgpatch.limits import ServiceLimits

    service = Service(limits=ServiceLimits(exact_numbers=True))
    for call, pointer in [
        (lambda: service.put("d", '{"pi":3.14159265358979323846}'), "/pi"),
        (lambda: service.put("d", '[1e-400]'), "/0"),
    ]:
        with pytest.raises(CfgPatchError) as info:
            call()
        assert info.value.code == "invalid json" and info.value.pointer == pointer
    service.put("d", '{"x":0.1}')
    with pytest.raises(CfgPatchError) as patch:
        service.apply("d", '[{"op":"add","path":"/y","value":0.1000000000000000000001}]')
    assert patch.value.pointer == "/0/value"
    with pytest.raises(CfgPatchError):
        service.apply_merge_patch("d", '{"y":1e-400}')
    assert service.get("d") == '{"x":0.1}'
    assert run([["put", "d", "[1e-400]"], ["get", "d"]]) == [1, "[0.0]"]  # run(): as before


def test_a_write_says_whether_it_created_or_changed_the_document():
    service = Service()
    first = service.put("cfg", '{"a":1}')
    assert (first, first.created, first.changed) == (1, True, True)
    same = service.put("cfg", '{"a":1}', force=False)
    assert (same, same.created, same.changed) == (1, False, False)
    noop = service.apply("cfg", "[]", force=False)
    assert (noop, noop.created, noop.changed) == (1, False, False)
    merged = service.apply_merge_patch("cfg", '{"b":2}', force=False)
    assert (merged, merged.created, merged.changed) == (2, False, True)
    gone = service.delete("cfg")
    assert (gone, gone.created, gone.changed) == (3, False, True)
    again = service.put("cfg", '{"a":1}', force=False)
    assert (again, again.created, again.changed) == (4, True, True)
    kept = service.restore("cfg", 4, force=False)
    assert (kept, kept.created, kept.changed) == (4, False, False)
    assert repr(kept) == "4" and json.dumps({"version": kept}) == '{"version": 4}'
