import datetime as dt

import checks_rules_kit as kit

RULE = "driver.branch-eol"


def test_eol_flag_and_eol_date():
    assert kit.severities(kit.run(RULE, kit.context(kit.gpu_facts("550.54.15")))) == ["info"]
    early = kit.run(RULE, kit.context(kit.gpu_facts("570.124.06"), today=dt.date(2025, 6, 1)))
    late = kit.run(RULE, kit.context(kit.gpu_facts("570.124.06"), today=dt.date(2026, 3, 1)))
    assert kit.severities(early) == ["ok"] and kit.severities(late) == ["info"]


def test_unknown_branch_is_info():
    assert kit.severities(kit.run(RULE, kit.context(kit.gpu_facts("999.1")))) == ["info"]
