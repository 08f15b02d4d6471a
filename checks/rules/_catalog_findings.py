"""The findings of ``evidence.error-lines`` for lines the error catalogs name (an Xid, a CUDA, NVML, cuBLAS or cuDNN
error, an NCCL warning, an nvidia-container-cli message) that no error signature holds: what the entry is, from which
catalog and edition, and what to do.

The decision is the catalog's (:mod:`lingjun.checks.knowledge.catalog_lines`); this module words it.  ``WORDS`` holds
the sentences; ``CLASS_WORDS`` what each class of CUDA error usually comes from and the least change that fixes it.
"""

from __future__ import annotations

import os
from typing import Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.redaction import mask_identifiers, mask_secrets
from lingjun.checks.evidence import CatalogHit
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

__all__ = ["catalog_findings", "WORDS", "CLASS_WORDS"]

WORDS = Words({
    "shows": ("{where} shows: \u00ab{line}\u00bb", "{where} 显示：\u00ab{line}\u00bb"),
    "more": (" ({count} such lines)", "（共 {count} 行）"),
    "xid": ("Xid {xid}, {name}, in NVIDIA's Xid catalog ({edition}): {meaning}",
            "Xid {xid}（{name}），见 NVIDIA Xid 目录（{edition}）：{meaning}"),
    "xid-action": ("NVIDIA's immediate action: {action}", "NVIDIA 建议的立即处理：{action}"),
    "xid-unknown": ("Xid {xid} is not in NVIDIA's Xid catalog as of {edition}: the GPU's kernel module reported an "
                    "error this catalog does not describe",
                    "截至 {edition}，NVIDIA Xid 目录中没有 Xid {xid}：GPU 内核模块报告了一个该目录未描述的错误"),
    "xid-unknown-remedy": ("On the host, collect `nvidia-bug-report.sh` and the full `dmesg`, look the number up in "
                           "NVIDIA's Xid documentation for the host's driver, and keep the GPU out of jobs (kubectl "
                           "cordon NODE) until it is understood.",
                           "在宿主机上收集 `nvidia-bug-report.sh` 和完整的 `dmesg`，按宿主机驱动版本在 NVIDIA 的 Xid 文档中查找该编号，"
                           "弄清之前不要让该 GPU 运行任务（kubectl cordon NODE）。"),
    "cuda": ("{api} error {code}, {name} (\u201c{message}\u201d): {meaning}",
             "{api}错误 {code}，{name}（\u201c{message}\u201d）：{meaning}"),
    "cuda-no-message": ("{api} error {code}, {name}: {meaning}", "{api}错误 {code}，{name}：{meaning}"),
    "status": ("{api} status {code}, {name}: {meaning}", "{api}状态码 {code}，{name}：{meaning}"),
    "status-older": ("{api} status {code}, {name} (older releases name it {older}): {meaning}",
                     "{api}状态码 {code}，{name}（旧版本称为 {older}）：{meaning}"),
    "cuda-unknown": ("A {api} error the catalog ({edition}) does not name: \u201c{text}\u201d. The job failed on it",
                     "目录（{edition}）中没有的{api}错误：\u201c{text}\u201d。任务因此失败"),
    "cuda-class": ("Usually: {cause}", "通常原因：{cause}"),
    "cuda-shared-message": ("CUDA prints the same message for {others}, and the line shows only the message, so it may "
                            "be that one", "CUDA 对 {others} 也打印同样的消息，而该行只显示了消息，因此也可能是后者"),
    "cuda-signature": ("The error line's own entry holds its causes in detail", "该错误行有单独的条目，详细列出了原因"),
    "api-runtime": ("CUDA runtime", "CUDA 运行时"),
    "api-driver": ("CUDA driver API", "CUDA 驱动 API "),
    "api-nvml": ("NVML", "NVML "),
    "api-cublas": ("cuBLAS", "cuBLAS "),
    "api-cudnn": ("cuDNN", "cuDNN "),
    "nccl": ("An NCCL warning of its {subsystem} ({file}, printed by NCCL {since} to {until}): {points_to}",
             "NCCL {subsystem}发出的警告（{file}，NCCL {since} 至 {until} 会打印）：{points_to}"),
    "nccl-macro": ("An NCCL warning of its {subsystem} ({printed}, by a macro of {file} printed by NCCL {since} to "
                   "{until}): {points_to}",
                   "NCCL {subsystem}发出的警告（{printed}，由 {file} 中的宏打印，NCCL {since} 至 {until} 会打印）：{points_to}"),
    "nccl-file": ("An NCCL warning of its {subsystem} ({file}); this message is not among the {count} warnings of "
                  "{edition}: {points_to}",
                  "NCCL {subsystem}发出的警告（{file}）；该消息不在 {edition} 的 {count} 条警告中：{points_to}"),
    "nccl-unknown": ("An NCCL warning that is not among the {count} warnings of {edition}, from a source file the "
                     "catalog does not place: NCCL stopped or degraded an operation",
                     "一条不在 {edition} 的 {count} 条警告中的 NCCL 警告，且其源文件无法归入已知子系统：NCCL 中止或降级了某项操作"),
    "nccl-unknown-remedy": ("Rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET and read the lines before this "
                            "warning: they name the transport, the interfaces and the devices NCCL chose.",
                            "设置 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET 重新运行，并查看该警告之前的行：它们给出了 NCCL 选择的传输方式、网卡和设备。"),
    "nccl-unknown-remedy-shown": ("Read the NCCL INFO lines this log already holds before the warning (the first at "
                                  "{where}): the Bootstrap and NET lines name the transport, the interfaces and the "
                                  "devices NCCL chose; check the address or device the warning names against them.",
                                  "阅读本日志中该警告之前已有的 NCCL INFO 行（第一行在 {where}）：Bootstrap 与 NET 行给出了 NCCL "
                                  "选择的传输方式、网卡和设备；用它们核对警告中的地址或设备。"),
    "nccl-errno": ("the line's errno {errno} ({name}, {message}): {points_to} In general, for this part of NCCL: {general}",
                   "该行给出的 errno {errno}（{name}，{message}）：{points_to}NCCL 这一部分的一般情况：{general}"),
    "nccl-cuda": ("It quotes {cuda}", "其中引用了{cuda}"),
    "cli": ("nvidia-container-cli (the NVIDIA Container Toolkit's prestart hook) failed{stage}: \u201c{format}\u201d "
            "({file}, printed by libnvidia-container {since} to {until}) is a message of its part \u201c{subsystem}\u201d "
            "in the catalog of {edition}: {points_to}",
            "nvidia-container-cli（NVIDIA Container Toolkit 的 prestart hook）失败{stage}：\u201c{format}\u201d"
            "（{file}，libnvidia-container {since} 至 {until} 会打印）属于其\u201c{subsystem}\u201d部分，见 {edition} 的目录：{points_to}"),
    "cli-stage": (" at its '{stage}' stage", "，阶段为 '{stage}'"),
    "cli-unknown": ("nvidia-container-cli (the NVIDIA Container Toolkit's prestart hook) failed at its '{stage}' stage, "
                    "with a message that is not among the {count} messages of {edition}: {points_to}",
                    "nvidia-container-cli（NVIDIA Container Toolkit 的 prestart hook）在 '{stage}' 阶段失败，其消息不在 "
                    "{edition} 的 {count} 条消息中：{points_to}"),
})

