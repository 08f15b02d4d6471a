"""What an input can show: each section of the facts is *observed*, *partial* or *not available*.

``lingjun-check`` reads facts from three kinds of input: the live container
(probes), a snapshot (``--from``) and a ``collect_env`` paste
(``--from-collect-env``).  They do not carry the same things: a paste lists no
``/dev/nvidia*`` nodes, no loader path and only a filtered package list; a
hand-written snapshot may leave out whole sections.  A missing fact is not a
negative fact, so every section of :class:`~lingjun.checks.facts.Facts` has a
state:

``observed``
    the input shows the section; an empty list or an absent key inside it is
    *observed absent* (a live probe that found no device nodes);
``partial``
    the input shows some items: those listed are observed, but an item that is
    not listed is *not known* (collect_env's filtered package list);
``not-available``
    the input does not carry the section at all: nothing may be concluded.

Rules declare the sections they need (``@rule(..., needs=("env",))``); the
runner reports a rule *skipped*, with :func:`unavailable_reason`, when one of
them is not available.  Rules that can still say something from a partial
section ask :func:`state` (or :func:`env_known`) themselves.

The states live in :attr:`Facts.coverage <lingjun.checks.facts.Facts.coverage>`
(``CoverageFacts``); a section that is not listed there was observed.  Only the
standard library is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import Text

__all__ = [
    "OBSERVED",
    "PARTIAL",
    "NOT_AVAILABLE",
    "Section",
    "SECTIONS",
    "DRIVER_SECTIONS",
    "state",
    "available",
    "missing",
    "driver_observed",
    "probed",
    "driver_unknown_reason",
    "not_shown",
    "env_known",
    "unavailable_reason",
    "input_name",
    "log_only_facts",
    "sections_from_snapshot_keys",
    "sections_not_probed",
    "source_label",
    "summary",
    "COLLECT_ENV_LINES",
]

OBSERVED = "observed"
PARTIAL = "partial"
NOT_AVAILABLE = "not-available"


@dataclass(frozen=True)
class Section:
    """A part of the facts an input may or may not carry.

    ``keys`` are the snapshot keys (dotted paths into the JSON object) that carry
    the section: a snapshot that has none of them does not show the section.
    ``label`` names it in a reason ("environment variables").  ``probe`` is the
    name of the live probe that fills it (``lingjun.checks.probes``), "" for none.
    """

    id: str
    label: Text
    keys: tuple[str, ...]
    probe: str = ""


#: every section, by id
SECTIONS: dict[str, Section] = {
    s.id: s
    for s in (
        Section("host", Text("the operating system", "操作系统信息"), ("host",), probe="os"),
        Section("python", Text("the Python interpreter", "Python 解释器信息"), ("python",), probe="python"),
        Section("driver", Text("the kernel driver (/proc/driver/nvidia/version)", "内核驱动（/proc/driver/nvidia/version）"),
                ("driver.kernel_module_version", "driver.proc_version_error", "driver.kernel_module_flavor"), probe="driver-proc"),
        Section("device-nodes", Text("the /dev/nvidia* device nodes", "/dev/nvidia* 设备节点"), ("driver.device_nodes",), probe="device-nodes"),
        Section("nvml", Text("NVML (libnvidia-ml)", "NVML（libnvidia-ml）"), ("nvml",), probe="nvml"),
        Section("nvidia-smi", Text("nvidia-smi's output", "nvidia-smi 的输出"), ("nvidia_smi",), probe="nvidia-smi"),
        Section("libcuda", Text("which libcuda the loader resolves", "动态加载器解析到的 libcuda"), ("libcuda",), probe="libcuda"),
        Section("cuda-toolkit", Text("the image's CUDA toolkit and cuda-compat package", "镜像中的 CUDA 工具包和 cuda-compat 包"), ("cuda",), probe="cuda-toolkit"),
        Section("cudnn", Text("the cuDNN libraries on disk", "磁盘上的 cuDNN 库"), ("cudnn",), probe="cudnn"),
        Section("nccl", Text("the NCCL libraries on disk", "磁盘上的 NCCL 库"), ("nccl",), probe="nccl"),
        Section("torch", Text("torch's build", "torch 的构建信息"), ("torch",), probe="torch"),
        Section("distributions", Text("the installed Python packages", "已安装的 Python 包"), ("distributions",), probe="distributions"),
        Section("env", Text("environment variables", "环境变量"), ("env",), probe="env"),
        Section("network", Text("the network interfaces", "网络接口"), ("network",), probe="network"),
        Section("loader", Text("the loader path (LD_LIBRARY_PATH, ld.so.conf.d)", "动态库搜索路径（LD_LIBRARY_PATH、ld.so.conf.d）"), ("loader",), probe="loader"),
        Section("manifest", Text("the image's release manifest", "镜像的发布清单"), ("manifest",), probe="manifest"),
        Section("mig", Text("the MIG devices", "MIG 设备"), ("mig_devices",)),
        Section("shm", Text("/dev/shm (size and use)", "/dev/shm（大小和用量）"), ("shm",), probe="shm"),
        Section("limits", Text("the resource limits (memlock, open files) and capabilities", "资源限制（memlock、打开文件数）和进程权能"), ("limits",), probe="limits"),
        Section("rdma", Text("the RDMA devices and /dev/infiniband nodes", "RDMA 设备和 /dev/infiniband 节点"), ("rdma",), probe="rdma"),
        Section("gpu-topology", Text("the GPU connection matrix (nvidia-smi topo -m)", "GPU 互连矩阵（nvidia-smi topo -m）"),
                ("gpu_topology",), probe="gpu-topology"),
        Section("symptoms", Text("what torch itself reported (CUDA available, errors)", "torch 自身报告的结果（CUDA 是否可用、错误信息）"), ("symptoms",)),
    )
}

#: sections any of which shows whether an NVIDIA driver is present
DRIVER_SECTIONS = ("driver", "device-nodes", "nvml", "nvidia-smi", "libcuda")


def state(facts: "Facts", section: str) -> str:
    """The state of ``section`` in ``facts``: :data:`OBSERVED`, :data:`PARTIAL` or :data:`NOT_AVAILABLE`.

    Raises:
        KeyError: for a section id not in :data:`SECTIONS` (a typo in a rule).
    """
    if section not in SECTIONS:
        raise KeyError(f"unknown facts section {section!r}")
    cov = facts.coverage
    if section in cov.not_available:
        return NOT_AVAILABLE
    if section in cov.partial:
        return PARTIAL
    return OBSERVED


def available(facts: "Facts", section: str) -> bool:
    """Whether the input carries ``section`` at all (observed or partial)."""
    return state(facts, section) != NOT_AVAILABLE


def missing(facts: "Facts", sections: "tuple[str, ...] | list[str]") -> list[str]:
    """The sections of ``sections`` the input does not carry, in the given order."""
    return [s for s in sections if state(facts, s) == NOT_AVAILABLE]


def driver_observed(facts: "Facts") -> bool:
    """Whether the input could show an NVIDIA driver: one of :data:`DRIVER_SECTIONS` was observed in full.

    Only then does "no sign of a driver" mean *no driver*; otherwise it means *not known*.
    """
    return any(state(facts, s) == OBSERVED for s in DRIVER_SECTIONS)


def probed(facts: "Facts") -> bool:
    """Whether the facts are what probes saw: a live run, or a snapshot that carries its probe records (``--collect``
    writes them).  Then a value the probes could not read was observed missing, the same live and read back from the
    snapshot; for other input (a ``collect_env`` paste, a snapshot without probe records) it is only not shown."""
    return facts.origin == "live" or (facts.origin == "snapshot" and bool(facts.probes))


def driver_unknown_reason(facts: "Facts") -> Text:
    """Why GPU rules are skipped when the input could not show a driver: "the snapshot does not show whether an NVIDIA
    driver is present" (see :func:`driver_observed`)."""
    name = input_name(facts)
    return Text(f"{name.en} does not show whether an NVIDIA driver is present", f"{name.zh}中无法看出是否有 NVIDIA 驱动")


