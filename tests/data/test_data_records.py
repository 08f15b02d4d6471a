"""The real release data under ``releases/`` holds the facts of the official pages.

Each test names a fact from a public source (the official release pages each
``releases/*.yaml`` cites in ``sources``, e.g.
https://help.aliyun.com/zh/cs/user-guide/training-nv-pytorch-25-10, and NVIDIA's
https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html and
https://docs.nvidia.com/deploy/cuda-compatibility/) and checks that it arrives
unchanged through :func:`lingjun.schema.loader.load_knowledge_base`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from lingjun.schema.fields import contains_cjk
from lingjun.schema.loader import load_knowledge_base
from lingjun.schema.models import (
    BranchDecision,
    CpuArch,
    DriverVendor,
    Product,
    ReleaseStatus,
    StatedIn,
)

RELEASES = Path(__file__).resolve().parents[2] / "releases"
NV = "training-nv-pytorch"
XPU = "training-xpu-pytorch"
NV_VERSIONS = ["25.02", "25.03", "25.04", "25.06", "25.07", "25.08", "25.09", "25.10"]


@pytest.fixture(scope="module")
def kb():
    knowledge, problems = load_knowledge_base(RELEASES)
    errors = [p for p in problems if p.is_error]
    assert errors == [], errors
    return knowledge


def _components(record, arch=None):
    """published name -> version for one architecture (entries without architectures apply to all)."""
    return {
        e.name: e.version
        for e in record.components
        if arch is None or not e.architectures or arch in e.architectures
    }


def _by_id(record, component_id, arch=None):
    found = [
        e for e in record.components
        if e.id == component_id and (arch is None or not e.architectures or arch in e.architectures)
    ]
    assert len(found) == 1, (record.ref, component_id, found)
    return found[0]


def test_exactly_the_releases_we_have_facts_for(kb):
    refs = sorted(r.ref for r in kb.releases)
    expected = sorted(
        [f"{NV}:{v}" for v in NV_VERSIONS]
        + [f"{XPU}:25.05", f"{XPU}:2026-10-20"]
        + [f"ngc-pytorch:{v}" for v in ("25.01", "25.02", "25.03")]
        + ["inference-nv-pytorch:25.04", "inference-xpu-pytorch-opt:sglang0.5.4.post3-250105"]
    )
    assert refs == expected


#: every release date the evidence gives: the build date in the image tags, or the page's last-updated stamp
#: (published by then); every other release states none ("not stated"), never its recording date
RELEASE_DATES = {
    "inference-nv-pytorch:25.04": ("2025-04-30", "image-tag"),
    "training-xpu-pytorch:2026-10-20": ("2026-10-20", "image-tag"),
    "training-nv-pytorch:25.02": ("2025-03-27", "page-updated"),
    "training-nv-pytorch:25.04": ("2025-06-28", "page-updated"),
    "training-nv-pytorch:25.08": ("2025-11-09", "page-updated"),
    "training-nv-pytorch:25.09": ("2025-11-10", "page-updated"),
}


def test_release_dates_come_from_the_evidence_with_their_kind(kb):
    found = {r.ref: (r.released.date.isoformat(), r.released.kind.value) for r in kb.releases if r.released}
    assert found == RELEASE_DATES
    for record in kb.releases:
        if record.released is None:
            continue
        if record.released.kind.value == "page-updated":  # the cited page's own stamp, as printed
            (source,) = [s for s in record.sources if str(s.url) == str(record.released.source)]
            assert source.last_updated is not None, record.ref
        else:  # the date stamped in the image tags
            tags = [t.tag for t in record.image_tags] + [t.tag for v in record.variants for t in v.image_tags]
            assert any(record.released.date.strftime("%Y%m%d") in tag for tag in tags), record.ref
        assert record.released.date != record.recorded, record.ref


def test_every_release_has_sources_and_both_languages(kb):
    for record in kb.releases:
        assert record.sources, record.ref
        assert record.summary.en.strip() and contains_cjk(record.summary.zh), record.ref
        for highlight in record.highlights:
            assert contains_cjk(highlight.text.zh) and not contains_cjk(highlight.text.en), record.ref


def test_status_current_only_for_25_10(kb):
    statuses = {r.version: r.status for r in kb.releases_of(NV)}
    assert statuses.pop("25.10") is ReleaseStatus.current
    assert set(statuses.values()) == {ReleaseStatus.superseded}
    # the xpu 25.05 page links a later 25.06 release that has no record yet
    assert kb.release(f"{XPU}:25.05").status is ReleaseStatus.superseded


def test_25_07_components_as_published(kb):
    record = kb.release(f"{NV}:25.07")
    published = _components(record)
    assert published["Torch"] == "2.7.1.8+nv25.3"
    assert published["transformer_engine"] == "2.3.0+5de3e14"
    assert published["ACCL-N"] == "2.27.5.14"
    assert published["vllm"] == "0.9.2"
    assert published["CUDA"] == "12.8"
    assert [e.name for e in record.components][:6] == ["Ubuntu", "Python", "CUDA", "perf", "gdb", "Torch"]
    assert record.image_tags[0].reference.endswith("/egslingjun/training-nv-pytorch:25.07-serverless")


def test_25_07_driver_text_truncated_after_r470(kb):
    driver = kb.release(f"{NV}:25.07").driver
    assert driver.vendor is DriverVendor.nvidia
    assert (driver.minimum, driver.stated_as) == ("575", "NVIDIA Driver release >= 575")
    assert [(b.branch, b.minimum) for b in driver.forward_compatibility] == [(470, "470.57")]
    assert driver.must_upgrade_branches == []
    assert driver.text_truncated is True


def test_25_07_usage_notes_map_to_checker_rules(kb):
    rules = {n.rule for n in kb.release(f"{NV}:25.07").usage_notes}
    assert rules == {
        "packages.image-build-replaced",
        "config.deepspeed-prefetch-bucket-size",
        "env.nccl-socket-ifname-pod-size",
        "env.checkpoint-optimization",
    }


def test_quick_start_commands_differ_between_releases(kb):
    def commands(ref):
        return [c for step in kb.release(ref).quick_start for c in step.commands]

    assert "ljperf benchmark --model deepspeed/llama3-8b" in commands(f"{NV}:25.07")
    assert "ljperf --action train --model_name deepspeed/llama3-8b" in commands(f"{NV}:25.03")
    assert "ljperf --action train --model_name deepspeed/llama3-8b" in commands(f"{XPU}:25.05")
    assert "export CHECKPOINT_OPTIMIZATION=true" in commands(f"{NV}:25.07")
    assert commands(f"{XPU}:25.05")[0] == "docker login egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com"


def test_25_10_lists_per_architecture(kb):
    record = kb.release(f"{NV}:25.10")
    assert set(record.architectures) == {CpuArch.amd64, CpuArch.aarch64}
    arm = _components(record, CpuArch.aarch64)
    x86 = _components(record, CpuArch.amd64)
    assert arm["pytorch-triton"] == "3.4.0" and "triton" not in arm and "perf" not in arm
    assert x86["triton"] == "3.4.0" and x86["perf"] == "5.4.30" and "pytorch-triton" not in x86
    assert arm["transformer_engine"] == x86["transformer_engine"] == "2.4.0+3cd6870c"
    assert not any(e.id == "accl-n" for e in record.components)
    assert record.gpu_support.models == ["L20A", "L20C"]


def test_plain_tags_for_lingjun_single_tenant(kb):
    for version in ("25.02", "25.03"):
        tags = {t.tag: t for t in kb.release(f"{NV}:{version}").image_tags}
        assert tags[version].products == [Product.lingjun_single_tenant]
        serverless = tags[f"{version}-serverless"]
        assert serverless.products == [Product.acs, Product.lingjun_multi_tenant]
        assert serverless.not_for == [Product.lingjun_single_tenant]


def test_no_localised_image_name_in_any_reference(kb):
    for record in kb.releases:
        for tag in record.image_tags:
            assert "pelatihan" not in tag.reference
    record = kb.release(f"{NV}:25.04")
    assert record.image_tags[0].reference == (
        "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.04-serverless"
    )
    conflict = next(c for c in record.source_conflicts if c.id == "localized-image-name")
    assert "pelatihan-nv-pytorch:25.04-serverless" in conflict.values[0].value


def test_xpu_25_05_driver_and_components(kb):
    record = kb.release(f"{XPU}:25.05")
    assert record.driver.vendor is DriverVendor.ppu
    assert (record.driver.minimum, record.driver.recommended) == ("1.1.0", "1.5.1")
    assert record.ppu_sdk == "1.5.1" and record.cuda is None
    published = _components(record)
    assert published["Torch"] == "2.6.0.7.post1+ppu1.5.1"
    assert published["flash-attn"] == "2.5.7+torch2.6.ppu1.5.1"
    assert published["ACCL-P"] == "1.5.0-9"
    assert published["ray"] == "2.43"
    assert sorted(record.known_issues) == [
        "vllm-deepseek-max-model-len-oom",
        "vllm-deepseek-r1-garbled-output-prefix-caching",
        "xpu-qwen3-235b-a22b-performance",
    ]


def test_driver_lists_per_page(kb):
    zh_25_03 = kb.release(f"{NV}:25.03").driver
    assert zh_25_03.must_upgrade_branches == [418, 440, 450, 460, 510, 520, 530, 545, 555]
    for version in ("25.06", "25.08", "25.09"):
        driver = kb.release(f"{NV}:{version}").driver
        assert driver.must_upgrade_branches == [418, 440, 450, 460, 510, 520, 530, 545, 555, 560]
        assert driver.minimum == "575"
    for version in ("25.03", "25.06", "25.08", "25.09"):
        driver = kb.release(f"{NV}:{version}").driver
        assert [(b.branch, b.minimum) for b in driver.forward_compatibility] == [
            (470, "470.57"), (525, "525.85"), (535, "535.86"), (545, "545.23"),
        ]
        assert [(r.branch, r.decision) for r in driver.branch_resolutions] == [(545, BranchDecision.must_upgrade)]


def test_25_06_only_features_text_versions(kb):
    record = kb.release(f"{NV}:25.06")
    assert {e.id: (e.version, e.stated_in) for e in record.components} == {
        "torch": ("2.7.1.8", StatedIn.features_text),
        "triton": ("3.3.0", StatedIn.features_text),
        "vllm": ("0.9.1", StatedIn.features_text),
        "cuda": ("12.8.0", StatedIn.driver_text),
    }
    assert record.gpu_support.architectures[0].value == "blackwell"


def test_listed_contradictions_are_recorded(kb):
    def conflict_ids(version):
        return {c.id for c in kb.release(f"{NV}:{version}").source_conflicts}

    assert "cuda-12-8-0-vs-12-8-1" in conflict_ids("25.04")
    assert "triton-inference-server-wording" in conflict_ids("25.06")
    assert {"transformer-engine-hash", "accl-n-not-listed", "english-component-cell-empty"} <= conflict_ids("25.09")
    assert "accl-n-not-listed" in conflict_ids("25.10")
    for version in ("25.02", "25.03", "25.04"):
        assert "mmdet-listed-twice" in conflict_ids(version)
        assert [e.name for e in kb.release(f"{NV}:{version}").components].count("mmdet") == 1
    for version in ("25.06", "25.07", "25.08", "25.09", "25.10"):
        assert "driver-575-for-cuda-12-8" in conflict_ids(version)


def test_only_acknowledged_downgrades(kb):
    """Walk each family in order; every version that goes down is acknowledged (ray 25.03 -> 25.04;
    Python 3.12.7+gc -> 3.12.3 from training-xpu-pytorch 25.05 to 2026-10-20)."""
    found = []
    for family in kb.families:
        last: dict = {}
        for record in kb.releases_of(family, newest_first=False):
            acknowledged = {(a.component, a.from_version, a.to_version) for a in record.acknowledged_downgrades}
            for entry in record.components:
                key = (entry.id, frozenset(entry.architectures))
                if key in last:
                    try:
                        down = Version(entry.version) < Version(last[key])
                    except InvalidVersion:
                        down = False
                    if down:
                        found.append(record.ref)
                        assert (entry.id, last[key], entry.version) in acknowledged, (record.ref, entry.id)
                last[key] = entry.version
    assert sorted(found) == [f"{NV}:25.04", f"{XPU}:2026-10-20"]


def test_every_component_is_in_the_catalog_under_its_published_name(kb):
    for record in kb.releases:
        for entry in record.components:
            catalog = kb.components[entry.id]
            assert entry.name in catalog.published_names, (record.ref, entry.name)
            assert kb.component_for_name(entry.name).id == entry.id


def test_catalog_flags(kb):
    vendor = {c.id for c in kb.components.values() if c.vendor_build}
    assert {"torch", "deepspeed", "transformers", "accelerate", "accl-n", "accl-p"} <= vendor
    extensions = {c.id for c in kb.components.values() if c.torch_extension}
    assert {"flash-attn", "flash-attn-3", "transformer-engine", "vllm", "xformers", "grouped-gemm", "mmcv"} <= extensions
    assert "flashinfer-python" in kb.components["flashinfer"].pypi
    assert kb.components["accl-n"].probe.kind.value == "nccl"


def test_base_images_resolve(kb):
    expected = {"25.02": "ngc-pytorch:25.01", "25.03": "ngc-pytorch:25.02", "25.04": "ngc-pytorch:25.03"}
    for version, base in expected.items():
        assert kb.release(f"{NV}:{version}").base_image.release == base
        assert kb.release(base) is not None
    ngc = kb.release("ngc-pytorch:25.01")
    assert ngc.cuda == "12.8.0.038" and ngc.python == "3.12.3"
    assert _by_id(ngc, "torch").version == "2.6.0a0+ecf3bae40a"
    assert ngc.image_tags[0].reference == "nvcr.io/nvidia/pytorch:25.01-py3"
    assert kb.release("ngc-pytorch:25.03").cuda == "12.8.1"


def test_vllm_h20_condition_matches_only_the_affected_release(kb):
    issue = kb.known_issues["vllm-fused-moe-h20-illegal-memory-access"]
    spec = SpecifierSet(issue.condition.components["vllm"])
    matched = [
        r.ref for r in kb.releases_of(NV, newest_first=False)
        if any(e.id == "vllm" and spec.contains(e.version, prereleases=True) for e in r.components)
    ]
    assert matched == issue.affects.releases == [f"{NV}:25.02"]
    assert issue.fixed_in == [f"{NV}:25.03"]
    assert issue.upstream[0].url == "https://github.com/vllm-project/vllm/pull/13693"
    assert kb.release(f"{NV}:25.03").bug_fixes[0].known_issue == issue.id


def test_cuda_driver_reference_rows(kb):
    rows = {r.toolkit: r.linux_min_driver for r in kb.cuda_drivers.toolkit_min_driver}
    assert rows["12.8.0"] == "570.26" and rows["12.8.1"] == "570.124.06"
    assert rows["12.9.0"] == "575.51.03"
    assert "12.3.2" not in rows  # unverified patch rows stay out
    images = {r.image_cuda: r.branches for r in kb.cuda_drivers.forward_compat_images}
    assert images["12.8"] == [470, 535, 550, 560, 565]
    branches = {b.branch: b for b in kb.driver_branches.branches}
    # the newest editions (R615, R620) agree on June 2028; the note keeps the v580 edition's August 2028
    assert branches[580].eol == "2028-06" and "August 2028" in branches[580].note.en
    assert branches[535].eol == "2026-06" and branches[570].eol == "2026-02"
    assert branches[575].eol_undated.value == "listed"
    # R545 is not in NVIDIA's table by number; the table's "every earlier branch not listed is end of life" covers it
    assert branches[545].eol_undated.value == "listed" and branches[545].type is None and branches[545].eol is None


@pytest.mark.parametrize("cuda, driver", [
    ("9.0", "384.81"), ("9.0.76", "384.81"), ("9.1", "390.46"), ("9.2", "396.26"), ("9.2.88", "396.26"),
    ("9.2.148", "396.37"), ("10.0", "410.48"), ("10.1", "418.39"), ("10.1.243", "418.39"), ("10.2", "440.33"),
    ("11.0", "450.36.06"),
])
def test_table_3_rows_back_to_cuda_9_0_give_nvidias_minimum_driver(kb, cuda, driver):
    """NVIDIA's Table 3 (CUDA 13.1 release notes): CUDA 9.2 (9.2.88) >= 396.26, 9.2.148 Update 1 >= 396.37, ..."""
    from lingjun.checks.core.compat import parse_cuda, toolkit_min_driver

    assert str(toolkit_min_driver(parse_cuda(cuda), kb.cuda_drivers.model_dump(mode="json"))) == driver


def test_a_cuda_9_2_image_on_an_r390_driver_is_decided_not_unknown(kb):
    from lingjun.checks.core.compat import decide, parse_cuda
    from lingjun.checks.core.versions import DriverVersion

    ref = kb.cuda_drivers.model_dump(mode="json")
    decision = decide(parse_cuda("9.2"), DriverVersion.parse("390.46"), ref)
    assert (decision.mode, decision.ok, str(decision.required)) == ("unsupported", False, "396.26")
    assert decide(parse_cuda("9.2"), DriverVersion.parse("396.26"), ref).mode == "native"
