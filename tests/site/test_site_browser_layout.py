"""Pages that fit, in headless Chromium: every page kind, both languages, at 1280 px and at 390 px (a phone).

* nothing sticks out: the page never scrolls sideways, and no element of the article reaches past the
  viewport or is clipped by an ancestor, unless it lies inside a scroll container (a wide table, a code block);
* a scroll container that does scroll shows it: a shadow at its right edge (a gradient background), and a
  table's first column stays in view (``position: sticky``);
* code blocks (pull addresses, commands): the copy button sits beside the text, never over it;
* versions and family names stay whole: the home page's family names take at most two lines at 1280 px.

Each page is loaded once and measured at both widths (the viewport is resized between the two).  Skipped, like
test_site_browser, when /usr/bin/chromium is missing outside CI.
"""

from __future__ import annotations

import pytest

from test_site_browser import browser, shot, tab  # noqa: F401 - fixtures and helpers (tab: the module's one tab)
from test_site_browser_pages import site  # noqa: F401 - the served site of the real records


#: one page of every kind: (path, a selector that shows it is drawn, once scripts ran)
PAGE_KINDS = [
    ("", "article table"),
    ("families/inference-nv-pytorch/", ".lj-family-releases table"),
    ("releases/training-nv-pytorch/25.07/", "article pre"),
    ("releases/inference-nv-pytorch/25.04/", "article pre"),
    ("components/", "article table"),
    ("components/vllm/", "article table"),
    ("changes/", "article table"),
    ("compare/?old=training-nv-pytorch:25.02&new=training-nv-pytorch:25.10", ".lj-compare-result table"),
    ("drivers/", ".lj-matrix-wrap table"),
    ("finder/?driver=535.183.01&gpu=H20", "#lj-finder-result table"),
    ("matrix/", ".lj-matrix-wrap table"),
    ("known-issues/", "article h1"),
    ("checker/", "article pre"),
    ("checker/rules/", "article h1"),
    ("checker/fleet/", "article pre"),
    ("checker/data-gate/", "article pre"),
    ("troubleshooting/", "article h1"),
    ("troubleshooting/nccl/", "article pre"),
    ("introduction/", "article h1"),
    ("reading-a-record/", "article h1"),
    ("reading-verdicts/", "article h1"),
    ("contributing/", "article pre"),
]

#: what the layout gets wrong, measured in the page: sideways page scroll; elements past the viewport or clipped,
#: outside scroll containers; copy buttons over code text; scrolling containers without a cue or a sticky first
#: column (tables); a scroll container is an ancestor whose overflow-x is auto or scroll
_MEASURE = """() => {
  const vw = document.documentElement.clientWidth;
  const scrolls = el => { const s = getComputedStyle(el).overflowX; return s === 'auto' || s === 'scroll'; };
  const inScroller = el => { for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) if (scrolls(e)) return true; return false; };
  const name = el => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '');
  const out = {page: document.documentElement.scrollWidth - vw, past: [], clipped: [], over: [], nocue: [], unstuck: []};
  for (const el of document.querySelectorAll('article *')) {
    const box = el.getBoundingClientRect();
    if (!box.width || inScroller(el)) continue;
    if (box.right > vw + 1 || box.left < -1) out.past.push(name(el) + ' ' + Math.round(box.left) + '..' + Math.round(box.right));
    const s = getComputedStyle(el);
    if ((s.overflowX === 'hidden' || s.overflowX === 'clip') && el.scrollWidth > el.clientWidth + 1) out.clipped.push(name(el));
  }
  for (const pre of document.querySelectorAll('article pre')) {
    const code = pre.querySelector(':scope > code'), nav = pre.querySelector('.md-code__nav, .md-clipboard');
    if (!code || !nav || !nav.getBoundingClientRect().width) continue;
    if (code.getBoundingClientRect().right > nav.getBoundingClientRect().left + .5) out.over.push(code.innerText.slice(0, 40));
  }
  for (const el of document.querySelectorAll('article *')) {
    if (!scrolls(el) || el.scrollWidth <= el.clientWidth + 1 || el.matches('pre > code')) continue;
    if (!getComputedStyle(el).backgroundImage.includes('gradient')) out.nocue.push(name(el));
    const cell = el.querySelector('tbody tr > :first-child');
    if (cell && getComputedStyle(cell).position !== 'sticky') out.unstuck.push(name(el));
  }
  for (const key of ['past', 'clipped', 'over', 'nocue', 'unstuck']) out[key] = out[key].slice(0, 5);
  return out;
}"""

