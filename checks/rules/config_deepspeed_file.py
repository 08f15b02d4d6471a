"""config.deepspeed-file: the ``--deepspeed-config`` file itself, read as DeepSpeed reads it.

Every DeepSpeed rule reads the file through :mod:`lingjun.checks.rules._deepspeed` and stays silent on one it
cannot use; this rule is the one that says so, under the input's own name, so a file that is not UTF-8, not
JSON (DeepSpeed parses configs with hjson: comments and trailing commas pass) or not a JSON object is never
reported as a problem of one of its keys.  A file that needed its comments or trailing commas removed is a
warning: transformers' and accelerate's ``HfDeepSpeedConfig`` read it with ``json.load``
(https://github.com/huggingface/transformers/blob/main/src/transformers/integrations/deepspeed.py).
"""

from __future__ import annotations

from typing import Iterator

from lingjun.checks.context import CheckContext
from lingjun.checks.inputs import deepspeed_config
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.rules import rule
from lingjun.checks.rules._deepspeed import DEEPSPEED_CONFIG_DOC, config_path
from lingjun.checks.rules._finding import make
from lingjun.checks.rules._words import Words

RULE = "config.deepspeed-file"
AREA = "config"

#: the words of each outcome, (English, Chinese); {given} is the path as given, {problem} the reader's reason,
#: {note} what made the file not strict JSON (the Chinese names it in its own words, :data:`RELAXED_ZH`)
WORDS = Words({
    "unusable": ("The DeepSpeed config {given} cannot be used: {problem}.", "DeepSpeed 配置文件 {given} 无法使用：{problem}。"),
    "unusable.remedy": ("Fix the file; DeepSpeed will fail on it at start-up.", "请修正该文件，否则 DeepSpeed 启动时会失败。"),
    "relaxed": ("{given} is not strict JSON ({note}): DeepSpeed reads it (it parses configs with hjson), but the "
                "json.load of transformers' and accelerate's HfDeepSpeedConfig rejects it when the Trainer is given "
                "this file.",
                "{given} 不是严格的 JSON（{note}）：DeepSpeed 本身可以读取（它用 hjson 解析配置），"
                "但把该文件交给 transformers / accelerate 的 Trainer 时，HfDeepSpeedConfig 的 json.load 会报错。"),
    "relaxed.remedy": ("Remove the comments and trailing commas.", "请删除注释和末尾逗号。"),
    "ok": ("{given} is a JSON object DeepSpeed can read.", "{given} 是 DeepSpeed 可读取的 JSON 对象。"),
})
#: the Chinese for the reader's note on a file that is not strict JSON
RELAXED_ZH = "含注释或末尾逗号"


@rule(RULE, AREA, "DeepSpeed config can be read", "DeepSpeed 配置文件可读取", order=236)
def check(ctx: CheckContext) -> Iterator[Finding]:
    """With ``--deepspeed-config``: error when the file cannot be read or parsed as DeepSpeed parses it (the
    reader's reason, with line and column), warning when it is not strict JSON, ok otherwise."""
    given = ctx.options.deepspeed_config
    if not given:
        return

    path = config_path(ctx, given)
    try:
        _, relaxed = deepspeed_config.load_lenient(path)
    except deepspeed_config.DeepSpeedConfigError as exc:
        problem = str(exc).replace(str(path), given, 1)
        problem = problem[len(given) + 2:] if problem.startswith(given + ": ") else problem
        yield make(ctx, RULE, AREA, Severity.error, WORDS("unusable", given=given, problem=problem),
                   remedy=WORDS("unusable.remedy"), observed=given, links=[DEEPSPEED_CONFIG_DOC])
        return
    if relaxed:
        yield make(ctx, RULE, AREA, Severity.warning, WORDS("relaxed", given=given, note=Text(relaxed, RELAXED_ZH)),
                   remedy=WORDS("relaxed.remedy"), observed=relaxed)
        return
    yield make(ctx, RULE, AREA, Severity.ok, WORDS("ok", given=given), observed=given)
