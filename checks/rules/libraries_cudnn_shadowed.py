"""libraries.cudnn-shadowed: the libcudnn the loader resolves is not the one torch was built for."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.core.native_version import parse_cudnn, triple_text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._native import expected_version, resolved_text
from lingjun.checks.rules._words import Words

RULE = "libraries.cudnn-shadowed"
AREA = "libraries"
PYTORCH_CHECK = "https://github.com/pytorch/pytorch/pull/81881"
#: torch's own error (quoted, not translated): the English message quotes it whole with the versions, the Chinese its start
TORCH_ERROR = "cuDNN version incompatibility: PyTorch was compiled against {expected} but found runtime version {found}"
TORCH_ERROR_START = "cuDNN version incompatibility"

WORDS = Words({
    "unreadable": (
        "cuDNN version {version!r} at {path} is unreadable.",
        "{path} 的 cuDNN 版本 {version!r} 无法解析。",
    ),
    "ok": (
        "The loader resolves cuDNN {found}, as expected ({source}).",
        "加载器解析到的 cuDNN 为 {found}，与预期一致（{source}）。",
    ),
    "newer": (
        "The loader resolves cuDNN {found}, newer than the {expected} expected ({source}); "
        "torch accepts a newer minor version of the same major.",
        "加载器解析到的 cuDNN {found} 比预期的 {expected}（{source}）新；torch 接受同一主版本的较新次版本。",
    ),
    "entry": (" from the LD_LIBRARY_PATH entry {directory}", "（来自 LD_LIBRARY_PATH 中的 {directory}）"),
    "refused": (
        "torch expects cuDNN {expected} ({source}) but the loader resolves {found} ({path}){entry}; "
        "torch refuses it: \"{quote}\".",
        "torch 期望 cuDNN {expected}（{source}），但加载器解析到的是 {found}（{path}）{entry}；"
        "torch 会拒绝加载并报 “{quote}”。",
    ),
    "remedy": (
        "Remove the directory holding the other libcudnn from LD_LIBRARY_PATH (or from ld.so.conf.d), or install the cuDNN "
        "torch expects.",
        "请把包含其他 libcudnn 的目录从 LD_LIBRARY_PATH（或 ld.so.conf.d）中移除，或安装 torch 期望的 cuDNN 版本。",
    ),
})


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
            yield make(ctx, RULE, AREA, Severity.info, WORDS("unreadable", version=resolved.version, path=resolved.path),
                       observed=resolved.version)
        return
    observed = resolved_text(triple_text(found), resolved.path, resolved.via)
    if found == expected:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", found=triple_text(found), source=source), observed=observed,
                   expected=triple_text(expected))
        return
    if found[0] == expected[0] and found[1] >= expected[1]:
        yield make(ctx, RULE, AREA, Severity.info,
                   WORDS("newer", found=triple_text(found), expected=triple_text(expected), source=source),
                   observed=observed, expected=triple_text(expected))
        return
    entry = (WORDS("entry", directory=resolved.path.rsplit('/', 1)[0]) if resolved.via == "LD_LIBRARY_PATH"
             else Text("", ""))
    quote = Text(TORCH_ERROR.format(expected=expected, found=found), TORCH_ERROR_START)
    yield make(ctx, RULE, AREA, Severity.error,
               WORDS("refused", expected=triple_text(expected), found=triple_text(found), source=source,
                     path=resolved.path, entry=entry, quote=quote),
               remedy=WORDS("remedy"), observed=observed, expected=triple_text(expected), links=[PYTORCH_CHECK])
