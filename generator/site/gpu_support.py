"""The "GPU support" line of a release page: which GPU architectures its build covers, and the finder link.

From the record's ``gpu_support`` when it states one (``complete``: the
whole list; ``partial``: only what the page names), otherwise implied by the
release's CUDA toolkit: the architectures of ``gpus.yaml`` whose compute
capability that toolkit can build for (NVIDIA CUDA Toolkit release notes, as
:func:`lingjun.checks.core.gpu_arch.min_cuda_for_cc` tables them), labelled as
implied, since the architectures the image's PyTorch was built for are not
recorded.  A PPU release (its driver, else its family's accelerator, is PPU) lists the instances its page
names as "Supported instances", or says it is not an NVIDIA GPU image; it gets no finder link (the finder
checks NVIDIA drivers).
"""

from __future__ import annotations

from typing import Any, Optional

from lingjun.checks.core.gpu_arch import architecture, min_cuda_for_cc, parse_cc
from lingjun.checks.core.versions import CudaVersion, VersionFormatError
from lingjun.generator.site.nav import PageSpec, url_depth
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import Accelerator, DriverVendor, GpuArchitecture, ReleaseRecord

__all__ = ["ARCH_NAMES", "gpu_support_line", "implied_architectures"]

#: display names of the architectures, in generation order
ARCH_NAMES = {a.value: a.value.capitalize() for a in GpuArchitecture}

_TEXT = {
    "label": {"en": "GPU support", "zh": "GPU 支持"},
    "stated_complete": {"en": "{archs} (as the release states).", "zh": "{archs}（发布说明所列）。"},
    "stated_partial": {"en": "{archs} named by the release; it does not list every architecture it supports.",
                       "zh": "发布说明提到 {archs}；它并未列出所支持的全部架构。"},
    "implied": {"en": "implied by its CUDA {cuda} build, not stated by the release: CUDA {cuda} can build for {archs} GPUs; "
                      "which of them the image's PyTorch was built for is not recorded.",
                "zh": "由其 CUDA {cuda} 构建推断（发布说明未写明）：CUDA {cuda} 可为 {archs} GPU 构建；镜像中的 PyTorch 实际为哪些架构构建未记录。"},
    "unknown": {"en": "not stated, and the release's CUDA version is not recorded.", "zh": "未说明，且未记录该版本的 CUDA 版本。"},
    "ppu": {"en": "none: a PPU image, built for PPU accelerators and the PPU driver, not for NVIDIA GPUs.",
            "zh": "无：这是 PPU 镜像，面向 PPU 加速卡与 PPU 驱动，不适用于 NVIDIA GPU。"},
    "ppu_label": {"en": "Supported instances", "zh": "支持的实例"},
    "ppu_stated": {"en": "{archs} (as the page lists them).", "zh": "{archs}（按页面所列）。"},
    "finder": {"en": "Check it against your driver and GPU in the compatibility finder", "zh": "在兼容性查询中按驱动与 GPU 检查本版本"},
}

_SEP = {"en": ", ", "zh": "、"}


def implied_architectures(kb: KnowledgeBase, cuda: Optional[str]) -> list[str]:
    """Architectures (``GpuArchitecture`` values, generation order) of ``gpus.yaml`` models whose compute capability
    the CUDA toolkit ``cuda`` can build for; empty when ``cuda`` is not a version or no model qualifies."""
    try:
        version = CudaVersion.parse(cuda or "")
    except VersionFormatError:
        return []
    found = set()
    for gpu in kb.gpus.gpus if kb.gpus else []:
        cc = parse_cc(gpu.compute_capability)
        first = min_cuda_for_cc(cc) if cc else None
        arch = architecture(cc) if cc else None
        if first is not None and arch is not None and first <= version.major_minor:
            found.add(arch)
    return [a for a in ARCH_NAMES if a in found]


def gpu_support_line(kb: KnowledgeBase, record: ReleaseRecord, page: PageSpec, lang: str) -> dict[str, Any]:
    """``{"label", "text", "finder", "href"}`` in ``lang`` for a release page.

    ``text`` is plain text (the template escapes it); ``href`` is the finder preset to the release, relative to ``page``,
    or None for a PPU image (the finder checks NVIDIA drivers and GPUs).  ``label`` is "Supported instances" for a
    PPU image whose record lists the page's chips and instance types.
    """
    sep = _SEP[lang]
    support = record.gpu_support
    family = kb.families.get(record.family)
    ppu = (record.driver.vendor is DriverVendor.ppu if record.driver is not None
           else family is not None and family.accelerator is Accelerator.ppu)
    label = _TEXT["label"][lang]
    if ppu and support is not None and support.models:
        # a PPU page lists chips and the instance types that carry them, not GPU architectures
        label = _TEXT["ppu_label"][lang]
        text = _TEXT["ppu_stated"][lang].format(archs=sep.join(support.models))
    elif ppu:
        text = _TEXT["ppu"][lang]
    elif support is not None and (support.architectures or support.compute_capabilities or support.models):
        named = [ARCH_NAMES[a.value] for a in support.architectures]
        named += [f"compute capability {cc}" if lang == "en" else f"计算能力 {cc}" for cc in support.compute_capabilities]
        named += list(support.models)
        key = "stated_complete" if support.list_state == "complete" else "stated_partial"
        text = _TEXT[key][lang].format(archs=sep.join(named))
    elif record.cuda and implied_architectures(kb, record.cuda):
        archs = sep.join(ARCH_NAMES[a] for a in implied_architectures(kb, record.cuda))
        text = _TEXT["implied"][lang].format(cuda=record.cuda, archs=archs)
    else:
        text = _TEXT["unknown"][lang]
    href = None if ppu else "../" * url_depth(page.path) + "finder/?release=" + record.ref
    return {"label": label, "text": text, "finder": _TEXT["finder"][lang], "href": href}
