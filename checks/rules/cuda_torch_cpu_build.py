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
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import driver_cuda
from lingjun.checks.rules._finding import make
from lingjun.checks.knowledge.torch_build import cpu_only

RULE = "cuda.torch-cpu-build"
AREA = "cuda"
INSTALL_DOC = "https://pytorch.org/get-started/locally/"
PREVIOUS_DOC = "https://pytorch.org/get-started/previous-versions/"
INDEX = "https://download.pytorch.org/whl/"


def _xla(ctx: CheckContext) -> bool:
    """Whether torch_xla is installed: it needs the CPU build of torch, which must not be replaced."""
    return any(ctx.facts.distribution(n) is not None for n in ("torch-xla", "torch_xla"))


def _remedy(ctx: CheckContext, version: str, cuda: Optional[CudaVersion], source: str) -> tuple[tuple[str, str], str]:
    """(remedy, expected) for a CPU-only torch: one real CUDA variant of a release PyTorch publishes it for, picked from
    the bundle's torch-wheels table (:func:`lingjun.checks.core.torch_wheels.best_variant`); a torch the image must
    not replace (the image's own build, torch_xla's CPU torch) is never told to be replaced."""
    from lingjun.checks.rules._remedies import fresh_container, torch_is_image_build

    if _xla(ctx):
        return (("torch_xla is installed and needs this CPU build of torch: do not replace it. To use the NVIDIA GPUs, "
                 "run a CUDA image (training-nv-pytorch, inference-nv-pytorch) instead of a torch_xla one.",
                 "已安装 torch_xla，它需要这个仅 CPU 的 torch 构建，请不要替换。要使用 NVIDIA GPU，请改用 CUDA 镜像"
                 "（training-nv-pytorch、inference-nv-pytorch），而不是 torch_xla 镜像。"), "a CUDA image")
    if torch_is_image_build(ctx):
        fresh = fresh_container(ctx)
        return ((f"The image's own torch build was replaced by a CPU-only one, and no public index serves the image's build: "
                 f"{fresh.en}.", f"镜像自带的 torch 构建已被仅 CPU 的构建替换，且没有公共索引提供镜像的构建：请{fresh.zh}。"),
                "the image's torch")
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
        return ((f"Install the CUDA build PyTorch publishes for torch {release} that this driver runs (it supports CUDA {cuda}, "
                 f"from {source}): pip install torch=={release} --index-url {url}, then check python -c "
                 f"'import torch; assert torch.version.cuda'.",
                 f"请安装 PyTorch 为 torch {release} 发布、且本驱动可运行的 CUDA 构建（驱动支持 CUDA {cuda}，来自 {source}）："
                 f"pip install torch=={release} --index-url {url}，然后用 python -c 'import torch; assert torch.version.cuda' 确认。"),
                f"a CUDA build ({url})")
    if cuda is not None:
        from lingjun.checks.rules._driver_facts import driver_fix_text

        up = driver_fix_text(ctx)
        listed = ", ".join(published_variants(table, release)) or "none in lingjun-check's table"
        return ((f"PyTorch publishes torch {release or version} for {listed}; the driver supports only CUDA {cuda} ({source}), "
                 f"older than all of them: upgrade the host driver to {up.en}, then install a CUDA build from {INSTALL_DOC}.",
                 f"PyTorch 为 torch {release or version} 发布的构建为 {listed}；而驱动只支持 CUDA {cuda}（{source}），都比它们新："
                 f"请先把宿主机驱动升级到 {up.zh}，再按 {INSTALL_DOC} 安装 CUDA 构建。"), "a CUDA build")
    listed = published_variants(table, release)
    if listed:
        return ((f"Install a CUDA build: PyTorch publishes torch {release} for {', '.join(listed)} "
                 f"({index_url('cuXYZ')}); take the newest whose CUDA is at most the \"CUDA Version\" nvidia-smi prints "
                 f"on the node, e.g. pip install torch=={release} --index-url {index_url(listed[0])}.",
                 f"请安装 CUDA 构建：PyTorch 为 torch {release} 发布了 {', '.join(listed)}（{index_url('cuXYZ')}）；选其中不高于节点上 "
                 f"nvidia-smi 显示的 “CUDA Version” 的最新一个，例如 pip install torch=={release} --index-url {index_url(listed[0])}。"),
                "a CUDA build")
    return ((f"Install a CUDA build of torch from {INSTALL_DOC} for the CUDA version nvidia-smi prints on the node.",
             f"请按 {INSTALL_DOC} 安装与节点上 nvidia-smi 显示的 CUDA 版本对应的 torch CUDA 构建。"), "a CUDA build")


