"""xFormers' warning that it cannot load its extensions names the torch it was built for and the one installed
(``PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)``): a ``+cpu`` local version states a CPU-only torch
(``torch.cpu_build``), a ``+cu…`` one a CUDA build, and a probe of the container outranks the log.

Every line is quoted from a public report (the source follows each one).
"""

from __future__ import annotations

import pytest

from lingjun.checks.facts import Facts, TorchBuildFacts
from lingjun.checks.knowledge.fact_values import fact_value
from log_statements_kit import feed

#: open-mmlab/PIA#30 (the second line of the warning, as xFormers prints it)
CPU_LINE = "    PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)"
#: open-mmlab/PIA#30 (the issue's title: the warning on one line)
CPU_ONE_LINE = ("xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch 2.1.2+cu121 with CUDA 1201 "
                "(you have 2.1.2+cpu)")
#: facebookresearch/xformers#800
CUDA_LINE = "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0+cu118)"
#: Vchitect/SEINE#21 (macOS: the installed torch has no local version)
PLAIN_LINE = "    PyTorch 2.0.1 with CUDA 1106 (you have 2.0.1)"
#: facebookresearch/xformers#800 (the Python line under it)
PYTHON_LINE = "    Python  3.8.18 (you have 3.8.5)"


@pytest.mark.parametrize("line, cpu", [(CPU_LINE, True), (CPU_ONE_LINE, True), (CUDA_LINE, False)])
def test_the_installed_torchs_local_version_states_whether_it_is_a_cpu_build(line, cpu):
    found = fact_value("torch.cpu_build", Facts(), feed(line))
    assert (found.value, found.line, found.source.en) == (cpu, "job.log:1", "shown by the log")


@pytest.mark.parametrize("line", [PLAIN_LINE, PYTHON_LINE])
def test_a_torch_without_a_local_version_or_the_python_line_states_nothing(line):
    assert not fact_value("torch.cpu_build", Facts(), feed(line)).known


def test_a_probed_torch_outranks_the_log():
    facts = Facts()
    facts.torch = TorchBuildFacts(version="2.1.2+cu121", cuda="12.1")
    assert fact_value("torch.cpu_build", facts, feed(CPU_LINE)).value is False
