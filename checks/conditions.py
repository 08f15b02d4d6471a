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
from lingjun.checks.findings import Text
from lingjun.checks.installed import installed_component
from lingjun.checks.record_view import cpu_arch
from lingjun.checks.version_match import parse_version

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
        result.unknown.append("no machine-readable condition")
        return result

    for cid, spec_text in (condition.get("components") or {}).items():
        label = f"{cid} {spec_text}"
        from packaging.specifiers import InvalidSpecifier, SpecifierSet  # lazy: packaging.specifiers imports packaging.tags

        try:
            spec = SpecifierSet(str(spec_text))
        except InvalidSpecifier:
            result.unknown.append(f"{label} (unreadable specifier)")
            continue
        entry = component(cid)
        if entry is None:
            result.unknown.append(f"{label} (not in the component catalog)")
            continue
        inst = installed_component(entry, facts)
        if not inst.probed:
            result.unknown.append(f"{label} (not probed)")
        elif inst.version is None:
            if (entry.get("probe") or {}).get("kind") == "pypi":
                result.failed.append(f"{cid} not installed")
            else:
                result.unknown.append(f"{label} (version unknown)")
        else:
            version = parse_version(inst.version)
            if version is None:
                result.unknown.append(f"{label} (installed {inst.version} unreadable)")
            elif spec.contains(version, prereleases=True):
                result.matched.append(f"{cid} {inst.version} {spec_text}")
                result.found.append(Text(f"{cid} {inst.version}", f"{cid} {inst.version}"))
            else:
                result.failed.append(f"{cid} {inst.version} not {spec_text}")

    models = [m for m in condition.get("gpu_models") or [] if isinstance(m, str)]
    if models:
        names = [g.name for g in facts.gpus if g.name]
        if not names:
            result.unknown.append("GPU model (no GPU visible)")
        else:
            hit = next((n for n in names for m in models if m.lower() in n.lower()), None)
            (result.matched if hit else result.failed).append(f"GPU {hit or names[0]} vs {', '.join(models)}")
            if hit:
                result.found.append(Text(f"GPU {hit}", f"GPU {hit}"))

    served = [m for m in condition.get("served_models") or [] if isinstance(m, str)]
    if served:
        if not served_model:
            result.unknown.append(f"served model ({', '.join(served)}) not given")
        else:
            mine = _norm(served_model)
            hit = any(_norm(m) and (_norm(m) in mine or mine in _norm(m)) for m in served)
            (result.matched if hit else result.failed).append(f"model {served_model} vs {', '.join(served)}")
            if hit:
                result.found.append(Text(f"model {served_model}", f"模型 {served_model}"))

    for clause in condition.get("env") or []:
        if not isinstance(clause, dict) or not clause.get("name"):
            continue
        name = clause["name"]
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
        else:
            continue
        (result.matched if ok else result.failed).append(text)
        if ok:
            result.found.append(Text(f"{name} unset", f"{name} 未设置") if value is None else Text(f"{name}={value}", f"{name}={value}"))

    archs = [a for a in condition.get("architectures") or [] if isinstance(a, str)]
    if archs:
        arch = cpu_arch(facts.host.machine)
        if arch is None:
            result.unknown.append("CPU architecture unknown")
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