#: class of CUDA/NVML error -> (the usual cause, the least change that fixes it), each ``(en, zh)``
CLASS_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "driver-install": (
        ("the container sees no usable NVIDIA driver (not mounted into the container, not loaded on the host, or "
         "its user-space library differs from the kernel module)",
         "容器看不到可用的 NVIDIA 驱动（未挂载进容器、宿主机未加载，或用户态库与内核模块版本不一致）"),
        ("Run `nvidia-smi` inside the container: start it with `--gpus all` (Docker) or request `nvidia.com/gpu` in the "
         "pod's resources.limits; after a driver upgrade on the host, reboot the host or reload the module so "
         "library and module match.",
         "在容器内运行 `nvidia-smi`：以 `--gpus all`（Docker）启动，或在 Pod 的 resources.limits 中申请 `nvidia.com/gpu`；"
         "宿主机升级驱动后，重启宿主机或重新加载内核模块，使库与模块版本一致。")),
    "driver-too-old": (
        ("the host's driver is older than the CUDA the program was built for",
         "宿主机驱动比程序构建所用的 CUDA 更旧"),
        ("Compare `nvidia-smi`'s driver with the image's CUDA (lingjun-check names the oldest supported branch that "
         "suffices); upgrade the host driver, or use an image release built on an older CUDA.",
         "对照 `nvidia-smi` 显示的驱动与镜像的 CUDA 版本（lingjun-check 会给出满足要求的最旧受支持分支）；升级宿主机驱动，"
         "或改用基于更旧 CUDA 构建的镜像版本。")),
    "forward-compat": (
        ("CUDA forward compatibility (the image's cuda-compat package) was tried on a GPU or driver it does not "
         "support: it works on data center GPUs only, with a supported driver branch",
         "在不支持的 GPU 或驱动上尝试了 CUDA 向前兼容（镜像的 cuda-compat 包）：它只适用于数据中心 GPU 及受支持的驱动分支"),
        ("On a GeForce/RTX workstation GPU, upgrade the host driver to one that runs the image's CUDA natively; on a "
         "data center GPU, use a driver branch NVIDIA lists for forward compatibility.",
         "在 GeForce/RTX 工作站 GPU 上，把宿主机驱动升级到能原生运行镜像 CUDA 的版本；在数据中心 GPU 上，使用 NVIDIA 列出的支持向前兼容的驱动分支。")),
    "no-device": (
        ("no GPU is visible to the process, or the one asked for is not (CUDA_VISIBLE_DEVICES, the pod's GPU "
         "request, a GPU in exclusive mode or taken by another process)",
         "进程看不到 GPU，或看不到所请求的那块（CUDA_VISIBLE_DEVICES、Pod 的 GPU 申请、GPU 处于独占模式或被其他进程占用）"),
        ("Check `nvidia-smi -L` and CUDA_VISIBLE_DEVICES inside the container; request the GPUs in the pod's "
         "resources.limits (`nvidia.com/gpu: N`) and keep LOCAL_RANK below that count; `nvidia-smi -q -d COMPUTE` "
         "shows an exclusive compute mode.",
         "在容器内检查 `nvidia-smi -L` 与 CUDA_VISIBLE_DEVICES；在 Pod 的 resources.limits 中申请 GPU（`nvidia.com/gpu: N`），"
         "并让 LOCAL_RANK 小于该数量；`nvidia-smi -q -d COMPUTE` 可看出是否为独占计算模式。")),
    "memory": (
        ("GPU (or pinned host) memory ran out: the model, batch or cache does not fit beside what else holds memory "
         "on that GPU",
         "GPU（或锁页主机）内存耗尽：模型、批大小或缓存放不下，或同一 GPU 上还有其他占用"),
        ("See `nvidia-smi` for other processes on the GPU; lower the batch size or sequence length, or vLLM's "
         "`--gpu-memory-utilization`/`--max-model-len`; set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against "
         "fragmentation.",
         "用 `nvidia-smi` 查看该 GPU 上的其他进程；减小批大小或序列长度，或调低 vLLM 的 `--gpu-memory-utilization`/`--max-model-len`；"
         "碎片化时设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True。")),
    "kernel-fault": (
        ("a kernel faulted on the GPU (a bad address, an assert, a launch that failed): most often the program or a "
         "library it loads, sometimes a faulty GPU (then an Xid in the host's dmesg follows the GPU)",
         "GPU 上的内核出错（错误地址、断言、启动失败）：多数是程序或其加载的库的问题，有时是 GPU 故障（此时宿主机 dmesg 中的 Xid 会跟随该 GPU）"),
        ("Rerun with CUDA_LAUNCH_BLOCKING=1 to see the kernel that fails, then under `compute-sanitizer --tool memcheck`; "
         "check the host's `dmesg` for an Xid on the same GPU; the image's own builds of torch and its extensions are "
         "built for its CUDA: use a fresh container rather than rebuilt packages.",
         "设置 CUDA_LAUNCH_BLOCKING=1 重新运行以找到出错的内核，再用 `compute-sanitizer --tool memcheck` 运行；检查宿主机 `dmesg` "
         "中同一 GPU 是否有 Xid；镜像自带的 torch 及扩展是针对其 CUDA 构建的：请使用全新容器，而不是自行重编的包。")),
    "launch-config": (
        ("the binary holds no kernel for this GPU's architecture, or the launch asks for more than the GPU gives "
         "(threads, registers, shared memory)",
         "二进制中没有适用于该 GPU 架构的内核，或启动请求超出了 GPU 的能力（线程、寄存器、共享内存）"),
        ("Compare the GPU's compute capability (`nvidia-smi --query-gpu=compute_cap --format=csv`) with the "
         "architectures torch and the failing library were built for (`torch.cuda.get_arch_list()`); use an image "
         "built for this GPU.",
         "对照 GPU 的计算能力（`nvidia-smi --query-gpu=compute_cap --format=csv`）与 torch 及出错库所构建的架构"
         "（`torch.cuda.get_arch_list()`）；使用针对该 GPU 构建的镜像。")),
    "toolchain": (
        ("PTX could not be compiled for this GPU by the driver's JIT: the PTX is newer than the driver, or the "
         "toolchain is missing or mismatched",
         "驱动的 JIT 无法为该 GPU 编译 PTX：PTX 比驱动更新，或工具链缺失、不匹配"),
        ("Upgrade the host driver to one at least as new as the CUDA that produced the PTX, or use an image "
         "whose libraries ship native code (SASS) for this GPU.",
         "把宿主机驱动升级到不低于生成该 PTX 的 CUDA 所需版本，或使用其库为该 GPU 提供原生代码（SASS）的镜像。")),
    "ecc-hardware": (
        ("the GPU reported a hardware fault (an uncorrectable ECC error, a hardware stack error): the GPU, not the "
         "program",
         "GPU 报告了硬件故障（不可纠正的 ECC 错误、硬件栈错误）：问题在 GPU 而非程序"),
        ("Drain the node (kubectl drain NODE --ignore-daemonsets) and have its operator check `nvidia-smi -q -d "
         "ECC,ROW_REMAPPER` and the host's dmesg for Xid 48/63/64/94/95; reset the GPU or replace it as NVIDIA's Xid "
         "catalog says.",
         "排空该节点（kubectl drain NODE --ignore-daemonsets），由运维检查 `nvidia-smi -q -d ECC,ROW_REMAPPER` 以及宿主机 dmesg 中的 "
         "Xid 48/63/64/94/95；按 NVIDIA Xid 目录的说明重置或更换 GPU。")),
    "nvlink-fabric": (
        ("the NVLink fabric is not ready or failed: on NVSwitch systems (HGX, DGX) the fabric manager is not "
         "running or does not match the driver",
         "NVLink 互联未就绪或出错：在 NVSwitch 系统（HGX、DGX）上，fabric manager 未运行或与驱动版本不一致"),
        ("On the host: `systemctl status nvidia-fabricmanager` (start it; its version must equal the driver's), and "
         "`nvidia-smi -q | grep -i fabric` for the GPU's fabric state.",
         "在宿主机上：`systemctl status nvidia-fabricmanager`（启动它；其版本必须与驱动一致），并用 "
         "`nvidia-smi -q | grep -i fabric` 查看 GPU 的 fabric 状态。")),
    "peer-access": (
        ("peer-to-peer access between two GPUs was refused or is not supported by their topology",
         "两块 GPU 之间的点对点访问被拒绝，或其拓扑不支持"),
        ("See `nvidia-smi topo -m`; as a diagnostic run with NCCL_P2P_DISABLE=1; on virtual machines and some PCIe "
         "switches P2P needs ACS disabled on the host.",
         "查看 `nvidia-smi topo -m`；作为诊断可设置 NCCL_P2P_DISABLE=1 运行；在虚拟机和部分 PCIe 交换芯片上，P2P 需要在宿主机上关闭 ACS。")),
    "mps": (
        ("the CUDA MPS server refused or lost the client",
         "CUDA MPS 服务拒绝或丢失了客户端"),
        ("Check the MPS control daemon on the node (`echo get_server_list | nvidia-cuda-mps-control`) and its "
         "limits; run without MPS to confirm.",
         "检查节点上的 MPS 控制进程（`echo get_server_list | nvidia-cuda-mps-control`）及其限制；不使用 MPS 运行以确认。")),
    "graph-stream": (
        ("a stream, event or CUDA graph was used in a way CUDA does not allow (often during graph capture)",
         "以 CUDA 不允许的方式使用了流、事件或 CUDA graph（常见于 graph 捕获期间）"),
        ("Run without CUDA graphs to confirm (vLLM `--enforce-eager`, torch.compile without `mode=\"reduce-overhead\"`), "
         "then report it to the library that captures.",
         "关闭 CUDA graph 运行以确认（vLLM `--enforce-eager`，torch.compile 不用 `mode=\"reduce-overhead\"`），再向负责捕获的库报告问题。")),
    "usage": (
        ("an API was called with a value or in a state it does not accept: a program or library bug, or an "
         "earlier error that left CUDA unusable",
         "以不被接受的参数或状态调用了 API：程序或库的缺陷，或之前的错误已使 CUDA 不可用"),
        ("Look for the first CUDA error in the log (later ones follow from it); rerun with CUDA_LAUNCH_BLOCKING=1.",
         "在日志中找到第一条 CUDA 错误（后续错误由它引起）；设置 CUDA_LAUNCH_BLOCKING=1 重新运行。")),
    "not-supported": (
        ("the GPU, driver or platform does not support the operation asked for",
         "GPU、驱动或平台不支持所请求的操作"),
        ("Check the feature's requirements against `nvidia-smi -q` (GPU, driver, MIG mode, virtualisation); run "
         "without the feature.",
         "对照 `nvidia-smi -q`（GPU、驱动、MIG 模式、虚拟化）检查该功能的要求；不使用该功能运行。")),
    "system": (
        ("an operating system call CUDA makes failed (a file, a shared library, a limit of the container)",
         "CUDA 发起的操作系统调用失败（文件、共享库、容器的限制）"),
        ("Check the container's limits (`ulimit -a`, /dev/shm size) and that the CUDA libraries it loads are the "
         "image's own (`ldconfig -p | grep -i cuda`).",
         "检查容器的限制（`ulimit -a`、/dev/shm 大小），以及加载的 CUDA 库是否为镜像自带（`ldconfig -p | grep -i cuda`）。")),
    "other": (
        ("an error CUDA does not classify further",
         "CUDA 未进一步分类的错误"),
        ("Look for the first error in the log and the host's dmesg (Xid lines); rerun with CUDA_LAUNCH_BLOCKING=1.",
         "在日志和宿主机 dmesg（Xid 行）中找到第一条错误；设置 CUDA_LAUNCH_BLOCKING=1 重新运行。")),
}

