"""The page's lint mode in a real Chromium (issue 12): a kustomization and its files,
typed, chosen as a folder or dropped, linted in the tab with the same findings as
``cfgpatch lint --format json`` (to the byte), drawn grouped by file, each place opening its file at
its line; at 1400x1000 and at 390x844. Writes docs/screenshots/lint.png."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from web_browser_support import (  # noqa: F401 - fixtures
    SIZES,
    browser,
    fits,
    open_shared_link,
    open_tab,
    page_fixture,
    screenshot,
    site_url,
    size_fixture,
    tab_fixture,
)

pytestmark = pytest.mark.timeout(300)
TREES = ROOT / "tests" / "data" / "lint" / "trees"
EXAMPLE = json.loads((ROOT / "web" / "src" / "lint-example.json").read_text())
#: Trees loaded as a folder through the folder picker (Flux, standalone, config, clean...).
FOLDERS = ["field-set-twice", "flux-patches", "standalone", "config-rules", "json6902-brittle",
           "renamed-target", "components", "clean-overlays", "build-fails"]


def _lint_mode(tab) -> None:
    """The lint mode, chosen with its radio button as a reader does."""
    tab.check("input[name=mode][value=lint]")
    tab.evaluate("window.cfgpatch.lint.settled()")


size = size_fixture()
tab = tab_fixture(setup=_lint_mode)
page = page_fixture()


def cli_lint(root: Path) -> dict:
    """``cfgpatch lint --format json`` on the tree, for real (kube build on disk)."""
    done = subprocess.run([sys.executable, "-m", "cfgpatch", "lint", "--root", str(root),
                           "--format", "json", "--no-kubectl", "--fail-on", "never"],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert done.returncode in (0, 2), done.stderr
    return json.loads(done.stdout)


def _drawn(page) -> list[tuple]:
    return page.evaluate("""() => [...document.querySelectorAll('#lint-groups .lint-file')]
        .flatMap((s) => [...s.querySelectorAll('.lint-finding')].map((li) =>
          [s.dataset.file, Number(li.dataset.line), li.dataset.rule,
           li.querySelector('.severity').textContent,
           li.querySelector('.finding-head .place').textContent]))""")


@pytest.mark.parametrize("name", FOLDERS)
def test_a_folder_chosen_in_the_page_gives_the_command_line_s_findings(page, name):
    root = TREES / name
    page.set_input_files("#lint-folder", str(root))
    page.evaluate("window.cfgpatch.lint.settled()")
    results = page.evaluate("window.cfgpatch.lint.results()")
    expected = cli_lint(root)
    on_disk = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert [f["path"] for f in page.evaluate("window.cfgpatch.lint.files()")] == on_disk
    # the tab builds with kube build too (in its in-memory file system): the whole
    # document is the command line's, a failed build's kustomize text included
    assert results == expected
    assert _drawn(page) == [[f["file"], f["line"], f["rule"], f["level"],
                             f"{f['line']}:{f['column']}"] for f in expected["findings"]]
    assert fits(page)


def test_the_example_its_findings_and_the_screenshot(page, size):
    page.click("#lint-example")
    page.evaluate("window.cfgpatch.lint.settled()")
    view = page.evaluate("window.cfgpatch.lint.view()")
    assert page.text_content("#lint-verdict") == view["verdict"]
    assert page.text_content("#lint-summary") == view["summary"] == (
        "4 findings (1 error, 3 warnings, 0 notes) in 1 file; 4 patches checked "
        "(2 kustomizations)")
    first = page.locator("#lint-groups .lint-finding").first
    help_text = view["files"][0]["findings"][0]["help"]
    assert first.locator(".help").text_content() == help_text.replace("`", "")  # drawn as code
    assert first.locator(".quote").text_content() == \
        f"14 | {view['files'][0]['findings'][0]['quote']}"
    # the kustomization is in the editor, its findings marked at their lines
    current = page.evaluate("window.cfgpatch.lint.current()")
    assert current["path"] == "overlays/prod/kustomization.yaml"
    assert sorted((p["line"], p["severity"]) for p in current["problems"]) == [
        (14, "warning"), (17, "warning"), (26, "warning"), (33, "error")]
    assert fits(page)
    if size == "desktop":
        screenshot(page, "lint", full_page=True)


def test_a_place_opens_its_file_at_its_line(page):
    page.click("#lint-example")
    page.evaluate("window.cfgpatch.lint.settled()")
    related = page.locator("#lint-groups .related .place").first
    assert related.text_content() == "overlays/prod/replicas.yaml:6:3"
    related.click()
    current = page.evaluate("window.cfgpatch.lint.current()")
    assert current["path"] == "overlays/prod/replicas.yaml"
    assert current["cursor"] == {"line": 6, "column": 3}
    assert page.evaluate("document.activeElement.closest('#lint-editor') !== null")
    page.locator("#lint-groups .lint-finding .finding-head .place").nth(3).click()
    current = page.evaluate("window.cfgpatch.lint.current()")
    assert (current["path"], current["cursor"]["line"]) == ("overlays/prod/kustomization.yaml", 33)


def test_files_typed_in_the_page_are_linted_as_they_change(page):
    page.click("#lint-clear")
    page.evaluate("window.cfgpatch.lint.settled()")
    assert page.text_content("#lint-verdict").startswith("Add the files")
    page.click("#lint-add")
    page.keyboard.type("kustomization.yaml")
    page.locator("#lint-editor .cm-content").click()
    # a JSON 6902 patch starting with "[" must be strict JSON (kustomize refuses YAML there)
    page.keyboard.insert_text("resources: [cm.yaml]\npatches:\n  - target: {kind: Secret}\n"
                              "    patch: '[{\"op\": \"add\", \"path\": \"/data/b\", "
                              "\"value\": \"c\"}]'\n")
    page.click("#lint-add")
    page.evaluate("window.cfgpatch.lint.settled()")
    # the new file has no path yet: said next to it, nothing linted
    assert page.locator(".file-item").nth(1).locator(".file-problem").text_content() == \
        "Give this file a path (such as base/kustomization.yaml)."
    page.keyboard.type("cm.yaml")
    page.locator("#lint-editor .cm-content").click()
    page.keyboard.insert_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")
    page.evaluate("window.cfgpatch.lint.settled()")
    results = page.evaluate("window.cfgpatch.lint.results()")
    assert [(f["rule"], f["file"], f["line"]) for f in results["findings"]] == [
        ("patch-matches-nothing", "kustomization.yaml", 4)]
    assert page.locator(".file-item").nth(0).locator(".file-count").text_content() == "1 error"


def test_a_bad_config_is_shown_and_marked_at_its_line(page):
    page.evaluate("""(files) => window.cfgpatch.lint.setFiles(files)""",
                  [*EXAMPLE["files"], {"path": ".cfgpatch.yaml",
                                       "text": "lint:\n  severity:\n    field-set-twice: loud\n"}])
    assert page.is_visible("#lint-error")
    assert page.text_content("#lint-error .plain").startswith(".cfgpatch.yaml:3:5: ")
    page.click("#lint-error .place")
    current = page.evaluate("window.cfgpatch.lint.current()")
    assert current["path"] == ".cfgpatch.yaml" and current["cursor"]["line"] == 3
    assert [p["line"] for p in current["problems"]] == [3]


def test_dropped_files_are_read_in_the_tab_and_nothing_is_requested(page):
    page.click("#lint-clear")
    before = len(page.requests)
    prevented = page.evaluate("""(files) => {
        const data = new DataTransfer();
        for (const [name, text] of files) data.items.add(new File([text], name));
        data.items.add(new File([new Uint8Array([0xff, 0xfe, 0])], "logo.png"));
        // dropped next to the zone: the whole mode takes it
        const list = document.getElementById('lint-file-list');
        return !list.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true,
                                                          cancelable: true}));
    }""", [["kustomization.yaml", (TREES / "renamed-target" / "base" / "kustomization.yaml")
            .read_text()], ["deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\n"
                            "metadata: {name: web}\n"]])
    assert prevented  # the browser does not open the dropped file instead of the page
    page.wait_for_function("window.cfgpatch.lint.files().length === 2")
    page.evaluate("window.cfgpatch.lint.settled()")
    assert page.text_content("#lint-skipped") == "1 entry was not read: logo.png (not UTF-8 text)."
    assert page.evaluate("window.cfgpatch.lint.view()")["ok"]
    assert page.requests[before:] == []


def test_the_mode_switch_shows_one_mode_and_a_pressed_button_stays_readable(page):
    assert page.is_hidden("#mode-patch") and page.is_visible("#mode-lint")
    assert page.is_hidden("#mode-apply")
    assert page.evaluate("window.cfgpatch.mode") == "lint"
    page.check("input[name=mode][value=patch]")
    assert page.is_visible("#mode-patch") and page.is_hidden("#mode-lint")
    assert page.is_visible("[data-lede=patch]") and page.is_hidden("[data-lede=lint]")
    pressed = page.locator("#mode-patch .button[aria-pressed=true]").first
    pressed.hover()
    colours = pressed.evaluate("(b) => { const s = getComputedStyle(b); "
                               "return [s.color, s.backgroundColor]; }")
    assert colours == ["rgb(255, 255, 255)", "rgb(58, 63, 69)"]  # white on dark, hovered
    page.evaluate("window.cfgpatch.setMode('lint')")
    assert page.is_visible("#mode-lint") and page.is_checked("input[name=mode][value=lint]")
    assert page.is_visible("[data-lede=lint]") and page.is_hidden("[data-lede=patch]")


def test_paths_written_loosely_are_the_files_lint_names(page):
    files = [{**f, "path": "./" + f["path"].replace("/", "//")} for f in EXAMPLE["files"]]
    results = page.evaluate("(files) => window.cfgpatch.lint.setFiles(files)", files)
    assert {f["file"] for f in results["findings"]} == {"overlays/prod/kustomization.yaml"}
    current = page.evaluate("window.cfgpatch.lint.current()")
    assert current["path"] == "./overlays//prod//kustomization.yaml"  # as written
    assert len(current["problems"]) == 4  # its findings are marked in it
    page.locator("#lint-groups .related .place").first.click()
    assert page.evaluate("window.cfgpatch.lint.current()")["cursor"] == {"line": 6, "column": 3}


def test_a_shared_link_opens_the_lint_mode_with_its_files(page, browser, site_url, size):  # noqa: F811
    url, _ = site_url
    files = [*EXAMPLE["files"], {"path": "notes/é ünïcode.txt", "text": "ß \u2603\n"}]
    wanted = page.evaluate("(files) => window.cfgpatch.lint.setFiles(files)", files)
    other = open_shared_link(page, browser, "lint", SIZES[size])
    try:
        other.evaluate("window.cfgpatch.lint.settled()")
        assert other.evaluate("window.cfgpatch.lint.files()") == files
        assert other.evaluate("window.cfgpatch.lint.results()") == wanted
        assert other.errors == []
    finally:
        other.context.close()
    # a link whose files are not [path, text] pairs is said to be damaged
    bad = page.evaluate("""async () => {
        const raw = JSON.stringify({v: 1, t: "strategic", f: "yaml", o: "", p: "", m: "lint",
                                    l: "", fs: [["a.yaml"]]});
        const b64 = btoa(raw).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
        return location.href.split("#")[0] + "#j=" + b64; }""")
    other = open_tab(browser, bad, SIZES[size])
    try:
        assert other.is_visible("#link-problem")
        assert "does not hold the lint mode's files" in other.inner_text("#link-problem")
    finally:
        other.context.close()
    page.check("input[name=mode][value=lint]")
