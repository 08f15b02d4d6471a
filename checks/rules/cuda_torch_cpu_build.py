"""cuda.torch-cpu-build: a CPU-only torch in a GPU image or on a node with GPUs.

A CPU-only build (``+cpu``, no CUDA and no HIP in ``torch/version.py``) never makes CUDA available, whatever
the driver.  The fix is the wheel from PyTorch's index for a CUDA version the driver supports:
``https://download.pytorch.org/whl/cuXYZ`` (PyTorch's install selector, https://pytorch.org/get-started/locally/,
and the commands of earlier releases, https://pytorch.org/get-started/previous-versions/).  The CUDA version
the driver supports comes from NVML / nvidia-smi, else from the driver version through Table 3 of NVIDIA's
CUDA Toolkit release notes (:func:`lingjun.checks.core.compat.max_native_cuda`); the index chosen is the
newest variant PyTorch published for that torch release at or below it (the bundle's torch-wheels table,
``releases/reference/torch-wheels.yaml``; :func:`lingjun.checks.core.torch_wheels.best_variant`).  A torch the
image must not replace (the image's own build; the CPU torch torch_xla needs) is never told to be replaced.

``cuda.available`` names the same build as the first cause when the input reports CUDA unavailable; both use
:func:`lingjun.checks.knowledge.torch_build.cpu_only`.
"""

from __future__ import annotations

from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import max_native_cuda
from lingjun.checks.core.torch_wheels import best_variant, index_url, listed_releases, published_variants, torch_release
from lingjun.checks.core.versions import CudaVersion
from lingjun.checks.coverage import OBSERVED, state
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import driver_cuda, driver_fix_text
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words
from lingjun.checks.knowledge.torch_build import cpu_only
from lingjun.checks.rules._remedies import fresh_container, torch_is_image_build

RULE = "cuda.torch-cpu-build"
AREA = "cuda"
INSTALL_DOC = "https://pytorch.org/get-started/locally/"
PREVIOUS_DOC = "https://pytorch.org/get-started/previous-versions/"
INDEX = "https://download.pytorch.org/whl/"
#: the finding's expected value, shown as it is in both languages
EXPECTED_IMAGE = "a CUDA image"
EXPECTED_IMAGE_TORCH = "the image's torch"
EXPECTED_BUILD = "a CUDA build"
#: the variants listed when the torch-wheels table names none (in both languages' remedy)
NO_VARIANTS = "none in lingjun-check's table"

