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
from lingjun.checks.rules._words import Words

RULE = "config.deepspeed-offload-device"
AREA = "config"
DEVICES = ("cpu", "nvme", "none")
_SECTIONS = ("zero_optimization.offload_optimizer", "zero_optimization.offload_param")

WORDS = Words({
    "unknown-device": ("{given}: {section}.device is {device}; DeepSpeed accepts only {devices} and refuses the config.",
                       "{given}：{section}.device 为 {device}；DeepSpeed 只接受 {devices}，会拒绝此配置。"),
    "unknown-device-remedy": ("Set device to \"cpu\" (host memory), \"nvme\" (with nvme_path) or \"none\".",
                              "请把 device 设为 \"cpu\"（主机内存）、\"nvme\"（并设置 nvme_path）或 \"none\"。"),
    "no-nvme-path": ("{given}: {section}.device is \"nvme\" but nvme_path is not set; DeepSpeed needs the directory to offload to.",
                     "{given}：{section}.device 为 \"nvme\"，但未设置 nvme_path；DeepSpeed 需要知道卸载到哪个目录。"),
    "no-nvme-path-remedy": ("Set nvme_path to a directory on a local NVMe drive.", "请把 nvme_path 设为本地 NVMe 盘上的目录。"),
    "ok": ("{given}: the offload devices are valid ({checked}).", "{given}：卸载设备取值有效（{checked}）。"),
})


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
        problem = _problem(ctx, config, given, section, device)
        if problem is not None:
            yield problem
            continue
        checked.append(f"{section}.device={device}")
    if checked:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", given=given, checked=", ".join(checked)), observed=", ".join(checked))


def _problem(ctx: CheckContext, config: dict, given: str, section: str, device: object) -> "Finding | None":
    """The error for ``section``'s offload ``device`` (one DeepSpeed does not know, or nvme without nvme_path), or None."""
    if device not in DEVICES:
        return make(ctx, RULE, AREA, Severity.error,
                    WORDS("unknown-device", given=given, section=section, device=repr(device),
                          devices=", ".join(repr(d) for d in DEVICES)),
                    remedy=WORDS("unknown-device-remedy"), observed=repr(device), expected=" / ".join(DEVICES),
                    links=[DEEPSPEED_CONFIG_DOC])
    has_path, path = lookup(config, f"{section}.nvme_path")
    if device == "nvme" and (not has_path or not path):
        return make(ctx, RULE, AREA, Severity.error, WORDS("no-nvme-path", given=given, section=section),
                    remedy=WORDS("no-nvme-path-remedy"), observed="nvme", expected="nvme_path", links=[DEEPSPEED_CONFIG_DOC])
    return None
