"""The error catalogs' pages in headless Chromium: a pasted Xid, CUDA or NCCL line names its catalog entry above the
search results, and the entry's address (the one lingjun-check prints) lands on the entry, visible, in both
languages.  The site of the real records (the session's one build).  Skipped, like test_site_browser, when
/usr/bin/chromium is missing outside CI.
"""

from __future__ import annotations

import pytest

from lingjun.checks.knowledge.error_catalogs import nccl_anchor

from test_site_browser import _search, browser, page, real_server, shot, tab  # noqa: F401 - fixtures and helpers

XID_LINE = "[Tue Dec  2 10:00:00 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus."
CUDA_LINE = "RuntimeError: CUDA error: uncorrectable ECC error encountered"

_IN_VIEW = "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight && r.height > 0; }"


def _known(page) -> list[str]:
    known = page.locator(".lj-known-errors li.lj-known-errors__catalog a")
    known.first.wait_for(state="visible", timeout=15000)
    return [known.nth(i).get_attribute("href") or "" for i in range(known.count())]


@pytest.mark.parametrize("lang", ["", "zh/"])
def test_a_pasted_xid_line_names_its_entry_and_the_link_lands_on_it(real_server, page, lang):
    _search(page, real_server + lang, XID_LINE)
    hrefs = _known(page)
    assert any(h.endswith("troubleshooting/xid/#xid-79") for h in hrefs), hrefs
    page.locator(".lj-known-errors a[href$='troubleshooting/xid/#xid-79']").click()
    page.wait_for_url("**/troubleshooting/xid/#xid-79", timeout=15000)
    entry = page.locator("#xid-79")
    entry.wait_for(state="visible", timeout=15000)
    assert entry.evaluate(_IN_VIEW)
    assert "Xid 79" in entry.inner_text()
    assert page.url.startswith(real_server + lang + "troubleshooting/xid/")
    shot(page, f"catalog-xid-{lang.strip('/') or 'en'}")
    assert page.lj_errors == []


@pytest.mark.parametrize("lang", ["", "zh/"])
def test_cuda_and_nccl_entries_are_found_and_their_addresses_land_on_them(real, real_server, page, lang):
    kb, _ = real
    if kb.cuda_errors is None or kb.nccl_warnings is None:
        pytest.skip("releases/errors/ holds no CUDA or no NCCL catalog")
    _search(page, real_server + lang, CUDA_LINE)
    assert any(h.endswith("troubleshooting/cuda-errors/#cuda-runtime-214") for h in _known(page))
    message = next(m for m in kb.nccl_warnings.messages if "%" not in m.format and "\n" not in m.format)
    anchor = nccl_anchor(message.file, message.format)
    page.goto(real_server + lang + f"troubleshooting/nccl-warnings/#{anchor}")
    item = page.locator(f"li#{anchor}")
    item.wait_for(state="visible", timeout=15000)
    assert item.evaluate(_IN_VIEW)
    assert item.locator("code").inner_text() == " ".join(message.format.split())
    page.goto(real_server + lang + "troubleshooting/cuda-errors/#nvml-9")
    assert page.locator("#nvml-9").evaluate(_IN_VIEW)
    assert page.lj_errors == []
