"""cfgpatch.context_scope: a context variable set for the length of a with block."""

from contextvars import ContextVar

import pytest

from cfgpatch.context_scope import NO_SCOPE, ContextScope

VAR: ContextVar = ContextVar("test_context_scope", default=None)


def test_the_block_sees_the_value_and_the_old_one_comes_back():
    assert VAR.get() is None
    with ContextScope(VAR, [1]) as held:
        assert held == [1] and VAR.get() is held
    assert VAR.get() is None


def test_an_inner_block_sets_its_own_value_unless_it_keeps_the_outer():
    with ContextScope(VAR, "outer"):
        with ContextScope(VAR, "inner") as held:
            assert held == "inner" == VAR.get()
        assert VAR.get() == "outer"
        with ContextScope(VAR, "inner", keep_outer=True) as held:
            assert held == "outer" == VAR.get()
        assert VAR.get() == "outer"
    assert VAR.get() is None


def test_keep_outer_sets_the_value_when_nothing_is_set():
    with ContextScope(VAR, {}, keep_outer=True) as held:
        assert held == {} and VAR.get() is held
    assert VAR.get() is None


def test_the_old_value_comes_back_after_an_error():
    with pytest.raises(KeyError), ContextScope(VAR, "during"):
        raise KeyError("x")
    assert VAR.get() is None


def test_no_scope_sets_nothing():
    with NO_SCOPE as held:
        assert held is None and VAR.get() is None
    with pytest.raises(ValueError), NO_SCOPE:
        raise ValueError("passes through")
