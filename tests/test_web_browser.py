"""The patch tester page in a real browser (Playwright driving Debian's Chromium).

The page is served from a local static file server, as ``cfgpatch site build``
output would be.  Each example is run through the page; what the page displays
for every type is compared with the engine run here in CPython on the same texts
(``kube.io.reader`` + ``kube.patch``, the command line's path) and printed as kubectl
prints it.  The requests the page makes are recorded: all must go to the page's own
origin, and none may happen while editing.  ``test_web_page.py`` covers what a user
meets (phone layout, sharing, errors in the editors, kubectl's own output) at two
sizes.  Screenshots of the main states go to ``docs/screenshots/``.

Locally the test is skipped (with the reason printed) when Chromium, Playwright
or the built page is missing or stale; with ``CI=true`` it fails instead.
"""

from __future__ import annotations

import json
import shlex

import pytest

from cfgpatch.jsonvalue import equal
from cfgpatch.web.printed import printed_lines, printed_text
from web_browser_support import (  # noqa: F401 - fixtures
    DESKTOP,
    TYPES,
    browser,
    choose,
    engine,
    open_tab,
    screenshot,
    shown_text,
    site_url,
)

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def loaded(browser, site_url):  # noqa: F811
    """One tab with the page loaded (loading Pyodide takes seconds, so tests share it)."""
    url, _ = site_url
    tab = open_tab(browser, url, DESKTOP)
    tab.load_requests = list(tab.requests)
    yield tab
    tab.context.close()


@pytest.fixture
def page(loaded):
    yield loaded
    assert loaded.errors == []


def _codes(findings: list[dict]) -> list[str]:
    return [f["code"] for f in findings]


def test_every_example_shows_what_the_engine_computes(page):
    examples = page.evaluate("window.cfgpatch.examples")
    assert len(examples) >= 7
    page.click("#whole-objects")  # unfold the side-by-side columns, to read them whole
    assert page.get_attribute("#whole-objects", "aria-pressed") == "true"
    for example in examples:
        choose(page, example["id"])
        assert page.evaluate("window.cfgpatch.type") == example["type"]
        hook = page.evaluate("window.cfgpatch.results()")
        for index, patch_type in enumerate(TYPES):
            expected = engine(example["object"], example["patch"], patch_type,
                              example.get("crd", ""))
            got = hook[patch_type]
            where = f"{example['id']} --type={patch_type}"
            assert got["ok"] == expected["ok"], where
            assert _codes(got["findings"]) == _codes(expected["findings"]), where
            column = f"#compare-grid .column:nth-child({index + 1})"
            if expected["ok"]:
                # JavaScript numbers cannot tell 1 from 1.0: the hook is compared with ==,
                # the displayed text (printed by Python) exactly.
                assert got["object"] == expected["object"], where
                assert got["changes"] == expected["changes"], where
                text = printed_text(printed_lines(expected["object"], "yaml"))
                assert shown_text(page, column) == text, where
            else:
                assert got["error"] == expected["error"], where
                assert "rejected" in page.inner_text(column), where
        selected = engine(example["object"], example["patch"], example["type"],
                          example.get("crd", ""))
        if selected["ok"]:
            text = printed_text(printed_lines(selected["object"], "yaml"))
            assert shown_text(page, "#result-object") == text
        else:
            assert page.inner_text("#verdict").startswith("Rejected")
            assert page.is_visible("#rejection")
        _check_commands(page, example, selected)
        screenshot(page, f"example-{example['id']}", "#result")
    page.click("#whole-objects")
    assert page.get_attribute("#whole-objects", "aria-pressed") == "false"


def test_folded_columns_show_every_difference(page):
    from cfgpatch.web.render import differing_paths

    choose(page, "merge-one-container")
    example = next(e for e in page.evaluate("window.cfgpatch.examples")
                   if e["id"] == "merge-one-container")
    strategic = engine(example["object"], example["patch"], "strategic")["object"]
    merge = engine(example["object"], example["patch"], "merge")["object"]
    differs = differing_paths(strategic, merge)
    for index, obj in ((1, strategic), (2, merge)):
        column = f"#compare-grid .column:nth-child({index})"
        expected = [
            text for text, pointers in printed_lines(obj, "yaml")
            if any(p == d or p.startswith(d + "/") for p in pointers for d in differs)
        ]
        shown = page.evaluate(
            "(sel) => [...document.querySelectorAll(sel + ' .line.differs')]"
            ".map((line) => line.textContent)", column)
        assert shown == expected
        assert page.locator(f"{column} .line.fold").count() >= 1
    screenshot(page, "three-types", "#compare")


def _check_commands(page, example: dict, selected: dict) -> None:
    """The kubectl lines carry the patch; the JSON equivalent gives the shown result."""
    from cfgpatch.jsonpatch import apply_patch
    from cfgpatch.kube.io import reader

    argv = shlex.split(page.inner_text("#kubectl-command"))
    body, _ = reader.load_patch(example["patch"], example["type"])
    assert argv[:2] == ["kubectl", "patch"] and f"--type={example['type']}" in argv
    assert json.loads(argv[argv.index("-p") + 1]) == body
    if page.is_visible("#json-equivalent"):
        argv = shlex.split(page.inner_text("#kubectl-json"))
        ops = json.loads(argv[argv.index("-p") + 1])
        obj, _ = reader.load_object(example["object"])
        assert equal(apply_patch(obj, ops), selected["object"])


