"""The premise of ``make test-pure-yaml``'s selection (tests/libyaml_users.py): libyaml has
one caller in cfgpatch, and child processes that run cfgpatch are noticed."""

from __future__ import annotations

import re
from pathlib import Path

import libyaml_users

SRC = Path(__file__).resolve().parent.parent / "src" / "cfgpatch"
LIBYAML_NAMES = re.compile(r"\bC(?:Base|Safe|Full|Unsafe)?Loader\b|\bcyaml\b|__with_libyaml__|"
                           r"\bCParser\b|\bCEmitter\b|\bCDumper\b|\bCSafeDumper\b")


def test_libyaml_is_reached_from_one_module_only():
    users = sorted(str(path.relative_to(SRC)) for path in SRC.rglob("*.py")
                   if "web/static" not in path.as_posix()
                   and LIBYAML_NAMES.search(path.read_text(encoding="utf-8")))
    assert users == ["kube/io/kyaml_read.py"]


def test_the_watch_wraps_the_function_that_module_calls():
    from cfgpatch.kube.io import kyaml_read

    source = Path(kyaml_read.__file__).read_text(encoding="utf-8")
    assert "def _fast_compose(" in source
    assert source.count("yaml.compose_all(text, Loader=_c_loader)") == 1


def test_child_processes_running_cfgpatch_are_noticed():
    assert libyaml_users._starts_cfgpatch(["/x/.venv/bin/python", "-m", "cfgpatch", "lint"])
    assert libyaml_users._starts_cfgpatch(["/x/.venv/bin/cfgpatch", "kube", "build", "."])
    assert libyaml_users._starts_cfgpatch("cfgpatch kube build .")
    assert not libyaml_users._starts_cfgpatch(["/usr/bin/kubectl.1.32", "kustomize", "/tmp/a"])
    assert not libyaml_users._starts_cfgpatch(["/x/python", "-m", "cfgpatch", "serve"])
