"""packages.missing: Python packages the release ships but this interpreter does not see."""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import input_name
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import NOT_INSTALLED, component_url, listing, make
from lingjun.checks.rules._packages import packages_probed, record_packages
from lingjun.checks.rules._remedies import restore_remedy
from lingjun.checks.rules._words import Words

RULE = "packages.missing"
AREA = "libraries"


WORDS = Words({
    "remedy": (
        "If this interpreter is not the image's own Python, run the image's (see python.interpreter). {back}",
        "如果当前解释器不是镜像自带的 Python，请改用镜像自带的（见 python.interpreter）。{back}",
    ),
    "not-probed": ("Installed Python packages were not probed.", "未探测已安装的 Python 包。"),
    "missing-one": (
        "{count} package of the release is not installed for this interpreter: {items}.",
        "该发布中有 {count} 个 Python 包在当前解释器中未安装：{items}。",
    ),
    "missing": (
        "{count} packages of the release are not installed for this interpreter: {items}.",
        "该发布中有 {count} 个 Python 包在当前解释器中未安装：{items}。",
    ),
    "not-installed": ("{count} not installed", "{count} 个未安装"),
    "ok": ("{present} release package(s) found installed.", "找到 {present} 个发布中的 Python 包。"),
    "unlisted": (
        "{count} package(s) of the release were not checked: {name} lists only some packages and does not name them: {items}.",
        "该发布中有 {count} 个 Python 包未检查：{name}只列出部分包，其中没有它们：{items}。",
    ),
})


def _remedy(ctx, missing) -> Text:
    """If this is not the image's Python, python.interpreter says so; otherwise the packages were removed: those a public
    index serves come back with pip, the image's own builds (DeepSpeed 0.16.9+ali) only with a fresh container."""
    return WORDS("remedy", back=restore_remedy(ctx, missing))


def _listed(key: str, packages: list, **values: object) -> tuple[Text, tuple[str, str], str]:
    """``(message, brief, full)`` for the entry ``key`` listing ``packages`` ("DeepSpeed 0.16.9+ali, ..."): the message
    names them all, the brief (the text report's) at most :data:`~lingjun.checks.rules._finding.BRIEF_ITEMS`."""
    full, short_en, short_zh = listing([f"{p.catalog.label} {p.published}" for p in packages])
    short = WORDS(key, items=Text(short_en, short_zh), **values)
    return WORDS(key, items=full, **values), (short.en, short.zh), full


@rule(RULE, AREA, "Release packages installed", "发布中的 Python 包均已安装", order=130, needs=("distributions",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning per record component (pypi probe) that is not installed; ok when all are present."""
    if ctx.record is None:
        return
    if not packages_probed(ctx):
        yield make(ctx, RULE, AREA, Severity.skipped, WORDS("not-probed"))
        return
    present = 0
    missing = []
    unlisted = []  # a partial list (collect_env) does not name them: not known either way
    for pkg in record_packages(ctx):
        if pkg.installed.version is not None:
            present += 1
        elif pkg.installed.probed:
            missing.append(pkg)
        else:
            unlisted.append(pkg)
    if missing:
        count = len(missing)
        message, brief, full = _listed("missing" if count > 1 else "missing-one", missing, count=count)
        yield make(
            ctx, RULE, AREA, Severity.warning, message, brief=brief, remedy=_remedy(ctx, missing),
            # observed is what was found; the record's versions only when they fit (they are in the message)
            observed=NOT_INSTALLED if count == 1 else WORDS("not-installed", count=count),
            expected=full if count <= 2 else None,
            links=[component_url(ctx, p.id, p.published) for p in missing[:3]],
        )
    if present:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", present=present))
    if unlisted:
        message, brief, _ = _listed("unlisted", unlisted, count=len(unlisted), name=input_name(ctx.facts))
        yield make(ctx, RULE, AREA, Severity.skipped, message, brief=brief)
