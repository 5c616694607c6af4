"""The tester page's defects a new user tripped on, and what the verdict and the result
now say, in Chromium at 1400x1000 and at 390x844.

"What changed" never blank while the verdict counts changes; no word ``null`` under an
error box; several objects in one paste each patched (equal to real kubectl); a JSON
patch's lists by position; an index past a list's end; an unclosed quote at the quote;
the verdict saying what is lost, styled as a warning; which kubectl the answer is and
what other versions recorded; the lint mode's help and ``[noNs]``; the apply mode's
consequences, readable patch and removed lines; the load progress counting what crosses
the network; axe-core with no violation in any mode.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT, require
from web_browser_support import (  # noqa: F401 - fixtures
    SIZES,
    browser,
    choose,
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
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: app
        image: a:1
      - name: metrics
        image: m:1
"""
TWO = """apiVersion: v1
kind: ConfigMap
metadata:
  name: a
data:
  x: "1"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: b
data:
  x: "2"
"""


size = size_fixture()
tab = tab_fixture()


page = page_fixture("patch", fits_screen=True)


def _set(page, object_text: str, patch_text: str, patch_type: str | None = None) -> None:
    page.evaluate("([o, p]) => window.cfgpatch.setInputs(o, p)", [object_text, patch_text])
    if patch_type:
        page.evaluate("(t) => window.cfgpatch.setType(t)", patch_type)
    page.evaluate("window.cfgpatch.settled()")


def _type(page, patch_type: str) -> None:
    page.evaluate("(t) => window.cfgpatch.setType(t)", patch_type)
    page.evaluate("window.cfgpatch.settled()")


def _changes_shown(page) -> int:
    return page.locator("#change-list > li").count()


# ---------------------------------------------------------------- defects


def test_what_changed_is_never_blank_while_the_verdict_counts_changes(page):
    choose(page, "finalizers-emptied")
    for patch_type in ("merge", "strategic", "merge"):
        _type(page, patch_type)
        counted = re.search(r"Accepted: (\d+) change", page.inner_text("#verdict"))
        if counted:
            assert _changes_shown(page) > 0, patch_type
    _set(page, DEPLOYMENT, "spec:\n  replicas: 3\n", "strategic")
    assert _changes_shown(page) == 1
    _set(page, DEPLOYMENT, "spec:\n  replicas: 3\n x: [\n")  # unreadable: nothing to list
    assert _changes_shown(page) == 0
    _set(page, DEPLOYMENT, "spec:\n  replicas: 3\n")  # the same list as before the error
    assert page.inner_text("#verdict").startswith("Accepted: 1 change")
    assert _changes_shown(page) == 1


def test_no_word_null_under_error_boxes(page):
    _set(page, DEPLOYMENT, '{"spec": {"replicas": 3,}}')
    assert page.is_visible("#patch-error")
    box = page.inner_text("#patch-error")
    assert "null" not in box and "undefined" not in box
    _set(page, DEPLOYMENT, '[{"op":"test","path":"/spec/replicas","value":5}]', "json")
    assert "null" not in page.inner_text("#rejection")


def test_two_objects_are_both_patched_as_kubectl_does(page, size):
    patch = '{"data":{"y":"3"}}'
    _set(page, TWO, patch, "strategic")
    assert not page.is_visible("#object-error")
    verdict = page.inner_text("#verdict")
    assert verdict.startswith("Accepted: 2 objects patched") and "exit 0" in verdict
    done = kubectl_patch(TWO, patch, "strategic", "yaml")
    assert done.returncode == 0
    assert shown_text(page, "#result-object") == done.stdout
    headings = page.locator("#change-list > li.object .path").all_inner_texts()
    assert headings == ["ConfigMap a", "ConfigMap b"]


def test_a_json_patch_never_says_merged_by_key(page):
    _set(page, DEPLOYMENT,
         '[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"a:2"}]',
         "json")
    text = page.inner_text("#change-list")
    assert "merged by key" not in text and "by position" in text


