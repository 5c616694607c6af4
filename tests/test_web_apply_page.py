"""The page's apply mode in a real browser (Chromium through Playwright), at 1400x1000
and at 390x844: the live object and the new manifest (and optionally the last applied
configuration) pasted into the editors give the same kubectl line, patch, result and
explanation as ``cfgpatch kube apply`` on the same texts, computed in the tab with no
request; input errors marked in the editor; the mode switch; no horizontal overflow.
The screenshot docs/screenshots/apply.png comes from here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apply_cli_support import assert_same_refusal, cli_apply
from cfgpatch.kube.io import writer
from conftest import ROOT
from web_browser_support import (  # noqa: F401 - fixtures
    SIZES,
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
EXAMPLES = json.loads((ROOT / "web" / "src" / "apply-examples.json").read_text())
RECORDED = {row["id"]: row for row in map(json.loads, (
    ROOT / "tests" / "data" / "kube" / "apply" / "recorded.jsonl").read_text().splitlines())}


size = size_fixture()
tab = tab_fixture("apply")


page = page_fixture("apply")


def shown(page) -> dict:
    """What the apply panels show, read from the DOM."""
    return page.evaluate("""() => {
        const text = (id) => document.getElementById(id).textContent;
        const visible = (id) => !document.getElementById(id).hidden;
        const pre = document.querySelector('#apply-object pre.code');
        return {
            verdict: text('apply-verdict'),
            warning: visible('apply-warning') ? text('apply-warning') : '',
            answer: visible('apply-answer'),
            patch: visible('apply-patch') ? text('apply-patch') : null,
            notes: [...document.querySelectorAll('#apply-notes li')].map((li) => li.textContent),
            result: pre && visible('apply-answer') ? pre.textContent : '',
            rejected: visible('apply-rejection'),
            kubectl: document.querySelector('#apply-rejection pre.kubectl')?.textContent ?? '',
        };
    }""")


def same_as_cli(page, tmp_path: Path, live: str, manifest: str, last: str = "",
                fmt: str = "yaml", overwrite: bool = True) -> dict:
    cli = cli_apply(tmp_path, live, manifest, last, fmt=fmt, overwrite=overwrite)
    seen = shown(page)
    if cli["code"] != 0:
        assert seen["rejected"] and not seen["answer"]
        assert_same_refusal(cli["stderr"], seen["kubectl"])
        return seen
    assert seen["verdict"] == cli["line"]
    assert seen["patch"] == cli["patch"]
    assert seen["result"] == cli["result"]
    assert seen["notes"] == cli["notes"]
    assert seen["warning"] == cli["stderr"].rstrip("\n")
    return seen


def test_examples_are_recorded_cases():
    for example in EXAMPLES:
        case = RECORDED[example["id"]]
        assert example["live"] == writer.dump(case["live"], "yaml")
        assert example["manifest"] == writer.dump(case["manifest"], "yaml")
        assert example.get("overwrite", True) == ("--overwrite=false" not in case.get("flags", []))


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_every_example_shows_what_the_cli_prints(page, example, tmp_path):
    page.select_option("#apply-example", example["id"])
    page.evaluate("window.cfgpatch.applySettled()")
    overwrite = example.get("overwrite", True)
    assert page.locator("#apply-overwrite-false").is_checked() == (not overwrite)
    seen = same_as_cli(page, tmp_path, example["live"], example["manifest"], overwrite=overwrite)
    case = RECORDED[example["id"]]
    if case["code"] == 0:
        assert seen["patch"] == case["patch"]  # and so kubectl's bytes
    assert fits(page)


def _paste(page, which: str, text: str) -> None:
    """Replace an editor's text as a user pasting does (select all, insert)."""
    page.click(f"#apply-{which}-editor .cm-content")
    page.keyboard.press("Control+a")
    if text:
        page.keyboard.insert_text(text)
    else:
        page.keyboard.press("Delete")


def test_pasted_inputs_are_computed_in_the_tab(page, site_url, tmp_path):  # noqa: F811
    _, paths = site_url
    case = RECORDED["env-var-live-only-kept"]
    live, manifest = writer.dump(case["live"], "yaml"), json.dumps(case["manifest"], indent=1)
    page.select_option("#apply-example", EXAMPLES[0]["id"])
    page.evaluate("window.cfgpatch.applySettled()")
    asked, requests = len(paths), len(page.requests)
    _paste(page, "live", live)
    _paste(page, "manifest", manifest)
    page.wait_for_function("document.getElementById('apply-example-note').textContent === ''")
    page.evaluate("window.cfgpatch.applySettled()")
    page.wait_for_function("(p) => document.getElementById('apply-patch').textContent === p",
                           arg=case["patch"])
    seen = same_as_cli(page, tmp_path, live, manifest)
    assert any(note.startswith("kept spec.template.spec.containers[name=app].env[name=LIVE]")
               for note in seen["notes"])
    assert any(note.startswith("reordered ") for note in seen["notes"])
    assert "~" in page.evaluate("""() => [...document.querySelectorAll(
        '#apply-object pre.code .line')].map((l) => l.dataset.mark).join('')""")
    assert len(paths) == asked and len(page.requests) == requests  # nothing sent anywhere


