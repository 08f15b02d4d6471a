"""evidence.error-lines on CUDA's unknown error (999) at initialisation (cuda-init-unknown-error): torch's warning when it
counts the GPUs, the RuntimeError of its first CUDA call, Ollama's and llama.cpp's start-up lines, as public reports
quote them, name the lost nvidia_uvm module first with the command that reloads it; Ollama's other init codes are read
from the CUDA catalog by their number."""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

SIGNATURE = "cuda-init-unknown-error"
LINES = {
    # https://github.com/pytorch/pytorch/issues/159954
    "warning": "/home/krish/miniconda3/envs/ass-test/lib/python3.10/site-packages/torch/cuda/__init__.py:174: "
               "UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up "
               "environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the "
               "available devices to be zero. (Triggered internally at /pytorch/c10/cuda/CUDAFunctions.cpp:109.)",
    # https://github.com/microsoft/Bringing-Old-Photos-Back-to-Life/issues/52
    "runtime-error": "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. "
                     "changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices "
                     "to be zero.",
    # https://github.com/ollama/ollama/issues/5453
    "ollama-nvcuda": 'time=2024-07-03T13:26:05.135+08:00 level=DEBUG source=gpu.go:517 msg="Unable to load nvcuda" '
                     'library=/usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01 error="nvcuda init failure: 999"',
    # https://github.com/ggml-org/llama.cpp/issues/7218
    "llama.cpp": "ggml_cuda_init: failed to initialize CUDA: unknown error",
}


@pytest.mark.parametrize("form", sorted(LINES))
def test_the_real_line_names_the_lost_uvm_module_and_its_reload(tmp_path, form):
    errors = [f for f in findings_for_log(tmp_path, [LINES[form]]) if f.severity is Severity.error]
    assert_bilingual(errors)
    (finding,) = errors
    assert "nvidia_uvm module or its /dev/nvidia-uvm node" in finding.message.en
    assert "CUDA_VISIBLE_DEVICES was changed inside the program" in finding.message.en  # the other possible cause
    assert finding.remedy is not None and "sudo modprobe -r nvidia_uvm && sudo modprobe nvidia_uvm" in finding.remedy.en
    assert [h.signature for h in evidence_for_log(tmp_path, [LINES[form]]).hits] == [SIGNATURE]


def test_in_a_pod_the_remedy_drains_the_node(tmp_path):
    from checks_rules_kit import gpu_facts

    facts = gpu_facts()
    facts.env["KUBERNETES_SERVICE_HOST"] = "10.96.0.1"
    (finding,) = [f for f in findings_for_log(tmp_path, [LINES["warning"]], facts) if f.severity is Severity.error]
    assert finding.remedy is not None and "Drain the node" in finding.remedy.en


def test_cuda_errors_other_than_unknown_are_not_this_record(tmp_path):
    line = ("UserWarning: CUDA initialization: The NVIDIA driver on your system is too old (found version 11040). "
            "Please update your GPU driver")
    assert SIGNATURE not in [h.signature for h in evidence_for_log(tmp_path, [line]).hits]


@pytest.mark.parametrize("line,api,code", [
    # https://github.com/ollama/ollama/issues/11593 (its title line; cuInit's CUDA_ERROR_NOT_INITIALIZED)
    ('msg="Unable to load cudart library /usr/lib/x86_64-linux-gnu/libcuda.so.575.57.08: cuda driver library init '
     'failure: 3"', "driver", 3),
    # https://github.com/ollama/ollama/issues/12173: CUDA_ERROR_SYSTEM_NOT_READY (the fabric manager)
    ("Unable to load cudart library /usr/lib/x86_64-linux-gnu/libcuda.so.570.169: cuda driver library init failure: 802",
     "driver", 802),
    # https://github.com/ollama/ollama/issues/3417: cudaErrorInsufficientDriver from the runtime
    ('time=2024-03-30T15:05:41.304Z level=INFO source=gpu.go:340 msg="Unable to load cudart CUDA management library '
     '/tmp/ollama4102197452/runners/cuda_v11/libcudart.so.11.0: cudart init failure: 35"', "runtime", 35),
])
def test_ollamas_init_failure_codes_are_read_from_the_cuda_catalog_by_their_api(line, api, code):
    from lingjun.checks.knowledge.catalog_lines import recognise
    from lingjun.checks.knowledge.error_catalogs import embedded

    (match,) = recognise(line, embedded())
    assert (match.catalog, match.api, match.number) == ("cuda", api, code)
    assert match.info is not None and match.info.code == code
