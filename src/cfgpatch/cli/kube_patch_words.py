"""``cfgpatch kube patch``'s usual command lines, read without argparse.

argparse, and what it imports (``gettext``, ``shutil`` and with it ``bz2``, ``lzma``,
``locale``...), are a good part of the start-up of a small ``kube patch``, which
competes with kubectl's.  :func:`parse` reads the plain spellings of the command's
flags (``-f FILE``, ``--type merge``, ``--patch=TEXT``, ``--local``...) into the same
arguments argparse gives, and answers ``None`` for anything else: ``--help``, an
unknown, abbreviated or joined flag (``--filen``, ``-fFILE``, ``-o=json``), a flag
without its value or whose value starts with ``-`` (except the patch's, as
:func:`.kube.prepare_words` reads it), ``--``, an ``--as`` that is not a choice, no
``-f``.  The caller then reads the words with argparse, which gives its own
answer and errors.  A test holds the table below to the parser of :func:`.kube.register`
and both readings to the same arguments.
"""

from __future__ import annotations

from types import SimpleNamespace

from .kube import _flag_value, run_patch

#: The flags that take a value, with the argument they set.
VALUE_FLAGS = {"-f": "filename", "--filename": "filename", "--type": "type",
               "-p": "patch", "--patch": "patch", "--patch-file": "patch_file",
               "-o": "output", "--output": "output", "--as": "view", "--schema": "schema",
               "--crd": "crd", "-n": "namespace", "--namespace": "namespace"}
#: The arguments whose value goes through :func:`.kube._flag_value` (argparse's ``type``).
TRIMMED = ("filename", "patch", "output", "namespace")
#: The flags whose value is optional, with their argument and the value without one.
OPTIONAL_VALUE_FLAGS = {"--local": ("local", "true"), "--dry-run": ("dry_run", "client")}
#: ``--explain`` sets ``explain`` to True and takes no value.
SWITCHES = {"--explain": "explain"}
CHOICES = {"view": ("kubectl", "kustomize")}
DEFAULTS = {"filename": None, "type": "strategic", "patch": None, "patch_file": None,
            "output": None, "explain": False, "view": "kubectl", "schema": None, "crd": None,
            "namespace": None, "local": "true", "dry_run": None}


def parse(words: list[str]) -> SimpleNamespace | None:
    """The arguments of ``cfgpatch kube patch WORDS...`` (the words after ``patch``) as
    argparse reads them, or ``None`` when the words are not a plain command line.

    >>> parse(["-f", "o.yaml", "--type", "merge", "-p", "{}"]).type
    'merge'
    >>> parse(["-f", "o.yaml", "--filen", "x"]) is None
    True
    """
    values = dict(DEFAULTS)
    index = 0
    while index < len(words):
        used = _read_flag(words, index, values)
        if used == 0:
            return None
        index += used
    if values["filename"] is None:
        return None
    for name in TRIMMED:
        value = values[name]
        if isinstance(value, str):  # these flags hold text (None: not given)
            values[name] = _flag_value(value)
    return SimpleNamespace(command="kube", kube_command="patch", func=run_patch, **values)


def _read_flag(words: list[str], index: int, values: dict) -> int:
    """Read the flag at ``words[index]`` into ``values``; how many words it took (0: not
    a plain spelling, argparse is to read the command line)."""
    word = words[index]
    following = words[index + 1] if index + 1 < len(words) else None
    if word in SWITCHES:
        values[SWITCHES[word]] = True
        return 1
    if word in VALUE_FLAGS:
        if following is None:
            return 0
        if VALUE_FLAGS[word] != "patch" and not _is_value(following):
            return 0  # the patch takes any next word (prepare_words); the others do not
        return 2 if _set(values, VALUE_FLAGS[word], following) else 0
    if word in OPTIONAL_VALUE_FLAGS:
        name, without = OPTIONAL_VALUE_FLAGS[word]
        if following is not None and _is_value(following):
            values[name] = following
            return 2
        values[name] = without
        return 1
    flag, equals, value = word.partition("=")
    if equals and flag.startswith("--") and flag in VALUE_FLAGS:
        return 1 if _set(values, VALUE_FLAGS[flag], value) else 0
    if equals and flag in OPTIONAL_VALUE_FLAGS:
        return 1 if _set(values, OPTIONAL_VALUE_FLAGS[flag][0], value) else 0
    return 0


def _set(values: dict, name: str, value: str) -> bool:
    """Set an argument; False for a value outside its choices (argparse checks each) and
    for ``--``, which argparse drops from a flag's values."""
    if value == "--" or name in CHOICES and value not in CHOICES[name]:
        return False
    values[name] = value
    return True


def _is_value(word: str) -> bool:
    """Whether argparse reads ``word`` as a value for sure (``-`` is standard input)."""
    return not word.startswith("-") or word == "-"