def not_shown(facts: "Facts", what: Text) -> Text:
    """"{what} is not shown by the collect_env paste" (or "could not be read in this container" for a live run),
    for a value a rule needs that the input lacks; ``what`` is lower-case ("the driver's version")."""
    if facts.origin == "live":
        return Text(f"{what.en} could not be read in this container", f"本容器中无法读取{what.zh}")
    name = input_name(facts)
    return Text(f"{name.en} does not show {what.en}", f"{name.zh}中看不到{what.zh}")


def env_known(facts: "Facts", name: str) -> bool:
    """Whether the input shows if the variable ``name`` is set.

    True when the variable is present, when the environment was observed in full,
    or when it was shown in part and ``name`` falls under the name prefixes the
    input lists in full (``coverage.env_prefixes``: vLLM's collect_env lists every
    ``NCCL_*``/``CUDA_*``/``TORCH*`` variable, torch's only ``CUDA_MODULE_LOADING``).
    """
    if name in facts.env:
        return True
    current = state(facts, "env")
    if current == OBSERVED:
        return True
    if current == PARTIAL:
        return any(name.startswith(prefix) for prefix in facts.coverage.env_prefixes)
    return False


#: what each kind of input is called in a reason
_INPUTS = {
    "live": Text("this container's probes", "本容器的探测"),
    "snapshot": Text("the snapshot", "快照"),
    "collect_env": Text("the collect_env paste", "collect_env 输出"),
    "log": Text("the log alone", "仅凭日志"),
}


def log_only_facts() -> "Facts":
    """Facts for a log read on its own (``--log-only``, or a pod's log read outside the pod): origin ``log``, every
    section not shown, so a cause's condition reads only what the log itself states."""
    facts = Facts(origin="log")
    facts.coverage.not_available = list(SECTIONS)
    return facts


