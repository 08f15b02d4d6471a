"""cuda-reinit-forked-subprocess, triton-ptxas-unknown-gpu-name, triton-cannot-find-libcuda,
build-cuda-version-mismatch, nvml-mig-in-use-by-another-client and xla-cudnn-version-mismatch: CUDA touched in a
forked worker, a Triton ptxas older than the GPU, Triton's libcuda search, an extension build against another
toolkit, a MIG or reset refused by NVML, and a cuDNN older than jaxlib's.

Lines are quoted from public reports: facebookresearch/pycls#183, vllm-project/vllm#7077, #6152, pytorch/pytorch#145170
(fork); triton-lang/triton#8539, RLinf/RLinf#92, deepseek-ai/DeepSeek-OCR#106, triton-inference-server/server#8632,
ModelTC/LightLLM#176, utcs-scea/altis#19 (nvcc's sm_30, not Triton's); MAGICS-LAB/DNABERT_2#56, unslothai/unsloth#679,
hustvl/Vim#130 (libcuda); icip-cas/AutoAlign#25, boschresearch/DroidCalib#5, OpenGVLab/InternImage#188,
lipzh5/ResearchProgress#11 (the build; the minor-version warning is torch's CUDA_MISMATCH_WARN, as an llm-awq build
prints it);
NVIDIA/DCGM#95, NVIDIA/mig-parted#181, ComputeCanada/puppet-magic_castle#387, Project-HAMi/HAMi#1044 (MIG);
conda-forge/jaxlib-feedstock#329, dusty-nv/jetson-containers#1008, jax-ml/jax#15508, AI-Hypercomputer/maxtext#1509,
tensorflow/tensorflow#60913 (cuDNN).
"""

from __future__ import annotations

import pytest

from checks_rules_kit import assert_bilingual
from lingjun.checks.coverage import log_only_facts
from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import cli_report, evidence_for_log, findings_for_log, lead_cause

FORK = "cuda-reinit-forked-subprocess"
PTXAS = "triton-ptxas-unknown-gpu-name"
LIBCUDA = "triton-cannot-find-libcuda"
BUILD = "build-cuda-version-mismatch"
MIG = "nvml-mig-in-use-by-another-client"
CUDNN = "xla-cudnn-version-mismatch"

FORK_LINES = [
    "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the "
    "'spawn' start method",
    "(VllmWorkerProcess pid=13359) ERROR 08-02 18:15:15 multiproc_worker_utils.py:226] RuntimeError: Cannot "
    "re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method",
    "(VllmWorkerProcess pid=307) ERROR 01-19 03:55:24 multiproc_worker_utils.py:233] Exception in worker "
    "VllmWorkerProcess while processing method init_device: Cannot re-initialize CUDA in forked subprocess. To use "
    "CUDA with multiprocessing, you must use the 'spawn' start method, Traceback (most recent call last):",
    "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the "
    "'spawn' start method.",
]

#: a vLLM worker forked by a parent that had initialised CUDA (vllm-project/vllm#7077)
FORK_LOG = [
    "(VllmWorkerProcess pid=13359) INFO 08-02 18:15:14 multiproc_worker_utils.py:215] Worker ready; awaiting tasks",
    '(VllmWorkerProcess pid=13359) ERROR 08-02 18:15:15 multiproc_worker_utils.py:226]   File "/root/miniconda3/envs/'
    'agiclass/lib/python3.10/site-packages/torch/cuda/__init__.py", line 279, in _lazy_init',
    "(VllmWorkerProcess pid=13359) ERROR 08-02 18:15:15 multiproc_worker_utils.py:226]     raise RuntimeError(",
    FORK_LINES[1],
]

PTXAS_LINES = [
    "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'",
    "(SGLangWorker pid=38135) ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'",
    "ptxas fatal   : Value 'sm_90a' is not defined for option 'gpu-name'",
    "ptxas-blackwell fatal   : Value 'sm_110a' is not defined for option 'gpu-name'",
    "ptxas fatal : Value 'sm_89' is not defined for option 'gpu-name'",
]

