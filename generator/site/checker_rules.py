"""The ``lingjun-check`` rule ids the site documents, with a description in both languages.

The id list is fixed by the team brief and must match the rules registered in
:mod:`lingjun.checks.rules`; usage notes in release records point at these
ids.  The anchor of a rule on ``checker/rules/`` is the id with ``.``
replaced by ``-`` (``driver.cuda-compatibility`` -> ``#driver-cuda-compatibility``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CheckerRule", "CHECKER_RULES", "rule_anchor", "RULE_AREAS"]


@dataclass(frozen=True)
class CheckerRule:
    """One rule: id (``area.name``), area, and what it checks in English and Chinese."""

    id: str
    area: str
    en: str
    zh: str

    @property
    def anchor(self) -> str:
        """HTML id of the rule's entry on the rules page."""
        return rule_anchor(self.id)


def rule_anchor(rule_id: str) -> str:
    """``driver.branch-eol`` -> ``driver-branch-eol``."""
    return rule_id.replace(".", "-")


#: report areas in display order, with their titles
RULE_AREAS: dict[str, dict[str, str]] = {
    "release": {"en": "Release", "zh": "版本识别"},
    "driver": {"en": "Driver", "zh": "驱动"},
    "cuda": {"en": "CUDA", "zh": "CUDA"},
    "packages": {"en": "Packages", "zh": "软件包"},
    "libraries": {"en": "Libraries", "zh": "动态库"},
    "python": {"en": "Python", "zh": "Python"},
    "env": {"en": "Environment variables", "zh": "环境变量"},
    "config": {"en": "Configuration files", "zh": "配置文件"},
    "known-issues": {"en": "Known issues", "zh": "已知问题"},
}

_R = CheckerRule

