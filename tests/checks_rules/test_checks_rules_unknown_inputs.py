"""Unknown is not absent: a rule that needs a fact the input does not carry is skipped with the reason, and no
finding claims 'unset', 'not installed', 'no device nodes' or 'no cuda-compat' from an input that cannot show it."""

from __future__ import annotations

import dataclasses
import functools
import json
import re

import pytest

import checks_rules_kit as kit
import checks_rules_rdma_kit as rk
from lingjun.checks import coverage
from lingjun.checks.facts import GpuLinkFacts, GpuTopologyFacts, Facts, InterfaceFacts, MigDeviceFacts
from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.rules import RULES

#: words that state an absence; only a live probe or an explicit snapshot field may lead to them
ABSENCE = re.compile(r"\bis unset\b|\bnot installed\b|No cuda-compat|no /dev/nvidia|no GPU was passed|No NVIDIA driver in this container", re.I)

NEEDS = [(spec.id, section) for spec in RULES.values() for section in spec.needs]


def _rich_facts() -> Facts:
    facts = kit.gpu_facts("570.124.06")
    facts.origin = "snapshot"
    facts.driver.device_nodes = ["/dev/nvidiactl", "/dev/nvidia0"]
    facts.cuda.toolkit_version = "12.8"
    facts.distributions = [kit.dist("torch", "2.7.1.8+nv25.3")]
    facts.torch = kit.torch_build("2.7.1.8+nv25.3", "12.8")
    return facts


#: the inputs the rules' reads are traced on: every real-world case snapshot (tests/fixtures/cases, .../reports) ...
_SNAPSHOTS = [p for p in sorted(kit.CASES.glob("C*.json")) + sorted((kit.ROOT / "tests/fixtures/reports").glob("T*.json"))
              if not p.name.endswith(".ds_config.json")]


def _every_section_shown() -> Facts:
    """... and a container that shows every section, with values the rules go on to judge: NCCL over RoCE bonds,
    a GPU in MIG mode, the release's torch, /dev/shm, limits, an interface named by NCCL_SOCKET_IFNAME."""
    facts = _rich_facts()
    bonds = rk.bonds(2)
    facts.rdma = bonds.rdma
    facts.env.update({"NCCL_IB_HCA": "mlx5_bond_0,mlx5_bond_1", "NCCL_IB_GID_INDEX": "3", "NCCL_SOCKET_IFNAME": "eth0",
                      "NCCL_NET": "IB", "CUDA_VISIBLE_DEVICES": "0", "LOCAL_WORLD_SIZE": "1", "LOCAL_RANK": "0",
                      "CHECKPOINT_OPTIMIZATION": "true", "NVIDIA_VISIBLE_DEVICES": "all"})
    facts.network = [InterfaceFacts(name="eth0", operstate="up", mtu=1500, has_ipv4=True)]
    facts.nvml.gpus[0].mig_mode = True
    facts.mig_devices = [MigDeviceFacts(gpu_index=0, index=0, profile="3g.40gb")]
    facts.shm.present, facts.shm.size_bytes, facts.shm.fs_type = True, 64 * 2**20, "tmpfs"
    facts.limits.memlock_soft = facts.limits.memlock_hard = 64 * 2**10
    facts.limits.nofile_soft = facts.limits.nofile_hard = 1024
    facts.python.version, facts.python.executable = "3.12.7", "/usr/bin/python3"
    # PCIe through the host bridge between two of four GPUs, no NVLink: cuda.p2p-topology goes on to read the env
    facts.gpu_topology = GpuTopologyFacts(available=True, gpus=[0, 1, 2, 3],
                                          links=[GpuLinkFacts(a, b, "PHB") for a in range(4) for b in range(a + 1, 4)])
    facts.distributions += [kit.dist("deepspeed", "0.16.9+ali"), kit.dist("nvidia-nccl-cu12", "2.21.5")]
    return facts


