"""Shared pieces of the browser tests of the patch tester page (Playwright + Chromium).

Fixtures: ``site_url`` (the built page on a local static file server, recording the
paths it is asked for), ``browser`` (Debian's Chromium), and the page set-up most
modules share, made by :func:`size_fixture` (each module at both viewport sizes),
:func:`tab_fixture` (one tab a module and size, in a mode) and :func:`page_fixture`
(that tab for one test, which must leave no page error); helpers to open a tab at a viewport size, to run the
engine in CPython on the same texts, and to run real ``kubectl patch --local`` on them.
Locally a missing component skips with the reason printed; with ``CI=true`` it fails
(conftest's ``require``).

A module imports ``browser`` and ``site_url`` by name and writes ``size =
size_fixture()``, ``tab = tab_fixture("apply")`` and ``page = page_fixture("apply")``.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cfgpatch.errors import CfgPatchError
from cfgpatch.web import static_dir
from conftest import ROOT, require

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = ROOT / "docs" / "screenshots"
TYPES = ("strategic", "merge", "json")
DESKTOP = {"width": 1400, "height": 1000}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def _site_is_current(site: Path) -> bool:
    """Whether the packed Python in the built page matches src/cfgpatch now."""
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


def size_fixture():
    """A module-scoped ``size`` fixture: ``desktop`` then ``phone``, so that the module's
    tests run at both sizes."""

    @pytest.fixture(scope="module", params=list(SIZES), ids=list(SIZES))
    def size(request) -> str:
        return request.param

    return size


def set_mode(tab, mode: str) -> None:
    tab.evaluate("(m) => window.cfgpatch.setMode(m)", mode)


def tab_fixture(mode: str | None = None, setup: Callable | None = None, **context_options):
    """A module-scoped ``tab`` fixture: the built page at ``size``, switched to ``mode``
    (else left in the patch mode) and given to ``setup``; closed after the module."""

    @pytest.fixture(scope="module")
    def tab(browser, site_url, size):  # noqa: F811 - the fixtures of the module
        url, _ = site_url
        opened = open_tab(browser, url, SIZES[size], **context_options)
        if mode is not None:
            set_mode(opened, mode)
        if setup is not None:
            setup(opened)
        yield opened
        opened.context.close()

    return tab


def page_fixture(mode: str | None = None, fits_screen: bool = False):
    """A ``page`` fixture: the module's ``tab`` for one test (switched back to ``mode``
    first), which must leave no page error (with ``fits_screen``: nor a page wider than
    the screen)."""

    @pytest.fixture
    def page(tab):
        if mode is not None:
            set_mode(tab, mode)
        yield tab
        assert tab.errors == []
        if fits_screen:
            assert fits(tab), "the page is wider than the screen"

    return page


def open_tab(browser, url: str, viewport: dict, *, wait: bool = True, **context_options):
    """A new context and tab at ``viewport``, recording requests and page errors."""
    context = browser.new_context(viewport=viewport, **context_options)
    tab = context.new_page()
    tab.requests = []
    tab.errors = []
    tab.on("request", lambda request: tab.requests.append(request.url))
    tab.on("pageerror", lambda error: tab.errors.append(str(error)))
    tab.goto(url)
    if wait:
        tab.evaluate("window.cfgpatch.ready")
    return tab


def open_shared_link(page, browser, mode: str, viewport: dict):
    """Copy ``mode``'s link with its share button, open it in a new tab and check that the
    tab shows that mode (and not the patch mode). The caller closes ``tab.context``."""
    page.click(f"#{mode}-share")
    page.wait_for_selector(f"#{mode}-share + .copy-note")
    link = page.evaluate("window.cfgpatch.link()")
    assert "#s=" in link
    other = open_tab(browser, link, viewport)
    assert other.evaluate("window.cfgpatch.mode") == mode
    assert other.locator(f"#mode-{mode}").is_visible() and other.locator("#mode-patch").is_hidden()
    return other


def engine(object_text: str, patch_text: str, patch_type: str, crd_text: str = "") -> dict:
    """The command line's path on the same texts: read with kube.io.reader, run kube.patch
    (with ``crd_text``: the CRD, as ``kube patch --crd`` reads it)."""
    from cfgpatch import kube
    from cfgpatch.kube.io import reader

    obj, notes = reader.load_object(object_text)
    crd = reader.load_object(crd_text)[0] if crd_text.strip() else None
    try:
        body, patch_notes = reader.load_patch(patch_text, patch_type)
        outcome = kube.patch(obj, body, patch_type, crd=crd, notes=notes,
                             patch_notes=patch_notes)
    except CfgPatchError as exc:
        return {"ok": False, "error": exc.describe(),
                "findings": [f.to_dict() for f in getattr(exc, "findings", None) or ()]}
    return {"ok": True, "object": outcome.object,
            "changes": [c.to_dict() for c in outcome.changes],
            "findings": [f.to_dict() for f in outcome.findings]}


def kubectl() -> str:
    found = shutil.which("kubectl")
    require(found is not None, "kubectl is not on PATH")
    return found


def kubectl_patch(object_text: str, patch_text: str, patch_type: str, output: str
                  ) -> subprocess.CompletedProcess:
    """``kubectl patch --local -f obj.yaml --type T -p PATCH -o yaml|json``, for real."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.yaml").write_text(object_text)
        return subprocess.run([kubectl(), "patch", "--local", "-f", "obj.yaml", "--type",
                               patch_type, "-p", patch_text, "-o", output], cwd=folder,
                              capture_output=True, text=True, timeout=60)


def choose(tab, example_id: str) -> None:
    """Pick an example in the menu and wait until its results are drawn."""
    tab.select_option("#example", example_id)
    tab.evaluate("window.cfgpatch.settled()")


def shown_text(tab, selector: str) -> str:
    """The text of the code box in ``selector`` (marks are CSS, not text)."""
    return tab.evaluate("(sel) => document.querySelector(sel + ' pre.code').textContent",
                        selector)


def fits(tab) -> bool:
    """No horizontal overflow: the page is not wider than the viewport."""
    return tab.evaluate("document.documentElement.scrollWidth <= innerWidth")


def screenshot(tab, name: str, selector: str | None = None, full_page: bool = False) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = str(SCREENSHOTS / f"{name}.png")
    if selector:
        tab.locator(selector).screenshot(path=path)
        return
    tab.evaluate("document.documentElement.classList.add('full-render')")
    tab.evaluate("window.scrollTo(0, 0)")
    tab.screenshot(path=path, full_page=full_page)
    tab.evaluate("document.documentElement.classList.remove('full-render')")


AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(tab) -> list:
    """axe-core's violations on the tab as it is (id, impact, the first nodes)."""
    require(AXE.exists(), "axe-core is not installed (make web runs npm ci in web/)")
    tab.add_script_tag(path=str(AXE))
    return tab.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact,
          nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
