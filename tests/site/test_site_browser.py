"""The built site in a real browser: headless Chromium (Debian package) driven by Playwright.

Needs ``/usr/bin/chromium`` (``apt-get install -y chromium``); Playwright's
own browser download is never used.  Skipped only when Chromium is missing
and the ``CI`` environment variable is not set; in CI it must run.
A test that fails leaves a screenshot of its page in ``test-artifacts/`` (``failed-<test>.png``); with
``LINGJUN_SCREENSHOTS=1`` every page a test names in :func:`shot` is saved there too (a full-page screenshot costs
0.3 to 1.6 s of a core here, so a plain run takes none).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from site_kit import REPO
from made_once import made_ahead

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("headless Chromium not installed at /usr/bin/chromium (apt-get install -y chromium); "
                "the browser test runs whenever it is, and always in CI", allow_module_level=True)


#: whether the pages a test opens get the site's own search index (``True``: a test that searches, through
#: :func:`_search`, or asks for it with :func:`full_search_index`) or the same index without its documents: Material's
#: search worker builds the index again on every page load, 0.2 to 0.5 s of a core per page of the real records,
#: which a test of layout or of a script never uses.  Reset to the index without documents after every test.
SEARCH_INDEX = {"full": False}
_EMPTY_INDEXES: dict = {}


def _index_without_documents(path: Path) -> bytes:
    """The search index at ``path`` with its configuration (language, separator) and no documents (read once)."""
    body = _EMPTY_INDEXES.get(path)
    if body is None:
        index = json.loads(path.read_text(encoding="utf-8"))
        body = _EMPTY_INDEXES[path] = json.dumps({**index, "docs": []}).encode("utf-8")
    return body


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves a built site without logging; the search index is never cached by the browser (a test's tab may
    get the other index of :data:`SEARCH_INDEX` than the test before it)."""

    def log_message(self, format, *args):  # noqa: A002 - signature of the base class
        pass

    def send_head(self):
        if not self.path.split("?", 1)[0].endswith("/search/search_index.json"):
            return super().send_head()
        source = Path(self.translate_path(self.path))
        if SEARCH_INDEX["full"] or not source.is_file():
            return super().send_head()
        body = _index_without_documents(source)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self):
        if self.path.split("?", 1)[0].endswith("/search/search_index.json"):
            self.send_header("Cache-Control", "no-store")
        super().end_headers()


@contextlib.contextmanager
def _serving(folder):
    """An HTTP server on a free loopback port serving ``folder``; yields its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def server(built_site):
    site, _ = built_site
    with _serving(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def tab(browser):
    """One tab (a 1280 x 900 context and its page) for all the tests of a module on one xdist worker.

    Opening a tab starts a renderer process: about 0.5 s of a core on this 2-core machine, which the
    module's tests would otherwise pay each.  :func:`page` hands it to each test as a fresh one would be.
    The tab records console errors and uncaught exceptions in ``tab.lj_errors`` and dismisses every dialog,
    recording its message in ``tab.lj_dialogs``.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    tab.lj_errors = []  # type: ignore[attr-defined]
    tab.lj_dialogs = []  # type: ignore[attr-defined]

    def on_console(msg):
        if msg.type == "error":
            tab.lj_errors.append(f"{msg.text} ({(msg.location or {}).get('url', '')})")

    tab.on("console", on_console)
    tab.on("pageerror", lambda exc: tab.lj_errors.append(str(exc)))

    def on_dialog(dialog):
        tab.lj_dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    yield tab
    context.close()


@pytest.fixture()
def page(tab):
    """The module's :func:`tab` as a new tab: 1280 x 900, on a blank page, no errors or dialogs recorded;
    after the test the storage (local and session) of the site it was on is emptied, as a new context's is."""
    tab.set_viewport_size({"width": 1280, "height": 900})
    tab.lj_errors.clear()
    tab.lj_dialogs.clear()
    yield tab
    if tab.url.startswith("http"):
        tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    tab.goto("about:blank")
    SEARCH_INDEX["full"] = False


@pytest.fixture()
def full_search_index(page):
    """:func:`page`, whose pages get the site's own search index (for a test that must see the whole page work:
    console errors, hostile records)."""
    SEARCH_INDEX["full"] = True
    yield page
    SEARCH_INDEX["full"] = False


