"""config.deepspeed-auto: ``"auto"`` values in a DeepSpeed config, which only the Hugging Face integrations fill.

``"auto"`` is not a DeepSpeed value: the Hugging Face Trainer (``TrainingArguments(deepspeed=...)``,
transformers' ``HfTrainerDeepSpeedConfig``) and Accelerate replace it with numbers from their own arguments
before DeepSpeed sees the config (transformers' DeepSpeed guide, https://huggingface.co/docs/transformers/deepspeed,
and Accelerate's, https://huggingface.co/docs/accelerate/usage_guides/deepspeed).  A script that calls
``deepspeed.initialize`` itself passes the string on: DeepSpeed reads ``gradient_clipping`` as is and its
``if self.gradient_clipping() > 0.0`` fails with ``TypeError: '>' not supported between instances of 'str'
and 'float'`` (deepspeedai/DeepSpeed#1270).  DeepSpeed's own config reference lists numbers and booleans for
these fields: https://www.deepspeed.ai/docs/config-json/
"""

from __future__ import annotations

from dataclasses import astuple
from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.coverage import OBSERVED, state
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._deepspeed import DEEPSPEED_CONFIG_DOC, leaves, load
from lingjun.checks.rules._finding import listing, make
from lingjun.checks.rules._words import Words

RULE = "config.deepspeed-auto"
AREA = "config"
HF_DOC = "https://huggingface.co/docs/transformers/deepspeed"
ACCELERATE_DOC = "https://huggingface.co/docs/accelerate/usage_guides/deepspeed"
ISSUE = "https://github.com/deepspeedai/DeepSpeed/issues/1270"

WORDS = Words({
    "ok": ("{given} has no \"auto\" value.", "{given} 中没有 \"auto\" 值。"),
    "remedy": ("Pass the config through the Hugging Face Trainer (TrainingArguments(deepspeed=...)) or Accelerate, which fill "
               "\"auto\"; a script that calls deepspeed.initialize itself needs real numbers and booleans in these fields.",
               "请通过 Hugging Face Trainer（TrainingArguments(deepspeed=...)）或 Accelerate 使用该配置，由它们填充 \"auto\"；"
               "自己调用 deepspeed.initialize 的脚本需要在这些字段中写入实际的数值和布尔值。"),
    "tail": (" A plain deepspeed.initialize loop gets the string: gradient_clipping = \"auto\" fails with TypeError: '>' not "
             "supported between instances of 'str' and 'float'.",
             "直接调用 deepspeed.initialize 的训练循环会拿到字符串：gradient_clipping 为 \"auto\" 时报 TypeError: '>' not supported between instances of 'str' and 'float'。"),
    "nothing-fills": ("{given} has \"auto\" in {full}, but neither transformers nor accelerate is installed, so nothing fills "
                      "them.{tail}",
                      "{given} 的 {full} 为 \"auto\"，但没有安装 transformers 或 accelerate，没有谁会填充这些值。{tail}"),
    "nothing-fills-brief": ("{given} has \"auto\" in {short} and nothing installed fills it.",
                            "{given} 的 {short} 为 \"auto\"，且没有安装会填充它的库。"),
    "expected": ("numbers / true / false", "数值 / true / false"),
    "filled-by-hf": ("{given} has \"auto\" in {full}: only the Hugging Face Trainer or Accelerate fill these{who}.{tail}",
                     "{given} 的 {full} 为 \"auto\"：只有 Hugging Face Trainer 或 Accelerate 会填充这些值{who}。{tail}"),
    "filled-by-hf-brief": ("{given} has \"auto\" in {short}: filled only by the Trainer / Accelerate.",
                           "{given} 的 {short} 为 \"auto\"：只有 Trainer / Accelerate 会填充。"),
    "installed": (" ({names} installed)", "（已安装 {names}）"),
    "who-none": ("", ""),
})


@rule(RULE, AREA, "DeepSpeed \"auto\" values have something to fill them", "训练配置中的自动取值有库负责填充", order=340)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--deepspeed-config``: error when the config has "auto" values and neither transformers nor accelerate is
    installed (the package list observed in full); warning when they are installed or not shown (filled only through
    the Trainer / Accelerate); ok without "auto"."""
    loaded = load(ctx)
    if loaded is None:
        return
    config, given = loaded
    fields = [path for path, value in leaves(config) if value == "auto"]
    if not fields:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", given=given), observed=given)
        return
    full, short_en, short_zh = listing(fields)
    short = Text(short_en, short_zh)
    facts = ctx.facts
    installed = [name for name in ("transformers", "accelerate") if facts.distribution(name) is not None]
    links = [HF_DOC, ACCELERATE_DOC, DEEPSPEED_CONFIG_DOC, ISSUE]
    tail = WORDS("tail")
    if not installed and state(facts, "distributions") == OBSERVED:
        yield make(ctx, RULE, AREA, Severity.error, WORDS("nothing-fills", given=given, full=full, tail=tail),
                   remedy=WORDS("remedy"), observed=full, expected=WORDS("expected"), links=links,
                   brief=astuple(WORDS("nothing-fills-brief", given=given, short=short)))
        return
    yield make(ctx, RULE, AREA, Severity.warning, WORDS("filled-by-hf", given=given, full=full, tail=tail, who=_who(installed)),
               remedy=WORDS("remedy"), observed=full, links=links,
               brief=astuple(WORDS("filled-by-hf-brief", given=given, short=short)))


def _who(installed: "list[str]") -> Text:
    """" (transformers, accelerate installed)" for the packages that fill "auto", or nothing when none is shown."""
    if not installed:
        return WORDS("who-none")
    return WORDS("installed", names=Text(", ".join(installed), "、".join(installed)))
