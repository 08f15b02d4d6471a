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
* ``The model's max seq len (4096) is larger than the maximum number of tokens that can be stored in KV cache
  (3664)`` (vLLM's V0 engine, vllm/worker/worker.py; vllm-project/vllm#2418) and ``To serve at least one request with
  the models's max seq len (202752), (71.16 GiB KV cache is needed, which is larger than the available KV cache memory
  (28.57 GiB). Based on the available memory, the estimated maximum model length is 81392.`` (its V1 engine,
  vllm/v1/core/kv_cache_utils.py: ``GB`` and no estimate in 0.8.2 to 0.8.4, ``model's`` in later releases;
  vllm-project/vllm#32105): the context the engine was asked for (``vllm.max_seq_len``), the longest the cache holds
  (``vllm.kv_cache_tokens``: the V0 capacity, or V1's estimate) and the memory one request needs and the cache has
  (``vllm.kv_cache_needed_gib``, ``vllm.kv_cache_available_gib``), which the remedies quote;
* ``NVRM: Xid (PCI:0000:3b:00): 79, pid=35521, …``: the kernel driver's Xid report in ``dmesg``
  (https://docs.nvidia.com/deploy/xid-errors/index.html); the processes its lines name are counted
  (``kernel.xid_processes``): one Xid from many processes over time points at the GPU rather than one program
  (pytorch/pytorch#51382);
* ``The quantization method fp8 is not supported for the current GPU. Minimum capability: 90. Current capability:
  86.``: vLLM's model loader refusing a quantization method (vllm-project/vllm#4327,
  #4202, #14154; the compressed-tensors form ``Min capability: 80. ', 'Current capability: 75.`` of #14040): the GPU's
  compute capability and the one the method needs, both as ``major.minor`` (``86`` is 8.6, ``100`` is 10.0);
* ``The NVIDIA driver on your system is too old (found version 11040)``: torch's CUDA initialisation, the CUDA
  version the driver supports (11.4; lllyasviel/Fooocus#1313);
* ``nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8``: the CUDA version the image requires
  (its ``NVIDIA_REQUIRE_CUDA``), which the host driver does not support (SyneRBI/PETRIC2#27);
* ``NET/Socket : Using [0]eno1:172.18.40.41<0> [1]veth25f2e72:fe80::…<0>``: the interfaces NCCL's socket transport
  uses (Oneflow-Inc/oneflow#3586); a list a log wrapped over several lines is read line by line: any
  ``[N]name:address<0>`` item that is a container bridge, a veth, a tunnel (``ip6tnl0`` with its link-local address
  in NVIDIA/nccl#529) or a link-local address, on the first line or a continuation, states
  ``nccl.socket_interfaces_virtual``, and a first line that shows the list to its end with none
  of them states ``nccl.socket_interfaces_all_real`` (the first wins where both are stated:
  :mod:`lingjun.checks.knowledge.fact_values`); the first virtual item's name and the first other one's are stated
  too (``nccl.socket_virtual_name``, ``nccl.socket_real_name``), for the remedy to exclude or name them;
* the code a failure runs through: traceback frames and error lines of FlashInfer (``…/flashinfer/….py``, its
  headers ``…/flashinfer/….cuh``, its ``…WithKVCache kernel launch failed`` messages; sgl-project/sglang#1058,
  flashinfer-ai/flashinfer#920, #1107 and #1781), FlashAttention (``…/flash_attn/…``, vLLM's build
  ``…/vllm_flash_attn/…`` and ``torch.ops._vllm_fa3_C``, ``flash_attn_2_cuda``, ``flash_fwd_launch_template.h``,
  ``FlashAttention only supports Ampere GPUs or newer``; Dao-AILab/flash-attention#762, ostris/ai-toolkit#475,
  vllm-project/vllm#23832), vLLM's own kernels (``vllm/_custom_ops.py``, ``torch.ops._C.``,
  ``torch.ops._C_cache_ops.``; vllm-project/vllm#23253, #34752) and SGLang's (``…/sgl_kernel/….py``;
  sgl-project/sglang pull request #30594), and SGLang itself (``…/sglang/srt/….py`` frames, or its launch command
  ``python -m sglang.launch_server``: the job is an SGLang server, whose out-of-memory remedies are its own;
  allenai/olmocr#50), vLLM's compiled kernel libraries by the file that fails to load (``…/vllm/_C.abi3.so:
  undefined symbol: …``; vllm-project/vllm#3147, #15010), and torch.compile's own code (frames of
  ``torch/_dynamo/``, ``torch/_functorch/`` and ``torch/_inductor/``, or the generated code in vLLM's
  ``torch_compile_cache``: the failure ran in a compiled graph; vllm-project/vllm#17456, #17295).  Triton's frames
  alone are not read as torch.compile's: vLLM's own Triton kernels (its fused MoE) run without it.  The frames of
  the engines' own backends that call a library (``backends/flashinfer.py``) are not read: a failure inside the
  library shows the library's frames below them;
* a Transformer Engine library that fails to load (``…/transformer_engine/transformer_engine_torch.cpython-310-…so:
  undefined symbol``, TE 1.x's ``transformer_engine_extensions…so``; nvidia-cosmos/cosmos-transfer2.5#84,
  NVIDIA/TransformerEngine#1684: ``log.in_transformer_engine``);
* ``WARN text_generation_launcher: Could not import Flash Attention enabled models: No module named 'vllm_cache_ops'``:
  TGI's reason for going on without its flash-attention models (server/text_generation_server/models/__init__.py): a
  kernel module missing or not loading (``tgi.kernels_missing``; also ``Flash Attention V2 is not installed``), no CUDA
  in its process (``tgi.cuda_unavailable``; TGI 0.9's ``requires CUDA. No compatible CUDA devices found``), or another
  reason, which rules both out; its capability check's ``GPU with CUDA capability 7 0 is not supported`` states the
  GPU's compute capability (huggingface/text-generation-inference#663, #686, #714);
* TensorRT's reason for refusing an engine plan, which its summary ``Engine deserialization failed`` / TensorRT-LLM's
  ``Failed to deserialize cuda engine`` does not give: another release (``Version tag does not match``, ``expecting
  library version X got Y``: ``tensorrt.engine_other_release``), another GPU (``generated on an incompatible device``:
  ``tensorrt.engine_other_gpu``), or a file that is no plan (``Magic tag does not match``, ``kPLAN_MAGIC_TAG``, ``Cannot
  deserialize with an empty memory buffer``: ``tensorrt.plan_unreadable``; lix19937/tensorrt-insight#65);
* ``No such file or directory: ':/usr/local/cuda/bin/nvcc'``: the CUDA_HOME a JIT build looked for nvcc in, a list
  of paths when it holds a colon (deepspeedai/DeepSpeed#5511, NVIDIA/apex#1700);
* ``nvcc fatal   : Unsupported gpu architecture 'compute_75'``: the architecture the build's nvcc does not know, as a
  compute capability (``nvcc.unsupported_arch``, ``7.5``), and ``error: command '/usr/local/cuda-8.0/bin/nvcc' failed``:
  the release of the toolkit whose nvcc the build runs, as its versioned directory names it (``cuda.toolkit_path``;
  erikwijmans/Pointnet2_PyTorch#91), which remedies quote beside the first release that knows the architecture;
* ``Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0``: XLA's check of the cuDNN it loaded, the
  release loaded and the one jaxlib was built with (``cudnn.loaded_version``, ``cudnn.compiled_version``;
  jax-ml/jax#6517);
* ``Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [0,0,0] Assertion `t >= 0 && t <
  n_classes` failed.``: what a CUDA kernel's failed assertion tests (``cuda.kernel_assertion``: ``class-index`` for a
  loss's class label, ``index`` for an index past a tensor's end such as index_select's ``srcIndex <
  srcSelectDimSize`` under nn.Embedding, ``probability`` for binary cross-entropy's [0, 1] input, ``other``;
  modelscope/ms-swift#3267, huggingface/transformers#28104, NVIDIA/pix2pixHD#9);
* ``File ".../site-packages/torch/nn/modules/module.py"`` or a line ``import torch``: torch runs in the process
  (``log.in_torch``), which may have loaded its own CUDA libraries first (jax-ml/jax#19004);
* ``socketStartConnect: Connect to 10.0.0.2<43615> failed : Software caused connection abort``, ``Connect to ...
  failed : Connection refused``, ``socketPollConnect: Connect to ... returned 113(No route to host) ...``: the errno of
  NCCL's failed connect to a peer, in each release's form (``nccl.connect_errno``; 111 refused, 113 no route,
  110 timed out; NVIDIA/nccl-tests#162, NVIDIA/nccl#529);
* ``include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied`` (NVIDIA/nccl#328), ``misc/shmutils.cc:132
  NCCL WARN Error while creating shared memory segment /dev/shm/nccl-WU88OE (size 9637888), error: No space left on
  device (28)`` (pytorch/ci-infra#490): the errno of NCCL's failed call on a shared-memory segment, in each release's
  form (``nccl.shm_errno``; 13 permission denied, 28 no space left, 2 no such file): a permission error is not a
  small /dev/shm;
* ``NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [2]i40iw0:1/RoCE ; OOB enp88s0:…``: the ports NCCL's IB transport
  uses and their link layer (``nccl.ib_link_layer``: ``roce`` or ``ib`` when all agree; NCCL's net_ib.cc prints
  ``IB`` for an InfiniBand port, ``RoCE`` for an Ethernet one; pytorch/pytorch#81628);
* ``Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, curr state INIT, next state RTR, local
  GID index 3, local GID ::ffff:10.0.0.1, remote GID ::ffff:10.0.0.2`` (NCCL 2.24 on; NVIDIA/nccl#2013): the GID entry
  the queue pair used, its index (``nccl.ib_gid_index``) and whether it holds an IPv4 address
  (``nccl.ib_gid_ipv4_mapped``), so a line that already shows an IPv4 GID rules out a GID without an address;
* ``root@5561000296a4:~/testsuite# nvidia-smi``: a shell prompt inside a Docker container, whose host name is the
  first 12 hexadecimal digits of the container's id (``log.docker_container_shell``; E4S-Project/e4s#172);
* ``helm install ... nvidia/gpu-operator``, ``export PATH=$PATH:/usr/local/nvidia/toolkit``, ``/run/nvidia/driver``: the
  NVIDIA GPU Operator manages the node, and keeps the toolkit and the driver in its own host paths
  (``log.gpu_operator``; containerd/nerdctl#2716);
* ``after updating to OpenShift 4.7.21``, ``rhocp-4.7`` repositories, ``OPENSHIFT_VERSION=4.7``: the cluster is
  OpenShift (``log.openshift``), whose driver builds need Red Hat's repositories or the Driver Toolkit
  (NVIDIA/gpu-operator#234, #190); ``FATAL: failed to reach RHEL package repositories``, ``Curl error (6): Couldn't
  resolve host name``, apt's ``Temporary failure resolving 'archive.ubuntu.com'``: the package repositories cannot be
  reached (``log.repos_unreachable``; NVIDIA/gpu-operator#616);
* ``NCCL INFO NCCL_GRAPH_FILE set by environment to /opt/microsoft/ncv4/graph.xml``: NCCL was handed a ready-made
  channel graph (by the environment or ``/etc/nccl.conf``, whose settings NCCL reports the same way) instead of
  searching its own (NVIDIA/nccl#1240);
* ``c++ cpu_adam.o -shared -lcurand -L.../site-packages/torch/lib -lc10 -ltorch ...``: the link command of a torch
  extension's JIT build: when none of its ``-L`` directories is one of CUDA's, it states that the linker searches
  none (``build.link_searches_cuda`` False; deepspeedai/DeepSpeed#5772, where only torch/lib was searched);
* ``PyTorch 2.1.2+cu121 with CUDA 1201 (you have 2.1.2+cpu)``: xFormers' warning that it cannot load its extensions
  names the torch it was built for and the one installed; a ``+cpu`` local version states a CPU-only torch
  (``torch.cpu_build`` True), a ``+cu…`` or ``+rocm…`` one a GPU build, any other says nothing (open-mmlab/PIA#30,
  facebookresearch/xformers#800).

* ``#error -- unsupported GNU version! gcc versions later than 12 are not supported!``: nvcc's host compiler
  check (CUDA's ``host_config.h``), the newest GCC major release the toolkit accepts (``nvcc.gcc_max``,
  quoted by remedies; NVIDIA's CUDA installation guide for Linux lists the supported compilers per release);
* ``[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in
  use).``: the port torch.distributed's store could not listen on (``c10d.store_port``, quoted by remedies;
  pytorch/pytorch#116974); ``srun torchrun ...``, ``SLURM_JOB_ID``, ``#SBATCH --ntasks-per-node=2``, ``slurmstepd:``:
  the job runs under Slurm (``log.slurm``), on nodes other jobs may share;
* ``docker: Error response from daemon: ...``: the Docker CLI's prefix for a failed ``docker run``: the container
  runs under Docker (``place``), whose remedies apply.
* ``Installed CUDA version 11.2 does not match the version torch was compiled with 11.7`` (DeepSpeed's op builder, the
  warning it accepts and the exception it raises; deepspeedai/DeepSpeed#3411, JIA-Lab-research/MGM#91) and ``The
  detected CUDA version (12.1) mismatches the version that was used to compile PyTorch (11.7)`` (torch's
  cpp_extension, also its minor-mismatch warning): the CUDA of the toolkit a build uses (``cuda.toolkit``) and torch's
  (``torch.cuda``), which :mod:`lingjun.checks.knowledge.fact_values` compares (``build.toolkit_matches_torch``);
* ``nvrtc: error: failed to open libnvrtc-builtins.so.11.3``: the release of the NVRTC that looked for its builtins
  (``nvrtc.builtins_version``, quoted by remedies; wenet-e2e/wenet#1335);
* ``CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx(... CUDA_R_16BF ...)```: the failing cuBLAS
  call's data type (``cublas.data_type``: the first ``CUDA_R_*`` its arguments name, torch's ``abcType 14`` in the
  cublasLtMatmul form, or the type a legacy name such as ``cublasSgemm`` holds) and whether it is cuBLASLt's
  (``cublas.lt_call``; opendatalab/MinerU#1508, Yasoz/DiffTraj#19);
* ``The engine plan file is not compatible with this version of TensorRT, expecting library version 8.0.0 got
  8.0.1``: the TensorRT loading the engine and the one that built it (``tensorrt.version``,
  ``tensorrt.engine_version``; NVIDIA/retinanet-examples#314), and ``generated on an incompatible device, expecting
  compute 8.6 got compute 7.5``: this GPU's compute capability and the engine's (``gpu.compute_capability``,
  ``tensorrt.engine_compute``; NVIDIA/TensorRT#2176).

That a log comes from ``kubectl logs --prefix`` (``[pod/NAME/CONTAINER] …``) is read by
:mod:`lingjun.checks.inputs.log_file` from its first line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Optional

__all__ = ["Statement", "STATEMENTS", "VIRTUAL_PREFIXES", "virtual_interface"]


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
    pid = [("kernel.xid_pid", m.group(2))] if m.group(2) and m.group(2) != "0" else []
    return [("kernel.xid", int(m.group(1))), *pid]


def _capability(digits: str) -> Optional[str]:
    """``86`` -> ``8.6``, ``100`` -> ``10.0`` (vLLM prints a capability as major * 10 + minor); None out of range."""
    number = int(digits)
    return f"{number // 10}.{number % 10}" if 30 <= number <= 199 else None


def _quantization(m: "re.Match[str]") -> list[tuple[str, Any]]:
    needed, current = _capability(m.group("min")), _capability(m.group("cur"))
    out: list[tuple[str, Any]] = []
    if m.group("method"):
        out.append(("quantization.method", m.group("method")))
    if needed:
        out.append(("quantization.min_capability", needed))
    if current:
        out.append(("gpu.compute_capability", current))
    return out


def _kv_cache_tokens(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("vllm.max_seq_len", int(m.group(1))), ("vllm.kv_cache_tokens", int(m.group(2)))]


def _gib(text: str) -> str:
    """A size as vLLM printed it, with two decimals (its first V1 releases printed the whole float)."""
    return f"{float(text):.2f}"


def _kv_cache_memory(m: "re.Match[str]") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [("vllm.max_seq_len", int(m.group("len"))),
                                  ("vllm.kv_cache_needed_gib", _gib(m.group("need"))),
                                  ("vllm.kv_cache_available_gib", _gib(m.group("have")))]
    if m.group("est") and int(m.group("est")) > 0:
        out.append(("vllm.kv_cache_tokens", int(m.group("est"))))
    return out


def _cuda_required(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("cuda.required", m.group(1))]


#: interface names of container and VM networking: Docker's default and user-defined bridges, the veth pairs of
#: containers, libvirt's bridge, CNI/flannel/Calico/VXLAN/IP-in-IP devices, and the kernel's tunnel devices
#: (``ip6tnl0``, the IPv6-in-IPv6 tunnel NCCL picked in NVIDIA/nccl#529; ``sit0``, ``gre0``/``gretap0``/``ip6gre0``,
#: ``ipip0``, ``ip_vti0``/``ip6_vti0``, ``tun0``/``tunl0``): none is the network between the nodes, and the
#: ``NCCL_SOCKET_IFNAME`` default excludes only ``docker*`` and ``lo``
VIRTUAL_PREFIXES = ("docker", "br-", "veth", "virbr", "cni", "flannel", "cali", "vxlan", "tunl", "weave", "kube-",
                    "ip6tnl", "tun", "sit", "gre", "ip6gre", "ipip", "ip_vti", "ip6_vti")

#: one item of NCCL's interface list: ``[1]veth25f2e72:fe80::380d:bfff:fe5b:54d2%veth25f2e72<0>`` (name, address,
#: port); a line a log wrapped may end inside an item (no ``<port>``)
_ITEM = re.compile(r"\[(\d{1,2})\]([A-Za-z][\w.@-]{0,31})(?::([^\s<]{0,80}))?(<\d{1,5}>)?")


def virtual_interface(name: str, address: str = "") -> bool:
    """Whether an interface NCCL lists is a container bridge, a veth or a tunnel (by name) or has only a link-local
    address (``fe80::/10``, ``169.254.0.0/16``): neither reaches another node."""
    low = address.lower()
    return name.startswith(VIRTUAL_PREFIXES) or low.startswith(("fe8", "fe9", "fea", "feb", "169.254."))


def _socket_list(m: "re.Match[str]") -> list[tuple[str, Any]]:
    text = m.group(1)
    items = list(_ITEM.finditer(text))
    if not items:
        return []
    out: list[tuple[str, Any]] = [("nccl.socket_interfaces", [i.group(2) for i in items])]
    if any(virtual_interface(i.group(2), i.group(3) or "") for i in items):
        out.append(("nccl.socket_interfaces_virtual", True))
    elif items[-1].group(4) and not text[items[-1].end():].strip():
        # the list ends on this line with none of them virtual; a continuation line a log wrapped may still name
        # one (``nccl.socket_interfaces_virtual``, which then wins: fact_values)
        out.append(("nccl.socket_interfaces_all_real", True))
    return out


def _socket_items(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The whole items of a line (``[N]name:address<port>``): whether one is virtual, and the first virtual one's and
    the first other one's names (``nccl.socket_virtual_name``, ``nccl.socket_real_name``: what a remedy excludes or
    names in NCCL_SOCKET_IFNAME). A part of a list shows nothing about the rest."""
    items = [(i.group(2), i.group(3) or "") for i in _ITEM.finditer(m.string) if i.group(4)]
    virtual = [name for name, address in items if virtual_interface(name, address)]
    real = [name for name, address in items if not virtual_interface(name, address)]
    out: list[tuple[str, Any]] = [("nccl.socket_interfaces_virtual", True), ("nccl.socket_virtual_name", virtual[0])] \
        if virtual else []
    return out + ([("nccl.socket_real_name", real[0])] if real else [])


def _bootstrap_virtual(m: "re.Match[str]") -> list[tuple[str, Any]]:
    if virtual_interface(m.group(1), m.group(2)):
        return [("nccl.socket_interfaces_virtual", True), ("nccl.socket_virtual_name", m.group(1))]
    return []  # a real one is nccl.bootstrap_interface already


#: glibc's strerror text of the errnos NCCL's failed connects print -> the errno
_CONNECT_ERRNOS = {"connection refused": 111, "no route to host": 113, "connection timed out": 110,
                   "network is unreachable": 101, "software caused connection abort": 103,
                   "connection reset by peer": 104, "cannot assign requested address": 99}
#: NCCL's failed connect to a peer, every release's form (misc/socket.cc, include/socket.h, os/linux.cc): the errno
#: as a number (``returned 113(No route to host)``), as strerror's text (``failed : Connection refused``,
#: ``returned Connection refused, exceeded``), or as the retries that ran out (``exceeded timeouts`` is 110,
#: ``exceeded retries`` the refused ones, 111)
_CONNECT = re.compile(
    r"(?:NCCL WARN |Net : |Connect: )[Cc]onnect to \S{1,300} (?:failed : (?P<text>[A-Za-z][a-z ]{2,40})|returned "
    r"(?:(?P<number>\d{1,3})\(|(?P<again>[A-Za-z][a-z ]{2,40}), exceeded))"
    r"|socket(?:Start|Poll)Connect: (?:connect returned (?P<returned>[A-Za-z][a-z ]{2,40}), exceeded|exceeded "
    r"(?P<retries>timeouts|retries) \()"
    r"|WARN Call to connect failed : (?P<old>[A-Za-z][a-z ]{2,40})")


def _connect_errno(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """``nccl.connect_errno``: the errno of NCCL's failed connect, where the line shows one of those it names."""
    if m.group("number"):
        return [("nccl.connect_errno", int(m.group("number")))]
    if m.group("retries"):
        return [("nccl.connect_errno", 110 if m.group("retries") == "timeouts" else 111)]
    text = next((t for t in (m.group("text"), m.group("again"), m.group("returned"), m.group("old")) if t), "")
    number = _CONNECT_ERRNOS.get(text.strip().lower())
    return [("nccl.connect_errno", number)] if number else []


#: glibc's strerror text of the errnos NCCL's failed shared-memory calls print -> the errno
_SHM_ERRNOS = {"permission denied": 13, "operation not permitted": 1, "read-only file system": 30,
               "no space left on device": 28, "no such file or directory": 2, "cannot allocate memory": 12,
               "too many open files": 24, "file exists": 17, "invalid argument": 22}
#: NCCL's failed system call on a shared-memory segment through its SYSCHECK macros: ``include/shm.h:27 NCCL WARN Call to
#: shm_open failed : Permission denied`` (2.4 to 2.11: shm_open, posix_fallocate, mmap), ``misc/shmutils.cc:93 NCCL WARN
#: Call to open failed: No such file or directory`` (open: 2.12, 2.23 on, 2.30's os/linux.cc); a bare ``open`` or
#: ``mmap`` is read only where the file is one of the segment code's. NCCL 2.3 wrote ``shm_open failed to open NAME :
#: TEXT``; 2.21 and 2.22 report the failed open only in SYSCHECKGOTO's INFO line, ``misc/shmutils.cc:68 -> 2 (TEXT)``
_SHM_CALL = re.compile(
    r"(?:(?P<file>(?:include/)?shm\.h|shmutils\.cc|shm\.cc|os/linux\.cc):\d{1,7} (?:\([\w:~<>, ]{0,120}\) )?NCCL WARN )?"
    r"(?:Call to (?P<call>shm_open|posix_fallocate|open|mmap) failed ?|shm_open failed to open \S{1,300} ): "
    r"(?P<text>[A-Za-z][a-zA-Z -]{2,40})"
    r"|(?P<info>shmutils\.cc):\d{1,7} -> \d{1,3} \((?P<infotext>[A-Za-z][a-zA-Z -]{2,40})\)")
#: the segment code's own warnings with the errno (2.19 on: ``Could not map %s size %zi, error: %s``; 2.22 on: ``Error
#: while creating shared memory segment %s (size %ld), error: %s (%d)``, ``failed to extend %s to %ld bytes, error: %s
#: (%d)``, ``failed to create shared memory file %s, error %s (%d)``; misc/shmutils.cc, 2.30's os/linux.cc)
_SHM_ERROR = re.compile(
    r"(?:failed to create shared memory file \S{1,300}, error|failed to extend \S{1,300} to \d{1,20} bytes, error:"
    r"|Could not map \S{1,300} size \d{1,20}, error:|shared memory segment \S{0,300} \(size \d{1,20}\), error:) "
    r"(?P<text>[A-Za-z][a-zA-Z -]{1,40}?) ?(?:\((?P<number>\d{1,4})\)|$)")


def _shm_errno(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """``nccl.shm_errno``: the errno of NCCL's failed call on a shared-memory segment, by the number the line prints or
    strerror's text; none for a bare ``open``/``mmap`` of a file that is not the segment code's."""
    groups = m.groupdict()
    if groups.get("call") in ("open", "mmap") and not groups.get("file"):
        return []
    if groups.get("number"):
        return [("nccl.shm_errno", int(groups["number"]))]
    number = _SHM_ERRNOS.get((groups.get("text") or groups.get("infotext") or "").strip().lower())
    return [("nccl.shm_errno", number)] if number else []


def _ib_link_layer(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The link layer of the ports NCCL's IB transport uses (``[0]mlx5_0:1/RoCE``, ``[1]ibp1:1/IB/SHARP``, merged
    devices ``[0]={[0] mlx5_0:1/RoCE, [1] mlx5_1:1/RoCE}``): ``roce`` or ``ib`` when every port has that one, nothing
    for a mixed list (NCCL refuses to connect those anyway) or one without ports."""
    layers = set(re.findall(r":\d{1,3}/(IB|RoCE)\b", m.group(1)))
    return [("nccl.ib_link_layer", layers.pop().lower())] if len(layers) == 1 else []


def _qp_gid(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The GID entry a failed ``ibv_modify_qp`` used (NCCL 2.24 on: ``local GID index 3, local GID ::ffff:10.0.0.1``):
    its index (``nccl.ib_gid_index``; NCCL prints -1 where the QP has no global route, as on InfiniBand) and whether
    the local GID is an IPv4-mapped address (``nccl.ib_gid_ipv4_mapped``: True for ``::ffff:``, the entry of an IPv4
    address; False for another address such as a link-local ``fe80::``; nothing for ``N/A``)."""
    out: list[tuple[str, Any]] = []
    index = int(m.group(1))
    if 0 <= index <= 1024:
        out.append(("nccl.ib_gid_index", index))
    gid = m.group(2).lower()
    if gid.startswith("::ffff:"):
        out.append(("nccl.ib_gid_ipv4_mapped", True))
    elif ":" in gid:
        out.append(("nccl.ib_gid_ipv4_mapped", False))
    return out


def _in(fact: str) -> Callable[["re.Match[str]"], list[tuple[str, Any]]]:
    def value(m: "re.Match[str]") -> list[tuple[str, Any]]:
        return [(fact, True)]

    return value


def _nvcc_path(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("cuda.home_is_path_list", ":" in m.group(1))]


def _unsupported_arch(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The architecture nvcc refuses (``compute_75``), as a compute capability (``7.5``)."""
    digits = m.group(1)
    return [("nvcc.unsupported_arch", f"{int(digits[:-1])}.{digits[-1]}")]


def _toolkit_path(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The CUDA release a versioned toolkit directory names (``/usr/local/cuda-8.0/bin/nvcc``: ``8.0``)."""
    return [("cuda.toolkit_path", m.group(1))]


def _cudnn_versions(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("cudnn.loaded_version", m.group(1)), ("cudnn.compiled_version", m.group(2))]


#: what a CUDA kernel's failed assertion tests, by the condition torch's kernels write (ATen's and THCUNN's): a class
#: label (the NLL and cross-entropy losses), an index into a tensor (index_select under nn.Embedding, indexing,
#: scatter/gather, index_add), the [0, 1] range of binary cross-entropy's input
_ASSERTION_KINDS = (
    ("class-index", re.compile(r"\bn_classes\b")),
    ("index", re.compile(r"index out of bounds|\bsrcIndex < srcSelectDimSize\b|\bdstIndex < dstAddDimSize\b|"
                         r"\bidx_dim >= 0 && idx_dim < index_size\b")),
    ("probability", re.compile(r"\binput(?:_val)? >= (?:zero|0\.) && \*?input(?:_val)? <= (?:one|1\.)")),
)


def _kernel_assertion(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The kind of condition a CUDA kernel's failed assertion quotes (``Assertion `t >= 0 && t < n_classes` failed``):
    one of :data:`_ASSERTION_KINDS`, or ``other`` for a condition none of them names."""
    condition = m.group(1)
    return [("cuda.kernel_assertion", next((kind for kind, test in _ASSERTION_KINDS if test.search(condition)),
                                           "other"))]


def _toolkit_and_torch(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The CUDA of the toolkit a build uses (nvcc's) and, where the line gives it, the CUDA torch was built with."""
    out: list[tuple[str, Any]] = [("cuda.toolkit", m.group(1))]
    return out + [("torch.cuda", m.group(2))] if m.group(2) else out


#: cuBLAS's data types as torch prints them in the failing call (``CUDA_R_16BF``), and the type a legacy call's name
#: holds (``cublasSgemm``: float32)
_CUBLAS_TYPES = (("CUDA_R_16BF", "bf16"), ("CUDA_R_8F_", "fp8"), ("CUDA_R_16F", "fp16"), ("CUDA_R_32F", "fp32"),
                 ("CUDA_R_64F", "fp64"))
_CUBLAS_LEGACY = re.compile(r"^cublas(?:([SDH])gemm|([SD])gemv)")
#: ``cudaDataType_t`` numbers (library_types.h) of the types :data:`_CUBLAS_TYPES` names, as torch prints abcType
_CUDA_DATA_TYPES = {0: "fp32", 1: "fp64", 2: "fp16", 14: "bf16", 28: "fp8", 29: "fp8"}
_CUBLAS_ABC_TYPE = re.compile(r"\babcType (\d{1,3})\b")


def _cublas_call(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The call's API (cuBLASLt's ``cublasLt...`` or cuBLAS's) and the data type of its matrices: the first of
    :data:`_CUBLAS_TYPES` its arguments name (a bf16 GEMM names CUDA_R_16BF for A, B and C, then a 32-bit compute
    type), else the one its name holds; none when neither shows it (``cublasLtMatmul(...)`` names descriptors only)."""
    name, args = m.group(1), m.group(2)
    out: list[tuple[str, Any]] = [("cublas.lt_call", name.startswith("cublasLt"))]
    found = [(args.find(token), word) for token, word in _CUBLAS_TYPES if token in args]
    if found:
        out.append(("cublas.data_type", min(found)[1]))
        return out
    numbered = _CUBLAS_ABC_TYPE.search(args)  # torch's cublasLtMatmul form: "... abcType 14 computeType 68 ..."
    if numbered:
        word = _CUDA_DATA_TYPES.get(int(numbered.group(1)))
        return out + [("cublas.data_type", word)] if word else out
    legacy = _CUBLAS_LEGACY.match(name)
    if legacy:
        letter = legacy.group(1) or legacy.group(2)
        out.append(("cublas.data_type", {"S": "fp32", "D": "fp64", "H": "fp16"}[letter]))
    return out


#: a directory of CUDA's libraries as a link line names it: the toolkit's (``/usr/local/cuda-12.4/lib64``,
#: ``$CUDA_HOME/lib``, ``targets/x86_64-linux/lib``) or a wheel's (``site-packages/nvidia/curand/lib``)
_CUDA_LIB_DIR = re.compile(r"cuda[^/\s]{0,20}/(?:targets/[^/\s]{1,40}/)?lib(?:64)?/?$|/nvidia/[^/\s]{1,40}/lib/?$|/stubs/?$")


def _link_dirs(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """A torch extension's link command (``c++ x.o -shared -lcurand -L.../torch/lib -lc10 ...``) whose ``-L``
    directories include none of CUDA's states that it searches none (False). A directory that looks like one states
    nothing: CUDA_HOME's ``lib64`` may still lack the library (a conda environment's)."""
    dirs = re.findall(r"(?:^|\s)-L\s?(\S{1,400})", m.group(0))
    return [] if any(_CUDA_LIB_DIR.search(d) for d in dirs) else [("build.link_searches_cuda", False)]


def _torch_installed(m: "re.Match[str]") -> list[tuple[str, Any]]:
    local = m.group(1).partition("+")[2]
    if local == "cpu":
        return [("torch.cpu_build", True)]
    if local.startswith(("cu", "rocm")):
        return [("torch.cpu_build", False)]
    return []


def _tgi_flash_import(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """Why TGI's flash-attention models did not import, as its warning gives the exception: a kernel module missing or
    not loading (``No module named 'vllm_cache_ops'``, ``Flash Attention V2 is not installed``), no CUDA device, or
    another reason (the GPU's capability, USE_FLASH_ATTENTION=false), which rules both out."""
    reason = m.group(1)
    missing = bool(re.match(r"(?:No module named|cannot import name|Could not import|Flash Attention (?:V2 )?is not "
                            r"installed)|.{0,300}\.so: (?:undefined symbol|cannot open shared object file)", reason))
    unavailable = reason.startswith("CUDA is not available")
    return [("tgi.kernels_missing", missing), ("tgi.cuda_unavailable", unavailable)]


def _tgi_kernels_missing(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("tgi.kernels_missing", True), ("tgi.cuda_unavailable", False)]


def _tgi_cuda_unavailable(m: "re.Match[str]") -> list[tuple[str, Any]]:
    return [("tgi.cuda_unavailable", True), ("tgi.kernels_missing", False)]


def _gpu_refused(m: "re.Match[str]") -> list[tuple[str, Any]]:
    """The GPU a flash-attention capability check refused (TGI's and flash-attn 1's ``GPU with CUDA capability 7 0 is
    not supported``): its compute capability."""
    return [("gpu.compute_capability", f"{int(m.group(1))}.{m.group(2)}")]


def _code(literal: str, fact: str, regex: Optional[str] = None) -> "Statement":
    """A statement that a line holding ``literal`` (and matching ``regex``) shows ``fact``'s library in the failure."""
    return Statement(literal, re.compile(regex or re.escape(literal)), _in(fact))


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
    # vLLM refusing a max_model_len the KV cache cannot hold (vllm/worker/worker.py; vllm/v1/core/kv_cache_utils.py)
    Statement("is larger than the maximum number of tokens that can be stored in KV cache", re.compile(
        r"max seq len \((\d{1,9})\) is larger than the maximum number of tokens that can be stored in KV cache "
        r"\((\d{1,9})\)"), _kv_cache_tokens),
    Statement("needed, which is larger than the available KV", re.compile(
        r"max seq len \((?P<len>\d{1,9})\), \(?(?P<need>\d{1,6}(?:\.\d{1,20})?) Gi?B KV cache is ?needed, which is "
        r"larger than the available KV [Cc]ache memory \((?P<have>\d{1,6}(?:\.\d{1,20})?) Gi?B\)\.?"
        r"(?: ?Based on the available memory, the estimated maximum model length is (?P<est>\d{1,9}))?"), _kv_cache_memory),
    # the code torch.compile runs: Dynamo, AOTAutograd and Inductor's frames, vLLM's compile cache of generated code
    _code("torch/_inductor/", "log.in_torch_compile", r"torch/_inductor/[\w./-]{0,200}\.py\b"),
    _code("torch/_dynamo/", "log.in_torch_compile", r"torch/_dynamo/[\w./-]{0,200}\.py\b"),
    _code("torch/_functorch/", "log.in_torch_compile", r"torch/_functorch/[\w./-]{0,200}\.py\b"),
    _code("/torch_compile_cache/", "log.in_torch_compile", r"/torch_compile_cache/[\w./-]{0,300}\.py\b"),
    # vLLM's own compiled kernels, named by the library that fails to load (vllm/_C.abi3.so, vllm/_moe_C.abi3.so)
    _code("/vllm/_", "log.in_vllm_kernels", r"/vllm/_[a-z_]{0,20}C[\w.-]{0,60}\.so\b"),
    Statement("Bootstrap : Using ", re.compile(r"NCCL INFO Bootstrap ?: Using ([A-Za-z][\w.-]{0,30})[:<]"), _bootstrap),
    Statement("NVRM: Xid", re.compile(r"NVRM: Xid \([^)]{0,40}\): (\d{1,3})\b(?:, pid=(\d{1,10})\b)?"), _xid),
    # NCCL's failed call on a shared-memory segment: the errno it printed (Permission denied is not a full /dev/shm)
    *(Statement(literal, _SHM_CALL, _shm_errno) for literal in (
        "Call to shm_open failed", "Call to posix_fallocate failed", "Call to open failed", "Call to mmap failed",
        "shm_open failed to open", "shmutils.cc:")),
    *(Statement(literal, _SHM_ERROR, _shm_errno) for literal in (
        "failed to create shared memory file", "failed to extend", "Could not map", "shared memory segment")),
    Statement("Current capability: ", re.compile(
        r"(?:quantization method (?P<method>[\w-]{1,40}) is not supported for the current GPU\. )?"
        r"Min(?:imum)? capability: (?P<min>\d{2,3})\.?[\s',]{0,8}Current capability: (?P<cur>\d{2,3})\b"), _quantization),
    Statement("too old (found version ", re.compile(r"driver on your system is too old \(found version (\d{4,5})\)"),
              _driver_cuda),
    Statement("unsatisfied condition: cuda>=", re.compile(r"requirement error: unsatisfied condition: cuda>=(\d{1,2}\.\d{1,2})\b"),
              _cuda_required),
    Statement("NET/Socket : Using ", re.compile(r"NET/Socket ?: Using (\[.{0,8000})"), _socket_list),
    Statement("<0>", re.compile(r"\[\d{1,2}\][A-Za-z][\w.@-]{0,31}:[^\s<]{1,80}<0>"), _socket_items),
    Statement("Bootstrap : Using ", re.compile(r"NCCL INFO Bootstrap ?: Using ([A-Za-z][\w.@-]{0,31}):([^\s<]{1,80})<\d"),
              _bootstrap_virtual),
    # NCCL's failed connect to a peer: the errno it printed (the literals of nccl-socket-connect-failed's forms)
    *(Statement(literal, _CONNECT, _connect_errno) for literal in (
        "Connect to", "connect to", "connect returned", "Connect: exceeded", "Call to connect failed")),
    # NET/IB (and NCCL's IBext plugin, NET/IBext): "Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB eth0:..."
    Statement("NET/IB", re.compile(r"NET/IB\w{0,10} ?: ?Using ((?:\[\d{1,2}\]|\s).{0,4000})"), _ib_link_layer),
    # the GID entry a failed ibv_modify_qp used, as NCCL 2.24 on prints it (misc/ibvwrap.cc): "..., local GID index 3,
    # local GID ::ffff:10.0.0.1, remote GID ::ffff:10.0.0.2" (NVIDIA/nccl#2013)
    Statement("local GID index", re.compile(r"local GID index (-?\d{1,5}), local GID ([^\s,]{2,60})(?:,|$)"), _qp_gid),
    # a shell prompt whose host name is a Docker container's id (Docker names a container's host after the first 12
    # hexadecimal digits of its id): the commands after it ran inside a container (E4S-Project/e4s#172)
    Statement("root@", re.compile(r"^(?:\([\w.-]{1,40}\) )?root@[0-9a-f]{12}:\S{0,400}[#$](?:\s|$)"),
              _in("log.docker_container_shell")),
    # the NVIDIA GPU Operator on the node: its name or namespace (gpu-operator), or where it puts the toolkit and the
    # driver on the host (/usr/local/nvidia/toolkit, /run/nvidia/driver; containerd/nerdctl#2716)
    _code("gpu-operator", "log.gpu_operator", r"(?<![\w-])gpu-operator(?![\w-])"),
    _code("/usr/local/nvidia/toolkit", "log.gpu_operator", r"/usr/local/nvidia/toolkit\b"),
    _code("/run/nvidia/driver", "log.gpu_operator", r"/run/nvidia/driver\b"),
    # OpenShift: its name, the rhocp repositories and the OPENSHIFT_VERSION the GPU Operator's driver container reads
    # (NVIDIA/gpu-operator#234, #190)
    _code("OpenShift", "log.openshift", r"\bOpenShift\b"),
    _code("rhocp-", "log.openshift", r"\brhocp-\d"),
    _code("OPENSHIFT_VERSION", "log.openshift", r"\bOPENSHIFT_VERSION\b"),
    # package repositories or a download host that cannot be reached: the GPU Operator's driver container's own FATAL
    # line (NVIDIA/gpu-operator#616), dnf's and curl's name lookups, apt's
    _code("failed to reach RHEL package repositories", "log.repos_unreachable"),
    _code("resolve host", "log.repos_unreachable", r"\b(?:Could not|Couldn't) resolve host\b"),
    _code("Temporary failure resolving", "log.repos_unreachable", r"\bTemporary failure resolving '"),
    _code("/flashinfer/", "log.in_flashinfer", r"/flashinfer/[\w./+-]{0,200}\.(?:py|cuh|cu|h|so)\b"),
    _code("WithKVCache kernel launch failed", "log.in_flashinfer"),
    _code("/flash_attn/", "log.in_flash_attn", r"/flash_attn/[\w./-]{0,200}\.(?:py|so)\b"),
    _code("/vllm_flash_attn/", "log.in_flash_attn"),
    _code("torch.ops._vllm_fa", "log.in_flash_attn"),
    _code("flash_attn_2_cuda", "log.in_flash_attn"),
    _code("flash_fwd_launch_template", "log.in_flash_attn"),
    _code("FlashAttention only supports Ampere GPUs or newer", "log.in_flash_attn"),
    _code("vllm/_custom_ops.py", "log.in_vllm_kernels"),
    _code("torch.ops._C.", "log.in_vllm_kernels"),
    _code("torch.ops._C_cache_ops.", "log.in_vllm_kernels"),
    _code("/sgl_kernel/", "log.in_sgl_kernel", r"/sgl_kernel/[\w./-]{0,200}\.(?:py|so)\b"),
    _code("/sglang/srt/", "log.in_sglang", r"/sglang/srt/[\w./-]{0,200}\.py\b"),
    # the server's own launch command or module (python -m sglang.launch_server): the job is an SGLang server
    _code("sglang.launch_server", "log.in_sglang", r"\bsglang\.launch_server\b"),
    # Transformer Engine's compiled libraries, named by the file that fails to load (transformer_engine/
    # transformer_engine_torch.cpython-310-...so, TE 1.x's transformer_engine_extensions...so, libtransformer_engine.so)
    _code("transformer_engine", "log.in_transformer_engine", r"transformer_engine[\w./-]{0,200}\.so\b"),
    # TGI's warning that its flash-attention models did not import, and why (models/__init__.py), the kernels its own
    # build names (vllm_cache_ops), and the GPU its capability check refused (GPU with CUDA capability 7 0)
    Statement("Could not import Flash Attention enabled models: ", re.compile(
        r"Could not import Flash Attention enabled models: (.{1,300})"), _tgi_flash_import),
    Statement("Flash Attention V2 is not installed", re.compile(r"\bFlash Attention V2 is not installed\b"),
              _tgi_kernels_missing),
    Statement("Flash Attention is not installed", re.compile(r"\bFlash Attention is not installed\b"),
              _tgi_kernels_missing),
    Statement("No module named 'vllm_", re.compile(r"No module named '(?:vllm_cache_ops|vllm_attention_ops)'"),
              _tgi_kernels_missing),
    Statement("GPU with CUDA capability ", re.compile(r"\bGPU with CUDA capability (\d{1,2}) (\d) is not supported\b"),
              _gpu_refused),
    Statement("requires CUDA. No compatible CUDA devices found", re.compile(
        r"requires CUDA\. No compatible CUDA devices found"), _tgi_cuda_unavailable),
    # TensorRT's reason for refusing an engine plan: built by another release, on another GPU, or not a plan at all
    Statement("The engine plan file is not compatible with this version of", re.compile(
        r"The engine plan file is not compatible with this version of (?:TensorRT|GIE)\b"),
              _in("tensorrt.engine_other_release")),
    Statement("Version tag does not match", re.compile(r"\bVersion tag does not match\b"),
              _in("tensorrt.engine_other_release")),
    # TensorRT 10's form cut before its Note (IRuntime::deserializeCudaEngine: ... stdVersionRead == kSERIALIZATION_VERSION)
    Statement("VersionRead ==", re.compile(r"\b(?:std|safe)VersionRead ?== ?\w{1,40} failed"),
              _in("tensorrt.engine_other_release")),
    Statement("The engine plan file is generated on an incompatible device", re.compile(
        r"The engine plan file is generated on an incompatible device\b"), _in("tensorrt.engine_other_gpu")),
    Statement("Magic tag does not match", re.compile(r"\bMagic tag does not match\b"), _in("tensorrt.plan_unreadable")),
    Statement("kPLAN_MAGIC_TAG", re.compile(r"magicTag ?== ?rt::kPLAN_MAGIC_TAG"), _in("tensorrt.plan_unreadable")),
    Statement("Cannot deserialize with an empty memory buffer", re.compile(
        r"Cannot deserialize with an empty memory buffer"), _in("tensorrt.plan_unreadable")),
    Statement("bin/nvcc'", re.compile(r"No such file or directory: '([^'\s]{0,300})/bin/nvcc'"), _nvcc_path),
    # the architecture nvcc refuses, and the CUDA release of the toolkit a build's nvcc path names
    Statement("Unsupported gpu architecture 'compute_", re.compile(r"Unsupported gpu architecture 'compute_(\d{2,3})[af]?'"),
              _unsupported_arch),
    Statement("/bin/nvcc", re.compile(r"/cuda-(\d{1,2}\.\d{1,2})/bin/nvcc\b"), _toolkit_path),
    # XLA's check of the cuDNN it loaded: the release loaded and the one jaxlib (or TensorFlow) was built with
    Statement("Loaded runtime CuDNN library:", re.compile(
        r"Loaded runtime CuDNN library: (\d{1,2}\.\d{1,2}\.\d{1,3}) but source was compiled with: "
        r"(\d{1,2}\.\d{1,2}\.\d{1,3})"), _cudnn_versions),
    # a CUDA kernel's failed assertion as the device prints it (FILE.cu:N: KERNEL: block: [x,y,z], thread: [x,y,z]
    # Assertion `COND` failed.): what its condition tests
    Statement("], thread: [", re.compile(
        r"block: \[\d{1,6}, ?\d{1,6}, ?\d{1,6}\], thread: \[\d{1,6}, ?\d{1,6}, ?\d{1,6}\] Assertion [`']?"
        r"(.{1,300}?)[`']? failed"), _kernel_assertion),
    # torch in the process: its frames in a traceback, or its import
    _code("-packages/torch/", "log.in_torch", r"-packages/torch/[\w./-]{0,200}\.py\b"),
    _code("import torch", "log.in_torch", r"^\s{0,12}(?:>>> )?import torch\b"),
    # the CUDA of the toolkit a JIT build uses beside torch's: DeepSpeed's op builder (the warning it accepts, and the
    # exception it raises), torch's cpp_extension (a major mismatch, or the warning of a minor one)
    Statement("does not match the version torch was compiled with", re.compile(
        r"Installed CUDA version (\d{1,2}\.\d{1,2}) does not match the version torch was compiled with "
        r"(\d{1,2}\.\d{1,2})"), _toolkit_and_torch),
    Statement("The detected CUDA version (", re.compile(
        r"The detected CUDA version \((\d{1,2}\.\d{1,2})\) (?:mismatches|has a minor version mismatch with) the "
        r"version that was used to compile(?: PyTorch \((\d{1,2}\.\d{1,2})\))?"), _toolkit_and_torch),
    # what NVRTC looked for: the builtins library of its own release (libnvrtc-builtins.so.11.3)
    Statement("failed to open libnvrtc-builtins", re.compile(
        r"failed to open libnvrtc-builtins(?:\.alt)?\.so\.(\d{1,2}\.\d{1,2})\b"),
              lambda m: [("nvrtc.builtins_version", m.group(1))]),
    # the data type and the API of a cuBLAS call torch reports as not supported (CUDA_R_16BF: a bf16 GEMM)
    Statement("CUBLAS_STATUS_NOT_SUPPORTED when calling", re.compile(
        r"CUBLAS_STATUS_NOT_SUPPORTED when calling `?(cublas\w{1,40})(?:\s?\(| with )(.{0,600})"), _cublas_call),
    # TensorRT refusing an engine plan: the release that loads it and the one that built it, or the GPUs'
    Statement("The engine plan file is not compatible with this version of", re.compile(
        r"not compatible with this version of TensorRT, expecting library version (\d{1,2}(?:\.\d{1,4}){1,3}) got "
        r"(\d{1,2}(?:\.\d{1,4}){1,3})"),
              lambda m: [("tensorrt.version", m.group(1)), ("tensorrt.engine_version", m.group(2))]),
    Statement("The engine plan file is generated on an incompatible device", re.compile(
        r"generated on an incompatible device, expecting compute (\d{1,2}\.\d) got compute (\d{1,2}\.\d)\b"),
              lambda m: [("gpu.compute_capability", m.group(1)), ("tensorrt.engine_compute", m.group(2))]),
    _code("NCCL_GRAPH_FILE set by environment to", "nccl.graph_file_set", r"NCCL_GRAPH_FILE set by environment to \S"),
    Statement(" -lc10 ", re.compile(r"\s-shared\s.{0,4000}?\s-lc10\s.{0,2000}"), _link_dirs),
    Statement("(you have ", re.compile(r"PyTorch \d[\w.+]{0,40} with CUDA \d{3,5} \(you have (\d[\w.+]{0,40})\)"),
              _torch_installed),
    Statement("unsupported GNU version!", re.compile(r"unsupported GNU version! gcc versions later than (\d{1,2}) are not "
                                                     r"supported"), lambda m: [("nvcc.gcc_max", m.group(1))]),
    # the port torch.distributed's store could not listen on (c10d's socket.cpp: "failed to bind to [::]:29500 (errno:
    # 98 ...", its 2.x exception "... any local network address. port: 29500, useIpv6: 0, code: -98"), which the
    # remedies quote; and a job Slurm runs (its SLURM_* variables, srun, sbatch, slurmstepd), whose node other jobs share
    Statement("The server socket has failed to", re.compile(
        r"The server socket has failed to (?:bind to|listen on) (?:\[[0-9A-Fa-f:.]{1,45}\]|\d{1,3}(?:\.\d{1,3}){3}):"
        r"(\d{1,5}) \(errno|failed to listen on any local network address\. port: (\d{1,5}),"),
              lambda m: [("c10d.store_port", int(m.group(1) or m.group(2)))]),
    _code("SLURM_", "log.slurm", r"\bSLURM_(?:JOB_?ID|NODELIST|JOB_NODELIST|NTASKS|NNODES|PROCID|LOCALID|STEP_ID|"
          r"TASKS_PER_NODE|NTASKS_PER_NODE|CPUS_ON_NODE|SUBMIT_DIR|CLUSTER_NAME|GPUS_ON_NODE)\b"),
    _code("srun", "log.slurm", r"(?:^|[\s;|&(`$])srun\s{1,4}(?:-|torchrun\b|python)"),
    _code("#SBATCH", "log.slurm", r"^\s{0,8}#SBATCH\s{1,4}-"),
    _code("slurmstepd", "log.slurm", r"\bslurmstepd(?:-\w{1,20})?: "),
    # the Docker CLI's own prefix: the container was started with docker run (a pod's events never print it)
    Statement("docker: Error response from daemon:", re.compile(r"^\s{0,8}docker: Error response from daemon:"),
              lambda m: [("place", "docker")]),
)



def statements_for(literal: str) -> list[Statement]:
    """The statements found by ``literal``."""
    return [s for s in STATEMENTS if s.literal == literal]


def read_statement(statement: Statement, line: str) -> Optional[list[tuple[str, Any]]]:
    """The facts ``line`` states by ``statement``, or None when its expression does not match."""
    m = statement.regex.search(line)
    return statement.value(m) if m else None
