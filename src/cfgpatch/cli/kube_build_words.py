"""``cfgpatch kube build``'s usual command lines, read without argparse.

argparse and what it imports (``gettext``, ``locale``, ``shutil`` and with it ``bz2``
and ``lzma``) cost a small ``kube build`` a good part of a process start, which competes
with kubectl's.  :func:`parse` reads the plain spellings (``DIR``, ``-o json``,
``--output=json``, ``--explain``, ``--enable-helm``, ``--helm-command X``...) into the
same arguments argparse gives, and answers ``None`` for anything else: ``--help``, an
unknown, abbreviated or joined short flag (``--expl``, ``-ojson``, ``-o=json``), a flag
without its value or whose value starts with ``-``, a value outside its choices, ``--``,
a second directory.  The caller then reads the words with argparse, which gives its
own answer and errors.  A test holds the tables below to the parser of
:func:`.kube_build.register` and both readings to the same arguments.
"""

from __future__ import annotations

from types import SimpleNamespace

#: The flags that take a value, with the argument they set.
VALUE_FLAGS = {"-o": "output", "--output": "output", "--load-restrictor": "load_restrictor",
               "--helm-command": "helm_command", "--helm-api-versions": "helm_api_versions",
               "--helm-kube-version": "helm_kube_version"}
#: The flags that set their argument to True and take no value.
SWITCHES = {"--explain": "explain", "--enable-helm": "enable_helm",
            "--helm-debug": "helm_debug"}
#: The arguments whose values are kept in a list (argparse's ``append``).
APPENDED = ("helm_api_versions",)
CHOICES = {"output": ("yaml", "json")}
DEFAULTS = {"directory": ".", "output": "yaml", "explain": False,
            "load_restrictor": "LoadRestrictionsRootOnly", "enable_helm": False,
            "helm_command": "helm", "helm_api_versions": [], "helm_kube_version": "",
            "helm_debug": False}


def parse(words: list[str]) -> SimpleNamespace | None:
    """The arguments of ``cfgpatch kube build WORDS...`` (the words after ``build``) as
    argparse reads them, or ``None`` when the words are not a plain command line.

    >>> parse(["overlays/prod", "-o", "json"]).output
    'json'
    >>> parse(["overlays/prod", "--expl"]) is None
    True
    """
    values = {**DEFAULTS, "helm_api_versions": []}
    directories = 0
    index = 0
    while index < len(words):
        word = words[index]
        if not word.startswith("-") or word == "-":
            directories += 1
            values["directory"] = word
            used = 1
        else:
            used = _read_flag(words, index, values)
        if used == 0 or directories > 1:
            return None
        index += used
    from .kube_build import run_build

    return SimpleNamespace(kube_command="build", func=run_build, **values)


def _read_flag(words: list[str], index: int, values: dict) -> int:
    """Read the flag at ``words[index]`` into ``values``; how many words it took (0: not
    a plain spelling, argparse is to read the command line)."""
    word = words[index]
    if word in SWITCHES:
        values[SWITCHES[word]] = True
        return 1
    if word in VALUE_FLAGS:
        following = words[index + 1] if index + 1 < len(words) else None
        if following is None or following.startswith("-") and following != "-":
            return 0
        return 2 if _set(values, VALUE_FLAGS[word], following) else 0
    flag, equals, value = word.partition("=")
    if equals and flag.startswith("--") and flag in VALUE_FLAGS:
        return 1 if _set(values, VALUE_FLAGS[flag], value) else 0
    return 0


def _set(values: dict, name: str, value: str) -> bool:
    """Set an argument; False for a value outside its choices (argparse checks each) and
    for ``--``, which argparse drops from a flag's values."""
    if value == "--" or name in CHOICES and value not in CHOICES[name]:
        return False
    if name in APPENDED:
        values[name].append(value)
    else:
        values[name] = value
    return True
