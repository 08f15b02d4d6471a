"""release.identified: which release record applies, and how it was chosen."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make

RULE = "release.identified"
AREA = "release"

_HOW = {
    "option": ("given with --release", "由 --release 指定"),
    "env": ("from LINGJUN_RELEASE", "来自环境变量 LINGJUN_RELEASE"),
    "manifest": ("from the image's release manifest", "来自镜像内的发布清单"),
    "fingerprint": ("by matching installed component versions", "根据已安装组件的版本匹配得出"),
}


_SOURCE = {
    "env": ("LINGJUN_RELEASE", "环境变量 LINGJUN_RELEASE"),
    "manifest": ("The image's release manifest", "镜像内的发布清单"),
}


def _rejected(ctx: CheckContext) -> Iterator[Finding]:
    """A warning for each LINGJUN_RELEASE / manifest value that named no known release and was passed over."""
    known = ", ".join(sorted(f"{r.get('family')}:{r.get('version')}" for r in ctx.data.releases)) or "(none)"
    match = ctx.release
    if match.record is not None:
        then_en, then_zh = f"{match.ref} was chosen {_HOW.get(match.how, (match.how,))[0]} instead", f"改用 {match.ref}（{_HOW.get(match.how, ('', match.how))[1]}）"
    else:
        then_en, then_zh = "no release matched the installed components either", "按已安装组件也未匹配到发布版本"
    for how, value in match.rejected:
        src_en, src_zh = _SOURCE.get(how, (how, how))
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"{src_en} names {value!r}, which is not a release in the bundled release data; {then_en}. Known releases: {known}.",
            f"{src_zh}给出的 {value!r} 不是内置发布数据中的版本；{then_zh}。已收录的版本：{known}。",
            remedy=("Name the release as family:release or as one of its image tags (training-nv-pytorch:25.07-serverless), "
                    "or update lingjun-check if the release is newer than its data.",
                    "请写成 family:release 或该版本的镜像标签（如 training-nv-pytorch:25.07-serverless）；"
                    "若该版本比 lingjun-check 的数据更新，请更新 lingjun-check。"),
            observed=value,
        )


@rule(RULE, AREA, "Release record identified", "已识别镜像发布记录", order=10)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning for each LINGJUN_RELEASE / manifest value naming no known release (passed over); then ok when a
    record applies (info when only a partial fingerprint chose it); info when none applies."""
    yield from _rejected(ctx)
    match = ctx.release
    if match.record is None or not match.ref:
        if match.unrecorded is not None:
            where = ", ".join(match.unrecorded.get("named_in") or []) or "an official page"
            yield make(
                ctx, RULE, AREA, Severity.info,
                f"Release {match.ref} is published, not yet recorded: nothing is known about it here (named in {where}); "
                f"checks against a release record are skipped.",
                f"{match.ref} 已发布，但尚未收录：这里对它一无所知（见于 {where}）；与发布记录相关的检查已跳过。",
                remedy=("Check against a recorded release with --release, or update lingjun-check once the release is recorded.",
                        "请用 --release 指定一个已收录的版本，或在该版本收录后更新 lingjun-check。"),
                observed=match.ref,
            )
            return
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
            remedy=("Run inside a Lingjun/ACS image, or pass --release family:release (training-nv-pytorch:25.07).",
                    "请在灵骏/ACS 镜像中运行，或用 --release family:release（如 training-nv-pytorch:25.07）指定版本。"),
        )
        return
    how_en, how_zh = _HOW.get(match.how, (match.how, match.how))
    yield from _image(ctx)
    if match.variant_unknown:  # its line names the release and how it was chosen: no second line
        return
    if match.how == "fingerprint" and match.score is not None and match.score < 1.0:
        share = f"{match.score:.0%}"
        others = ", ".join(f"{ref} ({score:.0%})" for ref, score in match.candidates[:3])
        yield make(
            ctx, RULE, AREA, Severity.info,
            f"Release {match.image_ref} chosen {how_en}: {share} of its probed components match"
            + (f"; next candidates: {others}." if others else "."),
            f"按已安装组件匹配选定 {match.image_ref}：{share} 的可探测组件版本一致"
            + (f"；其次为：{others}。" if others else "。"),
            remedy=("Pass --release to check against a specific release.", "如需按指定版本检查，请使用 --release。"),
            observed=match.image_ref,
        )
        return
    hint = _other_variant(ctx, how_en, how_zh)
    if hint is not None:  # one line: the release as named, and the variant the packages point to
        yield hint
        return
    yield make(
        ctx, RULE, AREA, Severity.ok,
        f"Release {match.image_ref} ({how_en}).",
        f"发布记录 {match.image_ref}（{how_zh}）。",
        observed=match.image_ref,
    )


