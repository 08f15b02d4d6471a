import checks_rules_kit as kit

RULE = "driver.forward-compat-consumer-gpu"


def test_compat_on_loader_path_on_geforce_is_error():
    facts = kit.gpu_facts("550.120", (("NVIDIA GeForce RTX 4090", "geforce", "8.9"),))
    facts.loader.ld_library_path = ["/usr/local/cuda/compat/lib.real"]
    f = kit.run(RULE, kit.context(facts))
    assert kit.severities(f) == ["error"] and "804" in f[0].message.en


def test_compat_on_data_center_gpu_is_ok_and_no_compat_is_ok():
    facts = kit.gpu_facts("535.129.03", (("NVIDIA A100-SXM4-80GB", "nvidia", "8.0"),))
    facts.libcuda.path, facts.libcuda.is_forward_compat = "/usr/local/cuda/compat/libcuda.so.1", True
    assert kit.severities(kit.run(RULE, kit.context(facts))) == ["ok"]
    assert kit.severities(kit.run(RULE, kit.context(kit.gpu_facts()))) == ["ok"]
