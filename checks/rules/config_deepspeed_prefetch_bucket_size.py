"""config.deepspeed-prefetch-bucket-size: pre-flight of ``zero_optimization.stage3_prefetch_bucket_size``.

DeepSpeed 0.15 moved its config to pydantic v2, which refuses a float with a
fractional part for this integer field.  transformers fills ``"auto"`` with
``0.9 * hidden_size * hidden_size``: a float (15099494.4 for hidden size
4096) up to 4.44.x; 4.45.0 casts it to int (huggingface/transformers
PR #33402; checked in the published wheels: 4.44.2 fills the float,
4.45.0 the int).
"""

from __future__ import annotations

from typing import Iterator, Optional

from packaging.version import Version

from lingjun.checks.context import CheckContext
from lingjun.checks.core.small_int import small_int
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.knowledge.carried import usage_note_for
from lingjun.checks.rules import rule
from lingjun.checks.rules._deepspeed import load
from lingjun.checks.rules._finding import EMPTY, make
from lingjun.checks.core.version_match import parse_version

RULE = "config.deepspeed-prefetch-bucket-size"
AREA = "config"
#: what the usage note allows, as the report's "expected"
_INT_EMPTY_OR_AUTO = Text("integer, empty or auto", "整数、留空或 auto")
_EMPTY_OR_AUTO = Text("empty or auto", "留空或 auto")
KEY = "zero_optimization.stage3_prefetch_bucket_size"
DEEPSPEED_PYDANTIC_V2 = Version("0.15")
TRANSFORMERS_INT_CAST = Version("4.45.0")
TRANSFORMERS_FIX = "https://github.com/huggingface/transformers/pull/33402"
DEEPSPEED_ISSUE = "https://github.com/deepspeedai/DeepSpeed/issues/6525"


def _version(ctx: CheckContext, name: str) -> tuple[Optional[str], Optional[Version]]:
    dist = ctx.facts.distribution(name)
    text = dist.version if dist else None
    return text, parse_version(text)


