"""cuda.compute-capability: the GPUs' compute capability is covered by torch, the release and the image's CUDA.

Three statements are read for each GPU model: torch's arch list (``torch.cuda.get_arch_list()``), the release's
stated GPU support (``gpu_support`` of its record), and the first CUDA that supports the architecture
(:func:`lingjun.checks.core.gpu_arch.min_cuda_for_cc`, after
https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/) against the image's and torch's CUDA.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import max_native_cuda, parse_cuda
from lingjun.checks.core.gpu_arch import (
    architecture,
    cc_text,
    covers,
    max_arch,
    min_cuda_for_cc,
    parse_cc,
    sm_name,
)
from lingjun.checks.core.gpu_models import compute_capability_from_name
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.knowledge.release_record import GpuSupport
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import RELEASE_RECORD, driver_cuda, image_cuda
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._remedies import architecture_remedy
from lingjun.checks.rules._words import Words

RULE = "cuda.compute-capability"
AREA = "cuda"
NONE = Text("", "")

WORDS = Words({
    "no-cc": ("No GPU compute capability was reported.", "未获得 GPU 的计算能力（compute capability）。"),
    "not-in-arch-list": ("{sm} is not in torch's arch list (highest {top})", "torch 的架构列表不含 {sm}（最高为 {top}）"),
    "release-ccs": ("the release supports compute capability {ccs} only", "该发布只支持计算能力 {ccs}"),
    "release-archs": ("the release supports {archs} GPUs only", "该发布只支持 {archs} 架构 GPU"),
    "image-cuda": ("the image's CUDA {cuda} ({source})", "镜像的 CUDA {cuda}（{source}）"),
    "torch-cuda": ("torch's CUDA {cuda}", "torch 的 CUDA {cuda}"),
    "predates": ("{label} predates CUDA {needed}, the first to support {sm}", "{label} 早于支持 {sm} 的首个版本 CUDA {needed}"),
    "toolkit": ("CUDA toolkit {cuda} ({source})", "CUDA 工具包 {cuda}（{source}）"),
    "toolkit-only": (
        "torch's CUDA {torch_cuda} supports {name} ({sm}), but the {toolkit} predates CUDA {needed}: "
        "CUDA extensions compiled with it cannot target this GPU.",
        "torch 的 CUDA {torch_cuda} 支持 {name}（{sm}），但{toolkit}早于 CUDA {needed}：用它编译的 CUDA 扩展无法面向该 GPU。"),
    "toolkit-only-remedy": ("Use a CUDA toolkit {needed} or later to build extensions.", "请使用 CUDA {needed} 或更高版本的工具包编译扩展。"),
    "from-name": (", from the model name", "，由型号名得出"),
    "unsupported": (
        "{name} (compute capability {cc}{arch}{from_name}) is not supported here: "
        "{problems}. Kernels fail with \"no kernel image is available for execution on the device\".",
        "{name}（计算能力 {cc}{arch}{from_name}）在此环境中不受支持：{problems}"
        "。运行时会报 “no kernel image is available for execution on the device”。"),
    "ok": ("GPU architecture supported: {listed}.", "GPU 架构受支持：{listed}。"),
    "not-checked": ("Neither torch's arch list, the release's GPU support nor a CUDA version is known; "
                    "GPU architecture coverage not checked.", "torch 架构列表、发布的 GPU 支持范围和 CUDA 版本均未知，未检查 GPU 架构支持。"),
})


class _Known(NamedTuple):
    """What the report says the GPUs are checked against; empty lists and None where not known."""

    arch_list: list            # torch's arch list ("sm_90", "compute_90")
    ccs: list                  # the release's compute capabilities ("9.0")
    archs: list                # the release's architectures ("hopper")
    complete: bool             # the release's list is complete: "not listed" means "unsupported"
    cuda: object               # the image's CUDA (CudaVersion) or None
    cuda_from: Text            # where the image's CUDA comes from
    torch_cuda: object         # torch's CUDA (CudaVersion) or None


class _Coverage(NamedTuple):
    """One GPU model against what is known: whether anything was checked, the problems, and the toolkits that cannot
    build for it while torch's own CUDA can (an info, not an error)."""

    checked: bool
    problems: list             # Text clauses
    toolkit_only: list         # Text toolkit names


def _gpus(ctx: CheckContext) -> "tuple[dict, set]":
    """compute capability -> the first GPU name with it, and the capabilities read off the model name only
    (collect_env pastes give only names; gpu_models)."""

    gpus: dict = {}
    from_name: set = set()
    for gpu in ctx.facts.gpus:
        cc = parse_cc(gpu.compute_capability)
        if cc is None:
            cc = parse_cc(compute_capability_from_name(gpu.name, ctx.data.gpus))
            if cc is not None and cc not in gpus:
                from_name.add(cc)
        else:
            from_name.discard(cc)
        if cc is not None:
            gpus.setdefault(cc, gpu.name or "GPU")
    return gpus, from_name


def _known(ctx: CheckContext) -> _Known:
    torch = ctx.facts.torch
    support = (ctx.record.gpu_support if ctx.record is not None else None) or GpuSupport()
    cuda, cuda_from = image_cuda(ctx)
    # only a complete statement makes "not listed" mean "unsupported"; a partial one (new support announced) confirms
    # what it names and says nothing about the rest
    return _Known(
        arch_list=list(torch.arch_list) if torch else [],
        ccs=list(support.compute_capabilities),
        archs=list(support.architectures),
        complete=support.list_state == "complete",
        cuda=cuda, cuda_from=cuda_from,
        torch_cuda=parse_cuda(torch.cuda) if torch and torch.cuda else None,
    )


