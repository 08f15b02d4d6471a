"""packages.image-build-replaced: an image-specific build (torch, DeepSpeed, transformers...) replaced from PyPI."""

from __future__ import annotations

import re
from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.requirement_name import normalise
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.carried import usage_note_for
from lingjun.checks.knowledge.record_view import record_components
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import component_url, make
from lingjun.checks.rules._packages import record_packages
from lingjun.checks.rules._remedies import remedy_pair, restore_remedy
from lingjun.checks.rules._words import Words
from lingjun.checks.core.version_match import same_version

RULE = "packages.image-build-replaced"
AREA = "libraries"

_CUDA_WHEEL = re.compile(r"^nvidia-[a-z0-9-]+-cu\d+$")
#: how the replacing build was installed, named in the English message only: " (installed by pip, in /usr/lib/...)"
HOW = " ({how})"
INSTALLED_BY = "installed by {installer}"
INSTALLED_IN = "in {location}"

WORDS = Words({
    "quote-carried": (
        " The family's release notes ({provenance}) say: \"{note}\"",
        "本系列发布说明（{provenance}）写道：“{note}”",
    ),
    "quote": (" The release notes say: \"{note}\"", "发布说明写道：“{note}”"),
    "absent-wheels": (
        " CUDA wheels the image does not carry (its complete component list does not name them) are present: {wheels}.",
        "还出现了镜像本身没有的 CUDA wheel（其完整组件列表中没有）：{wheels}。",
    ),
    "unlisted-wheels": (
        " CUDA wheels not listed in the release's component list are present: {wheels}.",
        "还出现了发布组件列表中未列出的 CUDA wheel：{wheels}。",
    ),
    # {how}: how it was installed, in the English message only (the Chinese value is empty)
    "replaced-torch": (
        "{name} is {installed}{how}, not the image's build {published}: the image's own build was replaced, and "
        "everything compiled against it (extensions, DeepSpeed ops, Transformer Engine) is at risk.{wheels}{quote}",
        "{name} 当前为 {installed}{how}，不是镜像自带的构建 {published}：镜像的定制构建已被替换，"
        "基于它编译的扩展（DeepSpeed 算子、Transformer Engine 等）都可能失效。{wheels}{quote}",
    ),
    "replaced": (
        "{name} is {installed}{how}, not the image's build {published}: the image's own build was replaced, and "
        "the image's own changes to it are gone.{wheels}{quote}",
        "{name} 当前为 {installed}{how}，不是镜像自带的构建 {published}：镜像的定制构建已被替换，"
        "镜像对它所做的修改已不复存在。{wheels}{quote}",
    ),
    "ok": ("{intact} image-specific build(s) intact.", "{intact} 个镜像定制构建保持原样。"),
})


def _note_quote(ctx: CheckContext) -> Text:
    """The "do not reinstall" usage note (by rule id, else by wording; stated by the record, or carried from the
    family's earlier releases with its provenance) as the report quotes it; each language empty without its note's text."""
    note, carried = usage_note_for(ctx.data.releases, ctx.record, RULE)
    if note is None:
        for candidate in ctx.record.usage_notes if ctx.record is not None else ():
            if "reinstall" in candidate.text.get("en", "").lower() or "重装" in candidate.text.get("zh", ""):
                note = candidate
                break
    text = note.text if note is not None else {}
    en, zh = text.get("en") or "", text.get("zh") or ""
    if carried is not None:
        quote = WORDS("quote-carried", provenance=Text(carried.provenance_en, carried.provenance_zh), note=Text(en, zh))
    else:
        quote = WORDS("quote", note=Text(en, zh))
    return Text(quote.en if en else "", quote.zh if zh else "")


def _foreign_cuda_wheels(ctx: CheckContext) -> tuple[list[str], list[str]]:
    """``nvidia-*-cuNN`` distributions installed that the record does not list, as ``(absent, unlisted)``: ``absent``
    those the image is known not to carry (the record's list is complete and the wheel is a catalog component's PyPI
    name, so the list would name it), ``unlisted`` the others (the list does not track the wheel, or is partial)."""
    listed = set()
    for entry in record_components(ctx.record, ctx.facts.host.machine):
        comp = ctx.data.catalog_entry(entry.id)
        listed.update(normalise(n) for n in (comp.pypi if comp is not None else ()))
    tracked = {normalise(n) for comp in ctx.data.catalog for n in comp.pypi}
    complete = ctx.record is not None and ctx.record.component_list == "complete"
    absent, unlisted = [], []
    for dist in ctx.facts.distributions:
        name = normalise(dist.name)
        if _CUDA_WHEEL.match(name) and name not in listed:
            (absent if complete and name in tracked else unlisted).append(f"{dist.name} {dist.version or '?'}")
    return sorted(absent), sorted(unlisted)


def _wheels_text(absent: list[str], unlisted: list[str]) -> Text:
    """The sentences about CUDA wheels the release does not list; empty when there are none."""
    texts = [WORDS(key, wheels=", ".join(wheels[:6]))
             for key, wheels in (("absent-wheels", absent), ("unlisted-wheels", unlisted)) if wheels]
    return Text("".join(t.en for t in texts), "".join(t.zh for t in texts))


def _how(dist) -> Text:
    """How the replacing build was installed (the INSTALLER file, the location), in English only; empty when unknown."""
    how = []
    if dist is not None and dist.installer:  # the INSTALLER file; a collect_env paste records none
        how.append(INSTALLED_BY.format(installer=dist.installer))
    if dist is not None and dist.location:
        how.append(INSTALLED_IN.format(location=dist.location))
    return Text(HOW.format(how=", ".join(how)) if how else "", "")


@rule(RULE, AREA, "Image builds not replaced", "镜像定制构建未被替换", order=150, needs=("distributions",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error per vendor-build component whose installed version is not the image's build; ok when all are intact."""
    if ctx.record is None:
        return
    quote = _note_quote(ctx)
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
        yield make(
            ctx, RULE, AREA, Severity.error,
            WORDS("replaced-torch" if pkg.id == "torch" else "replaced", name=pkg.catalog.label,
                  installed=installed, how=_how(pkg.installed.dist), published=pkg.published,
                  wheels=_wheels_text(*foreign), quote=quote),
            remedy=remedy_pair(restore_remedy(ctx, [pkg])),
            observed=installed, expected=pkg.published, links=[component_url(ctx, pkg.id, pkg.published)],
        )
    if intact:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", intact=intact))
