"""The audit of issue 12 (section 2): the records say what the pages say, and no more.

Sources: the English pages https://www.alibabacloud.com/help/en/cs/user-guide/training-nv-pytorch-25-08
and -25-09 say VPC pulls currently work only in China (Beijing); the Chinese 25.03 and 25.10 pages
(https://help.aliyun.com/zh/cs/user-guide/training-nv-pytorch-25-10) and the index page
https://help.aliyun.com/en/cs/user-guide/acs-ai-container-image-version-release-record/ do not.
The 25.03, 25.07 and PPU 25.05 pages say "export CHECKPOINT_OPTIMIZATION=true" to *enable* the
recomputation memory optimisation; the PPU 25.05 page says OOM *may* occur with --max-model-len >= 80k
and recommends turning prefix caching off against garbled output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lingjun.schema.gate.rules.cjk_spacing import stray_space
from lingjun.schema.gate.walk import iter_instances
from lingjun.schema.loader import load_knowledge_base
from lingjun.schema.models import LocalizedText

RELEASES = Path(__file__).resolve().parents[2] / "releases"


@pytest.fixture(scope="module")
def kb():
    knowledge, problems = load_knowledge_base(RELEASES)
    assert [p for p in problems if p.is_error] == []
    return knowledge


def _all_text(kb) -> list[tuple[str, str]]:
    models = [*kb.families.values(), *kb.releases, *kb.known_issues.values(), *kb.components.values()]
    models += [m for m in (kb.cuda_drivers, kb.driver_branches, kb.gpus) if m is not None]
    return [(text.en, text.zh) for model in models for _, text in iter_instances(model, LocalizedText)]


def test_vpc_notes_name_the_pages_that_state_the_beijing_limit(kb):
    nv = kb.families["training-nv-pytorch"].vpc_note
    assert "English 25.08 and 25.09 pages" in nv.en and "25.03 page and later" not in nv.en
    assert "Chinese\n25.03" not in nv.en and "25.03, 25.07 and 25.10 pages carry no such limit" in " ".join(nv.en.split())
    assert "英文版 25.08、25.09 页面" in nv.zh and "中文版 25.03、25.07、25.10 页面没有这一限制" in nv.zh
    assert "25.03 及以后" not in nv.zh
    xpu = kb.families["training-xpu-pytorch"].vpc_note
    assert "from 25.03 on" not in xpu.en and "English 25.08 and 25.09 pages" in " ".join(xpu.en.split())
    assert "自 25.03" not in xpu.zh and "英文版 25.08、25.09 页面" in xpu.zh


def test_family_titles_say_the_same_in_both_languages(kb):
    nv, xpu = kb.families["training-nv-pytorch"].title, kb.families["training-xpu-pytorch"].title
    assert (nv.en, nv.zh) == ("training-nv-pytorch (NVIDIA GPU image)", "training-nv-pytorch（NVIDIA GPU 镜像）")
    assert (xpu.en, xpu.zh) == ("training-xpu-pytorch (PPU image)", "training-xpu-pytorch（PPU 镜像）")


@pytest.mark.parametrize("phrase", ["off unless", "First multi-architecture", "enables by default",
                                    "runs out of memory unless", "首个多架构", "默认开启前缀缓存", "才会启用", "会显存不足"])
def test_no_record_makes_a_statement_the_pages_do_not(kb, phrase):
    assert [t for t in _all_text(kb) if phrase in t[0] or phrase in t[1]] == []


def test_the_reworded_statements_keep_what_the_pages_say(kb):
    for ref in ("training-nv-pytorch:25.03", "training-nv-pytorch:25.07", "training-xpu-pytorch:25.05"):
        (note,) = [n for n in kb.release(ref).usage_notes if n.id == "checkpoint-optimization"]
        assert note.text.en.startswith("To enable the recomputation memory optimisation, export CHECKPOINT_OPTIMIZATION=true")
        assert note.text.zh.startswith("导出 CHECKPOINT_OPTIMIZATION=true 以启用重计算显存优化")
    oom = kb.known_issues["vllm-deepseek-max-model-len-oom"]
    assert "may run out of memory" in oom.title.en and "可能显存不足" in oom.title.zh
    garbled = kb.known_issues["vllm-deepseek-r1-garbled-output-prefix-caching"]
    assert "by default" not in garbled.description.en and "advise turning prefix caching" in garbled.description.en
    assert kb.release("training-nv-pytorch:25.10").summary.en.startswith("Adds multi-architecture support (amd64 and aarch64)")
    assert kb.release("training-nv-pytorch:25.10").summary.zh.startswith("新增多架构支持（amd64 与 aarch64）")


def test_no_chinese_text_has_a_space_after_chinese_punctuation_once_loaded(kb):
    # folding (zh: >-) turns a line break after "、" into "、 "; the loaded strings must be clean
    assert [zh for _, zh in _all_text(kb) if stray_space(zh)] == []
    acc = kb.release("training-nv-pytorch:25.02").summary.zh
    assert "2.23.4.11、Transformers" in acc
    assert "驱动。training-nv-pytorch" in kb.release("ngc-pytorch:25.02").summary.zh


def test_chinese_uses_one_term_for_forward_compatibility(kb):
    texts = [zh for _, zh in _all_text(kb)]
    assert not [t for t in texts if "前向兼容" in t]
    assert any("向前兼容" in t for t in texts)



def test_vllm_wording_of_25_06_reads_as_the_page_puts_it(kb):
    # the page: vLLM compatibility raised to support 0.9.1
    record = kb.release("training-nv-pytorch:25.06")
    assert "vLLM 兼容性提升至支持 0.9.1 版本" in record.summary.zh and "兼容到" not in record.summary.zh
    assert [h.text.zh for h in record.highlights if h.components == ["vllm"]] == ["vLLM 兼容性提升至支持 0.9.1 版本。"]


# --- reference tables: NVIDIA's lifecycle table and Table 2 --------------------------------------
# https://docs.nvidia.com/datacenter/tesla/drivers/supported-drivers-and-cuda-toolkit-versions.html:
# "All other previous driver branches not listed in the table above (such as R575, ...) are end of life."
# https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html: CUDA 13.x ">= 580".


def test_every_branch_a_record_names_has_a_lifecycle_row(kb):
    rows = {b.branch for b in kb.driver_branches.branches}
    named = {b for r in kb.releases if r.driver for b in r.driver.must_upgrade_branches}
    named |= {f.branch for r in kb.releases if r.driver for f in r.driver.forward_compatibility}
    assert {470, 520, 530, 545, 555} <= named
    assert named - rows == set()


def test_r470_is_a_long_term_branch_ended_july_2024(kb):
    r470 = next(b for b in kb.driver_branches.branches if b.branch == 470)
    assert (r470.type.value, r470.end_of_life, r470.eol, r470.max_cuda_major_without_compat) == (
        "long-term-support", None, "2024-07", 11)  # end of life is computed from the month, never stored


@pytest.mark.parametrize("branch", [520, 530, 545, 555])
def test_must_upgrade_branches_are_end_of_life_without_an_invented_type_or_date(kb, branch):
    row = next(b for b in kb.driver_branches.branches if b.branch == branch)
    assert row.eol_undated.value == "listed" and row.end_of_life is None and row.type is None and row.eol is None
    assert f"R{branch}" in row.note.en and f"R{branch}" in row.note.zh


def test_cuda_13_minor_compatibility_floor_is_the_branch_nvidia_states(kb):
    from lingjun.checks.core.compat import decide, minor_compat_floor, parse_cuda
    from lingjun.checks.core.versions import DriverVersion

    (row,) = [r for r in kb.cuda_drivers.minor_version_compat if r.cuda_major == 13]
    assert (row.min_branch, row.min_driver) == (580, "580")
    ref = kb.cuda_drivers.model_dump(mode="json")
    floor = minor_compat_floor(13, ref)
    assert str(floor) == "580" and floor.is_branch_only
    # 12.x keeps NVIDIA's exact floor
    assert str(minor_compat_floor(12, ref)) == "525.60.13"
    # CUDA 13.0 Update 2 needs 580.95.05 natively; an older R580 driver runs it through minor version compatibility
    decision = decide(parse_cuda("13.0.2"), DriverVersion.parse("580.65.06"), ref)
    assert (decision.mode, str(decision.required), str(decision.floor)) == ("minor-version", "580.95.05", "580")
    assert decide(parse_cuda("13.0.2"), DriverVersion.parse("580.95.05"), ref).mode == "native"
    # an R575 driver is below the 13.x floor: not minor-version compatible
    assert decide(parse_cuda("13.0.2"), DriverVersion.parse("575.57.08"), ref).mode != "minor-version"


def test_which_keeps_its_verdicts_for_r580_and_r545(kb):
    from lingjun.generator.site.finder import which

    r580 = {r["release"]: r["verdict"] for r in which(kb, "580.65.06", "H20")["releases"]}
    assert {v for k, v in r580.items() if k.startswith("training-nv-pytorch:")} == {"native"}
    r545 = {r["release"]: r["verdict"] for r in which(kb, "R545", "H20")["releases"]}
    # 25.08 lists R545 as usable and must-upgrade; the record resolves it as must-upgrade: not supported (although
    # CUDA 12.x minor version compatibility would let it start)
    assert r545["training-nv-pytorch:25.08"] == "unsupported"
