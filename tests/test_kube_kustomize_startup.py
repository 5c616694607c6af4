"""What a small build skips to start quickly still answers as the full path does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.kube.kustomize.schema import KustomizeSchema, _builtin_facts
from cfgpatch.kube.schema.node import _kinds_index, builtin_schema


def _known_types() -> list[tuple[str, str]]:
    facts = _builtin_facts()
    return ([(version, kind) for version, kinds in _kinds_index().items() for kind in kinds]
            + sorted(facts["unknown_kinds"])
            + [tuple(alias.rsplit("/", 1)) for alias in facts["aliases"]])


def test_the_kinds_index_read_alone_is_the_tables():
    assert _kinds_index() == builtin_schema()._kinds


def test_builtin_knows_every_type_as_for_type_does():
    schema = KustomizeSchema.builtin()
    for version, kind in _known_types():
        assert KustomizeSchema.builtin_knows(version, kind) == (
            schema.for_type(version, kind) is not None), (version, kind)


@given(version=st.sampled_from(["v1", "apps/v1", "batch/v1beta1", "x.io/v1", "", "v2"]),
       kind=st.sampled_from(["Deployment", "Status", "ConfigMap", "CronJob", "Foo", ""])
       | st.text(max_size=5))
def test_builtin_knows_any_type_as_for_type_does(version, kind):
    assert KustomizeSchema.builtin_knows(version, kind) == (
        KustomizeSchema.builtin().for_type(version, kind) is not None)


def test_go_yaml_digits_are_unicode_nd_digits():
    import unicodedata

    from cfgpatch.kube.go.yaml import _is_digit

    for code in range(0x110000):
        if not 0xD800 <= code < 0xE000:
            assert _is_digit(chr(code)) == (unicodedata.category(chr(code)) == "Nd"), code
