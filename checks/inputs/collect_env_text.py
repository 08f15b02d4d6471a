"""Parse the text ``python -m torch.utils.collect_env`` prints into :class:`~lingjun.checks.facts.Facts`.

``--from-collect-env FILE`` lets a user check an environment from the paste
in a bug report.  Both layouts are understood: torch's ``Key: value`` lines
(every version since 2018) and the sectioned ``Key : value`` layout of
vLLM's fork (``==== System Info ====`` headers, an environment-variables
section).  Recognised keys (others are ignored):

==============================  ==============================================
``PyTorch version``             ``torch.version`` (and a ``torch`` distribution if pip did not list one)
``Is debug build``              ``torch.debug``
``CUDA used to build PyTorch``  ``torch.cuda``
``ROCM used to build PyTorch``  ``torch.hip``
``OS``                          ``host.os_pretty_name``, ``os_id``, ``os_version_id``, ``machine``
``Python version``              ``python.version``, ``python.version_full``
``Python platform``             ``host.kernel_release``, ``host.machine``
``CUDA runtime version``        ``cuda.toolkit_version`` (major.minor: collect_env reports ``nvcc``'s version, e.g. 12.0.140)
``GPU models and configuration`` ``nvidia_smi.gpus`` (``GPU 0: NVIDIA A100-SXM4-40GB`` lines, UUIDs dropped) and
                                ``mig_devices`` (``MIG 3g.40gb Device 0:`` lines under their GPU, which gets
                                ``mig_mode = True``; UUIDs dropped)
``Nvidia driver version``       ``nvidia_smi.driver_version``
``cuDNN version``               ``cudnn.files`` (one or more paths, "Probably one of the following:") or ``cudnn.header_version``
``CUDA_MODULE_LOADING set to``  ``env["CUDA_MODULE_LOADING"]``
``[pip3] name==version``        ``distributions`` (no installer: pip lists every package, whoever installed it)
``[conda] name version build``  ``distributions`` (no installer), unless pip listed the same name

``Is CUDA available``            ``symptoms.cuda_available`` (what torch itself reported: evidence, not a prediction)
==============================  ==============================================

Lines anywhere in the paste that quote a known CUDA/NVML error (e.g.
``forward compatibility was attempted on non supported HW``, ``driver version
is insufficient``, ``Driver/library version mismatch``) are kept in
``symptoms.errors``.

What a paste cannot show is marked in ``facts.coverage`` (see
:mod:`lingjun.checks.coverage`): device nodes, the kernel driver's /proc file,
NVML, libcuda, the loader path, network interfaces, the NCCL libraries and the
manifest are *not available*; the package list (collect_env filters it), the
environment (torch lists only ``CUDA_MODULE_LOADING``; vLLM's fork lists
variables with the prefixes of :data:`VLLM_ENV_PREFIXES`), cuDNN ("Probably one
of the following" candidates, not the loader's choice), the CUDA toolkit (nvcc's
version, not the cuda-compat package) and nvidia-smi's answers (a failed
``nvidia-smi`` prints "Could not collect") are *partial*.  Sections whose key
lines are missing from the paste are not available.

``N/A``, ``None``, ``No CUDA`` and ``Could not collect`` mean unknown.  Lines
quoted in a reply (``> PyTorch version: ...``) are read without the ``>``.
GPU names of another vendor (AMD, Intel) are not NVIDIA GPUs and are left
out; in a ROCm build's paste only names that say NVIDIA are kept.  The
GPU brand is inferred from the model name only where the name says it
(``GeForce``, ``TITAN``, ``Quadro``, ``Tesla``), because collect_env does not
report NVML's brand.  Facts get ``origin = "collect_env"``.

A fragment is accepted: a report that quotes only the ``[pip3]`` / ``[conda]``
lines of collect_env is read for its packages.  Raises :class:`CollectEnvError`
when the text has none of the keys above and no readable package line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from lingjun.checks.core.inert_text import capped
from lingjun.checks.core.small_int import MAX_DIGITS, small_int
from lingjun.checks.coverage import SECTIONS
from lingjun.checks.facts import DistributionFacts, Facts, GpuFacts, LibraryFile, MigDeviceFacts, TorchBuildFacts
from lingjun.checks.probes.env_vars import filter_env
from lingjun.checks.probes.loader import version_from_name
from lingjun.checks.probes._mig import parse_mig_line

__all__ = ["CollectEnvError", "parse_collect_env", "decode_collect_env", "VLLM_ENV_PREFIXES", "ERROR_SIGNATURES"]

#: name prefixes of the variables vLLM's collect_env lists in its "Environment Variables" section (besides vLLM's
#: own ``VLLM_*`` settings; names holding "secret", "token", "api", "access" or "password" are left out there).
#: Source: https://github.com/vllm-project/vllm/blob/main/vllm/collect_env.py (get_env_vars)
VLLM_ENV_PREFIXES = ("TORCH", "NCCL", "PYTORCH", "CUDA", "CUBLAS", "CUDNN", "OMP_", "MKL_", "NVIDIA", "VLLM_")

#: lower-case substrings of CUDA / NVML / torch error messages a paste may quote; a line holding one is a symptom
ERROR_SIGNATURES = (
    "forward compatibility was attempted on non supported hw",
    "cuda_error_compat_not_supported_on_device",
    "driver version is insufficient for cuda runtime version",
    "the nvidia driver on your system is too old",
    "driver/library version mismatch",
    "failed to initialize nvml",
    "no kernel image is available for execution on the device",
    "system has unsupported display driver / cuda driver combination",
    "found no nvidia driver on your system",
    "cuda driver initialization failed",
    "cuda initialization:",
    "invalid device ordinal",
    "cudnn version incompatibility",
)
_MAX_SYMPTOM_LINES = 20
_MAX_SYMPTOM_CHARS = 300

_UNKNOWN = {"", "n/a", "none", "no cuda", "could not collect", "unknown", "not available"}
_KEY_RE = re.compile(r"^([A-Za-z][A-Za-z0-9 _/()-]*?)\s*:\s?(.*)$")
_PIP_RE = re.compile(r"^\[(pip3?|conda)\]\s+(.+)$")
_GPU_RE = re.compile(r"^GPU\s+(\d+)\s*:\s*(.+?)(?:\s*\(UUID:[^)]*\))?\s*$")
_ENV_RE = re.compile(r"^([A-Z_][A-Z0-9_]*)=(.*)$")
_SECTION_RE = re.compile(r"^=+\s*$|^=+\s+.*\s+=+$")
#: a title line of vLLM's sectioned layout ("System Info", "PyTorch Info", ...): words only, no colon
_SECTION_TITLE_RE = re.compile(r"^[A-Za-z][A-Za-z /&-]{2,40}$")
_QUOTE_RE = re.compile(r"^(?:>\s?)+")  # "> " markers of a paste quoted in a reply
_OTHER_VENDOR_RE = re.compile(r"\b(?:amd|radeon|instinct|intel|arc|gfx\d+)\b", re.IGNORECASE)
_NVIDIA_WORD_RE = re.compile(r"\b(?:nvidia|geforce|tesla|quadro|titan)\b", re.IGNORECASE)

KNOWN_KEYS = {
    "pytorch version",
    "is debug build",
    "cuda used to build pytorch",
    "rocm used to build pytorch",
    "os",
    "python version",
    "python platform",
    "is cuda available",
    "cuda runtime version",
    "gpu models and configuration",
    "nvidia driver version",
    "cudnn version",
    "cuda_module_loading set to",
    "vllm version",
}

#: keys whose value decides a verdict: a paste that gives two different values makes the value unknown
_SINGLE_VALUED = ("pytorch version", "cuda used to build pytorch", "is cuda available", "nvidia driver version",
                  "cuda runtime version", "python version", "vllm version")


class CollectEnvError(ValueError):
    """The text is not collect_env output."""


def decode_collect_env(raw: bytes) -> str:
    """Text of a saved collect_env output: UTF-8 (with or without a byte order mark) or UTF-16 with a byte order mark
    (what Windows PowerShell 5 writes for ``python -m torch.utils.collect_env > env.txt``); undecodable bytes become U+FFFD."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", "replace")
    return raw.decode("utf-8-sig", "replace")


