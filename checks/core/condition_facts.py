"""The facts a condition may test (``condition.facts`` of known issues and error-signature causes).

Standard library only: the schema validates fact names and operators against :data:`FACTS` and
:data:`OPERATORS`, and the checker (:mod:`lingjun.checks.knowledge.fact_values`) reads each fact from
the probed facts.  A name is ``section.field``; its kind says how values compare:

* ``int``: whole numbers (bytes, counts); ``-1`` for a resource limit means unlimited;
* ``version``: dotted versions compared as PEP 440 versions (``8.9`` < ``9.0`` < ``10.0``);
* ``bool``: ``true`` / ``false``, tested with ``eq`` / ``ne`` only;
* ``word``: a lower-case word from a fixed set (the place a container runs in), tested with ``eq`` / ``ne`` / ``in``.

>>> FACTS["shm.size_bytes"].kind
'int'
>>> sorted(OPERATORS)[:3]
['eq', 'ge', 'gt']
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FactSpec", "FACTS", "OPERATORS", "PLACES", "CUBLAS_DATA_TYPES", "KERNEL_ASSERTIONS", "operators_for"]


@dataclass(frozen=True)
class FactSpec:
    """One testable fact: its name, kind (``int``, ``version``, ``bool``, ``word``) and label in both languages."""

    name: str
    kind: str
    en: str
    zh: str
    #: for a ``bool`` fact: how its true and false values read, ``((en, zh), (en, zh))``
    reads: tuple = ()


#: where a container runs, as :func:`lingjun.checks.knowledge.fact_values.place` decides it
PLACES = ("docker", "kubernetes", "acs")
#: the data types a failing cuBLAS call may name (:mod:`lingjun.checks.knowledge.log_statements`)
CUBLAS_DATA_TYPES = ("bf16", "fp8", "fp16", "fp32", "fp64")
#: what a CUDA kernel's failed assertion tests (:mod:`lingjun.checks.knowledge.log_statements`)
KERNEL_ASSERTIONS = ("class-index", "index", "probability", "other")

_SPECS = (
    FactSpec("shm.size_bytes", "int", "the size of /dev/shm", "/dev/shm 的大小"),
    FactSpec("shm.host_ipc", "bool", "whether the container shares the host's IPC namespace", "容器是否共享宿主机 IPC 命名空间",
             (("the container shares the host's IPC namespace", "容器共享宿主机 IPC 命名空间"),
              ("the container has its own IPC namespace", "容器使用自己的 IPC 命名空间"))),
    FactSpec("nccl.shm_errno", "int", "the errno of NCCL's failed shared-memory call",
             "NCCL 共享内存调用失败时的 errno"),
    FactSpec("limits.memlock_soft", "int", "the memlock limit (ulimit -l)", "memlock 限制（ulimit -l）"),
    FactSpec("limits.cap_ipc_lock", "bool", "the IPC_LOCK capability", "IPC_LOCK 能力",
             (("the container has the IPC_LOCK capability", "容器具有 IPC_LOCK 能力"),
              ("the container lacks the IPC_LOCK capability", "容器缺少 IPC_LOCK 能力"))),
    FactSpec("kernel.xid_processes", "int", "the number of processes the kernel's Xid lines name",
             "内核 Xid 行涉及的进程数"),
    FactSpec("rdma.devices", "int", "the number of RDMA devices in the container", "容器中 RDMA 设备的数量"),
    FactSpec("rdma.uverbs_nodes", "int", "the number of /dev/infiniband/uverbs* nodes", "/dev/infiniband/uverbs* 设备节点的数量"),
    FactSpec("rdma.erdma", "bool", "whether the RDMA devices are Alibaba Cloud eRDMA (erdma_*)", "RDMA 设备是否为阿里云 eRDMA（erdma_*）",
             (("the RDMA devices are eRDMA", "RDMA 设备为 eRDMA"), ("the RDMA devices are not eRDMA", "RDMA 设备不是 eRDMA"))),
    FactSpec("gpu.count", "int", "the number of GPUs", "GPU 数量"),
    FactSpec("gpu.compute_capability_min", "version", "the GPUs' compute capability", "GPU 的计算能力"),
    FactSpec("gpu.datacenter", "bool", "whether every GPU is a data-centre GPU", "是否所有 GPU 都是数据中心 GPU",
             (("every GPU is a data-centre GPU", "所有 GPU 都是数据中心 GPU"), ("not every GPU is a data-centre GPU", "并非所有 GPU 都是数据中心 GPU"))),
    FactSpec("gpu.mig", "bool", "whether MIG devices are in use", "是否在使用 MIG 设备",
             (("MIG devices are in use", "正在使用 MIG 设备"), ("no MIG device is in use", "没有使用 MIG 设备"))),
    FactSpec("torch.cpu_build", "bool", "whether torch is a CPU-only build", "torch 是否为仅 CPU 版本",
             (("torch is a CPU-only build", "torch 是仅 CPU 的构建"), ("torch is a CUDA or ROCm build", "torch 是 CUDA 或 ROCm 构建"))),
    FactSpec("torch.cuda", "version", "the CUDA version torch was built with", "torch 构建所用的 CUDA 版本"),
    FactSpec("torch.covers_gpus", "bool", "whether torch's architecture list covers the GPUs", "torch 的架构列表是否覆盖这些 GPU",
             (("torch's architecture list covers the GPUs", "torch 的架构列表覆盖这些 GPU"),
              ("torch's architecture list does not cover the GPUs", "torch 的架构列表未覆盖这些 GPU"))),
    FactSpec("nccl.version", "version", "the NCCL version", "NCCL 版本"),
    FactSpec("nccl.network", "word", "the network NCCL chose", "NCCL 选用的网络"),
    FactSpec("vllm.version", "version", "the vLLM version", "vLLM 版本"),
    FactSpec("driver.present", "bool", "whether an NVIDIA driver is visible", "是否能看到 NVIDIA 驱动",
             (("an NVIDIA driver is visible", "能看到 NVIDIA 驱动"), ("no NVIDIA driver is visible in the container", "容器中看不到 NVIDIA 驱动"))),
    FactSpec("driver.version", "version", "the NVIDIA driver version", "NVIDIA 驱动版本"),
    FactSpec("driver.cuda", "version", "the CUDA version the driver supports", "驱动支持的 CUDA 版本"),
    FactSpec("place", "word", "where the container runs (docker, kubernetes, acs)", "容器的运行环境（docker、kubernetes、acs）"),
    # facts only a log states (lingjun.checks.knowledge.log_statements): what a failing line or traceback shows
    FactSpec("quantization.min_capability", "version", "the compute capability the quantization method needs",
             "该量化方法所需的计算能力"),
    FactSpec("nccl.socket_interfaces_virtual", "bool",
             "whether an interface NCCL's sockets use is a container bridge, a veth, a tunnel or a link-local address",
             "NCCL 套接字所用网卡中是否有容器网桥、veth、隧道或链路本地地址",
             (("an interface NCCL's sockets use is a container bridge, a veth, a tunnel or link-local",
               "NCCL 套接字所用的网卡中有容器网桥、veth、隧道或链路本地地址"),
              ("the interfaces NCCL's sockets use are neither bridges, veths, tunnels nor link-local",
               "NCCL 套接字所用的网卡都不是网桥、veth、隧道或链路本地地址"))),
    FactSpec("log.in_flashinfer", "bool", "whether the log's traceback or error line runs through FlashInfer's code",
             "日志的调用栈或错误行是否经过 FlashInfer 的代码",
             (("the log's traceback or error line runs through FlashInfer's code", "日志的调用栈或错误行经过 FlashInfer 的代码"),
              ("the log shows no FlashInfer code in the failure", "日志中的失败不经过 FlashInfer 的代码"))),
    FactSpec("log.in_flash_attn", "bool", "whether the log's traceback or error line runs through FlashAttention's code",
             "日志的调用栈或错误行是否经过 FlashAttention 的代码",
             (("the log's traceback or error line runs through FlashAttention's code",
               "日志的调用栈或错误行经过 FlashAttention 的代码"),
              ("the log shows no FlashAttention code in the failure", "日志中的失败不经过 FlashAttention 的代码"))),
    FactSpec("log.in_vllm_kernels", "bool",
             "whether the log's traceback runs through vLLM's own CUDA kernels (vllm/_custom_ops.py, vllm/_C)",
             "日志的调用栈是否经过 vLLM 自带的 CUDA 内核（vllm/_custom_ops.py、vllm/_C）",
             (("the log's traceback runs through vLLM's own CUDA kernels", "日志的调用栈经过 vLLM 自带的 CUDA 内核"),
              ("the log shows none of vLLM's own CUDA kernels in the failure", "日志中的失败不经过 vLLM 自带的 CUDA 内核"))),
    FactSpec("log.in_torch_compile", "bool",
             "whether the log's traceback runs through code torch.compile made (Dynamo, AOTAutograd, Inductor frames)",
             "日志的调用栈是否经过 torch.compile 生成的代码（Dynamo、AOTAutograd、Inductor 的栈帧）",
             (("the log's traceback runs through torch.compile's Dynamo, AOTAutograd or Inductor frames",
               "日志的调用栈经过 torch.compile 的 Dynamo、AOTAutograd 或 Inductor 栈帧"),
              ("the log shows no torch.compile frame in the failure", "日志中的失败不经过 torch.compile 的栈帧"))),
    FactSpec("log.in_sgl_kernel", "bool", "whether the log's traceback runs through SGLang's kernels (sgl_kernel)",
             "日志的调用栈是否经过 SGLang 的内核库（sgl_kernel）",
             (("the log's traceback runs through SGLang's kernels (sgl_kernel)", "日志的调用栈经过 SGLang 的内核库（sgl_kernel）"),
              ("the log shows no sgl_kernel code in the failure", "日志中的失败不经过 sgl_kernel 的代码"))),
    FactSpec("log.in_sglang", "bool", "whether the log's traceback runs through SGLang's server (sglang/srt)",
             "日志的调用栈是否经过 SGLang 服务（sglang/srt）",
             (("the log's traceback runs through SGLang's server (sglang/srt)", "日志的调用栈经过 SGLang 服务（sglang/srt）"),
              ("the log shows no SGLang server code in the failure", "日志中的失败不经过 SGLang 服务的代码"))),
    FactSpec("log.in_transformer_engine", "bool",
             "whether the library that fails to load is one of Transformer Engine's (transformer_engine_torch...so)",
             "加载失败的库是否属于 Transformer Engine（transformer_engine_torch...so）",
             (("the library that fails to load is Transformer Engine's (transformer_engine...so)",
               "加载失败的库属于 Transformer Engine（transformer_engine...so）"),
              ("the library that fails to load is not Transformer Engine's", "加载失败的库不属于 Transformer Engine"))),
    FactSpec("tgi.kernels_missing", "bool",
             "whether TGI's warning says its flash-attention models lack a kernel module (No module named 'vllm_cache_ops', "
             "Flash Attention V2 is not installed)",
             "TGI 的警告是否表明其 flash-attention 模型缺少内核模块（No module named 'vllm_cache_ops'、"
             "Flash Attention V2 is not installed）",
             (("TGI's warning says a kernel module its flash-attention models need is missing or does not load",
               "TGI 的警告表明其 flash-attention 模型所需的内核模块缺失或无法加载"),
              ("TGI's warning gives another reason than a missing kernel module", "TGI 的警告给出的原因不是缺少内核模块"))),
    FactSpec("tgi.cuda_unavailable", "bool",
             "whether TGI's warning says CUDA is not available to it (CUDA is not available)",
             "TGI 的警告是否表明它无法使用 CUDA（CUDA is not available）",
             (("TGI's warning says CUDA is not available in its process", "TGI 的警告表明其进程中无法使用 CUDA"),
              ("TGI's warning gives another reason than CUDA being unavailable", "TGI 的警告给出的原因不是无法使用 CUDA"))),
    FactSpec("tensorrt.engine_other_release", "bool",
             "whether TensorRT's line says the engine was built by another TensorRT release (Version tag does not match, "
             "expecting library version X got Y)",
             "TensorRT 的日志行是否表明该引擎由另一个 TensorRT 版本构建（Version tag does not match、"
             "expecting library version X got Y）",
             (("TensorRT's line says the engine was built by another TensorRT release",
               "TensorRT 的日志行表明该引擎由另一个 TensorRT 版本构建"),
              ("TensorRT's lines do not say the engine's release differs", "TensorRT 的日志行未表明引擎的版本不同"))),
    FactSpec("tensorrt.engine_other_gpu", "bool",
             "whether TensorRT's line says the engine was built on a GPU of another compute capability",
             "TensorRT 的日志行是否表明该引擎是在另一种计算能力的 GPU 上构建的",
             (("TensorRT's line says the engine was built on a GPU of another compute capability",
               "TensorRT 的日志行表明该引擎是在另一种计算能力的 GPU 上构建的"),
              ("TensorRT's lines do not say the engine's GPU differs", "TensorRT 的日志行未表明引擎的 GPU 不同"))),
    FactSpec("tensorrt.plan_unreadable", "bool",
             "whether TensorRT's line says the file it read is not an engine plan (Magic tag does not match, an empty "
             "buffer)",
             "TensorRT 的日志行是否表明它读入的文件不是引擎 plan（Magic tag does not match、空缓冲区）",
             (("TensorRT's line says the file it read is not an engine plan (wrong magic tag or an empty buffer)",
               "TensorRT 的日志行表明它读入的文件不是引擎 plan（magic tag 不符或缓冲区为空）"),
              ("TensorRT's lines do not say the file is not a plan", "TensorRT 的日志行未表明该文件不是 plan"))),
    FactSpec("build.link_searches_cuda", "bool",
             "whether the link command of the failed build passes a -L directory of CUDA's libraries",
             "失败构建的链接命令是否用 -L 传入了 CUDA 库所在的目录",
             (("the build's link command searches a directory of CUDA's libraries", "构建的链接命令会搜索 CUDA 库所在的目录"),
              ("the build's link command searches no directory of CUDA's libraries (only the -L paths it shows)",
               "构建的链接命令不搜索任何 CUDA 库目录（只有它显示的 -L 路径）"))),
    FactSpec("cuda.toolkit", "version", "the CUDA version of the toolkit a build uses (nvcc's)",
             "构建所用工具包的 CUDA 版本（nvcc 的版本）"),
    # one of KERNEL_ASSERTIONS
    FactSpec("cuda.kernel_assertion", "word",
             "the kind of check a CUDA kernel's failed assertion makes",
             "CUDA 内核失败断言所做检查的类别"),
    FactSpec("log.in_torch", "bool", "whether the log shows torch in the process (its traceback frames or import torch)",
             "日志是否显示进程中有 torch（其调用栈帧或 import torch）",
             (("the log shows torch in the process (its frames or import torch)",
               "日志显示进程中有 torch（其调用栈帧或 import torch）"),
              ("the log shows no torch in the process", "日志中的进程里没有 torch"))),
    FactSpec("build.toolkit_matches_torch", "bool",
             "whether the CUDA toolkit a build uses is of the CUDA version torch was built with",
             "构建所用的 CUDA 工具包是否与构建 torch 所用的 CUDA 版本一致",
             (("the build's CUDA toolkit is of torch's CUDA version", "构建所用的 CUDA 工具包与 torch 的 CUDA 版本一致"),
              ("the build's CUDA toolkit is of another CUDA version than torch's",
               "构建所用的 CUDA 工具包与 torch 的 CUDA 版本不同"))),
    # one of CUBLAS_DATA_TYPES
    FactSpec("cublas.data_type", "word", "the data type of the failing cuBLAS call", "失败的 cuBLAS 调用的数据类型"),
    FactSpec("cublas.lt_call", "bool", "whether the failing cuBLAS call is one of cuBLASLt's (cublasLt...)",
             "失败的 cuBLAS 调用是否属于 cuBLASLt（cublasLt...）",
             (("the failing call is cuBLASLt's", "失败的调用属于 cuBLASLt"),
              ("the failing call is one of cuBLAS's own, not cuBLASLt's", "失败的调用属于 cuBLAS 本身，而非 cuBLASLt"))),
    FactSpec("tensorrt.engine_version", "version", "the TensorRT release that built the engine TensorRT refuses",
             "构建被 TensorRT 拒绝的引擎所用的 TensorRT 版本"),
    FactSpec("nccl.graph_file_set", "bool",
             "whether NCCL_GRAPH_FILE is set (in the environment, or as NCCL's INFO line reports it)",
             "是否设置了 NCCL_GRAPH_FILE（在环境变量中，或如 NCCL 的 INFO 行所报告）",
             (("NCCL_GRAPH_FILE is set", "设置了 NCCL_GRAPH_FILE"), ("NCCL_GRAPH_FILE is not set", "未设置 NCCL_GRAPH_FILE"))),
    FactSpec("nccl.ib_link_layer", "word", "the link layer of the ports NCCL's IB transport uses",
             "NCCL 的 IB 传输所用端口的链路层"),
    FactSpec("nccl.ib_gid_index", "int", "the GID index of the queue pair NCCL failed to connect",
             "NCCL 连接失败的队列对所用的 GID 索引"),
    FactSpec("nccl.ib_gid_ipv4_mapped", "bool",
             "whether the local GID of the queue pair NCCL failed to connect is an IPv4-mapped address (::ffff:)",
             "NCCL 连接失败的队列对的本地 GID 是否为 IPv4 映射地址（::ffff:）",
             (("the failed queue pair's local GID is an IPv4-mapped address (::ffff:), an entry with an IPv4 address",
               "连接失败的队列对的本地 GID 是 IPv4 映射地址（::ffff:），即带 IPv4 地址的表项"),
              ("the failed queue pair's local GID is not IPv4-mapped (a link-local fe80:: or another IPv6 address)",
               "连接失败的队列对的本地 GID 不是 IPv4 映射地址（链路本地 fe80:: 或其他 IPv6 地址）"))),
    FactSpec("nccl.ib_retry_first_error", "bool",
             "whether the log's first error line is NCCL's NET/IB completion with status 12 (retry exceeded)",
             "日志中的第一条错误是否为 NCCL 的 NET/IB 完成错误且状态为 12（重试超限）",
             (("the log's first error line is NCCL's NET/IB completion with status 12: no earlier error of a peer",
               "日志中的第一条错误就是状态 12 的 NET/IB 完成错误：之前没有对端的错误"),
              ("an error line comes before the NET/IB completion, or its status is not 12",
               "NET/IB 完成错误之前已有错误行，或其状态不是 12"))),
    FactSpec("nccl.connect_errno", "int",
             "the errno of NCCL's failed connect to a peer (111 refused, 113 no route to host, 110 timed out)",
             "NCCL 连接对端失败时的 errno（111 被拒绝，113 无路由，110 超时）"),
    FactSpec("log.docker_container_shell", "bool",
             "whether the log shows a shell prompt inside a Docker container (root@ and a 12-digit hexadecimal container id)",
             "日志中是否有 Docker 容器内的 shell 提示符（root@ 加 12 位十六进制容器 ID）",
             (("the log's commands ran in a shell inside a Docker container (root@<container id>)",
               "日志中的命令是在 Docker 容器内的 shell 中运行的（root@<容器 ID>）"),
              ("the log shows no shell inside a Docker container", "日志中没有 Docker 容器内的 shell"))),
    FactSpec("log.gpu_operator", "bool",
             "whether the log shows the NVIDIA GPU Operator (its name or namespace, or its host paths "
             "/usr/local/nvidia/toolkit and /run/nvidia/driver)",
             "日志中是否出现 NVIDIA GPU Operator（其名称或命名空间，或其宿主机路径 /usr/local/nvidia/toolkit、/run/nvidia/driver）",
             (("the log shows the NVIDIA GPU Operator on the node", "日志显示节点由 NVIDIA GPU Operator 管理"),
              ("the log shows no NVIDIA GPU Operator", "日志中没有 NVIDIA GPU Operator"))),
    FactSpec("log.openshift", "bool", "whether the log shows an OpenShift cluster (its name, rhocp repositories, "
             "OPENSHIFT_VERSION)", "日志中是否出现 OpenShift 集群（其名称、rhocp 软件源、OPENSHIFT_VERSION）",
             (("the log shows an OpenShift cluster", "日志显示是 OpenShift 集群"),
              ("the log shows no OpenShift cluster", "日志中没有 OpenShift 集群"))),
    FactSpec("log.repos_unreachable", "bool",
             "whether the log shows package repositories or a download host that cannot be reached (a host name that "
             "does not resolve, the driver container's failed to reach RHEL package repositories)",
             "日志中是否显示软件源或下载主机无法访问（主机名无法解析，驱动容器的 `failed to reach RHEL package repositories`）",
             (("the log shows package repositories or a download host that cannot be reached",
               "日志显示软件源或下载主机无法访问"),
              ("the log shows the package repositories reachable", "日志显示软件源可以访问"))),
    FactSpec("log.slurm", "bool", "whether the log shows a Slurm job (SLURM_* variables, srun, #SBATCH, slurmstepd)",
             "日志中是否出现 Slurm 作业（SLURM_* 变量、srun、#SBATCH、slurmstepd）",
             (("the log shows a Slurm job (SLURM_* variables, srun, #SBATCH or slurmstepd)",
               "日志显示是 Slurm 作业（SLURM_* 变量、srun、#SBATCH 或 slurmstepd）"),
              ("the log shows no Slurm job", "日志中没有 Slurm 作业"))),
    FactSpec("cuda.home_is_path_list", "bool",
             "whether CUDA_HOME, as the failing path shows it, holds a list of paths (':/usr/local/cuda')",
             "出错路径所示的 CUDA_HOME 是否是一串路径（':/usr/local/cuda'）",
             (("CUDA_HOME, as the failing path shows it, is a list of paths ('X:/usr/local/cuda' or ':/usr/local/cuda')",
               "出错路径显示 CUDA_HOME 是一串路径（'X:/usr/local/cuda' 或 ':/usr/local/cuda'）"),
              ("CUDA_HOME, as the failing path shows it, is one directory", "出错路径显示 CUDA_HOME 是单个目录"))),
)

#: fact name -> :class:`FactSpec`
FACTS: dict[str, FactSpec] = {spec.name: spec for spec in _SPECS}

#: comparison operators; ``in`` takes a list
OPERATORS = ("eq", "ne", "lt", "le", "gt", "ge", "in")

_BY_KIND = {
    "int": ("eq", "ne", "lt", "le", "gt", "ge", "in"),
    "version": ("eq", "ne", "lt", "le", "gt", "ge"),
    "bool": ("eq", "ne"),
    "word": ("eq", "ne", "in"),
}


def operators_for(kind: str) -> tuple[str, ...]:
    """The operators a fact of ``kind`` accepts (``KeyError`` for an unknown kind)."""
    return _BY_KIND[kind]
