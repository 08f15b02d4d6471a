"""container.open-files: RLIMIT_NOFILE against 1024 + 64 sockets per NCCL peer."""

import pytest

import checks_rules_kit as kit
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.rules.container_open_files import needed

RULE = "container.open-files"


def _facts(soft, hard=None, gpus=0, **env):
    facts = Facts()
    facts.limits.nofile_soft = soft
    facts.limits.nofile_hard = hard
    facts.nvml.gpus = [GpuFacts(index=i) for i in range(gpus)]
    facts.env.update(env)
    return facts


def _run(facts):
    findings = kit.run(RULE, kit.context(facts))
    kit.assert_bilingual(findings)
    return findings


def test_needed():
    assert [needed(n) for n in (1, 2, 8, 64)] == [1024, 1088, 1472, 5056]


def test_1024_for_16_ranks_warns_and_offers_the_hard_limit():
    (f,) = _run(_facts(1024, 524288, gpus=8, WORLD_SIZE="16"))
    assert f.severity.value == "warning"
    assert f.message.en.startswith("The open-files limit is 1024 for 16 ranks (WORLD_SIZE=16)")
    assert "Too many open files" in f.message.en
    assert f.observed == "RLIMIT_NOFILE 1024" and f.expected == "at least 1984"
    assert "'ulimit -n 524288'" in f.remedy.en and "--ulimit nofile=1048576:1048576" in f.remedy.en
    assert "set_sharing_strategy('file_system')" in f.remedy.en


@pytest.mark.parametrize("soft,hard,gpus,env,severity,expected", [
    (1048576, 1048576, 8, {}, "ok", "at least 1472"),
    (-1, -1, 8, {"WORLD_SIZE": "1024"}, "ok", "at least 66496"),
    (1088, None, 2, {}, "ok", "at least 1088"),
    (1087, None, 2, {}, "warning", "at least 1088"),
    (2048, None, 2, {"LOCAL_WORLD_SIZE": "8", "WORLD_SIZE": "64"}, "warning", "at least 5056"),
    (1024, None, 1, {}, "info", "more than 1024"),
    (1024, None, 0, {}, "info", "more than 1024"),
    (4096, None, 0, {}, "ok", "more than 1024"),
])
def test_branches(soft, hard, gpus, env, severity, expected):
    (f,) = _run(_facts(soft, hard, gpus, **env))
    assert f.severity.value == severity and f.expected == expected


def test_hard_limit_too_low_is_not_offered():
    (f,) = _run(_facts(1024, 1024, gpus=8))
    assert "ulimit -n" not in f.remedy.en


def test_missing_facts():
    (f,) = kit.run(RULE, kit.context(_facts(None)))
    assert f.severity.value == "skipped" and f.message.en == "The open-files limit could not be read in this container."
    paste = parse_collect_env("PyTorch version: 2.6.0+cu124\nGPU models and configuration: GPU 0: NVIDIA H20\n")
    (g,) = kit.run(RULE, kit.context(paste))
    assert g.severity.value == "skipped" and "does not show the resource limits" in g.message.en
