"""The compatibility finder in a real browser (headless Chromium through Playwright, as test_site_browser).

The verdicts the page shows are compared with ``lingjun-kb which`` on the
same records (the fixture knowledge base the site is built from).  Skipped
like test_site_browser when Chromium is missing outside CI.
"""

from __future__ import annotations

import pytest

from test_site_browser import browser, page, real_server, server, shot, tab  # noqa: F401  (fixtures; skips this module without Chromium)

from lingjun.generator.site.finder import which


@pytest.fixture(scope="module")
def kb(hostile_kb_dir):
    from lingjun.generator.site.build import load_validated

    return load_validated(hostile_kb_dir)


def _ready(page):
    """Wait until the finder script has set the page up (it marks ``#lj-finder`` ``data-ready`` and renders the
    answer for the address's query in the same step)."""
    page.wait_for_selector("#lj-finder[data-ready]", state="attached")


def _rows(page):
    """``{release ref: (verdict, reason text)}`` of the result table."""
    found = {}
    for row in page.locator("#lj-finder-result tbody tr").all():
        found[row.get_attribute("data-release")] = (row.get_attribute("data-verdict"),
                                                    row.locator(".lj-finder-reason").inner_text())
    return found


def _expected(kb, driver, gpu):
    return {r["release"]: r for r in which(kb, driver, gpu)["releases"]}


def _choose(page, driver, gpu):
    page.locator("#lj-finder-driver").fill(driver)
    gpu_input = page.locator("#lj-finder-gpu")
    gpu_input.fill(gpu)
    gpu_input.dispatch_event("change")


def test_finder_h20_and_rtx_4090_then_reload_the_shared_address(server, page, kb):
    page.goto(server + "finder/")
    _ready(page)
    assert page.locator("h1").first.inner_text().replace("¶", "").strip() == "Compatibility finder"
    # the GPU list is the reference table
    options = page.locator("#lj-finder-gpus option").evaluate_all("els => els.map(e => e.value)")
    assert "H20" in options and "GeForce RTX 4090" in options

    _choose(page, "535.183.01", "H20")
    shown = _rows(page)
    expected = _expected(kb, "535.183.01", "H20")
    assert set(shown) == set(expected)
    for ref, (verdict, reason) in shown.items():
        assert verdict == expected[ref]["verdict"], ref
        assert reason.startswith(expected[ref]["reason"]["en"]), (ref, reason)
    assert shown["training-nv-pytorch:25.07"][0] == "forward-compat"
    assert "?driver=535.183.01&gpu=H20" in page.url
    shot(page, "finder-h20")

    _choose(page, "535.183.01", "GeForce RTX 4090")
    shown = _rows(page)
    expected = _expected(kb, "535.183.01", "GeForce RTX 4090")
    assert {ref: v for ref, (v, _) in shown.items()} == {ref: r["verdict"] for ref, r in expected.items()}
    assert shown["training-nv-pytorch:25.07"][0] == "minor-compat"
    shared = page.url
    assert "gpu=GeForce+RTX+4090" in shared or "gpu=GeForce%20RTX%204090" in shared

    page.goto(shared)
    _ready(page)
    assert page.locator("#lj-finder-driver").input_value() == "535.183.01"
    assert page.locator("#lj-finder-gpu").input_value() == "GeForce RTX 4090"
    assert {ref: v for ref, (v, _) in _rows(page).items()} == {ref: r["verdict"] for ref, r in expected.items()}
    # every release links to its page and the driver rule
    first = page.locator("#lj-finder-result tbody tr").first
    assert first.locator("a").first.get_attribute("href").startswith("../releases/")
    assert first.locator("a").last.get_attribute("href") == "../checker/rules/#driver-minimum"
    assert page.lj_errors == []


def test_finder_in_chinese_shows_chinese_reasons(server, page, kb):
    page.goto(server + "zh/finder/?driver=R535&gpu=H20")
    _ready(page)
    expected = _expected(kb, "R535", "H20")
    shown = _rows(page)
    assert shown
    for ref, (verdict, reason) in shown.items():
        assert verdict == expected[ref]["verdict"]
        assert reason.startswith(expected[ref]["reason"]["zh"])
    assert page.lj_errors == []


