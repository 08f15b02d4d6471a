"""driver.present: is there an NVIDIA driver in this container at all?"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import driver_observed
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make

RULE = "driver.present"
AREA = "driver"


def _unknown(facts) -> tuple[str, str]:
    """The skipped message when the input could not show a driver (a partial snapshot, a paste without nvidia-smi)."""
    from lingjun.checks.coverage import driver_unknown_reason

    reason = driver_unknown_reason(facts)
    return (f"{reason.en[:1].upper()}{reason.en[1:]}; GPU checks are skipped.", f"{reason.zh}，GPU 相关检查已跳过。")


@rule(RULE, AREA, "NVIDIA driver present", "NVIDIA 驱动是否可见", order=20)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """skipped (or error with ``--require-gpu``) without a driver; ok with the version otherwise."""
    facts = ctx.facts
    if is_ppu(ctx.record):
        yield make(ctx, RULE, AREA, Severity.skipped,
                   "This is a PPU image; NVIDIA driver checks do not apply.",
                   "这是 PPU 镜像，不适用 NVIDIA 驱动检查。")
        return
    if not facts.has_nvidia_driver and not driver_observed(facts):
        yield make(ctx, RULE, AREA, Severity.skipped, *_unknown(facts))
        return
    if not facts.has_nvidia_driver:
        if ctx.options.require_gpu:
            yield make(
                ctx, RULE, AREA, Severity.error,
                "No NVIDIA driver in this container, but a GPU is required.",
                "此容器中没有 NVIDIA 驱动，但本次检查要求使用 GPU。",
                remedy=("Start the container with GPUs (docker --gpus, or a Kubernetes nvidia.com/gpu request) on a host with the NVIDIA driver.",
                        "请在装有 NVIDIA 驱动的主机上以 GPU 方式启动容器（docker --gpus，或在 Kubernetes 中申请 nvidia.com/gpu）。"),
            )
        else:
            yield make(ctx, RULE, AREA, Severity.skipped,
                       "No NVIDIA driver in this container; GPU checks are skipped.",
                       "此容器中没有 NVIDIA 驱动，GPU 相关检查已跳过。")
        return
    version = facts.driver_version
    if not version and facts.origin != "live":
        from lingjun.checks.coverage import input_name

        name = input_name(facts)
        yield make(ctx, RULE, AREA, Severity.info,
                   f"{name.en[:1].upper()}{name.en[1:]} shows signs of an NVIDIA driver (GPUs or driver libraries) but not the driver's version; "
                   f"the checks that compare the driver are limited.",
                   f"{name.zh}中有 NVIDIA 驱动的迹象（GPU 或驱动库），但没有驱动版本；与驱动版本相关的检查受限。",
                   remedy=("Add the output of nvidia-smi (or /proc/driver/nvidia/version) from the node.",
                           "请补充该节点上 nvidia-smi（或 /proc/driver/nvidia/version）的输出。"))
        return
    if version:
        yield make(ctx, RULE, AREA, Severity.ok,
                   f"NVIDIA driver {version} is visible.", f"可见 NVIDIA 驱动 {version}。", observed=version)
    else:
        yield make(
            ctx, RULE, AREA, Severity.warning,
            "Signs of an NVIDIA driver are present (device nodes or libraries) but its version could not be read.",
            "检测到 NVIDIA 驱动的痕迹（设备节点或库文件），但无法读取驱动版本。",
            remedy=("Check /proc/driver/nvidia/version and nvidia-smi inside the container.",
                    "请在容器内检查 /proc/driver/nvidia/version 和 nvidia-smi 的输出。"),
        )
