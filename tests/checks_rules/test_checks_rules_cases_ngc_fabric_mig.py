"""evidence.error-lines on NGC start-up banners, NVIDIA Fabric Manager's start failures and torch's device-index assert.

The lines are those of public reports: the NGC banner's ERROR (NVIDIA/nvidia-docker#1479, NVIDIA/TensorRT-LLM#23,
hiyouga/LlamaFactory#5962) and its Minor Version Compatibility WARNING with the bracketed forward-compatibility
status line (triton-inference-server/server#5197, triton-inference-server/model_analyzer#786); Fabric Manager's
version check (NVIDIA/gpu-operator#544, NVIDIA/gpu-driver-container#735, NVIDIA/nvtrust#55) and its
NV_WARN_NOTHING_TO_DO exit (NVIDIA/gpu-operator#610, data-infra/cube-studio#29); and torch's
``device >= 0 && device < num_gpus`` assert (casper-hansen/AutoAWQ#205, xorbitsai/inference#1439, THUDM/slime#10).
Each names the right first cause and a remedy with the real command; a near line of each is not read as it.
"""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from checks_rules_kit import assert_bilingual
from lingjun.checks.facts import MigDeviceFacts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log


def _by_severity(tmp_path, lines, facts=None):
    findings = findings_for_log(tmp_path, lines, facts)
    assert_bilingual(findings)
    return ([f for f in findings if f.severity is Severity.error],
            [f for f in findings if f.severity is Severity.warning])


def _hits(tmp_path, lines):
    return [(h.signature, h.first.number) for h in evidence_for_log(tmp_path, lines).hits]


# --- NGC start-up banner -------------------------------------------------------------------------------------

NVIDIA_DOCKER_1479 = ["ERROR: This container was built for NVIDIA Driver Release 450.51 or later, but",
                      "       version 440.33.01 was detected and compatibility mode is UNAVAILABLE.",
                      "",
                      "       [[CUDA Driver UNAVAILABLE (cuInit(0) returned 804)]]"]
TRT_LLM_23 = ["ERROR: This container was built for NVIDIA Driver Release 535.86 or later, but",
              "       version 510.85.02 was detected and compatibility mode is UNAVAILABLE."]
LLAMAFACTORY_5962 = ["This container was built for NVIDIA Driver Release 545.23 or later, butversion 535.104.05 was "
                     "detected and compatibility mode is UNAVAILABLE"]
TRITON_5197 = ["WARNING: CUDA Minor Version Compatibility mode ENABLED.",
               "  Using driver version 510.47.03 which has support for CUDA 11.6.  This container",
               "  was built with CUDA 11.8 and will be run in Minor Version Compatibility mode.",
               "  CUDA Forward Compatibility is preferred over Minor Version Compatibility for use",
               "  with this container but was unavailable:",
               "  [[Forward compatibility was attempted on non supported HW (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) cuInit()=804]]",
               "  See https://docs.nvidia.com/deploy/cuda-compatibility/ for details."]
MODEL_ANALYZER_786 = ["WARNING: CUDA Minor Version Compatibility mode ENABLED.",
                      "  Using driver version 530.30.02 which has support for CUDA 12.1.  This container",
                      "  was built with CUDA 12.2 and will be run in Minor Version Compatibility mode.",
                      "  CUDA Forward Compatibility is preferred over Minor Version Compatibility for use",
                      "  with this container but was unavailable:",
                      "  [[System has unsupported display driver / cuda driver combination (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) cuInit()=803]]",
                      "  See https://docs.nvidia.com/deploy/cuda-compatibility/ for details."]


@pytest.mark.parametrize("lines", [NVIDIA_DOCKER_1479, TRT_LLM_23, LLAMAFACTORY_5962],
                         ids=["nvidia-docker-1479", "trt-llm-23", "llamafactory-5962"])
def test_the_error_banner_names_a_host_driver_older_than_the_image(tmp_path, lines):
    errors, _ = _by_severity(tmp_path, lines)
    (finding,) = errors
    assert "most likely cause here: the host driver is older than the release the image needs" in finding.message.en.lower()
    assert "nvidia-smi" in finding.remedy.en and "Driver Requirements" in finding.remedy.en
    assert _hits(tmp_path, lines)[0] == ("ngc-container-driver-too-old", 1)


