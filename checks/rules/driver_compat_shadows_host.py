"""driver.compat-shadows-host: a libcuda that does not match the kernel module wins the loader (CUDA error 803)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import decide, forward_admitted, is_compat_path, parse_driver
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._driver_facts import compat_present, image_cuda, kernel_driver
from lingjun.checks.rules._finding import make, nvidia_url
from lingjun.checks.rules._words import Words

RULE = "driver.compat-shadows-host"
AREA = "driver"


WORDS = Words({
    "init-803": ("cuInit failed with error 803 ({error}): the user-mode libcuda does not match the kernel driver.{conf}",
                 "cuInit 返回 803 错误（{error}）：用户态 libcuda 与内核驱动不匹配。{conf}"),
    "init-803.conf": (" The loader resolves {path} and /etc/ld.so.conf.d/{conf} registers a cuda-compat directory; a name that "
                      "sorts first (00-cuda-compat.conf) puts it ahead of the host driver, one that sorts last (zzz-cuda-compat.conf) does not.",
                      "加载器解析到 {path}，且 /etc/ld.so.conf.d/{conf} 注册了 cuda-compat 目录；文件名排在前面（00-cuda-compat.conf）"
                      "会压过宿主机驱动，排在最后（zzz-cuda-compat.conf）则不会。"),
    "remedy.init-803": ("Make the host driver's libcuda the one the loader finds (check LD_LIBRARY_PATH and /etc/ld.so.conf.d).",
                        "请确保加载器找到的是宿主机驱动的 libcuda（检查 LD_LIBRARY_PATH 与 /etc/ld.so.conf.d）。"),
    "ok": ("libcuda {umd} matches the kernel driver.", "libcuda {umd} 与内核驱动版本一致。"),
    "forward": ("Forward-compatibility libcuda {umd} is in use on kernel driver {kmod}.", "正在内核驱动 {kmod} 上使用向前兼容 libcuda {umd}。"),
    "why.native": ("the kernel driver already supports the image's CUDA, so compat is not needed", "内核驱动本身已支持镜像的 CUDA，并不需要 compat 库"),
    "why.not-newer": ("the compat library is not newer than the kernel driver", "compat 库并不比内核驱动新"),
    "why.not-admitted": ("the R{b} branch is not admitted for this compat package", "R{b} 分支不在该 compat 包允许的范围内"),
    "compat": ("The loader resolves the cuda-compat libcuda {umd} ({where}) although the kernel driver is {kmod}; "
               "{why}. A libcuda that does not match the kernel module fails with error 803 "
               "(system has unsupported display driver / cuda driver combination).{conf}",
               "加载器解析到的是 cuda-compat 的 libcuda {umd}（{where}），而内核驱动是 {kmod}；{why}。"
               "与内核模块不匹配的 libcuda 会导致 803 错误（system has unsupported display driver / cuda driver combination）。{conf}"),
    "compat.conf": (" The compat directory is registered by /etc/ld.so.conf.d/{conf}; a name that sorts first (00-cuda-compat.conf) "
                    "puts it ahead of the host driver, a name that sorts last (zzz-cuda-compat.conf) does not.",
                    "compat 目录由 /etc/ld.so.conf.d/{conf} 注册；文件名排在前面（如 00-cuda-compat.conf）会压过宿主机驱动，"
                    "排在最后（如 zzz-cuda-compat.conf）则不会。"),
    "remedy.compat": ("Remove the cuda-compat directory from LD_LIBRARY_PATH and ld.so.conf.d (or rename its conf file so it sorts "
                      "last, then run ldconfig), or put the host driver's library directory first in LD_LIBRARY_PATH.",
                      "请把 cuda-compat 目录从 LD_LIBRARY_PATH 和 ld.so.conf.d 中移除（或把其配置文件改名使其排在最后并执行 ldconfig），"
                      "或在 LD_LIBRARY_PATH 中把宿主机驱动库目录放在最前面。"),
    "mismatch": ("libcuda {umd} ({where}) does not match the kernel driver {kmod}: CUDA fails with error 803. "
                 "This happens when driver libraries are baked into the image or the host driver was updated without reloading the kernel module.",
                 "libcuda {umd}（{where}）与内核驱动 {kmod} 不一致，CUDA 会报 803 错误。常见原因是镜像里打包了驱动库，"
                 "或宿主机升级驱动后没有重新加载内核模块。"),
    "remedy.mismatch": ("Do not ship driver libraries in the image; let the NVIDIA container runtime inject them. Reboot or reload the "
                        "driver on the host after a driver update.",
                        "不要在镜像中打包驱动库，交给 NVIDIA 容器运行时注入；宿主机升级驱动后请重启或重新加载驱动。"),
    "piece-none": ("", ""),
})


def _compat_conf(ctx: CheckContext) -> str:
    """Name of an ld.so.conf.d file that lists a compat directory, e.g. ``00-cuda-compat.conf``."""
    for conf in ctx.facts.loader.ld_so_conf:
        if any(is_compat_path(d) for d in conf.dirs):
            return conf.file or ""
    return ""


@rule(RULE, AREA, "libcuda matches the kernel driver", "libcuda 与内核驱动一致", needs_gpu=True, order=60, needs=("libcuda",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the resolved libcuda differs from the kernel module and is not a needed forward-compat library."""

    if is_ppu(ctx.record):
        return
    lib = ctx.facts.libcuda
    kmod = kernel_driver(ctx.facts)
    umd = parse_driver(lib.file_version)
    if kmod is None or umd is None:
        if lib.init_error and "803" in lib.init_error:
            yield _init_803(ctx)
        return
    where = lib.real_path or lib.path or "?"
    if umd == kmod:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", umd=umd), observed=str(umd), expected=str(kmod))
        return
    if bool(lib.is_forward_compat) or is_compat_path(where):
        yield _compat(ctx, kmod, umd, where)
        return
    yield make(ctx, RULE, AREA, Severity.error, WORDS("mismatch", umd=umd, where=where, kmod=kmod), remedy=WORDS("remedy.mismatch"),
               observed=f"{umd} ({where})", expected=str(kmod), links=[nvidia_url(ctx, "forward")])