def shot(page, name: str) -> None:
    """Save a full-page screenshot of ``page`` as ``test-artifacts/site-<name>.png`` when ``LINGJUN_SCREENSHOTS``
    is set (to look at the pages a run saw); otherwise nothing."""
    if os.environ.get("LINGJUN_SCREENSHOTS"):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"site-{name}.png"), full_page=True)


@pytest.mark.parametrize("path,name,lang,heading", [
    ("", "home-en", "en", "Lingjun and ACS AI container images"),
    ("zh/", "home-zh", "zh", "灵骏与 ACS AI 容器镜像"),
    ("releases/training-nv-pytorch/25.07/", "release-en", "en", "training-nv-pytorch 25.07"),
    ("zh/drivers/", "drivers-zh", "zh", "驱动兼容性"),
])
def test_pages_render_without_console_errors(server, full_search_index, path, name, lang, heading):
    page = full_search_index
    page.goto(server + path)
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").first.inner_text().replace("¶", "").strip() == heading
    assert page.locator("html").get_attribute("lang") == lang
    shot(page, name)
    assert page.lj_errors == []


def test_language_switcher_keeps_the_release(server, page):
    page.goto(server + "releases/training-nv-pytorch/25.07/")
    page.locator(".md-header__option .md-select").hover()
    page.locator("a.md-select__link[hreflang=zh]").click()
    page.wait_for_url(server + "zh/releases/training-nv-pytorch/25.07/")
    assert page.url == server + "zh/releases/training-nv-pytorch/25.07/"
    assert page.locator("h2#driver").inner_text().startswith("驱动要求")
    shot(page, "release-zh")
    page.locator(".md-header__option .md-select").hover()
    page.locator("a.md-select__link[hreflang=en]").click()
    page.wait_for_url(server + "releases/training-nv-pytorch/25.07/")
    assert page.url == server + "releases/training-nv-pytorch/25.07/"
    assert page.lj_errors == []


