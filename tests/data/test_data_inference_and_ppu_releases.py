"""The families and releases of issue 12 hold the facts of their official pages.

Pages (their "copy as Markdown" text, as far as it could be read, is in
``tests/fixtures/pages/``):

* inference-nv-pytorch 25.04: https://help.aliyun.com/zh/cs/user-guide/inference-nv-pytorch-25-04
* training-xpu-pytorch 2026-10-20: https://help.aliyun.com/zh/document_detail/3172892.html
* inference-xpu-pytorch-opt: https://help.aliyun.com/zh/document_detail/3014531.html (and ``/en/``)
* the ACS index: https://help.aliyun.com/en/cs/user-guide/acs-ai-container-image-version-release-record/
* the PPU release history: https://help.aliyun.com/en/document_detail/2878031.html
"""

from __future__ import annotations

import datetime as dt

import re

from pathlib import Path

import pytest

from lingjun.schema.loader import load_knowledge_base
from lingjun.schema.models import (
    Accelerator,
    CpuArch,
    DriverVendor,
    ListState,
    RecordSection,
    ReleaseStatus,
    RuntimeStatus,
    Scenario,
    StatedIn,
)
from lingjun.schema.release_images import image_for_tag, release_images

ROOT = Path(__file__).resolve().parents[2]
RELEASES = ROOT / "releases"
PAGES = ROOT / "tests" / "fixtures" / "pages"

INV = "inference-nv-pytorch"
OPT = "inference-xpu-pytorch-opt"
XPU = "training-xpu-pytorch"
VLLM_TAG = "25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"
SGLANG_TAG = "25.04-sglang0.4.6.post1-pytorch2.6-cu124-20250430-serverless"
LJZOO_TAG = "ppu2.2-pytorch2.10.0-ubuntu24.04-cuda13.0-py312-ljzoo-20261020"
OPT_VERSION = "sglang0.5.4.post3-250105"
INDEX = "https://help.aliyun.com/en/cs/user-guide/acs-ai-container-image-version-release-record/"
HISTORY = "https://help.aliyun.com/en/document_detail/2878031.html"


@pytest.fixture(scope="module")
def kb():
    knowledge, problems = load_knowledge_base(RELEASES)
    errors = [p for p in problems if p.is_error]
    assert errors == [], errors
    return knowledge


def _published(entries) -> dict[str, str]:
    """published name -> version, in page order."""
    return {e.name: e.version for e in entries}


# ------------------------------------------------------------------ inference-nv-pytorch 25.04


def test_25_04_publishes_a_vllm_and_an_sglang_image_each_with_its_own_tag(kb):
    record = kb.release(f"{INV}:25.04")
    images = release_images(record)
    assert [i.variant_id for i in images] == ["vllm", "sglang"]
    assert [i.ref for i in images] == [f"{INV}:25.04#vllm", f"{INV}:25.04#sglang"]
    assert [[t.tag for t in i.image_tags] for i in images] == [[VLLM_TAG], [SGLANG_TAG]]
    assert images[0].image_tags[0].reference == (
        f"egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:{VLLM_TAG}")
    assert image_for_tag(record, SGLANG_TAG).variant_id == "sglang"
    # the release keeps nothing of its own: tags and lists live in the variants
    assert record.image_tags == [] and record.components == []
    for variant in record.variants:
        assert variant.scenarios == [Scenario.inference]
        assert variant.use_case.zh == "大模型推理"


def test_25_04_component_lists_exactly_as_published(kb):
    vllm, sglang = release_images(kb.release(f"{INV}:25.04"))
    assert vllm.component_list is ListState.complete and sglang.component_list is ListState.complete
    assert list(_published(vllm.components).items()) == [
        ("Ubuntu", "22.04"), ("Python", "3.10"), ("Torch", "2.6.0+cu124"), ("CUDA", "12.4"),
        ("ACCL-N", "2.23.4.12"), ("accelerate", "1.6.0"), ("diffusers", "0.33.1"),
        ("flash_attn", "2.7.4.post1"), ("transformer", "4.51.3"), ("vllm", "0.8.5"), ("ray", "2.43.0"),
        ("triton", "3.2.0"), ("xgrammar", "0.1.18"),
    ]
    assert list(_published(sglang.components).items()) == [
        ("Ubuntu", "22.04"), ("Python", "3.10"), ("Torch", "2.6.0+cu124"), ("CUDA", "12.4"),
        ("ACCL-N", "2.23.4.12"), ("transformers", "4.51.1"), ("triton", "3.2.0"), ("xgrammar", "0.1.17"),
        ("flashinfer-python", "0.2.3"), ("sglang", "0.4.6.post1"), ("sgl-kernel", "0.1.0"),
    ]
    # the page spells it "transformer" in the vLLM column: still the transformers component
    assert [e.id for e in vllm.components if e.name == "transformer"] == ["transformers"]
    assert "sglang" not in {e.id for e in vllm.components}
    assert "vllm" not in {e.id for e in sglang.components}
    assert (vllm.python, vllm.cuda, sglang.python, sglang.cuda) == ("3.10", "12.4", "3.10", "12.4")


