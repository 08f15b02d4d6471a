"""evidence.error-lines on a CUDA runtime library a module cannot open (cuda-library-cannot-open): the lines public
reports quote name the module built for another CUDA first and the loader path second; libnccl and libcuda keep their
own records."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.coverage import log_only_facts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

LINES = [
    # https://github.com/NVlabs/MambaVision/issues/12
    "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
    # https://github.com/iSEE-Laboratory/LLMDet/issues/32
    "ImportError: libcudart.so.10.1: cannot open shared object file: No such file or directory",
    # https://github.com/xorbitsai/inference/issues/1286
    "ImportError: [address=0.0.0.0:44627, pid=1165786] libcudart.so.12: cannot open shared object file: No such file "
    "or directory",
]


@pytest.mark.parametrize("line", LINES)
def test_the_line_names_a_build_for_another_cuda_first_and_the_loader_path_second(tmp_path, line):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == ["cuda-library-cannot-open"]
    errors = [f for f in findings_for_log(tmp_path, [line], log_only_facts()) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert "Most likely cause here: The module was built for another CUDA than the image provides" in finding.message.en
    assert "not where the loader looks" in finding.message.en
    assert finding.remedy is not None and "torch.version.cuda" in finding.remedy.en


@pytest.mark.parametrize("line,signature", [
    ("OSError: libnccl.so.2: cannot open shared object file: No such file or directory", "python-libnccl-not-found"),
    ("ImportError: libGL.so.1: cannot open shared object file: No such file or directory", None),
])
def test_other_libraries_are_not_this_record(tmp_path, line, signature):
    hits = [h.signature for h in evidence_for_log(tmp_path, [line]).hits]
    assert "cuda-library-cannot-open" not in hits and (signature is None or signature in hits)
