"""libraries.cudnn-shadowed: the libcudnn the loader resolves is not the one torch was built for."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.core.native_version import parse_cudnn, triple_text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._native import expected_version, resolved_text

RULE = "libraries.cudnn-shadowed"
AREA = "libraries"
PYTORCH_CHECK = "https://github.com/pytorch/pytorch/pull/81881"


@rule(RULE, AREA, "cuDNN is the one torch expects", "加载的 cuDNN 与 torch 期望一致", order=170, needs=("cudnn",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the resolved cuDNN has another major or an older minor than expected (torch refuses it);
    info when newer within the major; ok when equal."""
    resolved = ctx.facts.cudnn.resolved
    if resolved is None:
        return
    expected, source = expected_version(ctx, "cudnn", parse_cudnn)
    found = parse_cudnn(resolved.version)
    if expected is None or found is None:
        if found is None and resolved.version:
            yield make(ctx, RULE, AREA, Severity.info, f"cuDNN version {resolved.version!r} at {resolved.path} is unreadable.",
                       f"{resolved.path} 的 cuDNN 版本 {resolved.version!r} 无法解析。", observed=resolved.version)
        return
    observed = resolved_text(triple_text(found), resolved.path, resolved.via)
    source_cn = source.zh
    source = source.en
    if found == expected:
        yield make(ctx, RULE, AREA, Severity.ok, f"The loader resolves cuDNN {triple_text(found)}, as expected ({source}).",
                   f"加载器解析到的 cuDNN 为 {triple_text(found)}，与预期一致（{source_cn}）。", observed=observed,
                   expected=triple_text(expected))
        return
    if found[0] == expected[0] and found[1] >= expected[1]:
        yield make(ctx, RULE, AREA, Severity.info,
                   f"The loader resolves cuDNN {triple_text(found)}, newer than the {triple_text(expected)} expected ({source}); "
                   f"torch accepts a newer minor version of the same major.",
                   f"加载器解析到的 cuDNN {triple_text(found)} 比预期的 {triple_text(expected)}（{source_cn}）新；torch 接受同一主版本的较新次版本。",
                   observed=observed, expected=triple_text(expected))
        return
    entry = f" from the LD_LIBRARY_PATH entry {resolved.path.rsplit('/', 1)[0]}" if resolved.via == "LD_LIBRARY_PATH" else ""
    entry_zh = f"（来自 LD_LIBRARY_PATH 中的 {resolved.path.rsplit('/', 1)[0]}）" if resolved.via == "LD_LIBRARY_PATH" else ""
    yield make(
        ctx, RULE, AREA, Severity.error,
        f"torch expects cuDNN {triple_text(expected)} ({source}) but the loader resolves {triple_text(found)} ({resolved.path}){entry}; "
        f"torch refuses it: \"cuDNN version incompatibility: PyTorch was compiled against {expected} but found runtime version {found}\".",
        f"torch 期望 cuDNN {triple_text(expected)}（{source_cn}），但加载器解析到的是 {triple_text(found)}（{resolved.path}）{entry_zh}；"
        f"torch 会拒绝加载并报 “cuDNN version incompatibility”。",
        remedy=("Remove the directory holding the other libcudnn from LD_LIBRARY_PATH (or from ld.so.conf.d), or install the cuDNN "
                "torch expects.",
                "请把包含其他 libcudnn 的目录从 LD_LIBRARY_PATH（或 ld.so.conf.d）中移除，或安装 torch 期望的 cuDNN 版本。"),
        observed=observed, expected=triple_text(expected), links=[PYTORCH_CHECK],
    )
