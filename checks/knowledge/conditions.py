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
from typing import TYPE_CHECKING, Any, Callable, Optional

from lingjun.checks.core.condition_facts import FACTS
from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.units import size
from lingjun.checks.report.findings import Text
from lingjun.checks.knowledge.installed import installed_component
from lingjun.checks.knowledge.record_view import cpu_arch
from lingjun.checks.core.version_match import parse_version
from lingjun.checks.coverage import driver_observed, env_known

if TYPE_CHECKING:
    from lingjun.checks.knowledge.catalog_entry import Component

__all__ = ["APPLIES", "MAY_APPLY", "DOES_NOT_APPLY", "Clause", "ConditionResult", "evaluate"]

APPLIES = "applies"
MAY_APPLY = "may-apply"
DOES_NOT_APPLY = "does-not-apply"


class Clause(str):
    """One clause's outcome as a report words it: the English (the string itself), its Chinese (``zh``) and what the
    clause is about (``what``: the fact, component or part, in both languages; None when the clause is itself that
    name), so that a finding can say "the input does not show X" without taking the sentence apart."""

    zh: str
    what: Optional[Text]

    def __new__(cls, en: str, zh: str, what: Optional[Text] = None) -> "Clause":
        clause = super().__new__(cls, en)
        clause.zh = zh
        clause.what = what
        return clause

    @property
    def subject(self) -> Text:
        """What the clause is about: ``what``, else the clause's own words."""
        return self.what if self.what is not None else Text(str(self), self.zh)


@dataclass
class ConditionResult:
    """Outcome of :func:`evaluate`; ``matched``/``failed``/``unknown`` hold the clauses (:class:`Clause`: English as the
    string, Chinese and the subject beside it).

    ``found`` holds, for each matched clause, only the fact as found, in both languages (``vllm 0.7.2``,
    ``GPU NVIDIA H20``, ``NCCL_ALGO unset``): a report's "observed", without the condition it was compared with.
    """

    state: str
    matched: list[Clause] = field(default_factory=list)
    failed: list[Clause] = field(default_factory=list)
    unknown: list[Clause] = field(default_factory=list)
    found: list[Text] = field(default_factory=list)

    def note(self, bucket: list[Clause], en: str, zh: str, what: Optional[Text] = None) -> None:
        """Append the clause ``en`` / ``zh`` about ``what`` to ``bucket`` (one of the three lists)."""
        bucket.append(Clause(en, zh, what))

    def zh_of(self, descriptions: "list[str]") -> list[str]:
        """``descriptions`` (clauses of this result) in Chinese."""
        return [getattr(d, "zh", d) for d in descriptions]


