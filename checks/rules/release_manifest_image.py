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
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "release.manifest-image"
AREA = "release"

WORDS = Words({
    # how the release checked instead was chosen (ReleaseMatch.how)
    "how:option": ("given with --release", "由 --release 指定"),
    "how:env": ("from LINGJUN_RELEASE", "来自环境变量 LINGJUN_RELEASE"),
    "how:manifest": ("from the manifest's release", "来自发布清单的 release 字段"),
    "how:fingerprint": ("by matching installed component versions", "根据已安装组件的版本匹配得出"),
    "then-no-record": ("no release record applies", "没有适用的发布记录"),
    "then-variant-unknown": ("{ref} is checked ({how}), its variant not known ({names})", "按 {ref} 检查（{how}），镜像变体未知（{names}）"),
    "then": ("{ref} is checked ({how})", "按 {ref} 检查（{how}）"),
    "or": (" or ", " 或 "),
    # what manifest_image_problem found instead of an image reference; "not a string" for anything else
    "kind:an empty string": ("an empty string", "空字符串"),
    "kind:null": ("null", "null"),
    "kind:true/false": ("true/false", "布尔值"),
    "kind:a number": ("a number", "数字"),
    "kind:a list": ("a list", "列表"),
    "kind:an object": ("an object", "对象"),
    "kind:not a string": ("not a string", "非字符串"),
    "not-a-reference": (
        "The image's release manifest gives its image as {kind}, not an image reference; the image is ignored.",
        "镜像内的发布清单中 image 字段为{kind}，不是镜像地址，已忽略。",
    ),
    "not-a-reference-remedy": (
        "Write image in /etc/lingjun/release.json as the image's reference (registry/namespace/name:tag).",
        "请在 /etc/lingjun/release.json 中把 image 写成镜像地址（registry/namespace/name:tag）。",
    ),
    "unknown-image": (
        "The image's release manifest names the release {named} and the image {image!r}, "
        "which is not an image of any release in the bundled release data; {then}.",
        "镜像内的发布清单给出的版本为 {named}，镜像为 {image!r}，但内置发布数据中没有哪个版本发布了该镜像；"
        "{then}。",
    ),
    "what:other-variant": ("another image of the same release", "同一版本的另一个镜像"),
    "what:other-release": ("an image of another release", "另一个版本的镜像"),
    "contradicts": (
        "The image's release manifest contradicts itself: its release is {named}, its image "
        "{image!r} is {what} ({others}). Neither is taken over the other; {then}.",
        "镜像内的发布清单前后矛盾：release 字段为 {named}，image 字段 {image!r} 却是{what}"
        "（{others}）。两者均未被优先采用；{then}。",
    ),
    "conflict-remedy": (
        "Correct /etc/lingjun/release.json so that release and image name the same image, or pass --release "
        "with the image's tag.",
        "请修正 /etc/lingjun/release.json，使 release 与 image 指向同一镜像；或用 --release 指定镜像标签。",
    ),
})


def _then(ctx: CheckContext) -> Text:
    """What is checked instead, in words."""
    match = ctx.release
    if match.record is None:
        return WORDS("then-no-record")
    key = f"how:{match.how}"
    how = WORDS(key) if key in WORDS else Text(match.how, match.how)
    if match.variant_unknown:
        sep = WORDS("or")
        names = Text(sep.en.join(match.variant_candidates), sep.zh.join(match.variant_candidates))
        return WORDS("then-variant-unknown", ref=match.ref, how=how, names=names)
    return WORDS("then", ref=match.image_ref, how=how)


def _kind(problem: str) -> Text:
    """What the manifest's ``image`` is instead of a reference (``"a list"``), in both languages."""
    key = f"kind:{problem}"
    return WORDS(key) if key in WORDS else Text(problem, WORDS["kind:not a string"][1])


@rule(RULE, AREA, "Manifest image matches its release", "发布清单中的镜像与其版本一致", order=12)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning when the manifest's ``image`` is an image of another release (neither is taken: the installed
    components decide), of another variant of the release (the variant is chosen from the installed components) or
    of no release in the data (the ``release`` is taken), or is no image reference at all (a list, an empty string:
    ignored); nothing when the two agree or either is missing."""
    problem = manifest_image_problem(ctx.facts)
    if problem is not None:
        yield make(
            ctx, RULE, AREA, Severity.warning, WORDS("not-a-reference", kind=_kind(problem)),
            remedy=WORDS("not-a-reference-remedy"),
            observed=capped(json.dumps(ctx.facts.manifest.data.get("image"), ensure_ascii=False, default=str), NAME_LIMIT),
        )
        return
    conflict = manifest_conflict(ctx.facts, ctx.data)
    if conflict is None:
        return
    release, image = capped(conflict.release, NAME_LIMIT), capped(conflict.image, NAME_LIMIT)
    # the release as written, and what it names when that reads differently (a tag names family:release#variant)
    named = f"{release!r}" + (f" ({conflict.named})" if conflict.named != conflict.release else "")
    then = _then(ctx)
    others = ", ".join(conflict.image_names)
    if conflict.kind == "unknown-image":
        message = WORDS("unknown-image", named=named, image=image, then=then)
    else:
        what = WORDS("what:other-variant" if conflict.kind == "other-variant" else "what:other-release")
        message = WORDS("contradicts", named=named, image=image, what=what, others=others, then=then)
    yield make(ctx, RULE, AREA, Severity.warning, message, remedy=WORDS("conflict-remedy"), observed=image)