def test_the_error_banner_lists_its_bracketed_804_line_as_a_warning_after_it(tmp_path):
    errors, warnings = _by_severity(tmp_path, NVIDIA_DOCKER_1479)
    assert len(errors) == 1 and len(warnings) == 1
    assert "cuInit() returned 804" in warnings[0].message.en
    assert _hits(tmp_path, NVIDIA_DOCKER_1479) == [("ngc-container-driver-too-old", 1),
                                                   ("ngc-container-compat-unsupported-hw", 4)]


def test_on_a_geforce_gpu_the_error_banner_leads_with_forward_compatibility_unavailable(tmp_path):
    facts = kit.gpu_facts("440.33.01", gpus=[("NVIDIA GeForce RTX 2080 Ti", "geforce", "7.5")])
    errors, _ = _by_severity(tmp_path, NVIDIA_DOCKER_1479, facts)
    (finding,) = errors
    assert "most likely cause here: the gpu is not a data-centre gpu" in finding.message.en.lower()


def test_another_ngc_banner_error_is_not_read_as_the_driver_banner(tmp_path):
    line = "ERROR: This container was built for CPUs supporting at least the AVX instruction set, but"
    assert _hits(tmp_path, [line]) == []


def test_the_minor_version_banner_with_804_is_two_warnings_and_no_error(tmp_path):
    errors, warnings = _by_severity(tmp_path, TRITON_5197)
    assert errors == []
    assert _hits(tmp_path, TRITON_5197) == [("ngc-container-minor-version-compat", 1),
                                            ("ngc-container-compat-unsupported-hw", 6)]
    mvc, status = warnings
    assert "nothing is needed while the job runs" in mvc.remedy.en.lower()
    assert "CUDA_ERROR_UNSUPPORTED_PTX_VERSION" in mvc.remedy.en
    assert "most likely cause here: the gpu is not one forward compatibility supports" in status.message.en.lower()


def test_the_minor_version_banner_with_803_is_not_read_as_a_driver_error(tmp_path):
    errors, warnings = _by_severity(tmp_path, MODEL_ANALYZER_786)
    assert errors == []  # the CUDA catalog's 803 entry is covered by the status-line signature
    assert _hits(tmp_path, MODEL_ANALYZER_786) == [("ngc-container-minor-version-compat", 1),
                                                   ("ngc-container-compat-driver-mismatch", 6)]
    assert "most likely cause here: the host driver's branch is not one the image's cuda-compat package accepts" \
        in warnings[1].message.en.lower()
    assert "Driver Requirements" in warnings[1].remedy.en


def test_the_forward_compatibility_enabled_note_is_not_a_minor_version_warning(tmp_path):
    assert _hits(tmp_path, ["NOTE: CUDA Forward Compatibility mode ENABLED."]) == []


def test_a_plain_804_error_stays_with_the_forward_compat_signature(tmp_path):
    line = "RuntimeError: CUDA failed with error forward compatibility was attempted on non supported HW"
    assert [s for s, _ in _hits(tmp_path, [line])] == ["cuda-forward-compat-unsupported"]


def test_a_plain_803_error_stays_with_the_driver_combination_signature(tmp_path):
    line = "CUDA: Check failed: e == cudaSuccess (803 vs. 0) : system has unsupported display driver / cuda driver combination"
    assert [s for s, _ in _hits(tmp_path, [line])] == ["cuda-unsupported-driver-combination"]


# --- NVIDIA Fabric Manager ------------------------------------------------------------------------------------

FM_MISMATCH = {
    "gpu-operator-544": "nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't match "
                        "with driver version 530.41.03. Please update with matching NVIDIA driver package.",
    "gpu-driver-container-735": "fabric manager NVIDIA GPU driver interface version 590.48.01 don't match with driver "
                                "version 580.126.09.",
    "nvtrust-55": "fabric manager NVIDIA GPU driver interface version 550.90.07 don’t match with driver version 550.107.02. "
                  "Please update with matching NVIDIA driver package",
}
FM_STARTED = ("Jan 05 14:45:28 TENCENT64 nv-fabricmanager[1120]: Successfully configured all the available NVSwitches to "
              "route GPU NVLink traffic. NVLink Peer-to-Peer support will be enabled once the GPUs are successfully "
              "registered with the NVLink fabric.")


