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
from lingjun.checks.rules._words import Words

RULE = "cuda.mig-devices"
AREA = "cuda"
MIG_DOC = "https://docs.nvidia.com/datacenter/tesla/mig-user-guide/mig-device-names.html"

WORDS = Words({
    "remedy": ("Run one process per MIG device and start each with CUDA_VISIBLE_DEVICES=MIG-<uuid> (nvidia-smi -L lists the UUIDs); "
               "in Kubernetes give each pod one MIG resource (nvidia.com/mig-<profile> with the device plugin's mixed strategy). "
               "For one job across several slices use separate processes with a CPU-capable backend (gloo), or disable MIG.",
               "每个 MIG 设备只运行一个进程，并以 CUDA_VISIBLE_DEVICES=MIG-<uuid> 启动（nvidia-smi -L 可列出 UUID）；"
               "在 Kubernetes 中每个 Pod 申请一个 MIG 资源（设备插件 mixed 策略下的 nvidia.com/mig-<profile>）。"
               "若一个作业要用多个切片，请用多个进程配合可在 CPU 上通信的后端（gloo），或关闭 MIG。"),
    "device": ("device {index}", "设备 {index}"),
    "described": ("{name} ({where})", "{name}（{where}）"),
    "no-device": ("MIG mode is enabled on {names}, but no MIG device is visible: CUDA sees no device on a GPU in MIG mode "
                  "until GPU and compute instances are created and passed to the container.",
                  "{names} 已开启 MIG 模式，但看不到任何 MIG 设备：在创建 GPU 实例和计算实例并挂载到容器之前，CUDA 在 MIG 模式的 GPU 上看不到设备。"),
    "no-device-remedy": ("Create MIG instances (nvidia-smi mig -cgi <profiles> -C) and pass one to the container, or disable MIG "
                         "mode (nvidia-smi -i <gpu> -mig 0).",
                         "请创建 MIG 实例（nvidia-smi mig -cgi <profiles> -C）并挂载一个到容器，或关闭 MIG 模式（nvidia-smi -i <gpu> -mig 0）。"),
    "no-device-observed": ("MIG mode on, no MIG device", "MIG 模式已开启，无 MIG 设备"),
    "selects-one": ("CUDA_VISIBLE_DEVICES selects one MIG device ({entry}).", "CUDA_VISIBLE_DEVICES 选定了一个 MIG 设备（{entry}）。"),
    "lists-several": ("CUDA_VISIBLE_DEVICES lists {count} MIG devices ({listed})", "CUDA_VISIBLE_DEVICES 列出了 {count} 个 MIG 设备（{listed}）"),
    "one-visible": ("One MIG device is visible: {described}.", "可见一个 MIG 设备：{described}。"),
    "source": (" ({name} lists them)", "（{name}中列出）"),
    "piece-none": ("", ""),
    "cvd-unset": (" and CUDA_VISIBLE_DEVICES is not set", "，且未设置 CUDA_VISIBLE_DEVICES"),
    "cvd-not-shown": ("; whether CUDA_VISIBLE_DEVICES selects one is not shown by {name}", "；{name}中看不出 CUDA_VISIBLE_DEVICES 是否选定了其中一个"),
    "cvd-no-mig": (" and CUDA_VISIBLE_DEVICES={cvd} names no MIG device", "，且 CUDA_VISIBLE_DEVICES={cvd} 没有指定 MIG 设备"),
    "several-visible": ("{count} MIG devices are visible to one process: {listed}{source}{selection}",
                        "一个进程可以看到 {count} 个 MIG 设备：{listed}{source}{selection}"),
    "several": ("{how}. A CUDA process uses a single MIG device, so the others stay idle, and DDP across the MIG slices of one "
                "process is not possible (MIG devices have no peer-to-peer access).",
                "{how}。一个 CUDA 进程只能使用一个 MIG 设备，其余设备闲置；也无法在同一进程内跨 MIG 切片做 DDP（MIG 设备之间没有点对点访问）。"),
    "several-observed": ("{count} MIG devices", "{count} 个 MIG 设备"),
    "several-expected": ("one MIG device per process (CUDA_VISIBLE_DEVICES=MIG-<uuid>)", "每个进程一个 MIG 设备（CUDA_VISIBLE_DEVICES=MIG-<uuid>）"),
})


def _listed(items: "list[str]") -> Text:
    """Items listed in each language's way: ", " between English ones, "、" between Chinese ones."""
    return Text(", ".join(items), "、".join(items))


def _describe(devices) -> Text:
    """The MIG devices as "1g.10gb (GPU 0 device 1), ...", both languages."""
    parts = []
    for d in devices:
        name = d.profile or "MIG"
        # a parent or index the input does not give (or gives as a negative number) is left out, never shown as "?"
        gpu = d.gpu_index if isinstance(d.gpu_index, int) and d.gpu_index >= 0 else None
        index = d.index if isinstance(d.index, int) and d.index >= 0 else None
        where = [Text(f"GPU {gpu}", f"GPU {gpu}")] if gpu is not None else []
        if index is not None:
            where.append(WORDS("device", index=index))
        parts.append(WORDS("described", name=name, where=Text(" ".join(w.en for w in where), " ".join(w.zh for w in where)))
                     if where else Text(name, name))
    return Text(", ".join(p.en for p in parts), "、".join(p.zh for p in parts))


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
            yield make(ctx, RULE, AREA, Severity.warning, WORDS("no-device", names=names), remedy=WORDS("no-device-remedy"),
                       observed=WORDS("no-device-observed"), links=[MIG_DOC])
        return
    if len(mig_entries) == 1:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("selects-one", entry=mig_entries[0]), observed=cvd, links=[MIG_DOC])
        return
    if len(mig_entries) > 1:
        count = len(mig_entries)
        how = WORDS("lists-several", count=count, listed=_listed(mig_entries))
    elif len(devices) == 1:
        described = _describe(devices)
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("one-visible", described=described), observed=described.en, links=[MIG_DOC])
        return
    else:
        count = len(devices)
        how = _several_visible(ctx, devices, cvd)
    yield make(ctx, RULE, AREA, Severity.warning, WORDS("several", how=how), remedy=WORDS("remedy"),
               observed=WORDS("several-observed", count=count), expected=WORDS("several-expected"), links=[MIG_DOC])


def _several_visible(ctx: CheckContext, devices: list, cvd: "str | None") -> Text:
    """"N MIG devices are visible to one process: ...", naming the input that lists them and what CUDA_VISIBLE_DEVICES
    (``cvd``, None when unset or not shown) does."""
    facts = ctx.facts
    name = input_name(facts)
    source = WORDS("source", name=name) if facts.origin != "live" else WORDS("piece-none")
    if cvd is None and env_known(facts, "CUDA_VISIBLE_DEVICES"):
        selection = WORDS("cvd-unset")
    elif cvd is None:
        selection = WORDS("cvd-not-shown", name=name)
    else:
        selection = WORDS("cvd-no-mig", cvd=cvd)
    return WORDS("several-visible", count=len(devices), listed=_describe(devices), source=source, selection=selection)