class _Trace:
    """Which fields of the facts are read: each dataclass of a ``Facts`` (the object and those in its fields) is made
    an instance of a subclass that logs every field read as a dotted path (``"nvml.gpus"``, ``"env"``)."""

    _classes: dict[type, type] = {}

    def __init__(self, facts: Facts):
        self.read: set[str] = set()
        self._wrap(facts, "")

    def _wrap(self, obj, prefix: str) -> None:
        cls = type(obj)
        if cls not in self._classes:
            names = frozenset(f.name for f in dataclasses.fields(cls))

            def __getattribute__(self_, name, _names=names):
                value = object.__getattribute__(self_, name)
                if name in _names:
                    trace, at = object.__getattribute__(self_, "_lingjun_trace")
                    trace.read.add(at + name)
                return value

            self._classes[cls] = type(f"Traced{cls.__name__}", (cls,), {"__getattribute__": __getattribute__})
        object.__setattr__(obj, "_lingjun_trace", (self, prefix))
        obj.__class__ = self._classes[cls]
        for f in dataclasses.fields(cls):
            value = object.__getattribute__(obj, f.name)
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                self._wrap(value, f"{prefix}{f.name}.")

    def sections(self) -> set[str]:
        """The sections (:data:`coverage.SECTIONS`) whose snapshot keys were read, or fields inside them."""
        return {s.id for s in coverage.SECTIONS.values() for key in s.keys for path in self.read
                if path == key or path.startswith(key + ".")}


@functools.lru_cache(maxsize=1)
def _sections_read() -> dict[str, set[str]]:
    """``{rule id: the sections its function read}`` over :data:`_SNAPSHOTS` and :func:`_every_section_shown`, each
    with the fixture record of training-nv-pytorch 25.07 as the release (the function itself, not the runner)."""
    inputs = [lambda path=path: Facts.from_dict(json.loads(path.read_text(encoding="utf-8"))) for path in _SNAPSHOTS]
    inputs.append(_every_section_shown)
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    data = kit.data()  # holds rec: rules only read the knowledge data
    read: dict[str, set[str]] = {rule_id: set() for rule_id in RULES}
    for make in inputs:
        facts = make()
        trace = _Trace(facts)
        for rule_id, spec in RULES.items():  # rules never change the facts: one object serves them all
            ctx = kit.context(facts, kd=data, rec=rec)
            trace.read.clear()
            list(spec.func(ctx) or ())
            read[rule_id] |= trace.sections()
    return read


def test_the_trace_sees_reads_through_the_facts_own_views():
    facts = _rich_facts()
    trace = _Trace(facts)
    assert facts.gpus and facts.distribution("torch") is not None and facts.driver_version == "570.124.06"
    assert {"nvml.gpus", "distributions", "driver.kernel_module_version"} <= trace.read
    assert {"nvml", "distributions", "driver"} <= trace.sections()
    assert len(_SNAPSHOTS) > 20  # the real-world cases (C*) and the second set (T*)


@pytest.mark.parametrize("rule_id,section", NEEDS)
def test_a_declared_need_is_a_section_the_rule_reads(rule_id, section):
    """``needs`` is what the rule's own function reads, never a guess: a section it declares but never reads would
    skip it on every input lacking that section, for nothing.  With the skip test below, every rule's ``needs`` is
    checked both ways, whatever the rule (no list of rules here).  The converse, "every section a rule reads is
    declared", does not hold: rules also read sections they judge themselves (CUSTOM) or read for their wording
    (GPU counts, the host's OS, torch's version), and what they say when those are missing is checked by the
    no-absence tests of this module."""
    assert section in _sections_read()[rule_id], (rule_id, sorted(_sections_read()[rule_id]))


def _no_driver_version() -> Facts:
    facts = _rich_facts()
    facts.driver.kernel_module_version = None
    facts.nvml.driver_version = None
    facts.nvidia_smi.driver_version = None
    facts.nvml.cuda_driver_version = None
    facts.coverage.not_available = ["driver"]
    return facts


def _without(*sections: str) -> Facts:
    facts = _rich_facts()
    facts.coverage.not_available = list(sections)
    if "torch" in sections:
        facts.torch = None
    if "nvml" in sections:
        facts.nvml.library_version = None
    return facts


