"""What the lines of the thirteenth trial's failures state (trial 13b, cases 07 to 10): the architecture nvcc refuses
and the release of the toolkit whose nvcc a build runs, the cuDNN releases XLA loaded and was built with, what a CUDA
kernel's failed assertion checks, and torch's presence in the process.

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

import pytest

from lingjun.checks.facts import CudaFacts, Facts
from lingjun.checks.knowledge.fact_values import UNKNOWN, fact_value
from log_statements_kit import feed, stated


@pytest.mark.parametrize("line, cc", [
    # erikwijmans/Pointnet2_PyTorch#91, theFoxofSky/ddfnet#6
    ("nvcc fatal   : Unsupported gpu architecture 'compute_75'", "7.5"),
    # deepspeedai/DeepSpeed#3299
    ("nvcc fatal   : Unsupported gpu architecture 'compute_89'", "8.9"),
])
def test_nvccs_refusal_states_the_architecture(line, cc):
    assert stated(feed(line))["nvcc.unsupported_arch"] == cc


@pytest.mark.parametrize("line, release", [
    # erikwijmans/Pointnet2_PyTorch#91 (setuptools' failed command)
    ("error: command '/usr/local/cuda-8.0/bin/nvcc' failed with exit status 1", "8.0"),
    # NVIDIA/apex#1296 (a compile step of setup.py's ninja build, a toolkit outside /usr/local)
    ("[1/14] /opt/gpu/cuda-11.0/bin/nvcc -I/home/beomgon/anaconda3/envs/mmd2/lib/python3.8/site-packages/torch/include "
     "-c -c /home/beomgon/pytorch/scl/apex/csrc/multi_tensor_novograd.cu", "11.0"),
])
def test_a_versioned_nvcc_path_states_the_toolkit_a_build_runs(line, release):
    evidence = feed(line)
    assert stated(evidence)["cuda.toolkit_path"] == release
    found = fact_value("cuda.toolkit", Facts(), evidence)
    assert (found.value, found.line) == (release, "job.log:1")


def test_one_line_states_the_architecture_and_the_toolkit():
    """OpenGVLab/InternImage#284: nvcc's refusal and setuptools' failed command on one line."""
    evidence = feed("nvcc fatal   : Unsupported gpu architecture 'compute_86' error: command "
                    "'/usr/local/cuda-11.0/bin/nvcc' failed with exit code 1")
    assert (stated(evidence)["nvcc.unsupported_arch"], stated(evidence)["cuda.toolkit_path"]) == ("8.6", "11.0")


def test_a_line_of_the_build_itself_wins_over_the_path_and_the_image():
    """DeepSpeed's own report of the toolkit (deepspeedai/DeepSpeed#3411) before the path; the image's toolkit last."""
    evidence = feed("error: command '/usr/local/cuda-8.0/bin/nvcc' failed with exit status 1",
                    "Installed CUDA version 11.2 does not match the version torch was compiled with 11.7 but since the "
                    "APIs are compatible, accepting this combination")
    assert fact_value("cuda.toolkit", Facts(), evidence).value == "11.2"
    facts = Facts(cuda=CudaFacts(toolkit_version="12.4.1"))
    assert fact_value("cuda.toolkit", facts, feed("nvcc fatal   : Unsupported gpu architecture 'compute_75'")).value == "12.4"


def test_an_unversioned_nvcc_path_states_no_release():
    # deepspeedai/DeepSpeed#5511
    evidence = feed("FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda/bin/nvcc'")
    assert "cuda.toolkit_path" not in evidence.stated


@pytest.mark.parametrize("line, loaded, compiled", [
    # jax-ml/jax#6517 (trial 13b, case 08)
    ("2021-04-20 23:10:23.094910: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_dnn.cc:352] Loaded "
     "runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major "
     "version and equal or higher minor version.", "8.0.5", "8.1.0"),
    # jax-ml/jax#1351 (the older wording)
    ("2019-09-15 11:18:33.851450: E external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_dnn.cc:319] Loaded "
     "runtime CuDNN library: 7.5.1 but source was compiled with: 7.6.0.  CuDNN library major and minor version needs to "
     "match or have higher minor version in case of CuDNN 7.0 or later version.", "7.5.1", "7.6.0"),
    # conda-forge/jaxlib-feedstock#329
    ("E1027 15:11:27.184481 3266602 cuda_dnn.cc:456] Loaded runtime CuDNN library: 9.10.1 but source was compiled "
     "with: 9.13.1.", "9.10.1", "9.13.1"),
])
def test_xlas_cudnn_check_states_both_releases(line, loaded, compiled):
    facts = stated(feed(line))
    assert (facts["cudnn.loaded_version"], facts["cudnn.compiled_version"]) == (loaded, compiled)


