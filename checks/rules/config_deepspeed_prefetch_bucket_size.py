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
from lingjun.checks.rules._words import Words
from lingjun.checks.core.version_match import parse_version
from lingjun.checks.inputs import deepspeed_config

RULE = "config.deepspeed-prefetch-bucket-size"
AREA = "config"
KEY = "zero_optimization.stage3_prefetch_bucket_size"
DEEPSPEED_PYDANTIC_V2 = Version("0.15")
TRANSFORMERS_INT_CAST = Version("4.45.0")
TRANSFORMERS_FIX = "https://github.com/huggingface/transformers/pull/33402"
DEEPSPEED_ISSUE = "https://github.com/deepspeedai/DeepSpeed/issues/6525"

WORDS = Words({
    #: what the usage note allows, as the report's "expected"
    "int-empty-or-auto": ("integer, empty or auto", "整数、留空或 auto"),
    "empty-or-auto": ("empty or auto", "留空或 auto"),
    "remedy-empty-or-auto": ("Leave it empty or set \"auto\".", "请留空或设为 \"auto\"。"),
    "unset": ("{key} is not set ({given}); DeepSpeed uses its default.", "{given} 未设置 {key}，DeepSpeed 使用默认值。"),
    "auto-float": (
        "{key} is \"auto\" ({given}): transformers {tf} fills it with 0.9 * hidden_size^2, a float such as "
        "15099494.4, and DeepSpeed {ds} rejects it (\"Input should be a valid integer, got a number with a "
        "fractional part\").",
        "{given} 中 {key} 为 \"auto\"：transformers {tf} 会把它填成 0.9 * hidden_size^2 这样的小数（如 15099494.4），"
        "DeepSpeed {ds} 会拒绝（“Input should be a valid integer, got a number with a fractional part”）。",
    ),
    "auto-float-remedy": (
        "Set an integer (e.g. 15099494 for hidden size 4096), or use transformers {cast} or later, "
        "or DeepSpeed older than {pydantic}.",
        "请改为整数（隐藏维度 4096 时可设 15099494），或使用 transformers {cast} 及以上版本，"
        "或使用低于 {pydantic} 的 DeepSpeed。",
    ),
    "auto-transformers-unreadable": (
        "{key} is \"auto\" with DeepSpeed {ds}; transformers version {tf!r} is unreadable, so whether it "
        "fills an integer (transformers >= {cast}) is unknown.",
        "{key} 为 \"auto\"，DeepSpeed 为 {ds}；transformers 版本 {tf!r} 无法解析，无法确定它是否会填入整数"
        "（transformers >= {cast} 才会）。",
    ),
    "auto-ok": ("{key} is \"auto\" ({given}), as the release asks.", "{given} 中 {key} 为 \"auto\"，符合发布说明。"),
    "not-a-number": ("{key} is {value!r} ({given}); DeepSpeed needs an integer.", "{given} 中 {key} 为 {value!r}，DeepSpeed 需要整数。"),
    "not-digits": (
        "{key} is the string {value!r} ({given}); DeepSpeed accepts an integer or \"auto\" (lower case).",
        "{given} 中 {key} 为字符串 {value!r}；DeepSpeed 只接受整数或小写的 \"auto\"。",
    ),
    "infinite": (
        "{key} is {value} ({given}), not a finite number (JSON numbers this large overflow); DeepSpeed needs an integer.",
        "{given} 中 {key} 为 {value}，不是有限数值（过大的 JSON 数字会溢出）；DeepSpeed 需要整数。",
    ),
    "fractional": (
        "{key} is {value} ({given}), a number with a fractional part; DeepSpeed >= {pydantic} refuses it.",
        "{given} 中 {key} 为带小数的 {value}，DeepSpeed >= {pydantic} 会拒绝。",
    ),
    "fractional-remedy": (
        "Use an integer ({whole}), or leave it empty / \"auto\".", "请改为整数（{whole}），或留空 / 设为 \"auto\"。",
    ),
    "negative": (
        "{key} is {value} ({given}), a negative number; DeepSpeed requires it to be >= 0 and refuses the config.",
        "{given} 中 {key} 为负数 {value}；DeepSpeed 要求该值 >= 0，会拒绝此配置。",
    ),
    "asks-carried": ("the family's release notes ({provenance}) ask", "本系列发布说明（{provenance}）要求"),
    "asks-own": ("this release asks", "该发布要求"),
    "against-note": (
        "{key} is set to {value} ({given}); {asks} to leave it empty or \"auto\": \"{note}\"",
        "{given} 中 {key} 设为 {value}；{asks}留空或设为 \"auto\"：“{note}”",
    ),
    "against-note-remedy": ("Remove the key or set it to \"auto\".", "请删除该项或设为 \"auto\"。"),
    "integer-ok": ("{key} is the integer {value} ({given}).", "{given} 中 {key} 为整数 {value}。"),
})


def _version(ctx: CheckContext, name: str) -> tuple[Optional[str], Optional[Version]]:
    dist = ctx.facts.distribution(name)
    text = dist.version if dist else None
    return text, parse_version(text)


