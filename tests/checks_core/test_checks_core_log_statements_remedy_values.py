"""Lines that state a value a remedy quotes: nvcc's host compiler check names the newest GCC it accepts
(``nvcc.gcc_max``), nvidia-container-cli the CUDA the image requires (``cuda.required``), and the Docker CLI's prefix
says the container runs under Docker (``place``).

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import place
from log_statements_kit import feed

#: ninja-build/ninja#2595 (CUDA's host_config.h refusing GCC 12)
GCC_LINE = ("/usr/include/crt/host_config.h:139:2: error: #error -- unsupported GNU version! gcc versions later than 11 "
            "are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version check; "
            "however, using an unsupported host compiler may cause compilation failure or incorrect run time execution. "
            "Use at your own risk.")
#: ggml-org/llama.cpp#9205 (GCC 14 against a toolkit that accepts 13)
GCC_13_LINE = "#error -- unsupported GNU version! gcc versions later than 13 are not supported!"
#: NVIDIA/nvidia-docker#1442
DOCKER_LINE = ("docker: Error response from daemon: OCI runtime create failed: container_linux.go:349: starting container "
               "process caused \"process_linux.go:449: container init caused \\\"process_linux.go:432: running prestart hook "
               "0 caused \\\\\\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: requirement "
               "error: unsatisfied condition: cuda>=11.0\\\\\\\\n\\\\\\\"\\\"\": unknown.")


def test_nvccs_host_compiler_check_states_the_newest_gcc_it_accepts():
    assert feed(GCC_LINE).value("nvcc.gcc_max").value == "11"
    assert feed(GCC_13_LINE).value("nvcc.gcc_max").value == "13"


def test_the_docker_clis_prefix_states_docker_and_the_cuda_the_image_requires():
    evidence = feed(DOCKER_LINE)
    assert evidence.value("cuda.required").value == "11.0"
    found = place(Facts(), evidence)
    assert (found.value, found.line) == ("docker", "job.log:1")


def test_docker_quoted_inside_a_line_does_not_state_the_place():
    evidence = feed("INFO retrying after: docker: Error response from daemon: conflict")
    assert evidence.value("place") is None
