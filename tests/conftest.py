"""Shared test helpers: where the shared reference folder is, and real-component skips."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("CFGPATCH_SHARED", ROOT.parent / "shared"))
IN_CI = os.environ.get("CI", "").lower() == "true"


def require(condition: bool, reason: str) -> None:
    """Skip (locally) or fail (in CI) when a real component is missing."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required in CI: {reason}")
    print(f"SKIP: {reason}")
    pytest.skip(reason)