def _gpu_image_signs(ctx: CheckContext) -> list[str]:
    facts = ctx.facts
    signs = []
    toolkit = facts.cuda.toolkit_version or facts.cuda.env_cuda_version
    if toolkit:
        signs.append(f"CUDA {toolkit}")
    if "NVIDIA_VISIBLE_DEVICES" in facts.env:
        signs.append(f"NVIDIA_VISIBLE_DEVICES={facts.env['NVIDIA_VISIBLE_DEVICES']}")
    record = ctx.record if isinstance(ctx.record, dict) else {}
    if record.get("cuda") and not toolkit:
        signs.append(f"CUDA {record['cuda']} (release record)")
    return signs


@rule(RULE, AREA, "torch is built for CUDA on a GPU node", "GPU 节点上的 torch 为 CUDA 构建", order=330, needs=("torch",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when a CPU-only torch runs where GPUs or an NVIDIA driver are visible; warning in a GPU image (CUDA
    toolkit, NVIDIA_VISIBLE_DEVICES, a record with CUDA) with no GPU shown; nothing for a CUDA/ROCm build or a CPU image."""
    facts = ctx.facts
    torch = facts.torch
    from lingjun.checks.coverage import OBSERVED, state

    if not cpu_only(torch, cuda_known=state(ctx.facts, "torch") == OBSERVED):
        return
    assert torch is not None and torch.version
    gpus = facts.gpus
    on_gpu_node = bool(gpus) or bool(facts.driver_version)
    signs = _gpu_image_signs(ctx)
    if not on_gpu_node and not signs:
        return
    if on_gpu_node:
        named = gpus[0].name if gpus else None
        if gpus and named:
            where_en = f"on a node with {named}" + (f" and {len(gpus) - 1} more GPU{'s' if len(gpus) > 2 else ''}" if len(gpus) > 1 else "")
        elif gpus:
            where_en = f"on a node with {len(gpus)} NVIDIA GPU{'s' if len(gpus) > 1 else ''}"
        else:
            where_en = f"with NVIDIA driver {facts.driver_version}"
        where_zh = f"在有 {gpus[0].name or 'NVIDIA GPU'}" + (f" 等 {len(gpus)} 块 GPU" if len(gpus) > 1 else "") + " 的节点上" if gpus \
            else f"在 NVIDIA 驱动为 {facts.driver_version} 的环境中"
    else:
        where_en = f"in a GPU image ({', '.join(signs)})"
        where_zh = f"在 GPU 镜像中（{'、'.join(signs)}）"
    cuda, source = driver_cuda(ctx, max_native_cuda)
    remedy, expected = _remedy(ctx, torch.version, cuda, source)
    yield make(
        ctx, RULE, AREA, Severity.error if on_gpu_node else Severity.warning,
        f"torch {torch.version} is a CPU-only build {where_en}: CUDA will never be available to it "
        f"(torch.cuda.is_available() is False whatever the driver).",
        f"torch {torch.version} 是仅 CPU 的构建，{where_zh}：它永远无法使用 CUDA（无论驱动如何，torch.cuda.is_available() 都为 False）。",
        remedy=remedy, observed=Text(f"{torch.version} (CPU-only)", f"{torch.version}（仅 CPU）"), expected=expected,
        links=[INSTALL_DOC, PREVIOUS_DOC],
    )
