"""Facts a job's log states: NCCL's version and network, the driver's CUDA version, torch's architecture list, ...

Each :class:`Statement` is found by a literal (searched over the whole log at once with the signatures'
literals) and read from its line by a regular expression.  The values become
:class:`~lingjun.checks.evidence.StatedFact` entries with the line as their source.  Where the lines
come from (public logs of the same programs):

* ``NCCL version 2.21.5+cuda12.4``, ``cudaDriverVersion 12080``, ``Bootstrap : Using eth0:…``,
  ``NET/IB : No device found``, ``Using network Socket`` / ``IB``: NCCL's INFO lines with ``NCCL_DEBUG=INFO``
  (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-debug; e.g.
  https://github.com/InternLM/lmdeploy/issues/3286);
* ``NVIDIA B200 with CUDA capability sm_100 is not compatible with the current PyTorch installation`` and
  ``The current PyTorch install supports CUDA capabilities sm_50 … sm_90``: torch's warning when its build has
  no kernels for the GPU (torch/cuda/__init__.py; https://github.com/vllm-project/vllm/issues/20173);
* ``vLLM API server version 0.9.1`` / ``Initializing a V1 LLM engine (v0.9.1)``: vLLM's start-up lines;
* ``NVRM: Xid (PCI:0000:3b:00): 79, …``: the kernel driver's Xid report in ``dmesg``
  (https://docs.nvidia.com/deploy/xid-errors/index.html).

That a log comes from ``kubectl logs --prefix`` (``[pod/NAME/CONTAINER] …``) is read by
:mod:`lingjun.checks.inputs.log_file` from its first line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

__all__ = ["Statement", "STATEMENTS"]


@dataclass(frozen=True)
class Statement:
    """A fact a line states: ``literal`` finds the line, ``regex`` reads it, ``value`` turns the match into
    ``(fact name, value)`` pairs (none when the line does not state it after all)."""

    literal: str
    regex: "re.Pattern[str]"
    value: Callable[["re.Match[str]"], list[tuple[str, Any]]]


def _nccl_version(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("nccl.version", m.group(1))]


def _network(m: "re.Match[str]") -> list[tuple[str, Any]]:
    word = m.group(1).lower()
    return [("nccl.network", "ib" if word.startswith("ib") else "socket")]


def _no_ib(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("nccl.ib_devices", 0)]


def _driver_cuda(m: "re.Match[str]") -> list[tuple[str, Any]]:
    number = int(m.group(1))
    if not 1000 <= number <= 99990:
        return []
    return [("driver.cuda", f"{number // 1000}.{number % 1000 // 10}")]


def _torch_gpu(m: "re.Match[str]") -> list[tuple[str, Any]]:
    digits = m.group(2)[3:]  # "sm_100" -> "100": major "10", minor "0"
    return [("gpu.name", m.group(1).strip()), ("gpu.compute_capability", f"{int(digits[:-1])}.{digits[-1]}")]


def _torch_archs(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("torch.arch_list", re.findall(r"sm_\d+a?", m.group(1)))]


def _vllm(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("vllm.version", m.group(1))]


def _bootstrap(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("nccl.bootstrap_interface", m.group(1))]


def _xid(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("kernel.xid", int(m.group(1)))]


_VERSION = r"(\d{1,3}\.\d{1,3}\.\d{1,4}(?:\.post\d{1,3}|rc\d{1,3})?)"

#: every statement; the first line stating a fact wins, and a later line stating another value makes it a conflict
STATEMENTS: tuple[Statement, ...] = (
    Statement("NCCL version ", re.compile(r"NCCL version " + _VERSION), _nccl_version),
    Statement("Using network ", re.compile(r"NCCL INFO Using network (IB\w*|Socket)\b"), _network),
    Statement("NET/IB : No device found", re.compile(r"NET/IB : No device found"), _no_ib),
    Statement("cudaDriverVersion ", re.compile(r"cudaDriverVersion (\d{4,5})\b"), _driver_cuda),
    Statement("with CUDA capability sm_", re.compile(
        r"(NVIDIA [\w .-]{1,60}?) with CUDA capability (sm_\d{2,3}) is not compatible with the current PyTorch"), _torch_gpu),
    Statement("supports CUDA capabilities", re.compile(
        r"current PyTorch install supports CUDA capabilities ((?:sm_\d+a? ?){1,40})"), _torch_archs),
    Statement("vLLM API server version ", re.compile(r"vLLM API server version " + _VERSION), _vllm),
    Statement("LLM engine (v", re.compile(r"Initializing an? (?:V1 )?LLM engine \(v" + _VERSION), _vllm),
    Statement("Bootstrap : Using ", re.compile(r"NCCL INFO Bootstrap ?: Using ([A-Za-z][\w.-]{0,30})[:<]"), _bootstrap),
    Statement("NVRM: Xid", re.compile(r"NVRM: Xid \([^)]{0,40}\): (\d{1,3})\b"), _xid),
)



def statements_for(literal: str) -> list[Statement]:
    """The statements found by ``literal``."""
    return [s for s in STATEMENTS if s.literal == literal]


def read_statement(statement: Statement, line: str) -> Optional[list[tuple[str, Any]]]:
    """The facts ``line`` states by ``statement``, or None when its expression does not match."""
    m = statement.regex.search(line)
    return statement.value(m) if m else None
