import checks_rules_kit as kit

RULE = "cuda.torch-build-vs-driver"
GF = (("NVIDIA GeForce RTX 3060", "geforce", "8.6"),)


def _ctx(driver, torch_cuda, gpus=GF, api=None):
    facts = kit.gpu_facts(driver, gpus)
    facts.nvml.cuda_driver_version = api
    facts.torch = kit.torch_build("2.5.1+cu" + torch_cuda.replace(".", ""), torch_cuda)
    return kit.context(facts)


def test_older_or_equal_cuda_ok():
    assert kit.severities(kit.run(RULE, _ctx("550.54.15", "12.4", api=12040))) == ["ok"]


def test_newer_major_is_error_with_found_version():
    f = kit.run(RULE, _ctx("470.86", "12.1", api=11040))
    assert kit.severities(f) == ["error"] and "11040" in f[0].message.en and "GeForce" in f[0].message.en


def test_same_major_newer_minor_is_warning():
    f = kit.run(RULE, _ctx("535.104.05", "12.4", api=12020))
    assert kit.severities(f) == ["warning"]


def test_cpu_build_info_and_garbage_info():
    facts = kit.gpu_facts()
    facts.torch = kit.torch_build("2.5.1+cpu", None)
    assert kit.severities(kit.run(RULE, kit.context(facts))) == ["info"]
    facts.torch = kit.torch_build("2.5.1", "twelve")
    assert kit.severities(kit.run(RULE, kit.context(facts))) == ["info"]