def test_finder_input_is_text_never_markup(server, page):
    page.goto(server + "finder/")
    _ready(page)
    _choose(page, "535.183.01", "<img src=x onerror=alert(1)>")
    assert page.locator("#lj-finder-result img").count() == 0
    assert page.locator("#lj-finder-result").inner_text().startswith("Not a GPU model")
    page.goto(server + "finder/?driver=%3Cscript%3Ealert(1)%3C/script%3E&gpu=H20")
    _ready(page)
    assert page.locator("#lj-finder-result").inner_text().startswith("Not a driver version")
    assert page.lj_dialogs == [] and page.lj_errors == []


def test_release_page_links_to_the_finder_preset_to_it(server, page):
    page.goto(server + "releases/training-nv-pytorch/25.07/")
    page.locator(".lj-gpu-support a").click()
    page.wait_for_url(server + "finder/?release=training-nv-pytorch:25.07")
    _ready(page)
    _choose(page, "570.124.06", "A100")
    assert list(_rows(page)) == ["training-nv-pytorch:25.07"]
    assert "release=training-nv-pytorch%3A25.07" in page.url
    page.locator(".lj-finder-all").click()
    assert len(_rows(page)) > 1
    assert "release=" not in page.url


def test_finder_without_javascript_shows_the_per_branch_tables(server, browser):  # noqa: F811
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server + "finder/")
        assert page.locator("#lj-finder-result tr").count() == 0
        table = page.locator("h3#dc + div table")
        assert table.count() == 1
        headers = table.locator("th").all_inner_texts()
        assert "R535" in headers
        row = table.locator("tr", has_text="training-nv-pytorch 25.07")
        cells = row.locator("td").all_inner_texts()
        assert cells[headers.index("R535")] == "forward-compat"
        assert page.locator("h3#other + div table").count() == 1
        # the note says why the form does nothing and points to the tables
        note = page.locator("p.lj-finder-noscript")
        assert note.is_visible() and "needs JavaScript" in note.inner_text()
        assert note.locator("a").get_attribute("href") == "#per-branch"
    finally:
        context.close()


def test_finder_at_400_px_breaks_release_names_only_at_dashes_and_blanks(server, browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 400, "height": 800})
    try:
        page = context.new_page()
        page.goto(server + "finder/?driver=535.183.01&gpu=H20")
        page.wait_for_selector("#lj-finder-result tbody tr")
        assert page.evaluate("document.documentElement.scrollWidth") <= 400
        # every line of a release name's link ends at a '-' or a blank (never inside a word)
        broken = page.evaluate("""() => Array.from(document.querySelectorAll('#lj-finder-result td:first-child a')).flatMap(a => {
            const text = a.firstChild; const out = []; let top = null;
            for (let i = 0; i < text.length; i += 1) {
              const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
              const y = r.getClientRects()[0]?.top;
              if (top !== null && y !== undefined && y > top + 2 && !/[- ]/.test(text.data[i - 1])) { out.push(text.data); }
              if (y !== undefined) { top = y; }
            }
            return out;
        })""")
        assert broken == []
    finally:
        context.close()


@pytest.mark.parametrize("driver,gpu", [("R470", "H20"), ("R999", "H20"), ("535.183.01", "RTX4090"), ("580.95.05", "B200")])
def test_finder_page_gives_which_answer_for_old_drivers_unknown_branches_and_squeezed_names(server, page, kb, driver, gpu):
    page.goto(server + "finder/")
    _ready(page)
    _choose(page, driver, gpu)
    shown = _rows(page)
    expected = _expected(kb, driver, gpu)
    assert set(shown) == set(expected)
    for ref, (verdict, reason) in shown.items():
        assert verdict == expected[ref]["verdict"], (ref, driver, gpu)
        assert reason.startswith(expected[ref]["reason"]["en"]), (ref, reason)


