"""cfgpatch.limits: the service's limits, and the depth bound of a patch's result."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.errors import CfgPatchError, LimitExceeded
from cfgpatch.jsonpatch import apply_patch
from cfgpatch.jsonvalue import canonical
from cfgpatch.limits import ServiceLimits, _depth, _written_depth
from cfgpatch.service import Service

values = st.recursive(st.integers(0, 3), lambda inner: st.one_of(
    st.lists(inner, max_size=2), st.dictionaries(st.sampled_from("ab"), inner, max_size=2)),
    max_leaves=8)
pointers = st.lists(st.sampled_from(["a", "b", "0", "1", "-", "c/d", "~"]), max_size=4).map(
    lambda tokens: [t.replace("~", "~0").replace("/", "~1") for t in tokens]).map(
    lambda tokens: "".join("/" + t for t in tokens))
operations = st.one_of(
    st.builds(lambda o, p, v: {"op": o, "path": p, "value": v},
              st.sampled_from(["add", "replace"]), pointers, values),
    st.builds(lambda o, f, p: {"op": o, "from": f, "path": p},
              st.sampled_from(["copy", "move"]), pointers, pointers))


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.sampled_from("ab"), values, max_size=2),
       st.lists(operations, min_size=1, max_size=4))
def test_the_bound_is_never_below_the_real_depth(doc, patch):
    try:
        result = apply_patch(doc, patch)
    except CfgPatchError:
        return
    assert _depth(result) <= _written_depth(patch, _depth(doc))


def test_a_long_shallow_text_is_not_walked_for_its_depth(monkeypatch):
    from cfgpatch import limits as module

    walked = []
    monkeypatch.setattr(module, "check_depth", lambda *a: walked.append(a))
    checks = ServiceLimits(max_depth=3)
    shallow = '[{"op":"add","path":"/a","value":"%s"}]' % ("x" * 100)
    for text in (shallow, shallow.encode()):
        checks.check_patch([{"op": "add", "path": "/a", "value": "x" * 100}], text)
    assert walked == []
    deep = '[{"op":"add","path":"/a","value":[[["%s"]]]}]' % ("x" * 100)
    checks.check_patch([{"op": "add", "path": "/a", "value": [[["x" * 100]]]}], deep)
    assert len(walked) == 1  # four brackets: walked (and refused, with the real walk)
    monkeypatch.undo()
    with pytest.raises(LimitExceeded):
        checks.check_patch([{"op": "add", "path": "/a", "value": [[["x" * 100]]]}], deep)


def test_written_depth_counts_escaped_tokens_without_parsing(monkeypatch):
    from cfgpatch import limits as module

    monkeypatch.setattr(module, "parse_pointer", None, raising=False)  # one token a '/'
    patch = [{"op": "add", "path": "/a~1b/c~0", "value": {"x": [1]}},
             {"op": "copy", "from": "/a~1b", "path": "/d/e/f"}]
    assert _written_depth(patch, 1) == 2 + 2 + 2


def test_service_refuses_results_beyond_the_limits_and_writes_nothing():
    service = Service(limits=ServiceLimits(max_depth=4, max_document_bytes=100))
    service.put("d", '{"a":[1]}')
    for patch in ('[{"op":"add","path":"/b","value":{"c":{"d":{"e":1}}}}]',
                  '[{"op":"add","path":"/x","value":"' + "x" * 95 + '"}]',
                  '[{"op":"add","path":"/b","value":[[[]]]},'
                  ' {"op":"copy","from":"/b","path":"/b/0/0/0"}]'):
        with pytest.raises(LimitExceeded):
            service.apply("d", patch)
    with pytest.raises(LimitExceeded):
        service.put("d", '{"a":"' + "é" * 50 + '"}')  # 50 characters, 100 bytes
    assert service.head("d") == 1
    assert service.apply("d", '[{"op":"add","path":"/b","value":{"c":[1]}}]') == 2
    assert canonical(service.get_value("d")) == '{"a":[1],"b":{"c":[1]}}'


def test_the_depth_limit_names_a_put_document_and_a_patch_result_apart():
    service = Service(limits=ServiceLimits(max_depth=3))
    with pytest.raises(LimitExceeded) as put:
        service.put("d", '{"a":{"b":{"c":[]}}}')
    assert put.value.message.startswith("the document is nested more than 3 levels")
    service.put("d", '{"a":{"b":{}}}')
    with pytest.raises(LimitExceeded) as apply:
        service.apply("d", '[{"op":"add","path":"/a/b/c","value":{"d":1}}]')
    assert apply.value.message.startswith("the result would be nested more than 3 levels")
    assert service.head("d") == 1


def test_no_limits_is_what_run_uses():
    assert ServiceLimits().work() == {} and ServiceLimits(work_limit=5).work() == {
        "work_limit": 5}
    service = Service()
    service.put("d", "[" * 200 + "]" * 200)
    assert service.head("d") == 1


@pytest.mark.parametrize(("text", "pointer", "kept"), [
    ('{"a":[1,{"b":0.1000000000000000000001}]}', "/a/1/b", "0.1"),
    ('{"t":1e-400}', "/t", "0.0"),
    ('{"pi":3.14159265358979323846}', "/pi", "3.141592653589793"),
])
def test_exact_numbers_refuses_what_a_double_would_round_naming_the_pointer(text, pointer,
                                                                            kept):
    limits = ServiceLimits(exact_numbers=True)
    with pytest.raises(CfgPatchError) as info:
        limits.check_numbers(text, "the document")
    assert info.value.code == "invalid json" and info.value.pointer == pointer
    assert f"a 64-bit float holds {kept}" in info.value.message
    ServiceLimits().check_numbers(text, "the document")  # off by default, as in run()


def test_exact_numbers_accepts_what_a_double_holds_and_numbers_in_strings():
    ServiceLimits(exact_numbers=True).check_numbers(
        '[0.1,1e2,2.50,12345678901234567890,"3.14159265358979323846",1.7976931348623157e308]',
        "the document")


def test_a_patch_of_doubling_copies_is_refused_holding_a_few_megabytes():
    import json
    import tracemalloc

    service = Service(limits=ServiceLimits(max_document_bytes=4 << 20))
    service.put("d", json.dumps({"a": ["x" * 40] * 8}))
    patch = json.dumps([{"op": "copy", "from": "/a", "path": "/a/-"}] * 60)  # 2.6 KB
    tracemalloc.start()
    with pytest.raises(LimitExceeded) as info:
        service.apply("d", patch)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert info.value.wire() == "limit exceeded at op 13" and len(patch) < 2800
    assert peak < 3 << 20
    assert service.head("d") == 1
