"""release.manifest-image: the image named in the image's release manifest is an image of the release it names.

``/etc/lingjun/release.json`` (:mod:`lingjun.checks.probes.manifest`) names the release in ``release`` and,
optionally, the image in ``image``.  When the two disagree the manifest is not taken at its word on what they
disagree about (:func:`lingjun.checks.knowledge.identify.manifest_conflict`); this rule says so, naming both values.
"""

from __future__ import annotations

import json
from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.inert_text import NAME_LIMIT, capped
from lingjun.checks.knowledge.identify import manifest_conflict, manifest_image_problem
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make

RULE = "release.manifest-image"
AREA = "release"

_HOW = {
    "option": ("given with --release", "由 --release 指定"),
    "env": ("from LINGJUN_RELEASE", "来自环境变量 LINGJUN_RELEASE"),
    "manifest": ("from the manifest's release", "来自发布清单的 release 字段"),
    "fingerprint": ("by matching installed component versions", "根据已安装组件的版本匹配得出"),
}


def _then(ctx: CheckContext) -> tuple[str, str]:
    """What is checked instead, in words (en, zh)."""
    match = ctx.release
    if match.record is None:
        return "no release record applies", "没有适用的发布记录"
    how_en, how_zh = _HOW.get(match.how, (match.how, match.how))
    if match.variant_unknown:
        names = " or ".join(match.variant_candidates)
        return (f"{match.ref} is checked ({how_en}), its variant not known ({names})",
                f"按 {match.ref} 检查（{how_zh}），镜像变体未知（{' 或 '.join(match.variant_candidates)}）")
    return f"{match.image_ref} is checked ({how_en})", f"按 {match.image_ref} 检查（{how_zh}）"


@rule(RULE, AREA, "Manifest image matches its release", "发布清单中的镜像与其版本一致", order=12)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when the manifest's ``image`` is an image of another release (neither is taken: the installed
    components decide), of another variant of the release (the variant is chosen from the installed components) or
    of no release in the data (the ``release`` is taken), or is no image reference at all (a list, an empty string:
    ignored); nothing when the two agree or either is missing."""
    problem = manifest_image_problem(ctx.facts)
    if problem is not None:
        zh_kind = {"an empty string": "空字符串", "null": "null", "true/false": "布尔值", "a number": "数字", "a list": "列表",
                   "an object": "对象"}.get(problem, "非字符串")
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"The image's release manifest gives its image as {problem}, not an image reference; the image is ignored.",
            f"镜像内的发布清单中 image 字段为{zh_kind}，不是镜像地址，已忽略。",
            remedy=("Write image in /etc/lingjun/release.json as the image's reference (registry/namespace/name:tag).",
                    "请在 /etc/lingjun/release.json 中把 image 写成镜像地址（registry/namespace/name:tag）。"),
            observed=capped(json.dumps(ctx.facts.manifest.data.get("image"), ensure_ascii=False, default=str), NAME_LIMIT),
        )
        return
    conflict = manifest_conflict(ctx.facts, ctx.data)
    if conflict is None:
        return
    release, image = capped(conflict.release, NAME_LIMIT), capped(conflict.image, NAME_LIMIT)
    # the release as written, and what it names when that reads differently (a tag names family:release#variant)
    named = f"{release!r}" + (f" ({conflict.named})" if conflict.named != conflict.release else "")
    then_en, then_zh = _then(ctx)
    others = ", ".join(conflict.image_names)
    if conflict.kind == "unknown-image":
        en = (f"The image's release manifest names the release {named} and the image {image!r}, "
              f"which is not an image of any release in the bundled release data; {then_en}.")
        zh = (f"镜像内的发布清单给出的版本为 {named}，镜像为 {image!r}，但内置发布数据中没有哪个版本发布了该镜像；"
              f"{then_zh}。")
    else:
        what_en = "another image of the same release" if conflict.kind == "other-variant" else "an image of another release"
        what_zh = "同一版本的另一个镜像" if conflict.kind == "other-variant" else "另一个版本的镜像"
        en = (f"The image's release manifest contradicts itself: its release is {named}, its image "
              f"{image!r} is {what_en} ({others}). Neither is taken over the other; {then_en}.")
        zh = (f"镜像内的发布清单前后矛盾：release 字段为 {named}，image 字段 {image!r} 却是{what_zh}"
              f"（{others}）。两者均未被优先采用；{then_zh}。")
    yield make(
        ctx, RULE, AREA, Severity.warning, en, zh,
        remedy=("Correct /etc/lingjun/release.json so that release and image name the same image, or pass --release "
                "with the image's tag.",
                "请修正 /etc/lingjun/release.json，使 release 与 image 指向同一镜像；或用 --release 指定镜像标签。"),
        observed=image,
    )