def _value(text: str) -> Optional[str]:
    text = text.strip()
    return None if text.lower() in _UNKNOWN else text


def _brand_from_name(name: str) -> Optional[str]:
    lowered = name.lower()
    for word, brand in (("geforce", "geforce"), ("titan", "titan"), ("quadro", "quadro"), ("tesla", "tesla")):
        if word in lowered:
            return brand
    return None


@dataclass
class _Paste:
    """What the line-by-line read of one paste has gathered so far."""

    facts: Facts
    where: str
    seen_keys: set[str] = field(default_factory=set)
    pending: Optional[str] = None  # a key whose value continues on the next lines
    pip_names: set[str] = field(default_factory=set)
    conda: list[DistributionFacts] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    torch: TorchBuildFacts = field(default_factory=TorchBuildFacts)
    env_section: bool = False  # vLLM's "Environment Variables" section was seen
    env_lines_after_header: int = 0
    sections_after_env: int = 0
    first_values: dict[str, str] = field(default_factory=dict)
    conflicting: set[str] = field(default_factory=set)  # keys given twice with different values (two pastes run together)


def parse_collect_env(text: str, where: str = "collect_env output") -> Facts:
    """Facts from collect_env text (see the module docstring).

    Raises:
        CollectEnvError: when no recognised key and no readable ``[pip3]``/``[conda]`` line is found,
            or a ``GPU N:`` line's N is too long to be an index (the message names the line).
    """
    paste = _Paste(facts=Facts(origin="collect_env"), where=where)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, raw in enumerate(lines, 1):
        _read_line(paste, _QUOTE_RE.sub("", raw.strip()), number)
    return _finish(paste)


