"""Turn-2 cases of the container and network layer (T02 /dev/shm, T03 memlock), replayed through the command line.

The snapshots in tests/fixtures/reports hold only what their reports showed (their ``_facts`` say which report
and what was left out); the verdicts are the ones in the cases' README, written before the checker ran.
"""

from __future__ import annotations

import json

import pytest

from checks_redteam_kit import REPO, run_json, severities

TURN2 = REPO / "tests" / "fixtures" / "reports"
T02 = TURN2 / "T02-production-stack-276-shm64m.json"
T03 = TURN2 / "T03-nccl-tests-206-memlock.json"
CONTAINER_RULES = ("container.shm-size", "container.memlock-rdma", "container.open-files", "container.rdma-usable",
                   "container.nccl-ib-hca", "container.nccl-ib-transport", "container.nccl-ib-gid-index")


def _one(report: dict, rule_id: str) -> dict:
    (finding,) = [f for f in report["findings"] if f["rule"] == rule_id]
    return finding


def test_t02_shm_64m_in_a_two_gpu_pod_is_an_error_naming_kubernetes_and_docker(monkeypatch, capsys):
    # vllm-project/production-stack#276: tensor parallel 2 in a pod whose /dev/shm is 64M
    code, report, err = run_json(monkeypatch, capsys, "--from", str(T02))
    assert code == 1, err
    shm = _one(report, "container.shm-size")
    assert shm["severity"] == "error"
    assert "/dev/shm is 64 MiB (Docker's and Kubernetes' default) in a pod with 2 GPUs" in shm["message"]
    assert "NCCL" in shm["message"] and "DataLoader" in shm["message"]
    for words in ("emptyDir", "medium: Memory", "/dev/shm", "--shm-size", "--ipc=host"):
        assert words in shm["remedy"], words
    assert shm["observed"] == "64 MiB" and "1 GiB" in shm["expected"]
    # the report shows no limits, RDMA devices or environment: those rules say skipped, never "unset" or "none"
    for rule_id in CONTAINER_RULES[1:]:
        assert severities(report, rule_id) == ["skipped"], rule_id
    assert [f["rule"] for f in report["findings"] if f["severity"] == "error"] == ["container.shm-size"]


def test_t02_in_chinese_names_the_same_remedies(monkeypatch, capsys):
    _, report, _ = run_json(monkeypatch, capsys, "--from", str(T02), "--lang", "zh")
    shm = _one(report, "container.shm-size")
    assert "Pod 中有 2 块 GPU" in shm["message"] and "64 MiB" in shm["message"]
    assert "emptyDir" in shm["remedy"] and "--shm-size" in shm["remedy"] and "--ipc=host" in shm["remedy"]


def test_t03_memlock_8_mib_while_rdma_is_in_use_is_an_error(monkeypatch, capsys):
    # NVIDIA/nccl-tests#206: ulimit -l 8192 (KiB), ibv_reg_mr_iova2 failed with Cannot allocate memory
    code, report, err = run_json(monkeypatch, capsys, "--from", str(T03))
    assert code == 1, err
    memlock = _one(report, "container.memlock-rdma")
    assert memlock["severity"] == "error"
    assert memlock["message"].startswith("The locked-memory limit is 8 MiB while RDMA is in use")
    assert "ibv_reg_mr_iova2 failed with error Cannot allocate memory" in memlock["message"]
    assert memlock["observed"] == "RLIMIT_MEMLOCK 8 MiB"
    assert "--ulimit memlock=-1" in memlock["remedy"] and "securityContext" in memlock["remedy"]
    assert "https://github.com/NVIDIA/nccl-tests/issues/206" in memlock["links"]
    # not shown by the report: /dev/shm, the RDMA devices, the open-files limit
    for rule_id in ("container.shm-size", "container.rdma-usable", "container.nccl-ib-transport", "container.open-files"):
        assert severities(report, rule_id) == ["skipped"], rule_id
    assert _one(report, "container.open-files")["message"] == "The snapshot does not show the open-files limit."


def test_t03_without_the_quoted_error_cannot_tell_rdma_is_in_use(monkeypatch, capsys, tmp_path):
    data = json.loads(T03.read_text(encoding="utf-8"))
    del data["symptoms"]
    path = tmp_path / "t03-no-symptom.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, report, _ = run_json(monkeypatch, capsys, "--from", str(path))
    memlock = _one(report, "container.memlock-rdma")
    assert memlock["severity"] == "skipped" and "8 MiB" not in memlock["message"]
    assert memlock["message"] == "The locked-memory limit was not judged: the snapshot does not show the RDMA devices and /dev/infiniband nodes."
    assert code == 0


@pytest.mark.parametrize("path", [T02, T03])
def test_converted_snapshots_use_real_snapshot_keys(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    from lingjun.checks.facts import Facts

    known = {f for f in Facts.__dataclass_fields__} | {"_facts"}
    assert set(data) <= known, set(data) - known
    assert "source" not in json.dumps(data.get("shm", {})) and "memlock_kib" not in json.dumps(data.get("limits", {}))


@pytest.mark.parametrize("name", ["T01-pytorch-110153-h100-sm90.txt", "T04-pytorch-130181-mig.txt", "S3-vllm-15607-a800-drv470.txt"])
def test_a_collect_env_paste_skips_every_container_rule(monkeypatch, capsys, name):
    # a paste shows no /dev/shm, no limits and no RDMA devices: skipped with the reason, never "too small" or "none"
    _, report, _ = run_json(monkeypatch, capsys, "--from-collect-env", str(TURN2 / name))
    for rule_id in CONTAINER_RULES:
        findings = [f for f in report["findings"] if f["rule"] == rule_id]
        assert [f["severity"] for f in findings] == ["skipped"], (rule_id, findings)
        assert findings[0]["message"].startswith("The collect_env paste does not show"), findings[0]["message"]