_SEVERITY = {"error": Severity.error, "warning": Severity.warning, "info": Severity.info}


def _text(pair: "dict | tuple | None") -> Text:
    if isinstance(pair, tuple):
        return Text(pair[0], pair[1])
    pair = pair or {}
    return Text(str(pair.get("en", "")), str(pair.get("zh", "")))


def _cat(parts: "list[Text]") -> Text:
    """Sentences run together, each ended with its language's full stop."""
    return Text(" ".join(p.en.rstrip(".") + "." for p in parts if p.en),
                "".join(p.zh.rstrip("。") + "。" for p in parts if p.zh))


def _cuda_parts(match, catalogs) -> "tuple[list[Text], Optional[Text], Optional[str]]":
    """(sentences, remedy, link anchor) of a CUDA/NVML match."""
    info = match.info
    api = WORDS(f"api-{match.api or 'runtime'}")
    if info is None:
        # the message as the line printed it: masked like the quoted line, before it is cut
        text = mask_identifiers(mask_secrets(match.text))[:200]
        return [WORDS("cuda-unknown", api=api, edition=catalogs.edition("cuda"), text=text)], \
            _text(CLASS_WORDS["other"][1]), None
    if info.api in ("cublas", "cudnn"):  # a library status: its enum name is what was printed
        older = match.text if match.text in info.older_names else ""
        parts = [WORDS("status-older" if older else "status", api=api, code=info.code, name=info.name, older=older,
                       meaning=_text(info.meaning))]
    else:
        key = "cuda" if info.message else "cuda-no-message"
        parts = [WORDS(key, api=api, code=info.code, name=info.name, message=info.message or "",
                       meaning=_text(info.meaning))]
        shared = catalogs.same_message(info)
        if shared and str(info.code) not in match.text and info.name not in match.text:  # read by its message alone
            others = ", ".join(f"{o.code} ({o.name})" for o in shared)
            parts.append(WORDS("cuda-shared-message", others=others))
    cause, remedy = CLASS_WORDS.get(info.cls, CLASS_WORDS["other"])
    parts.append(WORDS("cuda-class", cause=_text(cause)))
    return parts, _text(info.remedy) if info.remedy else _text(remedy), info.anchor


