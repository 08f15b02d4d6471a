"""libraries.nccl-cuda-majors: NCCL wheels for two CUDA majors overwrite the same libnccl.so.2."""

from __future__ import annotations

import re
from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.core.compat import parse_cuda
from lingjun.checks.core.requirement_name import normalise
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "libraries.nccl-cuda-majors"
AREA = "libraries"
TORCH_ISSUE = "https://github.com/pytorch/pytorch/issues/186591"
_WHEEL = re.compile(r"^nvidia-nccl-cu([0-9]{1,18})$")  # a longer digit run is not a CUDA major (nor int()-able)


WORDS = Words({
    "keep-wheel": ("nvidia-nccl-cu{major}", "nvidia-nccl-cu{major}"),
    "keep-matching": ("the one matching torch.version.cuda", "与 torch.version.cuda 对应的那个"),
    "remedy-any": (
        "Keep only {keep}: pip uninstall -y each of the other nvidia-nccl-cuNN wheels, then "
        "pip install --no-deps --force-reinstall the one you keep (at its installed version) to restore its library file.",
        "只保留 {keep}：用 pip uninstall -y 卸载其余 nvidia-nccl-cuNN wheel，再用 pip install --no-deps --force-reinstall "
        "按原版本重装保留的那个，以恢复其库文件。",
    ),
    "remedy": (
        "Keep only {keep}: {uninstall}, then {reinstall} (it restores the library file the others overwrote).",
        "只保留 {keep}：{uninstall}，然后 {reinstall}（恢复被其他 wheel 覆盖的库文件）。",
    ),
    "ok": ("One NCCL wheel family installed: {listed}.", "只安装了一套 NCCL wheel：{listed}。"),
    "several": (
        "NCCL wheels for several CUDA majors are installed ({listed}); they write the same nvidia/nccl/lib/libnccl.so.2, "
        "so the last one installed wins and torch may load an NCCL it was not built for (\"undefined symbol: ncclCommResume\").",
        "安装了多个 CUDA 主版本的 NCCL wheel（{listed}）；它们写入同一个 nvidia/nccl/lib/libnccl.so.2，最后安装的会覆盖前者，"
        "torch 可能加载到不匹配的 NCCL（“undefined symbol: ncclCommResume”）。",
    ),
    "keep-only": ("{keep} only", "仅 {keep}"),
})


def _remedy(wheels: dict, keep: Text, torch_cuda) -> Text:
    """The commands that leave one NCCL wheel: uninstall the others, then reinstall the one kept at its installed version."""
    if torch_cuda is None:
        return WORDS("remedy-any", keep=keep)
    others = sorted(n for n, (m, _) in wheels.items() if m != torch_cuda.major)
    kept = next(((n, v) for n, (m, v) in wheels.items() if m == torch_cuda.major), None)
    uninstall = f"pip uninstall -y {' '.join(others)}"
    reinstall = f"pip install --no-deps --force-reinstall '{kept[0]}=={kept[1]}'" if kept else f"pip install --no-deps {keep.en}"
    return WORDS("remedy", keep=keep, uninstall=uninstall, reinstall=reinstall)


@rule(RULE, AREA, "One NCCL wheel per CUDA major", "NCCL wheel 只对应一个 CUDA 主版本", order=190, needs=("distributions",))
def check(ctx: CheckContext) -> Iterator[Finding]:
    """error when nvidia-nccl-cu* wheels for more than one CUDA major are installed; ok with one."""
    wheels: dict[str, tuple[int, str]] = {}
    for dist in ctx.facts.distributions:
        match = _WHEEL.match(normalise(dist.name))
        if match:
            wheels[dist.name] = (int(match.group(1)), dist.version or "?")
    for wheel in ctx.facts.nccl.wheels:
        match = _WHEEL.match(normalise(wheel.name))
        if match and wheel.name not in wheels:
            wheels[wheel.name] = (wheel.cuda_major or int(match.group(1)), wheel.version or "?")
    if not wheels:
        return

    majors = sorted({m for m, _ in wheels.values()})
    listed = ", ".join(f"{name} {version}" for name, (_, version) in sorted(wheels.items()))
    if len(majors) == 1:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", listed=listed), observed=listed)
        return
    torch_cuda = parse_cuda(ctx.facts.torch.cuda) if ctx.facts.torch and ctx.facts.torch.cuda else None
    keep = WORDS("keep-wheel", major=torch_cuda.major) if torch_cuda else WORDS("keep-matching")
    yield make(ctx, RULE, AREA, Severity.error, WORDS("several", listed=listed), remedy=_remedy(wheels, keep, torch_cuda),
               observed=listed, expected=WORDS("keep-only", keep=keep) if torch_cuda else None, links=[TORCH_ISSUE])