def test_25_04_driver_bug_fixes_and_status(kb):
    record = kb.release(f"{INV}:25.04")
    assert record.driver.vendor is DriverVendor.nvidia
    assert record.driver.minimum == "550"
    assert record.driver.stated_as == "NVIDIA Driver release >= 550"
    assert record.driver.text_truncated is True  # the copy read ends before any driver section
    assert record.stated_none == [RecordSection.bug_fixes] and record.bug_fixes == []
    assert [h.components for h in record.highlights] == [["vllm"], ["torch", "sglang"]]
    # the index page names newer releases (25.10, 26.03): 25.04 is not the family's current release
    assert record.status is ReleaseStatus.superseded
    assert record.order_key == (2025, 4, 0)


# ------------------------------------------------------------------ training-xpu-pytorch 2026-10-20


def test_2026_10_20_is_dated_and_current(kb):
    record = kb.release(f"{XPU}:2026-10-20")
    assert record.order_key == (2026, 10, 20)
    # the identifier is the date, and the tag's build stamp (…-20261020) says the same
    assert (record.release_date, record.released.kind.value) == (dt.date(2026, 10, 20), "image-tag")
    assert [r.version for r in kb.releases_of(XPU)] == ["2026-10-20", "25.05"]
    assert record.status is ReleaseStatus.current
    assert kb.release(f"{XPU}:25.05").status is ReleaseStatus.superseded


def test_2026_10_20_tag_sdk_instances_and_shared_components(kb):
    record = kb.release(f"{XPU}:2026-10-20")
    assert [t.tag for t in record.image_tags] == [LJZOO_TAG]
    assert record.image_tags[0].reference.endswith(f"/egslingjun/training-xpu-pytorch:{LJZOO_TAG}")
    assert record.architectures == [CpuArch.amd64]
    assert record.ppu_sdk == "2.2" and record.python == "3.12.3" and record.cuda is None
    assert record.gpu_support.models == ["M890", "efg3.GP9A", "efg3.GP9AS", "810E", "efg2.p16en"]
    assert record.component_list is ListState.complete
    listed = [e for e in record.components if e.stated_in is StatedIn.component_list]
    assert list(_published(listed).items()) == [
        ("Ubuntu", "24.04.2"), ("Python", "3.12.3"), ("torch", "2.10.0"), ("cuda-wrapper", "13.0"),
        ("Triton", "3.6.0+gitc6a4cb0f"), ("LingjunModelzoo", "20261015"),
    ]
    assert [e.id for e in listed if e.name == "cuda-wrapper"] == ["cuda"]
    assert record.driver is None  # not visible in the copy read: not invented


def test_2026_10_20_runtimes(kb):
    runtimes = kb.release(f"{XPU}:2026-10-20").runtimes
    assert [(r.id, r.name, r.path) for r in runtimes] == [
        ("cosmos-framework/20261015", "cosmos framework", "/opt/runtimes/cosmos-framework-ppu"),
        ("llama-factory/20261015", "LlamaFactory", "/opt/runtimes/llama-factory-ppu"),
        ("diffsynth/20261015", "DiffSynth Studio", "/opt/runtimes/diffsynth-ppu/"),
    ]
    assert [r.upstream for r in runtimes] == [
        "https://github.com/NVIDIA/cosmos-framework",
        "https://github.com/hiyouga/LlamaFactory",
        "https://github.com/modelscope/DiffSynth-Studio",
    ]
    assert {r.status for r in runtimes} == {RuntimeStatus.maintained}
    cosmos = runtimes[0]
    assert cosmos.component_list is ListState.partial
    assert _published(cosmos.components) == {"cosmos-framework": "1.2.2"}
    assert [r.components for r in runtimes[1:]] == [[], []]