CLEAN = {"page": 0, "past": [], "clipped": [], "over": [], "nocue": [], "unstuck": []}


@pytest.mark.parametrize("lang", ["", "zh/"])
@pytest.mark.parametrize("path,ready", PAGE_KINDS)
def test_page_fits_at_1280_and_390_px(site, tab, path, ready, lang):  # noqa: F811
    page = tab
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site + lang + path)
    page.wait_for_selector(ready)
    found = {}
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        found[width] = page.evaluate(_MEASURE)
    if found != {1280: CLEAN, 390: CLEAN}:
        shot(page, f"layout-{(lang + path).strip('/').replace('/', '-').split('?')[0] or 'home'}")
    assert found == {1280: CLEAN, 390: CLEAN}


def test_a_wide_table_scrolls_with_its_first_column_in_view(site, tab):  # noqa: F811
    """The What-changed table on a phone: it scrolls, and once scrolled the component column is held at the
    block's left edge while the other columns move under it."""
    page = tab
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(site + "changes/")
    page.wait_for_selector("article table")
    moved = page.evaluate("""() => {
        const wrap = Array.from(document.querySelectorAll('article .md-typeset__scrollwrap')).find(w => w.scrollWidth > w.clientWidth + 40);
        const cell = wrap.querySelector('tbody tr > td:first-child'), other = wrap.querySelector('tbody tr > td:nth-child(2)');
        const before = other.getBoundingClientRect().left;
        wrap.scrollLeft = 120;
        return {edge: Math.round(cell.getBoundingClientRect().left - wrap.getBoundingClientRect().left),
                second: Math.round(other.getBoundingClientRect().left - before), scrolled: wrap.scrollLeft}; }""")
    assert moved == {"edge": 0, "second": -120, "scrolled": 120}, moved


def test_home_family_names_stay_whole_on_two_lines_at_most(site, tab):  # noqa: F811
    page = tab
    page.set_viewport_size({"width": 1280, "height": 900})
    for lang in ("", "zh/"):
        page.goto(site + lang)
        page.wait_for_selector("article table")
        lines = page.evaluate("""() => Array.from(document.querySelectorAll('article table tbody tr > td:first-child > a')).map(a => {
            const tops = new Set(Array.from(a.getClientRects()).map(r => Math.round(r.top)));
            const name = a.querySelector('.lj-token');
            return [a.innerText, tops.size, name ? new Set(Array.from(name.getClientRects()).map(r => Math.round(r.top))).size : 0]; })""")
        # the image name (a token) on one line; a title without one ("NGC PyTorch container (NVIDIA)") has none
        assert lines and all(count <= 2 and whole <= 1 for _, count, whole in lines), lines
        assert sum(whole for _, _, whole in lines) >= 5


def test_versions_in_the_family_table_never_break(site, tab):  # noqa: F811
    """The PyTorch and Python versions of a family's releases ("2.8.0.9+nv25.3", "3.12.7+gc") are drawn on one line."""
    page = tab
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site + "families/training-nv-pytorch/")
    page.wait_for_selector(".lj-family-releases table")
    broken = page.evaluate("""() => Array.from(document.querySelectorAll('.lj-family-releases tbody td')).filter(td => /^[0-9][0-9.]*\\+[a-z0-9.]+$/.test(td.innerText.trim()))
        .map(td => { const r = document.createRange(); r.selectNodeContents(td);
                     return [td.innerText.trim(), new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size]; })""")
    assert broken and all(lines == 1 for _, lines in broken), broken
