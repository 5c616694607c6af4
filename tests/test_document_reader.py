"""read_document must give exactly what parse_with_text gives: value, canonical text, errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch import document_reader, run
from cfgpatch.document_reader import read_document
from cfgpatch.errors import InvalidInput
from cfgpatch.fixtures import generate, mutate
from cfgpatch.jsonvalue import MAX_DEPTH, canonical, parse_with_text
from cfgpatch.service import Service
from cfgpatch.text_cache import TextCache

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.sampled_from([0.0, -0.0, 1.0, 0.5, 1e16, -2.5e-7, 1e308])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=("Cs",)), max_size=6)
    | st.sampled_from([":", "a:b", "-0.0", "\u2028", "é", '"', "\\", "\x00"])
)
keys = st.sampled_from(["a", "b", "c", ":", "é", "a b", "~1", ""]) | st.text(max_size=3)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(keys, children, max_size=4),
    max_leaves=30,
)
# Arrays of repeated objects exercise the element-by-element path (32 or more elements).
route = st.fixed_dictionaries({"path": st.sampled_from(["/a", "/b"]),
                               "w": st.sampled_from([1, 1.0, True, -0.0])})
tables = st.builds(lambda items, extra: {"routes": items, "x": extra},
                   st.lists(route | values, min_size=30, max_size=45), values)


def _styles(value) -> list[str]:
    return [
        canonical(value),
        json.dumps(value, ensure_ascii=False),
        json.dumps(value, indent=2, sort_keys=True),
        json.dumps(value, separators=(",", ":")),
        json.dumps(value),  # \\u escapes for non-ASCII
        " \n" + canonical(value) + "\t ",
    ]


def outcome(read, text: str):
    """(True, canonical text, exact text of the value) or (False, code, message)."""
    try:
        value, canon = read(text)
    except InvalidInput as error:
        return False, error.code, error.message
    return True, canon, canonical(value)


def same_as_general_reader(text: str) -> None:
    fast = outcome(lambda t: read_document(t, TextCache()), text)
    general = outcome(lambda t: parse_with_text(t), text)
    assert fast == general, text


@settings(max_examples=150, deadline=None)
@given(values | tables)
def test_every_spelling_of_a_value_reads_as_the_general_reader_reads_it(value):
    for text in _styles(value):
        same_as_general_reader(text)


@settings(max_examples=150, deadline=None)
@given(values | tables, st.integers(min_value=0, max_value=10**6), st.sampled_from([
    ',"a":1', ',"a":1,"a":2', "-0.0", "1e999", "NaN", " ", "]", "}", ",", "\\u003a", "\\ud800",
    '"', "x", "00", "[", "{", "01", "-", "1.", '\\"', "\\u003A",
]))
def test_damaged_and_unusual_texts_give_the_same_value_or_error(value, where, insert):
    text = canonical(value)
    position = where % (len(text) + 1)
    same_as_general_reader(text[:position] + insert + text[position:])


def _object_text(pairs: list) -> str:
    return "{" + ",".join(json.dumps(k) + ":" + canonical(v) for k, v in pairs) + "}"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), values), max_size=4),
                min_size=1, max_size=40),
       st.lists(st.sampled_from(["routes", "x"]), min_size=1, max_size=3))
def test_objects_spelled_pair_by_pair_may_repeat_keys_anywhere(objects, outer_keys):
    array = "[" + ",".join(_object_text(pairs) for pairs in objects) + "]"
    same_as_general_reader(array)
    same_as_general_reader("{" + ",".join(f'"{key}":{array}' for key in outer_keys) + "}")


@pytest.mark.parametrize("text", [
    '{"a":1,"a":1}',
    '{"routes":[' + ",".join(['{"a":1}'] * 40) + ',{"a":1,"a":2}]}',
    '{"routes":[' + ",".join(['{"a":1}'] * 40) + ',{"b":1,"b":1}]}',
    '[' + ",".join(['{"a":-0.0}'] * 40) + ']',
    '[' + ",".join(['{"a":1e999}'] * 40) + ']',
    '[' + ",".join(["1"] * 40) + ',{"a":1,"a":1}]',
    '{"b":1,"a":2}',
    '{"a":"\\ud800"}',
    '["\\udfff"' + ",{}" * 40 + "]",
    "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    '{"a":' * MAX_DEPTH + "1" + "}" * MAX_DEPTH,
    "[{}," + "[" * 5000 + "]" * 5000 + "]",
    '{"a":[' + ",".join(["{}"] * 40) + "]} x",
    "",
    "   ",
    "[1,2",
    '{"a" 1}',
    '{"a":1,}',
    "[" + "1" * 5000 + "]",
])
def test_known_awkward_texts(text):
    same_as_general_reader(text)


def test_bytes_and_their_errors_match():
    assert read_document(b'{"a":[1]}', TextCache())[1] == '{"a":[1]}'
    with pytest.raises(InvalidInput) as info:
        read_document(b"\xff", TextCache())
    assert "not UTF-8" in info.value.message


def test_equal_elements_become_one_shared_value_and_their_texts_are_cached():
    doc = generate({"n": 300, "seed": 3})
    cache = TextCache()
    value, canon = read_document(canonical(doc), cache)
    assert canon == canonical(doc)
    routes = value["routes"]
    assert len({id(r) for r in routes}) == len({canonical(r) for r in routes}) < len(routes)
    assert cache.keys(routes) == [canonical(r) for r in routes]


def test_nothing_is_cached_when_the_general_reader_takes_over():
    cache = TextCache()
    text = '{"routes":[' + ",".join(['{"a":1}'] * 40) + '],"z":[1,2],"z":3}'
    with pytest.raises(InvalidInput):
        read_document(text, cache)
    assert cache._by_id == {} and cache._arrays == {}


def test_shared_elements_are_never_changed_through_one_another():
    text = json.dumps({"routes": [{"a": 1, "tags": ["x"]}] * 40})
    patch = json.dumps([
        {"op": "replace", "path": "/routes/3/a", "value": 2},
        {"op": "add", "path": "/routes/7/tags/-", "value": "y"},
        {"op": "move", "from": "/routes/8", "path": "/routes/0"},
        {"op": "add", "path": "/routes/0/b", "value": 1},
    ])
    results = run([["put", "d", text], ["apply", "d", patch], ["get", "d", 2], ["get", "d", 1]])
    after = json.loads(results[2])["routes"]
    assert after[0] == {"a": 1, "b": 1, "tags": ["x"]}
    assert after[4] == {"a": 2, "tags": ["x"]}
    assert after[8] == {"a": 1, "tags": ["x", "y"]}
    assert sum(1 for r in after if r == {"a": 1, "tags": ["x"]}) == 37
    assert results[3] == canonical(json.loads(text))


def test_the_service_reads_stored_text_with_it():
    a = canonical(generate({"n": 200, "seed": 1}))
    b = canonical(mutate(json.loads(a), {"seed": 2, "edits": 9}))
    service = Service()
    service.put("a", a)
    service.put("b", b)
    fresh = Service()
    fresh.put("a", json.dumps(json.loads(a), indent=1))  # not canonical: the general reader
    fresh.put("b", b)
    assert service.diff_stats("a", "b") == fresh.diff_stats("a", "b")
    assert service.get("a") == fresh.get("a") == a


def test_arrays_of_mostly_distinct_elements_are_read_in_one_piece():
    doc = generate({"n": 1200, "seed": 4})
    for index, route in enumerate(doc["routes"]):
        route["id"] = index
    text = canonical(doc)
    same_as_general_reader(text)
    same_as_general_reader(text.replace('"id":150,', '"id":150,"id":151,'))
    same_as_general_reader(text.replace('"id":150,', '"id":-0.0,'))
    value, canon = read_document(text, TextCache())
    assert canon == text and len({id(r) for r in value["routes"]}) == 1200


@pytest.mark.parametrize("damage", [
    None,
    ('"id":1150,', '"id":1150,"id":1151,'),  # a repeated key after the sample
    ('"id":1150,', '"id":-0.0,'),
    ('"id":1150,', '"id":1e999,'),  # an infinity
    ('"id":1150,', '"i\\u003ad":1150,'),  # a colon spelled as an escape
    ('"id":1150,', '"id":1150,,'),
    ('"id":1199,', '"id":1199'),
    (']', ',]'),  # a trailing comma at the end of the routes
    ('"id":1100,', '"id":"\\ud800",'),  # a lone surrogate
])
@pytest.mark.parametrize("style", ["canonical", "spaced", "tail"])
def test_the_rest_of_a_mostly_distinct_array_reads_as_the_general_reader(damage, style,
                                                                       monkeypatch):
    doc = generate({"n": 1200, "seed": 4})
    for index, route in enumerate(doc["routes"]):
        route["id"] = index
    if style == "tail":  # a long text after the array: it is read again, not copied
        doc["zz"] = ["x" * 100] * 3000
        monkeypatch.setattr(document_reader, "_MAX_COPY", 1)
        monkeypatch.setattr(document_reader._Reader, "_rest", None)  # never called
    text = canonical(doc) if style != "spaced" else json.dumps(doc, indent=1, sort_keys=True)
    if damage is not None:
        old, new = damage
        if old == "]":  # the routes array's own end
            end = text.index('"id": 1199' if style == "spaced" else '"id":1199')
            end = text.index("}", end) + 1
            text = text[:end] + new[0] + text[end:]
        elif style == "spaced":
            text = text.replace(old.replace(":", ": ").rstrip(","),
                                new.replace(":", ": ").rstrip(","), 1)
        else:
            text = text.replace(old, new, 1)
    same_as_general_reader(text)
    if damage is None:
        value, canon = read_document(text, TextCache())
        assert canon == canonical(doc) and len({id(r) for r in value["routes"]}) == 1200
