"""cuda.toolkit-vs-record: the CUDA toolkit found in the image against the release record's CUDA."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import parse_cuda
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._variant import variant_unknown_skip
from lingjun.checks.rules._words import Words

RULE = "cuda.toolkit-vs-record"
AREA = "cuda"

WORDS = Words({
    #: what variant_unknown_skip names as not known (its en and zh fragments)
    "variant-what": ("CUDA", " CUDA 版本"),
    "no-toolkit": (
        "No CUDA toolkit found in the image (no version.json, no CUDA_VERSION).",
        "镜像中未找到 CUDA 工具包（没有 version.json，也没有 CUDA_VERSION）。",
    ),
    "unreadable": (
        "CUDA toolkit version {text!r} is unreadable; not compared.",
        "CUDA 工具包版本 {text!r} 无法解析，未作比较。",
    ),
    "ok": (
        "CUDA toolkit {found} matches the release's CUDA {expected}.",
        "CUDA 工具包 {found} 与发布的 CUDA {expected} 一致。",
    ),
    "differs": (
        "The image holds CUDA toolkit {found}, but the release states CUDA {expected}: the image was modified or is another release.",
        "镜像中的 CUDA 工具包为 {found}，而发布记录写的是 CUDA {expected}：镜像可能被改动过，或并非该版本。",
    ),
    "remedy": (
        "Check that you run the intended image tag; do not replace the image's CUDA toolkit.",
        "请确认使用的是预期的镜像标签，不要替换镜像自带的 CUDA 工具包。",
    ),
})


@rule(RULE, AREA, "CUDA toolkit as released", "CUDA 工具包与发布一致", order=120, needs=("cuda-toolkit",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when the toolkit's major.minor differs from the record's CUDA; ok when equal."""
    record = ctx.record
    if record is None or not record.cuda:
        skip = variant_unknown_skip(ctx, RULE, AREA, *WORDS["variant-what"]) if record is not None else None
        if skip is not None:
            yield skip
        return

    expected = parse_cuda(record.cuda)
    facts = ctx.facts.cuda
    text = facts.toolkit_version or facts.env_cuda_version
    if expected is None:
        return
    if not text:
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("no-toolkit"), expected=str(expected))
        return
    found = parse_cuda(text)
    if found is None:
        yield make(ctx, RULE, AREA, Severity.info, WORDS("unreadable", text=text), observed=text, expected=str(expected))
        return
    if found.major_minor == expected.major_minor:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", found=found, expected=expected),
                   observed=str(found), expected=str(expected))
        return
    yield make(ctx, RULE, AREA, Severity.warning, WORDS("differs", found=found, expected=expected), remedy=WORDS("remedy"),
               observed=str(found), expected=str(expected))
