"""The public JSON Patch test suite (json-patch-tests) run through ``apply_patch``.

The suite lives in the shared reference folder and is read from there, never
copied.  Where our rules deliberately differ from a case's expectation, the case
is listed in ``DEVIATIONS`` with the reason, so any new difference fails.
"""

from __future__ import annotations

import json

import pytest

from cfgpatch import CfgPatchError, apply_patch, equal
from conftest import SHARED, require

SUITE = SHARED / "conformance" / "json-patch-tests"
FILES = ("tests.json", "spec_tests.json")

#: comment of the case -> why our answer differs from the suite's.
#: None today: the suite has no case where exact number kinds change the answer
#: (our own tests cover ``1`` vs ``1.0`` and ``true`` vs ``1`` in test_jsonpatch.py).
DEVIATIONS: dict[str, str] = {}


def _cases():
    cases = []
    for name in FILES:
        path = SUITE / name
        if not path.exists():
            return []
        for number, case in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            label = case.get("comment") or f"{name}#{number}"
            cases.append(pytest.param(case, id=f"{name}#{number}:{label}"[:90]))
    return cases


def test_suite_is_present():
    require(all((SUITE / name).exists() for name in FILES), f"conformance suite not found in {SUITE}")


@pytest.mark.parametrize("case", _cases())
def test_case(case):
    if case.get("disabled"):
        pytest.skip("disabled in the suite itself")
    label = case.get("comment", "")
    outcome = _outcome(case)
    expected_ok = "error" not in case
    agrees = outcome == "ok" if expected_ok else outcome == "error"
    if label in DEVIATIONS:
        assert not agrees, f"listed deviation now agrees with the suite: {label}"
    else:
        assert agrees, f"{label}: {outcome}"


def _outcome(case) -> str:
    try:
        result = apply_patch(case["doc"], case["patch"])
    except CfgPatchError as error:
        return "error" if "error" in case else f"unexpected error {error.describe()}"
    if "error" in case:
        return "ok (expected an error)"
    if "expected" in case and not equal(result, case["expected"]):
        return f"ok but result {result!r} != {case['expected']!r}"
    return "ok"
