"""The patch tester page in a real browser (Playwright driving Debian's Chromium).

The page is served from a local static file server, as ``cfgpatch site build``
output would be.  Each example is run through the page; what the page displays
for every type is compared with the engine run here in CPython on the same texts
(``kube.io.reader`` + ``kube.patch``, the command line's path).  The requests the page
makes are recorded: all must go to the page's own origin, and none may happen
while editing.  Screenshots of the main states go to ``docs/screenshots/``.

Locally the test is skipped (with the reason printed) when Chromium, Playwright
or the built page is missing or stale; with ``CI=true`` it fails instead.
"""

from __future__ import annotations

import functools
import http.server
import json
import shlex
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from cfgpatch.errors import CfgPatchError
from cfgpatch.jsonvalue import equal
from cfgpatch.web import static_dir
from conftest import ROOT, require

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = ROOT / "docs" / "screenshots"
TYPES = ("strategic", "merge", "json")

pytestmark = pytest.mark.timeout(300)


def _site_is_current(site: Path) -> bool:
    """Whether the packed Python in the built page matches src/cfgpatch now."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pack_python", ROOT / "web" / "pack_python.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.is_current(site / "py")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    paths: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self.paths.append(self.path)
        super().do_GET()


@pytest.fixture(scope="module")
def site_url() -> Iterator[tuple[str, list[str]]]:
    site = static_dir()
    require(site is not None, "the page is not built (run `make web`)")
    require(_site_is_current(site), "the built page is older than src/cfgpatch (run `make web`)")
    paths: list[str] = []
    handler = type("Handler", (_QuietHandler,), {"paths": paths})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", paths
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    require(Path(CHROMIUM).exists(), f"{CHROMIUM} is missing (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require(False, "playwright is not installed (pip install playwright)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def loaded(browser, site_url):
    """One tab with the page loaded (loading Pyodide takes seconds, so tests share it)."""
    url, _ = site_url
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.requests = []
    tab.errors = []
    tab.on("request", lambda request: tab.requests.append(request.url))
    tab.on("pageerror", lambda error: tab.errors.append(str(error)))
    tab.goto(url)
    tab.evaluate("window.cfgpatch.ready")
    tab.load_requests = list(tab.requests)
    yield tab
    context.close()


@pytest.fixture
def page(loaded):
    yield loaded
    assert loaded.errors == []


def _engine(object_text: str, patch_text: str, patch_type: str) -> dict:
    """The command line's path on the same texts: read with kube.io.reader, run kube.patch."""
    from cfgpatch import kube
    from cfgpatch.kube.io import reader

    obj, notes = reader.load_object(object_text)
    try:
        body, patch_notes = reader.load_patch(patch_text, patch_type)
        outcome = kube.patch(obj, body, patch_type, notes=[*notes, *patch_notes])
    except CfgPatchError as exc:
        return {"ok": False, "error": exc.describe(),
                "findings": [f.to_dict() for f in getattr(exc, "findings", None) or ()]}
    return {"ok": True, "object": outcome.object,
            "changes": [c.to_dict() for c in outcome.changes],
            "findings": [f.to_dict() for f in outcome.findings]}


def _shown_lines(tab, selector: str) -> list[str]:
    """The lines of the code box in ``selector``, without the two gutter columns."""
    text = tab.evaluate("(sel) => document.querySelector(sel + ' pre.code').textContent", selector)
    return [line[2:] for line in text.split("\n")[:-1]]


def _shown_object(tab, selector: str):
    return json.loads("\n".join(_shown_lines(tab, selector)))


def _choose(page, example_id: str) -> None:
    """Pick an example in the menu and wait until its results are drawn."""
    page.select_option("#example", example_id)
    page.evaluate("window.cfgpatch.settled()")


def _codes(findings: list[dict]) -> list[str]:
    return [f["code"] for f in findings]


def test_every_example_shows_what_the_engine_computes(page):
    examples = page.evaluate("window.cfgpatch.examples")
    assert len(examples) >= 7
    page.click("#whole-objects")  # unfold the side-by-side columns, to read them whole
    assert page.get_attribute("#whole-objects", "aria-pressed") == "true"
    for example in examples:
        _choose(page, example["id"])
        assert page.evaluate("window.cfgpatch.type") == example["type"]
        hook = page.evaluate("window.cfgpatch.results()")
        for index, patch_type in enumerate(TYPES):
            expected = _engine(example["object"], example["patch"], patch_type)
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
                assert equal(_shown_object(page, column), expected["object"]), where
            else:
                assert got["error"] == expected["error"], where
                assert expected["error"] in page.inner_text(column), where
        selected = _engine(example["object"], example["patch"], example["type"])
        if selected["ok"]:
            assert equal(_shown_object(page, "#result-object"), selected["object"])
        else:
            assert selected["error"] in page.inner_text("#verdict")
        _check_commands(page, example, selected)
        _screenshot(page, example["id"])
    page.click("#whole-objects")
    assert page.get_attribute("#whole-objects", "aria-pressed") == "false"


