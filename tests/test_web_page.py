"""The patch tester page as a user meets it, at 1400x1000 and at 390x844 (issue 17).

Every test runs at both sizes: no horizontal overflow, load progress and nothing
computed before it is, sharing (copy with and without the Clipboard API, a second page,
the same page through ``hashchange``, damaged links), errors marked at their line and
column in the editors, results equal to real ``kubectl patch --local -o yaml|json``
(and kustomize's to real ``kubectl kustomize``), copying without marks, before/after,
the wording of changes, rejected JSON Patches, focus, keys and announcements.  The
screenshots in docs/screenshots/ come from here and from test_web_browser.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import yaml

from cfgpatch.kube.io import reader
from conftest import ROOT
from web_browser_support import (  # noqa: F401 - fixtures
    SIZES,
    TYPES,
    browser,
    choose,
    fits,
    kubectl,
    kubectl_patch,
    open_tab,
    page_fixture,
    screenshot,
    shown_text,
    site_url,
    size_fixture,
    tab_fixture,
)

pytestmark = pytest.mark.timeout(300)
EXAMPLES = json.loads((ROOT / "web" / "src" / "examples.json").read_text())
BY_ID = {example["id"]: example for example in EXAMPLES}
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: b\n"
CLIPBOARD = ["clipboard-read", "clipboard-write"]


size = size_fixture()
tab = tab_fixture(permissions=CLIPBOARD)


page = page_fixture()


def _set(page, object_text: str, patch_text: str, patch_type: str | None = None) -> None:
    page.evaluate("([o, p]) => window.cfgpatch.setInputs(o, p)", [object_text, patch_text])
    if patch_type:
        page.evaluate("(t) => window.cfgpatch.setType(t)", patch_type)
    page.evaluate("window.cfgpatch.settled()")


def _clipboard(page) -> str:
    return page.evaluate("navigator.clipboard.readText()")


def _visible_and_not_cut(page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    width = page.evaluate("innerWidth")
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box, width)
    inside = page.evaluate("""(sel) => {
        const node = document.querySelector(sel); const r = node.getBoundingClientRect();
        node.scrollIntoView({block: 'center'});
        const s = node.getBoundingClientRect();
        const hit = document.elementFromPoint(s.left + s.width / 2, s.top + Math.min(8, s.height / 2));
        return node.contains(hit) || hit === node;
    }""", selector)
    assert inside, f"{selector} is covered or clipped"


# ---------------------------------------------------------------- layout


def test_no_horizontal_overflow_anywhere(page, size):
    for example in EXAMPLES:
        choose(page, example["id"])
        for patch_type in TYPES:
            page.evaluate("(t) => window.cfgpatch.setType(t)", patch_type)
            assert fits(page), (size, example["id"], patch_type)
    page.click("[data-format=json]")
    page.click("[data-view=before-after]")
    page.evaluate("window.cfgpatch.settled()")
    assert fits(page)
    page.click("[data-view=result]")
    page.click("[data-format=yaml]")
    long_line = "x" * 400
    _set(page, CONFIGMAP.replace("a: b", f"a: {long_line}"),
         f'{{"data": {{"{long_line}": "{long_line} {long_line}"}}}}')
    assert fits(page)
    _set(page, CONFIGMAP + "  bad: : :\n", "{}")
    assert page.is_visible("#object-error") and fits(page)
    if size == "phone":
        choose(page, "merge-one-container")
        screenshot(page, "page-phone", full_page=True)


# ---------------------------------------------------------------- loading


def test_load_shows_progress_and_nothing_computed_before_it_is(browser, site_url, size):  # noqa: F811
    url, _ = site_url
    context = browser.new_context(viewport=SIZES[size])
    held = []
    # the WebAssembly is fetched once the snapshot has arrived: hold it to look at the page
    context.route(re.compile(r".*/pyodide\.asm\.wasm$"), lambda route: held.append(route))
    tab = context.new_page()
    tab.goto(url)
    tab.wait_for_function("() => /MB/.test(document.getElementById('status').textContent)")
    tab.wait_for_function("() => document.querySelector('#load-stages .current')")
    status = tab.inner_text("#status")
    assert re.search(r"\d+\.\d of \d+\.\d MB \(\d+ %\)", status), status
    assert tab.inner_text("#verdict").startswith("Waiting for the engine")
    assert tab.inner_text("#result-type") == EXAMPLES[0]["type"]  # the type it will show
    assert not tab.is_visible("#findings-empty") and tab.locator("#findings li").count() == 0
    assert tab.inner_text("#changes-note").startswith("Waiting for the engine")
    if size == "desktop":
        screenshot(tab, "loading", "header")
    # the progress may be shown before the snapshot has arrived: wait for the wasm request
    deadline = time.monotonic() + 60
    while not held and time.monotonic() < deadline:
        tab.wait_for_timeout(50)  # lets Playwright deliver the route to the handler
    assert held, "the wasm request was not seen within 60 s"
    assert tab.inner_text("#verdict").startswith("Waiting for the engine")
    for route in held:
        route.continue_()
    tab.evaluate("window.cfgpatch.ready")
    assert tab.inner_text("#status").startswith("Engine ready")
    assert not tab.is_visible("#load-stages")
    context.close()


# ---------------------------------------------------------------- sharing


def test_share_copies_the_link_and_a_second_page_restores_it(page, browser, site_url, size):  # noqa: F811
    choose(page, "service-port")
    page.evaluate("window.cfgpatch.setType('merge')")
    page.click("[data-format=json]")
    page.evaluate("window.cfgpatch.settled()")
    page.click("#share")
    page.wait_for_selector("#share + .copy-note:has-text('Copied')")
    _visible_and_not_cut(page, "#share + .copy-note")
    link = page.evaluate("window.cfgpatch.link()")
    assert _clipboard(page) == link and "#s=" in link
    other = open_tab(browser, link, SIZES[size])
    assert other.evaluate("window.cfgpatch.type") == "merge"
    assert other.evaluate("window.cfgpatch.format") == "json"
    assert other.evaluate("window.cfgpatch.results()") == page.evaluate("window.cfgpatch.results()")
    assert shown_text(other, "#result-object") == shown_text(page, "#result-object")
    assert other.inner_text("#example-note") == ""
    other.context.close()
    page.click("[data-format=yaml]")


def test_a_new_link_in_an_open_tab_is_followed(page):
    _set(page, CONFIGMAP, '{"data": {"from": "link"}}')
    link = page.evaluate("window.cfgpatch.link()")
    choose(page, "toleration-added")
    assert "ConfigMap" not in json.dumps(page.evaluate("window.cfgpatch.results()"))
    page.evaluate("(hash) => { location.hash = hash; }", link[link.index("#"):])
    page.wait_for_function(
        "() => window.cfgpatch.results()?.strategic.object?.data?.from === 'link'")
    page.evaluate("window.cfgpatch.settled()")
    assert page.evaluate("window.cfgpatch.results().merge.object.data") == {"a": "b", "from": "link"}


def test_damaged_links_are_said_so(page, browser, site_url, size):  # noqa: F811
    url, _ = site_url
    _set(page, CONFIGMAP, '{"data": {"kept": "yes"}}')
    link = page.evaluate("window.cfgpatch.link()")
    cut = link[: link.index("#s=") + 3 + (len(link) - link.index("#s=") - 3) // 2]
    fresh = open_tab(browser, cut, SIZES[size])
    message = fresh.inner_text("#link-problem")
    assert fresh.is_visible("#link-problem") and "incomplete" in message
    assert "first example is shown instead" in message
    assert fresh.evaluate("window.cfgpatch.type") == EXAMPLES[0]["type"]
    _visible_and_not_cut(fresh, "#link-problem")
    if size == "desktop":
        screenshot(fresh, "link-damaged", "header")
    fresh.context.close()
    before = page.evaluate("window.cfgpatch.results()")
    page.evaluate("(hash) => { location.hash = hash; }", "#s=" + "A" * 40)
    page.wait_for_selector("#link-problem:visible")
    assert "keep what they held" in page.inner_text("#link-problem")
    assert page.evaluate("window.cfgpatch.results()") == before
    page.evaluate("(hash) => { location.hash = hash; }", "#s=not*base64")
    page.wait_for_function("() => /damaged/.test(document.getElementById('link-problem').textContent)")
    page.click("#patch-editor .cm-content")
    page.keyboard.type(" ")
    page.wait_for_selector("#link-problem", state="hidden")


@pytest.mark.parametrize("without", ["clipboard-api", "every-copy-command"])
def test_copy_without_the_clipboard_api(browser, site_url, size, without):  # noqa: F811
    url, _ = site_url
    context = browser.new_context(viewport=SIZES[size])
    script = "delete Navigator.prototype.clipboard;"
    script += """document.addEventListener('copy', () => {
        const f = document.activeElement;
        window.__copied = f && f.value !== undefined
          ? f.value.slice(f.selectionStart, f.selectionEnd) : String(getSelection());
    });"""
    if without == "every-copy-command":
        script += "document.execCommand = () => false;"
    context.add_init_script(script)
    tab = context.new_page()
    tab.goto(url)
    tab.evaluate("window.cfgpatch.ready")
    link = tab.evaluate("window.cfgpatch.link()")
    tab.click("#share")
    note = "#share + .copy-note"
    if without == "clipboard-api":
        tab.wait_for_selector(f"{note}:has-text('Copied')")
        assert tab.evaluate("window.__copied") == link
    else:
        tab.wait_for_selector(f"{note} textarea")
        assert "Ctrl+C" in tab.inner_text(note)
        field = tab.evaluate("""() => { const f = document.querySelector('.copy-fallback');
            return [f.value, f.selectionStart, f.selectionEnd, document.activeElement === f]; }""")
        assert field == [link, 0, len(link), True]
        if size == "phone":
            screenshot(tab, "copy-fallback-phone", "#share + .copy-note")
    _visible_and_not_cut(tab, note)
    assert fits(tab)
    context.close()


# ---------------------------------------------------------------- errors in place


def test_an_input_error_is_marked_at_its_line_and_column(page, size):
    text = "kind: ConfigMap\napiVersion: v1\nmetadata:\n  labels:\n    app: web\n   tier: x\n"
    _set(page, text, "{}")
    assert page.evaluate("window.cfgpatch.problems().object") == [{
        "line": 6, "column": 4, "end": {"line": 6, "column": 5}, "severity": "error",
        "message": page.evaluate("window.cfgpatch.problems().object[0].message")}]
    box = page.locator("#object-error")
    assert box.locator("p").nth(0).inner_text().startswith("Line 6, column 4: ")
    assert box.locator("p").nth(1).inner_text().startswith("kubectl: error: error parsing")
    assert "kubectl says line 5" in box.locator("p").nth(2).inner_text()
    # the underline sits in the editor's sixth line, after three characters
    where = page.evaluate("""() => {
        const range = document.querySelector('#object-editor .cm-lintRange-error');
        const line = range.closest('.cm-line');
        const lines = [...document.querySelectorAll('#object-editor .cm-line')];
        const before = document.createRange();
        before.setStart(line, 0); before.setEndBefore(range);
        const marker = document.querySelector('#object-editor .cm-lint-marker-error');
        const m = marker.getBoundingClientRect(), l = line.getBoundingClientRect();
        return [lines.indexOf(line) + 1, before.toString().length, range.textContent,
                m.top < l.bottom && m.bottom > l.top];
    }""")
    assert where == [6, 3, "t", True]
    # kubectl's own words are the second line, exactly as kubectl prints them
    real = kubectl_patch(text, "{}", "merge", "json")
    assert real.returncode != 0
    assert box.locator("p").nth(1).inner_text() == "kubectl: " + real.stderr.strip().replace(
        "obj.yaml", "-")
    screenshot(page, f"error-in-editor-{size}", ".inputs")
    _set(page, CONFIGMAP, "{}")
    assert page.evaluate("window.cfgpatch.problems()") == {"object": [], "patch": []}


def test_a_rejected_json_patch_names_its_operation_and_marks_it(page):
    patch = ('[{"op": "add", "path": "/data/x", "value": "y"},\n'
             ' {"op": "remove", "path": "/data/nope"},\n'
             ' {"op": "add", "path": "/data/z", "value": "w"}]')
    _set(page, CONFIGMAP, patch, "json")
    text = page.inner_text("#rejection")
    assert "Operation 1 (remove /data/nope) failed" in text
    assert "Operation 0 before it was not applied either" in text
    real = kubectl_patch(CONFIGMAP, patch, "json", "json")
    assert real.returncode != 0 and f"kubectl: {real.stderr.strip()}" in text
    (mark,) = page.evaluate("window.cfgpatch.problems().patch")
    assert (mark["line"], mark["column"], mark["severity"]) == (2, 2, "error")
    page.click("#rejection button")
    assert page.evaluate("document.activeElement.closest('#patch-editor') !== null")


def test_every_unescaped_slash_is_reported(page):
    obj = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n"
           "    a.io/x: '1'\n    b.io/y: '2'\n")
    ops = ('[{"op": "replace", "path": "/metadata/annotations/a.io/x", "value": "3"},'
           ' {"op": "remove", "path": "/metadata/annotations/b.io/y"}]')
    _set(page, obj, ops, "json")
    warnings = page.inner_text("#findings")
    assert "a.io~1x" in warnings and "b.io~1y" in warnings


# ---------------------------------------------------------------- results as kubectl prints them


def test_results_are_kubectls_own_text(page, size):
    examples = EXAMPLES if size == "desktop" else [BY_ID["merge-one-container"]]
    for fmt in ("yaml", "json"):
        page.click(f"[data-format={fmt}]")
        for example in examples:
            choose(page, example["id"])
            for patch_type in TYPES:
                page.evaluate("(t) => window.cfgpatch.setType(t)", patch_type)
                real = kubectl_patch(example["object"], example["patch"], patch_type, fmt)
                where = (example["id"], patch_type, fmt)
                if real.returncode == 0:
                    assert shown_text(page, "#result-object") == real.stdout, where
                else:
                    assert page.is_visible("#rejection"), where
                    said = page.locator("#rejection .kubectl").inner_text()
                    assert said == "kubectl: " + real.stderr.strip(), where
    page.click("[data-format=yaml]")


def test_copy_gives_the_text_without_marks(page):
    choose(page, "merge-one-container")
    assert page.locator("#result-object .line.changed").count() > 0  # marks are shown
    page.click("#copy-result")
    page.wait_for_selector("#copy-result + .copy-note:has-text('Copied')")
    real = kubectl_patch(BY_ID["merge-one-container"]["object"],
                         BY_ID["merge-one-container"]["patch"], "merge", "yaml")
    assert _clipboard(page) == real.stdout


def test_before_and_after_shows_the_removed_lines(page, size):
    example = BY_ID["merge-one-container"]
    choose(page, example["id"])
    page.click("[data-view=before-after]")
    page.wait_for_selector("#result-object .line.removed")
    lines = page.evaluate("""() => {  // [mark, text] per line: marked lines are spans
        const out = [];
        let text = '';
        for (const node of document.querySelector('#result-object pre').childNodes) {
          if (node.nodeType === 3) text += node.textContent;
          else if (node.classList.contains('line')) {
            out.push(...text.split('\\n').slice(0, -1).map((t) => [' ', t]));
            out.push([node.dataset.mark, node.textContent]);
            text = '';
            continue;
          }
          if (out.length && text.startsWith('\\n') && out.at(-1)[0] !== ' ') text = text.slice(1);
        }
        return out.concat(text.split('\\n').slice(0, -1).map((t) => [' ', t]));
    }""")
    removed = [text.strip() for mark, text in lines if mark == "\u2212"]
    assert "name: metrics" in removed and "- image: statsd:v0.26" in removed
    original = kubectl_patch(example["object"], "{}", "merge", "yaml").stdout
    assert "".join(t + "\n" for mark, t in lines if mark != "+") == original
    result = kubectl_patch(example["object"], example["patch"], "merge", "yaml").stdout
    assert "".join(t + "\n" for mark, t in lines if mark != "\u2212") == result
    screenshot(page, f"before-after-{size}", "#result")
    page.click("[data-view=result]")


# ---------------------------------------------------------------- what changed


def test_what_changed_for_a_list_without_a_key(page):
    choose(page, "toleration-added")
    text = page.inner_text("#change-list")
    assert "replaced wholesale (it has no merge key" in text
    assert 'removed {"effect":"NoSchedule","key":"dedicated","operator":"Equal","value":"web"}' in text
    assert 'inserted {"effect":"NoSchedule","key":"gpu","operator":"Exists"}' in text
    assert "0 \u2192 0" not in text and "changed" not in text and "\u2026" not in text


def test_null_deleting_a_section_is_a_warning(page):
    _set(page, CONFIGMAP, '{"data": null}', "merge")
    item = page.locator("#findings li").first
    assert item.locator(".severity").inner_text().lower() == "warning"
    assert item.locator(".badge").inner_text() == "null-deletes-section"


# ---------------------------------------------------------------- the inputs and the keys


def test_the_example_note_goes_when_the_inputs_are_replaced(page):
    choose(page, "finalizers-emptied")
    assert page.inner_text("#example-note")
    _set(page, CONFIGMAP, "{}")
    assert page.inner_text("#example-note") == "" and page.input_value("#example") == ""
    choose(page, "finalizers-emptied")
    page.click("#patch-editor .cm-content")
    page.keyboard.press("Control+a")
    page.keyboard.insert_text("{}")
    assert page.inner_text("#example-note") == ""


def test_focus_ring_and_ctrl_enter(page):
    choose(page, "service-port")
    page.click("#object-editor .cm-content")
    ring = page.evaluate("""() => { const s = getComputedStyle(document.querySelector('#object-editor'));
        return [s.outlineStyle, s.outlineWidth]; }""")
    assert ring == ["solid", "3px"]
    before = page.evaluate("window.cfgpatch.view().lines.length")
    lines = page.locator("#object-editor .cm-line").count()
    page.keyboard.press("Control+End")
    page.keyboard.type("\n# typed")
    page.keyboard.press("Control+Enter")
    page.evaluate("window.cfgpatch.settled()")
    assert page.locator("#object-editor .cm-line").count() == lines + 1  # the typed line only
    assert page.evaluate("window.cfgpatch.view().lines.length") == before


def test_errors_are_announced_once_not_on_every_keystroke(page):
    roles = page.evaluate("[...document.querySelectorAll('[role=alert]')].map((n) => n.id)")
    assert sorted(roles) == ["announce-alert", "link-problem"]
    assert page.get_attribute("#object-error", "aria-live") == "polite"
    _set(page, CONFIGMAP, "{}")
    _set(page, "kind: [unclosed", "{}")
    first = page.inner_text("#announce-alert")
    assert "cannot be read" in first
    _set(page, "kind: [still unclosed", "{}")
    assert page.inner_text("#announce-alert") == first  # not again while it stays broken
    assert "cannot be read" in page.inner_text("#announce-polite")


def test_choosing_a_compare_column_selects_its_type(page):
    choose(page, "merge-one-container")
    page.click("#compare-grid .column:nth-child(3) .summary")
    assert page.evaluate("window.cfgpatch.type") == "json"
    assert page.get_attribute("#compare-grid .column:nth-child(3) .column-pick", "aria-pressed") == "true"
    assert page.inner_text("#result-type") == "json"
    page.click("#compare-grid .column:nth-child(1) .column-pick")
    assert page.evaluate("window.cfgpatch.type") == "strategic"


# ---------------------------------------------------------------- kustomize


def _kubectl_kustomize(object_text: str, patch_text: str) -> dict:
    obj, _ = reader.load_object(object_text)
    body, _ = reader.load_patch(patch_text, "strategic")
    meta = {"name": obj["metadata"]["name"]}
    if "namespace" in obj["metadata"]:
        meta["namespace"] = obj["metadata"]["namespace"]
    target = {"apiVersion": obj["apiVersion"], "kind": obj["kind"]}
    document = {**target, **body, "metadata": {**body.get("metadata", {}), **meta}}
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.yaml").write_text(object_text)
        (Path(folder) / "patch.yaml").write_text(yaml.safe_dump(document))
        (Path(folder) / "kustomization.yaml").write_text(
            "resources: [obj.yaml]\npatches:\n- path: patch.yaml\n")
        done = subprocess.run([kubectl(), "kustomize", folder], capture_output=True, text=True,
                              timeout=60, check=True)
    return yaml.safe_load(done.stdout)


def test_the_kustomize_view_matches_kubectl_kustomize(page, size):
    page.click("#kustomize summary")
    try:
        for example_id in ("merge-one-container", "toleration-added", "custom-resource"):
            example = BY_ID[example_id]
            choose(page, example_id)
            page.wait_for_function("() => !/Computing|Open/.test("
                                   "document.getElementById('kustomize-verdict').textContent)")
            shown = yaml.safe_load(shown_text(page, "#kustomize-object"))
            assert shown == _kubectl_kustomize(example["object"], example["patch"]), example_id
        assert "kustomize" in page.inner_text("#kustomize-verdict")
        screenshot(page, f"kustomize-{size}", "#kustomize-panel")
    finally:
        page.click("#kustomize summary")