@pytest.mark.parametrize("line, kind", [
    # milesial/Pytorch-UNet#258 (trial 13b, case 09: THCUNN, no period at the end)
    ("/pytorch/aten/src/THCUNN/SpatialClassNLLCriterion.cu:106: cunn_SpatialClassNLLCriterion_updateOutput_kernel: "
     "block: [0,0,0], thread: [725,0,0] Assertion `t >= 0 && t < n_classes` failed", "class-index"),
    # modelscope/ms-swift#3267
    ("../aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: "
     "[0,0,0] Assertion `t >= 0 && t < n_classes` failed.", "class-index"),
    # thu-coai/CDial-GPT#113: the title, the backticks lost
    ("nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [18,0,0] Assertion t >= 0 && t < n_classes "
     "failed.", "class-index"),
    # huggingface/transformers#28104 (nn.Embedding's index_select)
    ("../aten/src/ATen/native/cuda/Indexing.cu:1146: indexSelectLargeIndex: block: [18,0,0], thread: [5,0,0] "
     "Assertion `srcIndex < srcSelectDimSize` failed.", "index"),
    # kvcache-ai/ktransformers#467
    ("/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:94: operator(): block: [0,0,0], thread: [31,0,0] Assertion "
     "`-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.", "index"),
    # WENGSYX/CMIVQA_Baseline#16 (binary_cross_entropy)
    ("/opt/conda/conda-bld/pytorch_1695392067780/work/aten/src/ATen/native/cuda/Loss.cu:94: operator(): block: "
     "[0,0,0], thread: [96,0,0] Assertion `input_val >= zero && input_val <= one` failed.", "probability"),
    # NVIDIA/pix2pixHD#9 (THCUNN's BCECriterion, a kernel named by its C++ signature)
    ("/opt/conda/conda-bld/pytorch_1512386481460/work/torch/lib/THCUNN/BCECriterion.cu:30: Acctype "
     "bce_functor<Dtype, Acctype>::operator()(Tuple) [with Tuple = thrust::tuple<float, float, thrust::null_type, "
     "thrust::null_type, thrust::null_type, thrust::null_type, thrust::null_type, thrust::null_type, thrust::null_type, "
     "thrust::null_type>, Dtype = float, Acctype = float]: block: [16,0,0], thread: [31,0,0] Assertion `input >= 0. && "
     "input <= 1.` failed.", "probability"),
    # nerfstudio-project/gsplat#796 (torch.multinomial)
    ("../aten/src/ATen/native/cuda/MultinomialKernel.cu:112: binarySearchForMultinomial: block: [158,0,0], thread: "
     "[0,0,0] Assertion `cumdist[size - 1] > static_cast<scalar_t>(0)` failed.", "other"),
])
def test_a_kernels_failed_assertion_states_what_it_checks(line, kind):
    evidence = feed(line)
    assert stated(evidence)["cuda.kernel_assertion"] == kind
    assert fact_value("cuda.kernel_assertion", Facts(), evidence).value == kind


@pytest.mark.parametrize("line", [
    # pytorch/pytorch#103417 (trial 13b, case 07)
    '  File "/home/alex/.local/lib/python3.10/site-packages/torch/_inductor/compile_fx.py", line 430, in fw_compiler',
    # pytorch/pytorch#1772 (torch's own import failing)
    '  File "/Volumes/home500/anaconda/envs/pytorch/lib/python3.5/site-packages/torch/__init__.py", line 53, in <module>',
    # jax-ml/jax#19004 (the script imports torch after jax)
    "    import torch",
    # pytorch/pytorch#1772 (the interpreter's prompt)
    ">>> import torch",
])
def test_torchs_frames_or_import_state_torch_in_the_process(line):
    evidence = feed(line)
    assert fact_value("log.in_torch", Facts(), evidence).value is True


@pytest.mark.parametrize("line", [
    # jax-ml/jax#15742: a JAX traceback
    '  File "/home/user/miniconda3/envs/alpha_mul_v3/lib/python3.8/site-packages/jax/_src/dispatch.py", line 526, in '
    'compile_or_get_cached',
    # jax-ml/jax#8362: a conda environment file that lists torch's package, which need not run in the process
    "  - pytorch",
])
def test_other_lines_state_nothing_of_torch(line):
    assert fact_value("log.in_torch", Facts(), feed(line)).value is UNKNOWN
