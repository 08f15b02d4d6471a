"""python.interpreter: the running interpreter is the image's own Python and sees the image's packages."""

from __future__ import annotations

import re
from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._variant import variant_unknown_skip
from lingjun.checks.rules._packages import packages_probed, record_packages

RULE = "python.interpreter"
AREA = "python"


def _major_minor(text: Optional[str]) -> Optional[tuple[int, int]]:
    match = re.match(r"^\s*([0-9]{1,18})\.([0-9]{1,18})(?![0-9])", text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


@rule(RULE, AREA, "The image's Python is in use", "正在使用镜像自带的 Python", order=200, needs=("python",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the interpreter's major.minor differs from the record's Python, or when none of the record's
    image-specific packages is visible from it; ok otherwise."""
    record = ctx.record
    if record is None:
        return
    if not packages_probed(ctx) and not ctx.facts.python.version:
        return
    py = ctx.facts.python
    if not record.get("python"):
        skip = variant_unknown_skip(ctx, RULE, AREA, "Python", " Python 版本")
        if skip is not None:
            yield skip
            return
    expected = _major_minor(record.get("python"))
    running = _major_minor(py.version)
    where = py.executable or py.prefix  # None: the input does not say which interpreter (a collect_env paste)
    vendor = [p for p in record_packages(ctx) if p.image_build or p.id == "torch"]
    # "none visible" needs a full package list: a partial one (collect_env) shows only what it names
    invisible = (bool(py.version) and packages_probed(ctx) and vendor and all(p.installed.version is None for p in vendor)
                 and all(p.installed.probed for p in vendor) and where is not None)
    names = ", ".join(f"{p.catalog.get('name', p.id)} {p.published}" for p in vendor[:4])
    remedy = ("Run with the image's own interpreter (the python3 the image puts on PATH) instead of an added Python or venv; "
              "install extra packages into it with a constraints file.",
              "请使用镜像自带的解释器（镜像 PATH 中的 python3），不要另装 Python 或虚拟环境；需要额外的包时用约束文件装进该解释器。")
    if expected and running and expected != running:
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"Python {py.version}{f' ({where})' if where else ''} is running, but the image ships Python {record.get('python')}: this interpreter "
            f"does not see the image's packages" + (f" ({names})." if names else "."),
            f"当前运行的是 Python {py.version}{f'（{where}）' if where else ''}，而镜像自带的是 Python {record.get('python')}：该解释器看不到镜像中的包"
            + (f"（{names}）。" if names else "。"),
            remedy=remedy, observed=f"{py.version} ({where})" if where else py.version, expected=str(record.get("python")),
        )
        return
    if invisible:
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"None of the image's own packages ({names}) is visible from {where}: this is not the image's Python environment "
            f"(a virtualenv without system site-packages, or another interpreter).",
            f"从 {where} 看不到任何镜像自带的包（{names}）：这不是镜像的 Python 环境（可能是未包含系统 site-packages 的虚拟环境，或另一个解释器）。",
            remedy=remedy, observed=where, expected=str(record.get("python") or ""),
        )
        return
    if running and expected:
        yield make(ctx, RULE, AREA, Severity.ok, f"Python {py.version} is the image's Python {record.get('python')}.",
                   f"Python {py.version} 即镜像自带的 Python {record.get('python')}。", observed=py.version,
                   expected=str(record.get("python")))
