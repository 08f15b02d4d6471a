"""Evaluating a known issue's machine-readable ``condition`` against the probed facts.

A condition (bundle JSON of :class:`lingjun.schema.models.Condition`) is a
logical AND of parts; an empty part does not constrain.  Each clause is
``matched``, ``failed`` or ``unknown`` (the facts cannot tell, e.g. the user
named no ``--model``).  The whole condition:

* ``does-not-apply`` when any clause failed;
* ``may-apply`` when none failed but some are unknown, or there is no condition;
* ``applies`` when every clause matched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import Text
from lingjun.checks.knowledge.installed import installed_component
from lingjun.checks.knowledge.record_view import cpu_arch
from lingjun.checks.core.version_match import parse_version

__all__ = ["APPLIES", "MAY_APPLY", "DOES_NOT_APPLY", "ConditionResult", "evaluate"]

APPLIES = "applies"
MAY_APPLY = "may-apply"
DOES_NOT_APPLY = "does-not-apply"


@dataclass
class ConditionResult:
    """Outcome of :func:`evaluate`; ``matched``/``failed``/``unknown`` hold short English descriptions of clauses.

    ``found`` (added later) holds, for each matched clause, only the fact as found, in both
    languages (``vllm 0.7.2``, ``GPU NVIDIA H20``, ``NCCL_ALGO unset``): a report's
    "observed", without the condition it was compared with.
    """

    state: str
    matched: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    found: list[Text] = field(default_factory=list)
    #: Chinese for the descriptions in matched/failed/unknown (added later; :meth:`zh_of` falls back to the English)
    zh: dict[str, str] = field(default_factory=dict)

    def note(self, bucket: list[str], en: str, zh: str) -> None:
        """Append ``en`` to ``bucket`` (one of the three lists) and remember its Chinese."""
        bucket.append(en)
        self.zh[en] = zh

    def zh_of(self, descriptions: list[str]) -> list[str]:
        """``descriptions`` in Chinese."""
        return [self.zh.get(d, d) for d in descriptions]


def _norm(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def evaluate(
    condition: Optional[dict],
    facts: Facts,
    *,
    served_model: Optional[str],
    component: Callable[[str], Optional[dict]],
) -> ConditionResult:
    """Evaluate ``condition``; ``component(id)`` returns the catalog entry for an id (or None)."""
    result = ConditionResult(MAY_APPLY)
    if not isinstance(condition, dict) or not any(condition.get(k) for k in ("components", "gpu_models", "served_models", "env", "architectures")):
        result.note(result.unknown, "no machine-readable condition", "没有机器可读的条件")
        return result

    for cid, spec_text in (condition.get("components") or {}).items():
        label = f"{cid} {spec_text}"
        from packaging.specifiers import InvalidSpecifier, SpecifierSet  # lazy: packaging.specifiers imports packaging.tags

        try:
            spec = SpecifierSet(str(spec_text))
        except InvalidSpecifier:
            result.note(result.unknown, f"{label} (unreadable specifier)", f"{label}（版本范围无法解析）")
            continue
        entry = component(cid)
        if entry is None:
            result.note(result.unknown, f"{label} (not in the component catalog)", f"{label}（不在组件目录中）")
            continue
        inst = installed_component(entry, facts)
        if not inst.probed and inst.source:
            result.note(result.unknown, f"{label} (not shown by the input)", f"{label}（输入中看不到）")
        elif not inst.probed:
            result.note(result.unknown, f"{label} (not probed)", f"{label}（未探测）")
        elif inst.version is None:
            if (entry.get("probe") or {}).get("kind") == "pypi":
                result.note(result.failed, f"{cid} not installed", f"{cid} 未安装")
            else:
                result.note(result.unknown, f"{label} (version unknown)", f"{label}（版本未知）")
        else:
            version = parse_version(inst.version)
            if version is None:
                result.note(result.unknown, f"{label} (installed {inst.version} unreadable)", f"{label}（已安装的 {inst.version} 无法解析）")
            elif spec.contains(version, prereleases=True):
                result.note(result.matched, f"{cid} {inst.version} {spec_text}", f"{cid} {inst.version} 符合 {spec_text}")
                result.found.append(Text(f"{cid} {inst.version}", f"{cid} {inst.version}"))
            else:
                result.note(result.failed, f"{cid} {inst.version} not {spec_text}", f"{cid} {inst.version} 不符合 {spec_text}")

    models = [m for m in condition.get("gpu_models") or [] if isinstance(m, str)]
    if models:
        names = [g.name for g in facts.gpus if g.name]
        if not names:
            from lingjun.checks.coverage import driver_observed

            if driver_observed(facts):
                result.note(result.unknown, "GPU model (no GPU visible)", "GPU 型号（看不到 GPU）")
            else:
                result.note(result.unknown, "GPU model (the input does not show the GPUs)", "GPU 型号（输入中看不到 GPU 信息）")
        else:
            hit = next((n for n in names for m in models if m.lower() in n.lower()), None)
            result.note(result.matched if hit else result.failed, f"GPU {hit or names[0]} vs {', '.join(models)}",
                        f"GPU {hit or names[0]} 对照 {', '.join(models)}")
            if hit:
                result.found.append(Text(f"GPU {hit}", f"GPU {hit}"))

    served = [m for m in condition.get("served_models") or [] if isinstance(m, str)]
    if served:
        if not served_model:
            result.note(result.unknown, f"served model ({', '.join(served)}) not given", f"未指定所服务的模型（{', '.join(served)}，可用 --model）")
        else:
            mine = _norm(served_model)
            hit = any(_norm(m) and (_norm(m) in mine or mine in _norm(m)) for m in served)
            result.note(result.matched if hit else result.failed, f"model {served_model} vs {', '.join(served)}",
                        f"模型 {served_model} 对照 {', '.join(served)}")
            if hit:
                result.found.append(Text(f"model {served_model}", f"模型 {served_model}"))

    for clause in condition.get("env") or []:
        if not isinstance(clause, dict) or not clause.get("name"):
            continue
        name = clause["name"]
        from lingjun.checks.coverage import env_known

        if not env_known(facts, name):
            result.note(result.unknown, f"{name} (the input does not show it)", f"{name}（输入中看不到）")
            continue
        value = facts.env.get(name)
        if clause.get("equals") is not None:
            ok = value == clause["equals"]
            text = f"{name}={clause['equals']}"
        elif clause.get("not_equals") is not None:
            ok = value != clause["not_equals"]
            text = f"{name}!={clause['not_equals']}"
        elif clause.get("unset") is not None:
            ok = (value is None) == bool(clause["unset"])
            text = f"{name} {'unset' if clause['unset'] else 'set'}"
            result.zh[text] = f"{name} {'未设置' if clause['unset'] else '已设置'}"
        else:
            continue
        (result.matched if ok else result.failed).append(text)
        if ok:
            result.found.append(Text(f"{name} unset", f"{name} 未设置") if value is None else Text(f"{name}={value}", f"{name}={value}"))

    archs = [a for a in condition.get("architectures") or [] if isinstance(a, str)]
    if archs:
        arch = cpu_arch(facts.host.machine)
        if arch is None:
            result.note(result.unknown, "CPU architecture unknown", "CPU 架构未知")
        else:
            (result.matched if arch in archs else result.failed).append(f"CPU {arch}")
            if arch in archs:
                result.found.append(Text(f"CPU {arch}", f"CPU {arch}"))

    if result.failed:
        result.state = DOES_NOT_APPLY
    elif result.unknown:
        result.state = MAY_APPLY
    else:
        result.state = APPLIES
    return result