def _read_line(paste: _Paste, line: str, number: int) -> None:
    """One line of the paste, in order: section marks, symptoms, packages, continuations, env lines, keys."""
    if not line or _SECTION_RE.match(line):
        paste.pending = None if not line else paste.pending
        return
    lowered = line.lower()
    if lowered == "environment variables":
        paste.env_section = True
        return
    if paste.env_section and _SECTION_TITLE_RE.match(line):
        paste.sections_after_env += 1
    facts = paste.facts
    if len(facts.symptoms.errors) < _MAX_SYMPTOM_LINES and any(sig in lowered for sig in ERROR_SIGNATURES):
        facts.symptoms.errors.append(line[:_MAX_SYMPTOM_CHARS])
    pip = _PIP_RE.match(line)
    if pip:
        paste.pending = None
        _package(pip.group(1), pip.group(2), facts, paste.pip_names, paste.conda)
        return
    if _continuation(paste, line, number) or _env_line(paste, line):
        return
    kv = _KEY_RE.match(line)
    if kv:
        _key_line(paste, kv.group(1).strip().lower(), kv.group(2).strip(), number)


def _continuation(paste: _Paste, line: str, number: int) -> bool:
    """A further line of a multi-line value (GPU list, MIG devices, cuDNN candidates); True when it was one."""
    if paste.pending == "gpu models and configuration":
        gpu = _GPU_RE.match(line)
        if gpu:
            _add_gpu(paste.facts, _gpu_index(gpu.group(1), paste.where, number), gpu.group(2))
            return True
        mig = parse_mig_line(line)
        if mig:
            _add_mig(paste.facts, mig[0], mig[1])
            return True
    if paste.pending == "cudnn version" and line.startswith("/"):
        _add_cudnn_path(paste.facts, line)
        return True
    return False


def _env_line(paste: _Paste, line: str) -> bool:
    """A ``NAME=value`` line; True when it was one."""
    env_match = _ENV_RE.match(line)
    if not (env_match and " " not in env_match.group(1)):
        return False
    paste.env[env_match.group(1)] = env_match.group(2)
    paste.env_lines_after_header += paste.env_section
    return True