def _norm(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def evaluate(
    condition: Optional[dict],
    facts: Facts,
    *,
    served_model: Optional[str],
    component: Callable[[str], "Optional[Component]"],
    evidence: Optional[Evidence] = None,
    data: Any = None,
) -> ConditionResult:
    """Evaluate ``condition``; ``component(id)`` returns the typed catalog entry for an id (or None:
    :meth:`lingjun.checks.knowledge.bundle.KnowledgeData.catalog_entry`).

    ``evidence`` (what the user's logs show) and ``data`` (the bundle, for its GPU table) let ``facts``
    clauses read a value the probed facts lack from a log (:mod:`lingjun.checks.knowledge.fact_values`).
    The parts are noted in a fixed order (components, GPU models, served models, env, architectures, facts),
    which is the order a report lists them in.
    """
    result = ConditionResult(MAY_APPLY)
    if not isinstance(condition, dict) or not any(condition.get(k) for k in _PARTS):
        result.note(result.unknown, "no machine-readable condition", "没有机器可读的条件")
        return result
    for cid, spec_text in (condition.get("components") or {}).items():
        _component_clause(result, cid, spec_text, facts, component, evidence)
    _gpu_models_clause(result, _strings(condition.get("gpu_models")), facts)
    _served_models_clause(result, _strings(condition.get("served_models")), served_model)
    for clause in condition.get("env") or []:
        _env_clause(result, clause, facts)
    _architectures_clause(result, _strings(condition.get("architectures")), facts)
    for clause in condition.get("facts") or []:
        _fact_clause(result, clause, facts, evidence, data)
    result.state = DOES_NOT_APPLY if result.failed else (MAY_APPLY if result.unknown else APPLIES)
    return result


#: a condition's parts; a condition with none of them set is no machine-readable condition
_PARTS = ("components", "gpu_models", "served_models", "env", "architectures", "facts")


def _strings(items: Any) -> list[str]:
    """The strings of a condition part's list (a hand-made bundle may hold other values; they are ignored)."""
    return [item for item in items or [] if isinstance(item, str)]


def _component_clause(result: ConditionResult, cid: str, spec_text: Any, facts: Facts,
                      component: Callable[[str], "Optional[Component]"], evidence: Optional[Evidence]) -> None:
    """Add one ``components`` clause (``cid`` within the specifier ``spec_text``) to ``result``."""
    label = f"{cid} {spec_text}"
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # lazy: packaging.specifiers imports packaging.tags

    try:
        spec = SpecifierSet(str(spec_text))
    except InvalidSpecifier:
        result.note(result.unknown, f"{label} (unreadable specifier)", f"{label}（版本范围无法解析）", Text(label, label))
        return
    entry = component(cid)
    if entry is None:
        result.note(result.unknown, f"{label} (not in the component catalog)", f"{label}（不在组件目录中）", Text(label, label))
        return
    inst = installed_component(entry, facts)
    stated = evidence.value(f"{cid}.version") if evidence is not None else None
    if stated is not None and inst.version is None and _stated_version(result, cid, spec_text, spec, stated):
        return
    if not inst.probed and inst.source:
        result.note(result.unknown, f"{label} (not shown by the input)", f"{label}（输入中看不到）", Text(label, label))
    elif not inst.probed:
        result.note(result.unknown, f"{label} (not probed)", f"{label}（未探测）", Text(label, label))
    elif inst.version is None:
        if entry.probe.kind == "pypi":
            result.note(result.failed, f"{cid} not installed", f"{cid} 未安装")
        else:
            result.note(result.unknown, f"{label} (version unknown)", f"{label}（版本未知）", Text(label, label))
    else:
        _installed_version(result, cid, spec_text, spec, inst.version)


def _stated_version(result: ConditionResult, cid: str, spec_text: Any, spec: Any, stated: Any) -> bool:
    """Judge the version the log names for the job (vLLM's start-up line); False when it is not a version."""
    version = parse_version(str(stated.value))
    if version is None:
        return False
    where = stated.line.where()
    if spec.contains(version, prereleases=True):
        result.note(result.matched, f"{cid} {stated.value} {spec_text}, shown by the log ({where})",
                    f"{cid} {stated.value} 符合 {spec_text}，日志中显示（{where}）")
        result.found.append(Text(f"{cid} {stated.value}, shown by the log ({where})",
                                 f"{cid} {stated.value}，日志中显示（{where}）"))
    else:
        result.note(result.failed, f"{cid} {stated.value} not {spec_text}, shown by the log ({where})",
                    f"{cid} {stated.value} 不符合 {spec_text}，日志中显示（{where}）")
    return True


def _installed_version(result: ConditionResult, cid: str, spec_text: Any, spec: Any, installed: str) -> None:
    """Judge the installed version of ``cid`` against ``spec``."""
    version = parse_version(installed)
    if version is None:
        result.note(result.unknown, f"{cid} {spec_text} (installed {installed} unreadable)",
                    f"{cid} {spec_text}（已安装的 {installed} 无法解析）", Text(f"{cid} {spec_text}", f"{cid} {spec_text}"))
    elif spec.contains(version, prereleases=True):
        result.note(result.matched, f"{cid} {installed} {spec_text}", f"{cid} {installed} 符合 {spec_text}")
        result.found.append(Text(f"{cid} {installed}", f"{cid} {installed}"))
    else:
        result.note(result.failed, f"{cid} {installed} not {spec_text}", f"{cid} {installed} 不符合 {spec_text}")


def _gpu_models_clause(result: ConditionResult, models: list[str], facts: Facts) -> None:
    """Add the ``gpu_models`` part (a GPU whose name contains one of ``models``); nothing when empty."""
    if not models:
        return
    names = [g.name for g in facts.gpus if g.name]
    if not names:
        if driver_observed(facts):
            result.note(result.unknown, "GPU model (no GPU visible)", "GPU 型号（看不到 GPU）", _GPU_MODEL)
        else:
            result.note(result.unknown, "GPU model (the input does not show the GPUs)", "GPU 型号（输入中看不到 GPU 信息）",
                        _GPU_MODEL)
        return
    hit = next((n for n in names for m in models if m.lower() in n.lower()), None)
    result.note(result.matched if hit else result.failed, f"GPU {hit or names[0]} vs {', '.join(models)}",
                f"GPU {hit or names[0]} 对照 {', '.join(models)}")
    if hit:
        result.found.append(Text(f"GPU {hit}", f"GPU {hit}"))


def _served_models_clause(result: ConditionResult, served: list[str], served_model: Optional[str]) -> None:
    """Add the ``served_models`` part against the model the user named (``--model``); nothing when empty."""
    if not served:
        return
    if not served_model:
        result.note(result.unknown, f"served model ({', '.join(served)}) not given",
                    f"未指定所服务的模型（{', '.join(served)}，可用 --model）", Text("served model", "所服务的模型"))
        return
    mine = _norm(served_model)
    hit = any(_norm(m) and (_norm(m) in mine or mine in _norm(m)) for m in served)
    result.note(result.matched if hit else result.failed, f"model {served_model} vs {', '.join(served)}",
                f"模型 {served_model} 对照 {', '.join(served)}")
    if hit:
        result.found.append(Text(f"model {served_model}", f"模型 {served_model}"))


def _env_clause(result: ConditionResult, clause: dict, facts: Facts) -> None:
    """Add one ``env`` clause (``equals``, ``not_equals`` or ``unset``); a clause with none of them, or without a
    ``name``, is ignored."""
    if not isinstance(clause, dict) or not clause.get("name"):
        return
    name = clause["name"]

    if not env_known(facts, name):
        result.note(result.unknown, f"{name} (the input does not show it)", f"{name}（输入中看不到）", Text(name, name))
        return
    value = facts.env.get(name)
    if clause.get("equals") is not None:
        ok = value == clause["equals"]
        text = text_zh = f"{name}={clause['equals']}"
    elif clause.get("not_equals") is not None:
        ok = value != clause["not_equals"]
        text = text_zh = f"{name}!={clause['not_equals']}"
    elif clause.get("unset") is not None:
        ok = (value is None) == bool(clause["unset"])
        text = f"{name} {'unset' if clause['unset'] else 'set'}"
        text_zh = f"{name} {'未设置' if clause['unset'] else '已设置'}"
    else:
        return
    result.note(result.matched if ok else result.failed, text, text_zh, Text(name, name))
    if ok:
        result.found.append(Text(f"{name} unset", f"{name} 未设置") if value is None else Text(f"{name}={value}", f"{name}={value}"))


def _architectures_clause(result: ConditionResult, archs: list[str], facts: Facts) -> None:
    """Add the ``architectures`` part (the host's CPU architecture); nothing when empty."""
    if not archs:
        return
    arch = cpu_arch(facts.host.machine)
    if arch is None:
        result.note(result.unknown, "CPU architecture unknown", "CPU 架构未知", Text("the CPU architecture", "CPU 架构"))
        return
    result.note(result.matched if arch in archs else result.failed, f"CPU {arch}", f"CPU {arch}",
                Text("the CPU architecture", "CPU 架构"))
    if arch in archs:
        result.found.append(Text(f"CPU {arch}", f"CPU {arch}"))


#: what a GPU-model clause is about
_GPU_MODEL = Text("the GPU model", "GPU 型号")

_OPS_EN = {"eq": "is", "ne": "is not", "lt": "below", "le": "at most", "gt": "above", "ge": "at least", "in": "one of"}
_OPS_ZH = {"eq": "为", "ne": "不为", "lt": "低于", "le": "不超过", "gt": "高于", "ge": "不低于", "in": "属于"}
_WORDS_ZH = {True: "是", False: "否"}
#: what a failed clause adds after "X is <value>"
_FAILED_EN = {"eq": ", not {}", "ne": "", "lt": ", not below {}", "le": ", above {}", "gt": ", not above {}",
              "ge": ", below {}", "in": ", not one of {}"}
_FAILED_ZH = {"eq": "，而非 {}", "ne": "", "lt": "，不低于 {}", "le": "，高于 {}", "gt": "，不高于 {}",
              "ge": "，低于 {}", "in": "，不属于 {}"}


def _shown(name: str, value: Any, zh: bool = False) -> str:
    """A fact's value as a report writes it: sizes in binary units, true/false as yes/no."""
    if isinstance(value, bool):
        return _WORDS_ZH[value] if zh else ("yes" if value else "no")
    if isinstance(value, list):
        return ("、" if zh else ", ").join(_shown(name, v, zh) for v in value)
    if isinstance(value, int) and (name.endswith("_bytes") or name == "limits.memlock_soft"):
        if value == -1:
            return "不限" if zh else "unlimited"
        return size(value) if value >= 0 else str(value)
    return str(value)


def _compare(kind: str, op: str, have: Any, want: Any) -> Optional[bool]:
    """``have OP want`` for a fact of ``kind``; None when the values cannot be compared (an unreadable version)."""
    if op == "in":
        if not isinstance(want, list):
            return None  # a hand-made bundle: "in" without a list compares nothing
        return any(_compare(kind, "eq", have, w) for w in want)
    if kind == "version":
        left, right = parse_version(str(have)), parse_version(str(want))
        if left is None or right is None:
            return None
        have, want = left, right
    elif kind == "int" and isinstance(have, int) and isinstance(want, int) and have == -1 and want != -1:
        # -1 is an unlimited limit: larger than any number
        return op in ("ne", "gt", "ge")
    try:
        return {"eq": have == want, "ne": have != want, "lt": have < want, "le": have <= want,
                "gt": have > want, "ge": have >= want}[op]
    except TypeError:
        return None


def _fact_clause(result: ConditionResult, clause: Any, facts: Facts, evidence: Optional[Evidence], data: Any) -> None:
    """Add one ``facts`` clause to ``result``: matched, failed, or unknown with the fact named."""
    if not isinstance(clause, dict) or clause.get("fact") not in FACTS or clause.get("op") not in _OPS_EN:
        return
    spec = FACTS[clause["fact"]]
    op, want = clause["op"], clause.get("value")
    label_en = f"{spec.en} {_OPS_EN[op]} {_shown(spec.name, want)}"
    label_zh = f"{spec.zh}{_OPS_ZH[op]} {_shown(spec.name, want, True)}"
    subject = Text(spec.en, spec.zh)
    found = fact_value(spec.name, facts, evidence, data)
    if not found.known:
        result.note(result.unknown, f"{spec.en} (not shown by the input)", f"{spec.zh}（输入中看不到）", subject)
        return
    verdict = _compare(spec.kind, op, found.value, want)
    if verdict is None:
        result.note(result.unknown, f"{spec.en} ({found.value} cannot be compared)", f"{spec.zh}（{found.value} 无法比较）",
                    subject)
        return
    have_en, have_zh = _shown(spec.name, found.value), _shown(spec.name, found.value, True)
    where_en = f", {found.source.en} ({found.line})" if found.line else ""
    where_zh = f"，{found.source.zh}（{found.line}）" if found.line else ""
    if spec.reads and isinstance(found.value, bool):  # a yes/no fact reads as a sentence: "the container lacks IPC_LOCK"
        read_en, read_zh = spec.reads[0 if found.value else 1]
        result.note(result.matched if verdict else result.failed, read_en + where_en, read_zh + where_zh, subject)
        if verdict:
            result.found.append(Text(read_en + where_en, read_zh + where_zh))
        return
    if verdict:
        result.note(result.matched, f"{label_en}: {have_en}{where_en}", f"{label_zh}：{have_zh}{where_zh}", subject)
        result.found.append(Text(f"{spec.en} is {have_en}{where_en}", f"{spec.zh}为 {have_zh}{where_zh}"))
    else:
        want_en, want_zh = _shown(spec.name, want), _shown(spec.name, want, True)
        result.note(result.failed, f"{spec.en} is {have_en}{_FAILED_EN[op].format(want_en)}{where_en}",
                    f"{spec.zh}为 {have_zh}{_FAILED_ZH[op].format(want_zh)}{where_zh}", subject)
