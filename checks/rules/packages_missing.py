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

RULE = "packages.missing"
AREA = "libraries"


def _remedy(ctx, missing) -> tuple[str, str]:
    """If this is not the image's Python, python.interpreter says so; otherwise the packages were removed: those a public
    index serves come back with pip, the image's own builds (DeepSpeed 0.16.9+ali) only with a fresh container."""
    back = restore_remedy(ctx, missing)
    return ("If this interpreter is not the image's own Python, run the image's (see python.interpreter). " + back.en,
            "如果当前解释器不是镜像自带的 Python，请改用镜像自带的（见 python.interpreter）。" + back.zh)


@rule(RULE, AREA, "Release packages installed", "发布中的 Python 包均已安装", order=130, needs=("distributions",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """warning per record component (pypi probe) that is not installed; ok when all are present."""
    if ctx.record is None:
        return
    if not packages_probed(ctx):
        yield make(ctx, RULE, AREA, Severity.skipped, "Installed Python packages were not probed.", "未探测已安装的 Python 包。")
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
        names = [f"{p.catalog.get('name', p.id)} {p.published}" for p in missing]
        full, short_en, short_zh = listing(names)
        count = len(missing)
        lead_en = (f"{count} packages of the release are not installed" if count > 1
                   else "1 package of the release is not installed") + " for this interpreter: "
        lead_zh = f"该发布中有 {count} 个 Python 包在当前解释器中未安装："
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"{lead_en}{full}.", f"{lead_zh}{full}。",
            brief=(f"{lead_en}{short_en}.", f"{lead_zh}{short_zh}。"),
            remedy=_remedy(ctx, missing),
            # observed is what was found; the record's versions only when they fit (they are in the message)
            observed=NOT_INSTALLED if count == 1 else Text(f"{count} not installed", f"{count} 个未安装"),
            expected=full if count <= 2 else None,
            links=[component_url(ctx, p.id, p.published) for p in missing[:3]],
        )
    if present:
        yield make(ctx, RULE, AREA, Severity.ok, f"{present} release package(s) found installed.",
                   f"找到 {present} 个发布中的 Python 包。")
    if unlisted:
        names = [f"{p.catalog.get('name', p.id)} {p.published}" for p in unlisted]
        full, short_en, short_zh = listing(names)
        name = input_name(ctx.facts)
        lead_en = f"{len(unlisted)} package(s) of the release were not checked: {name.en} lists only some packages and does not name them: "
        lead_zh = f"该发布中有 {len(unlisted)} 个 Python 包未检查：{name.zh}只列出部分包，其中没有它们："
        yield make(ctx, RULE, AREA, Severity.skipped, f"{lead_en}{full}.", f"{lead_zh}{full}。",
                   brief=(f"{lead_en}{short_en}.", f"{lead_zh}{short_zh}。"))
