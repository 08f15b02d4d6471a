"""Verdicts the trials got wrong: a driver too old for the GPU's architecture, a branch the reference data does not
hold, and the checker's two driver rules reading one decision (issue 11 trials, task SF items 1-3)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
from lingjun.checks.core.release_compat import driver_predates_gpu
from lingjun.checks.core.versions import DriverVersion
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.rules import RULES, load_rules
from lingjun.checks.runner import run_rule
from lingjun.generator.bundle import compile_bundle
from lingjun.generator.site.finder import WhichError, find_gpu, finder_data, gpu_lookup, parse_driver_input, which

from site_kit import REPO

load_rules()


@pytest.fixture(scope="module")
def knowledge(real):
    kb, _ = real
    bundle = compile_bundle(kb)
    return kb, KnowledgeData.from_dict(bundle), bundle


def _by_release(kb, driver: str, gpu: str) -> dict:
    return {r["release"]: r for r in which(kb, driver, gpu, all_families=True)["releases"]}


def test_a_driver_older_than_the_gpus_architecture_is_unsupported_for_every_nvidia_release(real):
    kb, _ = real
    h20 = _by_release(kb, "R470", "H20")
    row = h20["training-nv-pytorch:25.07"]
    assert row["verdict"] == "unsupported"
    assert row["reason"]["en"].startswith("R470 predates Hopper GPUs: sm_90 needs a driver for CUDA 11.8 or later")
    assert "R470 早于 Hopper 架构 GPU" in row["reason"]["zh"]
    assert {r["verdict"] for r in h20.values()} == {"unsupported"}
    b200 = _by_release(kb, "R535", "B200")
    assert b200["training-nv-pytorch:25.08"]["verdict"] == "unsupported"
    assert b200["training-nv-pytorch:25.08"]["reason"]["en"].startswith(
        "R535 predates Blackwell GPUs: sm_100 needs a driver for CUDA 12.8 or later")
    # the same branch drives the architectures it came after: an A100 (sm_80, CUDA 11.0) on R470, H20 on R535
    assert "predates" not in _by_release(kb, "R470", "A100")["training-nv-pytorch:25.07"]["reason"]["en"]
    assert _by_release(kb, "535.183.01", "H20")["training-nv-pytorch:25.08"]["verdict"] == "forward-compat"
    # the PPU image keeps its own reason
    assert "PPU" in h20["training-xpu-pytorch:25.05"]["reason"]["en"]


def test_driver_predates_gpu_reads_the_first_cuda_of_the_architecture(real):
    kb, _ = real
    ref = kb.cuda_drivers.model_dump(mode="json")
    assert driver_predates_gpu(DriverVersion.parse("470"), "9.0", ref) is not None
    assert driver_predates_gpu(DriverVersion.parse("535"), "9.0", ref) is None
    assert driver_predates_gpu(DriverVersion.parse("535"), "12.0", ref) is not None
    assert driver_predates_gpu(DriverVersion.parse("570"), "12.0", ref) is None
    assert driver_predates_gpu(DriverVersion.parse("470"), "8.0", ref) is None
    # no compute capability, or one without a known first CUDA: the data does not decide
    assert driver_predates_gpu(DriverVersion.parse("470"), None, ref) is None
    assert driver_predates_gpu(DriverVersion.parse("470"), "9.9", ref) is None


def test_the_finder_page_data_gives_the_same_architecture_and_branch_readings(real):
    kb, _ = real
    data = finder_data(kb)
    gpus = {g["name"]: g for g in data["gpus"]}
    entry = next(r for r in data["releases"] if r["ref"] == "training-nv-pytorch:25.07")
    row = gpu_lookup(data, entry, gpus["H20"], parse_driver_input("470.256.02"))
    assert row[1] == "unsupported" and data["reasons"][row[2]][0].startswith("R470 predates Hopper GPUs")
    assert "predates" not in str(gpus["A100"].get("predates"))
    # R999: not in the reference data, the same reading as which
    row = gpu_lookup(data, entry, gpus["H20"], parse_driver_input("R999"))
    assert row[1] == "not-stated" and row[2] == "R999 is not in the reference data: no verdict."
    # every release, as which answers (a PPU image stays unsupported with its own reason)
    for driver, gpu in (("R999", "H20"), ("470.57.02", "H20"), ("R535", "B200"), ("535.183.01", "GeForce RTX 4090")):
        answers = {r["release"]: r["verdict"] for r in which(kb, driver, gpu, all_families=True)["releases"]}
        shown = {r["ref"]: gpu_lookup(data, r, gpus[gpu], parse_driver_input(driver))[1] for r in data["releases"]}
        assert shown == answers, (driver, gpu)
        assert answers["training-xpu-pytorch:25.05"] == "unsupported"


def test_a_branch_newer_than_the_reference_data_is_not_stated(real):
    kb, _ = real
    rows = [r for r in which(kb, "999", "H20")["releases"] if "xpu" not in r["release"]]  # PPU images stay unsupported
    assert rows and {r["verdict"] for r in rows} == {"not-stated"}
    assert {r["reason"]["en"] for r in rows} == {"R999 is not in the reference data: no verdict."}
    assert {r["reason"]["zh"] for r in rows} == {"参考数据中没有 R999，无法给出结论。"}


def _ctx(kd, record, driver: str, gpu=("NVIDIA H20", "nvidia"), forward_in_use=None, compat_dir=True):
    facts = Facts()
    facts.driver.kernel_module_version = driver
    facts.driver.device_nodes = ["/dev/nvidiactl", "/dev/nvidia0"]
    facts.driver.device_nodes_accessible = True
    facts.nvml.init_ok = True
    facts.nvml.driver_version = driver
    facts.nvml.gpus = [GpuFacts(index=0, name=gpu[0], brand=gpu[1])]
    if compat_dir:
        facts.cuda.compat_dir = "/usr/local/cuda/compat"
    facts.libcuda.is_forward_compat = forward_in_use
    return CheckContext(facts=facts, data=kd,
                        release=ReleaseMatch(ref=f"{record['family']}:{record['version']}", how="option", score=None,
                                             record=record),
                        options=CheckOptions())


def _record(bundle, version):
    return next(r for r in bundle["releases"] if r["family"] == "training-nv-pytorch" and r["version"] == version)


def test_driver_rules_read_one_decision_when_the_loaded_libcuda_is_not_shown(knowledge):
    """H20 + 535.183.01 + 25.08, a snapshot that does not say which libcuda is loaded: both rules say forward compat."""
    _, kd, bundle = knowledge
    ctx = _ctx(kd, _record(bundle, "25.08"), "535.183.01")
    [minimum] = run_rule(RULES["driver.minimum"], ctx)
    [cuda] = run_rule(RULES["driver.cuda-compatibility"], ctx)
    assert minimum.severity.value == "info" and "forward compatibility" in minimum.message.en
    assert cuda.severity.value == "ok" and "through forward compatibility" in cuda.message.en
    # the host's libcuda shown in use: both read minor version compatibility (warnings), neither says forward
    ctx = _ctx(kd, _record(bundle, "25.08"), "535.183.01", forward_in_use=False)
    [minimum] = run_rule(RULES["driver.minimum"], ctx)
    [cuda] = run_rule(RULES["driver.cuda-compatibility"], ctx)
    assert minimum.severity.value == "warning" and "admits R535" not in minimum.message.en
    assert cuda.severity.value == "warning" and "minor version compatibility" in cuda.message.en


def test_checker_reports_a_driver_older_than_the_gpus_architecture(knowledge):
    _, kd, bundle = knowledge
    ctx = _ctx(kd, _record(bundle, "25.07"), "470.256.02")
    [minimum] = run_rule(RULES["driver.minimum"], ctx)
    assert minimum.severity.value == "error"
    assert minimum.message.en.startswith("NVIDIA H20: R470 predates Hopper GPUs: sm_90 needs a driver for CUDA 11.8")
    [cuda] = run_rule(RULES["driver.cuda-compatibility"], ctx)
    assert cuda.severity.value == "skipped" and "predates Hopper" in cuda.message.en
    ctx = _ctx(kd, _record(bundle, "25.08"), "535.183.01", gpu=("NVIDIA B200", "nvidia"))
    [minimum] = run_rule(RULES["driver.minimum"], ctx)
    assert minimum.severity.value == "error" and "R535 predates Blackwell GPUs: sm_100" in minimum.message.en


_NODE = shutil.which("node")
_FINDER_JS = REPO / "generator" / "site" / "theme" / "assets" / "lingjun" / "finder.js"


@pytest.mark.skipif(_NODE is None, reason="node is not installed")
def test_the_finder_pages_gpu_lookup_reads_names_as_which_does(real):
    """finder.js's norm/findGpu, run under node on the finder's GPU list, pick what find_gpu picks (or nothing where
    find_gpu raises)."""
    kb, _ = real
    source = _FINDER_JS.read_text(encoding="utf-8")
    start = source.index("  // lingjun.checks.core.gpu_models.lookup_key")
    end = source.index("  function pick(")
    names = ["RTX", "RTX4090", "rtx 4090", "4090", "NVIDIA A100-SXM4-40GB", "\uff14\uff10\uff19\uff10", "GeForceRTX4090",
             "Edition", "RTX 409", "H2", "H20", "NVIDIA H200", "h-20", " - ", "NVIDIA", "x" * 300, "B200", "l20"]
    gpus = finder_data(kb)["gpus"]
    script = (source[start:end] + "\nvar gpus = " + json.dumps(gpus) + ";\nvar names = " + json.dumps(names) + ";\n"
              "process.stdout.write(JSON.stringify(names.map(function (n) { var g = findGpu(gpus, n); return g ? g.name : null; })));")
    out = subprocess.run([_NODE, "-e", script], capture_output=True, text=True, timeout=60, check=True).stdout
    via_js = json.loads(out)
    via_python = []
    for name in names:
        try:
            via_python.append(find_gpu(kb, name).name)
        except WhichError:
            via_python.append(None)
    assert via_js == via_python
    assert via_python[:5] == [None, "GeForce RTX 4090", "GeForce RTX 4090", "GeForce RTX 4090", "A100"]
