import checks_rules_kit as kit
from lingjun.checks.rules.driver_nvml_mismatch import nvml_library_driver

RULE = "driver.nvml-mismatch"


def test_nvml_version_strings():
    assert str(nvml_library_driver("12.570.124.06")) == "570.124.06"
    assert str(nvml_library_driver("550.144")) == "550.144"
    assert nvml_library_driver("garbage") is None


def test_library_differs_from_kernel_is_error_equal_is_ok():
    facts = kit.gpu_facts("560.35.03")
    facts.nvml.library_version = "550.144"
    assert kit.severities(kit.run(RULE, kit.context(facts))) == ["error"]
    facts.nvml.library_version = "12.560.35.03"
    assert kit.severities(kit.run(RULE, kit.context(facts))) == ["ok"]