#: SGLang's Triton kernels compiled for an RTX 5090 by a Triton whose ptxas predates it (RLinf/RLinf#92)
PTXAS_LOG = [
    '(SGLangWorker pid=38135)   File "/opt/conda/lib/python3.11/site-packages/triton/backends/nvidia/compiler.py", '
    "line 297, in make_cubin",
    "(SGLangWorker pid=38135)     raise RuntimeError(f'Internal Triton PTX codegen error: \\n{log}')",
    PTXAS_LINES[1],
    "(SGLangWorker pid=38135)",
]

LIBCUDA_LINES = [
    "AssertionError: libcuda.so cannot found!",
    "assert any(os.path.exists(os.path.join(path, 'libcuda.so')) for path in dirs), msg AssertionError: libcuda.so "
    "cannot found!",
]

#: Triton 2.1's search in a container that has only libcuda.so.1 (unslothai/unsloth#679)
LIBCUDA_LOG = [
    "File ~/.conda/envs/unsloth_env9/lib/python3.9/site-packages/triton/common/build.py:40, in libcuda_dirs()",
    "---> 40 assert any(os.path.exists(os.path.join(path, 'libcuda.so')) for path in dirs), msg",
    "AssertionError: libcuda.so cannot found!",
    "Possible files are located at ['/lib/x86_64-linux-gnu/libcuda.so.1'].Please create a symlink of libcuda.so to any "
    "of the file.",
]

BUILD_LINES = [
    "      The detected CUDA version (11.8) mismatches the version that was used to compile",
    "The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.3).",
    "RuntimeError: The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.7). "
    "Please make sure to use the same CUDA versions.",
    "      The detected CUDA version (10.1) mismatches the version that was used to compile",
]

#: pip building torch-scatter with an old nvcc on the system (lipzh5/ResearchProgress#11)
BUILD_LOG = [
    '        File "/mnt/sdd/venv/lib/python3.9/site-packages/torch/utils/cpp_extension.py", line 413, in '
    "_check_cuda_version",
    "          raise RuntimeError(CUDA_MISMATCH_MESSAGE.format(cuda_str_version, torch.version.cuda))",
    "      RuntimeError:",
    BUILD_LINES[3],
    "      PyTorch (12.1). Please make sure to use the same CUDA versions.",
    "      [end of output]",
    "  ERROR: Failed building wheel for torch-scatter",
]

MIG_LINES = [
    "unable to destroy compute instance id  0 from gpu  0 gpu instance id  3: in use by another client",
    "failed to destroy compute instances: in use by another client",
    "  GPU 00000000:01:00.0: In use by another client",
    'time="2024-09-30T19:49:46Z" level=error msg="\\nThe following GPUs could not be reset:\\n  GPU 00000000:00:06.0: '
    "In use by another client\\n\\n1 device is currently being used by one or more other processes (e.g., Fabric "
    "Manager, CUDA application, graphics application such as an X server, or a monitoring application such as "
    "another instance of nvidia-smi). Please first kill all processes using this device and all compute applications "
    'running in the system.\\n"',
]

#: mig-parted applying a MIG mode change whose GPU reset is refused (NVIDIA/mig-parted#181)
MIG_LOG = [
    "$ sudo nvidia-mig-parted apply -f /etc/nvidia-mig-manager/config-default.yaml -k "
    "/etc/nvidia-mig-manager/hooks-default.yaml -c all-balanced",
    "ERRO[0003]",
    "The following GPUs could not be reset:",
    MIG_LINES[2],
    "  GPU 00000000:47:00.0: In use by another client",
    "FATA[0008] Error applying MIG configuration with hooks: error resetting all GPUs: exit status 255",
]

CUDNN_TAIL = ("  CuDNN library needs to have matching major version and equal or higher minor version. If using a binary "
              "install, upgrade your CuDNN library.  If building from sources, make sure the library loaded at runtime "
              "is compatible with the version specified during compile configuration.")
