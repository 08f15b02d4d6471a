"""Real failure reports whose input quotes the error lines (``symptoms.errors``, a collect_env paste's warnings),
through the command line with the embedded release data: the error line decides, its right cause comes first.

The inputs are copies of ``../shared/cases/turn3/`` (public reports: NVIDIA/nccl#290, microsoft/mscclpp#335,
NVIDIA/nccl#952, simstudioai/sim#5552, vllm-project/vllm#20173, vllm-project/vllm#18182,
alibaba/Pai-Megatron-Patch#153) in ``tests/fixtures/cases/``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "cases"

#: case -> (input option, file, extra options, signature, the cause that must lead, phrases the remedy holds,
#:          other findings that must be errors)
CASES_EXPECTED = {
    "H301": ("--from", "H301-docker-shm-default.json", [], "nccl-shm-no-space",
             "/dev/shm is smaller than the ranks of this node need", ["--shm-size=", "--ipc=host", "emptyDir"],
             ["container.shm-size"]),
    "H303": ("--from", "H303-rdma-no-ipc-lock.json", [], "rdma-ucx-create-cq-memlock",
             "IPC_LOCK", ["--cap-add=IPC_LOCK", "memlock"], []),
    "H305": ("--from", "H305-ngc-no-dev-infiniband.json", [], "nccl-ib-no-device",
             "the container does not see them", ["--device=/dev/infiniband", "IPC_LOCK"], ["container.rdma-usable"]),
    "H309": ("--from", "H309-ecs-cpu-torch.json", [], "pytorch-deserialize-cuda-unavailable",
             "CPU-only", ["download.pytorch.org/whl/cu"], ["cuda.available"]),
    "H314": ("--from-collect-env", "H314-vllm091-b200-cu126.txt", [], "pytorch-arch-not-compatible",
             "", ["cu128"], []),
    "H315": ("--from", "H315-vllm-fp8-a100.json", ["--model", "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"],
             "triton-fp8e4nv-unsupported", "compute capability", ["BF16"], ["cuda.fp8-capability"]),
    "H320": ("--from", "H320-pai-image-no-gpus.json", [], "nvidia-driver-not-detected",
             "without GPUs", ["--gpus all", "nvidia.com/gpu"], []),
}


def _report(option: str, name: str, extra: list) -> dict:
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", option, str(CASES / name), "--format", "json",
                           "--lang", "en", *extra], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("case", sorted(CASES_EXPECTED))
def test_the_error_line_of_a_real_report_decides_with_its_cause_first(case):
    option, name, extra, signature, cause, remedy_words, errors = CASES_EXPECTED[case]
    report = _report(option, name, extra)
    assert [m["signature"] for m in report["evidence"]["matches"]][:1] == [signature]
    lines = [f for f in report["findings"] if f["rule"] == "evidence.error-lines"]
    assert lines and lines[0]["severity"] == "error"
    # the evidence comes first in the report: an observed failure outranks the predictions
    assert report["findings"][0]["rule"] == "evidence.error-lines"
    lead = lines[0]["message"].split("Most likely cause here: ", 1)[1]
    assert cause.lower() in lead.split(".")[0].lower() or cause.lower() in lead.lower()[:300], lead[:300]
    for word in remedy_words:
        assert word in (lines[0]["remedy"] or ""), (word, lines[0]["remedy"])
    severities = {f["rule"]: f["severity"] for f in report["findings"]}
    for rule in errors:
        assert severities.get(rule) == "error", (rule, severities.get(rule))
