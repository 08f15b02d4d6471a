"""cuda.torch-cpu-build: a CPU-only torch in a GPU image or on a node with GPUs.

A CPU-only build (``+cpu``, no CUDA and no HIP in ``torch/version.py``) never makes CUDA available, whatever
the driver.  The fix is the wheel from PyTorch's index for a CUDA version the driver supports:
``https://download.pytorch.org/whl/cuXYZ`` (PyTorch's install selector, https://pytorch.org/get-started/locally/,
and the commands of earlier releases, https://pytorch.org/get-started/previous-versions/).  The CUDA version
the driver supports comes from NVML / nvidia-smi, else from the driver version through Table 3 of NVIDIA's
CUDA Toolkit release notes (:func:`lingjun.checks.core.compat.max_native_cuda`); the index chosen is the
newest one PyTorch publishes at or below it (:data:`PYTORCH_CUDA_INDEXES`).

``cuda.available`` names the same build as the first cause when the input reports CUDA unavailable; both use
:func:`lingjun.checks.knowledge.torch_build.cpu_only`.
"""

from __future__ import annotations

from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import max_native_cuda
from lingjun.checks.core.versions import CudaVersion
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import driver_cuda
from lingjun.checks.rules._finding import make
from lingjun.checks.knowledge.torch_build import cpu_only, release_part

RULE = "cuda.torch-cpu-build"
AREA = "cuda"
INSTALL_DOC = "https://pytorch.org/get-started/locally/"
PREVIOUS_DOC = "https://pytorch.org/get-started/previous-versions/"
INDEX = "https://download.pytorch.org/whl/"
#: CUDA versions PyTorch has published wheel indexes for (download.pytorch.org/whl/cuXYZ), oldest first
PYTORCH_CUDA_INDEXES = ((11, 3), (11, 6), (11, 7), (11, 8), (12, 1), (12, 4), (12, 6), (12, 8), (12, 9), (13, 0))


def index_for(cuda: CudaVersion) -> Optional[str]:
    """The newest PyTorch wheel index tag (``cu126``) at or below ``cuda``, None when ``cuda`` is older than every index."""
    fitting = [mm for mm in PYTORCH_CUDA_INDEXES if mm <= cuda.major_minor]
    if not fitting:
        return None
    major, minor = fitting[-1]
    return f"cu{major}{minor}"


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
    plain = release_part(torch.version)
    tag = index_for(cuda) if cuda is not None else None
    if tag:
        remedy = (f"Install the CUDA build from PyTorch's index for the CUDA version the driver supports ({cuda}, from {source}): "
                  f"pip install torch=={plain} --index-url {INDEX}{tag} (pick a torch version that index carries; "
                  f"pytorch.org lists them).",
                  f"请从与驱动支持的 CUDA 版本（{cuda}，来自 {source}）对应的 PyTorch 索引安装 CUDA 构建："
                  f"pip install torch=={plain} --index-url {INDEX}{tag}（请选择该索引提供的 torch 版本，见 pytorch.org）。")
        expected = f"a CUDA build ({INDEX}{tag})"
    elif cuda is not None:
        remedy = (f"The driver supports only CUDA {cuda} ({source}), older than every PyTorch CUDA wheel index: upgrade the driver, "
                  f"then install a CUDA build from {INDEX}cuXYZ.",
                  f"驱动只支持 CUDA {cuda}（{source}），比 PyTorch 所有 CUDA wheel 索引都旧：请先升级驱动，再从 {INDEX}cuXYZ 安装 CUDA 构建。")
        expected = "a CUDA build"
    else:
        remedy = (f"Install the CUDA build: pip install torch=={plain} --index-url {INDEX}cuXYZ, where cuXYZ is the newest of "
                  f"{', '.join(f'cu{a}{b}' for a, b in PYTORCH_CUDA_INDEXES[-5:])} at or below the CUDA version nvidia-smi shows.",
                  f"请安装 CUDA 构建：pip install torch=={plain} --index-url {INDEX}cuXYZ，其中 cuXYZ 取 "
                  f"{', '.join(f'cu{a}{b}' for a, b in PYTORCH_CUDA_INDEXES[-5:])} 中不高于 nvidia-smi 所示 CUDA 版本的最新一个。")
        expected = "a CUDA build"
    yield make(
        ctx, RULE, AREA, Severity.error if on_gpu_node else Severity.warning,
        f"torch {torch.version} is a CPU-only build {where_en}: CUDA will never be available to it "
        f"(torch.cuda.is_available() is False whatever the driver).",
        f"torch {torch.version} 是仅 CPU 的构建，{where_zh}：它永远无法使用 CUDA（无论驱动如何，torch.cuda.is_available() 都为 False）。",
        remedy=remedy, observed=Text(f"{torch.version} (CPU-only)", f"{torch.version}（仅 CPU）"), expected=expected,
        links=[INSTALL_DOC, PREVIOUS_DOC],
    )