def _torch_arch(known: _Known, cc) -> _Coverage:
    ok = covers(known.arch_list, cc) if known.arch_list else None
    if ok is None:
        return _Coverage(False, [], [])
    problems = [] if ok else [WORDS("not-in-arch-list", sm=sm_name(cc), top=max_arch(known.arch_list))]
    return _Coverage(True, problems, [])


def _release(known: _Known, cc) -> _Coverage:
    arch = architecture(cc)
    if known.ccs:
        listed = cc_text(cc) in known.ccs
        problem = WORDS("release-ccs", ccs=", ".join(known.ccs))
    elif known.archs and arch:
        listed = arch in known.archs
        shown = [a.capitalize() for a in known.archs]  # display names: Blackwell, Hopper
        problem = WORDS("release-archs", archs=Text(", ".join(shown), "、".join(shown)))
    else:
        return _Coverage(False, [], [])
    return _Coverage(known.complete or listed, [] if listed or not known.complete else [problem], [])


def _cuda(known: _Known, cc) -> _Coverage:
    """The image's and torch's CUDA against the first CUDA that supports ``cc``."""

    needed = min_cuda_for_cc(cc)
    if not needed:
        return _Coverage(False, [], [])
    cuda, torch_cuda = known.cuda, known.torch_cuda
    torch_covers = torch_cuda is not None and torch_cuda.major_minor >= needed
    # the image's CUDA from the release record is what the image's own builds use; a toolkit found in the
    # environment (nvcc, a collect_env "CUDA runtime version") only compiles extensions
    cuda_is_record = known.cuda_from == RELEASE_RECORD
    checked, problems, toolkit_only = False, [], []
    for version, label in ((cuda, WORDS("image-cuda", cuda=cuda, source=known.cuda_from)),
                           (torch_cuda, WORDS("torch-cuda", cuda=torch_cuda))):
        if version is None:
            continue
        checked = True
        if version.major_minor >= needed:
            continue
        if version is cuda and not cuda_is_record and torch_covers:
            toolkit_only.append(WORDS("toolkit", cuda=cuda, source=known.cuda_from))
        else:
            problems.append(WORDS("predates", label=label, needed=f"{needed[0]}.{needed[1]}", sm=sm_name(cc)))
    return _Coverage(checked, problems, toolkit_only)


def _coverage(known: _Known, cc) -> _Coverage:
    parts = (_torch_arch(known, cc), _release(known, cc), _cuda(known, cc))
    return _Coverage(any(p.checked for p in parts), [c for p in parts for c in p.problems],
                     [t for p in parts for t in p.toolkit_only])


def _toolkit_only(ctx: CheckContext, known: _Known, cc, name: str, toolkit: Text) -> Finding:
    needed = min_cuda_for_cc(cc)
    need = f"{needed[0]}.{needed[1]}"
    return make(ctx, RULE, AREA, Severity.info,
                WORDS("toolkit-only", torch_cuda=known.torch_cuda, name=name, sm=sm_name(cc), toolkit=toolkit, needed=need),
                remedy=WORDS("toolkit-only-remedy", needed=need),
                observed=f"{name}: {sm_name(cc)}", expected=f"CUDA >= {need}")


def _unsupported(ctx: CheckContext, cc, name: str, problems: list, from_name: bool) -> Finding:
    runs, _ = driver_cuda(ctx, max_native_cuda)
    torch = ctx.facts.torch
    arch, needed = architecture(cc), min_cuda_for_cc(cc)
    return make(ctx, RULE, AREA, Severity.error,
                WORDS("unsupported", name=name, cc=cc_text(cc), arch=Text(f", {arch.capitalize()}", "") if arch else NONE,
                      from_name=WORDS("from-name") if from_name else NONE,
                      problems=Text("; ".join(p.en for p in problems), "；".join(p.zh for p in problems))),
                remedy=architecture_remedy(ctx, torch.version if torch else None, needed,
                                           runs.major_minor if runs is not None else None),
                observed=f"{name}: {sm_name(cc)}", expected=f"CUDA >= {needed[0]}.{needed[1]}" if needed else None)


@rule(RULE, AREA, "GPU architecture supported", "GPU 架构受支持", needs_gpu=True, order=110)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error per GPU model whose compute capability is missing from torch's arch list, outside the release's
    stated GPU support, or newer than the image's (or torch's) CUDA can build for; ok when all checks pass.
    A GPU reported without its compute capability (collect_env) gets it from the model name (gpu_models)."""
    if is_ppu(ctx.record):
        return
    gpus, from_name = _gpus(ctx)
    if not gpus:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-cc"))
        return
    known = _known(ctx)
    checked_any = failed = False
    for cc, name in sorted(gpus.items()):
        coverage = _coverage(known, cc)
        checked_any = checked_any or coverage.checked
        for toolkit in coverage.toolkit_only:
            yield _toolkit_only(ctx, known, cc, name, toolkit)
        if coverage.problems:
            failed = True
            yield _unsupported(ctx, cc, name, coverage.problems, cc in from_name)
    if checked_any and not failed:
        listed = ", ".join(f"{n} ({cc_text(c)})" for c, n in sorted(gpus.items()))
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", listed=listed), observed=listed)
    elif not checked_any:
        yield make(ctx, RULE, AREA, Severity.info, WORDS("not-checked"))
