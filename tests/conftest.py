"""Shared test helpers: where the shared reference folder is, and real-component skips."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CFGPATCH_SHARED", ROOT.parent / "shared"))
IN_CI = os.environ.get("CI", "").lower() == "true"

#: ``make test`` notes here which test files reach libyaml (``make test-pure-yaml`` reruns them)
LIBYAML_USERS = os.environ.get("CFGPATCH_LIBYAML_USERS")
if LIBYAML_USERS:
    import libyaml_users

    libyaml_users.install()


def pytest_sessionfinish(session: pytest.Session) -> None:
    if LIBYAML_USERS:
        libyaml_users.write(LIBYAML_USERS)


def require(condition: bool, reason: str) -> None:
    """Skip (locally) or fail (in CI) when a real component is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required in CI: {reason}")
    print(f"SKIP: {reason}")
    pytest.skip(reason)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep together, under pytest-xdist's ``--dist loadgroup``, the tests of a module that
    defines a fixture wider than one test (a browser, a server, a built wheel), so that
    fixture is set up once, on one worker; every other test goes wherever a worker is free."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        for definitions in info.name2fixturedefs.values():
            definition = definitions[-1]
            module = definition.baseid.split("::")[0]
            if definition.scope != "function" and module.endswith(".py"):
                item.add_marker(pytest.mark.xdist_group(module))
                break
