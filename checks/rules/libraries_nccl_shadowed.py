"""libraries.nccl-shadowed: the libnccl the loader resolves is older than the NCCL torch needs."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.core.native_version import parse_nccl, triple_text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._native import expected_version, resolved_text
from lingjun.checks.rules._remedies import torch_is_image_build
from lingjun.checks.rules._words import Words

RULE = "libraries.nccl-shadowed"
AREA = "libraries"
TORCH_ISSUE = "https://github.com/pytorch/pytorch/issues/119072"


#: how the loader found the library, named in the English message only (the Chinese names the path alone)
VIA = " via {via}"

WORDS = Words({
    "remove-older": (
        "Remove the directory holding the older libnccl from LD_LIBRARY_PATH / ld.so.conf.d (then run ldconfig)",
        "请把包含旧 libnccl 的目录从 LD_LIBRARY_PATH 或 ld.so.conf.d 中移除（然后运行 ldconfig）",
    ),
    "remedy": ("{base}.", "{base}。"),
    "remedy-wheel": (
        "{base}, or reinstall the NCCL wheel torch requires: {cmd}.",
        "{base}，或重装 torch 所需的 NCCL wheel：{cmd}。",
    ),
    "ok": (
        "The loader resolves NCCL {found} (needs {expected}, {source}).",
        "加载器解析到 NCCL {found}（需要 {expected}，{source}）。",
    ),
    "older": (
        "torch needs NCCL {expected} ({source}) but the loader resolves the older {found} "
        "({where}); symbols added since are missing and `import torch` fails "
        "(e.g. \"undefined symbol: ncclCommRegister\", added in NCCL 2.19).",
        "torch 需要 NCCL {expected}（{source}），而加载器解析到较旧的 {found}（{where}）；"
        "之后新增的符号缺失，`import torch` 会失败（例如 NCCL 2.19 新增的 “undefined symbol: ncclCommRegister”）。",
    ),
})


def _remedy(ctx: CheckContext, expected: str) -> Text:
    """Take the older libnccl off the loader path; reinstall torch's NCCL wheel only where torch is a stock PyPI build
    (an image's own torch links the image's NCCL, which no public wheel replaces)."""
    torch = ctx.facts.torch
    major = torch.cuda.split(".")[0] if torch is not None and torch.cuda else None
    base = WORDS("remove-older")
    if major and major.isdigit() and not torch_is_image_build(ctx):
        cmd = f"pip install --no-deps --force-reinstall 'nvidia-nccl-cu{major}=={expected}'"
        return WORDS("remedy-wheel", base=base, cmd=cmd)
    return WORDS("remedy", base=base)


@rule(RULE, AREA, "NCCL is not older than torch needs", "加载的 NCCL 不低于 torch 所需版本", order=180, needs=("nccl",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the resolved libnccl is older than torch's pinned (or the release's) NCCL; ok otherwise."""
    resolved = ctx.facts.nccl.resolved
    if resolved is None:
        return
    expected, source = expected_version(ctx, "nccl", parse_nccl)
    found = parse_nccl(resolved.version)
    if expected is None or found is None:
        return
    where = Text(resolved.path + (VIA.format(via=resolved.via) if resolved.via else ""), resolved.path)
    observed = resolved_text(triple_text(found), resolved.path, resolved.via)
    if found >= expected:
        yield make(ctx, RULE, AREA, Severity.ok,
                   WORDS("ok", found=triple_text(found), expected=triple_text(expected), source=source), observed=observed,
                   expected=f">= {triple_text(expected)}")
        return
    yield make(ctx, RULE, AREA, Severity.error,
               WORDS("older", expected=triple_text(expected), source=source, found=triple_text(found), where=where),
               remedy=_remedy(ctx, triple_text(expected)),
               observed=observed, expected=f">= {triple_text(expected)}", links=[TORCH_ISSUE])
