"""Release pages, error pages, search and the compare address in headless Chromium (issue 11, section 2).

The site of the real records is built once and served by a server that answers a missing page with the
language's error page (``zh/404.html`` under ``/zh/``, else ``404.html``), as a static host configured
for this site does.  Skipped, like test_site_browser, when /usr/bin/chromium is missing outside CI.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from test_site_browser import _QuietHandler, _search, browser, page, shot, tab  # noqa: F401 - fixtures and helpers

REFERENCE = "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless"


class _ErrorPageHandler(_QuietHandler):
    """Serves the built site; a missing page gets the error page of its language, status 404."""

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        error = Path(self.directory) / ("zh/404.html" if self.path.startswith("/zh/") else "404.html")
        body = error.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@contextlib.contextmanager
def _serving(folder: Path):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_ErrorPageHandler, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def site(real_site_dir):
    """The real records' site (the session's one build), served with language error pages."""
    with _serving(real_site_dir) as url:
        yield url


# --- image tags: copyable, never broken, no overflow at 400 px -----------------------------------


def test_image_reference_has_a_working_copy_button(site, browser):  # noqa: F811 - the imported fixture
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.rstrip("/"))
    page = context.new_page()
    try:
        page.goto(site + "releases/training-nv-pytorch/25.07/")
        page.wait_for_load_state("networkidle")
        block = page.locator("article pre", has_text=REFERENCE).first
        assert block.locator("code").inner_text().strip() == REFERENCE
        button = block.locator("button.md-code__button[data-md-type=copy], button.md-clipboard")
        assert button.count() == 1
        target = button.get_attribute("data-clipboard-target")
        assert target and page.locator(target).inner_text().strip() == REFERENCE
        block.hover()
        button.click()
        assert page.evaluate("navigator.clipboard.readText()").strip() == REFERENCE
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["", "zh/"])
def test_vpc_address_to_copy_is_the_one_for_the_region_chosen(site, browser, lang):  # noqa: F811
    """The release page's region chooser fills {region-id} in every VPC address and the copy button copies the
    filled address; an id not of Alibaba Cloud's form keeps the published addresses and says why; the choice is
    remembered on the next page."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.rstrip("/"))
    page = context.new_page()
    published = "acs-registry-vpc.{region-id}.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.10-serverless"
    try:
        page.goto(site + lang + "releases/training-nv-pytorch/25.10/")
        page.wait_for_selector(".lj-vpc[data-ready]", state="attached")  # vpc.js has set the choosers up
        box = page.locator(".lj-vpc")
        field = box.locator("input")
        offered = box.locator("datalist option").evaluate_all("els => els.map(e => e.value)")
        assert offered == ["cn-beijing", "cn-wulanchabu"]
        assert box.locator("pre > code").inner_text().strip() == published
        field.fill("cn-shanghai")
        filled = published.replace("{region-id}", "cn-shanghai")
        assert box.locator("pre > code").inner_text().strip() == filled
        assert box.locator(".lj-vpc-hint").is_hidden()
        box.locator("pre").hover()
        box.locator("button.md-code__button[data-md-type=copy], button.md-clipboard").click()
        assert page.evaluate("navigator.clipboard.readText()").strip() == filled
        field.fill("<img src=x onerror=alert(1)>")
        assert box.locator("pre > code").inner_text().strip() == published
        assert field.get_attribute("aria-invalid") == "true" and box.locator(".lj-vpc-hint").is_visible()
        assert box.locator("img").count() == 0
        field.fill("cn-shanghai-finance-1")  # an id of several parts
        assert box.locator("pre > code").inner_text().strip() == published.replace("{region-id}", "cn-shanghai-finance-1")
        # a stored value longer than the field allows is not taken
        page.evaluate("localStorage.setItem('lingjun-vpc-region', 'cn-' + 'a'.repeat(5000))")
        page.reload()
        page.wait_for_selector(".lj-vpc[data-ready]", state="attached")  # vpc.js has set the choosers up
        assert page.locator(".lj-vpc input").input_value() == ""
        # one chooser per image: the region chosen in one fills every address of the page
        page.goto(site + lang + "releases/inference-nv-pytorch/25.04/")
        page.wait_for_selector(".lj-vpc[data-ready]", state="attached")  # vpc.js has set the choosers up
        boxes = page.locator(".lj-vpc")
        assert boxes.count() >= 2
        boxes.first.locator("input").fill("cn-beijing")
        codes = page.locator(".lj-vpc pre > code").evaluate_all("els => els.map(e => e.textContent)")
        assert codes and all("acs-registry-vpc.cn-beijing.cr.aliyuncs.com/" in c for c in codes)
        assert boxes.last.locator("input").input_value() == "cn-beijing"
        boxes.last.locator("input").fill("cn-hangzhou")
        page.goto(site + lang + "releases/training-xpu-pytorch/25.05/")
        page.wait_for_selector(".lj-vpc[data-ready]", state="attached")  # vpc.js has set the choosers up
        assert page.locator(".lj-vpc input").input_value() == "cn-hangzhou"
        assert "acs-registry-vpc.cn-hangzhou.cr.aliyuncs.com/egslingjun/training-xpu-pytorch:" in \
            page.locator(".lj-vpc pre > code").first.inner_text()
    finally:
        context.close()