def _nothing_of_the_driver() -> Facts:
    facts = Facts(origin="snapshot")
    facts.coverage.not_available = list(coverage.DRIVER_SECTIONS)
    return facts


def _env_in_part() -> Facts:
    """A snapshot whose environment is shown only for CUDA_MODULE_LOADING (torch's collect_env)."""
    facts = _rich_facts()
    facts.env = {"CUDA_MODULE_LOADING": "LAZY"}
    facts.coverage.partial = ["env"]
    facts.coverage.env_prefixes = ["CUDA_MODULE_LOADING"]
    return facts


#: rules that judge the missing fact themselves: (rule, input lacking it, words the skipped message must hold)
CUSTOM = [
    ("driver.present", lambda: _nothing_of_the_driver(),
     "The snapshot does not show whether an NVIDIA driver is present"),
    ("driver.minimum", _no_driver_version, "Not compared with the minimum 575: the snapshot does not show the driver's version"),
    ("driver.cuda-compatibility", _no_driver_version, "was not compared with the driver: the snapshot does not show the driver's version"),
    ("driver.branch-eol", _no_driver_version, "The driver branch was not checked: the snapshot does not show the driver's version"),
    ("driver.nvml-mismatch", lambda: _without("nvml"), "The NVML library was not compared with the driver: the snapshot does not show NVML"),
    ("cuda.torch-build-vs-driver", lambda: _without("torch"), "torch's CUDA was not compared with the driver: the snapshot does not show torch's build"),
    ("cuda.torch-build-vs-driver", _no_driver_version, "torch's CUDA 12.8 was not compared with the driver: the snapshot does not show the driver's version"),
    ("env.checkpoint-optimization", lambda: _without("env"), "CHECKPOINT_OPTIMIZATION was not checked: the snapshot does not show environment variables"),
    ("env.nccl-socket-ifname-pod-size", lambda: _without("env"), "NCCL_SOCKET_IFNAME was not checked: the snapshot does not show environment variables"),
    ("cuda.visible-devices", _env_in_part, "CUDA_VISIBLE_DEVICES was not checked: the snapshot does not show whether CUDA_VISIBLE_DEVICES is set"),
    ("cuda.local-ranks", _env_in_part, "The ranks per node were not compared with the GPUs: the snapshot does not show the launcher's variables"),
    ("container.memlock-rdma", lambda: _without("rdma"),
     "The locked-memory limit was not judged: the snapshot does not show the RDMA devices and /dev/infiniband nodes"),
]

CUSTOM.append(("driver.forward-compat-consumer-gpu", lambda: _without("libcuda"),
               "The snapshot does not show which libcuda the loader resolves."))

#: rules that read no input section a snapshot or paste may lack, with why
EXEMPT = {
    "evidence.error-lines": "reads the logs and quoted error lines; skipped with its reason when none was given",
    "release.identified": "reads the release match (option, environment, manifest, fingerprint), which says itself how it was chosen",
    "cuda.available": "reports only what the input itself says about CUDA; silent when it says nothing",
    "cuda.compute-capability": "skipped with 'No GPU compute capability was reported' when no GPU is shown",
    "config.deepspeed-prefetch-bucket-size": "reads the file given with --deepspeed-config",
    "config.deepspeed-file": "reads the file given with --deepspeed-config and nothing else",
    "config.deepspeed-auto": "reads the file given with --deepspeed-config; says 'not shown' itself when the package list is partial",
    "config.deepspeed-numeric-strings": "reads the file given with --deepspeed-config",
    "config.deepspeed-precision": "reads the file given with --deepspeed-config",
    "config.deepspeed-batch-size": "reads the file given with --deepspeed-config; names WORLD_SIZE as not shown when the input lacks it",
    "config.deepspeed-offload-device": "reads the file given with --deepspeed-config",
    "known-issues.match": "a condition on a fact the input lacks makes the issue 'may apply (cannot tell: ...)'",
    "release.manifest-image": "compares the manifest's own two fields; silent when the input shows no manifest or no image",
    "cuda.fp8-capability": "reads --model, the --deepspeed-config file and the quoted errors; skipped naming what is missing "
                           "(no FP8 workload shown, or the GPUs' compute capability not shown)",
    "container.erdma-mr-size": "reads the quoted errors and the RDMA devices they or the input name; skipped naming what is missing",
}