def test_folded_columns_show_every_difference(page):
    from cfgpatch.web.render import differing_paths, render_lines

    _choose(page, "merge-one-container")
    example = next(e for e in page.evaluate("window.cfgpatch.examples")
                   if e["id"] == "merge-one-container")
    strategic = _engine(example["object"], example["patch"], "strategic")["object"]
    merge = _engine(example["object"], example["patch"], "merge")["object"]
    differs = differing_paths(strategic, merge)
    for index, obj in ((1, strategic), (2, merge)):
        column = f"#compare-grid .column:nth-child({index})"
        expected = [
            text for text, pointer in render_lines(obj)
            if any(pointer == p or pointer.startswith(p + "/") for p in differs)
        ]
        shown = page.evaluate(
            "(sel) => [...document.querySelectorAll(sel + ' .line.differs')]"
            ".map((line) => line.textContent.slice(2))", column)
        assert shown == expected
        assert page.locator(f"{column} .line.fold").count() >= 1


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
    _choose(page, "merge-one-container")
    assert page.evaluate("window.cfgpatch.type") == "merge"
    changes = page.inner_text("#changes")
    assert "replaced wholesale" in changes
    assert "lost" in changes and "metrics" in changes
    page.keyboard.press("Alt+1")  # strategic keeps the metrics container
    assert page.evaluate("window.cfgpatch.type") == "strategic"
    assert "lost" not in page.inner_text("#change-list")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.keyboard.press("Alt+2")
    page.locator("#changes").screenshot(path=str(SCREENSHOTS / "what-changed-merge.png"))


def test_python_starts_from_the_build_time_snapshot(page):
    """The worker booted from py/snapshot.bin (a failure would fall back silently)."""
    stages = page.evaluate("window.cfgpatch.timings().stages")
    assert stages["snapshot"] == "used", stages["snapshot"]
    assert stages["workerStart"] <= stages["pyodideReady"] <= stages["imported"]
    assert stages["imported"] <= stages["firstResult"]


def test_no_request_leaves_the_origin_and_none_while_editing(page, site_url):
    url, served = site_url
    assert page.load_requests, "the page loaded nothing?"
    assert all(request.startswith(url) for request in page.load_requests), page.load_requests
    page.requests.clear()
    served_before = len(served)
    for example in page.evaluate("window.cfgpatch.examples.map((e) => e.id)"):
        _choose(page, example)
    page.click("#patch-editor .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("\n# an edit typed by hand\n")
    page.evaluate("window.cfgpatch.settled()")
    assert page.evaluate("location.hash").startswith(("#s=", "#j="))
    page.keyboard.press("Control+Enter")
    page.keyboard.press("Alt+3")
    page.evaluate("window.cfgpatch.setInputs('kind: ConfigMap\\napiVersion: v1', 'data: {a: b}')")
    page.evaluate("window.cfgpatch.settled()")
    page.wait_for_timeout(300)
    assert page.requests == []
    assert len(served) == served_before
    assert not any("s=" in path or "j=" in path for path in served), "the fragment reached the server"


def test_typing_recomputes_and_a_shared_link_restores_the_inputs(page, browser):
    _choose(page, "service-port")
    page.click("#patch-editor .cm-content")
    page.keyboard.press("Control+a")
    page.keyboard.insert_text('{"spec": {"selector": {"app": "dns2"}}}')  # no auto-closing
    page.wait_for_function(  # recomputed by itself once typing pauses
        "() => window.cfgpatch.results().strategic.object?.spec.selector.app === 'dns2'")
    results = page.evaluate("window.cfgpatch.results()")
    assert results["strategic"]["object"]["spec"]["selector"] == {"app": "dns2"}
    page.keyboard.press("Alt+2")
    link = page.evaluate("window.cfgpatch.link()")
    assert page.evaluate("location.href") == link
    assert "#s=" in link or "#j=" in link
    other = browser.new_context().new_page()
    other.goto(link)
    other.evaluate("window.cfgpatch.ready")
    assert other.evaluate("window.cfgpatch.type") == "merge"
    assert other.evaluate("window.cfgpatch.results()") == page.evaluate("window.cfgpatch.results()")
    other.context.close()


def test_bad_input_is_reported_next_to_the_editor(page):
    page.evaluate("window.cfgpatch.setInputs('kind: [unclosed', '{}')")
    error = page.locator("#object-error")
    assert error.is_visible() and error.inner_text().strip()
    results = page.evaluate("window.cfgpatch.results()")
    assert all(not results[t]["ok"] for t in TYPES)
    assert page.errors == []


def test_keyboard_reaches_every_control(page):
    page.focus("#example")
    seen = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        seen.add(page.evaluate("document.activeElement.id || document.activeElement.className"))
    assert "share" in seen and "copy-command" in seen
    assert any("cm-content" in str(name) for name in seen)


def _screenshot(page, name: str) -> None:
    """The result panel of every example; the whole page for the first one."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if name == "merge-one-container":
        page.click("#whole-objects")  # the default, folded view
        page.evaluate("window.scrollTo(0, 0)")
        page.evaluate("document.documentElement.classList.add('full-render')")
        page.screenshot(path=str(SCREENSHOTS / "page.png"), full_page=True)
        page.evaluate("document.documentElement.classList.remove('full-render')")
        page.locator("#compare").screenshot(path=str(SCREENSHOTS / "three-types.png"))
        page.click("#whole-objects")
    page.locator("#result").screenshot(path=str(SCREENSHOTS / f"example-{name}.png"))



def test_cfgpatch_serve_serves_the_page(browser, site_url):
    """The same page through ``cfgpatch serve`` (mounted at ``/`` next to the API)."""
    from server_support import ServerProcess

    server = ServerProcess("memory://")
    try:
        context = browser.new_context()
        tab = context.new_page()
        requests: list[str] = []
        tab.on("request", lambda request: requests.append(request.url))
        tab.goto(server.url + "/")
        tab.evaluate("window.cfgpatch.ready")
        results = tab.evaluate("window.cfgpatch.results()")
        assert results["strategic"]["ok"] and results["merge"]["ok"]
        assert all(url.startswith(server.url + "/") for url in requests), requests
        context.close()
    finally:
        server.stop()
