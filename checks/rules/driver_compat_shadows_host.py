"""driver.compat-shadows-host: a libcuda that does not match the kernel module wins the loader (CUDA error 803)."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.record_view import is_ppu
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make, nvidia_url

RULE = "driver.compat-shadows-host"
AREA = "driver"


def _compat_conf(ctx: CheckContext) -> str:
    """Name of an ld.so.conf.d file that lists a compat directory, e.g. ``00-cuda-compat.conf``."""
    from lingjun.checks.core.compat import is_compat_path

    for conf in ctx.facts.loader.ld_so_conf:
        if any(is_compat_path(d) for d in conf.dirs):
            return conf.file or ""
    return ""


@rule(RULE, AREA, "libcuda matches the kernel driver", "libcuda 与内核驱动一致", needs_gpu=True, order=60, needs=("libcuda",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the resolved libcuda differs from the kernel module and is not a needed forward-compat library."""
    from lingjun.checks.core.compat import decide, forward_admitted, parse_driver
    from lingjun.checks.core.compat import is_compat_path
    from lingjun.checks.rules._driver_facts import compat_present, image_cuda, kernel_driver

    if is_ppu(ctx.record):
        return
    facts = ctx.facts
    lib = facts.libcuda
    kmod = kernel_driver(facts)
    umd = parse_driver(lib.file_version)
    if kmod is None or umd is None:
        if lib.init_error and "803" in lib.init_error:
            conf = _compat_conf(ctx)
            extra_en = (f" The loader resolves {lib.path} and /etc/ld.so.conf.d/{conf} registers a cuda-compat directory; a name that "
                        f"sorts first (00-cuda-compat.conf) puts it ahead of the host driver, one that sorts last (zzz-cuda-compat.conf) does not."
                        if conf else "")
            extra_zh = (f"加载器解析到 {lib.path}，且 /etc/ld.so.conf.d/{conf} 注册了 cuda-compat 目录；文件名排在前面（00-cuda-compat.conf）"
                        f"会压过宿主机驱动，排在最后（zzz-cuda-compat.conf）则不会。" if conf else "")
            yield make(ctx, RULE, AREA, Severity.error,
                       f"cuInit failed with error 803 ({lib.init_error}): the user-mode libcuda does not match the kernel driver.{extra_en}",
                       f"cuInit 返回 803 错误（{lib.init_error}）：用户态 libcuda 与内核驱动不匹配。{extra_zh}",
                       remedy=("Make the host driver's libcuda the one the loader finds (check LD_LIBRARY_PATH and /etc/ld.so.conf.d).",
                               "请确保加载器找到的是宿主机驱动的 libcuda（检查 LD_LIBRARY_PATH 与 /etc/ld.so.conf.d）。"),
                       observed=lib.init_error, links=[nvidia_url(ctx, "forward")])
        return
    where = lib.real_path or lib.path or "?"
    if umd == kmod:
        yield make(ctx, RULE, AREA, Severity.ok, f"libcuda {umd} matches the kernel driver.",
                   f"libcuda {umd} 与内核驱动版本一致。", observed=str(umd), expected=str(kmod))
        return
    compat = bool(lib.is_forward_compat) or is_compat_path(where)
    conf = _compat_conf(ctx)
    conf_en = (f" The compat directory is registered by /etc/ld.so.conf.d/{conf}; a name that sorts first (00-cuda-compat.conf) "
               f"puts it ahead of the host driver, a name that sorts last (zzz-cuda-compat.conf) does not.") if conf else ""
    conf_zh = (f"compat 目录由 /etc/ld.so.conf.d/{conf} 注册；文件名排在前面（如 00-cuda-compat.conf）会压过宿主机驱动，"
               f"排在最后（如 zzz-cuda-compat.conf）则不会。") if conf else ""
    if compat:
        cuda, _ = image_cuda(ctx)
        native = False
        admitted = None
        if cuda is not None:
            d = decide(cuda, kmod, ctx.data.cuda_drivers, gpus=facts.gpus, gpu_table=ctx.data.gpus, record=ctx.record, compat_present=compat_present(facts))
            native = d.mode == "native"
            admitted, _ = forward_admitted(kmod, cuda, ctx.record, ctx.data.cuda_drivers)
        if not native and umd.branch > kmod.branch and admitted is not False:
            yield make(ctx, RULE, AREA, Severity.info,
                       f"Forward-compatibility libcuda {umd} is in use on kernel driver {kmod}.",
                       f"正在内核驱动 {kmod} 上使用向前兼容 libcuda {umd}。", observed=f"{umd} ({where})", expected=str(kmod))
            return
        if native:
            reason_en, reason_zh = ("the kernel driver already supports the image's CUDA, so compat is not needed",
                                    "内核驱动本身已支持镜像的 CUDA，并不需要 compat 库")
        elif umd.branch <= kmod.branch:
            reason_en, reason_zh = "the compat library is not newer than the kernel driver", "compat 库并不比内核驱动新"
        else:
            reason_en, reason_zh = (f"the R{kmod.branch} branch is not admitted for this compat package",
                                    f"R{kmod.branch} 分支不在该 compat 包允许的范围内")
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"The loader resolves the cuda-compat libcuda {umd} ({where}) although the kernel driver is {kmod}; "
            f"{reason_en}. A libcuda that does not match the kernel module fails with error 803 "
            f"(system has unsupported display driver / cuda driver combination).{conf_en}",
            f"加载器解析到的是 cuda-compat 的 libcuda {umd}（{where}），而内核驱动是 {kmod}；{reason_zh}。"
            f"与内核模块不匹配的 libcuda 会导致 803 错误（system has unsupported display driver / cuda driver combination）。{conf_zh}",
            remedy=("Remove the cuda-compat directory from LD_LIBRARY_PATH and ld.so.conf.d (or rename its conf file so it sorts last, then run ldconfig), "
                    "or put the host driver's library directory first in LD_LIBRARY_PATH.",
                    "请把 cuda-compat 目录从 LD_LIBRARY_PATH 和 ld.so.conf.d 中移除（或把其配置文件改名使其排在最后并执行 ldconfig），"
                    "或在 LD_LIBRARY_PATH 中把宿主机驱动库目录放在最前面。"),
            observed=f"{umd} ({where})", expected=str(kmod), links=[nvidia_url(ctx, "forward")],
        )
        return
    yield make(
        ctx, RULE, AREA, Severity.error,
        f"libcuda {umd} ({where}) does not match the kernel driver {kmod}: CUDA fails with error 803. "
        f"This happens when driver libraries are baked into the image or the host driver was updated without reloading the kernel module.",
        f"libcuda {umd}（{where}）与内核驱动 {kmod} 不一致，CUDA 会报 803 错误。常见原因是镜像里打包了驱动库，"
        f"或宿主机升级驱动后没有重新加载内核模块。",
        remedy=("Do not ship driver libraries in the image; let the NVIDIA container runtime inject them. Reboot or reload the "
                "driver on the host after a driver update.",
                "不要在镜像中打包驱动库，交给 NVIDIA 容器运行时注入；宿主机升级驱动后请重启或重新加载驱动。"),
        observed=f"{umd} ({where})", expected=str(kmod), links=[nvidia_url(ctx, "forward")],
    )
