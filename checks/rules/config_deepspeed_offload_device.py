"""config.deepspeed-offload-device: ZeRO offload devices DeepSpeed does not know.

DeepSpeed's config reference (https://www.deepspeed.ai/docs/config-json/, "Optimizer offloading" and
"Parameter offloading") allows ``device`` values ``"cpu"``, ``"nvme"`` and ``"none"`` for
``zero_optimization.offload_optimizer`` and ``zero_optimization.offload_param``; any other value is refused
when the config is validated.  ``"nvme"`` also needs ``nvme_path``.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.inputs.deepspeed_config import lookup
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._deepspeed import DEEPSPEED_CONFIG_DOC, load
from lingjun.checks.rules._finding import make

RULE = "config.deepspeed-offload-device"
AREA = "config"
DEVICES = ("cpu", "nvme", "none")
_SECTIONS = ("zero_optimization.offload_optimizer", "zero_optimization.offload_param")


@rule(RULE, AREA, "DeepSpeed offload devices are known", "训练配置的卸载设备取值有效", order=348)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--deepspeed-config``: error for an offload ``device`` other than cpu/nvme/none, or nvme without nvme_path;
    ok when the offload sections are valid; nothing when the config has no offload section."""
    loaded = load(ctx)
    if loaded is None:
        return
    config, given = loaded
    checked = []
    for section in _SECTIONS:
        present, device = lookup(config, f"{section}.device")
        if not present:
            continue
        if device not in DEVICES:
            yield make(ctx, RULE, AREA, Severity.error,
                       f"{given}: {section}.device is {device!r}; DeepSpeed accepts only {', '.join(repr(d) for d in DEVICES)} and "
                       f"refuses the config.",
                       f"{given}：{section}.device 为 {device!r}；DeepSpeed 只接受 {', '.join(repr(d) for d in DEVICES)}，会拒绝此配置。",
                       remedy=("Set device to \"cpu\" (host memory), \"nvme\" (with nvme_path) or \"none\".",
                               "请把 device 设为 \"cpu\"（主机内存）、\"nvme\"（并设置 nvme_path）或 \"none\"。"),
                       observed=repr(device), expected=" / ".join(DEVICES), links=[DEEPSPEED_CONFIG_DOC])
            continue
        has_path, path = lookup(config, f"{section}.nvme_path")
        if device == "nvme" and (not has_path or not path):
            yield make(ctx, RULE, AREA, Severity.error,
                       f"{given}: {section}.device is \"nvme\" but nvme_path is not set; DeepSpeed needs the directory to offload to.",
                       f"{given}：{section}.device 为 \"nvme\"，但未设置 nvme_path；DeepSpeed 需要知道卸载到哪个目录。",
                       remedy=("Set nvme_path to a directory on a local NVMe drive.", "请把 nvme_path 设为本地 NVMe 盘上的目录。"),
                       observed="nvme", expected="nvme_path", links=[DEEPSPEED_CONFIG_DOC])
            continue
        checked.append(f"{section}.device={device}")
    if checked:
        yield make(ctx, RULE, AREA, Severity.ok, f"{given}: the offload devices are valid ({', '.join(checked)}).",
                   f"{given}：卸载设备取值有效（{', '.join(checked)}）。",
                   observed=", ".join(checked))