def _init_803(ctx: CheckContext) -> Finding:
    """No versions to compare, but cuInit failed with 803: the user-mode libcuda does not match the kernel module."""
    lib = ctx.facts.libcuda
    conf = _compat_conf(ctx)
    extra = WORDS("init-803.conf", path=lib.path, conf=conf) if conf else WORDS("piece-none")
    return make(ctx, RULE, AREA, Severity.error, WORDS("init-803", error=lib.init_error, conf=extra), remedy=WORDS("remedy.init-803"),
                observed=lib.init_error, links=[nvidia_url(ctx, "forward")])


def _compat_why(ctx: CheckContext, kmod, umd) -> "Text | None":
    """Why the cuda-compat libcuda in use is wrong here, or None when it is the forward compatibility the image needs
    (not native, newer than the kernel driver, a branch not refused)."""

    cuda, _ = image_cuda(ctx)
    native, admitted = False, None
    if cuda is not None:
        d = decide(cuda, kmod, ctx.data.cuda_drivers, gpus=ctx.facts.gpus, gpu_table=ctx.data.gpus, record=ctx.record_dict,
                   compat_present=compat_present(ctx.facts))
        native = d.mode == "native"
        admitted, _ = forward_admitted(kmod, cuda, ctx.record_dict, ctx.data.cuda_drivers)
    if not native and umd.branch > kmod.branch and admitted is not False:
        return None
    if native:
        return WORDS("why.native")
    return WORDS("why.not-newer") if umd.branch <= kmod.branch else WORDS("why.not-admitted", b=kmod.branch)


def _compat(ctx: CheckContext, kmod, umd, where: str) -> Finding:
    """The loader resolves a cuda-compat libcuda other than the kernel module: forward compatibility (info), or 803."""
    why = _compat_why(ctx, kmod, umd)
    if why is None:
        return make(ctx, RULE, AREA, Severity.info, WORDS("forward", umd=umd, kmod=kmod), observed=f"{umd} ({where})", expected=str(kmod))
    conf = _compat_conf(ctx)
    return make(ctx, RULE, AREA, Severity.error,
                WORDS("compat", umd=umd, where=where, kmod=kmod, why=why,
                      conf=WORDS("compat.conf", conf=conf) if conf else WORDS("piece-none")),
                remedy=WORDS("remedy.compat"), observed=f"{umd} ({where})", expected=str(kmod), links=[nvidia_url(ctx, "forward")])