#: facts only NCCL's INFO lines state (:mod:`lingjun.checks.knowledge.log_statements`): a log that states one was run
#: with NCCL_DEBUG=INFO already
_NCCL_INFO_FACTS = ("nccl.bootstrap_interface", "nccl.socket_interfaces", "nccl.socket_interfaces_virtual",
                    "nccl.socket_interfaces_all_real", "nccl.network", "nccl.ib_devices", "nccl.graph_file_set")


def _nccl_info_line(evidence) -> "Optional[str]":
    """``file:line`` of the first NCCL INFO line the logs hold that states a fact, or None (then the remedy asks for
    them)."""
    lines = [evidence.stated[name].line for name in _NCCL_INFO_FACTS if name in evidence.stated]
    if not lines:
        return None
    return min(lines, key=lambda line: (evidence.sources.index(line.source) if line.source in evidence.sources else 0,
                                        line.number or 0)).where()


def _nccl_parts(match, catalogs, line: str, info_line: "Optional[str]" = None
                ) -> "tuple[list[Text], Optional[Text], Optional[str], Optional[str]]":
    """(sentences, remedy, link anchor, errno's source URL) of an NCCL match; an errno the line prints whose meaning
    the part's catalog entry gives (``returned 113(No route to host)``) leads, with its remedy, and the part's usual
    causes follow. A warning no part holds asks for NCCL's INFO lines, or, where the log holds them already
    (``info_line``, the first), points at them."""
    info, sub = match.info, catalogs.subsystems.get(match.subsystem or "")
    count = len(catalogs.nccl)
    if sub is None:
        remedy = WORDS("nccl-unknown-remedy-shown", where=info_line) if info_line else WORDS("nccl-unknown-remedy")
        return ([WORDS("nccl-unknown", count=count, edition=catalogs.edition("nccl"))], remedy, None, None)
    title, points, remedy = _text(sub.title), _text(sub.points_to), _text(sub.remedy)
    errno = sub.errno_in(line)
    source = None
    if errno is not None:
        points = WORDS("nccl-errno", errno=errno.errno, name=errno.name, message=errno.message,
                       points_to=_text(errno.points_to), general=points)
        remedy, source = _text(errno.remedy), errno.source or None
    if info is not None:
        if _by_macro(info.file, match.file):  # SYSCHECK and friends print the file they are used in
            return [WORDS("nccl-macro", subsystem=title, printed=match.file, file=info.file, since=info.versions[0],
                          until=info.versions[1], points_to=points)], remedy, info.anchor, source
        return [WORDS("nccl", subsystem=title, file=info.file, since=info.versions[0], until=info.versions[1],
                      points_to=points)], remedy, info.anchor, source
    return [WORDS("nccl-file", subsystem=title, file=match.file or "", count=count, edition=catalogs.edition("nccl"),
                  points_to=points)], remedy, f"nccl-{sub.id}", source


