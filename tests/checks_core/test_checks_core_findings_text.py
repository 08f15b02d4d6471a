"""lingjun.checks.report.findings.Text: one message in both languages, never formatted into one language's string."""

from __future__ import annotations

import pytest

from lingjun.checks.report.findings import Text


def test_a_text_in_an_f_string_is_refused_naming_both_languages():
    unset = Text("unset", "未设置")
    with pytest.raises(TypeError) as refused:
        f"NCCL_DEBUG={unset}"  # noqa: B018 - the formatting itself is what is tested
    assert str(refused.value) == "a Text holds two languages ('unset' / '未设置'): format .en and .zh, or .get(lang)"
    with pytest.raises(TypeError):
        format(unset, "")


def test_a_text_gives_each_language_and_a_sentence():
    clause = Text("the snapshot does not show the driver", "快照中不包含驱动")
    assert clause.get("zh") == "快照中不包含驱动" and clause.get("fr") == clause.en
    assert clause.as_sentence() == Text("The snapshot does not show the driver.", "快照中不包含驱动。")
    assert f"NCCL_DEBUG={clause.get('en')}" == "NCCL_DEBUG=the snapshot does not show the driver"
