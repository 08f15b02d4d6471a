"""python.interpreter: the running interpreter is the image's own Python and sees the image's packages."""

from __future__ import annotations

import re
from typing import Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._variant import variant_unknown_skip
from lingjun.checks.rules._packages import packages_probed, record_packages
from lingjun.checks.rules._words import Words

RULE = "python.interpreter"
AREA = "python"


WORDS = Words({
    "remedy": (
        "Run with the image's own interpreter (the python3 the image puts on PATH) instead of an added Python or venv; "
        "install extra packages into it with a constraints file.",
        "请使用镜像自带的解释器（镜像 PATH 中的 python3），不要另装 Python 或虚拟环境；需要额外的包时用约束文件装进该解释器。"),
    "where": (" ({where})", "（{where}）"),
    "names": (" ({names}).", "（{names}）。"),
    "stop": (".", "。"),
    "other-python": (
        "Python {version}{where} is running, but the image ships Python {expected}: this interpreter "
        "does not see the image's packages{names}",
        "当前运行的是 Python {version}{where}，而镜像自带的是 Python {expected}：该解释器看不到镜像中的包{names}"),
    "invisible": (
        "None of the image's own packages ({names}) is visible from {where}: this is not the image's Python environment "
        "(a virtualenv without system site-packages, or another interpreter).",
        "从 {where} 看不到任何镜像自带的包（{names}）：这不是镜像的 Python 环境（可能是未包含系统 site-packages 的虚拟环境，或另一个解释器）。"),
    "ok": ("Python {version} is the image's Python {expected}.", "Python {version} 即镜像自带的 Python {expected}。"),
})


def _major_minor(text: Optional[str]) -> Optional[tuple[int, int]]:
    match = re.match(r"^\s*([0-9]{1,18})\.([0-9]{1,18})(?![0-9])", text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def _none_visible(ctx: CheckContext, vendor: list, where: Optional[str]) -> bool:
    """Whether none of the image's own packages is visible from the interpreter at ``where``: this needs a full
    package list (a partial one, collect_env, shows only what it names) and a known interpreter."""
    return bool(ctx.facts.python.version and packages_probed(ctx) and vendor and where is not None
                and all(p.installed.version is None and p.installed.probed for p in vendor))


def _other_python(ctx: CheckContext, where: Optional[str], names: str) -> Finding:
    py, shipped = ctx.facts.python, ctx.record.python
    return make(ctx, RULE, AREA, Severity.error,
                WORDS("other-python", version=py.version, expected=shipped,
                      where=WORDS("where", where=where) if where else Text("", ""),
                      names=WORDS("names", names=names) if names else WORDS("stop")),
                remedy=WORDS("remedy"), observed=f"{py.version} ({where})" if where else py.version, expected=str(shipped))


def _judge(ctx: CheckContext) -> Optional[Finding]:
    """The interpreter against the record's Python: another major.minor, none of the image's packages visible, or
    the image's Python; None when the versions are not known."""
    py, shipped = ctx.facts.python, ctx.record.python
    expected, running = _major_minor(shipped), _major_minor(py.version)
    where = py.executable or py.prefix  # None: the input does not say which interpreter (a collect_env paste)
    vendor = [p for p in record_packages(ctx) if p.image_build or p.id == "torch"]
    names = ", ".join(f"{p.catalog.label} {p.published}" for p in vendor[:4])
    if expected and running and expected != running:
        return _other_python(ctx, where, names)
    if _none_visible(ctx, vendor, where):
        return make(ctx, RULE, AREA, Severity.error, WORDS("invisible", names=names, where=where),
                    remedy=WORDS("remedy"), observed=where, expected=str(shipped or ""))
    if running and expected:
        return make(ctx, RULE, AREA, Severity.ok, WORDS("ok", version=py.version, expected=shipped), observed=py.version,
                    expected=str(shipped))
    return None


@rule(RULE, AREA, "The image's Python is in use", "正在使用镜像自带的 Python", order=200, needs=("python",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when the interpreter's major.minor differs from the record's Python, or when none of the record's
    image-specific packages is visible from it; ok otherwise."""
    record = ctx.record
    if record is None or (not packages_probed(ctx) and not ctx.facts.python.version):
        return
    if not record.python:
        skip = variant_unknown_skip(ctx, RULE, AREA, "Python", " Python 版本")
        if skip is not None:
            yield skip
            return
    finding = _judge(ctx)
    if finding is not None:
        yield finding