CUDNN_LINES = [
    "E1027 15:11:27.184481 3266602 cuda_dnn.cc:456] Loaded runtime CuDNN library: 9.10.1 but source was compiled with: "
    "9.13.1." + CUDNN_TAIL,
    "E0402 11:40:27.667155  238613 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.3.0 but source was compiled with: "
    "9.4.0." + CUDNN_TAIL,
    "2023-04-09 22:29:02.848922: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:417] Loaded runtime CuDNN "
    "library: 8.3.2 but source was compiled with: 8.8.0." + CUDNN_TAIL,
    "Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.8.0." + CUDNN_TAIL,
    "E0000 00:00:1738697930.202924    7665 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.1.0 but source was "
    "compiled with: 9.3.0." + CUDNN_TAIL,
]

#: jax.numpy.sin on a GPU whose loaded cuDNN is older than jaxlib's (conda-forge/jaxlib-feedstock#329)
CUDNN_LOG = [
    '% JAX_TRACEBACK_FILTERING=off python -c "import jax; jax.numpy.sin(3)"',
    CUDNN_LINES[0],
    "E1027 15:11:27.187087 3266602 cuda_dnn.cc:456] Loaded runtime CuDNN library: 9.10.1 but source was compiled "
    "with: 9.13.1." + CUDNN_TAIL,
]

ALL_LINES = ([(FORK, line) for line in FORK_LINES] + [(PTXAS, line) for line in PTXAS_LINES]
             + [(LIBCUDA, line) for line in LIBCUDA_LINES] + [(BUILD, line) for line in BUILD_LINES]
             + [(MIG, line) for line in MIG_LINES] + [(CUDNN, line) for line in CUDNN_LINES])

LEADS = {FORK: "cuda-initialised-before-fork", PTXAS: "bundled-ptxas-older-than-gpu",
         LIBCUDA: "linker-cache-misses-driver", BUILD: "toolkit-other-than-torch", MIG: "gpu-clients-running",
         CUDNN: "jaxlib-needs-newer-cudnn"}


def lead_of(finding) -> str:
    return finding.message.en.split("Most likely cause here: ", 1)[1]


def errors_for(tmp_path, lines: list[str], facts: "Facts | None" = None) -> list:
    errors = [f for f in findings_for_log(tmp_path, lines, facts) if f.severity is Severity.error]
    assert_bilingual(errors)
    return errors


@pytest.mark.parametrize("sig,line", ALL_LINES)
def test_each_reported_line_is_its_signature_alone(tmp_path, sig, line):
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == [sig]


@pytest.mark.parametrize("sig,line", [(FORK, FORK_LINES[0]), (PTXAS, PTXAS_LINES[3]), (LIBCUDA, LIBCUDA_LINES[0]),
                                      (BUILD, BUILD_LINES[2]), (MIG, MIG_LINES[0]), (CUDNN, CUDNN_LINES[2])])
def test_command_line_names_the_lead_cause_of_each_line(tmp_path, sig, line):
    report = cli_report(tmp_path, [line])
    assert [m["signature"] for m in report["evidence"]["matches"]] == [sig]
    assert lead_cause(report, sig) == LEADS[sig]


def test_vllm_worker_traceback_counts_the_error_line_and_leads_with_spawn(tmp_path):
    [hit] = evidence_for_log(tmp_path, FORK_LOG).hits
    assert (hit.signature, hit.count, hit.first.number) == (FORK, 1, 4)
    [finding] = errors_for(tmp_path, FORK_LOG)
    assert lead_of(finding).startswith("The parent process initialised CUDA and then started its workers with fork")
    assert "Other possible causes: Code that runs in the forked workers uses the GPU" in finding.message.en
    for word in ("VLLM_WORKER_MULTIPROC_METHOD=spawn", 'set_start_method("spawn", force=True)',
                 'multiprocessing_context="spawn"', 'if __name__ == "__main__":'):
        assert word in finding.remedy.en, word


def test_fork_source_line_and_another_device_are_not_the_fork_signature(tmp_path):
    # the quoted source line of an older torch (Quantum-Cheese/DeepReinforcementLearning_Pytorch#3), and the NPU
    # form of torch_npu (vllm-ascend, as the hiascend.com forum quotes it), which this record's remedies do not cover
    assert evidence_for_log(tmp_path, ['"Cannot re-initialize CUDA in forked subprocess. To use CUDA with "']).hits == []
    assert evidence_for_log(tmp_path, ["multiproc_worker_utils.py:242] RuntimeError: Cannot re-initialize NPU in "
                                       "forked subprocess. To use NPU with multiprocessing, you must use the 'spawn' "
                                       "start method."]).hits == []


