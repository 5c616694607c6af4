"""Check the HTML report in Chromium (Playwright) at desktop and phone sizes and save a
screenshot: no horizontal overflow of the page, every object's section present, the
side-by-side diff in two columns on the desktop and one on the phone.

    python scripts/screenshot_preview.py REPORT.html docs/screenshots/kube-preview.png
"""

from __future__ import annotations

import shutil
import sys

from playwright.sync_api import sync_playwright

SIZES = {"desktop": (1400, 1000), "phone": (390, 844)}


def main(report: str, screenshot: str) -> int:
    failures = []
    with sync_playwright() as play:
        browser = play.chromium.launch(executable_path=shutil.which("chromium"),
                                       args=["--no-sandbox", "--headless"])
        for name, (width, height) in SIZES.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"file://{report}")
            overflow = page.evaluate("document.documentElement.scrollWidth > innerWidth")
            sections = page.locator("details").count()
            columns = page.evaluate("getComputedStyle(document.querySelector('.sbs'))"
                                    ".gridTemplateColumns.split(' ').length")
            print(f"{name} {width}x{height}: sections={sections} page overflow={overflow} "
                  f"diff columns={columns}")
            if overflow:
                failures.append(f"{name}: the page scrolls sideways")
            if columns != (2 if name == "desktop" else 1):
                failures.append(f"{name}: {columns} diff columns")
            shot = screenshot if name == "desktop" else screenshot.replace(".png", "-phone.png")
            page.screenshot(path=shot)
        browser.close()
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