WORDS = Words({
    "remedy-xla": (
        "torch_xla is installed and needs this CPU build of torch: do not replace it. To use the NVIDIA GPUs, "
        "run a CUDA image (training-nv-pytorch, inference-nv-pytorch) instead of a torch_xla one.",
        "已安装 torch_xla，它需要这个仅 CPU 的 torch 构建，请不要替换。要使用 NVIDIA GPU，请改用 CUDA 镜像"
        "（training-nv-pytorch、inference-nv-pytorch），而不是 torch_xla 镜像。",
    ),
    "remedy-image-build": (
        "The image's own torch build was replaced by a CPU-only one, and no public index serves the image's build: "
        "{fresh}.",
        "镜像自带的 torch 构建已被仅 CPU 的构建替换，且没有公共索引提供镜像的构建：请{fresh}。",
    ),
    "remedy-variant": (
        "Install the CUDA build PyTorch publishes for torch {release} that this driver runs (it supports CUDA {cuda}, "
        "from {source}): pip install torch=={release} --index-url {url}, then check python -c "
        "'import torch; assert torch.version.cuda'.",
        "请安装 PyTorch 为 torch {release} 发布、且本驱动可运行的 CUDA 构建（驱动支持 CUDA {cuda}，来自 {source}）："
        "pip install torch=={release} --index-url {url}，然后用 python -c 'import torch; assert torch.version.cuda' 确认。",
    ),
    "remedy-driver": (
        "PyTorch publishes torch {release} for {listed}; the driver supports only CUDA {cuda} ({source}), "
        "older than all of them: upgrade the host driver to {up}, then install a CUDA build from {doc}.",
        "PyTorch 为 torch {release} 发布的构建为 {listed}；而驱动只支持 CUDA {cuda}（{source}），都比它们新："
        "请先把宿主机驱动升级到 {up}，再按 {doc} 安装 CUDA 构建。",
    ),
    "remedy-listed": (
        "Install a CUDA build: PyTorch publishes torch {release} for {listed} "
        "({index}); take the newest whose CUDA is at most the \"CUDA Version\" nvidia-smi prints "
        "on the node, e.g. pip install torch=={release} --index-url {example}.",
        "请安装 CUDA 构建：PyTorch 为 torch {release} 发布了 {listed}（{index}）；选其中不高于节点上 "
        "nvidia-smi 显示的 “CUDA Version” 的最新一个，例如 pip install torch=={release} --index-url {example}。",
    ),
    "remedy-any": (
        "Install a CUDA build of torch from {doc} for the CUDA version nvidia-smi prints on the node.",
        "请按 {doc} 安装与节点上 nvidia-smi 显示的 CUDA 版本对应的 torch CUDA 构建。",
    ),
    "node-named": ("on a node with {name}", "在有 {name} 的节点上"),
    # {count}: English counts the GPUs besides the one named, Chinese all of them
    "node-named-and-one": ("on a node with {name} and {count} more GPU", "在有 {name} 等 {count} 块 GPU 的节点上"),
    "node-named-and-more": ("on a node with {name} and {count} more GPUs", "在有 {name} 等 {count} 块 GPU 的节点上"),
    "node-one-gpu": ("on a node with 1 NVIDIA GPU", "在有 NVIDIA GPU 的节点上"),
    "node-gpus": ("on a node with {count} NVIDIA GPUs", "在有 NVIDIA GPU 等 {count} 块 GPU 的节点上"),
    "node-driver": ("with NVIDIA driver {driver}", "在 NVIDIA 驱动为 {driver} 的环境中"),
    "gpu-image": ("in a GPU image ({signs})", "在 GPU 镜像中（{signs}）"),
    "cpu-only": (
        "torch {version} is a CPU-only build {where}: CUDA will never be available to it "
        "(torch.cuda.is_available() is False whatever the driver).",
        "torch {version} 是仅 CPU 的构建，{where}：它永远无法使用 CUDA（无论驱动如何，torch.cuda.is_available() 都为 False）。",
    ),
    "observed": ("{version} (CPU-only)", "{version}（仅 CPU）"),
})


def _xla(ctx: CheckContext) -> bool:
    """Whether torch_xla is installed: it needs the CPU build of torch, which must not be replaced."""
    return any(ctx.facts.distribution(n) is not None for n in ("torch-xla", "torch_xla"))


def _remedy(ctx: CheckContext, version: str, cuda: Optional[CudaVersion], source: str) -> tuple[Text, str]:
    """(remedy, expected) for a CPU-only torch: one real CUDA variant of a release PyTorch publishes it for, picked from
    the bundle's torch-wheels table (:func:`lingjun.checks.core.torch_wheels.best_variant`); a torch the image must
    not replace (the image's own build, torch_xla's CPU torch) is never told to be replaced."""
    if _xla(ctx):
        return WORDS("remedy-xla"), EXPECTED_IMAGE
    if torch_is_image_build(ctx):
        return WORDS("remedy-image-build", fresh=fresh_container(ctx)), EXPECTED_IMAGE_TORCH
    table = ctx.data.torch_wheels
    release = torch_release(version)
    supported = cuda.major_minor if cuda is not None else None
    variant = best_variant(table, release, supported)
    if variant is None and supported is not None and not published_variants(table, release):
        # a torch release the table does not list: the newest listed release with a variant this driver runs
        release, variant = next(((rel, best_variant(table, rel, supported)) for rel in listed_releases(table)
                                 if best_variant(table, rel, supported)), (release, None))
    if variant is not None:
        url = index_url(variant)
        return (WORDS("remedy-variant", release=release, cuda=cuda, source=source, url=url),
                f"{EXPECTED_BUILD} ({url})")
    if cuda is not None:
        up = driver_fix_text(ctx)
        listed = ", ".join(published_variants(table, release)) or NO_VARIANTS
        return (WORDS("remedy-driver", release=release or version, listed=listed, cuda=cuda, source=source, up=up,
                      doc=INSTALL_DOC), EXPECTED_BUILD)
    listed = published_variants(table, release)
    if listed:
        return (WORDS("remedy-listed", release=release, listed=", ".join(listed), index=index_url('cuXYZ'),
                      example=index_url(listed[0])), EXPECTED_BUILD)
    return WORDS("remedy-any", doc=INSTALL_DOC), EXPECTED_BUILD


