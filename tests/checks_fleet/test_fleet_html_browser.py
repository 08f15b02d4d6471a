"""The fleet HTML report on a narrow screen, in headless Chromium (Debian's /usr/bin/chromium, driven by
Playwright): the page never scrolls sideways; a wide table scrolls in its own box.  Skipped without Chromium
unless the ``CI`` variable is set (as tests/site/test_site_browser.py)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

import fleet_corpus
from lingjun.checks.fleet._cli import main

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("headless Chromium not installed at /usr/bin/chromium", allow_module_level=True)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fleet-html")
    fleet_corpus.write_files(folder / "in", fleet_corpus.node_snapshots(40, base=fleet_corpus.base_snapshot()))
    out = folder / "fleet.html"
    main([str(folder / "in"), "--format", "html", "--lang", "en", "--output", str(out)], stdin=io.BytesIO(b""))
    return out


@pytest.mark.parametrize("width", [400, 485, 1280])
def test_the_page_never_scrolls_sideways(report, width):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(report.as_uri())
            assert page.locator("h2", has_text="Findings by rule").count() == 1
            page_width = page.evaluate("document.documentElement.scrollWidth")
            assert page_width <= width, page_width
            # every table is inside a box no wider than the page: what does not fit scrolls there, not the page
            boxes = page.evaluate("[...document.querySelectorAll('table')].map(t => t.parentElement.getBoundingClientRect().right)")
            assert boxes and max(boxes) <= width
            wide = page.evaluate("[...document.querySelectorAll('table')].map(t => t.parentElement.className)")
            assert set(wide) == {"wide"}
        finally:
            browser.close()