CHECKER_RULES: tuple[CheckerRule, ...] = (
    _R("release.identified", "release",
       "Works out which image release the container is (from the image's own metadata or installed versions) and which record describes it; every other rule compares against that record.",
       "识别容器对应的镜像版本（依据镜像元数据或已安装的版本）及描述它的版本记录；其余规则都以该记录为准进行比对。"),
    _R("driver.present", "driver",
       "Checks that an NVIDIA driver is visible in the container (libcuda and NVML injected by the container runtime); without one, driver rules are reported as skipped.",
       "检查容器内能否看到 NVIDIA 驱动（由容器运行时注入的 libcuda 与 NVML）；没有驱动时，驱动相关规则记为跳过。"),
    _R("driver.minimum", "driver",
       "Compares the host driver version with the minimum the release record states (a branch such as 575 means any driver of that branch or newer).",
       "将宿主机驱动版本与版本记录中的最低要求比较（写成 575 这样的驱动分支时，表示该分支或更新的任意驱动）。"),
    _R("driver.cuda-compatibility", "driver",
       "Decides how the image's CUDA toolkit runs on the host driver: natively, through CUDA minor version compatibility, through forward compatibility, or not at all.",
       "判断镜像的 CUDA 工具包在宿主机驱动上的运行方式：原生支持、CUDA 小版本兼容、前向兼容，或无法运行。"),
    _R("driver.forward-compat-consumer-gpu", "driver",
       "Warns when forward compatibility (cuda-compat) would be needed on a GPU that is not a data center GPU, which fails with CUDA error 804.",
       "当非数据中心 GPU 需要依赖前向兼容（cuda-compat）时告警：这种情况会出现 CUDA 错误 804。"),
    _R("driver.compat-shadows-host", "driver",
       "Detects cuda-compat libraries on the library path that shadow a host driver that is already new enough, a cause of CUDA error 803.",
       "检测库搜索路径上的 cuda-compat 库是否遮蔽了本已足够新的宿主机驱动，这是 CUDA 错误 803 的常见原因。"),
    _R("driver.nvml-mismatch", "driver",
       "Detects a driver/library version mismatch between the NVML library and the loaded kernel module (\"Failed to initialize NVML\").",
       "检测 NVML 库与已加载内核模块之间的驱动/库版本不一致（\"Failed to initialize NVML\"）。"),
    _R("driver.device-nodes", "driver",
       "Checks that the /dev/nvidia* device nodes the driver needs exist and are accessible.",
       "检查驱动所需的 /dev/nvidia* 设备节点是否存在且可访问。"),
    _R("driver.branch-eol", "driver",
       "Reports when the host driver branch has reached end of life according to NVIDIA's data center driver lifecycle.",
       "当宿主机驱动分支按 NVIDIA 数据中心驱动生命周期已停止维护时给出提示。"),
    _R("cuda.torch-build-vs-driver", "cuda",
       "Compares the CUDA version PyTorch was built for with what the driver supports (\"The NVIDIA driver on your system is too old\").",
       "比较 PyTorch 构建所用的 CUDA 版本与驱动支持的版本（\"The NVIDIA driver on your system is too old\"）。"),
    _R("cuda.compute-capability", "cuda",
       "Checks that every visible GPU's compute capability is one the image's PyTorch build supports.",
       "检查每块可见 GPU 的计算能力是否在镜像中 PyTorch 构建所支持的范围内。"),
    _R("cuda.toolkit-vs-record", "cuda",
       "Compares the CUDA toolkit found in the image with the one the release record states.",
       "比较镜像内的 CUDA 工具包版本与版本记录中的版本。"),
    _R("packages.missing", "packages",
       "Reports components of the release record that are not installed.",
       "报告版本记录中列出但未安装的组件。"),
    _R("packages.version-mismatch", "packages",
       "Reports installed components whose version differs from the release record.",
       "报告已安装版本与版本记录不一致的组件。"),
    _R("packages.image-build-replaced", "packages",
       "Detects that a component the image ships as a modified build (PyTorch, DeepSpeed) was reinstalled from PyPI.",
       "检测镜像中经修改的组件（如 PyTorch、DeepSpeed）是否被从 PyPI 重新安装。"),
    _R("packages.extension-abi", "packages",
       "Detects PyTorch extensions (flash-attn, TransformerEngine) built against a different PyTorch than the one installed.",
       "检测 PyTorch 扩展（flash-attn、TransformerEngine 等）是否基于与已安装版本不同的 PyTorch 构建。"),
    _R("libraries.cudnn-shadowed", "libraries",
       "Detects a second cuDNN (for example from a pip wheel) that shadows the image's cuDNN.",
       "检测是否有另一份 cuDNN（例如来自 pip wheel）遮蔽了镜像自带的 cuDNN。"),
    _R("libraries.nccl-shadowed", "libraries",
       "Detects a second NCCL that shadows the image's NCCL or ACCL-N.",
       "检测是否有另一份 NCCL 遮蔽了镜像自带的 NCCL 或 ACCL-N。"),
    _R("libraries.nccl-cuda-majors", "libraries",
       "Detects NCCL builds for a different CUDA major version than the image's toolkit.",
       "检测 NCCL 的构建所针对的 CUDA 主版本是否与镜像工具包不同。"),
    _R("python.interpreter", "python",
       "Checks that the interpreter running the workload is the image's Python, not another one on PATH or in a virtual environment.",
       "检查运行任务的解释器是否为镜像自带的 Python，而不是 PATH 或虚拟环境中的另一个解释器。"),
    _R("env.nccl-socket-ifname", "env",
       "Checks that NCCL_SOCKET_IFNAME names a network interface that exists in the container.",
       "检查 NCCL_SOCKET_IFNAME 指定的网卡在容器内是否存在。"),
    _R("env.nccl-socket-ifname-pod-size", "env",
       "Checks NCCL_SOCKET_IFNAME against the pod size: eth0 for 1, 2, 4 or 8 GPUs per pod, hpn0 when a pod takes all 16 GPUs of a machine.",
       "按 Pod 规模检查 NCCL_SOCKET_IFNAME：单个 Pod 使用 1/2/4/8 卡时为 eth0，独占整机 16 卡时为 hpn0。"),
    _R("env.checkpoint-optimization", "env",
       "Reports whether the recomputation memory optimisation is enabled (CHECKPOINT_OPTIMIZATION=true).",
       "报告是否开启了重计算显存优化（CHECKPOINT_OPTIMIZATION=true）。"),
    _R("config.deepspeed-prefetch-bucket-size", "config",
       "Checks that a DeepSpeed configuration leaves zero_optimization.stage3_prefetch_bucket_size empty or set to auto.",
       "检查 DeepSpeed 配置中 zero_optimization.stage3_prefetch_bucket_size 是否留空或设为 auto。"),
    _R("known-issues.match", "known-issues",
       "Matches the container's facts against the machine-readable conditions of the known issues and reports those that apply (or may apply).",
       "将容器的实际情况与已知问题的机器可读条件匹配，报告适用（或可能适用）的问题。"),
)
