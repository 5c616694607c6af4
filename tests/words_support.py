"""Checks shared by the tests of the command lines read without argparse
(``cli/plain_words.py`` and its tables): the table is the argparse parser's, and a plain
reading equals argparse's."""

from __future__ import annotations

from collections.abc import Callable

from cfgpatch.cli.plain_words import Table


def assert_table_is_the_parser(table: Table, parser) -> None:
    """Every argument of ``parser`` (an argparse sub-parser) has its flags, default,
    choices, kind (append, switch) and nothing else in ``table``."""
    actions = [a for a in parser._actions if a.dest != "help"]
    flags = {}
    for action in actions:
        for option in action.option_strings:
            flags[option] = action.dest
        expected = [] if action.nargs == "*" else action.default
        assert table.defaults[action.dest] == expected, action.dest
        assert action.type is None
        assert table.choices.get(action.dest) == (
            tuple(action.choices) if action.choices else None)
        assert (type(action).__name__ == "_AppendAction") == (action.dest in table.appended)
        if action.option_strings:
            assert (action.nargs == 0) == (action.dest in table.switches.values())
    assert flags == {**table.value_flags, **table.switches}
    assert set(table.defaults) == {a.dest for a in actions}


def assert_same_reading(parse: Callable, argparse_reading: Callable, words: list[str]
                        ) -> None:
    """``parse(words)`` is None (argparse is to read them) or argparse's arguments."""
    fast = parse(list(words))
    if fast is None:
        return  # argparse reads it (the command's own tests cover that)
    assert vars(fast) == argparse_reading(words), words
