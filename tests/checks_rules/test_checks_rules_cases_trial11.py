"""Lines of the eleventh trial's public failure reports the checker read wrongly: an SGLang server's out-of-memory
(allenai/olmocr#50) and a DMA-BUF registration that ran out of memory (vllm-project/vllm#19613)."""

from __future__ import annotations

from signature_cases_kit import cli_report, lead_cause


def test_an_sglang_servers_out_of_memory_leads_with_its_memory_fraction(tmp_path):
    """Eleventh trial, allenai/olmocr#50: the server's launch command is in the log, the OOM line names no frame."""
    report = cli_report(tmp_path, ["$ python -m sglang.launch_server --model-path allenai/olmOCR-7B-0225-preview --port 30024",
                                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.93 GiB. GPU 0 has a "
                                   "total capacity of 79.14 GiB of which 3.79 GiB is free."])
    assert lead_cause(report, "pytorch-cuda-out-of-memory") == "sglang-serving"


def test_dmabuf_registration_out_of_memory_is_a_memory_limit_not_an_unsupported_stack(tmp_path):
    """Eleventh trial, vllm-project/vllm#19613: 'Cannot allocate memory' from ibv_reg_dmabuf_mr (NCCL_BUFFSIZE set too
    large); only 'Operation not supported' means the RDMA stack refuses DMA-BUF."""
    line = ("[2025-06-16 17:17:39] kilo:318:3584 [5] misc/ibvwrap.cc:183 NCCL WARN Call to ibv_reg_dmabuf_mr failed with "
            "error Cannot allocate memory")
    report = cli_report(tmp_path, [line])
    assert [m["signature"] for m in report["evidence"]["matches"]] == ["nccl-ibv-no-memory"]
    unsupported = cli_report(tmp_path, ["misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error "
                                        "Operation not supported"])
    assert [m["signature"] for m in unsupported["evidence"]["matches"]] == ["nccl-ib-dmabuf-not-supported"]


def test_a_summary_below_a_socket_error_does_not_lead_with_a_cause_the_log_cannot_show(tmp_path):
    """A new user's try: a socket WARN, then torch's 'unhandled system error'; read alone, the log shows nothing of
    /dev/shm, so the summary's lead is not 'shm-too-small' (--shm-size=16g was offered) but a cause that needs no fact."""
    report = cli_report(tmp_path, [
        "node1:77:88 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.1.2.3<43891> failed : "
        "Software caused connection abort",
        "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system "
        "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5"], "--log-only")
    assert [m["signature"] for m in report["evidence"]["matches"]] == ["nccl-socket-connect-failed",
                                                                     "nccl-unhandled-system-error"]
    assert lead_cause(report, "nccl-unhandled-system-error") == "peer-or-socket"
    summary = [f for f in report["findings"] if f["rule"] == "evidence.error-lines"][1]
    assert "--shm-size" not in (summary.get("remedy") or "")
