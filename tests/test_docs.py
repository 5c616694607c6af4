"""README.md documents every sub-command and every error code."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfgpatch.cli import build_parser
from cfgpatch.errors import ALL_CODES

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def _commands():
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return sorted(action.choices)


@pytest.mark.parametrize("command", _commands())
def test_every_command_is_in_the_readme(command):
    assert f"cfgpatch {command}" in README


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_error_code_is_in_the_readme(code):
    assert f"`{code}`" in README


def test_the_two_commands_are_there():
    assert "make serve" in README and "make test" in README