def test_finder_answers_first_as_which_does_and_shows_ppu_and_base_images_on_request(server, page, kb):
    """The answer above the table is which's: per family the same sentence in the same order, and the branch's
    lifecycle against the reader's day (the browser's, today); the toggle adds the PPU and base-image rows."""
    import datetime as dt

    page.goto(server + "finder/?driver=535.183.01&gpu=H20")
    _ready(page)
    expected = which(kb, "535.183.01", "H20", today=dt.date.today())
    lines = page.locator(".lj-finder-recommendation").evaluate_all("els => els.map(e => e.textContent)")
    assert lines == [f"{r['family']}: {r['reason']['en']}" for r in expected["recommendations"]] and lines
    assert page.locator(".lj-finder-lifecycle").inner_text() == expected["driver_branch"]["text"]["en"]
    assert set(_rows(page)) == {r["release"] for r in expected["releases"]}
    page.locator("#lj-finder-all-families").check()
    everything = which(kb, "535.183.01", "H20", all_families=True, today=dt.date.today())
    assert set(_rows(page)) == {r["release"] for r in everything["releases"]}
    assert "all=1" in page.url
    # a GeForce GPU: the driver to install without the data-centre branch kinds, as which words it
    page.goto(server + "finder/?driver=535.183.01&gpu=GeForce+RTX+4090")
    _ready(page)
    geforce = which(kb, "535.183.01", "GeForce RTX 4090", today=dt.date.today())
    lines = page.locator(".lj-finder-recommendation").evaluate_all("els => els.map(e => e.textContent)")
    assert lines == [f"{r['family']}: {r['reason']['en']}" for r in geforce["recommendations"]]
    assert all("https://www.nvidia.com/en-us/drivers/unix/" in line and "long-term" not in line for line in lines)
    # a branch the reference data does not hold: no verdict, no driver to install
    page.goto(server + "finder/?driver=R999&gpu=H20")
    _ready(page)
    unknown = which(kb, "R999", "H20", today=dt.date.today())
    lines = page.locator(".lj-finder-recommendation").evaluate_all("els => els.map(e => e.textContent)")
    assert lines == [f"{r['family']}: {r['reason']['en']}" for r in unknown["recommendations"]]
    assert all(line.split(": ", 1)[1].startswith("No verdict on R999") for line in lines)
    page.goto(server + "finder/?driver=535.183.01&gpu=Jetson+AGX+Orin")
    _ready(page)
    jetson = which(kb, "535.183.01", "Jetson AGX Orin", today=dt.date.today())
    lines = page.locator(".lj-finder-recommendation").evaluate_all("els => els.map(e => e.textContent)")
    assert lines == [f"{r['family']}: {r['reason']['en']}" for r in jetson["recommendations"]] and lines
    assert page.lj_errors == []


def test_finder_on_blackwell_answers_as_which_does_with_no_release_for_a_family_built_on_older_cuda(real_server, page):
    """On the real records' site: B200 with R580 makes 25.04 (CUDA 12.4) unsupported whatever the driver, and
    inference-nv-pytorch gets which's "no release" sentence, not a driver to install (issue 33)."""
    import datetime as dt

    from lingjun.generator.site.build import load_validated
    from site_kit import REPO

    real = load_validated(REPO / "releases")
    page.goto(real_server + "finder/?driver=580.95.05&gpu=B200")
    _ready(page)
    expected = which(real, "580.95.05", "B200", today=dt.date.today())
    lines = page.locator(".lj-finder-recommendation").evaluate_all("els => els.map(e => e.textContent)")
    assert lines == [f"{r['family']}: {r['reason']['en']}" for r in expected["recommendations"]]
    assert any(line.startswith("inference-nv-pytorch: No inference-nv-pytorch release recorded here") for line in lines)
    verdict, reason = _rows(page)["inference-nv-pytorch:25.04"]
    assert verdict == "unsupported" and reason.startswith("Built on CUDA 12.4, which predates Blackwell GPUs")
