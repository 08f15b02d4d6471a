"""driver.nvml-mismatch: libnvidia-ml must be the kernel driver's own version."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import parse_driver
from lingjun.checks.core.small_int import small_int
from lingjun.checks.coverage import available, unavailable_reason
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import kernel_driver
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

if TYPE_CHECKING:
    from lingjun.checks.core.versions import DriverVersion

RULE = "driver.nvml-mismatch"
AREA = "driver"

WORDS = Words({
    "remedy": (
        "Do not ship NVIDIA driver libraries (libnvidia-ml, libcuda) in the image; let the NVIDIA container runtime inject "
        "the host's. If the host driver was just updated, reboot or reload the kernel module.",
        "不要在镜像中打包 NVIDIA 驱动库（libnvidia-ml、libcuda），应由 NVIDIA 容器运行时注入宿主机的版本；"
        "若宿主机刚升级过驱动，请重启或重新加载内核模块。",
    ),
    "differs": (
        "libnvidia-ml {lib} ({where}) does not match the kernel driver {kmod}; NVML fails with "
        "\"Driver/library version mismatch\". The NVML library must be the kernel driver's own.",
        "libnvidia-ml {lib}（{where}）与内核驱动 {kmod} 不一致，NVML 会报 “Driver/library version mismatch”。"
        "NVML 库必须与内核驱动版本完全相同。",
    ),
    "init-failed": (
        "NVML failed to initialise: {error}. The user-space NVML library and the kernel driver differ.",
        "NVML 初始化失败：{error}。用户态 NVML 库与内核驱动版本不一致。",
    ),
    "ok": ("libnvidia-ml {lib} matches the kernel driver.", "libnvidia-ml {lib} 与内核驱动一致。"),
    "not-compared": ("The NVML library was not compared with the driver: {why}.", "未将 NVML 库与驱动比较：{why}。"),
})


def nvml_library_driver(text: Optional[str]) -> Optional[DriverVersion]:
    """Driver version inside an NVML version string: ``"12.570.124.06"`` (nvmlSystemGetNVMLVersion,
    leading CUDA major) or ``"550.144"`` / ``"570.124.06"`` (file name)."""
    if not isinstance(text, str):
        return None
    fields = [f for f in re.split(r"\.", text.strip()) if f]
    while len(fields) > 1 and small_int(fields[0]) in range(100):  # a leading CUDA major; None for a digit run too long
        fields = fields[1:]
    return parse_driver(".".join(fields[:3]))


@rule(RULE, AREA, "NVML library matches the driver", "NVML 库与驱动一致", needs_gpu=True, order=70)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error on "Driver/library version mismatch" or a libnvidia-ml version differing from the kernel module; ok when equal."""
    if is_ppu(ctx.record):
        return
    nvml = ctx.facts.nvml
    kmod = kernel_driver(ctx.facts)
    lib = nvml_library_driver(nvml.library_version)
    where = nvml.library_path or "libnvidia-ml.so.1"
    remedy = WORDS("remedy")
    # NVML's own answer (ctypes), or nvidia-smi's "Failed to initialize NVML: Driver/library version mismatch" when only it was recorded
    # or the same words quoted in the input (a paste's error lines: symptoms are evidence)
    mismatch_error = next((e for e in (nvml.init_error, ctx.facts.nvidia_smi.error, *ctx.facts.symptoms.errors)
                           if isinstance(e, str) and "mismatch" in e.lower()), None)
    if lib is not None and kmod is not None and lib != kmod:
        yield make(ctx, RULE, AREA, Severity.error, WORDS("differs", lib=lib, where=where, kmod=kmod),
                   remedy=remedy, observed=f"{lib} ({where})", expected=str(kmod))
        return
    if mismatch_error:
        yield make(ctx, RULE, AREA, Severity.error, WORDS("init-failed", error=mismatch_error),
                   remedy=remedy, observed=mismatch_error, expected=str(kmod) if kmod else None)
        return
    if lib is not None and kmod is not None:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", lib=lib), observed=str(lib), expected=str(kmod))
        return

    if not available(ctx.facts, "nvml"):
        why = unavailable_reason(ctx.facts, ["nvml"])
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-compared", why=why))