def _key_line(paste: _Paste, key: str, value: str, number: int) -> None:
    """A ``Key: value`` line: a known key is applied (and noted when a single-valued key repeats differently)."""
    if key not in KNOWN_KEYS:
        paste.pending = None
        return
    paste.seen_keys.add(key)
    paste.pending = key
    if key in _SINGLE_VALUED:
        earlier = paste.first_values.setdefault(key, value)
        if earlier != value:
            paste.conflicting.add(key)
    _apply(key, value, paste, number)


def _finish(paste: _Paste) -> Facts:
    """The facts once every line is read: vLLM's version, conflicts forgotten, packages, torch, env, coverage.

    Raises:
        CollectEnvError: when the paste had no recognised key and no readable package line.
    """
    facts, torch, pip_names = paste.facts, paste.torch, paste.pip_names
    _vllm_from_key(paste)
    _forget_conflicts(facts, torch, paste.conflicting)
    # an "Environment Variables" header with nothing under it at the end of the paste is most likely cut off there
    env_section = paste.env_section and (paste.env_lines_after_header > 0 or paste.sections_after_env > 0)
    if not paste.seen_keys and not facts.distributions and not paste.conda:
        raise CollectEnvError(
            f"{paste.where}: this does not look like the output of `python -m torch.utils.collect_env` "
            "(none of 'PyTorch version', 'OS', 'Python version', 'Nvidia driver version' ... nor a '[pip3] name==version' line was found)"
        )
    if torch.hip and not torch.cuda:
        # a ROCm build lists the AMD GPUs it sees; only names that say NVIDIA are NVIDIA GPUs
        facts.nvidia_smi.gpus = [g for g in facts.nvidia_smi.gpus if _NVIDIA_WORD_RE.search(g.name or "")]
    for dist in paste.conda:
        if dist.name.lower() not in pip_names:
            facts.distributions.append(dist)
    if torch.version or torch.cuda:
        facts.torch = torch
        if torch.version and "torch" not in pip_names:
            facts.distributions.append(DistributionFacts(name="torch", version=torch.version))
    facts.env = filter_env(paste.env)
    if facts.nvidia_smi.driver_version or facts.nvidia_smi.gpus:
        facts.nvidia_smi.available = True
    _mark_coverage(facts, paste.seen_keys, env_section)
    return facts


def _vllm_from_key(paste: _Paste) -> None:
    """vLLM's own ``vLLM Version:`` line, where no package line named vllm and the paste does not contradict itself."""
    if "vllm version" in paste.seen_keys and "vllm version" not in paste.conflicting and paste.facts.distribution("vllm") is None:
        vllm = _value(paste.first_values["vllm version"])
        if vllm and re.match(r"^\d+(\.\d+)*\S*$", vllm):
            paste.facts.distributions.append(DistributionFacts(name="vllm", version=vllm))


#: sections a collect_env paste never shows
_NEVER_SHOWN = ("driver", "device-nodes", "nvml", "libcuda", "nccl", "network", "loader", "manifest", "shm", "limits", "rdma", "gpu-topology")
#: section -> the key lines that show it (in part); without any of them the section is not available
_SHOWN_BY = {
    "host": ("os", "python platform"),
    "python": ("python version",),
    "torch": ("pytorch version", "cuda used to build pytorch"),
    "nvidia-smi": ("nvidia driver version", "gpu models and configuration"),
    "mig": ("gpu models and configuration",),
    "cuda-toolkit": ("cuda runtime version",),
    "cudnn": ("cudnn version",),
    "symptoms": ("is cuda available",),
}


def _mark_coverage(facts: Facts, seen_keys: set[str], env_section: bool) -> None:
    """Fill ``facts.coverage`` (see the module docstring)."""
    absent = set(_NEVER_SHOWN)
    partial = {"distributions", "env", "cudnn", "cuda-toolkit", "nvidia-smi", "host", "mig"}
    for section, keys in _SHOWN_BY.items():
        if not seen_keys.intersection(keys):
            absent.add(section)
    if facts.symptoms.errors:
        absent.discard("symptoms")
    prefixes: list[str] = []
    if "cuda_module_loading set to" in seen_keys:
        prefixes.append("CUDA_MODULE_LOADING")
    if env_section:
        prefixes.extend(VLLM_ENV_PREFIXES)
    if not prefixes and not facts.env:
        absent.add("env")
    if not facts.distributions:
        absent.add("distributions")
    if "torch" not in absent and "cuda used to build pytorch" not in seen_keys:
        partial.add("torch")  # the version without the CUDA line: a CPU build cannot be told from an unknown one
    facts.coverage.not_available = [s for s in SECTIONS if s in absent]
    facts.coverage.partial = [s for s in SECTIONS if s in partial and s not in absent]
    facts.coverage.env_prefixes = prefixes