@rule(RULE, AREA, "ZeRO-3 prefetch bucket size is valid", "ZeRO-3 预取桶大小配置有效", order=240)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--deepspeed-config``: error for fractional numbers, non-numbers, and ``auto`` that the installed
    transformers will fill with a float for DeepSpeed >= 0.15; warning for integers where the release asks for
    empty/``auto``; ok otherwise.  Silent on a file that cannot be used (``config.deepspeed-file`` reports it)."""
    given = ctx.options.deepspeed_config
    if not given:
        return
    from lingjun.checks.inputs import deepspeed_config  # only with --deepspeed-config

    loaded = load(ctx)
    if loaded is None:  # the file cannot be used: config.deepspeed-file says why, under the input's name
        return
    config, _ = loaded
    present, value = deepspeed_config.lookup(config, KEY)
    note, carried = usage_note_for(ctx.data.releases, ctx.record, RULE)
    ds_text, ds = _version(ctx, "deepspeed")
    tf_text, tf = _version(ctx, "transformers")
    links = [TRANSFORMERS_FIX, DEEPSPEED_ISSUE]
    if not present or value is None:
        yield make(ctx, RULE, AREA, Severity.ok, f"{KEY} is not set ({given}); DeepSpeed uses its default.",
                   f"{given} 未设置 {KEY}，DeepSpeed 使用默认值。", observed=EMPTY)
        return
    if value == "auto":
        if ds is not None and ds >= DEEPSPEED_PYDANTIC_V2 and tf is not None and tf < TRANSFORMERS_INT_CAST:
            yield make(
                ctx, RULE, AREA, Severity.error,
                f"{KEY} is \"auto\" ({given}): transformers {tf_text} fills it with 0.9 * hidden_size^2, a float such as "
                f"15099494.4, and DeepSpeed {ds_text} rejects it (\"Input should be a valid integer, got a number with a "
                f"fractional part\").",
                f"{given} 中 {KEY} 为 \"auto\"：transformers {tf_text} 会把它填成 0.9 * hidden_size^2 这样的小数（如 15099494.4），"
                f"DeepSpeed {ds_text} 会拒绝（“Input should be a valid integer, got a number with a fractional part”）。",
                remedy=(f"Set an integer (e.g. 15099494 for hidden size 4096), or use transformers {TRANSFORMERS_INT_CAST} or later, "
                        f"or DeepSpeed older than {DEEPSPEED_PYDANTIC_V2}.",
                        f"请改为整数（隐藏维度 4096 时可设 15099494），或使用 transformers {TRANSFORMERS_INT_CAST} 及以上版本，"
                        f"或使用低于 {DEEPSPEED_PYDANTIC_V2} 的 DeepSpeed。"),
                observed=f"auto; deepspeed {ds_text}, transformers {tf_text}",
                expected=f"transformers >= {TRANSFORMERS_INT_CAST}", links=links,
            )
            return
        if ds is not None and ds >= DEEPSPEED_PYDANTIC_V2 and tf is None and tf_text is not None:
            yield make(ctx, RULE, AREA, Severity.warning,
                       f"{KEY} is \"auto\" with DeepSpeed {ds_text}; transformers version {tf_text!r} is unreadable, so whether it "
                       f"fills an integer (transformers >= {TRANSFORMERS_INT_CAST}) is unknown.",
                       f"{KEY} 为 \"auto\"，DeepSpeed 为 {ds_text}；transformers 版本 {tf_text!r} 无法解析，无法确定它是否会填入整数"
                       f"（transformers >= {TRANSFORMERS_INT_CAST} 才会）。", observed="auto", links=links)
            return
        yield make(ctx, RULE, AREA, Severity.ok, f"{KEY} is \"auto\" ({given}), as the release asks.",
                   f"{given} 中 {KEY} 为 \"auto\"，符合发布说明。", observed="auto")
        return
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        yield make(ctx, RULE, AREA, Severity.error, f"{KEY} is {value!r} ({given}); DeepSpeed needs an integer.",
                   f"{given} 中 {KEY} 为 {value!r}，DeepSpeed 需要整数。",
                   remedy=("Leave it empty or set \"auto\".", "请留空或设为 \"auto\"。"), observed=repr(value))
        return
    if isinstance(value, str):
        if small_int(value) is None:  # not 1 to 18 ASCII digits (a longer run is no bucket size, nor int()-able)
            yield make(ctx, RULE, AREA, Severity.error,
                       f"{KEY} is the string {value!r} ({given}); DeepSpeed accepts an integer or \"auto\" (lower case).",
                       f"{given} 中 {KEY} 为字符串 {value!r}；DeepSpeed 只接受整数或小写的 \"auto\"。",
                       remedy=("Leave it empty or set \"auto\".", "请留空或设为 \"auto\"。"), observed=value)
            return
    elif isinstance(value, float) and value in (float("inf"), float("-inf")):
        yield make(ctx, RULE, AREA, Severity.error,
                   f"{KEY} is {value} ({given}), not a finite number (JSON numbers this large overflow); DeepSpeed needs an integer.",
                   f"{given} 中 {KEY} 为 {value}，不是有限数值（过大的 JSON 数字会溢出）；DeepSpeed 需要整数。",
                   remedy=("Leave it empty or set \"auto\".", "请留空或设为 \"auto\"。"), observed=str(value),
                   expected=_INT_EMPTY_OR_AUTO)
        return
    elif isinstance(value, float) and not value.is_integer():
        yield make(
            ctx, RULE, AREA, Severity.error,
            f"{KEY} is {value} ({given}), a number with a fractional part; DeepSpeed >= {DEEPSPEED_PYDANTIC_V2} refuses it.",
            f"{given} 中 {KEY} 为带小数的 {value}，DeepSpeed >= {DEEPSPEED_PYDANTIC_V2} 会拒绝。",
            remedy=(f"Use an integer ({int(value)}), or leave it empty / \"auto\".", f"请改为整数（{int(value)}），或留空 / 设为 \"auto\"。"),
            observed=str(value), expected=_INT_EMPTY_OR_AUTO, links=links,
        )
        return
    if (small_int(value) or 0 if isinstance(value, str) else value) < 0:
        yield make(ctx, RULE, AREA, Severity.error,
                   f"{KEY} is {value} ({given}), a negative number; DeepSpeed requires it to be >= 0 and refuses the config.",
                   f"{given} 中 {KEY} 为负数 {value}；DeepSpeed 要求该值 >= 0，会拒绝此配置。",
                   remedy=("Leave it empty or set \"auto\".", "请留空或设为 \"auto\"。"), observed=str(value), expected=">= 0")
        return
    if note is not None:
        text = note.get("text") or {}
        asks_en = f"the family's release notes ({carried.provenance_en}) ask" if carried else "this release asks"
        asks_zh = f"本系列发布说明（{carried.provenance_zh}）要求" if carried else "该发布要求"
        yield make(
            ctx, RULE, AREA, Severity.warning,
            f"{KEY} is set to {value} ({given}); {asks_en} to leave it empty or \"auto\": \"{text.get('en', '')}\"",
            f"{given} 中 {KEY} 设为 {value}；{asks_zh}留空或设为 \"auto\"：“{text.get('zh', '')}”",
            remedy=("Remove the key or set it to \"auto\".", "请删除该项或设为 \"auto\"。"), observed=str(value), expected=_EMPTY_OR_AUTO,
        )
        return
    yield make(ctx, RULE, AREA, Severity.ok, f"{KEY} is the integer {value} ({given}).", f"{given} 中 {KEY} 为整数 {value}。",
               observed=str(value))
