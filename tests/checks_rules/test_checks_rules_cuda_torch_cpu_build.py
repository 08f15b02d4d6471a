"""cuda.torch-cpu-build: a CPU-only torch on a GPU node or in a GPU image, with the index for the driver's CUDA."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from lingjun.checks.core.versions import CudaVersion
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.torch_build import cpu_only
from lingjun.checks.rules.cuda_torch_cpu_build import index_for

RULE = "cuda.torch-cpu-build"


def _run(facts, **kw):
    findings = kit.run(RULE, kit.context(facts, **kw))
    kit.assert_bilingual(findings)
    return findings


@pytest.mark.parametrize("version,cuda,hip,expected", [
    ("2.5.1+cpu", None, None, True),
    ("2.5.1", None, None, True),
    ("2.5.1+cu124", "12.4", None, False),
    ("2.5.1+rocm6.2", None, "6.2", False),
    ("2.5.1+cu124", None, None, False),  # a CUDA local version contradicts the missing CUDA field: not called CPU-only
])
def test_cpu_only(version, cuda, hip, expected):
    assert cpu_only(kit.torch_build(version, cuda, hip=hip)) is expected
    assert cpu_only(None) is False


@pytest.mark.parametrize("cuda,tag", [("12.8", "cu128"), ("12.2", "cu121"), ("12.5", "cu124"), ("13.1", "cu130"), ("11.8", "cu118"),
                                      ("11.0", None)])
def test_index_for_the_driver_cuda(cuda, tag):
    assert index_for(CudaVersion.parse(cuda)) == tag


def test_cpu_torch_on_a_gpu_node_is_an_error_with_the_index_for_the_driver():
    facts = kit.gpu_facts("535.161.08", gpus=[("NVIDIA A100-SXM4-80GB", "nvidia", "8.0")] * 2)
    facts.nvml.cuda_driver_version = 12020
    facts.torch = kit.torch_build("2.5.1+cpu", None)
    (f,) = _run(facts)
    assert f.severity.value == "error"
    assert f.message.en.startswith("torch 2.5.1+cpu is a CPU-only build on a node with NVIDIA A100-SXM4-80GB and 1 more GPU: "
                                   "CUDA will never be available")
    assert "pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu121" in f.remedy.en
    assert "(12.2, from NVML)" in f.remedy.en
    assert "https://pytorch.org/get-started/locally/" in f.links


def test_driver_cuda_from_table_3_when_nvml_has_no_cuda_version():
    facts = kit.gpu_facts("570.124.06")
    facts.torch = kit.torch_build("2.7.0+cpu", None)
    (f,) = _run(facts)
    assert f.severity.value == "error" and "--index-url https://download.pytorch.org/whl/cu128" in f.remedy.en
    assert "from Table 3" in f.remedy.en


def test_cpu_torch_in_a_gpu_image_without_gpus_is_a_warning():
    facts = Facts()
    facts.cuda.toolkit_version = "12.8.1"
    facts.env["NVIDIA_VISIBLE_DEVICES"] = "all"
    facts.torch = kit.torch_build("2.7.0+cpu", None)
    (f,) = _run(facts)
    assert f.severity.value == "warning"
    assert "in a GPU image (CUDA 12.8.1, NVIDIA_VISIBLE_DEVICES=all)" in f.message.en
    assert "where cuXYZ is the newest of cu124, cu126, cu128, cu129, cu130" in f.remedy.en


def test_cpu_torch_in_a_cpu_image_or_a_cuda_torch_says_nothing():
    cpu_image = Facts()
    cpu_image.torch = kit.torch_build("2.7.0+cpu", None)
    assert _run(cpu_image) == []
    cuda_torch = kit.gpu_facts("570.124.06")
    cuda_torch.torch = kit.torch_build("2.7.0+cu128", "12.8")
    assert _run(cuda_torch) == []


def test_cuda_available_names_the_same_build_first():
    facts = kit.gpu_facts("570.124.06")
    facts.torch = kit.torch_build("2.7.0+cpu", None)
    facts.symptoms.cuda_available = False
    (f,) = kit.run("cuda.available", kit.context(facts))
    assert "(1) torch 2.7.0+cpu is a CPU-only build (see cuda.torch-cpu-build" in f.message.en
