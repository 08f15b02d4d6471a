"""config.deepspeed-numeric-strings: numbers written as strings in a DeepSpeed config (``"1e-5"``, ``"16"``).

DeepSpeed's config reference gives numeric fields as JSON numbers (https://www.deepspeed.ai/docs/config-json/).
Many top-level fields (``gradient_clipping``, ``train_batch_size``, ``steps_per_print`` ...) are read with
``get_scalar_param``, which returns the value unchanged, so a quoted number reaches arithmetic and comparisons
as a string and fails there with a TypeError (the failure mode of deepspeedai/DeepSpeed#1270); optimizer
``params`` go to the optimizer's constructor as they are.  ``"auto"`` is left to ``config.deepspeed-auto``.
Booleans written as strings (``"false"``) are listed too: a non-empty string is true when such a field is
tested for truth, so ``"enabled": "false"`` switches a feature on.
"""

from __future__ import annotations

import re
from dataclasses import astuple
from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._deepspeed import DEEPSPEED_CONFIG_DOC, leaves, load
from lingjun.checks.rules._finding import listing, make
from lingjun.checks.rules._words import Words

RULE = "config.deepspeed-numeric-strings"
AREA = "config"
_NUMBER = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$")
_BOOLEAN = re.compile(r"^\s*(true|false)\s*$", re.IGNORECASE)

WORDS = Words({
    "booleans": ("{given} writes true/false as strings: {full}. DeepSpeed passes many fields on unchanged, and a non-empty "
                 "string counts as true, so \"false\" switches the feature on.",
                 "{given} 把 true/false 写成了字符串：{full}。DeepSpeed 对许多字段不做类型转换，非空字符串会被当作 true，"
                 "因此 \"false\" 反而会启用该功能。"),
    "booleans-remedy": ("Remove the quotes: write false, not \"false\".", "请去掉引号：写 false，而不是 \"false\"。"),
    "booleans-expected": ("JSON true / false", "JSON 的 true / false"),
    "booleans-brief": ("{given} writes true/false as strings: {short}.", "{given} 把 true/false 写成了字符串：{short}。"),
    "ok": ("{given} writes its numbers as JSON numbers.", "{given} 中的数值都是 JSON 数字。"),
    "numbers": ("{given} writes numbers as strings: {full}. DeepSpeed passes many fields on unchanged, so the string reaches "
                "arithmetic or a comparison and fails with a TypeError.",
                "{given} 把数值写成了字符串：{full}。DeepSpeed 对许多字段不做类型转换，字符串会进入算术或比较运算并报 TypeError。"),
    "numbers-remedy": ("Remove the quotes: write 1e-5, not \"1e-5\".", "请去掉引号：写 1e-5，而不是 \"1e-5\"。"),
    "numbers-expected": ("JSON numbers", "JSON 数字"),
    "numbers-brief": ("{given} writes numbers as strings: {short}.", "{given} 把数值写成了字符串：{short}。"),
})


@rule(RULE, AREA, "DeepSpeed numbers are JSON numbers", "训练配置中的数值没有写成字符串", order=342)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--deepspeed-config``: warning listing the fields whose value is a number in quotes (and another listing
    true/false in quotes); ok when neither is found."""
    loaded = load(ctx)
    if loaded is None:
        return
    config, given = loaded
    found = [f"{path}={value!r}" for path, value in leaves(config) if isinstance(value, str) and _NUMBER.match(value)]
    booleans = [f"{path}={value!r}" for path, value in leaves(config) if isinstance(value, str) and _BOOLEAN.match(value)]
    if booleans:
        yield _quoted(ctx, "booleans", given, booleans)
    if found:
        yield _quoted(ctx, "numbers", given, found)
    elif not booleans:
        yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", given=given), observed=given)


def _quoted(ctx: CheckContext, key: str, given: str, items: "list[str]") -> Finding:
    """The warning for ``items`` (``path='value'``) quoted in ``given``: ``key`` is "booleans" or "numbers"."""
    full, short_en, short_zh = listing(items)
    return make(ctx, RULE, AREA, Severity.warning, WORDS(key, given=given, full=full), remedy=WORDS(f"{key}-remedy"),
                observed=full, expected=WORDS(f"{key}-expected"), links=[DEEPSPEED_CONFIG_DOC],
                brief=astuple(WORDS(f"{key}-brief", given=given, short=Text(short_en, short_zh))))
