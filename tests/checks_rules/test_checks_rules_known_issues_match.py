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
    assert evaluate(cond, _facts(), served_model=None, component=kd.catalog_entry).state == MAY_APPLY
    assert evaluate(cond, _facts(), served_model="deepseek-r1-671b", component=kd.catalog_entry).state == APPLIES
    assert evaluate(cond, _facts(vllm="0.9.2"), served_model="DeepSeek-R1", component=kd.catalog_entry).state == DOES_NOT_APPLY
    assert evaluate({"env": [{"name": "X", "unset": True}]}, Facts(), served_model=None, component=kd.catalog_entry).state == APPLIES
    assert evaluate(None, Facts(), served_model=None, component=kd.catalog_entry).state == MAY_APPLY


def test_a_pypi_component_the_input_shows_is_not_installed_makes_its_issue_not_apply():
    """The distributions were listed and vLLM is not among them: a condition on vLLM's version fails (the typed
    catalog entry's probe kind decides it, as on 25.02 of the embedded data, which once ended in an internal error)."""
    kd = kit.data()
    facts = _facts()
    facts.distributions = [kit.dist("torch", "2.6.0")]
    result = evaluate({"components": {"vllm": "<0.8.2.dev0"}}, facts, served_model=None, component=kd.catalog_entry)
    assert kd.catalog_entry("vllm").probe.kind == "pypi"
    assert result.state == DOES_NOT_APPLY and "vllm not installed" in result.failed
    rec = kit.fixture_record("training-nv-pytorch:25.02")
    assert [f.severity.value for f in kit.run(RULE, kit.context(facts, rec=rec)) if "internal error" in f.message.en] == []


def test_xpu_deepseek_issues_may_apply_without_model():
    rec = kit.fixture_record("training-xpu-pytorch:25.05")
    f = kit.run(RULE, kit.context(Facts(), rec=rec))
    assert f and all(x.severity.value in ("info", "ok", "warning", "error") for x in f)


def _ids(findings):
    return sorted(f.message.en.split(":")[0].split()[2] for f in findings if f.message.en.startswith("Known issue "))


def test_an_issue_naming_releases_applies_to_those_releases_only():
    """The xpu issues list ``affects.releases: [training-xpu-pytorch:25.05]``: a later release of the family (a
    date-named one, as 2026-10-20) is not said to be affected, not even "may apply"."""
    later = kit.synthetic("training-xpu-pytorch", "2026-10-20", "https://help.aliyun.com/zh/document_detail/3172892.html",
                          released={"date": "2026-10-20", "kind": "page-published",
                                    "source": "https://help.aliyun.com/zh/document_detail/3172892.html"},
                          ppu_sdk="2.2", python="3.12",
                          components=[kit.comp("vllm", "0.8.5")], component_list="complete")
    facts = Facts()
    facts.distributions = [kit.dist("vllm", "0.8.5")]
    rec_2505 = kit.fixture_record("training-xpu-pytorch:25.05")
    assert _ids(kit.run(RULE, kit.context(facts, rec=rec_2505))) == [
        "vllm-deepseek-max-model-len-oom", "vllm-deepseek-r1-garbled-output-prefix-caching", "xpu-qwen3-235b-a22b-performance"]
    assert kit.run(RULE, kit.context(facts, kd=kit.data([later]), rec=later)) == []


def test_an_issue_fixed_in_a_release_does_not_apply_to_it_or_later_ones():
    """vllm-fused-moe-h20-illegal-memory-access: affects training-nv-pytorch 25.02, fixed in 25.03."""
    for ref, expected in (("training-nv-pytorch:25.02", ["vllm-fused-moe-h20-illegal-memory-access"]),
                          ("training-nv-pytorch:25.03", []), ("training-nv-pytorch:25.04", [])):
        rec = kit.fixture_record(ref)
        assert _ids(kit.run(RULE, kit.context(_facts(), rec=rec))) == expected, ref


def test_a_family_wide_issue_stops_at_its_fixed_in_release_by_date():
    """An issue naming only its family applies to the family's releases before the one ``fixed_in`` names."""
    issue = kit.issue({"id": "family-wide-test-issue", "kind": "known-issue", "severity": "warning",
                       "title": {"en": "Family-wide test issue", "zh": "全系列测试问题"}, "status": "fixed",
                       "description": {"en": "A test issue.", "zh": "测试用问题。"},
                       "workaround": {"en": "Upgrade.", "zh": "升级。"},
                       "sources": [{"url": "https://example.com/issue", "language": "en"}],
                       "affects": {"families": ["training-nv-pytorch"]}, "fixed_in": ["training-nv-pytorch:25.06"],
                       "condition": {"gpu_models": ["H20"]}})
    kd = kit.data(issues=[issue])
    for ref, applies in (("training-nv-pytorch:25.04", True), ("training-nv-pytorch:25.06", False),
                         ("training-nv-pytorch:25.10", False)):
        found = _ids(kit.run(RULE, kit.context(_facts(), kd=kd, rec=kd.release(ref))))
        assert ("family-wide-test-issue" in found) is applies, ref