def test_an_index_past_the_end_says_how_many_elements(page):
    _set(page, DEPLOYMENT,
         '[{"op":"add","path":"/spec/template/spec/containers/5/image","value":"x"}]', "json")
    plain = page.inner_text("#rejection .plain")
    assert "spec.template.spec.containers has 2 elements (positions 0 to 1)" in plain
    assert "position 5 is past its end" in plain and "~1" not in plain
    assert page.locator("#rejection .plain code").count() == 1  # drawn as code, no backticks
    assert "`" not in plain


def test_an_unclosed_quote_is_marked_at_the_quote(page, size):
    patch = 'metadata:\n  labels:\n    a: "x\n    b: y\n    c: z\nspec:\n  replicas: 2\n'
    _set(page, DEPLOYMENT, patch, "merge")
    assert page.inner_text("#patch-error .plain").startswith("Line 3, column 8: this quote")
    marks = page.evaluate("window.cfgpatch.problems()")["patch"]
    assert [(m["line"], m["column"]) for m in marks] == [(3, 8)]


def test_the_verdict_says_what_is_lost_as_a_warning(page, size):
    choose(page, "merge-one-container")
    _type(page, "merge")
    verdict = page.locator("#verdict")
    assert "container metrics" in verdict.inner_text() and "gone" in verdict.inner_text()
    assert "warning" in verdict.get_attribute("class").split()
    assert verdict.locator("code").first.inner_text() == "metrics"
    if size == "desktop":
        screenshot(page, "verdict-loss", "#result")
    _type(page, "strategic")
    assert "ok" in verdict.get_attribute("class").split() and "gone" not in verdict.inner_text()


def test_the_page_says_which_kubectl_and_what_other_versions_recorded(page):
    _set(page, DEPLOYMENT, "spec:\n  replicas: 3\n", "strategic")
    assert "kubectl 1.32" in page.inner_text("#versions-line")
    assert not page.is_visible("#versions-list")
    _set(page, DEPLOYMENT, "spec:\n  template:\n    spec:\n      resources:\n        a: 1\n")
    items = page.locator("#versions-list li").all_inner_texts()
    assert any(item.startswith("kubectl 1.27") and 'json field "resources"' in item
               for item in items), items


# ---------------------------------------------------------------- lint mode


def test_lint_help_has_no_raw_backticks_and_no_ns_is_explained(page):
    deploy = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
              "  namespace: prod\nspec:\n  replicas: 1\n")
    patch = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n"
    files = [{"path": "kustomization.yaml",
              "text": "resources:\n- deploy.yaml\npatches:\n- path: patch.yaml\n"},
             {"path": "deploy.yaml", "text": deploy}, {"path": "patch.yaml", "text": patch}]
    page.evaluate("window.cfgpatch.setMode('lint')")
    page.evaluate("(f) => window.cfgpatch.lint.setFiles(f)", files)
    page.evaluate("window.cfgpatch.lint.settled()")
    helps = page.locator("#lint-groups .help").all_inner_texts()
    assert helps and not any("`" in text for text in helps)
    explain = page.inner_text("#lint-groups .explain")
    assert "namespace: prod" in explain and "[noNs]" in explain and "`" not in explain


# ---------------------------------------------------------------- apply mode


def _hpa_inputs() -> tuple[str, str]:
    manifest = {"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web", "namespace": "default"},
                "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                         "template": {"metadata": {"labels": {"app": "web"}},
                                      "spec": {"containers": [{"name": "app", "image": "a:1"}]}}}}
    live = json.loads(json.dumps(manifest))
    live["metadata"]["annotations"] = {
        "kubectl.kubernetes.io/last-applied-configuration":
            json.dumps(manifest, separators=(",", ":")) + "\n"}
    live["spec"]["replicas"] = 7
    del manifest["spec"]["replicas"]
    return json.dumps(live, indent=2), json.dumps(manifest, indent=2)