@pytest.mark.parametrize("line", list(FM_MISMATCH.values()), ids=list(FM_MISMATCH))
def test_the_fabric_manager_version_check_names_the_package_mismatch(tmp_path, line):
    errors, _ = _by_severity(tmp_path, [line])
    (finding,) = errors
    assert "most likely cause here: the nvidia-fabricmanager package is not the exact version of the installed driver" \
        in finding.message.en.lower()
    assert "apt-get install nvidia-fabricmanager-550=" in finding.remedy.en
    assert "systemctl restart nvidia-fabricmanager" in finding.remedy.en
    assert _hits(tmp_path, [line]) == [("fabric-manager-driver-version-mismatch", 1)]


def test_the_nothing_to_do_exit_is_a_warning_naming_a_machine_without_nvswitch(tmp_path):
    line = ("Sep 18 03:19:01 ubuntu2404 nvidia-fabricmanager-start.sh[4756]: request to query NVSwitch device information "
            "from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]")
    errors, warnings = _by_severity(tmp_path, [line])
    assert errors == []
    (finding,) = warnings
    assert "most likely cause here: the machine has no nvswitch" in finding.message.en.lower()
    assert "systemctl disable --now nvidia-fabricmanager" in finding.remedy.en
    assert "nvlsm" in finding.message.en.lower()  # the NVLink 5 cause is named among the other causes
    assert _hits(tmp_path, [line]) == [("fabric-manager-no-nvswitch", 1)]


def test_a_fabric_manager_that_started_is_not_read_as_a_failure(tmp_path):
    assert _hits(tmp_path, [FM_STARTED]) == []


# --- torch's device-index assert ------------------------------------------------------------------------------

ASSERT = {
    "autoawq-205": 'RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "../aten/src/ATen/cuda/'
                   'CUDAContext.cpp":50, please report a bug to PyTorch.',
    "xinference-1439": '2024-05-07 14:43:59,173 xinference.api.restful_api 836 ERROR    [address=0.0.0.0:45545, pid=2324] '
                       'CUDA call failed lazily at initialization with error: device >= 0 && device < num_gpus INTERNAL '
                       'ASSERT FAILED at "../aten/src/ATen/cuda/CUDAContext.cpp":50, please report a bug to PyTorch. '
                       'device=, num_gpus=',
    "slime-10": 'RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "/pytorch/aten/src/ATen/cuda/'
                'CUDAContext.cpp":52, please report a bug to PyTorch. device=1, num_gpus=1',
}


@pytest.mark.parametrize("line", list(ASSERT.values()), ids=list(ASSERT))
def test_the_device_index_assert_names_visibility_changed_in_the_program(tmp_path, line):
    errors, _ = _by_severity(tmp_path, [line])
    (finding,) = errors
    assert "most likely cause here: cuda_visible_devices was set or changed inside the program" in finding.message.en.lower()
    assert "CUDA_VISIBLE_DEVICES=0,1 python train.py" in finding.remedy.en
    assert "torch.cuda.set_device(local_rank)" in finding.remedy.en
    assert _hits(tmp_path, [line]) == [("pytorch-device-index-assert", 1)]


def test_with_mig_on_the_device_index_assert_leads_with_the_mig_selection(tmp_path):
    facts = kit.gpu_facts("550.54.15", gpus=[("NVIDIA A100 80GB PCIe", "nvidia", "8.0")])
    facts.nvml.gpus[0].mig_mode = True
    facts.mig_devices = [MigDeviceFacts(gpu_index=0, index=i, profile="3g.40gb") for i in range(2)]
    errors, _ = _by_severity(tmp_path, [ASSERT["autoawq-205"]], facts)
    (finding,) = errors
    assert "most likely cause here: mig mode is on and the process did not select one mig device" in finding.message.en.lower()
    assert "CUDA_VISIBLE_DEVICES=MIG-<uuid>" in finding.remedy.en and "nvidia-smi -L" in finding.remedy.en


def test_another_torch_internal_assert_is_not_read_as_the_device_index_assert(tmp_path):
    line = ('RuntimeError: num_gpus <= 16 INTERNAL ASSERT FAILED at "/pytorch/c10/cuda/CUDAStream.cpp":208, please report '
            'a bug to PyTorch. Number of CUDA devices on the machine is larger than the compiled max number of gpus '
            'expected (16). Increase that and recompile.')
    assert "pytorch-device-index-assert" not in [s for s, _ in _hits(tmp_path, [line])]
