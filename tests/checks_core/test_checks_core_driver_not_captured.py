"""A release whose page copy never showed the driver section (``not_captured: [driver]``): not stated, said so."""

from __future__ import annotations

from lingjun.checks.core.release_compat import driver_not_captured, release_verdict
from lingjun.checks.core.versions import DriverVersion

NVIDIA = {"family": "demo-nv", "version": "25.11", "cuda": "12.8", "driver": None}


def test_no_driver_and_driver_not_captured_is_not_stated_because_not_recorded():
    verdict = release_verdict({**NVIDIA, "not_captured": ["known_issues", "driver"]}, DriverVersion.parse("570.86.15"),
                              True, None)
    assert (verdict.verdict, verdict.key) == ("not-stated", "no-driver")
    assert verdict.en == ("The release's driver requirement was not recorded from its page (the copy read does "
                                 "not show that section).")
    assert verdict.zh == "未从页面记录该发布的驱动要求（所读页面内容中没有这一部分）。"


def test_no_driver_without_not_captured_keeps_its_wording():
    verdict = release_verdict(NVIDIA, DriverVersion.parse("570.86.15"), True, None)
    assert (verdict.verdict, verdict.en) == ("not-stated", "The release records no driver requirement.")


def test_a_recorded_driver_is_never_not_captured():
    assert driver_not_captured({"driver": None, "not_captured": ["driver"]}) is True
    assert driver_not_captured({"driver": {"vendor": "nvidia", "minimum": "570"}, "not_captured": ["driver"]}) is False
    assert driver_not_captured({"driver": None, "not_captured": ["known_issues"]}) is False
    assert driver_not_captured(None) is False
