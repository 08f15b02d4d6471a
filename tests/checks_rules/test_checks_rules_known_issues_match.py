import checks_rules_kit as kit
from lingjun.checks.knowledge.conditions import APPLIES, DOES_NOT_APPLY, MAY_APPLY, evaluate
from lingjun.checks.facts import Facts

RULE = "known-issues.match"


def _facts(vllm="0.7.2", gpu="NVIDIA H20"):
    facts = kit.gpu_facts("570.124.06", ((gpu, "nvidia", "9.0"),))
    facts.distributions = [kit.dist("vllm", vllm)]
    return facts


def test_h20_moe_issue_on_25_02():
    rec = kit.fixture_record("training-nv-pytorch:25.02")
    hits = [f for f in kit.run(RULE, kit.context(_facts(), rec=rec)) if "h20" in (f.message.en.lower())]
    assert hits and hits[0].severity.value in ("warning", "error")
    assert "13693" in " ".join(hits[0].links)
    none = kit.run(RULE, kit.context(_facts(gpu="NVIDIA H800"), rec=rec))
    assert not [f for f in none if "h20" in f.message.en.lower() and f.severity.value != "ok"]


def test_condition_states():
    kd = kit.data()
    cond = {"components": {"vllm": "<0.8.2.dev0"}, "served_models": ["DeepSeek-R1"]}
    assert evaluate(cond, _facts(), served_model=None, component=kd.component).state == MAY_APPLY
    assert evaluate(cond, _facts(), served_model="deepseek-r1-671b", component=kd.component).state == APPLIES
    assert evaluate(cond, _facts(vllm="0.9.2"), served_model="DeepSeek-R1", component=kd.component).state == DOES_NOT_APPLY
    assert evaluate({"env": [{"name": "X", "unset": True}]}, Facts(), served_model=None, component=kd.component).state == APPLIES
    assert evaluate(None, Facts(), served_model=None, component=kd.component).state == MAY_APPLY


def test_xpu_deepseek_issues_may_apply_without_model():
    rec = kit.fixture_record("training-xpu-pytorch:25.05")
    f = kit.run(RULE, kit.context(Facts(), rec=rec))
    assert f and all(x.severity.value in ("info", "ok", "warning", "error") for x in f)
