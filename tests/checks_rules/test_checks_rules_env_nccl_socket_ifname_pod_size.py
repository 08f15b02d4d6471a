"""The 25.07 usage note: eth0 for pods of 1/2/4/8 GPUs, hpn0 for all 16 GPUs of a machine."""

import checks_rules_kit as kit

RULE = "env.nccl-socket-ifname-pod-size"


def _run(value, gpus, **opts):
    facts = kit.gpu_facts("575.57.08", [("NVIDIA H20", "nvidia", "9.0")] * gpus)
    if value is not None:
        facts.env["NCCL_SOCKET_IFNAME"] = value
    return kit.run(RULE, kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"), **opts))


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
    assert kit.run(RULE, kit.context(facts, rec=kit.fixture_record("training-xpu-pytorch:25.05"))) == []


def _run_on(value, gpus, interfaces, **opts):
    from lingjun.checks.facts import InterfaceFacts

    facts = kit.gpu_facts("575.57.08", [("NVIDIA H20", "nvidia", "9.0")] * gpus)
    facts.network = [InterfaceFacts(name=n, operstate="up", has_ipv4=True) for n in interfaces]
    if value is not None:
        facts.env["NCCL_SOCKET_IFNAME"] = value
    return kit.run(RULE, kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"), **opts))


def test_missing_hpn0_is_explained_not_exported():
    """--gpus-per-pod 16 in a container without hpn0: exporting hpn0 would match nothing."""
    f = _run_on("eth0", 8, ["eth0", "lo"], gpus_per_pod=16)
    assert kit.severities(f) == ["warning"]
    assert "export NCCL_SOCKET_IFNAME=hpn0" not in f[0].remedy.en and "export" not in f[0].remedy.zh
    assert "hpn0 is not among this container's interfaces: eth0, lo)" in f[0].message.en
    assert "all 16 GPUs of a machine" in f[0].remedy.en and "hpn0" in f[0].remedy.en
    assert "16" in f[0].remedy.zh and "hpn0" in f[0].remedy.zh


def test_present_hpn0_is_exported():
    f = _run_on("eth0", 16, ["eth0", "hpn0", "lo"])
    assert kit.severities(f) == ["warning"] and f[0].remedy.en == "export NCCL_SOCKET_IFNAME=hpn0"


def test_missing_eth0_is_explained_not_exported():
    f = _run_on("hpn0", 8, ["hpn0", "lo"])
    assert kit.severities(f) == ["warning"]
    assert "export NCCL_SOCKET_IFNAME=eth0" not in f[0].remedy.en
    assert "eth0 is not among this container's interfaces: hpn0, lo)" in f[0].message.en


def test_expected_name_set_but_absent_is_not_ok():
    f = _run_on("hpn0", 16, ["eth0", "lo"])
    assert kit.severities(f) == ["warning"] and "all 16 GPUs of a machine" in f[0].remedy.en


def test_unprobed_interfaces_keep_the_export_remedy():
    f = _run("eth0", 16)
    assert f[0].remedy.en == "export NCCL_SOCKET_IFNAME=hpn0"
