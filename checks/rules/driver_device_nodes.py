"""driver.device-nodes: /dev/nvidia* present and usable (lost after systemd daemon-reload)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._words import Words

RULE = "driver.device-nodes"
AREA = "driver"

WORDS = Words({
    "unopenable": ("cannot be opened", "无法打开"),
    "nvml-fails": ("exist but NVML fails ({error})", "存在，但 NVML 初始化失败（{error}）"),
    "more": ("...", "…"),
    "lost": (
        "NVIDIA device nodes ({nodes}{more}) {what}: the container lost access "
        "to the GPUs through its device cgroup, typically after `systemctl daemon-reload` on the host.",
        "NVIDIA 设备节点（{nodes}{more}）{what}：容器的设备 cgroup 已失去 GPU 访问权限，"
        "通常是宿主机执行了 `systemctl daemon-reload` 所致。",
    ),
    "lost-remedy": (
        "Recreate the container. To prevent it, follow NVIDIA's workaround: create the /dev/char symlinks with "
        "`nvidia-ctk system create-dev-char-symlinks`, request the device nodes explicitly, or use the cgroupfs cgroup driver.",
        "请重建容器。预防办法参照 NVIDIA 的说明：用 `nvidia-ctk system create-dev-char-symlinks` 创建 /dev/char 符号链接，"
        "或显式申请设备节点，或改用 cgroupfs cgroup 驱动。",
    ),
    "no-nodes": (
        "The NVIDIA driver is visible but there are no /dev/nvidia* device nodes: no GPU was passed into this container.",
        "能看到 NVIDIA 驱动，但没有 /dev/nvidia* 设备节点：容器没有分配到 GPU。",
    ),
    "no-nodes-remedy": (
        "Start the container with GPUs (docker --gpus, or a nvidia.com/gpu resource request).",
        "请以 GPU 方式启动容器（docker --gpus，或申请 nvidia.com/gpu 资源）。",
    ),
    "ok": ("{count} NVIDIA device node(s) present and usable.", "有 {count} 个 NVIDIA 设备节点，均可使用。"),
})


@rule(RULE, AREA, "GPU device nodes usable", "GPU 设备节点可用", needs_gpu=True, order=80, needs=("device-nodes",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when /dev/nvidia* exist but cannot be opened or NVML (through ctypes or nvidia-smi) reports "Unknown Error";
    ok otherwise."""
    if is_ppu(ctx.record):
        return
    facts = ctx.facts
    nodes = facts.driver.device_nodes
    # NVML's own answer (ctypes) or nvidia-smi's "Failed to initialize NVML: Unknown Error" when only it was recorded
    nvml_error = next((e for e in (facts.nvml.init_error, facts.nvidia_smi.error)
                       if isinstance(e, str) and "unknown error" in e.lower()), None)
    if nodes and (facts.driver.device_nodes_accessible is False or nvml_error):
        what = (WORDS("unopenable") if facts.driver.device_nodes_accessible is False
                else WORDS("nvml-fails", error=nvml_error))
        more = WORDS("more") if len(nodes) > 4 else Text("", "")
        yield make(ctx, RULE, AREA, Severity.error, WORDS("lost", nodes=", ".join(nodes[:4]), more=more, what=what),
                   remedy=WORDS("lost-remedy"), observed=what, links=[nvidia_url(ctx, "daemon-reload")])
        return
    if not nodes and facts.driver_version:  # the input showed the nodes (needs=): none is observed absent
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("no-nodes"), remedy=WORDS("no-nodes-remedy"))
        return
    if nodes:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", count=len(nodes)), observed=", ".join(nodes[:4]))
