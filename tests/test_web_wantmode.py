"""The page's "write the patch" mode (cfgpatch.web.wantmode), held to real kubectl.

The recorded answers (scripts/record_web_want.py) are kubectl 1.32's ``patch --local -o
json`` with each patch the mode gives: the patches must still be the ones recorded,
kubectl must have turned the object into the wanted one exactly when the mode says its
patch is verified, and the live test asks kubectl 1.32 again (it must run in CI).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cfgpatch.jsonvalue import equal
from cfgpatch.kube.io import reader
from cfgpatch.web.wantmode import compute_want, guarded_ops, want_json
from conftest import ROOT, require

sys.path.insert(0, str(ROOT / "scripts"))
from want_cases import CASES  # noqa: E402

RECORDED = ROOT / "tests" / "data" / "web" / "want" / "recorded.jsonl"
BY_ID = {case_id: (obj, wanted) for case_id, obj, wanted in CASES}


def _records() -> list[dict]:
    return [json.loads(line) for line in RECORDED.read_text().splitlines()]


@pytest.mark.parametrize("record", _records(), ids=lambda r: f"{r['id']}-{r['type']}")
def test_patch_is_the_recorded_one_and_kubectl_agrees(record):
    obj, wanted = BY_ID[record["id"]]
    made = compute_want(obj, wanted)["patches"][record["type"]]
    if record["patch"] is None:
        assert not made["ok"] and made["plain"] == record["refused"]
        return
    assert made["ok"] and made["text"] == record["patch"]
    answer = record["kubectl"]
    assert answer["exit_code"] == 0, answer["stderr"]
    got = json.loads(answer["stdout"])
    want, _notes = reader.load_object(wanted)
    assert made["verified"] is equal(got, want), made["check"]


def test_every_recorded_patch_gives_the_wanted_object():
    """The cases were chosen so that every patch works; a change that breaks one shows."""
    for record in _records():
        if record["patch"] is not None:
            obj, wanted = BY_ID[record["id"]]
            want, _notes = reader.load_object(wanted)
            assert equal(json.loads(record["kubectl"]["stdout"]), want), record["id"]


def _binary() -> str | None:
    found = shutil.which("kubectl.1.32")
    if found:
        return found
    plain = shutil.which("kubectl")
    if plain is None:
        return None
    candidate = Path(plain).resolve().parent / "kubectl.1.32"
    return str(candidate) if candidate.exists() else None


@pytest.mark.parametrize("case_id", ["container-removed", "env-reordered",
                                     "service-port-removed", "custom-resource"])
def test_live_kubectl_1_32(case_id):
    binary = _binary()
    require(binary is not None, "kubectl.1.32 is not on PATH")
    from record_web_want import run_kubectl

    obj, wanted = BY_ID[case_id]
    want, _notes = reader.load_object(wanted)
    for patch_type, made in compute_want(obj, wanted)["patches"].items():
        if not made["ok"]:
            continue
        answer = run_kubectl(binary, obj, made["text"], patch_type)
        assert answer["exit_code"] == 0, answer["stderr"]
        assert equal(json.loads(answer["stdout"]), want) is made["verified"]


def test_refusals_and_inputs():
    obj, _wanted = BY_ID["image-bumped"]
    renamed = compute_want(obj, obj.replace("name: web\n", "name: web2\n", 1))
    assert not renamed["ok"] and renamed["fixed"] == ["metadata.name"]
    bad = json.loads(want_json(obj, "a: [\n"))
    assert not bad["ok"] and bad["inputs"]["wanted"]["line"] == 1
    same = compute_want(obj, obj)
    assert same["same"] and same["patches"]["strategic"]["text"] == "{}"
    assert same["patches"]["json"]["text"] == "[]"


_value = st.recursive(st.one_of(st.integers(-3, 3), st.sampled_from(["a", "b", "c"])),
                      lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(["x", "y", "name"]), inner, max_size=3),
                      max_leaves=8)
_element = st.fixed_dictionaries({"name": st.sampled_from(["p", "q", "r", "s"]),
                                  "v": st.integers(0, 2)})


@settings(max_examples=150, deadline=None)
@given(st.lists(_element, max_size=4), st.lists(_element, max_size=4),
       st.dictionaries(st.sampled_from(["k", "l"]), _value, max_size=2),
       st.dictionaries(st.sampled_from(["k", "l"]), _value, max_size=2))
def test_guarded_json_patch_applies_back(before, after, extra_a, extra_b):
    """The guarded JSON Patch always turns the object into the wanted one, and every
    test it adds holds on the object it was made for."""
    from cfgpatch.kube.engine import jsonpatch

    a = {"apiVersion": "v1", "kind": "X", "parts": before, **extra_a}
    b = {"apiVersion": "v1", "kind": "X", "parts": after, **extra_b}
    ops = guarded_ops(a, b)
    assert equal(jsonpatch.apply(a, ops), b)
    assert [op for op in ops if op["op"] != "test"] or equal(a, b)
