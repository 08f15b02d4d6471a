import checks_rules_kit as kit

RULE = "cuda.torch-build-vs-driver"
GF = (("NVIDIA GeForce RTX 3060", "geforce", "8.6"),)


def _ctx(driver, torch_cuda, gpus=GF, api=None):
    import datetime as dt

    facts = kit.gpu_facts(driver, gpus)
    facts.nvml.cuda_driver_version = api
    facts.torch = kit.torch_build("2.5.1+cu" + torch_cuda.replace(".", ""), torch_cuda)
    return kit.context(facts, today=dt.date(2026, 12, 1))


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


def test_newer_major_remedy_names_the_major_the_driver_runs_not_its_native_maximum():
    """torch 2.1.0+cu121 on 470.86: 470.86 >= 450.80.02 (the 11.x minor-version floor) runs any CUDA 11.x build."""
    f = kit.run(RULE, _ctx("470.86", "12.1", api=11040))
    remedy = f[0].remedy.en
    # a real 11.x wheel of PyTorch's index (the torch-wheels table), not the driver's native 11.4 (no cu114 exists)
    assert "build PyTorch publishes for CUDA 11.8" in remedy and "--index-url https://download.pytorch.org/whl/cu118" in remedy
    assert "cu114" not in remedy and "11.4" not in remedy
    # the one driver target of the report: the least change, the oldest supported long-term support branch at or
    # above 530.30.02 (R530, the CUDA 12.1 minimum's branch, is end of life), with the newest branch beside it
    assert "R580 (580 or later; R620 is the newest)" in remedy and "R530" not in remedy
    assert "CUDA 11.8" in f[0].remedy.zh and "cu114" not in f[0].remedy.zh


def test_remedy_falls_back_to_the_native_maximum_below_every_minor_version_floor():
    """R418 (CUDA 10.1) is below R450, the lowest floor of minor version compatibility: no major runs as a whole."""
    f = kit.run(RULE, _ctx("418.87.01", "11.8", api=10010))
    assert kit.severities(f) == ["error"]
    assert "a torch build for CUDA 10.1 or older" in f[0].remedy.en and "10.x" not in f[0].remedy.en


def test_same_major_newer_minor_remedy_does_not_ask_for_a_build_that_does_not_exist():
    """cu118 on 470.86 runs through minor version compatibility: upgrade for full support or accept the limits."""
    f = kit.run(RULE, _ctx("470.86", "11.8", api=11040))
    assert kit.severities(f) == ["warning"]
    remedy = f[0].remedy.en
    assert "CUDA 11.4" not in remedy and "torch build for" not in remedy
    # R520, R535 and R570 are end of life on 2026-12-01: R580 is the oldest supported branch that runs CUDA 11.8
    assert "R580 (580 or later; R620 is the newest)" in remedy and "full" in remedy and "limited feature set" in remedy
    assert "520.61.05" not in remedy  # R520 is end of life: never named as the fix
    assert "11.4" not in f[0].remedy.zh and "R580（580 或更高；最新的是 R620）" in f[0].remedy.zh
