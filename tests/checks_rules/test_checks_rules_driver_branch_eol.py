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


def _with_branch(row: dict):
    bundle = kit.fixture_bundle()
    bundle["driver_branches"]["branches"].append(row)
    return kit.KnowledgeData.from_dict(bundle)


def test_a_stored_false_flag_never_outlives_its_month():
    # R535 ended June 2026: a bundle row that still says end_of_life: false is judged by its month
    kd = _with_branch({"branch": 536, "type": "long-term-support", "eol": "2026-06", "end_of_life": False,
                       "source": "dc-drivers"})
    (finding,) = kit.run(RULE, kit.context(kit.gpu_facts("536.10"), kd, today=dt.date(2026, 12, 1)))
    assert finding.severity.value == "info" and "(end of life 2026-06)" in finding.message.en


def test_a_new_feature_branch_without_a_date_is_supported_and_says_why():
    kd = _with_branch({"branch": 615, "type": "new-feature", "eol_undated": "new-feature", "source": "dc-drivers"})
    (finding,) = kit.run(RULE, kit.context(kit.gpu_facts("615.20"), kd, today=dt.date(2030, 1, 1)))
    assert finding.severity.value == "ok"
    assert finding.message.en == "Driver branch R615 is supported (no end-of-life date: a new-feature branch)."
    assert finding.message.zh == "驱动分支 R615 仍在支持期内（无停止支持日期：新功能分支）。"
