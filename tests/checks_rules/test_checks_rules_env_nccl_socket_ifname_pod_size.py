"""The 25.07 usage note: eth0 for pods of 1/2/4/8 GPUs, hpn0 for all 16 GPUs of a machine."""

import checks_rules_kit as kit

RULE = "env.nccl-socket-ifname-pod-size"


def _run(value, gpus, **opts):
    facts = kit.gpu_facts("575.57.08", [("NVIDIA H20", "nvidia", "9.0")] * gpus)
    if value is not None:
        facts.env["NCCL_SOCKET_IFNAME"] = value
    return kit.run(RULE, kit.context(facts, rec=kit.real_record("training-nv-pytorch:25.07"), **opts))


def test_eight_gpus_eth0_ok_hpn0_warning():
    assert kit.severities(_run("eth0", 8)) == ["ok"]
    f = _run("hpn0", 8)
    assert kit.severities(f) == ["warning"] and f[0].expected == "eth0"


def test_sixteen_gpus_need_hpn0():
    assert kit.severities(_run("hpn0", 16)) == ["ok"]
    assert kit.severities(_run("eth0", 16)) == ["warning"]
    assert kit.severities(_run("eth0", 8, gpus_per_pod=16)) == ["warning"]


def test_other_counts_info_and_records_without_the_note_silent():
    assert kit.severities(_run("eth0", 3)) == ["info"]
    facts = kit.gpu_facts()
    assert kit.run(RULE, kit.context(facts, rec=kit.real_record("training-xpu-pytorch:25.05"))) == []
