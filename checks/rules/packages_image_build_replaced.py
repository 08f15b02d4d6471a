"""packages.image-build-replaced: an image-specific build (torch, DeepSpeed, transformers...) replaced from PyPI."""

from __future__ import annotations

import re
from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.requirement_name import normalise
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.knowledge.carried import usage_note_for
from lingjun.checks.knowledge.record_view import record_components
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import component_url, make
from lingjun.checks.rules._packages import record_packages
from lingjun.checks.rules._remedies import remedy_pair, restore_remedy
from lingjun.checks.core.version_match import same_version

RULE = "packages.image-build-replaced"
AREA = "libraries"

_CUDA_WHEEL = re.compile(r"^nvidia-[a-z0-9-]+-cu\d+$")


def _note_quote(ctx: CheckContext) -> tuple[str, str]:
    """The "do not reinstall" usage note (by rule id, else by wording; stated by the record, or carried from the
    family's earlier releases with its provenance) as the report quotes it, (en, zh); empty strings without one."""
    note, carried = usage_note_for(ctx.data.releases, ctx.record, RULE)
    if note is None:
        for candidate in (ctx.record or {}).get("usage_notes") or []:
            text = (candidate or {}).get("text") or {}
            if "reinstall" in str(text.get("en", "")).lower() or "重装" in str(text.get("zh", "")):
                note = candidate
                break
    text = (note or {}).get("text") or {}
    en, zh = str(text.get("en") or ""), str(text.get("zh") or "")
    if carried is not None:
        return (f" The family's release notes ({carried.provenance_en}) say: \"{en}\"" if en else "",
                f"本系列发布说明（{carried.provenance_zh}）写道：“{zh}”" if zh else "")
    return (f" The release notes say: \"{en}\"" if en else "", f"发布说明写道：“{zh}”" if zh else "")


def _foreign_cuda_wheels(ctx: CheckContext) -> tuple[list[str], list[str]]:
    """``nvidia-*-cuNN`` distributions installed that the record does not list, as ``(absent, unlisted)``: ``absent``
    those the image is known not to carry (the record's list is complete and the wheel is a catalog component's PyPI
    name, so the list would name it), ``unlisted`` the others (the list does not track the wheel, or is partial)."""
    listed = set()
    for entry in record_components(ctx.record, ctx.facts.host.machine):
        comp = ctx.data.component(entry.get("id", "")) or {}
        listed.update(normalise(n) for n in comp.get("pypi") or [] if isinstance(n, str))
    tracked = {normalise(n) for comp in ctx.data.components for n in comp.get("pypi") or [] if isinstance(n, str)}
    complete = (ctx.record or {}).get("component_list") == "complete"
    absent, unlisted = [], []
    for dist in ctx.facts.distributions:
        name = normalise(dist.name)
        if _CUDA_WHEEL.match(name) and name not in listed:
            (absent if complete and name in tracked else unlisted).append(f"{dist.name} {dist.version or '?'}")
    return sorted(absent), sorted(unlisted)


def _wheels_text(absent: list[str], unlisted: list[str]) -> tuple[str, str]:
    """The sentence about CUDA wheels the release does not list (en, zh); empty when there are none."""
    en = zh = ""
    if absent:
        en += f" CUDA wheels the image does not carry (its complete component list does not name them) are present: {', '.join(absent[:6])}."
        zh += f"还出现了镜像本身没有的 CUDA wheel（其完整组件列表中没有）：{', '.join(absent[:6])}。"
    if unlisted:
        en += f" CUDA wheels not listed in the release's component list are present: {', '.join(unlisted[:6])}."
        zh += f"还出现了发布组件列表中未列出的 CUDA wheel：{', '.join(unlisted[:6])}。"
    return en, zh


@rule(RULE, AREA, "Image builds not replaced", "镜像定制构建未被替换", order=150, needs=("distributions",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error per vendor-build component whose installed version is not the image's build; ok when all are intact."""
    if ctx.record is None:
        return
    quote_en, quote_zh = _note_quote(ctx)
    intact = 0
    foreign = None
    for pkg in record_packages(ctx):
        if not pkg.image_build:
            continue
        installed = pkg.installed.version
        if installed is None:
            continue
        same = same_version(pkg.published, installed)
        if same is not False:
            intact += same is True
            continue
        if foreign is None:
            foreign = _foreign_cuda_wheels(ctx)
        dist = pkg.installed.dist
        how = []
        if dist is not None and dist.installer:  # the INSTALLER file; a collect_env paste records none
            how.append(f"installed by {dist.installer}")
        if dist is not None and dist.location:
            how.append(f"in {dist.location}")
        how_en = f" ({', '.join(how)})" if how else ""
        wheels_en, wheels_zh = _wheels_text(*foreign)
        name = pkg.catalog.get("name", pkg.id)
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"{name} is {installed}{how_en}, not the image's build {pkg.published}: the image's own build was replaced, and "
            + (f"everything compiled against it (extensions, DeepSpeed ops, Transformer Engine) is at risk."
               if pkg.id == "torch" else "the image's own changes to it are gone.") + f"{wheels_en}{quote_en}",
            f"{name} 当前为 {installed}，不是镜像自带的构建 {pkg.published}：镜像的定制构建已被替换，"
            + ("基于它编译的扩展（DeepSpeed 算子、Transformer Engine 等）都可能失效。" if pkg.id == "torch" else "镜像对它所做的修改已不复存在。")
            + f"{wheels_zh}{quote_zh}",
            remedy=remedy_pair(restore_remedy(ctx, [pkg])),
            observed=installed, expected=pkg.published, links=[component_url(ctx, pkg.id, pkg.published)],
        )
    if intact:
        yield make(ctx, RULE, AREA, Severity.ok, f"{intact} image-specific build(s) intact.", f"{intact} 个镜像定制构建保持原样。")
