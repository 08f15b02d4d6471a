"""Release dates on the site: the family table's date column (recorded and unrecorded rows) and the release page's
date row, each with the kind of evidence it comes from; "not stated" where no evidence gives one."""

from __future__ import annotations

import html
import re

import pytest


def _row(page: str, version: str) -> str:
    """The family table's row of ``version`` (recorded: its link; unrecorded: its plain first cell)."""
    for row in page.split("<tr")[1:]:
        first = row.split("</td>")[0]
        if re.search(rf">{re.escape(version)}(</a>)?$", first):
            return row.split("</tr>")[0]
    raise AssertionError(f"no row for {version}")


def _cells(row: str) -> list[str]:
    return [c.split(">", 1)[1] if ">" in c else c for c in row.split("<td")[1:]]


@pytest.mark.parametrize("lang, header, kind, unknown", [
    ("en", "Release date", "page updated", "not stated: no image tag or official page read gives a date"),
    ("zh", "发布日期", "页面更新", "未注明：所查看的镜像标签与官方页面均未给出日期"),
])
def test_family_table_has_a_date_column_with_the_kind_of_evidence(pages, lang, header, kind, unknown):
    page = html.unescape(pages[lang]["family:training-nv-pytorch"])
    headers = re.findall(r"<th>(.*?)</th>", page.split("<tbody>")[0])
    assert headers[:3][2] == header  # release, status, date
    dated = _cells(_row(page, "25.09"))[2]
    assert dated.startswith("2025-11-10<br><small>" + kind)
    undated = _cells(_row(page, "25.10"))[2]
    assert f'title="{unknown}"' in undated and "—" in undated
    assert "2026-11-29" not in dated + undated  # never the recording date


def test_family_table_dates_a_release_by_its_image_tag(pages):
    page = html.unescape(pages["en"]["family:inference-nv-pytorch"])
    assert _cells(_row(page, "25.04"))[2].startswith("2025-04-30<br><small>image tag")


@pytest.mark.parametrize("lang, said", [
    ("en", "2025-11-10 (the page's last-updated date: published by then: "),
    ("zh", "2025-11-10（页面的最后更新日期：此前已发布："),
])
def test_release_page_names_the_date_its_kind_and_source(pages, lang, said):
    page = html.unescape(pages[lang]["release:training-nv-pytorch:25.09"])
    assert said + '<a href="https://www.alibabacloud.com/help/id/cs/user-guide/training-nv-pytorch-25-09">' in page


def test_release_page_without_evidence_says_not_stated(pages):
    page = html.unescape(pages["en"]["release:training-nv-pytorch:25.10"])
    assert "<td>Release date</td>\n<td>not stated: no image tag or official page read gives a date</td>" in page


def test_newest_release_is_by_date_not_by_file_order(real):
    from lingjun.generator.site.api import feed_entries
    from lingjun.generator.site.model import build_site_model

    kb, _ = real
    import dataclasses

    shuffled = dataclasses.replace(kb, releases=list(reversed(kb.releases)))
    site = build_site_model(shuffled)
    assert site.latest("training-nv-pytorch").version == "25.10"  # the newest month, wherever its file sorts
    assert site.latest("training-xpu-pytorch").version == "2026-10-20"
    # the feed: every release, by its entry's date (its own, else the day it was recorded), newest first, whatever
    # the order the records were read in; of one day's entries the newer release first (25.10 before 25.07)
    entries = [r.ref for r in feed_entries(shuffled)]
    assert len(entries) == len(kb.releases) and entries == [r.ref for r in feed_entries(kb)]
    assert entries[-6:] == ["training-xpu-pytorch:2026-10-20", "training-nv-pytorch:25.09", "training-nv-pytorch:25.08",
                            "training-nv-pytorch:25.04", "inference-nv-pytorch:25.04", "training-nv-pytorch:25.02"]
    assert entries.index("training-nv-pytorch:25.10") < entries.index("training-nv-pytorch:25.07")
