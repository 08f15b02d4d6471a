"""evidence.error-lines: a summary line (a signature with ``summary: true``, NCCL's 'unhandled system error') comes
after the log's other error lines, which name what failed first, and says so; alone it is reported as before."""

from __future__ import annotations

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import findings_for_log

SUMMARY = "NCCL failure common.cu:874 'unhandled system error'"
SPECIFIC = "e66aa18dc444:3171:3171 [0] include/socket.h:311 WARN Socket creation failed : Address family not supported by protocol"


def _errors(tmp_path, *lines: str):
    errors = [f for f in findings_for_log(tmp_path, list(lines)) if f.severity is Severity.error]
    assert_bilingual(errors)
    return errors


def test_the_specific_line_leads_and_the_summary_points_to_it(tmp_path):
    first, second = _errors(tmp_path, SUMMARY, SPECIFIC)
    assert "Socket creation failed" in first.message.en
    assert "unhandled system error" in second.message.en and "sums up a failure" in second.message.en
    assert "概括了日志中其他错误行" in second.message.zh
    assert "listed above. " in second.message.en and ".." not in second.message.en and "。。" not in second.message.zh


def test_a_summary_line_alone_does_not_point_elsewhere(tmp_path):
    (only,) = _errors(tmp_path, SUMMARY)
    assert "sums up a failure" not in only.message.en


def test_torch_s_unhandled_cuda_error_follows_nccl_s_cuda_failure_it_sums_up(tmp_path):
    first, second = _errors(tmp_path, "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/"
                                      "c10d/ProcessGroupNCCL.cpp:3353, unhandled cuda error (run with NCCL_DEBUG=INFO for "
                                      "details), NCCL version 2.26.2",
                                      "node:1:2 [0] transport/p2p.cc:275 NCCL WARN Cuda failure 217 'peer access is not "
                                      "supported between these two devices'")
    assert "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED" in first.message.en
    assert "unhandled cuda error" in second.message.en and "sums up a failure" in second.message.en
