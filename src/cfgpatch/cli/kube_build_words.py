"""``cfgpatch kube build``'s usual command lines, read without argparse
(:mod:`.plain_words`: what is read, and what is left to argparse).

A test holds the tables below to the parser of :func:`.kube_build.register` and both
readings to the same arguments.
"""

from __future__ import annotations

from types import SimpleNamespace

from .plain_words import Table, read

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
TABLE = Table(VALUE_FLAGS, SWITCHES, APPENDED, CHOICES, DEFAULTS, positional="directory")


def parse(words: list[str]) -> SimpleNamespace | None:
    """The arguments of ``cfgpatch kube build WORDS...`` (the words after ``build``) as
    argparse reads them, or ``None`` when the words are not a plain command line.

    >>> parse(["overlays/prod", "-o", "json"]).output
    'json'
    >>> parse(["overlays/prod", "--expl"]) is None
    True
    """
    values = read(words, TABLE)
    if values is None:
        return None
    from .kube_build import run_build

    return SimpleNamespace(kube_command="build", func=run_build, **values)