def test_last_applied_editor_and_overwrite_and_format(page, tmp_path):
    case = RECORDED["scale-kept-replicas-never-applied"]
    live, manifest = writer.dump(case["live"], "yaml"), writer.dump(case["manifest"], "yaml")
    last = writer.dump({**case["manifest"], "spec": {**case["manifest"]["spec"], "replicas": 5}},
                       "yaml")
    page.evaluate("([l, m, a]) => window.cfgpatch.setApplyInputs(l, m, a)", [live, manifest, last])
    seen = same_as_cli(page, tmp_path, live, manifest, last)
    assert '"replicas":null' in seen["patch"]
    page.click("[data-apply-format=json]")
    page.evaluate("window.cfgpatch.applySettled()")
    same_as_cli(page, tmp_path, live, manifest, last, fmt="json")
    page.click("[data-apply-format=yaml]")
    # a manifest that sets replicas over a manual scale: a conflict with --overwrite=false
    conflict = RECORDED["overwrite-false-conflict"]
    live, manifest = writer.dump(conflict["live"], "yaml"), writer.dump(conflict["manifest"], "yaml")
    page.evaluate("([l, m]) => window.cfgpatch.setApplyInputs(l, m, '')", [live, manifest])
    same_as_cli(page, tmp_path, live, manifest)  # overwrite: the manifest wins
    page.check("#apply-overwrite-false")
    page.evaluate("window.cfgpatch.applySettled()")
    seen = same_as_cli(page, tmp_path, live, manifest, overwrite=False)
    assert "conflicts with changes made from original to current" in seen["kubectl"]
    page.uncheck("#apply-overwrite-false")
    page.evaluate("window.cfgpatch.applySettled()")


def test_an_unreadable_input_is_marked_where_it_is(page):
    manifest = EXAMPLES[0]["manifest"]
    page.evaluate("([l, m]) => window.cfgpatch.setApplyInputs(l, m, '')",
                  ["apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [c\n", manifest])
    data = page.evaluate("window.cfgpatch.applyResult()")
    error = data["inputs"]["live"]
    assert data["ok"] is False and error["line"] >= 4
    assert page.locator("#apply-live-error").is_visible()
    assert page.locator("#apply-live-error .plain").text_content() == error["plain"]
    assert page.locator("#apply-live-editor .cm-lint-marker-error").count() == 1
    assert page.locator("#apply-rejection").is_visible()
    assert not page.locator("#apply-answer").is_visible()


def test_the_mode_switch(page):
    assert page.locator("#mode-patch").is_hidden() and page.locator("#mode-apply").is_visible()
    page.check("input[name=mode][value=patch]")
    assert page.evaluate("window.cfgpatch.mode") == "patch"
    assert page.locator("#mode-apply").is_hidden() and page.locator("#mode-patch").is_visible()
    assert page.evaluate("window.cfgpatch.results()")["strategic"]["ok"] is True
    assert fits(page)
    page.check("input[name=mode][value=apply]")
    assert page.evaluate("window.cfgpatch.mode") == "apply"
    assert page.locator("#mode-apply").is_visible()


def test_a_shared_link_opens_the_apply_mode_with_its_inputs(page, browser, site_url,  # noqa: F811
                                                            size, tmp_path):
    case = RECORDED["container-removed"]
    live, manifest = writer.dump(case["live"], "yaml"), writer.dump(case["manifest"], "yaml")
    last = json.dumps(json.loads(case["live"]["metadata"]["annotations"][
        "kubectl.kubernetes.io/last-applied-configuration"]))
    page.evaluate("([l, m, a]) => window.cfgpatch.setApplyInputs(l, m, a)", [live, manifest, last])
    other = open_shared_link(page, browser, "apply", SIZES[size])
    try:
        other.evaluate("window.cfgpatch.applySettled()")
        same_as_cli(other, tmp_path, live, manifest, last)
        assert shown(other)["patch"] == case["patch"]
        # the patch mode behind it holds its first example, not empty editors
        other.check("input[name=mode][value=patch]")
        assert other.evaluate("window.cfgpatch.results()")["strategic"]["ok"] is True
        assert other.errors == []
    finally:
        other.context.close()
    # a patch-mode link in the same tab switches back to the patch mode
    page.check("input[name=mode][value=patch]")
    patch_link = page.evaluate("window.cfgpatch.link()")
    page.check("input[name=mode][value=apply]")
    assert page.evaluate("window.cfgpatch.link()") != patch_link  # the link follows the mode
    page.evaluate("(hash) => { location.hash = hash; }", patch_link[patch_link.index("#"):])
    page.wait_for_function("() => window.cfgpatch.mode === 'patch'")
    page.check("input[name=mode][value=apply]")


def test_screenshot(page, size):
    page.select_option("#apply-example", "env-var-live-only-kept")
    page.evaluate("window.cfgpatch.applySettled()")
    assert fits(page)
    if size == "desktop":
        screenshot(page, "apply", full_page=True)