_OVERFLOW = """() => ({page: document.documentElement.scrollWidth - window.innerWidth,
    wide: Array.from(document.querySelectorAll('article *')).filter(el => {
        const box = el.getBoundingClientRect(); return box.width > 0 && box.right > window.innerWidth + 1
            && !el.closest('pre, .md-typeset__scrollwrap, .md-typeset__table'); }).map(el => el.tagName + '.' + el.className).slice(0, 5)})"""

#: every code block holding a registry reference: its text and how many lines it is drawn on
_REFERENCES = """() => Array.from(document.querySelectorAll('article pre > code')).filter(c => c.innerText.includes('.cr.aliyuncs.com/'))
    .map(c => { const range = document.createRange(); range.selectNodeContents(c);
                const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
                return {text: c.innerText.trim(), lines: tops.size, white: getComputedStyle(c).whiteSpace}; })"""


@pytest.mark.parametrize("path,name", [
    ("releases/training-nv-pytorch/25.07/", "narrow-release-en"),
    ("zh/releases/training-nv-pytorch/25.09/", "narrow-release-zh"),
    ("families/training-nv-pytorch/", "narrow-family-en"),
])
def test_nothing_overflows_at_400px_and_references_stay_whole(site, browser, path, name):  # noqa: F811
    context = browser.new_context(viewport={"width": 400, "height": 800})
    page = context.new_page()
    try:
        page.goto(site + path)
        page.wait_for_load_state("networkidle")
        assert page.evaluate(_OVERFLOW) == {"page": 0, "wide": []}
        references = page.evaluate(_REFERENCES)
        if path.startswith(("releases/", "zh/releases/")):
            assert references, "the release page shows its image references in code blocks"
        for ref in references:
            # drawn on as many lines as the block has (a quick-start block has two commands): never wrapped
            assert ref["white"] == "pre" and ref["lines"] == ref["text"].count("\n") + 1, ref
        assert REFERENCE.replace("25.07", path.split("/")[-2]) in [r["text"] for r in references] or "families" in path
        shot(page, name)
    finally:
        context.close()


# --- the driver section ---------------------------------------------------------------------------


def test_driver_requirement_first_and_branch_table_folded(site, page):  # noqa: F811
    page.goto(site + "releases/training-nv-pytorch/25.07/")
    first = page.locator("h2#driver ~ p").first.inner_text()
    assert first == ("This release requires NVIDIA driver release 575 or later "
                     "(the official page says: “NVIDIA Driver release >= 575”).")
    details = page.locator("h2#driver ~ details").first
    assert details.get_attribute("open") is None
    assert not details.locator("table").is_visible()
    folded = page.evaluate("document.documentElement.scrollHeight")
    details.locator("summary").click()
    assert details.locator("table tbody tr").count() >= 20 and details.locator("table").is_visible()
    unfolded = page.evaluate("document.documentElement.scrollHeight")
    print(f"release 25.07 page height at 1280 px: {folded} px folded, {unfolded} px with the branch table open")
    assert unfolded - folded > 800
    assert page.lj_errors == []


