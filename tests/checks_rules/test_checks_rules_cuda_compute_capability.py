import checks_rules_kit as kit
from lingjun.checks.core.gpu_arch import covers

RULE = "cuda.compute-capability"


def test_arch_coverage_rules():
    assert covers(["sm_80"], (8, 6)) and not covers(["sm_90a"], (9, 1)) and covers(["compute_90"], (12, 0))
    assert covers(["8.0", "9.0+PTX"], (12, 0)) and not covers(["sm_100"], (12, 0))


def test_blackwell_in_cuda_12_4_image_is_error_hopper_in_25_07_ok():
    facts = kit.gpu_facts("570.144", (("NVIDIA GeForce RTX 5090", "geforce", "12.0"),))
    facts.cuda.toolkit_version = "12.4.1"
    f = kit.run(RULE, kit.context(facts))
    assert kit.severities(f) == ["error"] and "12.8" in f[0].message.en
    ok = kit.run(RULE, kit.context(kit.gpu_facts(), rec=kit.fixture_record("training-nv-pytorch:25.07")))
    assert kit.severities(ok) == ["ok"]


def test_torch_arch_list_missing_sm_is_error():
    facts = kit.gpu_facts("575.57.08", (("Tesla V100-SXM2-32GB", "tesla", "7.0"),))
    facts.torch = kit.torch_build("2.7.0a0+79aa17489c", "12.9", arch_list=["sm_75", "sm_80", "sm_90", "sm_120", "compute_120"])
    assert kit.severities(kit.run(RULE, kit.context(facts))) == ["error"]


def test_architecture_names_are_shown_capitalized():
    # records keep the ids (blackwell); messages show the architecture names (Blackwell, Hopper)
    rec = dict(kit.fixture_record("training-nv-pytorch:25.07"))
    rec["gpu_support"] = {"list_state": "complete", "architectures": ["blackwell"]}  # a complete list: others unsupported
    f = kit.run(RULE, kit.context(kit.gpu_facts(), rec=rec))
    assert kit.severities(f) == ["error"]
    assert "Hopper" in f[0].message.en and "Blackwell GPUs only" in f[0].message.en
    assert "blackwell" not in f[0].message.en and "hopper" not in f[0].message.en
    assert "Blackwell 架构 GPU" in f[0].message.zh
