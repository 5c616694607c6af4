"""A command line's plain spellings read from a table, without argparse.

argparse and what it imports (``gettext``, ``locale``, ``shutil`` and with it ``bz2``,
``lzma`` and ``zlib``) cost a short command a good part of a process start.  A
:class:`Table` lists a sub-command's flags as its ``register`` gives them to argparse;
:func:`read` takes the words a user usually writes (``DIR``, ``-o json``,
``--output=json``, a switch, a repeated flag) into the values argparse would give, and
answers ``None`` for anything else: ``--help``, an unknown, abbreviated or joined short
flag (``--expl``, ``-ojson``, ``-o=json``), a flag without its value or whose value
starts with ``-``, a value outside its choices, ``--``, a switch given a value,
positionals in two runs or more than the command takes.  The caller then reads the
words with argparse, which gives its own answer and errors.  Each user's tests hold its
table to its argparse parser and both readings to the same values.
"""

from __future__ import annotations

from ..records import dataclass


@dataclass(frozen=True)
class Table:
    """A sub-command's flags: ``value_flags`` and ``switches`` (spelling -> argument),
    the arguments kept in a list (``appended``), their ``choices``, every argument's
    default, and the positional argument (``many``: argparse's ``nargs="*"``, else one
    optional word)."""

    value_flags: dict
    switches: dict
    appended: tuple
    choices: dict
    defaults: dict
    positional: str
    many: bool = False


def read(words: list[str], table: Table) -> dict | None:
    """The arguments in ``words`` as argparse reads them, or ``None`` (see the module)."""
    values = {name: list(value) if isinstance(value, list) else value
              for name, value in table.defaults.items()}
    positionals = runs = 0  # how many, and in how many runs between flags
    before = False  # the previous word was a positional
    index = 0
    while index < len(words):
        word = words[index]
        if not word.startswith("-") or word == "-":
            positionals += 1
            runs += 0 if before else 1
            if table.many:
                values[table.positional].append(word)
            else:
                values[table.positional] = word
            used, before = 1, True
        else:
            used, before = _read_flag(words, index, values, table), False
        if used == 0 or runs > 1 or positionals > 1 and not table.many:
            return None
        index += used
    return values


def _read_flag(words: list[str], index: int, values: dict, table: Table) -> int:
    """Read the flag at ``words[index]`` into ``values``; how many words it took (0: not
    a plain spelling, argparse is to read the command line)."""
    word = words[index]
    if word in table.switches:
        values[table.switches[word]] = True
        return 1
    if word in table.value_flags:
        following = words[index + 1] if index + 1 < len(words) else None
        if following is None or following.startswith("-") and following != "-":
            return 0
        return 2 if _set(values, table, table.value_flags[word], following) else 0
    flag, equals, value = word.partition("=")
    if equals and flag.startswith("--") and flag in table.value_flags:
        return 1 if _set(values, table, table.value_flags[flag], value) else 0
    return 0


def _set(values: dict, table: Table, name: str, value: str) -> bool:
    """Set an argument; False for a value outside its choices (argparse checks each) and
    for ``--``, which argparse drops from a flag's values."""
    if value == "--" or name in table.choices and value not in table.choices[name]:
        return False
    if name in table.appended:
        values[name].append(value)
    else:
        values[name] = value
    return True
