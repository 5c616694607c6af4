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
from cfgpatch.spellings import SpellingTable
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
    '{"routes":[' + ",".join(['{"a":1}'] * 40) + "," + "[" * 300 + "]" * 300 + "]}",  # names 256
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


# -- one spelling table shared by several reads (as the service shares its own) -------------

_DAMAGE = st.sampled_from([
    "", ',"a":1', ',"a":1,"a":2', "-0.0", "1e999", " ", "]", ",", "\\u003a", "\\ud800", "x",
    '"', "\\u003A", "[" * (MAX_DEPTH + 2), "},{", '},{"a":1},{', "}",
])


def same_as_general_reader_with(table: SpellingTable, text: str) -> None:
    fast = outcome(lambda t: read_document(t, TextCache(), table), text)
    general = outcome(lambda t: parse_with_text(t), text)
    assert fast == general, text


def _nested(depth: int, leaf) -> dict:
    for _ in range(depth):
        leaf = {"n": [leaf]}
    return leaf


deep_routes = st.builds(lambda items: {"routes": items},
                        st.lists(route | st.builds(_nested, st.integers(0, MAX_DEPTH // 2 + 2),
                                                   route), min_size=30, max_size=40))
# Elements holding "},{" themselves (a list of objects inside), so that the text up to
# the first "},{" after an element's start is not always the element.
inner_lists = st.builds(lambda items: {"routes": items},
                        st.lists(route | st.builds(lambda a, b: {"l": [a, b], "z": a}, route,
                                                   route), min_size=30, max_size=40))


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(values | tables | deep_routes | inner_lists, st.integers(0, 10**6),
                          _DAMAGE,
                          st.sampled_from(range(6)), st.booleans()), min_size=2, max_size=5),
       st.sampled_from([(2, 40), (50, 10**6), (10**6, 10**9)]))
def test_a_table_shared_by_several_reads_changes_no_value_text_or_error(reads, limits):
    table = SpellingTable(*limits)
    for value, where, insert, style, reverse in reads:
        if reverse and type(value) is dict and type(value.get("routes")) is list:
            value = {**value, "routes": value["routes"][::-1]}
        text = _styles(value)[style]
        position = where % (len(text) + 1)
        same_as_general_reader_with(table, text[:position] + insert + text[position:])
        same_as_general_reader_with(table, text)  # the same text, undamaged, after it


def _distinct(n: int, seed: int = 4) -> dict:
    doc = generate({"n": n, "seed": seed})
    for index, route in enumerate(doc["routes"]):
        route["id"] = index
    return doc


@pytest.mark.parametrize("damage", [
    ('"id":1150,', '"id":1150,"id":1151,'),
    ('"id":1150,', '"id":-0.0,'),
    ('"id":1150,', '"i\\u003ad":1150,'),
    ('"id":1150,', '"id":1e999,'),
    ('"id":1100,', '"id":"\\ud800",'),
    ('"id":10,', '"id":10,"id":10,'),
])
def test_damaged_elements_never_enter_the_table_unscreened(damage):
    doc = _distinct(1200)
    text = canonical(doc)
    damaged = text.replace(*damage, 1)
    table = SpellingTable()
    for order in ([damaged, text, damaged], [text, damaged, text]):
        for one in order:
            same_as_general_reader_with(table, one)
        reordered = canonical({**doc, "routes": doc["routes"][::-1]})
        same_as_general_reader_with(table, reordered)
        same_as_general_reader_with(table, reordered.replace(*damage, 1))


def test_a_later_version_reuses_earlier_elements_and_reads_them_one_by_one(monkeypatch):
    a = _distinct(1200)
    b = mutate(a, {"seed": 2, "edits": 20})
    b["routes"].reverse()
    table = SpellingTable()
    value_a, _ = read_document(canonical(a), TextCache(), table)
    monkeypatch.setattr(document_reader._Reader, "_rest", None)  # b: never in one piece
    value_b, canon_b = read_document(canonical(b), TextCache(), table)
    assert canon_b == canonical(b)
    old = {id(r) for r in value_a["routes"]}
    assert sum(id(r) in old for r in value_b["routes"]) >= 1200 - 20
    monkeypatch.undo()
    pretty = json.dumps(b, indent=1)  # not canonical: the pieces of the first 1,024 elements
    value_c, _ = read_document(pretty, TextCache(), table)  # are new, so it is read in one piece
    assert read_document(pretty, TextCache(), table)[1] == canon_b


def test_the_table_is_bounded_by_generations():
    table = SpellingTable(max_entries=100, max_chars=10**9)
    for seed in range(5):
        read_document(canonical(_distinct(300, seed)), TextCache(), table)
        assert len(table.current) <= 2 * 300 + 100 and len(table) <= 2 * (2 * 300 + 100)
    table = SpellingTable(max_entries=10**9, max_chars=1000)
    read_document(canonical(_distinct(300)), TextCache(), table)
    assert table.current == {} and table.previous and table.chars == 0
    table.clear()
    assert len(table) == 0


def test_the_service_shares_element_values_between_versions_and_documents():
    a = _distinct(1200)
    b = mutate(a, {"seed": 2, "edits": 50})
    service = Service()
    service.put("a", canonical(a))
    service.put("b", canonical(b))
    routes_a = service.get_value("a")["routes"]
    routes_b = service.get_value("b")["routes"]
    old = {id(r) for r in routes_a}
    assert sum(id(r) in old for r in routes_b) >= len(routes_b) - 50
    fresh = Service()
    fresh.put("a", canonical(a))
    other = Service()
    other.put("b", canonical(b))
    fresh.put("b", other.get("b"))
    assert service.diff_stats("a", "b") == fresh.diff_stats("a", "b")
    patch = json.dumps([{"op": "replace", "path": "/routes/5/id", "value": -1}])
    service.apply("b", patch)
    assert service.get_value("a")["routes"][5]["id"] == 5  # shared values are never changed
    assert json.loads(service.get("b"))["routes"][5]["id"] == -1


def test_known_elements_are_found_by_their_cut_whatever_they_hold():
    """Elements read before are found by the text up to the next "},{": a flat one, one
    holding "},{" itself, a new one between them, the last one."""
    flat = [{"path": f"/r{k}", "w": k} for k in range(40)]
    nested = [{"l": [{"a": k}, {"b": k}], "z": {"a": k}} for k in range(40)]
    table = SpellingTable()
    first, _ = read_document(canonical({"routes": flat + nested}), TextCache(), table)
    again = flat[::-1] + [{"new": 1}] + nested[::-1]
    value, canon = read_document(canonical({"routes": again}), TextCache(), table)
    assert canon == canonical({"routes": again})
    old = {id(r) for r in first["routes"]}
    assert [id(r) in old for r in value["routes"]] == [True] * 40 + [False] + [True] * 40
    # pretty text holds no "},{" (and spells its elements otherwise): read as before
    same_as_general_reader_with(table, json.dumps({"routes": again}, indent=1))