def test_apply_explains_the_hpa_trap_and_shows_removed_lines(page, size):
    page.evaluate("window.cfgpatch.setMode('apply')")
    live, manifest = _hpa_inputs()
    page.evaluate("([l, m]) => window.cfgpatch.setApplyInputs(l, m)", [live, manifest])
    item = page.locator('#apply-consequences li[data-code="replicas-defaulted"]')
    assert "defaults it to 1" in item.inner_text() and "(it has 7 now)" in item.inner_text()
    assert "warning" in page.get_attribute("#apply-verdict", "class").split()
    page.click("#apply-readable summary")
    readable = page.inner_text("#apply-readable-patch")
    assert '"replicas": null' in readable and "\\\"" not in readable
    assert '"apiVersion": "apps/v1"' in page.inner_text("#apply-readable-annotation")
    removed = page.locator("#apply-before-after pre.code .removed").all_inner_texts()
    assert any("replicas: 7" in line for line in removed), removed
    if size == "desktop":
        screenshot(page, "apply-consequences", "#apply-result")


# ---------------------------------------------------------------- loading, axe


def test_progress_counts_what_crosses_the_network(browser, size):  # noqa: F811
    """Through ``cfgpatch serve`` the files come brotli-compressed: the progress total is
    the compressed size, well under what the files unpack to."""
    from server_support import ServerProcess

    server = ServerProcess("memory://")
    try:
        tab = open_tab(browser, server.url + "/", SIZES[size], wait=False)
        tab.wait_for_function("() => /MB/.test(document.getElementById('status').textContent)")
        text = tab.inner_text("#status")
        tab.evaluate("window.cfgpatch.ready")
        shown = [float(x) for x in re.findall(r"of (\d+\.\d) MB", text)]
        built = json.loads((ROOT / "src/cfgpatch/web/static/build.json").read_text())
        unpacked = built["files"]["total"]
        static = ROOT / "src/cfgpatch/web/static"
        names = [built["files"]["snapshot"]] + [
            built["files"]["pyodide"] + name for name in built["files"]["sizes"] if name != "snapshot"]
        sent = sum((static / (name + ".br")).stat().st_size if (static / (name + ".br")).exists()
                   else (static / name).stat().st_size for name in names)
        assert shown and shown[0] * 1e6 < unpacked / 2, (text, unpacked)
        assert abs(shown[0] * 1e6 - sent) < 0.05 * sent + 1e5, (text, sent)
        tab.context.close()
    finally:
        server.stop()


def _axe(tab) -> list:
    require(AXE.exists(), "axe-core is not installed (make web runs npm ci in web/)")
    tab.add_script_tag(path=str(AXE))
    found = tab.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact,
          nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    return found


@pytest.mark.parametrize("mode", ["patch", "apply", "lint", "want"])
def test_axe_finds_no_violation(page, mode):
    page.evaluate("(m) => window.cfgpatch.setMode(m)", mode)
    if mode == "lint":
        page.click("#lint-example")
        page.evaluate("window.cfgpatch.lint.settled()")
    if mode == "want":
        page.evaluate("window.cfgpatch.want.settled()")
    assert _axe(page) == []


def test_a_list_field_says_how_each_type_treats_it(page, size):
    _set(page, DEPLOYMENT, "spec:\n  replicas: 3\n", "strategic")
    line = DEPLOYMENT.split("\n").index("      containers:")
    page.locator("#object-editor .cm-line").nth(line).click()
    note = page.locator("#object-list-note")
    note.wait_for(state="visible")
    text = note.inner_text()
    assert text.startswith("spec.template.spec.containers is a list.")
    assert "merged by name" in text and "replaced whole" in text and "by position" in text
    box = page.locator("#object-editor .cm-line").nth(line).bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.05 + 60, box["y"] + box["height"] / 2)
    tip = page.locator(".cm-tooltip .line-tip")
    tip.wait_for(state="visible")
    assert "merged by name" in tip.inner_text()
    page.locator("#object-editor .cm-line").nth(0).click()
    assert not note.is_visible()
    if size == "desktop":
        page.locator("#object-editor .cm-line").nth(line).click()
        screenshot(page, "list-note", ".inputs")
