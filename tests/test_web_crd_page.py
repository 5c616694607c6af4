"""The patch mode's CRD field in Chromium at 1400x1000 and 390x844: the example with its
CRD, a CRD pasted into the field, an unreadable CRD marked in its editor, the kustomize
view with the CRD as its ``openapi:`` document (equal to the bridge, itself checked
against ``kubectl kustomize``), a shared link keeping the CRD, axe-core clean."""

from __future__ import annotations

import json

import pytest

from cfgpatch.web import bridge
from conftest import ROOT
from web_browser_support import (  # noqa: F401 - fixtures
    SIZES,
    axe_violations,
    browser,
    choose,
    fits,
    open_tab,
    page_fixture,
    screenshot,
    site_url,
    size_fixture,
    tab_fixture,
)

pytestmark = pytest.mark.timeout(300)
EXAMPLE = next(e for e in json.loads((ROOT / "web" / "src" / "examples.json").read_text())
               if e["id"] == "custom-resource-crd")


size = size_fixture()
tab = tab_fixture()
page = page_fixture()


def codes(page, patch_type: str) -> list[str]:
    return [f["code"] for f in page.evaluate("window.cfgpatch.results()")[patch_type]["findings"]]


def test_the_example_brings_its_crd_and_server_side_apply_view(page):
    choose(page, "custom-resource-crd")
    assert page.evaluate("document.getElementById('crd-box').open")
    assert "server-side-apply-view" in codes(page, "strategic")
    expected = bridge.compute(EXAMPLE["object"], EXAMPLE["patch"], {"crd": EXAMPLE["crd"]})
    assert page.evaluate("window.cfgpatch.results()")["strategic"]["findings"] == \
        expected["results"]["strategic"]["findings"]
    assert fits(page)


def test_the_kustomize_view_uses_the_crd_as_its_openapi_document(page):
    choose(page, "custom-resource-crd")
    page.click("#kustomize summary")
    page.evaluate("window.cfgpatch.settled()")
    page.wait_for_function("() => !document.getElementById('kustomize-openapi').hidden")
    note = page.inner_text("#kustomize-openapi")
    assert "openapi:" in note and "spec.ports" in note
    expected = bridge.compute(EXAMPLE["object"], EXAMPLE["patch"],
                              {"crd": EXAMPLE["crd"], "kustomize": True})["kustomize"]
    shown = page.evaluate("document.querySelector('#kustomize-object pre.code').textContent")
    assert shown == "".join(line[0] + "\n" for line in expected["lines"])
    page.click("#kustomize summary")
    assert fits(page)


def test_a_pasted_crd_and_an_unreadable_one(page):
    choose(page, "custom-resource")
    assert "server-side-apply-view" not in codes(page, "strategic")
    page.evaluate("(t) => window.cfgpatch.setCrd(t)", "kind: [\n")
    assert page.is_visible("#crd-error")
    assert page.locator("#crd-editor .cm-lint-marker-error").count() == 1
    assert page.evaluate("window.cfgpatch.results()")["merge"]["ok"]
    page.evaluate("(t) => window.cfgpatch.setCrd(t)", "")
    assert not page.is_visible("#crd-error")
    assert fits(page)


def test_a_shared_link_keeps_the_crd(page, browser, size):  # noqa: F811
    choose(page, "custom-resource-crd")
    page.evaluate("window.cfgpatch.settled()")
    link = page.evaluate("window.cfgpatch.link()")
    other = open_tab(browser, link, SIZES[size])
    try:
        other.evaluate("window.cfgpatch.settled()")
        assert other.evaluate("document.getElementById('crd-box').open")
        assert "server-side-apply-view" in codes(other, "strategic")
        assert other.errors == []
    finally:
        other.context.close()


def test_axe_and_screenshot(page, size):
    choose(page, "custom-resource-crd")
    assert axe_violations(page) == []
    if size == "desktop":
        screenshot(page, "patch-crd", ".inputs")