def _by_macro(format_file: str, printed: "Optional[str]") -> bool:
    """Whether a line printed a header's format (a macro: ``SYSCHECK`` of include/checks.h) from another file, which
    the line names (``include/shm.h:27``)."""
    return bool(printed) and format_file.startswith("include/") and os.path.basename(printed) != os.path.basename(
        format_file)


def _cli_parts(match, catalogs) -> "tuple[list[Text], Optional[Text], Optional[str]]":
    """(sentences, remedy, link anchor) of an nvidia-container-cli match: the message's entry with its subsystem, or
    the CLI context alone when the catalog holds no message that prints the rest."""
    info, context = match.info, match.context
    sub = catalogs.cli_subsystems.get(match.subsystem or "") or catalogs.cli_subsystems.get("cli")
    title, points = (_text(sub.title), _text(sub.points_to)) if sub is not None else (Text("", ""), Text("", ""))
    remedy = _text(sub.remedy) if sub is not None else None
    edition = catalogs.edition("container-cli")
    if info is None:
        return [WORDS("cli-unknown", stage=context.stage if context else "", count=len(catalogs.cli), edition=edition,
                      points_to=points)], remedy, f"cli-{sub.id}" if sub is not None else None
    stage = WORDS("cli-stage", stage=context.stage) if context is not None else Text("", "")
    return [WORDS("cli", stage=stage, format=info.printed, subsystem=title, file=info.file, since=info.versions[0],
                  until=info.versions[1], edition=edition, points_to=points)], remedy, info.anchor


