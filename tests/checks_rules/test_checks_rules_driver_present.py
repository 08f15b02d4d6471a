import checks_rules_kit as kit
from lingjun.checks.facts import Facts


def test_no_driver_is_skipped_or_error_with_require_gpu():
    assert kit.severities(kit.run("driver.present", kit.context(Facts()))) == ["skipped"]
    assert kit.severities(kit.run("driver.present", kit.context(Facts(), require_gpu=True))) == ["error"]


def test_driver_visible_is_ok():
    f = kit.run("driver.present", kit.context(kit.gpu_facts("575.57.08")))
    assert kit.severities(f) == ["ok"] and f[0].observed == "575.57.08"


def test_ppu_record_is_skipped():
    rec = kit.fixture_record("training-xpu-pytorch:25.05")
    assert kit.severities(kit.run("driver.present", kit.context(Facts(), rec=rec))) == ["skipped"]
