"""config.deepspeed-batch-size: ``train_batch_size`` against micro-batch x gradient accumulation x world size.

DeepSpeed's config reference (https://www.deepspeed.ai/docs/config-json/, "Batch Size Related Parameters"):
``train_batch_size`` must equal ``train_micro_batch_size_per_gpu * gradient_accumulation_steps * number of
GPUs``; when only two are given DeepSpeed derives the third, and it refuses a config where they disagree
("Check batch related parameters").  The number of GPUs is the job's world size: ``WORLD_SIZE`` as the
launcher sets it (``--gpus-per-pod`` counts one pod only, so it is not used); a ``WORLD_SIZE`` that is not a
number of ranks (0, a word, more than :data:`lingjun.checks.rules._pod.MAX_RANKS`) is not compared with.  Values that are not plain
integers (``"auto"``, strings) are left to ``config.deepspeed-auto`` / ``config.deepspeed-numeric-strings``.
DeepSpeed asserts each of the three is greater than 0 (``_batch_assertion`` in ``deepspeed/runtime/config.py``:
"Train batch size: ... has to be greater than 0"), so 0, a negative number or a number with a fractional part is
reported on its own.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import env_known, not_shown
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._deepspeed import DEEPSPEED_CONFIG_DOC, load
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words
from lingjun.checks.rules._pod import MAX_RANKS, env_int

RULE = "config.deepspeed-batch-size"
AREA = "config"
_KEYS = ("train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps")

WORDS = Words({
    "not-positive": (
        "{given}: {bad}; DeepSpeed needs every batch size and the accumulation steps to be whole numbers greater than 0{why}",
        "{given}：{bad}；DeepSpeed 要求批大小和梯度累积步数都是大于 0 的整数{why}",
    ),
    "why-refused": (" and refuses the config (\"has to be greater than 0\").", "，会拒绝此配置（“has to be greater than 0”）。"),
    "why-fractional": (": a fractional size cannot be split into whole per-GPU batches.", "：带小数的批大小无法分成整数的每卡批次。"),
    "not-positive-remedy": (
        "Use whole numbers greater than 0, or leave the value out / \"auto\".", "请使用大于 0 的整数，或删去该项 / 设为 \"auto\"。",
    ),
    "whole-number": ("a whole number > 0", "大于 0 的整数"),
    "remedy": (
        "Give two of train_batch_size, train_micro_batch_size_per_gpu and gradient_accumulation_steps and let DeepSpeed "
        "derive the third, or make train_batch_size = micro-batch x accumulation steps x number of GPUs.",
        "请只给出 train_batch_size、train_micro_batch_size_per_gpu、gradient_accumulation_steps 中的两个，由 DeepSpeed 推算第三个，"
        "或保证 train_batch_size = 微批大小 x 梯度累积步数 x GPU 数。",
    ),
    "formula": ("{micro} x {accum} x {world} = {wanted}", "{micro} x {accum} x {world} = {wanted}"),
    "not-a-multiple": ("not a multiple of {per_world} x {world}", "not a multiple of {per_world} x {world}"),
    "world-mismatch": (
        "{given}: {shown}, but with WORLD_SIZE={world} DeepSpeed needs train_batch_size = micro-batch x accumulation "
        "x world size ({formula}); it refuses the config (\"Check batch related parameters\").",
        "{given}：{shown}，但 WORLD_SIZE={world} 时 DeepSpeed 要求 train_batch_size = 微批大小 x 梯度累积步数 x 进程总数"
        "（{formula}）；DeepSpeed 会拒绝此配置（“Check batch related parameters”）。",
    ),
    "world-ok": ("{given}: {shown} agree with WORLD_SIZE={world}.", "{given}：{shown} 与 WORLD_SIZE={world} 一致。"),
    "no-world-fits": (
        "{given}: {shown}; train_batch_size is not a multiple of {per_world}, so no number of GPUs makes micro-batch x "
        "accumulation x world size equal it and DeepSpeed refuses the config.",
        "{given}：{shown}；train_batch_size 不是 {per_world} 的整数倍，任何 GPU 数都无法使 微批大小 x 梯度累积步数 x 进程总数 等于它，"
        "DeepSpeed 会拒绝此配置。",
    ),
    "world-unset": (
        "WORLD_SIZE is not set (the job is not started by a launcher here)", "未设置 WORLD_SIZE（当前不是由启动器启动的）",
    ),
    "world-not-a-count": (
        "WORLD_SIZE is set but is not a number of ranks (a whole number from 1 to {most})",
        "WORLD_SIZE 已设置，但不是有效的进程数（应为 1 到 {most} 的整数）",
    ),
    "fits": (
        "{given}: {shown}; these fit a world size of {fits} GPU(s) only{divisor}. Not compared with the job's world size: {reason}.",
        "{given}：{shown}；它们只适用于 {fits} 个 GPU 的总进程数{divisor}。未与作业的进程总数比较：{reason}。",
    ),
    "or-divisor": (" (or a divisor of it)", "（或其约数）"),
})


def _int(value: Any) -> Optional[int]:
    if isinstance(value, float) and value.is_integer() and value > 0:
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _not_positive_int(value: Any) -> bool:
    """A JSON number DeepSpeed refuses here: 0, negative, with a fractional part, or not finite (strings are left to other rules)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return _int(value) is None


