"""kube/io/kyaml_merge.py: merge keys (``<<``) as kustomize expands them in resources and
strategic patches.  Every expectation was measured with kubectl kustomize 1.32 (the
corpus tree yaml-merge-keys replays most of them end to end)."""

from __future__ import annotations

import pytest

from cfgpatch.kube.io.kyaml import KyamlError
from cfgpatch.kube.io.kyaml_duplicates import scan_keys
from cfgpatch.kube.io.kyaml_merge import MergeKeyError, expand_merge_keys
from cfgpatch.kube.io.kyaml_read import read_document
from cfgpatch.kube.io.kyaml_scalars import node_value


def expanded(text: str):
    return node_value(expand_merge_keys(read_document(text)))


def test_the_mapping_s_own_keys_win_wherever_they_are_written():
    value = expanded("base: &b {app: web, tier: front}\n"
                     "before: {tier: back, <<: *b}\nafter: {<<: *b, tier: back}\n")
    assert value["before"] == {"tier": "back", "app": "web"}
    assert value["after"] == {"app": "web", "tier": "back"}


def test_in_a_list_of_maps_the_first_map_with_a_key_wins():
    value = expanded("a: &a {k: a, only-a: 1}\nb: &b {k: b, only-b: 2}\n"
                     "m: {<<: [*a, *b, {k: c, only-c: 3}]}\n")
    assert value["m"] == {"k": "a", "only-a": 1, "only-b": 2, "only-c": 3}


def test_merges_inside_merged_maps_are_expanded():
    value = expanded("in: &in {i: 1, s: in}\nout: &out {<<: *in, s: out}\n"
                     "m: {<<: *out, own: x}\nn: {<<: {<<: {deep: 1}, k: v}}\n")
    assert value["m"] == {"i": 1, "s": "out", "own": "x"}
    assert value["n"] == {"k": "v", "deep": 1}


def test_aliases_become_copies_so_a_change_stays_in_one_place():
    node = expand_merge_keys(read_document("a: &a {x: 1}\nb: *a\nc: {<<: *a}\n"))
    a, b = node.get("a"), node.get("b")
    assert a is not b and a.get("x") is not b.get("x")


def test_explicit_merge_tag_and_complex_key_syntax_are_merge_keys():
    assert expanded("m:\n  ? <<\n  : {a: 1}\n")["m"] == {"a": 1}
    assert expanded("m:\n  !!merge <<: {a: 1}\n")["m"] == {"a": 1}


@pytest.mark.parametrize("text, expected", [
    ('m: {"<<": {x: y}, b: c}\n', {"b": "c"}),                  # quoted: dropped
    ("m: {!!str <<: x, b: c}\n", {"b": "c"}),                   # tagged !!str: dropped
    ("m: {b: c, '<<': {x: y}, <<: {m: n}}\n", {"b": "c", "m": "n"}),  # before the merge
    ("m: {<<: {m: n}, '<<': kept}\n", {"m": "n", "<<": "kept"}),      # after the merge
    ('m: {<<: {"<<": brought, k: v}}\n', {"<<": "brought", "k": "v"}),  # brought in
])
def test_a_key_that_is_only_written_as_merge_key(text, expected):
    assert expanded(text)["m"] == expected


def test_a_map_merging_itself_merges_nothing():
    assert expanded("m: &m\n  <<: *m\n") == {"m": {}}
    assert expanded("m: {<<: [], a: b}\n") == {"m": {"a": "b"}}


@pytest.mark.parametrize("text, message", [
    ("m: {<<: x}\n", "map merge requires map or sequence of maps as the value"),
    ("m: {<<: }\n", "map merge requires map or sequence of maps as the value"),
    ("m: {<<: [{a: b}, x]}\n", "map merge requires map or sequence of maps as the value"),
    ("l: &l [{a: b}]\nm: {<<: *l}\n", "invalid map merge: received alias for a non-map value"),
    ("s: &s x\nm: {<<: [*s]}\n", "invalid map merge: received alias for a non-map value"),
    ("s: &s x\nm: {<<: *s}\n", "invalid map merge: received alias for a non-map value"),
    ("m: {<<: [[{a: b}]]}\n", "invalid map merge: received a nested sequence"),
    ("m: {<<: {a: b}, c: d, <<: {e: f}}\n", "duplicate merge key"),
])
def test_kustomize_s_errors(text, message):
    with pytest.raises(MergeKeyError) as caught:
        expand_merge_keys(read_document(text))
    assert caught.value.message == message
    assert isinstance(caught.value, KyamlError) and caught.value.malformed is False


def test_the_key_scan_finds_any_key_written_as_merge_key():
    assert scan_keys(read_document("a: {b: [{<<: {c: 1}}]}\n"))[0]
    assert scan_keys(read_document("a: {'<<': 1}\n"))[0]
    assert not scan_keys(read_document("a: {b: '<<'}\n"))[0]
