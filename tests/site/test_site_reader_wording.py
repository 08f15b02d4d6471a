"""Pages are written for readers: no internal provenance wording, and the Chinese pages in Chinese.

Where a value came from inside the project (the seed page, a public copy of a page, "our copy") stays in
the records as YAML comments; a page says what the official page shows, as recorded.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: internal provenance wording that no page may contain (compared case-insensitively, HTML entities decoded)
PROVENANCE = {
    "en": ("our copy", "seed page", "seed copy", "project's seed", "public copy", "public copies", "copies read",
           "copies of the page we read", "copies of the official page", "not available to us", "when we read",
           "our sources", "our saved", "we saved", "we recorded"),
    "zh": ("页面副本", "副本显示", "副本中", "种子页面", "种子副本", "我们读取", "我们保存", "我们的副本", "我们未能", "公开副本", "来源中不完整", "我们记录"),
}


def _hand_written(lang: str) -> dict[str, str]:
    folder = REPO / "docs" / lang
    return {str(path.relative_to(folder)): path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*.md"))}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_page_contains_internal_provenance_wording(pages, lang):
    texts = {**{f"page {pid}": text for pid, text in pages[lang].items()},
             **{f"docs/{lang}/{name}": text for name, text in _hand_written(lang).items()}}
    assert len(texts) > 40  # every generated release page and the hand-written ones
    found = [(where, phrase) for where, text in texts.items()
             for phrase in PROVENANCE["en"] + PROVENANCE["zh"] if phrase in html.unescape(text).lower()]
    assert found == []


def test_the_phrases_are_caught_where_they_occur():
    """The check above can fail: the old wording of the 25.07 source note holds two of the phrases."""
    old = "Our copy (the project's seed page) shows main features"
    assert [p for p in PROVENANCE["en"] if p in old.lower()] == ["our copy", "seed page", "project's seed"]


def test_source_notes_say_what_the_official_page_shows(pages):
    en = html.unescape(pages["en"]["release:training-nv-pytorch:25.07"].split("{ #sources }")[1])
    assert "As recorded, this page shows main features" in en
    zh = html.unescape(pages["zh"]["release:training-nv-pytorch:25.07"].split("{ #sources }")[1])
    assert "记录的页面内容包含主要特性" in zh


def test_chinese_drivers_page_lists_its_sources_in_chinese(pages):
    section = pages["zh"]["drivers"].split("{ #sources }")[1]
    items = [line for line in section.splitlines() if line.startswith("- [")]
    assert len(items) >= 10
    titles = [re.match(r"- \[(.*)\]\(", line).group(1) for line in items]
    assert all(re.search(r"[\u4e00-\u9fff]", title) for title in titles), titles
    english = pages["en"]["drivers"].split("{ #sources }")[1]
    assert "release notes" in english and "发行说明" not in english


def _provenance_in(texts: dict[str, str]) -> list[tuple[str, str]]:
    return [(where, phrase) for where, text in texts.items()
            for phrase in PROVENANCE["en"] + PROVENANCE["zh"] + ("我们",) if phrase in html.unescape(text).lower()]


def test_finder_data_which_output_and_checker_messages_hold_no_provenance_wording(real, capsys, monkeypatch):
    """What the finder page's script shows, what ``lingjun-kb which`` prints and what the checker's rules say (on
    snapshots across releases, drivers and GPU classes) are read by users too."""
    from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
    from lingjun.checks.facts import Facts, GpuFacts
    from lingjun.checks.knowledge.bundle import KnowledgeData
    from lingjun.checks.rules import RULES, load_rules
    from lingjun.checks.runner import run_rule
    from lingjun.generator.bundle import compile_bundle
    from lingjun.generator.cli import main
    from lingjun.generator.site.finder import finder_data
    from lingjun.generator.site.finder_page import FINDER_TEXT

    kb, _ = real
    data = finder_data(kb)
    texts = {f"finder reason {i}": f"{en} {zh}" for i, (en, zh) in enumerate(data["reasons"])}
    texts.update({f"finder text {key}": f"{t['en']} {t['zh']}" for key, t in FINDER_TEXT.items()})
    texts["finder unknown branch"] = " ".join(data["unknown_branch"])
    monkeypatch.chdir(REPO)
    for driver, gpu in (("535.183.01", "H20"), ("R470", "H20"), ("R999", "RTX 4090"), ("570.124.06", "B200")):
        for fmt in ("text", "json"):
            assert main(["which", "--driver", driver, "--gpu", gpu, "--format", fmt]) == 0
            texts[f"which {driver} {gpu} {fmt}"] = capsys.readouterr().out
    load_rules()
    bundle = compile_bundle(kb)
    kd = KnowledgeData.from_dict(bundle)
    messages = 0
    for record in bundle["releases"]:
        for driver in ("470.57.02", "535.54.03", "535.183.01", "570.124.06", "580.65.06"):
            for name, brand in (("NVIDIA H20", "nvidia"), ("NVIDIA GeForce RTX 4090", "geforce")):
                facts = Facts()
                facts.driver.kernel_module_version = facts.nvml.driver_version = driver
                facts.nvml.init_ok = True
                facts.nvml.gpus = [GpuFacts(index=0, name=name, brand=brand)]
                ctx = CheckContext(facts=facts, data=kd, options=CheckOptions(),
                                   release=ReleaseMatch(ref=f"{record['family']}:{record['version']}", how="option",
                                                        score=None, record=record))
                for rule_id in sorted(RULES):
                    if not rule_id.startswith(("driver.", "cuda.")):
                        continue
                    for finding in run_rule(RULES[rule_id], ctx):
                        texts[f"{rule_id} {record['version']} {driver} {name} {messages}"] = (
                            f"{finding.message.en} {finding.message.zh} "
                            f"{finding.remedy.en + finding.remedy.zh if finding.remedy else ''}")
                        messages += 1
    assert messages > 200 and len(texts) > 100
    assert _provenance_in(texts) == []
    # the check can fail: a checker message in the old wording is caught
    assert _provenance_in({"old": "记录的驱动说明被截断（我们保存的副本）"}) != []
