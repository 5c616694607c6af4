"""The apply mode's server-side half in a real browser (Chromium through Playwright), at
1400x1000 and at 390x844: the switch, the field manager and --force-conflicts, the CRD
editor; what the page shows (kubectl's line or the server's conflict text with kubectl's
advice, the stored object with its managedFields, the --explain lines) equals what
``cfgpatch kube apply --server-side --explain`` prints on the same texts; the live
object's managers as field trees; conflicts with their three ways out; removals; a
shared link restores the settings; axe-core finds no violation.  The screenshot
docs/screenshots/apply-server-side.png comes from here.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT
from ssa_cli_support import cli_server_side
from web_browser_support import (  # noqa: F401 - fixtures
    SIZES,
    axe_violations,
    browser,
    fits,
    open_shared_link,
    page_fixture,
    screenshot,
    site_url,
    size_fixture,
    tab_fixture,
)

pytestmark = pytest.mark.timeout(300)
EXAMPLES = json.loads((ROOT / "web" / "src" / "ssa-examples.json").read_text())
TIME = re.compile(r'(\btime"?: )"[^"]*"')


size = size_fixture()
tab = tab_fixture("apply")


page = page_fixture("apply")


def example(name: str) -> dict:
    return next(e for e in EXAMPLES if e["id"] == name)


def choose(page, name: str) -> None:
    page.select_option("#apply-example", name)
    page.evaluate("window.cfgpatch.applySettled()")


def settle(page) -> None:
    page.evaluate("window.cfgpatch.applySettled()")


def shown(page) -> dict:
    """What the server-side panels show, read from the DOM."""
    return page.evaluate("""() => {
        const text = (id) => document.getElementById(id).textContent;
        const visible = (id) => { const n = document.getElementById(id);
            return !n.hidden && n.offsetParent !== null; };
        const pre = document.querySelector('#ssa-object pre.code');
        return {
            verdict: text('ssa-verdict'),
            answer: visible('ssa-answer'),
            result: pre && visible('ssa-answer') ? pre.textContent : '',
            kubectl: document.querySelector('#ssa-rejection pre.kubectl')?.textContent ?? '',
            explain: text('ssa-explain'),
            conflicts: [...document.querySelectorAll('#ssa-conflict-list > li')].map((li) => ({
                field: li.dataset.field,
                ways: [...li.querySelectorAll('.ssa-ways li')].map((w) => w.textContent)})),
            before: [...document.querySelectorAll('#ssa-managers-before .ssa-manager')].map((d) => ({
                manager: d.dataset.manager, tree: d.querySelector('pre').textContent})),
            removals: [...document.querySelectorAll('#ssa-removals li')].map((li) => li.textContent),
            clientShown: visible('apply-result'),
            lastShown: document.querySelector('.last-applied').offsetParent !== null,
            crdOpen: document.getElementById('apply-crd-box').open,
        };
    }""")


def same_as_cli(page, tmp_path, live: str, manifest: str, crd: str = "", *,
                manager: str = "kubectl", force: bool = False, fmt: str = "yaml") -> dict:
    cli = cli_server_side(tmp_path, live, manifest, crd, manager=manager, force=force, fmt=fmt)
    seen = shown(page)
    assert not seen["clientShown"] and not seen["lastShown"]
    explained = seen["explain"].split("\n") if seen["explain"] else []
    assert explained == cli["explain"][:len(explained)] and len(explained) >= len(
        cli["explain"]) - 1  # the command line's last line may be its --live warning
    if cli["code"] == 0:
        assert seen["answer"]
        assert seen["verdict"].endswith(" serverside-applied")
        assert TIME.sub(r"\1T", seen["result"]) == TIME.sub(r"\1T", cli["out"])
    else:
        assert not seen["answer"]
        assert seen["kubectl"] == cli["error"]
    return seen


@pytest.mark.parametrize("name", [e["id"] for e in EXAMPLES])
def test_every_server_side_example_shows_what_the_cli_prints(page, name, tmp_path):
    e = example(name)
    choose(page, name)
    seen = same_as_cli(page, tmp_path, e["live"], e["manifest"], e.get("crd", ""),
                       manager=e["manager"])
    data = page.evaluate("window.cfgpatch.applyResult()")
    assert [m["manager"] for m in seen["before"]] == [m["manager"] for m in
                                                      data["managers_before"]]
    assert [m["tree"] for m in seen["before"]] == ["\n".join(m["fields"]) for m in
                                                   data["managers_before"]]
    assert seen["crdOpen"] == bool(e.get("crd"))
    assert fits(page)


def test_conflicts_force_and_the_field_manager(page, tmp_path):
    e = example("ssa-hpa-conflict")
    choose(page, "ssa-hpa-conflict")
    seen = same_as_cli(page, tmp_path, e["live"], e["manifest"], manager="helm")
    assert seen["verdict"] == "kubectl apply --server-side would fail: 1 conflict."
    assert seen["conflicts"][0]["field"] == ".spec.replicas"
    assert len(seen["conflicts"][0]["ways"]) == 3
    assert seen["conflicts"][0]["ways"][0].startswith("force (--force-conflicts): helm takes")
    assert any(m["manager"] == "kube-controller-manager" and "replicas" in m["tree"]
               for m in seen["before"])
    page.check("#apply-force")
    settle(page)
    seen = same_as_cli(page, tmp_path, e["live"], e["manifest"], manager="helm", force=True)
    assert any(r.startswith("forced .spec.replicas") for r in seen["removals"])
    page.click("#ssa-result [data-apply-format=json]")
    settle(page)
    same_as_cli(page, tmp_path, e["live"], e["manifest"], manager="helm", force=True,
                fmt="json")
    page.click("#ssa-result [data-apply-format=yaml]")
    page.uncheck("#apply-force")
    page.fill("#apply-manager", "kustomize-controller")
    settle(page)
    seen = same_as_cli(page, tmp_path, e["live"], e["manifest"],
                       manager="kustomize-controller")
    assert len(seen["conflicts"]) >= 2  # helm's fields too, now
    assert fits(page)


def test_the_crd_editor_gives_a_custom_resource_its_list_keys(page, tmp_path):
    e = example("ssa-custom-resource")
    choose(page, "ssa-custom-resource")
    same_as_cli(page, tmp_path, e["live"], e["manifest"], e["crd"])
    page.evaluate("window.cfgpatch.setApplyCrd('')")
    seen = same_as_cli(page, tmp_path, e["live"], e["manifest"])
    assert "no corresponding type for example.com/v1, Kind=Gizmo" in seen["kubectl"]
    assert "CRD editor" in page.locator("#ssa-rejection .plain").text_content()
    page.evaluate("window.cfgpatch.setApplyCrd('kind: [')")
    assert page.locator("#apply-crd-error").is_visible()
    assert page.locator("#apply-crd-editor .cm-lint-marker-error").count() == 1
    page.evaluate("(t) => window.cfgpatch.setApplyCrd(t)", e["crd"])
    same_as_cli(page, tmp_path, e["live"], e["manifest"], e["crd"])
    assert not page.locator("#apply-crd-error").is_visible()
    assert fits(page)


def test_the_switch_back_to_client_side(page):
    choose(page, "ssa-create")
    assert page.locator("#ssa-result").is_visible()
    page.click("[data-apply-side=client]")
    settle(page)
    assert page.locator("#apply-result").is_visible() and page.locator("#ssa-result").is_hidden()
    assert page.locator("#apply-verdict").text_content() == "deployment.apps/web created"
    page.click("[data-apply-side=server]")
    settle(page)
    assert page.locator("#ssa-verdict").text_content() == "deployment.apps/web serverside-applied"


def test_a_shared_link_keeps_the_server_side_settings(page, browser, size, tmp_path):  # noqa: F811
    e = example("ssa-custom-resource")
    choose(page, "ssa-custom-resource")
    page.fill("#apply-manager", "operator")
    settle(page)
    other = open_shared_link(page, browser, "apply", SIZES[size])
    try:
        settle(other)
        assert other.input_value("#apply-manager") == "operator"
        seen = same_as_cli(other, tmp_path, e["live"], e["manifest"], e["crd"],
                           manager="operator")
        assert seen["crdOpen"] and seen["conflicts"]
        assert other.errors == []
    finally:
        other.context.close()


def test_axe_finds_no_violation_server_side(page):
    choose(page, "ssa-hpa-conflict")
    assert axe_violations(page) == []
    choose(page, "ssa-custom-resource")
    assert axe_violations(page) == []


def test_screenshot(page, size):
    choose(page, "ssa-hpa-conflict")
    assert fits(page)
    if size == "desktop":
        screenshot(page, "apply-server-side", "#mode-apply")
