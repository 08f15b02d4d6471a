"""release.identified: which release record applies, and how it was chosen."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.knowledge.identify import better_variant
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "release.identified"
AREA = "release"

WORDS = Words({
    # how the release was chosen (ReleaseMatch.how)
    "how-option": ("given with --release", "由 --release 指定"),
    "how-env": ("from LINGJUN_RELEASE", "来自环境变量 LINGJUN_RELEASE"),
    "how-manifest": ("from the image's release manifest", "来自镜像内的发布清单"),
    "how-fingerprint": ("by matching installed component versions", "根据已安装组件的版本匹配得出"),
    # where a passed-over value came from
    "source-env": ("LINGJUN_RELEASE", "环境变量 LINGJUN_RELEASE"),
    "source-manifest": ("The image's release manifest", "镜像内的发布清单"),
    "then-chosen": ("{ref} was chosen {how} instead", "改用 {ref}（{how}）"),
    "then-none": ("no release matched the installed components either", "按已安装组件也未匹配到发布版本"),
    "rejected": (
        "{source} names {value!r}, which is not a release in the bundled release data; {then}. Known releases: {known}.",
        "{source}给出的 {value!r} 不是内置发布数据中的版本；{then}。已收录的版本：{known}。",
    ),
    "rejected-remedy": (
        "Name the release as family:release or as one of its image tags (training-nv-pytorch:25.07-serverless), "
        "or update lingjun-check if the release is newer than its data.",
        "请写成 family:release 或该版本的镜像标签（如 training-nv-pytorch:25.07-serverless）；"
        "若该版本比 lingjun-check 的数据更新，请更新 lingjun-check。",
    ),
    "an-official-page": ("an official page", "an official page"),
    "unrecorded": (
        "Release {ref} is published, not yet recorded: nothing is known about it here (named in {where}); "
        "checks against a release record are skipped.",
        "{ref} 已发布，但尚未收录：这里对它一无所知（见于 {where}）；与发布记录相关的检查已跳过。",
    ),
    "unrecorded-remedy": (
        "Check against a recorded release with --release, or update lingjun-check once the release is recorded.",
        "请用 --release 指定一个已收录的版本，或在该版本收录后更新 lingjun-check。",
    ),
    "unknown-ref": (
        "Release {ref} is not in the bundled release data; checks against a release record are skipped.",
        "内置发布数据中没有 {ref}，与发布记录相关的检查已跳过。",
    ),
    "unknown-ref-remedy": (
        "Update lingjun-check, or pass --release with a release it knows.", "请更新 lingjun-check，或用 --release 指定一个已收录的版本。",
    ),
    "no-record": (
        "No release record applies to this container; checks against a release record are skipped.",
        "没有与此容器对应的发布记录，与发布记录相关的检查已跳过。",
    ),
    "log-unnamed": (
        "The log alone does not name the image's release; checks against a release record are skipped.",
        "仅凭日志无法得知镜像的发布版本，与发布记录相关的检查已跳过。",
    ),
    "log-unnamed-remedy": (
        "Pass --release family:release (training-nv-pytorch:25.07) to read the log against that release.",
        "请用 --release family:release（如 training-nv-pytorch:25.07）指定版本，按该版本解读日志。",
    ),
    "no-record-remedy": (
        "Run inside a Lingjun/ACS image, or pass --release family:release (training-nv-pytorch:25.07).",
        "请在灵骏/ACS 镜像中运行，或用 --release family:release（如 training-nv-pytorch:25.07）指定版本。",
    ),
    "partial": (
        "Release {ref} chosen by matching installed component versions: {share} of its probed components match{next}",
        "按已安装组件匹配选定 {ref}：{share} 的可探测组件版本一致{next}",
    ),
    "next-candidates": ("; next candidates: {others}.", "；其次为：{others}。"),
    "end": (".", "。"),
    "partial-remedy": ("Pass --release to check against a specific release.", "如需按指定版本检查，请使用 --release。"),
    "ok": ("Release {ref} ({how}).", "发布记录 {ref}（{how}）。"),
    "other-variant": (
        "Release {ref} ({how}), but the installed packages match the {name} of this release better; did you mean {meant}?",
        "发布记录 {ref}（{how}），但已安装的软件包与该发布的 {name}更吻合；是否应为 {meant}？",
    ),
    "other-variant-remedy": ("Check against that image: --release {meant}.", "请按该镜像检查：--release {meant}。"),
    "variant-unknown": (
        "Release {ref} ({how}) publishes several images and the input matches {names} equally well: the variant is not known. "
        "Package checks compare only the {common} components every variant lists with the same version; checks that "
        "need one variant's values are skipped.",
        "发布记录 {ref}（{how}）发布了多个镜像，输入与 {names} 匹配程度相同，无法确定是哪个镜像变体。软件包检查只比较各变体版本相同的 "
        "{common} 个组件；需要某一变体取值的检查已跳过。",
    ),
    "variant-unknown-remedy": (
        "Pass --release with the image's tag (as in the release notes), or set LINGJUN_RELEASE to it.",
        "请用 --release 指定镜像标签（与发布记录中一致），或把 LINGJUN_RELEASE 设为该标签。",
    ),
    "runtime": (
        "The interpreter runs in the image's runtime {name} ({id}, {where}): its component list is the one checked.",
        "当前解释器位于镜像的运行时 {name}（{id}，{where}）中：检查使用该运行时的组件列表。",
    ),
})


def _said(kind: str, how: object) -> Text:
    """The words for ``how`` of ``kind`` ("how", "source"); an unforeseen value is shown as it is."""
    key = f"{kind}-{how}"
    return WORDS(key) if key in WORDS else Text(f"{how}", f"{how}")


def _rejected(ctx: CheckContext) -> Iterator[Finding]:
    """A warning for each LINGJUN_RELEASE / manifest value that named no known release and was passed over."""
    known = ", ".join(sorted(r.ref for r in ctx.data.records)) or "(none)"
    match = ctx.release
    then = WORDS("then-chosen", ref=match.ref, how=_said("how", match.how)) if match.record is not None else WORDS("then-none")
    for how, value in match.rejected:
        yield make(ctx, RULE, AREA, Severity.warning,
                   WORDS("rejected", source=_said("source", how), value=value, then=then, known=known),
                   remedy=WORDS("rejected-remedy"), observed=value)


@rule(RULE, AREA, "Release record identified", "已识别镜像发布记录", order=10)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning for each LINGJUN_RELEASE / manifest value naming no known release (passed over); then ok when a
    record applies (info when only a partial fingerprint chose it); info when none applies."""
    yield from _rejected(ctx)
    match = ctx.release
    if match.record is None or not match.ref:
        yield _unidentified(ctx)
        return
    how = _said("how", match.how)
    yield from _image(ctx)
    if match.variant_unknown:  # its line names the release and how it was chosen: no second line
        return
    if match.how == "fingerprint" and match.score is not None and match.score < 1.0:  # "partial" says how
        others = ", ".join(f"{ref} ({score:.0%})" for ref, score in match.candidates[:3])
        yield make(ctx, RULE, AREA, Severity.info,
                   WORDS("partial", ref=match.image_ref, share=f"{match.score:.0%}",
                         next=WORDS("next-candidates", others=others) if others else WORDS("end")),
                   remedy=WORDS("partial-remedy"), observed=match.image_ref)
        return
    hint = _other_variant(ctx, how)
    if hint is not None:  # one line: the release as named, and the variant the packages point to
        yield hint
        return
    yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", ref=match.image_ref, how=how), observed=match.image_ref)