def _forget_conflicts(facts: Facts, torch: TorchBuildFacts, conflicting: set[str]) -> None:
    """Values given twice with different contents (two pastes run together) are not known."""
    if "pytorch version" in conflicting:
        torch.version = None
    if "cuda used to build pytorch" in conflicting:
        torch.cuda = None
    if "is cuda available" in conflicting:
        facts.symptoms.cuda_available = None
    if "nvidia driver version" in conflicting:
        facts.nvidia_smi.driver_version = None
    if "cuda runtime version" in conflicting:
        facts.cuda.toolkit_version = None
        facts.cuda.version_file = None
    if "python version" in conflicting:
        facts.python.version = facts.python.version_full = None


def _gpu_index(digits: str, where: str, line: int) -> int:
    """The index of a ``GPU N: name`` line.

    Raises:
        CollectEnvError: when N has more digits than an index can (:data:`~lingjun.checks.core.small_int.MAX_DIGITS`).
    """
    index = small_int(digits)
    if index is None:
        raise CollectEnvError(f"{where}: line {line}: GPU models and configuration: the GPU index {capped(digits, 40)} is not a number of at most {MAX_DIGITS} digits")
    return index


def _apply(key: str, raw: str, paste: _Paste, line: int = 0) -> None:
    """The fact one ``Key: value`` line gives; an unknown value clears only the keys in :data:`_UNKNOWN_CLEARS`."""
    value = _value(raw)
    handler = _ON_KEY.get(key)
    if handler is not None and (value or key in _UNKNOWN_CLEARS):
        handler(paste, value, line)


_TRUTH = {"true": True, "false": False}


def _on_torch_version(paste: _Paste, value: Optional[str], line: int) -> None:
    paste.torch.version = value


def _on_debug_build(paste: _Paste, value: Optional[str], line: int) -> None:
    paste.torch.debug = _TRUTH.get((value or "").lower())


def _on_torch_cuda(paste: _Paste, value: Optional[str], line: int) -> None:
    paste.torch.cuda = value if value and re.match(r"^\d+\.\d+", value) else None


def _on_torch_rocm(paste: _Paste, value: Optional[str], line: int) -> None:
    paste.torch.hip = value


def _on_os(paste: _Paste, value: str, line: int) -> None:
    host = paste.facts.host
    match = re.match(r"^(.*?)\s*\((x86_64|aarch64|arm64|ppc64le|s390x)\)\s*$", value)
    pretty = match.group(1) if match else value
    host.os_pretty_name = pretty
    host.machine = match.group(2) if match else host.machine
    host.os_id = pretty.split()[0].lower() if pretty.split() else None
    version = re.search(r"\b(\d+(?:\.\d+)?)", pretty)
    host.os_version_id = version.group(1) if version else None


def _on_python_version(paste: _Paste, value: str, line: int) -> None:
    match = re.match(r"^(\d+\.\d+(?:\.\d+)?\S*)", value)
    paste.facts.python.version = match.group(1) if match else None
    paste.facts.python.version_full = re.sub(r"\s*\(\d+-bit runtime\)\s*$", "", value)


def _on_python_platform(paste: _Paste, value: str, line: int) -> None:
    match = re.match(r"^Linux-(.+?)-(x86_64|aarch64)(?:-with.*)?$", value)
    if match:
        paste.facts.host.kernel_release, paste.facts.host.machine = match.group(1), match.group(2)


def _on_cuda_runtime(paste: _Paste, value: str, line: int) -> None:
    match = re.match(r"^(\d+)\.(\d+)", value)
    if match:
        paste.facts.cuda.toolkit_version = f"{match.group(1)}.{match.group(2)}"
        paste.facts.cuda.version_file = f"collect_env: CUDA runtime version {value}"


