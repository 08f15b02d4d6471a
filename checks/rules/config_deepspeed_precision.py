"""config.deepspeed-precision: ``fp16`` and ``bf16`` both enabled in a DeepSpeed config.

DeepSpeed's config reference (https://www.deepspeed.ai/docs/config-json/, "FP16 training options" and
"BFLOAT16 training options") describes the two modes as alternatives, and DeepSpeed refuses a config that
enables both ("bfloat16 and fp16 modes cannot be simultaneously enabled").  ``bf16`` is also accepted under
its older name ``bfloat16``.  ``"auto"`` is filled by the Hugging Face integrations, which enable at most one.

DeepSpeed versions that read ``enabled`` with ``get_scalar_param`` (``deepspeed/runtime/config.py``,
``get_fp16_enabled`` / ``get_bfloat16_enabled``) return the JSON value unchanged and test it for truth, so a
non-empty string such as ``"false"`` counts as enabled; a precision config read through pydantic models
(``deepspeed/runtime/precision_config.py``) converts ``"false"`` to false instead.  A quoted boolean is
therefore judged as the older reading does (the one that refuses the config) and named as such.
"""

from __future__ import annotations

import json
from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.inputs.deepspeed_config import lookup
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._deepspeed import DEEPSPEED_CONFIG_DOC, load
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "config.deepspeed-precision"
AREA = "config"


WORDS = Words({
    "quoted-both": ("{given} has {quoted} (a string, not true/false) and the other mode enabled: DeepSpeed versions that read "
                    "\"enabled\" with get_scalar_param take any non-empty string as true, so both fp16 and {bf16} are on and "
                    "DeepSpeed refuses the config (\"bfloat16 and fp16 modes cannot be simultaneously enabled\").",
                    "{given} 中 {quoted} 是字符串而不是 true/false，且另一种模式已启用：用 get_scalar_param 读取 \"enabled\" 的 DeepSpeed "
                    "版本会把任何非空字符串当作 true，于是 fp16 和 {bf16} 同时启用，DeepSpeed 会拒绝此配置"
                    "（“bfloat16 and fp16 modes cannot be simultaneously enabled”）。"),
    "quoted-both-remedy": ("Write true or false without quotes, and enable only one of fp16 and bf16.",
                           "请写不带引号的 true 或 false，并且只启用 fp16 和 bf16 中的一个。"),
    "quoted-both-expected": ("true or false (JSON booleans), at most one enabled", "true 或 false（JSON 布尔值），最多启用一个"),
    "both": ("{given} enables both fp16 and {bf16}: DeepSpeed refuses the config (\"bfloat16 and fp16 modes cannot be "
             "simultaneously enabled\").",
             "{given} 同时启用了 fp16 和 {bf16}：DeepSpeed 会拒绝此配置（“bfloat16 and fp16 modes cannot be simultaneously enabled”）。"),
    "both-remedy": ("Enable one of them: bf16 on GPUs that support it (Ampere and newer), fp16 otherwise.",
                    "请只启用其中一个：支持 bf16 的 GPU（Ampere 及更新架构）用 bf16，否则用 fp16。"),
    "both-expected": ("at most one enabled", "最多启用一个"),
    "neither-set": ("neither fp16 nor bf16 set", "fp16 和 bf16 均未设置"),
    "ok": ("{given} enables at most one half-precision mode ({shown}).", "{given} 最多启用了一种半精度模式（{shown}）。"),
})


def _on(value: object) -> bool:
    """Enabled as ``get_scalar_param`` readers see it: true, or a non-empty string other than "auto"."""
    return value is True or (isinstance(value, str) and bool(value.strip()) and value.strip().lower() != "auto")


@rule(RULE, AREA, "DeepSpeed enables one half-precision mode", "训练配置只启用一种半精度模式", order=344)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--deepspeed-config``: error when fp16.enabled and bf16.enabled (or bfloat16.enabled) are both true;
    ok otherwise."""
    loaded = load(ctx)
    if loaded is None:
        return
    config, given = loaded
    _, fp16 = lookup(config, "fp16.enabled")
    bf16_key = "bf16" if "bf16" in config else "bfloat16"
    _, bf16 = lookup(config, f"{bf16_key}.enabled")
    quoted = [f"{key}.enabled={json.dumps(value)}" for key, value in (("fp16", fp16), (bf16_key, bf16))
              if isinstance(value, str) and value.strip() and value.strip().lower() != "auto"]
    if quoted and _on(fp16) and _on(bf16):
        shown_q = ", ".join(quoted)
        yield make(ctx, RULE, AREA, Severity.error, WORDS("quoted-both", given=given, quoted=shown_q, bf16=bf16_key),
                   remedy=WORDS("quoted-both-remedy"), observed=shown_q, expected=WORDS("quoted-both-expected"),
                   links=[DEEPSPEED_CONFIG_DOC])
        return
    if fp16 is True and bf16 is True:
        yield make(ctx, RULE, AREA, Severity.error, WORDS("both", given=given, bf16=bf16_key), remedy=WORDS("both-remedy"),
                   observed=f"fp16.enabled=true, {bf16_key}.enabled=true", expected=WORDS("both-expected"), links=[DEEPSPEED_CONFIG_DOC])
        return
    listed = ", ".join(f"{key}.enabled={json.dumps(value)}" for key, value in (("fp16", fp16), (bf16_key, bf16)) if value is not None)
    shown = Text(listed, listed) if listed else WORDS("neither-set")
    yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", given=given, shown=shown), observed=shown)
