"""Values a remedy quotes from the input: ``{{name|words said without it}}`` in an error signature's remedy text.

A remedy written once for every log must still name the number the user's own log or machine shows: the driver
branch that meets the CUDA version ``nvidia-container-cli`` says the image requires, the GCC release nvcc accepts.
A signature's remedy (``releases/troubleshooting/*.yaml``, both languages) holds a placeholder where such a value
goes, with the words to say when the input does not show it::

    Upgrade the host driver to {{driver.target|the branch the image's release notes name}}.

:data:`VALUES` names every value a placeholder may use (the gate refuses any other name, a placeholder without
words to fall back on, and two languages that use different names); the checker computes them
(:mod:`lingjun.checks.knowledge.remedy_values`) and :func:`fill` puts each in, or its fallback where the input does
not show it; the site, which has no input, shows the fallbacks (:func:`fallback`).  Unknown is not absent: a value
the input does not show is never guessed.

>>> fill("apt-get install -y g++-{{nvcc.gcc_max|N}}", {"nvcc.gcc_max": "12"})
'apt-get install -y g++-12'
>>> fallback("apt-get install -y g++-{{nvcc.gcc_max|N}}")
'apt-get install -y g++-N'
>>> placeholders("a {{driver.target|b}} c")
[('driver.target', 'b')]
"""

from __future__ import annotations

import re
from typing import Mapping

__all__ = ["VALUES", "fallback", "fill", "malformed", "placeholders"]

#: value name -> (English, Chinese) description: what the checker puts in, from which input
VALUES: dict[str, tuple[str, str]] = {
    "driver.target": (
        "the driver branch (with its minimum) that meets every CUDA requirement the input shows: the CUDA version a "
        "line says the image requires (nvidia-container-cli's cuda>=X), the image's and torch's CUDA, the GPUs' "
        "architectures; the oldest supported long-term branch first (lingjun.checks.core.driver_target)",
        "满足输入所示全部 CUDA 要求的驱动分支（及其最低版本）：日志行所示镜像要求的 CUDA（nvidia-container-cli 的 cuda>=X）、"
        "镜像与 torch 的 CUDA、GPU 架构；优先选仍受支持的最旧长期支持分支"),
    "cuda.required": (
        "the CUDA version a line says the image requires (nvidia-container-cli's cuda>=X)",
        "日志行所示镜像要求的 CUDA 版本（nvidia-container-cli 的 cuda>=X）"),
    "vllm.kv_cache_tokens": (
        "the longest context vLLM's KV cache holds, as its refusal of max_model_len states it: the cache's capacity "
        "(maximum number of tokens that can be stored in KV cache (N)) or the estimated maximum model length",
        "vLLM 拒绝 max_model_len 时所示 KV 缓存能容纳的最长上下文：缓存容量（maximum number of tokens that can be stored "
        "in KV cache (N)）或估算的最大模型长度"),
    "vllm.max_seq_len": (
        "the context length vLLM was asked to serve, as its refusal of max_model_len states it (the model's max seq len)",
        "vLLM 拒绝 max_model_len 时所示要求服务的上下文长度（the model's max seq len）"),
    "vllm.kv_cache_memory": (
        "the KV cache memory one request at max_model_len needs and the memory the cache has, as vLLM's V1 engine "
        "states them (X GiB KV cache is needed, ... available KV cache memory (Y GiB))",
        "vLLM V1 引擎所示按 max_model_len 计算的单个请求所需 KV 缓存显存与缓存现有显存（X GiB KV cache is needed，"
        "... available KV cache memory (Y GiB)）"),
    "c10d.store_port": (
        "the port torch.distributed's store could not listen on, as its line states it (failed to bind to "
        "[::]:29500, port: 29500)",
        "torch.distributed 的存储无法监听的端口，取自其错误行（failed to bind to [::]:29500、port: 29500）"),
    "nvcc.gcc_max": (
        "the newest GCC major version nvcc's host compiler check accepts, as its line states it (gcc versions later "
        "than 12: ``12``, to write gcc-12)",
        "nvcc 主机编译器检查所接受的最新 GCC 主版本号，取自其错误行（gcc versions later than 12：``12``，用于写出 gcc-12）"),
    "torch.cuda": (
        "the CUDA version torch was built with, major.minor (torch.version.cuda, or as a build's line states it: "
        "DeepSpeed's 'the version torch was compiled with 11.7')",
        "构建 torch 所用的 CUDA 版本，主版本.次版本（torch.version.cuda，或构建日志行所述：DeepSpeed 的 "
        "'the version torch was compiled with 11.7'）"),
    "torch.cuda_dashed": (
        "the same version as NVIDIA's package names write it (11-7 in cuda-toolkit-11-7)",
        "同一版本按 NVIDIA 软件包名的写法（cuda-toolkit-11-7 中的 11-7）"),
    "nvcc.arch": (
        "the architecture nvcc refuses, as its line writes it (Unsupported gpu architecture 'compute_75': compute_75)",
        "nvcc 拒绝的架构，按其错误行的写法（Unsupported gpu architecture 'compute_75' 中的 compute_75）"),
    "nvcc.arch_min_cuda": (
        "the first CUDA release whose nvcc knows the architecture the line refuses (compute_75: CUDA 10.0 or later; "
        "lingjun.checks.core.gpu_arch)",
        "其 nvcc 支持该行所拒绝架构的第一个 CUDA 版本（compute_75：CUDA 10.0 或更高；lingjun.checks.core.gpu_arch）"),
    "cuda.toolkit": (
        "the CUDA release of the toolkit a build uses: as a build's line states it (DeepSpeed's 'Installed CUDA "
        "version', the versioned directory of the nvcc it runs, /usr/local/cuda-8.0/bin/nvcc), else the image's",
        "构建所用工具包的 CUDA 版本：取自构建日志行（DeepSpeed 的 'Installed CUDA version'、所运行 nvcc 的带版本号目录 "
        "/usr/local/cuda-8.0/bin/nvcc），否则取镜像的工具包"),
    "cudnn.loaded_version": (
        "the cuDNN release XLA loaded, as its line states it (Loaded runtime CuDNN library: 8.0.5)",
        "XLA 加载的 cuDNN 版本，取自其日志行（Loaded runtime CuDNN library: 8.0.5）"),
    "cudnn.compiled_version": (
        "the cuDNN release jaxlib (or TensorFlow) was built with, as XLA's line states it (source was compiled with: "
        "8.1.0)",
        "构建 jaxlib（或 TensorFlow）所用的 cuDNN 版本，取自 XLA 的日志行（source was compiled with: 8.1.0）"),
    "nvrtc.builtins_version": (
        "the release of the NVRTC builtins library the line says NVRTC failed to open (libnvrtc-builtins.so.11.3: 11.3)",
        "日志行所示 NVRTC 无法打开的 builtins 库的版本（libnvrtc-builtins.so.11.3 中的 11.3）"),
    "tensorrt.version": (
        "the TensorRT release that loads the engine, as TensorRT's line states it (expecting library version X)",
        "加载引擎的 TensorRT 版本，取自 TensorRT 的日志行（expecting library version X）"),
    "tensorrt.engine_version": (
        "the TensorRT release that built the engine, as TensorRT's line states it (got Y)",
        "构建该引擎的 TensorRT 版本，取自 TensorRT 的日志行（got Y）"),
    "tensorrt.engine_compute": (
        "the compute capability of the GPU the engine was built on, as TensorRT's line states it (got compute Y)",
        "构建该引擎所用 GPU 的计算能力，取自 TensorRT 的日志行（got compute Y）"),
    "gpu.compute_capability": (
        "the (lowest) compute capability of the GPUs, as probed or as a log line states it",
        "GPU 的（最低）计算能力，取自探测结果或日志行"),
    "nccl.socket_virtual_name": (
        "the first bridge, veth, tunnel or link-local interface NCCL's INFO lines list for its sockets (ip6tnl0)",
        "NCCL 的 INFO 行为其套接字列出的第一个网桥、veth、隧道或链路本地网卡（ip6tnl0）"),
    "nccl.socket_real_name": (
        "the first interface NCCL's INFO lines list for its sockets that is neither a bridge, a veth, a tunnel nor "
        "link-local (eno1)",
        "NCCL 的 INFO 行为其套接字列出的第一个既非网桥、veth、隧道也非链路本地的网卡（eno1）"),
}

