"""release.identified: which release record applies, and how it was chosen."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.findings import Finding, Severity
from lingjun.checks.registry import rule
from lingjun.checks.rules._finding import make

RULE = "release.identified"
AREA = "release"

_HOW = {
    "option": ("given with --release", "由 --release 指定"),
    "env": ("from LINGJUN_RELEASE", "来自环境变量 LINGJUN_RELEASE"),
    "manifest": ("from the image's release manifest", "来自镜像内的发布清单"),
    "fingerprint": ("by matching installed component versions", "根据已安装组件的版本匹配得出"),
}


@rule(RULE, AREA, "Release record identified", "已识别镜像发布记录")
def check(ctx: CheckContext) -> Iterator[Finding]:
    """ok when a record applies (info when only a partial fingerprint chose it); info when none applies."""
    match = ctx.release
    if match.record is None or not match.ref:
        if match.ref:
            yield make(
                ctx, RULE, AREA, Severity.info,
                f"Release {match.ref} is not in the bundled release data; checks against a release record are skipped.",
                f"内置发布数据中没有 {match.ref}，与发布记录相关的检查已跳过。",
                remedy=("Update lingjun-check, or pass --release with a release it knows.",
                        "请更新 lingjun-check，或用 --release 指定一个已收录的版本。"),
                observed=match.ref,
            )
            return
        yield make(
            ctx, RULE, AREA, Severity.info,
            "No release record applies to this container; checks against a release record are skipped.",
            "没有与此容器对应的发布记录，与发布记录相关的检查已跳过。",
            remedy=("Run inside a Lingjun/ACS image, or pass --release family:YY.MM.",
                    "请在灵骏/ACS 镜像中运行，或用 --release family:YY.MM 指定版本。"),
        )
        return
    how_en, how_zh = _HOW.get(match.how, (match.how, match.how))
    if match.how == "fingerprint" and match.score is not None and match.score < 1.0:
        share = f"{match.score:.0%}"
        others = ", ".join(f"{ref} ({score:.0%})" for ref, score in match.candidates[:3])
        yield make(
            ctx, RULE, AREA, Severity.info,
            f"Release {match.ref} chosen {how_en}: {share} of its probed components match"
            + (f"; next candidates: {others}." if others else "."),
            f"按已安装组件匹配选定 {match.ref}：{share} 的可探测组件版本一致"
            + (f"；其次为：{others}。" if others else "。"),
            remedy=("Pass --release to check against a specific release.", "如需按指定版本检查，请使用 --release。"),
            observed=match.ref,
        )
        return
    yield make(
        ctx, RULE, AREA, Severity.ok,
        f"Release {match.ref} ({how_en}).",
        f"发布记录 {match.ref}（{how_zh}）。",
        observed=match.ref,
    )