def test_ptxas_line_names_the_gpu_and_points_triton_at_the_images_ptxas(tmp_path):
    [hit] = evidence_for_log(tmp_path, PTXAS_LOG).hits
    assert (hit.signature, hit.first.number) == (PTXAS, 3)
    [finding] = errors_for(tmp_path, PTXAS_LOG)
    assert "Value 'sm_120' is not defined for option 'gpu-name'" in finding.message.en
    assert lead_of(finding).startswith("The ptxas bundled with this Triton comes from a CUDA release older than the GPU")
    assert "Other possible causes: Another triton was installed over the one the image's torch pins" in finding.message.en
    for word in ("TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas", "/usr/local/cuda/bin/ptxas --help", "nvcc --list-gpu-arch"):
        assert word in finding.remedy.en, word


def test_nvcc_refusing_an_architecture_it_dropped_is_not_the_triton_signature(tmp_path):
    # CUDA 11.6's nvcc building for a compute capability 3.0 target (utcs-scea/altis#19)
    assert evidence_for_log(tmp_path, ["    ptxas fatal   : Value 'sm_30' is not defined for option 'gpu-name'"]).hits == []


def test_libcuda_assertion_leads_with_the_linker_cache_and_offers_the_symlink(tmp_path):
    [hit] = evidence_for_log(tmp_path, LIBCUDA_LOG).hits
    assert (hit.signature, hit.count, hit.first.number) == (LIBCUDA, 1, 3)
    [finding] = errors_for(tmp_path, LIBCUDA_LOG, log_only_facts())  # the log alone: no driver facts
    assert lead_of(finding).startswith("The linker cache does not list the driver's libcuda.so.1")
    assert "An older Triton looks for the unversioned libcuda.so" in finding.message.en
    for word in ("ldconfig -p | grep libcuda", "/etc/ld.so.conf.d/libcuda.conf", "TRITON_LIBCUDA_PATH=DIR"):
        assert word in finding.remedy.en, word


def test_libcuda_assertion_in_a_container_without_a_driver_leads_with_the_gpus(tmp_path):
    report = cli_report(tmp_path, LIBCUDA_LINES[:1])
    assert lead_cause(report, LIBCUDA) == "linker-cache-misses-driver"  # the log alone shows no driver facts
    [finding] = errors_for(tmp_path, LIBCUDA_LINES[:1], Facts(origin="live"))  # probed here, and no driver seen
    assert lead_of(finding).startswith("The container was started without GPUs")
    assert "--gpus all" in finding.remedy.en


def test_build_mismatch_quotes_the_toolkit_line_not_the_raise_statement(tmp_path):
    [hit] = evidence_for_log(tmp_path, BUILD_LOG).hits
    assert (hit.signature, hit.count, hit.first.text) == (BUILD, 1, BUILD_LINES[3])
    [finding] = errors_for(tmp_path, BUILD_LOG)
    assert "The detected CUDA version (10.1)" in finding.message.en
    assert lead_of(finding).startswith("The build finds another CUDA toolkit than torch's")
    assert "Other possible causes: The torch the build uses is not the image's" in finding.message.en
    for word in ("torch.version.cuda", "nvcc --version", "CUDA_HOME=/usr/local/cuda"):
        assert word in finding.remedy.en, word


def test_minor_version_warning_of_the_build_is_not_the_mismatch_signature(tmp_path):
    line = ("/home/eric/llm-awq/.venv/lib/python3.10/site-packages/torch/utils/cpp_extension.py:388: UserWarning: The "
            "detected CUDA version (11.8) has a minor version mismatch with the version that was used to compile "
            "PyTorch (11.7). Most likely this shouldn't be a problem.")
    assert evidence_for_log(tmp_path, [line]).hits == []