@rule(RULE, AREA, "DeepSpeed batch sizes agree", "训练配置的批大小参数一致", order=346)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--deepspeed-config``: error when train_batch_size differs from micro-batch x accumulation x WORLD_SIZE, or
    cannot be divided into them for any world size, or when one of them is 0, negative or fractional; info when the
    world size is not shown; ok when they agree;
    nothing when fewer than two of the three are plain integers, or train_batch_size is not one (DeepSpeed derives it)."""
    loaded = load(ctx)
    if loaded is None:
        return
    config, given = loaded
    bad = [k for k in _KEYS if _not_positive_int(config.get(k))]
    if bad:
        yield _not_positive(ctx, given, config, bad)
        return
    total, micro, accum = (_int(config.get(k)) for k in _KEYS)
    if sum(v is not None for v in (total, micro, accum)) < 2 or total is None:
        return  # with train_batch_size missing DeepSpeed computes it from the other two
    shown = ", ".join(f"{k}={v}" for k, v in zip(_KEYS, (total, micro, accum)) if v is not None)
    world = env_int(ctx.facts, "WORLD_SIZE")  # a rank count, so at least 1 (0 would divide by zero)
    if world is not None:
        yield _against_world(ctx, given, shown, (total, micro, accum), world)
    elif total % ((micro or 1) * (accum or 1)) != 0:
        yield make(ctx, RULE, AREA, Severity.error,
                   WORDS("no-world-fits", given=given, shown=shown, per_world=(micro or 1) * (accum or 1)),
                   remedy=WORDS("remedy"), observed=shown, links=[DEEPSPEED_CONFIG_DOC])
    else:
        yield _world_unknown(ctx, given, shown, (total, micro, accum))


def _not_positive(ctx: CheckContext, given: str, config: dict, bad: list[str]) -> Finding:
    """The error for the ``bad`` keys: 0 or negative (DeepSpeed refuses the config) or fractional."""
    shown_bad = ", ".join(f"{k}={json.dumps(config.get(k))}" for k in bad)
    non_positive = any(isinstance(config.get(k), (int, float)) and not isinstance(config.get(k), bool) and config.get(k) <= 0
                       for k in _KEYS)
    return make(ctx, RULE, AREA, Severity.error,
                WORDS("not-positive", given=given, bad=shown_bad, why=WORDS("why-refused" if non_positive else "why-fractional")),
                remedy=WORDS("not-positive-remedy"), observed=shown_bad, expected=WORDS("whole-number"),
                links=[DEEPSPEED_CONFIG_DOC])


def _against_world(ctx: CheckContext, given: str, shown: str, sizes: tuple, world: int) -> Finding:
    """``sizes`` (train batch, micro-batch or None, accumulation or None) against the launcher's WORLD_SIZE."""
    total, micro, accum = sizes
    per_world = (micro or 1) * (accum or 1)
    wanted = per_world * world if micro is not None and accum is not None else None
    if wanted is not None and wanted != total or total % (per_world * world) != 0:
        formula = (WORDS("formula", micro=micro, accum=accum, world=world, wanted=wanted) if wanted is not None
                   else WORDS("not-a-multiple", per_world=per_world, world=world))
        return make(ctx, RULE, AREA, Severity.error, WORDS("world-mismatch", given=given, shown=shown, world=world, formula=formula),
                    remedy=WORDS("remedy"), observed=f"{shown}, WORLD_SIZE={world}", expected=str(wanted) if wanted else None,
                    links=[DEEPSPEED_CONFIG_DOC])
    return make(ctx, RULE, AREA, Severity.ok, WORDS("world-ok", given=given, shown=shown, world=world),
                observed=f"{shown}, WORLD_SIZE={world}")


def _world_unknown(ctx: CheckContext, given: str, shown: str, sizes: tuple) -> Finding:
    """Info: the world size(s) ``sizes`` fit, as WORLD_SIZE is unset, not shown, or not a number of ranks."""
    total, micro, accum = sizes
    if ctx.facts.env.get("WORLD_SIZE") is not None:  # 0, a word, an implausible count: no world size to divide by
        reason = WORDS("world-not-a-count", most=MAX_RANKS)
    elif env_known(ctx.facts, "WORLD_SIZE"):
        reason = WORDS("world-unset")
    else:
        reason = not_shown(ctx.facts, Text("WORLD_SIZE", "WORLD_SIZE"))
    divisor = Text("", "") if micro and accum else WORDS("or-divisor")
    return make(ctx, RULE, AREA, Severity.info,
                WORDS("fits", given=given, shown=shown, fits=total // ((micro or 1) * (accum or 1)), divisor=divisor, reason=reason),
                observed=shown, links=[DEEPSPEED_CONFIG_DOC])
