"""cfgpatch.records: records as dataclasses makes them, checked against dataclasses itself."""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch import records


def _pair(**options):
    """The same class made by dataclasses and by records."""
    made = []
    for module in (dataclasses, records):
        @module.dataclass(**options)
        class Point:
            """A point."""

            LIMIT: ClassVar[int] = 3
            x: int
            y: int = 0
            tags: tuple = module.field(default_factory=tuple)
            note: str = module.field(default="", repr=False, compare=False)

        made.append(Point)
    return made


@pytest.mark.parametrize("options", [{}, {"frozen": True}, {"eq": False}])
@given(x=st.integers(), y=st.integers(), tags=st.lists(st.integers(), max_size=3),
       note=st.text(max_size=3), x2=st.integers())
def test_records_behave_as_dataclasses(options, x, y, tags, note, x2):
    real, light = _pair(**options)
    a, b = real(x, y, tuple(tags), note), light(x, y, tuple(tags), note)
    assert repr(a).replace("test_records_behave_as_dataclasses.<locals>._pair.<locals>.", "") \
        == repr(b).replace("test_records_behave_as_dataclasses.<locals>._pair.<locals>.", "")
    assert (real.__hash__ is None) == (light.__hash__ is None)
    other_a, other_b = real(x2, y, tuple(tags), "z"), light(x2, y, tuple(tags), "z")
    assert (a == other_a) == (b == other_b)
    assert (a == real(x, y, tuple(tags))) == (b == light(x, y, tuple(tags)))
    if real.__hash__ is not None and options.get("frozen"):
        assert (hash(a) == hash(real(x, y, tuple(tags)))) == (
            hash(b) == hash(light(x, y, tuple(tags))))
    assert [f.name for f in dataclasses.fields(a)] == [f.name for f in records.fields(b)]
    assert records.replace(b, y=y + 1).y == dataclasses.replace(a, y=y + 1).y
    assert light(x).tags == ()
    assert light.LIMIT == 3 and light.__match_args__ == real.__match_args__
    if options.get("frozen"):
        with pytest.raises(records.FrozenInstanceError):
            b.x = 1
        with pytest.raises(AttributeError):
            del b.y


def test_a_frozen_record_keeps_cached_properties_and_its_own_methods():
    @records.dataclass(frozen=True)
    class Box:
        size: int

        @cached_property
        def area(self) -> int:
            return self.size * self.size

        def __repr__(self) -> str:
            return f"<{self.size}>"

    box = Box(3)
    assert box.area == 9 and repr(box) == "<3>" and box == Box(3) and hash(box) == hash(Box(3))
    assert records.is_record(Box) and records.is_record(box)
    assert not records.is_record(int)


def test_post_init_and_base_fields_come_first():
    @records.dataclass
    class Base:
        a: int

    @records.dataclass
    class Child(Base):
        b: int = 2

        def __post_init__(self) -> None:
            self.total = self.a + self.b

    child = Child(1)
    assert Child(1, 5).b == 5
    assert (child.a, child.b, child.total) == (1, 2, 3)
    assert [f.name for f in records.fields(Child)] == ["a", "b"]


def test_replace_hands_real_dataclasses_to_dataclasses():
    @dataclasses.dataclass(frozen=True)
    class Real:
        a: int

    assert records.replace(Real(1), a=2) == Real(2)
    assert [f.name for f in records.fields(Real)] == ["a"]


def test_both_default_and_factory_is_refused():
    with pytest.raises(ValueError, match="both default and default_factory"):
        records.field(default=1, default_factory=list)


def test_a_default_factory_gives_each_record_its_own_value():
    @records.dataclass
    class Bag:
        items: list = records.field(default_factory=list)

    assert Bag().items == [] and Bag().items is not Bag().items
