"""Private helper of the rule modules: a release with several images whose running variant is not known.

A rule that needs a value only the variant states (its Python, its CUDA) skips with the reason instead of
judging against another variant's value; the package rules check only the entries every variant lists
alike (:func:`lingjun.checks.knowledge._image_view.image_record`).
"""

from __future__ import annotations

from typing import Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules._finding import make

__all__ = ["variant_unknown_skip"]


def variant_unknown_skip(ctx: CheckContext, rule: str, area: str, what_en: str, what_zh: str) -> Optional[Finding]:
    """A ``skipped`` finding when the release's variant is not known and the variants state ``what`` differently
    (the record view then holds none), else None.

    ``what_en``/``what_zh``: the value, e.g. ``"Python"``.
    """
    match = ctx.release
    if not match.variant_unknown:
        return None
    names, names_zh = ", ".join(match.variant_candidates), "、".join(match.variant_candidates)
    return make(
        ctx, rule, area, Severity.skipped,
        f"{match.ref} publishes several images ({names}) whose {what_en} differs, and the input does not show which one "
        f"runs; not compared.",
        f"{match.ref} 发布了多个镜像（{names_zh}），各自的{what_zh}不同，而输入未显示运行的是哪一个；未作比较。",
        remedy=("Pass --release with the image's tag (as in the release notes), or set LINGJUN_RELEASE to it.",
                "请用 --release 指定镜像标签（与发布记录中一致），或把 LINGJUN_RELEASE 设为该标签。"),
    )