def test_merge_patch_example_names_the_lost_containers(page):
    choose(page, "merge-one-container")
    assert page.evaluate("window.cfgpatch.type") == "merge"
    changes = page.inner_text("#changes")
    assert "replaced wholesale" in changes
    assert "lost: metrics" in changes
    page.keyboard.press("Alt+1")  # strategic keeps the metrics container
    assert page.evaluate("window.cfgpatch.type") == "strategic"
    assert "lost" not in page.inner_text("#change-list")
    page.keyboard.press("Alt+2")
    screenshot(page, "what-changed-merge", "#changes")
    screenshot(page, "page", full_page=True)


def test_python_starts_from_the_build_time_snapshot(page):
    """The worker booted from the snapshot (a failure would fall back silently)."""
    stages = page.evaluate("window.cfgpatch.timings().stages")
    assert stages["snapshot"] == "used", stages["snapshot"]
    assert stages["workerStart"] <= stages["pyodideReady"] <= stages["imported"]
    assert stages["imported"] <= stages["firstResult"]


def test_no_request_leaves_the_origin_and_none_while_editing(page, site_url):  # noqa: F811
    url, served = site_url
    assert page.load_requests, "the page loaded nothing?"
    assert all(request.startswith(url) for request in page.load_requests), page.load_requests
    assert not any("/py/" in r and r.endswith(".zip") for r in page.load_requests)  # snapshot
    page.requests.clear()
    served_before = len(served)
    for example in page.evaluate("window.cfgpatch.examples.map((e) => e.id)"):
        choose(page, example)
    page.click("#patch-editor .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("\n# an edit typed by hand\n")
    page.evaluate("window.cfgpatch.settled()")
    assert page.evaluate("location.hash").startswith(("#s=", "#j="))
    page.keyboard.press("Control+Enter")
    page.keyboard.press("Alt+3")
    page.click("[data-format=json]")
    page.click("[data-view=before-after]")
    page.click("#kustomize summary")
    page.evaluate("window.cfgpatch.setInputs('kind: ConfigMap\\napiVersion: v1', 'data: {a: b}')")
    page.evaluate("window.cfgpatch.settled()")
    page.wait_for_timeout(300)
    page.click("#kustomize summary")
    page.click("[data-view=result]")
    page.click("[data-format=yaml]")
    page.evaluate("window.cfgpatch.settled()")
    assert page.requests == []
    assert len(served) == served_before
    assert not any("s=" in path or "j=" in path for path in served), "the fragment reached the server"


def test_typing_recomputes(page):
    choose(page, "service-port")
    page.click("#patch-editor .cm-content")
    page.keyboard.press("Control+a")
    page.keyboard.insert_text('{"spec": {"selector": {"app": "dns2"}}}')  # no auto-closing
    page.wait_for_function(  # recomputed by itself once typing pauses
        "() => window.cfgpatch.results().strategic.object?.spec.selector.app === 'dns2'")
    results = page.evaluate("window.cfgpatch.results()")
    assert results["strategic"]["object"]["spec"]["selector"] == {"app": "dns2"}


def test_keyboard_reaches_every_control(page):
    # Inputs of our own with a result: "Copy the result" is out of the Tab order while
    # it is disabled (no result), whatever the tests before this one left in the editors.
    page.evaluate("window.cfgpatch.setType('strategic')")
    page.evaluate("window.cfgpatch.setInputs('apiVersion: v1\\nkind: ConfigMap\\n"
                  "metadata:\\n  name: keys\\n', 'data: {a: b}')")
    page.evaluate("window.cfgpatch.settled()")
    page.wait_for_selector("#copy-result:enabled", timeout=30_000)
    page.focus("#example")
    seen = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        seen.add(page.evaluate("document.activeElement.id || document.activeElement.className"))
    assert {"share", "copy-result"} <= seen
    assert any("cm-content" in str(name) for name in seen)
    assert any("column-pick" in str(name) for name in seen)


def test_cfgpatch_serve_serves_the_page_compressed_and_cached(browser, site_url):  # noqa: F811
    """The same page through ``cfgpatch serve`` (mounted at ``/`` next to the API)."""
    from server_support import ServerProcess

    server = ServerProcess("memory://")
    try:
        tab = open_tab(browser, server.url + "/", DESKTOP)
        results = tab.evaluate("window.cfgpatch.results()")
        assert results["strategic"]["ok"] and results["merge"]["ok"]
        assert all(url.startswith(server.url + "/") for url in tab.requests), tab.requests
        entries = tab.evaluate("window.cfgpatch.timings().stages.resources")
        snapshot = next(e for e in entries if e["name"].startswith("snapshot."))
        assert 0 < snapshot["bytes"] < snapshot["decoded"] / 3  # sent compressed
        tab.context.close()
    finally:
        server.stop()
