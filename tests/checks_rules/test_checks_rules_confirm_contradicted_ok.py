"""confirm(): an ok the logs contradict becomes an error. The facts of an RTX 5090 collect_env paste
(tests/fixtures/cases/rtx5090/, a real report kept by the team) make cuda.compute-capability predict the
architecture is supported; the job's log shows torch's "sm_120 is not compatible" warning and "no kernel image":
the report must not say both "GPU architecture supported" and the failure (issue 33: one report, one answer)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CASE = Path(__file__).resolve().parents[1] / "fixtures" / "cases" / "rtx5090"


def _report(*args: str) -> dict:
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from-collect-env", str(CASE / "collect_env_5090.txt"),
                           "--release", "training-nv-pytorch:25.03", "--format", "json", "--lang", "en", *args],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def _rule(report: dict, rule: str) -> "list[dict]":
    return [f for f in report["findings"] if f["rule"] == rule]


def test_an_ok_the_job_log_contradicts_is_an_error_naming_the_line():
    (finding,) = _rule(_report("--log", str(CASE / "job_5090.log")), "cuda.compute-capability")
    assert finding["severity"] == "error"
    assert "The logs contradict this prediction" in finding["message"]
    assert "sm_120 is not compatible with the current PyTorch installation" in finding["message"]


def test_without_the_log_the_prediction_stands_as_ok():
    (finding,) = _rule(_report(), "cuda.compute-capability")
    assert finding["severity"] == "ok" and "contradict" not in finding["message"]


def test_a_log_failing_for_another_cause_leaves_the_ok_alone(tmp_path):
    log = tmp_path / "job.log"
    log.write_text("node-1:1:1 [0] misc/shmutils.cc:72 NCCL WARN Error: failed to extend /dev/shm/nccl-H1dBqY to "
                   "9637892 bytes\n", encoding="utf-8")
    report = _report("--log", str(log))
    (finding,) = _rule(report, "cuda.compute-capability")
    assert finding["severity"] == "ok"
    assert any(f["severity"] == "error" for f in _rule(report, "evidence.error-lines"))
