"""cfgpatch.record_inits: the record ``__init__`` templates compiled with the package."""

from __future__ import annotations

import collections
import keyword
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch import records
from cfgpatch.record_inits import INITS, NEWS

ROOT = Path(__file__).resolve().parent.parent


def test_the_file_holds_every_shape_the_package_uses():
    """Regenerated from a fresh interpreter that imports every module: nothing changes
    (a record class of a new shape fails here until the script is run)."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_record_inits.py"),
                           "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("shape", sorted(INITS))
def test_each_template_is_the_code_compiled_at_run_time(shape):
    namespace: dict = {}
    exec(records.template_source(*shape), namespace)  # noqa: S102
    made, stored = namespace["__init__"].__code__, INITS[shape].__code__
    assert (made.co_code, made.co_varnames, made.co_names, made.co_consts) == \
        (stored.co_code, stored.co_varnames, stored.co_names, stored.co_consts)


def test_a_stored_template_takes_the_class_field_names():
    @records.dataclass(frozen=True)
    class Place:
        file: str
        line: int = 0
        tags: list = records.field(default_factory=list)

    place = Place("a.yaml", 3)
    assert (place.file, place.line, place.tags) == ("a.yaml", 3, [])
    assert Place.__init__.__code__.co_varnames[:4] == ("self", "file", "line", "tags")
    assert Place.__init__.__code__.co_name == "__init__"
    with pytest.raises(TypeError, match="'file'"):
        Place()  # type: ignore[call-arg]
    with pytest.raises(records.FrozenInstanceError):
        place.line = 4  # type: ignore[misc]


def test_records_use_the_stored_template_not_exec(monkeypatch):
    """A shape the file holds is not compiled again (``exec`` is what made start-up slow)."""
    shape = next(iter(INITS))
    monkeypatch.setattr(records, "_TEMPLATES", {})
    monkeypatch.setattr(records, "exec", _refuse, raising=False)
    assert records._template(*shape) is INITS[shape].__code__


def test_a_shape_not_stored_is_compiled():
    shape = (31, (30,), False, True)
    assert shape not in INITS
    names = {f"f{i}": int for i in range(31)}
    namespace = {"__annotations__": names, "f30": records.field(default_factory=dict),
                 "__post_init__": lambda self: setattr(self, "seen", True)}
    wide = records.dataclass(type("Wide", (), namespace))
    made = wide(*range(30))
    assert (made.f0, made.f29, made.f30, made.seen) == (0, 29, {}, True)


def _refuse(*args, **kwargs):
    raise AssertionError("a stored template was compiled again")


@pytest.mark.parametrize("count", sorted(NEWS))
def test_each_new_template_is_the_code_compiled_at_run_time(count):
    namespace: dict = {}
    exec(records.new_source(count), namespace)  # noqa: S102
    made, stored = namespace["__new__"].__code__, NEWS[count].__code__
    assert (made.co_code, made.co_varnames, made.co_names, made.co_consts) == \
        (stored.co_code, stored.co_varnames, stored.co_names, stored.co_consts)


@given(st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True), max_size=9,
                unique=True).filter(lambda names: not any(map(keyword.iskeyword, names))),
       st.data())
def test_named_tuples_behave_as_collections_makes_them(names, data):
    defaults = data.draw(st.lists(st.integers(), max_size=len(names)))
    ours = records.namedtuple("Point", names, defaults=defaults)
    theirs = collections.namedtuple("Point", names, defaults=defaults)
    values = data.draw(st.lists(st.integers(), min_size=len(names) - len(defaults),
                                max_size=len(names)))
    mine, other = ours(*values), theirs(*values)
    assert mine == other and tuple(mine) == tuple(other) and repr(mine) == repr(other)
    for name in ("_fields", "_field_defaults", "__match_args__", "__doc__", "__module__"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.__new__.__doc__ == theirs.__new__.__doc__
    assert mine._asdict() == other._asdict() and mine.__getnewargs__() == other.__getnewargs__()
    if names:
        change = {names[-1]: -1}
        assert mine._replace(**change) == other._replace(**change)
        assert [getattr(mine, n) for n in names] == [getattr(other, n) for n in names]
        assert ours(**dict(zip(names, values))) == mine
    assert ours._make(tuple(mine)) == mine and type(ours._make(tuple(mine))) is ours
    with pytest.raises(ValueError, match="unexpected field names"):
        mine._replace(nope=1)
    with pytest.raises(TypeError):
        ours(*values, *range(len(names) + 1 - len(values)))
    with pytest.raises(AttributeError):
        mine.extra = 1  # (slots, as a tuple)


def test_a_named_tuple_subclass_pickles_and_keeps_its_slots():
    from cfgpatch.kube.problems import JsonSyntax

    found = JsonSyntax("end", None, 3, 1, 2)
    assert pickle.loads(pickle.dumps(found)) == found
    assert type(pickle.loads(pickle.dumps(found))) is JsonSyntax
    assert found.literal is None and found._replace(line=4).line == 4
    assert not hasattr(found, "__dict__")


def test_named_tuple_field_names_are_checked():
    for bad in ("a a", "_a", "1a", "a-b"):
        with pytest.raises(ValueError, match="not a field name"):
            records.namedtuple("Bad", bad)
    with pytest.raises(TypeError, match="more default values"):
        records.namedtuple("Bad", "a", defaults=(1, 2))