def _search(page, base: str, query: str) -> list[tuple[str, str]]:
    """``(href, text)`` of each result Material's search box lists for ``query`` typed on the page ``base``
    (opened with the site's own search index: :data:`SEARCH_INDEX`)."""
    SEARCH_INDEX["full"] = True
    page.goto(base)
    page.wait_for_load_state("networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # a key event makes the search run (fill alone does not)
    page.wait_for_selector(".md-search-result__item", timeout=15000)
    items = page.locator(".md-search-result__item > a")
    return [(items.nth(i).get_attribute("href") or "", items.nth(i).inner_text()) for i in range(items.count())]


def test_search_english(server, page):
    results = _search(page, server, "deepspeed")
    shot(page, "search-en")
    assert results
    assert all("/zh/" not in href for href, _ in results)
    assert any("DeepSpeed" in text or "deepspeed" in text.lower() for _, text in results)
    assert page.lj_errors == []


def test_search_chinese(server, page):
    results = _search(page, server + "zh/", "驱动")
    shot(page, "search-zh")
    assert results
    assert all("/zh/" in href for href, _ in results)
    assert any("驱动" in text for _, text in results)
    assert page.lj_errors == []


def test_record_text_with_script_is_shown_as_text(server, page):
    page.goto(server + "releases/training-nv-pytorch/25.07/")
    body = page.locator("article").inner_text()
    assert "<script>alert(1)</script>" in body
    assert "[x](javascript:alert(1))" in body
    assert page.locator("article script").count() == 0
    assert page.locator("a[href^='javascript']").count() == 0
    assert page.lj_dialogs == []
    page.goto(server + "known-issues/")
    assert "<script>alert(1)</script>" in page.locator("article").inner_text()
    assert page.lj_dialogs == []


def test_compare_picker(server, page):
    page.goto(server + "compare/?old=training-nv-pytorch:25.02&new=training-nv-pytorch:25.07")
    page.wait_for_selector(".lj-compare-result table")
    rows = page.locator(".lj-compare-result tbody tr")
    texts = [rows.nth(i).inner_text() for i in range(rows.count())]
    assert any(t.startswith("vLLM") and "upgraded" in t and "0.7.2" in t and "0.9.2" in t for t in texts)
    shot(page, "compare-en")
    assert page.lj_errors == []


@pytest.fixture(scope="module")
def real_server(real_site_dir):
    """The site of the real records in ``releases/`` (the session's one build), served over HTTP."""
    with _serving(real_site_dir) as url:
        yield url


_OVERFLOWING = """() => Array.from(document.querySelectorAll('article table')).filter(t => {
    const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
    return t.scrollWidth > box.clientWidth + 1; }).length"""


@pytest.mark.parametrize("path,name", [
    ("matrix/", "wide-matrix-en"),
    ("drivers/", "wide-drivers-en"),
    ("zh/drivers/", "wide-drivers-zh"),
    ("zh/matrix/", "wide-matrix-zh"),
    ("compare/?old=training-nv-pytorch:25.02&new=training-nv-pytorch:25.10", "wide-compare-en"),
])
def test_wide_tables_fit_1280px_without_scrolling(real_server, page, path, name):
    page.goto(real_server + path)
    page.wait_for_load_state("networkidle")
    assert page.locator("article table").count() > 0
    assert not page.locator(".md-sidebar--primary").is_visible()  # navigation hidden on these pages
    assert page.evaluate(_OVERFLOWING) == 0
    shot(page, name)
    assert page.lj_errors == []


@pytest.mark.parametrize("lang,split,removed", [("", "now listed per architecture", "removed"),
                                               ("zh/", "改为按架构分别列出", "移除")])
def test_compare_shows_architecture_split(real_server, page, lang, split, removed):
    """25.09 lists triton once; 25.10 lists it per architecture (pytorch-triton on aarch64)."""
    page.goto(real_server + lang + "compare/?old=training-nv-pytorch:25.09&new=training-nv-pytorch:25.10")
    page.wait_for_selector(".lj-compare-result table")
    rows = page.locator(".lj-compare-result tbody tr")
    texts = [rows.nth(i).inner_text().replace("\t", " | ") for i in range(rows.count())]
    triton = [t for t in texts if t.startswith("Triton")]
    assert len(triton) == 2, texts
    assert all(split in t and t.count("3.4.0") == 2 for t in triton), triton
    assert any("aarch64" in t for t in triton) and any("amd64" in t for t in triton)
    assert not any(removed in t for t in texts), texts
    assert any(t.startswith("vLLM") for t in texts)
    shot(page, "compare-split-" + (lang.strip("/") or "en"))
    assert page.lj_errors == []


@made_ahead("injection-browser", "injection_server", seconds=9)
def _injection_browser_folder(root: Path, tmp_path_factory) -> None:
    from lingjun.generator.site.build import build_site

    from site_kit import make_injection_kb

    build_site(make_injection_kb(root / "kb"), root / "site", build_dir=root / "build", config_dir=REPO)


@pytest.fixture(scope="module")
def injection_server(tmp_path_factory):
    """The site of the fixture records with every payload of tests/fixtures/hostile-site in every text field."""
    root = _injection_browser_folder(tmp_path_factory)
    with _serving(root / "site") as url:
        yield url


#: what a record could have injected, counted in the live page (after the theme's scripts ran)
_INJECTED = """() => {
    const all = Array.from(document.querySelectorAll('*'));
    const handlers = all.filter(el => Array.from(el.attributes).some(a => a.name.toLowerCase().startsWith('on')));
    const links = all.filter(el => ['href', 'src', 'action', 'formaction'].some(name => {
        const v = (el.getAttribute(name) || '').replace(/[\\s\\u0000-\\u001f]/g, '').toLowerCase();
        return v.startsWith('javascript:') || v.startsWith('vbscript:') || v.startsWith('data:');
    }));
    const scripts = Array.from(document.scripts).filter(s => s.type !== 'application/json' && s.text.includes('alert('));
    return {handlers: handlers.map(el => el.outerHTML.slice(0, 120)), links: links.map(el => el.outerHTML.slice(0, 120)),
            scripts: scripts.length, images: document.querySelectorAll('img[src="x"], article img').length,
            breaks: document.querySelectorAll('article hr, article blockquote').length};
}"""
_NOTHING = {"handlers": [], "links": [], "scripts": 0, "images": 0, "breaks": 0}
_FIRST = "Fam</title><script>alert(101)</script>"


@pytest.mark.parametrize("path", [
    "", "families/training-nv-pytorch/", "releases/training-nv-pytorch/25.07/", "components/peft/", "components/",
    "known-issues/", "matrix/", "drivers/", "changes/", "compare/?old=training-nv-pytorch:25.02&new=training-nv-pytorch:25.07",
    "zh/families/training-nv-pytorch/", "zh/releases/training-nv-pytorch/25.07/", "zh/known-issues/", "404.html",
])
def test_hostile_records_open_no_dialog_and_inject_nothing(injection_server, full_search_index, path):
    page = full_search_index
    page.goto(injection_server + path)
    page.wait_for_load_state("networkidle")
    if path.startswith("compare/"):
        page.wait_for_selector(".lj-compare-result table")
    page.mouse.move(200, 300)
    page.mouse.move(700, 500)
    assert page.lj_dialogs == []
    assert page.evaluate(_INJECTED) == _NOTHING
    if path.removeprefix("zh/").startswith(("families/", "releases/")):  # navigation.prune: only there is the
        # Releases section open, listing the families
        assert _FIRST in page.locator(".md-nav--primary").first.text_content()  # the hostile family title, as text
    if "families/" in path:
        assert page.title().startswith(("中文 " if path.startswith("zh/") else "") + _FIRST)
        assert page.locator("h1").first.inner_text().startswith(("中文 " if path.startswith("zh/") else "") + _FIRST)


@pytest.mark.parametrize("base", ["", "zh/"])
def test_search_results_of_hostile_records_inject_nothing(injection_server, page, base):
    """Material inserts search results as HTML: the hostile text in them stays text."""
    results = _search(page, injection_server + base, "quoted")  # the word of the payload "> quoted"
    assert results and any("alert(101)" in text for _, text in results), results
    page.wait_for_timeout(300)
    assert page.lj_dialogs == []
    assert page.evaluate(_INJECTED) == _NOTHING


@pytest.mark.parametrize("lang,words", [
    ("", {"upgraded": "upgraded", "tag": "same version number, build tag added", "new": "new, as 25.07's page states",
          "added": "added", "removed": "removed", "note": "Not compared: 25.06's component list is partial"}),
    ("zh/", {"upgraded": "升级", "tag": "版本号相同，新增构建标签", "new": "新增（据 25.07 页面所述）",
             "added": "新增\t", "removed": "移除", "note": "未比较：25.06 的组件列表不完整"}),
])
def test_compare_says_not_recorded_against_a_partial_list(real_server, page, lang, words):
    """25.06 has no full component list: the picker shows the real 25.07 change and names the rest as not recorded."""
    page.goto(real_server + lang + "compare/?old=training-nv-pytorch:25.06&new=training-nv-pytorch:25.07")
    page.wait_for_selector(".lj-compare-result table")
    rows = page.locator(".lj-compare-result tbody tr")
    texts = [rows.nth(i).inner_text() for i in range(rows.count())]
    by_name = {t.split("\t")[0]: t for t in texts}
    # sorted by display name; 12.8.0 -> 12.8 is the same toolkit written with less precision; 25.07's page says
    # "support for" PEFT, Diffusers and Transformer Engine, never "new": they are named as not recorded below
    assert list(by_name) == ["CUDA Toolkit", "PyTorch", "vLLM"], texts
    assert words["upgraded"] in by_name["vLLM"] and words["tag"] in by_name["PyTorch"]
    assert not any(words["new"] in t for t in texts)
    assert not any(words["removed"] in t for t in texts)
    assert not any(t.split("\t")[1] == words["added"].strip("\t") for t in texts)
    note = page.locator(".lj-not-recorded-list").inner_text()
    assert note.startswith(words["note"]) and "Ubuntu" in note and "PEFT" in note
    shot(page, "compare-partial-" + (lang.strip("/") or "en"))
    assert page.lj_errors == []


def test_compare_ngc_25_02_to_25_03_adds_nothing_25_02_does_not_list(real_server, page):
    page.goto(real_server + "compare/?old=ngc-pytorch:25.02&new=ngc-pytorch:25.03")
    page.wait_for_selector(".lj-compare-result table")
    rows = page.locator(".lj-compare-result tbody tr")
    texts = [rows.nth(i).inner_text().split("\t")[:2] for i in range(rows.count())]
    assert texts == [["CUDA Toolkit", "upgraded"], ["PyTorch", "same version number, different build"]], texts
    assert "Python" in page.locator(".lj-not-recorded-list").inner_text()
    assert page.lj_errors == []


#: an example line of releases/troubleshooting/nccl-shm-no-space.yaml, as a user pastes it
PASTED_NCCL_LINE = "NCCL WARN Call to posix_fallocate failed : No space left on device"
#: the same kind of line as NCCL prints it, with a time stamp and host:pid:tid (colons lunr reads as fields)
PASTED_FULL_LINE = ("[2025-06-06 09:52:01] node-1:15016:15201 [1] misc/shmutils.cc:87 NCCL WARN Error: failed to "
                    "extend /dev/shm/nccl-YrFC5V to 33030532 bytes, error: No space left on device (28)")


@pytest.mark.parametrize("lang", ["", "zh/"])
def test_troubleshooting_entry_is_visible_and_search_finds_the_pasted_line(real_server, page, lang):
    """The checker's link (troubleshooting/<printer>/#<id>) lands on a visible entry showing the example line,
    and pasting that line into the search box finds the entry, in both languages."""
    page.goto(real_server + lang + "troubleshooting/nccl/#nccl-shm-no-space")
    heading = page.locator("h2#nccl-shm-no-space")
    heading.wait_for(state="visible", timeout=15000)
    assert "/dev/shm" in heading.inner_text()
    assert heading.evaluate("el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }")
    assert page.locator("article pre code", has_text="posix_fallocate failed : No space left on device").first.is_visible()
    shot(page, f"troubleshooting-{lang.strip('/') or 'en'}")
    results = _search(page, real_server + lang, PASTED_NCCL_LINE)
    # the exact match of the line names the entry first ...
    known = page.locator(".lj-known-errors a")
    known.first.wait_for(state="visible", timeout=15000)
    assert (known.first.get_attribute("href") or "").endswith("troubleshooting/nccl/#nccl-shm-no-space")
    # ... and the full-text results hold the page too (with other pages sharing its common words)
    assert any(href.partition("?")[0].endswith(lang + "troubleshooting/nccl/") for href, _ in results), results
    assert all(("/zh/" in href) == (lang == "zh/") for href, _ in results)
    assert page.lj_errors == []


@pytest.mark.parametrize("lang", ["", "zh/"])
def test_search_names_the_known_error_of_a_whole_pasted_nccl_line(real_server, page, lang):
    """A whole NCCL line (time stamp, host:pid:tid, numbers) is matched exactly, as lingjun-check --log matches it,
    and the search lists its entry above the full-text results."""
    _search(page, real_server + lang, PASTED_FULL_LINE)
    known = page.locator(".lj-known-errors a")
    known.first.wait_for(state="visible", timeout=15000)
    hrefs = [known.nth(i).get_attribute("href") or "" for i in range(known.count())]
    assert hrefs[0].endswith("troubleshooting/nccl/#nccl-shm-no-space"), hrefs
    assert ("已知错误行" in page.locator(".lj-known-errors").inner_text()) == (lang == "zh/")
    known.first.click()
    page.wait_for_url("**/troubleshooting/nccl/#nccl-shm-no-space", timeout=15000)
    assert page.locator("h2#nccl-shm-no-space").is_visible()
    assert page.lj_errors == []


def test_compare_with_an_unknown_release_in_the_address_says_so(real_server, page):
    page.goto(real_server + "compare/?old=no-such-release&new=training-nv-pytorch:25.09")
    page.wait_for_selector(".lj-compare-badref")
    assert "names a release this site does not have" in page.locator(".lj-compare-badref").inner_text()
    assert page.lj_errors == []


@pytest.mark.parametrize("path", ["checker/fleet/", "zh/checker/fleet/"])
def test_fleet_flow_is_not_cut_off_at_1280_px(server, page, path):
    """The four-step flow's code block shows its longest line without scrolling at 1280 px (it was cut off)."""
    page.goto(server + path)
    flow = page.locator("pre", has_text="kubectl logs -n ml -l job-name=lingjun-check").first
    widths = flow.evaluate("p => [p.querySelector('code').scrollWidth, p.querySelector('code').clientWidth]")
    assert widths[0] <= widths[1], widths
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.lj_errors == []
