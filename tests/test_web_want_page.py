"""The "write the patch" mode in Chromium at 1400x1000 and 390x844: the example and
edited inputs give in the DOM the patches cfgpatch.web.wantmode computes, each verified,
and each patch run through real ``kubectl patch --local`` turns the object into the
wanted one; unreadable input is marked in its editor; no request while computing; a
shared link (``m=want``) restores both texts and the patches."""

from __future__ import annotations

import json
import sys

import pytest

from cfgpatch.jsonvalue import equal
from cfgpatch.kube.io import reader
from cfgpatch.web.wantmode import compute_want
from conftest import ROOT
from web_browser_support import (  # noqa: F401 - fixtures
    SIZES,
    browser,
    fits,
    kubectl_patch,
    open_shared_link,
    page_fixture,
    screenshot,
    site_url,
    size_fixture,
    tab_fixture,
)

sys.path.insert(0, str(ROOT / "scripts"))
from want_cases import CASES  # noqa: E402

pytestmark = pytest.mark.timeout(300)
EXAMPLE = json.loads((ROOT / "web" / "src" / "want-example.json").read_text())
TYPES = ("strategic", "merge", "json")


size = size_fixture()
tab = tab_fixture("want")


page = page_fixture(fits_screen=True)


def _shown(page) -> dict:
    out = {}
    for patch_type in TYPES:
        block = page.locator(f'#want-patches .want-patch[data-type="{patch_type}"]')
        out[patch_type] = {
            "text": block.locator("pre.want-text").inner_text() if block.locator(
                "pre.want-text").count() else None,
            "command": block.locator("pre.command").inner_text() if block.locator(
                "pre.command").count() else None,
            "check": block.locator(".want-check").inner_text() if block.locator(
                ".want-check").count() else None,
            "none": block.locator(".want-none").inner_text() if block.locator(
                ".want-none").count() else None,
        }
    return out


def _check(page, obj: str, wanted: str) -> None:
    expected = compute_want(obj, wanted)
    shown = _shown(page)
    want, _notes = reader.load_object(wanted)
    for patch_type in TYPES:
        made = expected["patches"][patch_type]
        if not made["ok"]:
            assert shown[patch_type]["none"], patch_type
            continue
        assert json.loads(shown[patch_type]["text"]) == json.loads(made["text"])
        assert shown[patch_type]["command"] == made["command"]
        assert shown[patch_type]["check"].startswith("\u2713")
        done = kubectl_patch(obj, made["text"], patch_type, "json")
        assert done.returncode == 0, done.stderr
        assert equal(json.loads(done.stdout), want), patch_type


def test_the_example(page, size):
    page.evaluate("window.cfgpatch.want.loadExample()")
    page.evaluate("window.cfgpatch.want.settled()")
    assert page.inner_text("#want-example-note") == EXAMPLE["note"]
    _check(page, EXAMPLE["object"], EXAMPLE["wanted"])
    if size == "desktop":
        screenshot(page, "want", full_page=True)


@pytest.mark.parametrize("case_id", ["container-added-first", "service-port-removed",
                                     "custom-resource", "replicas-removed-label-removed"])
def test_inputs_typed_in(page, case_id):
    _id, obj, wanted = next(case for case in CASES if case[0] == case_id)
    before = len(page.requests)
    page.evaluate("([o, w]) => window.cfgpatch.want.setInputs(o, w)", [obj, wanted])
    assert len(page.requests) == before, "computing made a request"
    _check(page, obj, wanted)


def test_an_unreadable_wanted_object_is_marked(page):
    obj = CASES[0][1]
    page.evaluate("([o, w]) => window.cfgpatch.want.setInputs(o, w)", [obj, "a: [\n"])
    assert page.is_visible("#want-wanted-error")
    assert "null" not in page.inner_text("#want-wanted-error")
    assert page.locator("#want-patches .want-patch").count() == 0
    assert "failed" in page.get_attribute("#want-verdict", "class").split()


def test_a_shared_link_restores_both_texts_and_the_patches(page, browser, size):  # noqa: F811
    _id, obj, wanted = next(case for case in CASES if case[0] == "service-port-removed")
    page.evaluate("([o, w]) => window.cfgpatch.want.setInputs(o, w)", [obj, wanted])
    before = page.evaluate("window.cfgpatch.want.result()")
    other = open_shared_link(page, browser, "want", SIZES[size])
    try:
        other.evaluate("window.cfgpatch.want.settled()")
        assert other.evaluate("window.cfgpatch.want.texts()") == {"object": obj, "wanted": wanted}
        assert other.evaluate("window.cfgpatch.want.result()") == before
        _check(other, obj, wanted)
        assert other.errors == [] and fits(other)
    finally:
        other.context.close()
