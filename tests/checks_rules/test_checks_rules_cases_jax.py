"""evidence.error-lines on JAX's 'CUDA backend failed to initialize' (jax-cuda-backend-failed), in the forms public
reports quote (a CUDA error during set-up, a library older than JAX's build, no CUDA at all): the cause is JAX's own
CUDA pieces, reinstalled together with its CUDA extra, away from the image's pinned packages."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.coverage import log_only_facts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

LINES = {
    # https://github.com/jax-ml/jax/issues/20722
    "not-initialized": "CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:90: operation "
                       "gpuDeviceGetAttribute( &major, GPU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) failed: "
                       "CUDA_ERROR_NOT_INITIALIZED (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)",
    # https://github.com/jax-ml/jax/issues/18027
    "older-cublas": "CUDA backend failed to initialize: Found cuBLAS version 120205, but JAX was built against version "
                    "120304, which is newer.",
    # https://github.com/magenta/mt3/issues/145
    "unable-to-load": "WARNING:jax._src.xla_bridge:CUDA backend failed to initialize: Unable to load CUDA. (Set "
                      "TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)",
}


@pytest.mark.parametrize("form", sorted(LINES))
def test_each_form_names_jaxs_cuda_pieces_and_one_install_of_them(tmp_path, form):
    assert [h.signature for h in evidence_for_log(tmp_path, [LINES[form]]).hits] == ["jax-cuda-backend-failed"]
    errors = [f for f in findings_for_log(tmp_path, [LINES[form]], log_only_facts()) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert "JAX's CUDA pieces do not match" in finding.message.en
    assert finding.remedy is not None and 'pip install -U "jax[cuda12]"' in finding.remedy.en
    assert "virtual environment of its own" in finding.remedy.en


def test_a_backend_that_initialised_is_not_the_record(tmp_path):
    line = "INFO:jax._src.xla_bridge:Unable to initialize backend 'tpu': module 'jaxlib' has no TPU support"
    assert evidence_for_log(tmp_path, [line]).hits == []