def _xid_parts(match, catalogs) -> "tuple[list[Text], Optional[Text], Optional[str], Severity]":
    info = match.info
    if info is None:
        return ([WORDS("xid-unknown", xid=match.number, edition=catalogs.edition("xid"))], WORDS("xid-unknown-remedy"),
                None, Severity.error)
    parts = [WORDS("xid", xid=info.xid, name=info.name, edition=catalogs.edition("xid"), meaning=_text(info.meaning))]
    if info.action:
        parts.append(WORDS("xid-action", action=info.action))
    remedy = _text(info.action_text) if info.action_text else None
    return parts, remedy, f"xid-{info.xid}", _SEVERITY.get(info.severity, Severity.error)


def _lower_first(text: str) -> str:
    """``text`` to follow other words: its first letter lower-cased unless it opens an acronym (``CUDA``, ``NVML``)."""
    return text if len(text) > 1 and text[1].isupper() else text[:1].lower() + text[1:]


def _page(catalog: str) -> str:
    return {"xid": "xid", "cuda": "cuda-errors", "nccl": "nccl-warnings", "container-cli": "nvidia-container-cli"}[catalog]


def finding(ctx: CheckContext, hit: CatalogHit, catalogs, rule: str, area: str) -> Finding:
    """The finding of one line the catalogs name: what the line shows, each entry's words, the remedy of the first
    entry that has one, links to the entries on the site (with a site URL) and to the catalogs' sources."""
    shows = WORDS("shows", where=hit.first.where(), line=hit.first.text)
    if hit.count > 1:
        shows = Text(shows.en + WORDS("more", count=hit.count).en, shows.zh + WORDS("more", count=hit.count).zh)
    parts, remedy, severity, links = [shows], None, Severity.error, []
    own = None  # a CUDA code's remedy of its own beats the NCCL subsystem's or the CLI part's stock one
    errno_source = None
    ordered = sorted(hit.matches, key=lambda m: {"xid": 0, "nccl": 1, "container-cli": 1, "cuda": 2}[m.catalog])
    for at, match in enumerate(ordered):
        if match.catalog == "xid":
            words, fix, anchor, severity = _xid_parts(match, catalogs)
        elif match.catalog == "nccl":
            words, fix, anchor, errno_source = _nccl_parts(match, catalogs, hit.first.text,
                                                           _nccl_info_line(ctx.evidence))
        elif match.catalog == "container-cli":
            words, fix, anchor = _cli_parts(match, catalogs)
        else:
            words, fix, anchor = _cuda_parts(match, catalogs)
            if at and ordered[0].catalog in ("nccl", "container-cli"):  # NCCL's CUDACHECK, the CLI's NVML error
                words = [WORDS("nccl-cuda", cuda=Text(_lower_first(words[0].en), words[0].zh)), *words[1:]]
            if match.info is not None and getattr(match.info, "remedy", None):
                own = own or fix
        parts += words
        remedy = remedy or fix
        url = ctx.data.catalog_url(_page(match.catalog), anchor, ctx.options.lang) if anchor else None
        links += [url] if url else []
        links += catalogs.sources(match.catalog)[:1]
        if match.catalog == "nccl" and errno_source:
            links.append(errno_source)
    text = _cat(parts)
    remedy = own or remedy
    return make(ctx, rule, area, severity, text, remedy=remedy, observed=hit.first.where(),
                links=[u for i, u in enumerate(links) if u and u not in links[:i]])


def catalog_findings(ctx: CheckContext, rule: str, area: str) -> "list[Finding]":
    """One finding per line kind the catalogs name that no error signature matched (``hit.covered`` false)."""
    hits = [h for h in ctx.evidence.catalog_hits if not h.covered]
    if not hits:
        return []
    from lingjun.checks.knowledge.error_catalogs import embedded  # deferred: loaded only when a log named an entry

    catalogs = embedded()
    return [finding(ctx, hit, catalogs, rule, area) for hit in hits]
