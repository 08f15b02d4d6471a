"""cuda.mig-devices: several MIG devices visible to one process, or MIG mode on without a MIG device.

NVIDIA's MIG User Guide ("CUDA Device Enumeration",
https://docs.nvidia.com/datacenter/tesla/mig-user-guide/mig-device-names.html): a CUDA process enumerates
a single MIG device, however many are created or passed to the container; a process picks its MIG device
with ``CUDA_VISIBLE_DEVICES=MIG-<uuid>`` (``nvidia-smi -L`` lists the UUIDs).  MIG devices have no
GPU-to-GPU peer access (the guide's "Application Considerations"), so one process cannot run DDP across
the MIG slices it was given: run one process per MIG device.  A GPU in MIG mode with no MIG device
created exposes no CUDA device at all.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import OBSERVED, env_known, input_name, state
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make

RULE = "cuda.mig-devices"
AREA = "cuda"
MIG_DOC = "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/mig-device-names.html"

_REMEDY = ("Run one process per MIG device and start each with CUDA_VISIBLE_DEVICES=MIG-<uuid> (nvidia-smi -L lists the UUIDs); "
           "in Kubernetes give each pod one MIG resource (nvidia.com/mig-<profile> with the device plugin's mixed strategy). "
           "For one job across several slices use separate processes with a CPU-capable backend (gloo), or disable MIG.",
           "每个 MIG 设备只运行一个进程，并以 CUDA_VISIBLE_DEVICES=MIG-<uuid> 启动（nvidia-smi -L 可列出 UUID）；"
           "在 Kubernetes 中每个 Pod 申请一个 MIG 资源（设备插件 mixed 策略下的 nvidia.com/mig-<profile>）。"
           "若一个作业要用多个切片，请用多个进程配合可在 CPU 上通信的后端（gloo），或关闭 MIG。")


def _describe(devices) -> tuple[str, str]:
    parts_en, parts_zh = [], []
    for d in devices:
        name = d.profile or "MIG"
        # a parent or index the input does not give (or gives as a negative number) is left out, never shown as "?"
        gpu = d.gpu_index if isinstance(d.gpu_index, int) and d.gpu_index >= 0 else None
        index = d.index if isinstance(d.index, int) and d.index >= 0 else None
        where_en = [f"GPU {gpu}"] if gpu is not None else []
        where_zh = list(where_en)
        if index is not None:
            where_en.append(f"device {index}")
            where_zh.append(f"设备 {index}")
        parts_en.append(f"{name} ({' '.join(where_en)})" if where_en else name)
        parts_zh.append(f"{name}（{' '.join(where_zh)}）" if where_zh else name)
    return ", ".join(parts_en), "、".join(parts_zh)


@rule(RULE, AREA, "One MIG device per process", "每个进程只使用一个多实例 GPU 切片", order=320, needs=("mig",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when two or more MIG devices are visible to the process (CUDA_VISIBLE_DEVICES not selecting one) or
    a GPU is in MIG mode with no MIG device; ok when exactly one MIG device is selected or visible; nothing without MIG."""
    facts = ctx.facts
    devices = list(facts.mig_devices)
    cvd = facts.env.get("CUDA_VISIBLE_DEVICES")
    mig_entries = [e.strip() for e in (cvd or "").split(",") if e.strip().startswith("MIG-")]
    mig_gpus = [g for g in facts.gpus if g.mig_mode]
    if not devices and not mig_entries:
        if mig_gpus and state(facts, "mig") == OBSERVED:
            names = ", ".join(f"GPU {g.index} ({g.name})" if g.name else f"GPU {g.index}" for g in mig_gpus)
            yield make(ctx, RULE, AREA, Severity.warning,
                       f"MIG mode is enabled on {names}, but no MIG device is visible: CUDA sees no device on a GPU in MIG mode "
                       f"until GPU and compute instances are created and passed to the container.",
                       f"{names} 已开启 MIG 模式，但看不到任何 MIG 设备：在创建 GPU 实例和计算实例并挂载到容器之前，CUDA 在 MIG 模式的 GPU 上看不到设备。",
                       remedy=("Create MIG instances (nvidia-smi mig -cgi <profiles> -C) and pass one to the container, or disable MIG "
                               "mode (nvidia-smi -i <gpu> -mig 0).",
                               "请创建 MIG 实例（nvidia-smi mig -cgi <profiles> -C）并挂载一个到容器，或关闭 MIG 模式（nvidia-smi -i <gpu> -mig 0）。"),
                       observed=Text("MIG mode on, no MIG device", "MIG 模式已开启，无 MIG 设备"), links=[MIG_DOC])
        return
    if len(mig_entries) == 1:
        yield make(ctx, RULE, AREA, Severity.ok, f"CUDA_VISIBLE_DEVICES selects one MIG device ({mig_entries[0]}).",
                   f"CUDA_VISIBLE_DEVICES 选定了一个 MIG 设备（{mig_entries[0]}）。", observed=cvd, links=[MIG_DOC])
        return
    if len(mig_entries) > 1:
        count, listed_en, listed_zh = len(mig_entries), ", ".join(mig_entries), "、".join(mig_entries)
        how_en, how_zh = f"CUDA_VISIBLE_DEVICES lists {count} MIG devices ({listed_en})", f"CUDA_VISIBLE_DEVICES 列出了 {count} 个 MIG 设备（{listed_zh}）"
    elif len(devices) == 1:
        en, zh = _describe(devices)
        yield make(ctx, RULE, AREA, Severity.ok, f"One MIG device is visible: {en}.", f"可见一个 MIG 设备：{zh}。", observed=en, links=[MIG_DOC])
        return
    else:
        count = len(devices)
        listed_en, listed_zh = _describe(devices)
        name = input_name(facts)
        source_en = f" ({name.en} lists them)" if facts.origin != "live" else ""
        source_zh = f"（{name.zh}中列出）" if facts.origin != "live" else ""
        if cvd is None and env_known(facts, "CUDA_VISIBLE_DEVICES"):
            sel_en, sel_zh = " and CUDA_VISIBLE_DEVICES is not set", "，且未设置 CUDA_VISIBLE_DEVICES"
        elif cvd is None:
            sel_en = f"; whether CUDA_VISIBLE_DEVICES selects one is not shown by {name.en}"
            sel_zh = f"；{name.zh}中看不出 CUDA_VISIBLE_DEVICES 是否选定了其中一个"
        else:
            sel_en, sel_zh = f" and CUDA_VISIBLE_DEVICES={cvd} names no MIG device", f"，且 CUDA_VISIBLE_DEVICES={cvd} 没有指定 MIG 设备"
        how_en = f"{count} MIG devices are visible to one process: {listed_en}{source_en}{sel_en}"
        how_zh = f"一个进程可以看到 {count} 个 MIG 设备：{listed_zh}{source_zh}{sel_zh}"
    yield make(ctx, RULE, AREA, Severity.warning,
               f"{how_en}. A CUDA process uses a single MIG device, so the others stay idle, and DDP across the MIG slices of one "
               f"process is not possible (MIG devices have no peer-to-peer access).",
               f"{how_zh}。一个 CUDA 进程只能使用一个 MIG 设备，其余设备闲置；也无法在同一进程内跨 MIG 切片做 DDP（MIG 设备之间没有点对点访问）。",
               remedy=_REMEDY, observed=Text(f"{count} MIG devices", f"{count} 个 MIG 设备"),
               expected=Text("one MIG device per process (CUDA_VISIBLE_DEVICES=MIG-<uuid>)", "每个进程一个 MIG 设备（CUDA_VISIBLE_DEVICES=MIG-<uuid>）"),
               links=[MIG_DOC])
