"""The checker rules page is built from lingjun-check's registry, with the anchors the checker links to."""

from __future__ import annotations

import re

import pytest

from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.generator.site.checker_rules import RULE_AREAS, checker_rules, rule_anchor, rule_areas
from lingjun.generator.site.model import build_site_model
from lingjun.generator.site.render import render_pages

#: the fixed rule ids of the team brief
BRIEF_IDS = """release.identified driver.present driver.minimum driver.cuda-compatibility
driver.forward-compat-consumer-gpu driver.compat-shadows-host driver.nvml-mismatch driver.device-nodes
driver.branch-eol cuda.torch-build-vs-driver cuda.compute-capability cuda.toolkit-vs-record packages.missing
packages.version-mismatch packages.image-build-replaced packages.extension-abi libraries.cudnn-shadowed
libraries.nccl-shadowed libraries.nccl-cuda-majors python.interpreter env.nccl-socket-ifname
env.nccl-socket-ifname-pod-size env.checkpoint-optimization config.deepspeed-prefetch-bucket-size
known-issues.match""".split()


@pytest.fixture(scope="module")
def pages(fixture_kb):
    site = build_site_model(fixture_kb)
    return {lang: dict((p.id, t) for p, t in render_pages(site, lang))["checker-rules"] for lang in ("en", "zh")}


def test_rules_come_from_the_registry():
    from lingjun.checks.rules import RULES

    rules = checker_rules()
    assert [r.id for r in rules] == list(RULES)
    assert set(BRIEF_IDS) <= {r.id for r in rules}  # a new rule adds to them; none of the brief's may go
    eol = next(r for r in rules if r.id == "driver.branch-eol")
    assert eol.title == {"en": RULES["driver.branch-eol"].title.en, "zh": RULES["driver.branch-eol"].title.zh}
    assert eol.needs_gpu is True and eol.area == "driver"
    assert eol.checks_en == "The host driver branch is past NVIDIA's end of life."
    assert "`options.today`" in eol.reports_en and "``" not in eol.reports_en
    consumer = next(r for r in rules if r.id == "driver.forward-compat-consumer-gpu")
    assert consumer.checks_en.startswith("cuda-compat libcuda")  # not capitalised into "Cuda-compat"


def test_every_area_has_a_title_in_both_languages():
    areas = rule_areas(checker_rules())
    assert {a for a, _ in areas} <= set(RULE_AREAS)
    assert all(title["en"] and title["zh"] for _, title in areas)


def test_anchor_matches_the_checker_links(pages):
    data = KnowledgeData({"site_url": "https://kb.example"})
    for rule_id in BRIEF_IDS:
        assert data.rule_url(rule_id, "zh") == f"https://kb.example/zh/checker/rules/#{rule_anchor(rule_id)}"
        for lang in ("en", "zh"):
            assert "{ #" + rule_anchor(rule_id) + " }" in pages[lang], (lang, rule_id)


def test_english_page_has_title_purpose_and_severities(pages):
    en = pages["en"]
    section = en.split("{ #driver-branch-eol }")[1].split("###")[0]
    assert "**Driver branch still supported**" in section
    assert "The host driver branch is past NVIDIA's end of life." in section
    assert "Reports&#58; info when the branch is end of life" in section
    assert "needs an NVIDIA driver" in section


def test_chinese_page_has_no_english_prose(pages):
    zh = pages["zh"]
    assert "**驱动分支仍在支持期内**" in zh
    for rule in checker_rules():
        assert rule.checks_en not in zh and rule.reports_en not in zh
    prose = [line for line in zh.splitlines() if line and not line.startswith(("#", "|"))]
    for line in prose:
        # identifiers in titles are not prose: NCCL_IB_HCA, /dev/shm, RDMA, RoCE, rank
        stripped = re.sub(r"<code>.*?</code>|</?small>|\[.*?\]\(.*?\)|NCCL(?:(?:_|&#95;)[A-Z]+)+|/dev/shm|RDMA|RoCE|rank|"
                          r"lingjun-check|NVIDIA|CUDA|GPU|NVML|libcuda|cuDNN|NCCL|"
                          r"wheel|PyTorch|torch|Python|DeepSpeed|ZeRO-3|Pod|ID|[\W\d_]", "", line)
        assert not re.search(r"[A-Za-z]{3,}", stripped), line


def test_the_hand_written_table_is_gone():
    import lingjun.generator.site.checker_rules as module

    assert not hasattr(module, "CHECKER_RULES")
