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


# -- the note carried to a release whose usage notes were not captured (lingjun.checks.knowledge.carried) -----

import json
import subprocess
import sys

SNAPSHOT_2510 = kit.ROOT / "tests" / "fixtures" / "snapshots" / "training-nv-pytorch-25.10-16-gpus-eth0.json"


def _check_snapshot(tmp_path, *args):
    """lingjun-check --from the 25.10 snapshot (16 H20, NCCL_SOCKET_IFNAME=eth0, eth0 and hpn0 present) against the
    fixture bundle; the pod-size finding of the JSON report."""
    bundle = tmp_path / "bundle.json"
    bundle.write_text(json.dumps(kit.fixture_bundle()), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from", str(SNAPSHOT_2510), "--data", str(bundle),
                           "--format", "json", *args], capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "LANG": "C.UTF-8"})
    assert done.returncode == 0, done.stderr  # warnings only (no error): exit 0
    report = json.loads(done.stdout)
    assert report["release"]["ref"] == "training-nv-pytorch:25.10"
    return [f for f in report["findings"] if f["rule"] == RULE]


def test_snapshot_of_25_10_warns_with_the_note_carried_from_25_07(tmp_path):
    (finding,) = _check_snapshot(tmp_path)
    assert finding["severity"] == "warning" and finding["expected"] == "hpn0" and finding["observed"] == "eth0"
    assert "the family's release notes ask for hpn0" in finding["message"]
    assert 'Release note (stated by 25.07; not recorded for 25.10): "Set NCCL_SOCKET_IFNAME by pod size' in finding["message"]
    assert finding["remedy"] == "export NCCL_SOCKET_IFNAME=hpn0"


def test_snapshot_of_25_10_in_chinese_names_the_provenance(tmp_path):
    (finding,) = _check_snapshot(tmp_path, "--lang", "zh")
    assert finding["severity"] == "warning"
    assert "发布说明（25.07 载明；25.10 未记录该部分）：“按 Pod 规格设置 NCCL_SOCKET_IFNAME" in finding["message"]


def test_own_note_of_25_07_is_quoted_without_provenance():
    (f,) = _run("eth0", 16)
    assert 'Release note: "Set NCCL_SOCKET_IFNAME by pod size' in f.message.en and "stated by" not in f.message.en


def test_carried_note_ok_names_where_it_comes_from():
    facts = kit.gpu_facts("575.57.08", [("NVIDIA H20", "nvidia", "9.0")] * 16)
    facts.env["NCCL_SOCKET_IFNAME"] = "hpn0"
    (f,) = kit.run(RULE, kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.10")))
    assert f.severity.value == "ok"
    assert f.message.en == ("NCCL_SOCKET_IFNAME=hpn0 as the family's release notes ask (stated by 25.07; not recorded "
                            "for 25.10) for 16 GPU(s) per pod.")


def test_a_release_whose_captured_notes_drop_it_ends_the_carry():
    """25.09 recorded with its usage notes captured and without this note: 25.10 gets no note, so no finding."""
    kd = kit.data()
    for rec in kd.raw["releases"]:
        if rec["family"] == "training-nv-pytorch" and rec["version"] == "25.09":
            rec["not_captured"] = [s for s in rec.get("not_captured") or [] if s != "usage_notes"]
    facts = kit.gpu_facts("575.57.08", [("NVIDIA H20", "nvidia", "9.0")] * 16, NCCL_SOCKET_IFNAME="eth0")
    ctx = kit.context(facts, kd=kd, rec=kd.release("training-nv-pytorch:25.10"))
    assert kit.run(RULE, ctx) == []