def test_every_rule_is_covered_by_a_missing_fact_case():
    covered = {rule_id for rule_id, _ in NEEDS} | {rule_id for rule_id, _, _ in CUSTOM} | set(EXEMPT)
    assert covered == set(RULES), "a new rule needs needs=(...), a CUSTOM case or an EXEMPT reason here"


@pytest.mark.parametrize("rule_id,build,words", CUSTOM, ids=[f"{c[0]}-{i}" for i, c in enumerate(CUSTOM)])
def test_rule_judging_a_missing_fact_itself_says_skipped_and_why(rule_id, build, words):
    ctx = kit.context(build(), rec=kit.fixture_record("training-nv-pytorch:25.07"))
    findings = kit.run(rule_id, ctx)
    assert [f.severity.value for f in findings] == ["skipped"], [f.message.en for f in findings]
    assert words in findings[0].message.en
    assert findings[0].message.zh and findings[0].message.zh != findings[0].message.en


def test_known_issue_on_an_unshown_variable_may_apply():
    issue = kit.issue({"id": "test-env-issue", "kind": "known-issue", "severity": "warning",
                       "title": {"en": "Needs FOO unset", "zh": "需要不设置 FOO"}, "status": "open",
                       "description": {"en": "A test issue.", "zh": "测试用问题。"},
                       "workaround": {"en": "Unset it.", "zh": "取消设置。"},
                       "affects": {"families": ["training-nv-pytorch"]},
                       "condition": {"env": [{"name": "NCCL_FOO", "unset": True}]},
                       "sources": [{"url": "https://example.com/issue", "language": "en"}]})
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    facts = parse_collect_env("PyTorch version: 2.7.1\nNvidia driver version: 570.124.06\n")
    ctx = kit.context(facts, kd=kit.data([rec], [issue]), rec=rec)
    (finding,) = [f for f in kit.run("known-issues.match", ctx) if "test-env-issue" in f.message.en]
    assert finding.severity.value == "info"
    assert "may apply" in finding.message.en and "NCCL_FOO (the input does not show it)" in finding.message.en


@pytest.mark.parametrize("rule_id,section", NEEDS)
def test_rule_is_skipped_with_the_reason_when_a_needed_section_is_missing(rule_id, section):
    facts = _rich_facts()
    facts.coverage.not_available = [section]
    ctx = kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"))
    findings = kit.run(rule_id, ctx)
    assert [f.severity.value for f in findings] == ["skipped"]
    label = coverage.SECTIONS[section].label
    assert findings[0].message.en == f"The snapshot does not show {label.en}."
    joiner = " " if label.zh[:1].isascii() else ""  # a space where Chinese meets a Latin word or a path
    assert findings[0].message.zh == f"快照中不包含{joiner}{label.zh}。"


def test_needs_name_only_known_sections():
    from lingjun.checks.rules import rule

    with pytest.raises(KeyError, match="unknown facts section 'envs'"):
        rule("test.bad-needs", "environment", "x", "x", needs=("envs",))


@pytest.mark.parametrize("ref", ["training-nv-pytorch:25.07", "training-nv-pytorch:25.10", "training-nv-pytorch:25.06"])
def test_a_snapshot_that_shows_nothing_claims_no_absence(ref):
    facts = Facts(origin="snapshot")
    facts.coverage.not_available = list(coverage.SECTIONS)
    ctx = kit.context(facts, rec=kit.fixture_record(ref))
    findings = kit.all_findings(ctx)
    claims = [f"{f.rule}: {f.message.en}" for f in findings if ABSENCE.search(f.message.en)]
    assert claims == []
    assert not [f for f in findings if f.severity.value == "error"]
    driver = [f for f in findings if f.rule == "driver.present"]
    assert driver[0].severity.value == "skipped"
    assert driver[0].message.en.startswith("The snapshot does not show whether an NVIDIA driver is present")