@rule(RULE, AREA, "ZeRO-3 prefetch bucket size is valid", "ZeRO-3 预取桶大小配置有效", order=240)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--deepspeed-config``: error for fractional numbers, non-numbers, and ``auto`` that the installed
    transformers will fill with a float for DeepSpeed >= 0.15; warning for integers where the release asks for
    empty/``auto``; ok otherwise.  Silent on a file that cannot be used (``config.deepspeed-file`` reports it)."""
    loaded = load(ctx)
    if loaded is None:  # no --deepspeed-config, or the file cannot be used: config.deepspeed-file says why
        return
    config, given = loaded
    present, value = deepspeed_config.lookup(config, KEY)
    if not present or value is None:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("unset", key=KEY, given=given), observed=EMPTY)
    elif value == "auto":
        yield _auto(ctx, given)
    else:
        yield _refused(ctx, given, value) or _integer(ctx, given, value)


def _auto(ctx: CheckContext, given: str) -> Finding:
    """``"auto"``: an error where transformers fills a float that DeepSpeed refuses, a warning where the
    transformers version is unreadable, ok otherwise."""
    ds_text, ds = _version(ctx, "deepspeed")
    tf_text, tf = _version(ctx, "transformers")
    links = [TRANSFORMERS_FIX, DEEPSPEED_ISSUE]
    strict = ds is not None and ds >= DEEPSPEED_PYDANTIC_V2
    if strict and tf is not None and tf < TRANSFORMERS_INT_CAST:
        return make(ctx, RULE, AREA, Severity.error, WORDS("auto-float", key=KEY, given=given, tf=tf_text, ds=ds_text),
                    remedy=WORDS("auto-float-remedy", cast=TRANSFORMERS_INT_CAST, pydantic=DEEPSPEED_PYDANTIC_V2),
                    observed=f"auto; deepspeed {ds_text}, transformers {tf_text}",
                    expected=f"transformers >= {TRANSFORMERS_INT_CAST}", links=links)
    if strict and tf is None and tf_text is not None:
        return make(ctx, RULE, AREA, Severity.warning,
                    WORDS("auto-transformers-unreadable", key=KEY, ds=ds_text, tf=tf_text, cast=TRANSFORMERS_INT_CAST),
                    observed="auto", links=links)
    return make(ctx, RULE, AREA, Severity.ok, WORDS("auto-ok", key=KEY, given=given), observed="auto")


def _refused(ctx: CheckContext, given: str, value: object) -> Optional[Finding]:
    """The error for a value DeepSpeed refuses (not a number, not digits, not finite, fractional, negative), or
    None for an integer (a JSON one or a string of digits)."""
    remedy = WORDS("remedy-empty-or-auto")
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return make(ctx, RULE, AREA, Severity.error, WORDS("not-a-number", key=KEY, value=value, given=given),
                    remedy=remedy, observed=repr(value))
    if isinstance(value, str) and small_int(value) is None:
        # not 1 to 18 ASCII digits (a longer run is no bucket size, nor int()-able)
        return make(ctx, RULE, AREA, Severity.error, WORDS("not-digits", key=KEY, value=value, given=given),
                    remedy=remedy, observed=value)
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return make(ctx, RULE, AREA, Severity.error, WORDS("infinite", key=KEY, value=value, given=given),
                    remedy=remedy, observed=str(value), expected=WORDS("int-empty-or-auto"))
    if isinstance(value, float) and not value.is_integer():
        return make(ctx, RULE, AREA, Severity.error,
                    WORDS("fractional", key=KEY, value=value, given=given, pydantic=DEEPSPEED_PYDANTIC_V2),
                    remedy=WORDS("fractional-remedy", whole=int(value)), observed=str(value),
                    expected=WORDS("int-empty-or-auto"), links=[TRANSFORMERS_FIX, DEEPSPEED_ISSUE])
    if not isinstance(value, str) and value < 0:  # a string of digits has no sign
        return make(ctx, RULE, AREA, Severity.error, WORDS("negative", key=KEY, value=value, given=given),
                    remedy=remedy, observed=str(value), expected=">= 0")
    return None


def _integer(ctx: CheckContext, given: str, value: object) -> Finding:
    """An integer DeepSpeed accepts: a warning where the release's usage note (its own or carried) asks for
    empty or ``auto``, ok otherwise."""
    note, carried = usage_note_for(ctx.data.releases, ctx.record, RULE)
    if note is None:
        return make(ctx, RULE, AREA, Severity.ok, WORDS("integer-ok", key=KEY, value=value, given=given), observed=str(value))
    asks = WORDS("asks-carried", provenance=Text(carried.provenance_en, carried.provenance_zh)) if carried else WORDS("asks-own")
    return make(ctx, RULE, AREA, Severity.warning,
                WORDS("against-note", key=KEY, value=value, given=given, asks=asks,
                      note=Text(note.text.get("en", ""), note.text.get("zh", ""))),
                remedy=WORDS("against-note-remedy"), observed=str(value), expected=WORDS("empty-or-auto"))