# ------------------------------------------------------------------ inference-xpu-pytorch-opt


def test_opt_release_named_by_its_tag_without_a_date(kb):
    record = kb.release(f"{OPT}:{OPT_VERSION}")
    assert [t.tag for t in record.image_tags] == [OPT_VERSION]
    assert record.image_tags[0].reference == (
        f"egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/inference-xpu-pytorch-opt:{OPT_VERSION}")
    assert record.release_date is None and record.order_key is None
    assert record.status is ReleaseStatus.current


def test_opt_components_sdk_and_driver(kb):
    record = kb.release(f"{OPT}:{OPT_VERSION}")
    assert record.ppu_sdk == "1.7.0.post1" and record.python == "3.12.3"
    assert (record.driver.vendor, record.driver.minimum, record.driver.stated_as) == (
        DriverVendor.ppu, "1.1.0", "Driver version >= 1.1.0")
    listed = [e for e in record.components if e.stated_in is StatedIn.component_list]
    assert list(_published(listed).items()) == [
        ("Ubuntu", "24.04"), ("Python", "3.12.3"), ("CUDA", "12.9"), ("Torch", "2.8.0"),
        ("flash-attn", "2.8.2+ppu1.7.0.post1"), ("flashinfer", "0.4.0rc3"), ("flashmla", "1.0.0+ppu1.7.0.post1"),
        ("deep_gemm", "1.0.0+ppu1.7.0.post1"), ("sglang", "0.5.4.post3+7a2348"),
        ("sgl-kernel", "0.3.16.post5+ppu1.7.0.post1"), ("nvshmem", "1.7.0"), ("accl_ep", "1.7.0.1+d62dd17"),
        ("orjson", "3.10.15"),
    ]
    assert record.stated_none == [RecordSection.bug_fixes]
    assert {s.language.value for s in record.sources} == {"zh", "en"}


# ------------------------------------------------------------------ families and where releases are named


def test_new_families(kb):
    expected = {
        INV: (Accelerator.nvidia_gpu, "acs-registry-vpc.{region-id}.cr.aliyuncs.com/egslingjun/{image}:{tag}"),
        OPT: (Accelerator.ppu, None),
        "inference-xpu-pytorch": (Accelerator.ppu, None),
    }
    for family_id, (accelerator, vpc) in expected.items():
        family = kb.families[family_id]
        assert family.accelerator is accelerator, family_id
        assert family.scenarios == [Scenario.inference], family_id
        assert family.vpc_registry_pattern == vpc, family_id
        assert "训练" not in family.title.zh, family_id  # titles are neutral in both languages


def test_family_titles_name_the_image_the_same_way_in_both_languages(kb):
    """Every product family's title is '<image> (<accelerator> image)', and its Chinese title says the same."""
    for family in kb.families.values():
        if family.role.value != "product":
            continue
        kind = {Accelerator.nvidia_gpu: ("NVIDIA GPU image", "NVIDIA GPU 镜像"), Accelerator.ppu: ("PPU image", "PPU 镜像")}
        en, zh = kind[family.accelerator]
        assert (family.title.en, family.title.zh) == (f"{family.id} ({en})", f"{family.id}（{zh}）"), family.id


def test_a_release_known_only_from_a_link_says_so(kb):
    """inference-nv-pytorch 25.11: its page address comes from a link in a public GitHub README, not from a page
    naming it; the record says that instead of citing the page as if it named itself."""
    (u,) = [u for u in kb.families[INV].unrecorded_releases if u.version == "25.11"]
    (src,) = u.named_in
    assert "GitHub README" in src.title and "GitHub README" in src.note.en and "GitHub README" in src.note.zh
    assert "not been read" in src.note.en and "Not named by an official page" in src.note.en
    assert u.note is not None and "only from a link" in u.note.en


def test_training_xpu_family_cites_its_newest_page_and_the_release_history(kb):
    urls = [s.url for s in kb.families[XPU].sources]
    assert "https://help.aliyun.com/zh/document_detail/3172892.html" in urls
    assert HISTORY in urls
    recorded = {s.url for r in kb.releases_of(XPU) for s in r.sources}
    named = {s.url for u in kb.families[XPU].unrecorded_releases for s in u.named_in}
    assert recorded | named <= set(urls)


