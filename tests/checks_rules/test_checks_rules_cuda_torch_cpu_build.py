"""cuda.torch-cpu-build: a CPU-only torch on a GPU node or in a GPU image, with the index for the driver's CUDA."""

from __future__ import annotations

import pytest

import checks_rules_kit as kit
from lingjun.checks.core.versions import CudaVersion
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.torch_build import cpu_only
from lingjun.checks.core.torch_wheels import best_variant

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


@pytest.mark.parametrize("release,cuda,tag", [
    ("2.7.1", "12.8", "cu128"), ("2.7.1", "12.9", "cu128"), ("2.7.1", "12.4", "cu118"), ("2.3.0", "12.8", "cu121"),
    ("2.9.0", "13.1", "cu130"), ("2.6.0", "12.5", "cu124"), ("2.8.0", "12.4", None), ("2.7.1", "11.4", None),
    ("3.0.0", "12.8", None),  # a release the table does not list
])
def test_best_variant_is_one_pytorch_published_for_that_release(release, cuda, tag):
    table = kit.data().torch_wheels
    assert best_variant(table, release, CudaVersion.parse(cuda).major_minor) == tag


def test_cpu_torch_on_a_gpu_node_is_an_error_with_the_index_for_the_driver():
    facts = kit.gpu_facts("535.161.08", gpus=[("NVIDIA A100-SXM4-80GB", "nvidia", "8.0")] * 2)
    facts.nvml.cuda_driver_version = 12020
    facts.torch = kit.torch_build("2.5.1+cpu", None)
    (f,) = _run(facts)
    assert f.severity.value == "error"
    assert f.message.en.startswith("torch 2.5.1+cpu is a CPU-only build on a node with NVIDIA A100-SXM4-80GB and 1 more GPU: "
                                   "CUDA will never be available")
    assert "pip install torch==2.5.1 --index-url https://download.pytorch.org/whl/cu121" in f.remedy.en
    assert "(it supports CUDA 12.2, from NVML)" in f.remedy.en
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
    # no driver to pick by: the variants PyTorch published for this release, one of them as a real command
    assert "PyTorch publishes torch 2.7.0 for cu118, cu126, cu128" in f.remedy.en and "cuXYZ is the newest" not in f.remedy.en
    assert "pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cu118" in f.remedy.en


def test_a_torch_release_the_table_does_not_list_gets_the_newest_listed_release_the_driver_runs():
    facts = kit.gpu_facts("570.124.06")
    facts.torch = kit.torch_build("3.0.0+cpu", None)
    (f,) = _run(facts)
    assert "pip install torch==2.9.1 --index-url https://download.pytorch.org/whl/cu128" in f.remedy.en


def test_a_torch_the_image_must_not_replace_is_never_told_to_be_replaced():
    xla = kit.gpu_facts("570.124.06")
    xla.torch = kit.torch_build("2.7.0+cpu", None)
    xla.distributions = [kit.dist("torch", "2.7.0+cpu"), kit.dist("torch_xla", "2.7.0")]
    (f,) = _run(xla)
    assert "torch_xla" in f.remedy.en and "pip install torch" not in f.remedy.en
    rec = kit.fixture_record("training-nv-pytorch:25.07")
    image = kit.gpu_facts("575.57.08")
    image.torch = kit.torch_build("2.7.1+cpu", None)
    (f,) = _run(image, rec=rec)
    assert "pip install torch" not in f.remedy.en and "fresh container" in f.remedy.en


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
