"""cuda.compute-capability: the GPUs' compute capability is covered by torch, the release and the image's CUDA."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make

RULE = "cuda.compute-capability"
AREA = "cuda"


@rule(RULE, AREA, "GPU architecture supported", "GPU 架构受支持", needs_gpu=True, order=110)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error per GPU model whose compute capability is missing from torch's arch list, outside the release's
    stated GPU support, or newer than the image's (or torch's) CUDA can build for; ok when all checks pass.
    A GPU reported without its compute capability (collect_env) gets it from the model name (gpu_models)."""
    from lingjun.checks.core.compat import parse_cuda
    from lingjun.checks.core.gpu_arch import architecture, cc_text, covers, max_arch, min_cuda_for_cc, parse_cc, sm_name
    from lingjun.checks.core.compat import max_native_cuda
    from lingjun.checks.rules._driver_facts import RELEASE_RECORD, driver_cuda, image_cuda
    from lingjun.checks.rules._remedies import architecture_remedy, remedy_pair

    runs, _ = driver_cuda(ctx, max_native_cuda)
    at_most = runs.major_minor if runs is not None else None

    if is_ppu(ctx.record):
        return
    from lingjun.checks.core.gpu_models import compute_capability_from_name

    gpus = {}
    from_name: set = set()  # compute capabilities read off the model name (collect_env pastes give only names)
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
    if not gpus:
        yield make(ctx, RULE, AREA, Severity.skipped, "No GPU compute capability was reported.", "未获得 GPU 的计算能力（compute capability）。")
        return
    torch = ctx.facts.torch
    arch_list = list(torch.arch_list) if torch else []
    support = (ctx.record or {}).get("gpu_support") or {}
    # only a complete statement makes "not listed" mean "unsupported"; a partial one (new support announced) confirms
    # what it names and says nothing about the rest
    complete_list = support.get("list_state") == "complete"
    cuda, cuda_from = image_cuda(ctx)
    torch_cuda = parse_cuda(torch.cuda) if torch and torch.cuda else None
    checked_any = False
    failed = False
    for cc, name in sorted(gpus.items()):
        problems_en: list[str] = []
        problems_zh: list[str] = []
        arch = architecture(cc)
        if arch_list:
            ok = covers(arch_list, cc)
            if ok is not None:
                checked_any = True
                if not ok:
                    top = max_arch(arch_list)
                    problems_en.append(f"{sm_name(cc)} is not in torch's arch list (highest {top})")
                    problems_zh.append(f"torch 的架构列表不含 {sm_name(cc)}（最高为 {top}）")
        ccs = [c for c in support.get("compute_capabilities") or [] if isinstance(c, str)]
        archs = [a for a in support.get("architectures") or [] if isinstance(a, str)]
        if ccs:
            checked_any = checked_any or complete_list or cc_text(cc) in ccs
            if cc_text(cc) not in ccs and complete_list:
                problems_en.append(f"the release supports compute capability {', '.join(ccs)} only")
                problems_zh.append(f"该发布只支持计算能力 {', '.join(ccs)}")
        elif archs and arch:
            checked_any = checked_any or complete_list or arch in archs
            if arch not in archs and complete_list:
                shown = ", ".join(a.capitalize() for a in archs)  # display names: Blackwell, Hopper
                problems_en.append(f"the release supports {shown} GPUs only")
                problems_zh.append(f"该发布只支持 {'、'.join(a.capitalize() for a in archs)} 架构 GPU")
        needed = min_cuda_for_cc(cc)
        toolkit_only: list[tuple[str, str]] = []  # an nvcc that cannot build for the GPU while torch's own CUDA can
        if needed:
            torch_covers = torch_cuda is not None and torch_cuda.major_minor >= needed
            # the image's CUDA from the release record is what the image's own builds use; a toolkit found in the
            # environment (nvcc, a collect_env "CUDA runtime version") only compiles extensions
            cuda_is_record = cuda_from == RELEASE_RECORD
            for version, label, label_zh in ((cuda, f"the image's CUDA {cuda} ({cuda_from.en})", f"镜像的 CUDA {cuda}（{cuda_from.zh}）"),
                                             (torch_cuda, f"torch's CUDA {torch_cuda}", f"torch 的 CUDA {torch_cuda}")):
                if version is None:
                    continue
                checked_any = True
                if version.major_minor < needed:
                    if version is cuda and not cuda_is_record and torch_covers:
                        toolkit_only.append((f"CUDA toolkit {cuda} ({cuda_from.en})", f"CUDA 工具包 {cuda}（{cuda_from.zh}）"))
                        continue
                    problems_en.append(f"{label} predates CUDA {needed[0]}.{needed[1]}, the first to support {sm_name(cc)}")
                    problems_zh.append(f"{label_zh} 早于支持 {sm_name(cc)} 的首个版本 CUDA {needed[0]}.{needed[1]}")
        for en, zh in toolkit_only:
            yield make(
                ctx, RULE, AREA, Severity.info,
                f"torch's CUDA {torch_cuda} supports {name} ({sm_name(cc)}), but the {en} predates CUDA {needed[0]}.{needed[1]}: "
                f"CUDA extensions compiled with it cannot target this GPU.",
                f"torch 的 CUDA {torch_cuda} 支持 {name}（{sm_name(cc)}），但{zh}早于 CUDA {needed[0]}.{needed[1]}：用它编译的 CUDA 扩展无法面向该 GPU。",
                remedy=(f"Use a CUDA toolkit {needed[0]}.{needed[1]} or later to build extensions.",
                        f"请使用 CUDA {needed[0]}.{needed[1]} 或更高版本的工具包编译扩展。"),
                observed=f"{name}: {sm_name(cc)}", expected=f"CUDA >= {needed[0]}.{needed[1]}",
            )
        if problems_en:
            failed = True
            yield make(
                ctx, RULE, AREA, Severity.error,
                f"{name} (compute capability {cc_text(cc)}{', ' + arch.capitalize() if arch else ''}"
                f"{', from the model name' if cc in from_name else ''}) is not supported here: "
                + "; ".join(problems_en) + ". Kernels fail with \"no kernel image is available for execution on the device\".",
                f"{name}（计算能力 {cc_text(cc)}{'，由型号名得出' if cc in from_name else ''}）在此环境中不受支持：" + "；".join(problems_zh)
                + "。运行时会报 “no kernel image is available for execution on the device”。",
                remedy=remedy_pair(architecture_remedy(ctx, torch.version if torch else None, needed, at_most)),
                observed=f"{name}: {sm_name(cc)}",
                expected=(f"CUDA >= {needed[0]}.{needed[1]}" if needed else None),
            )
    if checked_any and not failed:
        listed = ", ".join(f"{n} ({cc_text(c)})" for c, n in sorted(gpus.items()))
        yield make(ctx, RULE, AREA, Severity.ok, f"GPU architecture supported: {listed}.", f"GPU 架构受支持：{listed}。",
                   observed=listed)
    elif not checked_any:
        yield make(ctx, RULE, AREA, Severity.info, "Neither torch's arch list, the release's GPU support nor a CUDA version is known; "
                   "GPU architecture coverage not checked.", "torch 架构列表、发布的 GPU 支持范围和 CUDA 版本均未知，未检查 GPU 架构支持。")
