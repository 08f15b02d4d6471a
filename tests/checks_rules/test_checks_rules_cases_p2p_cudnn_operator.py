"""evidence.error-lines on three lines public reports quote with the fix that worked: vLLM's custom all-reduce on GPUs
without P2P (vllm-custom-all-reduce-no-p2p), torch's cuDNN attention on cuDNN 8 (pytorch-cudnn-frontend-needs-cudnn9)
and the GPU Operator's toolkit not finding containerd's socket on RKE2 (gpu-operator-toolkit-containerd-socket). Each
names its record's cause with the flag, call or setting that fixed the report, and a near line matches nothing."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.coverage import log_only_facts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

# case: (signature, real line, words of the first cause's title, the fix its remedy names)
CASES = {
    # https://github.com/sgl-project/sglang/issues/552
    "custom-all-reduce": (
        "vllm-custom-all-reduce-no-p2p",
        "Failed: Cuda error /home/runner/work/vllm/vllm/csrc/custom_all_reduce.cuh:307 'peer access is not supported "
        "between these two devices'",
        "no cuda peer-to-peer path", "--disable-custom-all-reduce"),
    # https://github.com/pytorch/pytorch/issues/128207
    "cudnn-frontend": (
        "pytorch-cudnn-frontend-needs-cudnn9",
        "cuDNN Frontend error: s_kv not a multiple of 64 with dropout enabled is not supported with cudnn version "
        "below 9.0.0",
        "loads cudnn 8", "torch.backends.cuda.enable_cudnn_sdp(False)"),
    # https://github.com/NVIDIA/gpu-operator/issues/406
    "operator-containerd": (
        "gpu-operator-toolkit-containerd-socket",
        'time="2022-09-19T11:52:23Z" level=warning msg="Error signaling containerd, attempt 5/6: unable to dial: dial '
        'unix /runtime/sock-dir/containerd.sock: connect: no such file or directory"',
        "distribution's own paths", "toolkit.env[0].name=CONTAINERD_SOCKET"),
}

NEAR = {
    "vllm-custom-all-reduce-no-p2p": "INFO custom_all_reduce.cuh: registered 2 buffers for the custom all-reduce",
    "pytorch-cudnn-frontend-needs-cudnn9": "cuDNN Frontend error: the graph is not supported on this device",
    "gpu-operator-toolkit-containerd-socket": 'level=info msg="Successfully signaled containerd"',
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_real_line_names_the_cause_with_the_fix_that_worked(tmp_path, case):
    signature, line, cause, fix = CASES[case]
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [signature]
    errors = [f for f in findings_for_log(tmp_path, [line], log_only_facts()) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert cause in finding.message.en.lower(), finding.message.en
    assert finding.remedy is not None and fix in finding.remedy.en, finding.remedy.en


@pytest.mark.parametrize("signature", sorted(NEAR))
def test_a_near_line_is_not_the_record(tmp_path, signature):
    assert signature not in [h.signature for h in evidence_for_log(tmp_path, [NEAR[signature]]).hits]