def _gpu_image_signs(ctx: CheckContext) -> list[str]:
    facts = ctx.facts
    signs = []
    toolkit = facts.cuda.toolkit_version or facts.cuda.env_cuda_version
    if toolkit:
        signs.append(f"CUDA {toolkit}")
    if "NVIDIA_VISIBLE_DEVICES" in facts.env:
        signs.append(f"NVIDIA_VISIBLE_DEVICES={facts.env['NVIDIA_VISIBLE_DEVICES']}")
    cuda = ctx.record.cuda if ctx.record is not None else None
    if cuda and not toolkit:
        signs.append(f"CUDA {cuda} (release record)")
    return signs


def _where(ctx: CheckContext, on_gpu_node: bool, signs: list[str]) -> Text:
    """Where the CPU-only torch runs: the GPUs seen (the first by name), else the driver, else the GPU image's signs."""
    facts = ctx.facts
    gpus = facts.gpus
    if not on_gpu_node:
        return WORDS("gpu-image", signs=Text(", ".join(signs), "、".join(signs)))
    if not gpus:
        return WORDS("node-driver", driver=facts.driver_version)
    if gpus[0].name:
        if len(gpus) == 1:
            return WORDS("node-named", name=gpus[0].name)
        key = "node-named-and-more" if len(gpus) > 2 else "node-named-and-one"
        return WORDS(key, name=gpus[0].name, count=Text(str(len(gpus) - 1), str(len(gpus))))
    return WORDS("node-gpus", count=len(gpus)) if len(gpus) > 1 else WORDS("node-one-gpu")


@rule(RULE, AREA, "torch is built for CUDA on a GPU node", "GPU 节点上的 torch 为 CUDA 构建", order=330, needs=("torch",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when a CPU-only torch runs where GPUs or an NVIDIA driver are visible; warning in a GPU image (CUDA
    toolkit, NVIDIA_VISIBLE_DEVICES, a record with CUDA) with no GPU shown; nothing for a CUDA/ROCm build or a CPU image."""
    facts = ctx.facts
    torch = facts.torch

    if not cpu_only(torch, cuda_known=state(ctx.facts, "torch") == OBSERVED):
        return
    assert torch is not None and torch.version
    gpus = facts.gpus
    on_gpu_node = bool(gpus) or bool(facts.driver_version)
    signs = _gpu_image_signs(ctx)
    if not on_gpu_node and not signs:
        return
    cuda, source = driver_cuda(ctx, max_native_cuda)
    remedy, expected = _remedy(ctx, torch.version, cuda, source)
    yield make(ctx, RULE, AREA, Severity.error if on_gpu_node else Severity.warning,
               WORDS("cpu-only", version=torch.version, where=_where(ctx, on_gpu_node, signs)),
               remedy=remedy, observed=WORDS("observed", version=torch.version), expected=expected,
               links=[INSTALL_DOC, PREVIOUS_DOC])