def test_mig_reset_refusals_are_one_signature_with_the_clients_to_stop(tmp_path):
    [hit] = evidence_for_log(tmp_path, MIG_LOG).hits
    assert (hit.signature, hit.count, hit.first.number) == (MIG, 2, 4)
    [finding] = errors_for(tmp_path, MIG_LOG)
    assert lead_of(finding).startswith("A process still uses the GPU or the instance")
    assert "Other possible causes: The GPU reset that applies a MIG mode change is blocked by the nvidia_drm" in (
        finding.message.en)
    for word in ("lsof /dev/nvidia*", "systemctl stop nvidia-dcgm", "nvidia-smi mig -dci, then sudo nvidia-smi mig -dgi"):
        assert word in finding.remedy.en, word


def test_mig_refusal_on_a_kubernetes_node_names_the_mig_managers_label(tmp_path):
    facts = Facts()
    facts.env["KUBERNETES_SERVICE_HOST"] = "10.96.0.1"
    [finding] = errors_for(tmp_path, MIG_LOG, facts)
    assert "Kubernetes:" in finding.remedy.en
    for word in ("kubectl drain NODE --ignore-daemonsets", "nvidia.com/mig.config", "WITH_REBOOT=true"):
        assert word in finding.remedy.en, word


def test_other_mig_refusals_and_other_programs_in_use_are_not_the_mig_signature(tmp_path):
    # nvidia-smi without the rights to list instances (Project-HAMi/HAMi#1044); the same words from another program,
    # with nothing MIG-related before them
    assert evidence_for_log(tmp_path, ["Failed to display compute instances: Insufficient Permissions"]).hits == []
    assert evidence_for_log(tmp_path, ["Read-only: in use by another client."]).hits == []


def test_cudnn_lines_count_once_and_lead_with_the_older_cudnn(tmp_path):
    """No torch in this log (a conda jaxlib alone): the plain cause leads, with the line's two releases; torch loading
    its cuDNN first is still named, after it (trial 13b, jax-ml/jax#6517, found that cause leading without torch)."""
    [hit] = evidence_for_log(tmp_path, CUDNN_LOG).hits
    assert (hit.signature, hit.count, hit.first.number) == (CUDNN, 2, 2)
    [finding] = errors_for(tmp_path, CUDNN_LOG)
    assert "Loaded runtime CuDNN library: 9.10.1 but source was compiled with: 9.13.1" in finding.message.en
    assert lead_of(finding).startswith("The installed jaxlib needs a newer cuDNN than the environment has")
    assert "torch in the same process (its frames or import are in the log)" in finding.message.en
    assert "An older system or conda cuDNN comes first on LD_LIBRARY_PATH" in finding.message.en
    for word in ("cuDNN 9.10.1 was loaded and jaxlib was built with 9.13.1", '"nvidia-cudnn-cu12>=9.13.1"',
                 'pip install -U "jax[cuda12]"'):
        assert word in finding.remedy.en, word


def test_with_torch_in_the_log_the_library_loaded_first_leads(tmp_path):
    """maxtext's torch dependency (AI-Hypercomputer/maxtext#1509) shown by a torch frame of the same process
    (pytorch/pytorch#1772's)."""
    lines = ['  File "/Volumes/home500/anaconda/envs/pytorch/lib/python3.5/site-packages/torch/__init__.py", line 53, '
             "in <module>", CUDNN_LINES[3]]
    [finding] = errors_for(tmp_path, lines)
    assert lead_of(finding).startswith("torch in the same process (its frames or import are in the log) loaded its own")
    for word in ("Do not upgrade nvidia-cudnn-cu12", "python -m venv jax-env", "jax.devices() before import torch"):
        assert word in finding.remedy.en, word


def test_jax_backend_version_line_stays_with_its_own_record(tmp_path):
    # JAX's own version check, printed as a warning before it falls back to the CPU (jax-ml/jax#18032)
    line = ("CUDA backend failed to initialize: Found cuDNN version 8700, but JAX was built against version 8800, which "
            "is newer. The copy of cuDNN that is installed must be at least as new as the version against which JAX "
            "was built. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)")
    assert [h.signature for h in evidence_for_log(tmp_path, [line]).hits] == ["jax-cuda-backend-failed"]