def _on_gpu_models(paste: _Paste, value: str, line: int) -> None:
    gpu = _GPU_RE.match(value)
    if gpu:
        _add_gpu(paste.facts, _gpu_index(gpu.group(1), paste.where, line), gpu.group(2))
    elif not value.lower().startswith("device "):
        _add_gpu(paste.facts, 0, value)


def _on_driver_version(paste: _Paste, value: Optional[str], line: int) -> None:
    paste.facts.nvidia_smi.driver_version = value if value and re.match(r"^\d{2,4}(\.\d+){0,2}$", value) else None


def _on_cudnn_version(paste: _Paste, value: str, line: int) -> None:
    if value.lower().startswith("probably one of"):
        return
    if value.startswith("/"):
        _add_cudnn_path(paste.facts, value)
    elif re.match(r"^\d+\.\d+(\.\d+)?$", value):
        paste.facts.cudnn.header_version = value


def _on_module_loading(paste: _Paste, value: str, line: int) -> None:
    paste.env["CUDA_MODULE_LOADING"] = value


def _on_cuda_available(paste: _Paste, value: Optional[str], line: int) -> None:
    paste.facts.symptoms.cuda_available = _TRUTH.get((value or "").lower())


#: key -> what its line sets; keys not listed here (e.g. "vllm version") are only noted as seen
_ON_KEY = {
    "pytorch version": _on_torch_version,
    "is debug build": _on_debug_build,
    "cuda used to build pytorch": _on_torch_cuda,
    "rocm used to build pytorch": _on_torch_rocm,
    "os": _on_os,
    "python version": _on_python_version,
    "python platform": _on_python_platform,
    "cuda runtime version": _on_cuda_runtime,
    "gpu models and configuration": _on_gpu_models,
    "nvidia driver version": _on_driver_version,
    "cudnn version": _on_cudnn_version,
    "cuda_module_loading set to": _on_module_loading,
    "is cuda available": _on_cuda_available,
}
#: keys whose unknown value (N/A, Could not collect ...) clears what an earlier line set; the others keep it
_UNKNOWN_CLEARS = {"pytorch version", "is debug build", "cuda used to build pytorch", "rocm used to build pytorch", "nvidia driver version", "is cuda available"}


def _add_gpu(facts: Facts, index: int, name: str) -> None:
    name = name.strip()
    if name and not _OTHER_VENDOR_RE.search(name):
        facts.nvidia_smi.gpus.append(GpuFacts(index=index, name=name, brand=_brand_from_name(name)))


def _add_mig(facts: Facts, profile: str, index: int) -> None:
    """A ``MIG 3g.40gb Device 0:`` line: a MIG device of the GPU listed last (collect_env prints ``nvidia-smi -L``)."""
    parent = facts.nvidia_smi.gpus[-1] if facts.nvidia_smi.gpus else None
    if parent is not None:
        parent.mig_mode = True
    facts.mig_devices.append(MigDeviceFacts(gpu_index=parent.index if parent else None, index=index, profile=profile))


def _add_cudnn_path(facts: Facts, path: str) -> None:
    name = path.rsplit("/", 1)[-1]
    if re.match(r"^libcudnn\.so\.\d", name):
        # "Probably one of the following": files collect_env found, not the one the loader picks
        facts.cudnn.files.append(LibraryFile(path=path, version=version_from_name(name), via=None))


def _package(kind: str, rest: str, facts: Facts, pip_names: set[str], conda: list[DistributionFacts]) -> None:
    if kind.startswith("pip"):
        match = re.match(r"^([A-Za-z0-9_.\-\[\]]+)\s*(?:==|@)\s*(\S+)", rest)
        if match:
            name = match.group(1).split("[", 1)[0]
            facts.distributions.append(DistributionFacts(name=name, version=match.group(2)))
            pip_names.add(name.lower())
        return
    cols = rest.split()
    if len(cols) >= 2 and re.match(r"^\d", cols[1]):
        conda.append(DistributionFacts(name=cols[0], version=cols[1]))
