"""``cfgpatch lint``'s usual command lines, read without argparse
(:mod:`.plain_words`: what is read, and what is left to argparse).

A test holds the tables below to the parser of :func:`.lint.register` and both readings
to the same arguments.
"""

from __future__ import annotations

from types import SimpleNamespace

from .plain_words import Table, read

#: The flags that take a value, with the argument they set.
VALUE_FLAGS = {"--root": "root", "--config": "config", "--format": "format",
               "--fail-on": "fail_on", "--schema": "schema", "--disable": "disable",
               "--output": "output", "-o": "output", "--color": "color",
               "--kubectl": "kubectl", "--load-restrictor": "load_restrictor",
               "--helm-command": "helm_command", "--base": "base"}
#: The flags that set their argument to True and take no value.
SWITCHES = {"--show-notes": "show_notes", "--no-kubectl": "no_kubectl",
            "--enable-helm": "enable_helm", "--no-default-exclude": "no_default_exclude"}
#: The arguments whose values are kept in a list (argparse's ``append``).
APPENDED = ("schema", "disable")
#: The formats of ``lint.formats.FORMATS`` (a test keeps them equal).
CHOICES = {"format": ("human", "json", "sarif", "github"),
           "fail_on": ("error", "warning", "note", "never"),
           "color": ("auto", "always", "never"),
           "load_restrictor": ("LoadRestrictionsRootOnly", "LoadRestrictionsNone")}
DEFAULTS: dict[str, object] = {
    "paths": [], "root": ".", "config": None, "format": "human", "fail_on": "error",
    "schema": [], "disable": [], "output": None, "show_notes": False, "color": "auto",
    "kubectl": None, "no_kubectl": False, "load_restrictor": None, "enable_helm": False,
    "helm_command": None, "base": None, "no_default_exclude": False}
TABLE = Table(VALUE_FLAGS, SWITCHES, APPENDED, CHOICES, DEFAULTS, positional="paths",
              many=True)


def parse(words: list[str]) -> SimpleNamespace | None:
    """The arguments of ``cfgpatch lint WORDS...`` (the words after ``lint``) as argparse
    reads them, or ``None`` when the words are not a plain command line.

    >>> parse(["apps", "--format", "sarif", "--disable", "a", "--disable=b"]).disable
    ['a', 'b']
    >>> parse(["--form", "sarif"]) is None
    True
    """
    values = read(words, TABLE)
    if values is None:
        return None
    from .lint import run_lint

    return SimpleNamespace(command="lint", func=run_lint, **values)
