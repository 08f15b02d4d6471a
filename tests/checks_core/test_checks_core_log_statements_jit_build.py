"""A JIT build's missing nvcc path states the CUDA_HOME it was looked for in: a list of paths when it holds a colon
(``':/usr/local/cuda/bin/nvcc'``, from ``export CUDA_HOME=$CUDA_HOME:/usr/local/cuda``), one directory otherwise.

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

import pytest

from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from log_statements_kit import feed


@pytest.mark.parametrize("line, is_list", [
    # deepspeedai/DeepSpeed#5511
    ("FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda/bin/nvcc'", True),
    # bytedance/lightseq#155
    ("FileNotFoundError: [Errno 2] No such file or directory: ':/usr/local/cuda-10.0/bin/nvcc': "
     "':/usr/local/cuda-10.0/bin/nvcc'", True),
    # joanrod/star-vector#8 (a runtime image)
    ("FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'", False),
])
def test_the_failing_nvcc_path_states_whether_cuda_home_is_a_list(line, is_list):
    evidence = feed(line)
    assert evidence.stated["cuda.home_is_path_list"].value is is_list
    found = fact_value("cuda.home_is_path_list", Facts(), evidence)
    assert (found.value, found.line) == (is_list, "job.log:1")


def test_nvcc_looked_up_on_path_says_nothing_about_cuda_home():
    # flashinfer-ai/flashinfer#1781
    evidence = feed("FileNotFoundError: [Errno 2] No such file or directory: 'nvcc'")
    assert "cuda.home_is_path_list" not in evidence.stated
    assert not fact_value("cuda.home_is_path_list", Facts(), evidence).known


@pytest.mark.parametrize("line", [
    # deepspeedai/DeepSpeed#5772
    "c++ cpu_adam.o cpu_adam_impl.o -shared -lcurand -L/path/to/conda/env/lib/python3.9/site-packages/torch/lib -lc10 "
    "-ltorch_cpu -ltorch -ltorch_python -o cpu_adam.so",
    # deepspeedai/DeepSpeed#7174
    "[1/1] c++ cpu_adam.o cpu_adam_impl.o -shared -lcurand -L/opt/conda/lib "
    "-L/opt/conda/lib/python3.11/site-packages/torch/lib -lc10 -ltorch_cpu -ltorch -ltorch_python",
], ids=["torch-lib-only", "conda-lib-and-torch-lib"])
def test_a_link_command_without_a_cuda_library_directory_states_that_it_searches_none(line):
    value = fact_value("build.link_searches_cuda", Facts(), feed(line))
    assert value.value is False and value.line == "job.log:1"


def test_a_link_command_with_cuda_home_lib64_states_nothing():
    """The link line torch's cpp_extension writes with CUDA_HOME's lib64 (``-L$CUDA_HOME/lib64 -lcudart``; constructed
    in the shape of OptimalScale/LMFlow#374's, whose CUDA_HOME was a conda environment lacking libcurand): such a
    directory does not show the library is in it, so nothing is stated (unknown, never True)."""
    from lingjun.checks.knowledge.fact_values import UNKNOWN

    line = ("c++ cpu_adam.o custom_cuda_kernel.cuda.o -shared -lcurand -L/usr/local/cuda-11.7/lib64 -lc10 -lc10_cuda "
            "-ltorch_cpu -ltorch_cuda -ltorch -ltorch_python -lcudart -o cpu_adam.so")
    assert fact_value("build.link_searches_cuda", Facts(), feed(line)).value is UNKNOWN