# --- 404 in the page's language --------------------------------------------------------------------


@pytest.mark.parametrize("path,lang,title,home,search", [
    ("no/such/page/", "en", "Page not found", "Home page", "Search this site"),
    ("zh/no/such/page/", "zh", "页面不存在", "返回首页", "搜索本站"),
])
def test_error_page_in_the_pages_language(site, page, path, lang, title, home, search):  # noqa: F811
    response = page.goto(site + path)
    assert response.status == 404
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("article h1").inner_text().strip() == title
    shot(page, f"404-{lang}")
    page.locator("label[data-lj-search]", has_text=search).click()
    assert page.locator("input.md-search__input").is_visible()
    page.keyboard.press("Escape")
    page.goto(site + path)
    page.locator("a[data-lj-home]", has_text=home).click()
    page.wait_for_url(site + ("zh/" if lang == "zh" else ""))
    assert page.locator("html").get_attribute("lang") == lang
    # the browser logs the 404 status of the missing page itself; nothing else may fail
    assert [e for e in page.lj_errors if not e.endswith(f"(Not Found) ({site}{path})")] == []


# --- search ----------------------------------------------------------------------------------------


def test_search_535_finds_the_r535_rows(site, page):  # noqa: F811
    results = _search(page, site, "535")
    hrefs = [href for href, _ in results]
    assert any("drivers/" in h for h in hrefs), results
    assert any("R535" in text for _, text in results), results


def test_search_driver_570_ranks_the_driver_page_first(site, page):  # noqa: F811
    results = _search(page, site, "driver 570")
    shot(page, "search-driver-570")
    assert results and "/drivers/" in results[0][0], results[:3]


def test_chinese_search_finds_nccl_socket_ifname_on_the_rules_page(site, page):  # noqa: F811
    results = _search(page, site + "zh/", "NCCL_SOCKET_IFNAME")
    assert any("/zh/checker/rules/" in href for href, _ in results), results


# --- compare writes its selection back --------------------------------------------------------------


def test_compare_writes_the_selection_to_the_address(site, page):  # noqa: F811
    page.goto(site + "compare/?old=training-nv-pytorch:25.06&new=training-nv-pytorch:25.07")
    page.wait_for_selector(".lj-compare-result table")
    page.locator("select[name=old]").select_option("training-nv-pytorch:25.02")
    page.wait_for_function("location.search.includes('25.02')")
    assert page.url.endswith("compare/?old=training-nv-pytorch%3A25.02&new=training-nv-pytorch%3A25.07")
    page.reload()
    page.wait_for_selector(".lj-compare-result table")
    assert page.locator("select[name=old]").input_value() == "training-nv-pytorch:25.02"
    assert page.lj_errors == []


@pytest.mark.parametrize("path", ["families/training-xpu-pytorch/", "zh/families/training-xpu-pytorch/",
                                  "families/training-nv-pytorch/", "zh/families/inference-nv-pytorch/"])
def test_family_releases_table_fits_its_column_at_1280px(site, browser, path):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(site + path)
        table, column, tag_column = page.evaluate("""() => {
            const t = document.querySelector('.lj-family-releases table');
            const c = document.querySelector('.md-content__inner');
            const th = t.querySelectorAll('thead th');
            return [t.scrollWidth, c.getBoundingClientRect().width, th[th.length - 1].getBoundingClientRect().width]; }""")
        assert table <= column + 1, (path, table, column)
        assert tag_column >= 150, (path, tag_column)  # a tag column of ~8 characters was the trial's complaint
    finally:
        page.close()
