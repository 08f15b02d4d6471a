"""driver.present: is there an NVIDIA driver in this container at all?

A container meant for GPUs (a CUDA toolkit, a CUDA build of torch, ``NVIDIA_VISIBLE_DEVICES``, a release
record with a CUDA version) that shows no driver and no ``/dev/nvidia*`` nodes, where the input observed
them absent, was started without GPUs: a warning, an error with ``--require-gpu``.  The remedy names the
ways to pass GPUs: ``docker run --gpus`` (NVIDIA Container Toolkit,
https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html), a
Kubernetes ``nvidia.com/gpu`` resource limit, and on Alibaba Cloud ACS a GPU pod
(``alibabacloud.com/compute-class: gpu`` with ``alibabacloud.com/gpu-model-series``, "Specify a GPU model
and driver version for an ACS GPU Pod",
https://www.alibabacloud.com/help/en/cs/user-guide/pod-gpu-model-and-driver-version).

A PPU release checked on input that shows NVIDIA GPUs or an NVIDIA kernel driver (:func:`nvidia_node_signs`) is an
error: the image's accelerator does not match the node's.  Otherwise a PPU release is skipped, saying whether the
input could show NVIDIA hardware at all.  The reverse (an NVIDIA image on a PPU node) is not detected: the facts
do not record PPU devices.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import parse_driver
from lingjun.checks.coverage import (
    OBSERVED,
    driver_observed,
    driver_unknown_reason,
    input_name,
    probed,
    state,
)
from lingjun.checks.report.findings import Finding, Severity, Text, sentence_case
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "driver.present"
AREA = "driver"
ACS_GPU_POD_DOC = "https://www.alibabacloud.com/help/en/cs/user-guide/pod-gpu-model-and-driver-version"
_REMEDY = ("Start the container with GPUs on a host with the NVIDIA driver: docker run --gpus all (NVIDIA Container Toolkit); "
           "in Kubernetes set resources.limits nvidia.com/gpu; on ACS create a GPU pod (label alibabacloud.com/compute-class: gpu "
           "and alibabacloud.com/gpu-model-series, with an nvidia.com/gpu limit).",
           "请在装有 NVIDIA 驱动的主机上以 GPU 方式启动容器：docker run --gpus all（NVIDIA Container Toolkit）；"
           "Kubernetes 中在 resources.limits 里申请 nvidia.com/gpu；ACS 上创建 GPU Pod（标签 alibabacloud.com/compute-class: gpu "
           "和 alibabacloud.com/gpu-model-series，并申请 nvidia.com/gpu）。")


def gpu_intent(ctx: CheckContext) -> list[Text]:
    """Signs that the container is meant for GPUs: a CUDA toolkit, torch built for CUDA, NVIDIA_VISIBLE_DEVICES
    naming GPUs (not void/none/empty, which ask for none), a release record with a CUDA version; empty when there is none."""
    facts = ctx.facts
    signs: list[Text] = []
    toolkit = facts.cuda.toolkit_version or facts.cuda.env_cuda_version
    if toolkit:
        signs.append(Text(f"CUDA toolkit {toolkit}", f"CUDA 工具包 {toolkit}"))
    torch = facts.torch
    if torch is not None and torch.cuda:
        signs.append(Text(f"torch {torch.version or '(version not shown)'} built for CUDA {torch.cuda}",
                          f"为 CUDA {torch.cuda} 构建的 torch {torch.version or '（版本未知）'}"))
    nvd = facts.env.get("NVIDIA_VISIBLE_DEVICES")
    # void / none / empty ask the NVIDIA runtime for no GPU: not a sign the container is meant for GPUs
    if nvd is not None and nvd.strip().lower() not in ("void", "none", ""):
        signs.append(Text(f"NVIDIA_VISIBLE_DEVICES={nvd}", f"NVIDIA_VISIBLE_DEVICES={nvd}"))
    cuda = ctx.record.cuda if ctx.record is not None else None
    if cuda and not toolkit:
        signs.append(Text(f"the release record's CUDA {cuda}", f"发布记录中的 CUDA {cuda}"))
    return signs


def _started_without_gpus(ctx: CheckContext, signs: list[Text]) -> Finding:
    nodes = state(ctx.facts, "device-nodes") == OBSERVED and not ctx.facts.driver.device_nodes
    what_en = "no NVIDIA driver and no /dev/nvidia* device nodes" if nodes else "no NVIDIA driver"
    what_zh = "没有 NVIDIA 驱动，也没有 /dev/nvidia* 设备节点" if nodes else "没有 NVIDIA 驱动"
    listed_en = ", ".join(s.en for s in signs)
    listed_zh = "、".join(s.zh for s in signs)
    required = ctx.options.require_gpu
    return make(
        ctx, RULE, AREA, Severity.error if required else Severity.warning,
        f"This container is meant for GPUs ({listed_en}) but has {what_en}: it was started without GPUs, and CUDA will not be "
        f"available{' (a GPU is required)' if required else ''}.",
        f"此容器是为 GPU 准备的（{listed_zh}），但{what_zh}：启动时没有分配 GPU，CUDA 将不可用{'（本次检查要求使用 GPU）' if required else ''}。",
        remedy=_REMEDY, observed=Text(what_en, what_zh), expected=Text("NVIDIA driver", "NVIDIA 驱动"),
        links=[ACS_GPU_POD_DOC, "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html"],
    )


def _unknown(facts) -> tuple[str, str]:
    """The skipped message when the input could not show a driver (a partial snapshot, a paste without nvidia-smi)."""
    reason = driver_unknown_reason(facts)
    return (f"{sentence_case(reason.en)}; GPU checks are skipped.", f"{reason.zh}，GPU 相关检查已跳过。")


def nvidia_node_signs(ctx: CheckContext) -> list[str]:
    """What the input shows of NVIDIA hardware on this node: the NVIDIA GPUs listed (by NVML, nvidia-smi or a
    collect_env paste: ``2x NVIDIA L20``) and the NVIDIA kernel driver's version (/proc/driver/nvidia/version,
    NVML or nvidia-smi); empty when it shows none.  Libraries alone (a libcuda, an NVML library) are no sign:
    a PPU image carries CUDA-compatible libraries of its own."""
    facts = ctx.facts
    signs: list[str] = []
    names: dict[str, int] = {}
    for gpu in facts.gpus:
        name = (gpu.name or "").strip()
        if name:
            names[name] = names.get(name, 0) + 1
    signs.extend(f"{count}x {name}" if count > 1 else name for name, count in names.items())
    if facts.driver_version:
        signs.append(f"NVIDIA driver {facts.driver_version}")
    return signs


def _ppu_image(ctx: CheckContext) -> Finding:
    """A PPU release: an error when the input shows NVIDIA GPUs or an NVIDIA driver on the node (the image's
    accelerator is not this node's); else skipped, saying whether the input could show them."""
    ref = ctx.release.image_ref or "this release"
    signs = nvidia_node_signs(ctx)
    if signs:
        shown = ", ".join(signs)
        return make(
            ctx, RULE, AREA, Severity.error,
            f"{ref} is a PPU image, but this node shows NVIDIA hardware ({shown}): the image's accelerator does not match "
            f"this node's.",
            f"{ref} 是 PPU 镜像，但本节点上是 NVIDIA 硬件（{shown}）：镜像所用的加速器与本节点不符。",
            remedy=("Run a release built for NVIDIA GPUs on this node (training-nv-pytorch, inference-nv-pytorch), or run "
                    "this image on a PPU node; if the release was named by mistake, give the right one with --release.",
                    "请在本节点上使用面向 NVIDIA GPU 的发布（training-nv-pytorch、inference-nv-pytorch），或在 PPU 节点上运行"
                    "该镜像；如果 --release 写错了，请改为正确的发布。"),
            observed=shown, expected=Text("PPU devices", "PPU 设备"),
        )
    if driver_observed(ctx.facts):
        return make(ctx, RULE, AREA, Severity.skipped,
                    "PPU image, and no NVIDIA GPU or driver on this node: NVIDIA driver checks do not apply.",
                    "PPU 镜像，本节点上也没有 NVIDIA GPU 或驱动：不适用 NVIDIA 驱动检查。")

    reason = driver_unknown_reason(ctx.facts)
    return make(ctx, RULE, AREA, Severity.skipped,
                f"PPU image: NVIDIA driver checks do not apply; whether this node has NVIDIA GPUs is not known: {reason.en}.",
                f"PPU 镜像：不适用 NVIDIA 驱动检查；本节点是否有 NVIDIA GPU 未知：{reason.zh}。")


WORDS = Words({
    "required": ("No NVIDIA driver in this container, but a GPU is required.", "此容器中没有 NVIDIA 驱动，但本次检查要求使用 GPU。"),
    "none": ("No NVIDIA driver in this container; GPU checks are skipped.", "此容器中没有 NVIDIA 驱动，GPU 相关检查已跳过。"),
    "version-not-shown": ("{name} shows signs of an NVIDIA driver (GPUs or driver libraries) but not the driver's version; "
                          "the checks that compare the driver are limited.",
                          "{name}中有 NVIDIA 驱动的迹象（GPU 或驱动库），但没有驱动版本；与驱动版本相关的检查受限。"),
    "remedy.version-not-shown": ("Add the output of nvidia-smi (or /proc/driver/nvidia/version) from the node.",
                                 "请补充该节点上 nvidia-smi（或 /proc/driver/nvidia/version）的输出。"),
    "not-a-version": ("An NVIDIA driver is visible, but its version {version!r} is not a driver version; the checks that compare "
                      "the driver are limited.",
                      "可见 NVIDIA 驱动，但其版本 {version!r} 不是有效的驱动版本号；与驱动版本相关的检查受限。"),
    "ok": ("NVIDIA driver {version} is visible.", "可见 NVIDIA 驱动 {version}。"),
    "unreadable": ("Signs of an NVIDIA driver are present (device nodes or libraries) but its version could not be read.",
                   "检测到 NVIDIA 驱动的痕迹（设备节点或库文件），但无法读取驱动版本。"),
    "remedy.version": ("Check /proc/driver/nvidia/version and nvidia-smi inside the container.",
                       "请在容器内检查 /proc/driver/nvidia/version 和 nvidia-smi 的输出。"),
})


@rule(RULE, AREA, "NVIDIA driver present", "NVIDIA 驱动是否可见", order=20)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning (error with ``--require-gpu``) when a container meant for GPUs shows no driver; skipped (error with
    ``--require-gpu``) without a driver otherwise; ok with the version when there is one."""
    facts = ctx.facts
    if is_ppu(ctx.record):
        yield _ppu_image(ctx)
    elif not facts.has_nvidia_driver and not driver_observed(facts):
        yield make(ctx, RULE, AREA, Severity.skipped, *_unknown(facts))
    elif not facts.has_nvidia_driver:
        yield _no_driver(ctx)
    else:
        yield _version(ctx)


def _no_driver(ctx: CheckContext) -> Finding:
    """The input observed no NVIDIA driver: started without GPUs (a container meant for them), required, or skipped."""
    signs = gpu_intent(ctx)
    if signs:
        return _started_without_gpus(ctx, signs)
    if ctx.options.require_gpu:
        return make(ctx, RULE, AREA, Severity.error, WORDS("required"), remedy=_REMEDY, links=[ACS_GPU_POD_DOC])
    return make(ctx, RULE, AREA, Severity.skipped, WORDS("none"))


def _version(ctx: CheckContext) -> Finding:
    """A driver is present: its version, one that is not a driver version, or none read."""
    facts = ctx.facts
    version = facts.driver_version
    if not version and not probed(facts):  # a --collect snapshot reads as its live run did (probed)
        name = input_name(facts)
        return make(ctx, RULE, AREA, Severity.info, WORDS("version-not-shown", name=Text(sentence_case(name.en), name.zh)),
                    remedy=WORDS("remedy.version-not-shown"))

    if version and parse_driver(version) is None:
        return make(ctx, RULE, AREA, Severity.warning, WORDS("not-a-version", version=version), remedy=WORDS("remedy.version"),
                    observed=version)
    if version:
        return make(ctx, RULE, AREA, Severity.ok, WORDS("ok", version=version), observed=version)
    return make(ctx, RULE, AREA, Severity.warning, WORDS("unreadable"), remedy=WORDS("remedy.version"))