def input_name(facts: "Facts") -> Text:
    """What the input is called in a reason: "the snapshot", "the collect_env paste", "this container's probes"."""
    return _INPUTS.get(facts.origin, Text("the input", "输入"))


def unavailable_reason(facts: "Facts", sections: "tuple[str, ...] | list[str]") -> Text:
    """Why a rule could not run: "the collect_env paste does not show environment variables", both languages.

    ``sections`` are the missing section ids (at least one), named in order.
    """
    labels = [SECTIONS[s].label for s in sections]
    name = input_name(facts)
    en = " or ".join(label.en for label in labels)
    zh = "和".join(label.zh for label in labels)
    if facts.origin == "live":
        return Text(f"{en} could not be probed in this container", f"本容器中无法探测{zh}")
    return Text(f"{name.en} does not show {en}", _cjk_join(f"{name.zh}中不包含", zh))


def sections_from_snapshot_keys(data: dict) -> list[str]:
    """The section ids a snapshot JSON object does not carry (none of its keys is present).

    ``data`` is the parsed snapshot; nested keys are dotted (``driver.device_nodes``).
    """
    absent = []
    for section in SECTIONS.values():
        if not any(_has_key(data, key) for key in section.keys):
            absent.append(section.id)
    return absent


def _has_key(data: object, dotted: str) -> bool:
    node: Optional[object] = data
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def sections_not_probed(probe_names: "set[str] | frozenset[str]", timed_out: "set[str] | frozenset[str]" = frozenset()) -> list[str]:
    """The section ids whose live probe did not run (not in ``probe_names``) or gave no facts (in ``timed_out``: it
    ran out of time, or, live, failed or returned nothing).

    Used for live runs with a subset of probes and for snapshots that carry their probe records.
    """
    return [s.id for s in SECTIONS.values() if s.probe and (s.probe not in probe_names or s.probe in timed_out)]


#: facts field -> the collect_env line it is read from (see lingjun.checks.inputs.collect_env_text)
COLLECT_ENV_LINES = {
    "torch.version": "PyTorch version",
    "torch.cuda": "CUDA used to build PyTorch",
    "python.version": "Python version",
    "cuda.toolkit_version": "CUDA runtime version",
    "nvidia_smi.driver_version": "Nvidia driver version",
    "nvidia_smi.gpus": "GPU models and configuration",
    "cudnn.header_version": "cuDNN version",
    "cudnn.files": "cuDNN version",
    "symptoms.cuda_available": "Is CUDA available",
    "distributions": "Versions of relevant libraries",
}


def source_label(facts: "Facts", field: str, live: Text) -> Text:
    """Where the value of ``field`` (a dotted facts path, ``cuda.toolkit_version``) came from, for a report.

    ``live`` names the live probe's source ("version.json", "torch's Requires-Dist"); a snapshot
    gives "snapshot field cuda.toolkit_version", a collect_env paste the line it was read from
    ("collect_env line 'CUDA runtime version'").
    """
    if facts.origin == "snapshot":
        return Text(f"snapshot field {field}", f"快照字段 {field}")
    if facts.origin == "collect_env":
        line = COLLECT_ENV_LINES.get(field)
        if line:
            return Text(f"collect_env line '{line}'", f"collect_env 的“{line}”一行")
        return Text("collect_env paste", "collect_env 输出")
    return live


def summary(facts: "Facts") -> Optional[Text]:
    """One line for the report's header naming what the input does not show and what it shows only in part;
    None when everything was observed (a live run whose probes all ran)."""
    cov = facts.coverage
    if facts.origin == "log":  # everything about the machine is absent: what is skipped is counted below the findings
        return Text("Input coverage (the log alone): what the log states is judged; the machine it ran on is not "
                    "probed.", "输入覆盖情况（仅凭日志）：只判断日志中写明的内容，未探测其所在的机器。")
    absent = [SECTIONS[s].label for s in SECTIONS if s in cov.not_available and s != "symptoms"]
    partial = [SECTIONS[s].label for s in SECTIONS if s in cov.partial]
    if not absent and not partial:
        return None
    en, zh = [], []
    if absent:
        en.append("Not shown: " + "; ".join(t.en for t in absent))
        zh.append("未包含：" + "；".join(t.zh for t in absent))
    if partial:
        en.append("Shown in part: " + "; ".join(t.en for t in partial))
        zh.append("仅部分包含：" + "；".join(t.zh for t in partial))
    return Text(f"Input coverage ({input_name(facts).en}): " + ". ".join(en) + ". Checks that need them are skipped.",
                f"输入覆盖情况（{input_name(facts).zh}）：" + "。".join(zh) + "。依赖这些信息的检查已跳过。")


def _cjk_join(left: str, right: str) -> str:
    """``left + right`` with a space where a Chinese character meets a Latin letter, digit or ``/`` (``不包含 NVML``)."""
    if left and right and _is_cjk(left[-1]) and (right[0].isascii() and (right[0].isalnum() or right[0] in "/._-`")):
        return f"{left} {right}"
    return left + right


def _is_cjk(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff"