def test_unrecorded_releases_and_where_they_are_named(kb):
    def named(family_id):
        return {u.version: [s.url for s in u.named_in] for u in kb.families[family_id].unrecorded_releases}

    assert named(INV) == {
        "25.10": [INDEX],
        "25.11": ["https://help.aliyun.com/zh/cs/user-guide/inference-nv-pytorch-25-11"],
        "26.03": [INDEX],
    }
    tags = {u.version: u.image_tags for u in kb.families[INV].unrecorded_releases}
    assert tags["26.03"] == ["26.03-vllm0.17.1-pytorch2.10-cu128-20260317-serverless"]
    assert tags["25.10"] == ["25.10-vllm0.11.0-pytorch2.8-cu128-20251028-serverless"]
    xpu_25_05_page = "https://www.alibabacloud.com/help/en/cs/user-guide/training-xpu-pytorch-25-05"
    assert named(XPU) == {"25.04": [xpu_25_05_page], "25.06": [xpu_25_05_page],
                          "25.08": [HISTORY], "25.09": [HISTORY]}
    assert named("inference-xpu-pytorch") == {"25.08": [HISTORY], "25.09": [HISTORY]}
    # nothing is both recorded and unrecorded
    for family_id in (INV, XPU, "inference-xpu-pytorch"):
        recorded = {r.version for r in kb.releases_of(family_id)}
        assert recorded.isdisjoint(named(family_id)), family_id


def test_index_page_is_a_catalog_wide_source():
    from lingjun.schema.models import FamilyCatalog
    import yaml

    catalog = FamilyCatalog.model_validate(yaml.safe_load((RELEASES / "families.yaml").read_text(encoding="utf-8")))
    assert [s.url for s in catalog.sources] == [INDEX]


# ------------------------------------------------------------------ records, catalog and page fixtures agree


def _images(kb):
    for family_id in (INV, OPT, XPU):
        for record in kb.releases_of(family_id):
            for image in release_images(record):
                yield record, image


def test_every_new_component_is_catalogued_under_its_published_name(kb):
    for record, image in _images(kb):
        entries = list(image.components) + [e for r in image.runtimes for e in r.components]
        for entry in entries:
            component = kb.components[entry.id]
            assert entry.name in component.published_names, (image.ref, entry.id, entry.name)


@pytest.mark.parametrize("ref, page", [
    (f"{INV}:25.04", "inference-nv-pytorch-25.04.zh.md"),
    (f"{XPU}:2026-10-20", "training-xpu-pytorch-2026-10-20.zh.md"),
    (f"{OPT}:{OPT_VERSION}", f"inference-xpu-pytorch-opt-{OPT_VERSION}.zh.md"),
])
def test_tags_and_listed_versions_appear_on_the_saved_page(kb, ref, page):
    """Every tag, and every version taken from a component list, is printed on the page fixture."""
    text = (PAGES / page).read_text(encoding="utf-8")
    record = kb.release(ref)
    for image in release_images(record):
        for tag in image.image_tags:
            assert tag.tag in text and tag.reference in text, (ref, tag.tag)
        for entry in image.components:
            if entry.stated_in is StatedIn.component_list:
                assert entry.name in text and entry.version in text, (ref, entry.name, entry.version)


def test_page_fixtures_say_where_they_come_from():
    pages = sorted(PAGES.glob("*.md"))
    assert {p.name for p in pages} >= {
        "inference-nv-pytorch-25.04.zh.md", "training-xpu-pytorch-2026-10-20.zh.md",
        f"inference-xpu-pytorch-opt-{OPT_VERSION}.zh.md", f"inference-xpu-pytorch-opt-{OPT_VERSION}.en.md",
        "catalog-index.en.md", "ppu-release-history.en.md",
    }
    for page in pages:
        if page.name == "README.md":
            continue
        head = page.read_text(encoding="utf-8").split("-->", 1)[0]
        assert head.startswith("<!--"), page.name
        for field in ("language: ", "read: ", "paraphrased: ", "not visible: "):
            assert field in head, (page.name, field)
        # an official page: the Chinese site, or the international site (en, id)
        assert re.search(r"^URL: https://(help\.aliyun\.com/|www\.alibabacloud\.com/help/)", head, re.M), page.name
        language = re.search(r"^language: (\S+)", head, re.M).group(1)
        assert page.name.endswith(f".{language}.md"), page.name