def _unidentified(ctx: CheckContext) -> Finding:
    """info when no record applies: a release published but not yet recorded, one not in the data, or none named;
    skipped when nothing named one and the input is a log read alone (what release the job ran is not known)."""
    match = ctx.release
    if match.unrecorded is not None:
        where = ", ".join(match.unrecorded.get("named_in") or [])
        return make(ctx, RULE, AREA, Severity.info,
                    WORDS("unrecorded", ref=match.ref, where=Text(where, where) if where else WORDS("an-official-page")),
                    remedy=WORDS("unrecorded-remedy"), observed=match.ref)
    if match.ref:
        return make(ctx, RULE, AREA, Severity.info, WORDS("unknown-ref", ref=match.ref),
                    remedy=WORDS("unknown-ref-remedy"), observed=match.ref)
    if ctx.facts.origin == "log":  # not known from a log, not absent: the log was not the container
        return make(ctx, RULE, AREA, Severity.skipped, WORDS("log-unnamed"), remedy=WORDS("log-unnamed-remedy"))
    return make(ctx, RULE, AREA, Severity.info, WORDS("no-record"), remedy=WORDS("no-record-remedy"))


def _other_variant(ctx: CheckContext, how: Text) -> "Finding | None":
    """info when the variant was named (``--release``, a tag, the manifest) but the installed packages match another
    variant of the same release better: "did you mean #vllm?"; None otherwise."""
    match = ctx.release
    if match.how == "fingerprint" or not match.variant or not match.ref:
        return None

    other = better_variant(ctx.facts, ctx.data, match.ref, match.variant)
    if other is None:
        return None
    title = other.title or {}
    name = Text(f"{title.get('en') or other.id}", f"{title.get('zh') or other.id}")
    meant = f"{match.ref}#{other.id}"
    return make(ctx, RULE, AREA, Severity.info, WORDS("other-variant", ref=match.image_ref, how=how, name=name, meant=meant),
                remedy=WORDS("other-variant-remedy", meant=meant), observed=match.image_ref, expected=meant)


def _image(ctx: CheckContext) -> Iterator[Finding]:
    """info when the release publishes several images and the input does not show which one runs; info naming
    the runtime whose component list is checked when the interpreter lies in one."""
    match = ctx.release
    if match.variant_unknown:
        names = Text(", ".join(match.variant_candidates), "、".join(match.variant_candidates))
        common = len(ctx.record.components) if ctx.record is not None else 0
        yield make(ctx, RULE, AREA, Severity.info,
                   WORDS("variant-unknown", ref=match.ref, how=_said("how", match.how), names=names, common=common),
                   remedy=WORDS("variant-unknown-remedy"), observed=names.en)
    if match.runtime:
        runtime = match.runtime
        yield make(ctx, RULE, AREA, Severity.info,
                   WORDS("runtime", name=f"{runtime.get('name') or runtime.get('id')}", id=f"{runtime.get('id')}",
                         where=runtime.get("path") or ""),
                   observed=str(runtime.get("id")))