#: ``{{name|fallback}}``: a name of :data:`VALUES` and the words said when the input does not show the value
_PLACEHOLDER = re.compile(r"\{\{([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)\|([^{}|]*)\}\}")
#: what reads as an attempt at a placeholder (``{{driver.target}}``, ``{{Driver|x}}``, ``{{ name | x }}``); a Go template
#: a command quotes (``docker inspect --format '{{.Config.Env}}'``) starts otherwise and is left as written
_ATTEMPT = re.compile(r"\{\{\s*[A-Za-z][\w.-]*\s*(?:\||\}\})")


def placeholders(text: str) -> "list[tuple[str, str]]":
    """``[(name, fallback), ...]`` of the placeholders in ``text``, in order (names not checked against
    :data:`VALUES`; :func:`malformed` counts what opens like one but is not)."""
    return [(m.group(1), m.group(2)) for m in _PLACEHOLDER.finditer(text)]


def malformed(text: str) -> int:
    """How many attempts at a placeholder in ``text`` (``{{`` then a name, then ``|`` or ``}}``) are not a well-formed
    ``{{name|fallback}}``; a Go template such as ``{{.Config.Env}}`` is none."""
    return len(_ATTEMPT.findall(text)) - len(_PLACEHOLDER.findall(text))


def fill(text: str, values: Mapping[str, str]) -> str:
    """``text`` with each placeholder replaced by its value from ``values`` (name -> the words in this language),
    or by its fallback where ``values`` lacks the name or holds an empty value."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1)) or m.group(2), text)


def fallback(text: str) -> str:
    """``text`` with every placeholder replaced by its fallback: what a page without an input says."""
    return fill(text, {})