@pytest.mark.parametrize("paste", [
    "PyTorch version: 2.6.0+cu124\nCUDA used to build PyTorch: 12.4\nPython version: 3.10.13 (main) [GCC] (64-bit runtime)\n"
    "GPU models and configuration: GPU 0: NVIDIA H20\nNvidia driver version: 570.124.06\nCUDA runtime version: 12.8.93\n"
    "CUDA_MODULE_LOADING set to: LAZY\nIs CUDA available: True\n[pip3] torch==2.6.0\n[pip3] numpy==2.2.6\n",
    # vLLM's layout, with its environment section (which lists NCCL_* and CUDA_* variables, not CHECKPOINT_OPTIMIZATION)
    "==============================\n PyTorch Info\n==============================\nPyTorch version : 2.7.0+cu128\n"
    "CUDA used to build PyTorch : 12.8\n==============================\n CUDA / GPU Info\n==============================\n"
    "Is CUDA available : True\nGPU models and configuration :\nGPU 0: NVIDIA H20\nNvidia driver version : 570.124.06\n"
    "[pip3] torch==2.7.0\n==============================\n     Environment Variables\n==============================\n"
    "NCCL_DEBUG=INFO\n",
], ids=["torch-format", "vllm-format"])
@pytest.mark.parametrize("ref", ["training-nv-pytorch:25.07", "training-nv-pytorch:25.10"])
def test_collect_env_paste_with_a_release_claims_no_absence_it_cannot_show(paste, ref):
    facts = parse_collect_env(paste)
    ctx = kit.context(facts, rec=kit.fixture_record(ref))
    findings = kit.all_findings(ctx)
    # vLLM's paste lists every NCCL_* and CUDA_* variable, so "NCCL_SOCKET_IFNAME is unset" and "CUDA_VISIBLE_DEVICES is
    # unset" are observed there
    shown = ("NCCL_", "CUDA_VISIBLE_DEVICES is unset") if facts.coverage.env_prefixes and "NCCL" in facts.coverage.env_prefixes else ()
    claims = [f"{f.rule}: {f.message.en}" for f in findings
              if ABSENCE.search(f.message.en) and not any(f.message.en.startswith(p) for p in shown)]
    assert claims == []
    by_rule = {f.rule: f for f in findings}
    if ref.endswith("25.07"):  # the release documents CHECKPOINT_OPTIMIZATION
        assert by_rule["env.checkpoint-optimization"].severity.value == "skipped"
        assert "does not show environment variables" in by_rule["env.checkpoint-optimization"].message.en
    assert by_rule["driver.device-nodes"].severity.value == "skipped"
    assert by_rule["driver.forward-compat-consumer-gpu"].severity.value == "skipped"
    missing = [f for f in findings if f.rule == "packages.missing"]
    assert [f.severity.value for f in missing if "not checked" in f.message.en] == ["skipped"]
    assert not [f for f in missing if f.severity.value == "warning"]


def test_vllm_paste_shows_nccl_variables_so_unset_is_observed():
    paste = ("PyTorch version : 2.7.0+cu128\nGPU models and configuration :\n" + "".join(f"GPU {i}: NVIDIA H20\n" for i in range(8))
             + "Nvidia driver version : 570.124.06\n==============================\n     Environment Variables\n"
             "==============================\nNCCL_DEBUG=INFO\n")
    facts = parse_collect_env(paste)
    ctx = kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"))
    (finding,) = kit.run("env.nccl-socket-ifname-pod-size", ctx)
    assert finding.severity.value == "warning"
    assert "NCCL_SOCKET_IFNAME is unset" in finding.message.en


def test_live_facts_still_say_unset():
    facts = kit.gpu_facts("570.124.06")
    ctx = kit.context(facts, rec=kit.fixture_record("training-nv-pytorch:25.07"))
    (finding,) = kit.run("env.checkpoint-optimization", ctx)
    assert finding.severity.value == "info" and "CHECKPOINT_OPTIMIZATION is unset" in finding.message.en