def _other_variant(ctx: CheckContext, how_en: str, how_zh: str) -> "Finding | None":
    """info when the variant was named (``--release``, a tag, the manifest) but the installed packages match another
    variant of the same release better: "did you mean #vllm?"; None otherwise."""
    match = ctx.release
    if match.how == "fingerprint" or not match.variant or not match.ref:
        return None
    from lingjun.checks.knowledge.identify import better_variant

    other = better_variant(ctx.facts, ctx.data, match.ref, match.variant)
    if other is None:
        return None
    title = other.get("title") or {}
    name_en, name_zh = title.get("en") or other.get("id"), title.get("zh") or other.get("id")
    meant = f"{match.ref}#{other.get('id')}"
    return make(
        ctx, RULE, AREA, Severity.info,
        f"Release {match.image_ref} ({how_en}), but the installed packages match the {name_en} of this release better; "
        f"did you mean {meant}?",
        f"发布记录 {match.image_ref}（{how_zh}），但已安装的软件包与该发布的 {name_zh}更吻合；是否应为 {meant}？",
        remedy=(f"Check against that image: --release {meant}.", f"请按该镜像检查：--release {meant}。"),
        observed=match.image_ref, expected=meant,
    )


def _image(ctx: CheckContext) -> Iterator[Finding]:
    """info when the release publishes several images and the input does not show which one runs; info naming
    the runtime whose component list is checked when the interpreter lies in one."""
    match = ctx.release
    if match.variant_unknown:
        names, names_zh = ", ".join(match.variant_candidates), "、".join(match.variant_candidates)
        common = len(ctx.record.get("components") or []) if ctx.record else 0
        how_en, how_zh = _HOW.get(match.how, (match.how, match.how))
        yield make(
            ctx, RULE, AREA, Severity.info,
            f"Release {match.ref} ({how_en}) publishes several images and the input matches {names} equally well: the variant is not known. "
            f"Package checks compare only the {common} components every variant lists with the same version; checks that "
            f"need one variant's values are skipped.",
            f"发布记录 {match.ref}（{how_zh}）发布了多个镜像，输入与 {names_zh} 匹配程度相同，无法确定是哪个镜像变体。软件包检查只比较各变体版本相同的 "
            f"{common} 个组件；需要某一变体取值的检查已跳过。",
            remedy=("Pass --release with the image's tag (as in the release notes), or set LINGJUN_RELEASE to it.",
                    "请用 --release 指定镜像标签（与发布记录中一致），或把 LINGJUN_RELEASE 设为该标签。"),
            observed=names,
        )
    if match.runtime:
        runtime = match.runtime
        where = runtime.get("path") or ""
        yield make(
            ctx, RULE, AREA, Severity.info,
            f"The interpreter runs in the image's runtime {runtime.get('name') or runtime.get('id')} ({runtime.get('id')}, {where}): "
            f"its component list is the one checked.",
            f"当前解释器位于镜像的运行时 {runtime.get('name') or runtime.get('id')}（{runtime.get('id')}，{where}）中：检查使用该运行时的组件列表。",
            observed=str(runtime.get("id")),
        )
