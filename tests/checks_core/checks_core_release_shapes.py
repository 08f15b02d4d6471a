"""Release data of the checker's issue-12 tests: a release with two images (variants), a PPU release with
framework runtimes and a PPU release named by its tag, compiled into a bundle the way ``lingjun-kb bundle``
compiles ``releases/``.

The frozen fixture knowledge base (``tests/fixtures/kb``) plus three records whose facts are those of the
official pages (values only; the summaries are this file's own words):

* ``inference-nv-pytorch`` 25.04, https://help.aliyun.com/zh/cs/user-guide/inference-nv-pytorch-25-04 :
  a vLLM image and an SGLang image, each with its tag and component list; NVIDIA driver >= 550;
* ``training-xpu-pytorch`` 2026-10-20, https://help.aliyun.com/zh/document_detail/3172892.html : PPU SDK
  2.2, no driver requirement in the copy read, three runtimes under ``/opt/runtimes/`` (the copy read lists
  one dependency of the first and none of the others: their lists are not captured);
* ``inference-xpu-pytorch-opt`` ``sglang0.5.4.post3-250105``, https://help.aliyun.com/zh/document_detail/3014531.html :
  PPU SDK 1.7.0.post1, PPU driver >= 1.1.0.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.schema.models import Component, Family, ReleaseRecord

REPO = Path(__file__).resolve().parents[2]
FIXTURE_KB = REPO / "tests" / "fixtures" / "kb"

VLLM_TAG = "25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"
SGLANG_TAG = "25.04-sglang0.4.6.post1-pytorch2.6-cu124-20250430-serverless"
REGISTRY = "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun"
XPU_TAG = "ppu2.2-pytorch2.10.0-ubuntu24.04-cuda13.0-py312-ljzoo-20261020"
OPT_TAG = "sglang0.5.4.post3-250105"


def _text(en: str, zh: str) -> dict:
    return {"en": en, "zh": zh}


def _entries(*pairs: tuple) -> list:
    return [{"id": cid, "name": name, "version": version} for cid, name, version in pairs]


_COMMON_2504 = (("ubuntu", "Ubuntu", "22.04"), ("python", "Python", "3.10"), ("torch", "Torch", "2.6.0+cu124"),
                ("cuda", "CUDA", "12.4"), ("accl-n", "ACCL-N", "2.23.4.12"))

INFERENCE_2504 = {
    "kind": "release", "family": "inference-nv-pytorch", "version": "25.04", "status": "superseded",
    "summary": _text("Test copy of inference-nv-pytorch 25.04: a vLLM and an SGLang image.",
                     "inference-nv-pytorch 25.04 的测试副本：vLLM 镜像与 SGLang 镜像。"),
    "cuda": "12.4", "python": "3.10",
    "driver": {"vendor": "nvidia", "minimum": "550", "stated_as": "NVIDIA Driver release >= 550", "text_truncated": True},
    "variants": [
        {"id": "vllm", "title": _text("vLLM image", "vLLM 镜像"),
         "image_tags": [{"tag": VLLM_TAG, "reference": f"{REGISTRY}/inference-nv-pytorch:{VLLM_TAG}"}],
         "component_list": "complete",
         "components": _entries(*_COMMON_2504, ("accelerate", "accelerate", "1.6.0"), ("diffusers", "diffusers", "0.33.1"),
                                ("flash-attn", "flash_attn", "2.7.4.post1"), ("transformers", "transformer", "4.51.3"),
                                ("vllm", "vllm", "0.8.5"), ("ray", "ray", "2.43.0"), ("triton", "triton", "3.2.0"),
                                ("xgrammar", "xgrammar", "0.1.18"))},
        {"id": "sglang", "title": _text("SGLang image", "SGLang 镜像"),
         "image_tags": [{"tag": SGLANG_TAG, "reference": f"{REGISTRY}/inference-nv-pytorch:{SGLANG_TAG}"}],
         "component_list": "complete",
         "components": _entries(*_COMMON_2504, ("transformers", "transformers", "4.51.1"), ("triton", "triton", "3.2.0"),
                                ("xgrammar", "xgrammar", "0.1.17"), ("flashinfer", "flashinfer-python", "0.2.3"),
                                ("sglang", "sglang", "0.4.6.post1"), ("sgl-kernel", "sgl-kernel", "0.1.0"))},
    ],
    "sources": [{"url": "https://help.aliyun.com/zh/cs/user-guide/inference-nv-pytorch-25-04", "language": "zh"}],
}

TRAINING_XPU_20261020 = {
    "kind": "release", "family": "training-xpu-pytorch", "version": "2026-10-20", "status": "current",
    "summary": _text("Test copy of the PPU training image of 2026-10-20 with three framework runtimes.",
                     "2026-10-20 PPU 训练镜像的测试副本，含三个训练框架运行时。"),
    "architectures": ["amd64"], "ppu_sdk": "2.2", "python": "3.12.3",
    "not_captured": ["known_issues", "driver"],  # as the real record: the copy ends before the later sections
    "image_tags": [{"tag": XPU_TAG, "reference": f"{REGISTRY}/training-xpu-pytorch:{XPU_TAG}", "architectures": ["amd64"]}],
    "component_list": "complete",
    "components": _entries(("ubuntu", "Ubuntu", "24.04.2"), ("python", "Python", "3.12.3"), ("torch", "torch", "2.10.0"),
                           ("cuda", "cuda-wrapper", "13.0"), ("triton", "Triton", "3.6.0+gitc6a4cb0f"),
                           ("ppu-sdk", "PPU SDK", "2.2")),
    "runtimes": [
        {"id": "cosmos-framework/20261015", "name": "cosmos framework", "path": "/opt/runtimes/cosmos-framework-ppu",
         "component_list": "partial", "components": _entries(("cosmos-framework", "cosmos-framework", "1.2.2"))},
        {"id": "llama-factory/20261015", "name": "LlamaFactory", "path": "/opt/runtimes/llama-factory-ppu",
         "component_list": "not-captured"},
        {"id": "diffsynth/20261015", "name": "DiffSynth Studio", "path": "/opt/runtimes/diffsynth-ppu/",
         "component_list": "not-captured"},
    ],
    "sources": [{"url": "https://help.aliyun.com/zh/document_detail/3172892.html", "language": "zh"}],
}

INFERENCE_XPU_OPT = {
    "kind": "release", "family": "inference-xpu-pytorch-opt", "version": OPT_TAG, "status": "current",
    "summary": _text("Test copy of the PPU SGLang inference image sglang0.5.4.post3-250105.",
                     "PPU SGLang 推理镜像 sglang0.5.4.post3-250105 的测试副本。"),
    "ppu_sdk": "1.7.0.post1", "python": "3.12.3",
    "image_tags": [{"tag": OPT_TAG, "reference": f"{REGISTRY}/inference-xpu-pytorch-opt:{OPT_TAG}"}],
    "driver": {"vendor": "ppu", "minimum": "1.1.0", "stated_as": "Driver version >= 1.1.0"},
    "component_list": "complete",
    "components": _entries(("ubuntu", "Ubuntu", "24.04"), ("python", "Python", "3.12.3"), ("cuda", "CUDA", "12.9"),
                           ("torch", "Torch", "2.8.0"), ("flash-attn", "flash-attn", "2.8.2+ppu1.7.0.post1"),
                           ("flashinfer", "flashinfer", "0.4.0rc3"), ("sglang", "sglang", "0.5.4.post3+7a2348"),
                           ("sgl-kernel", "sgl-kernel", "0.3.16.post5+ppu1.7.0.post1"), ("ppu-sdk", "PPU SDK", "1.7.0.post1")),
    "sources": [{"url": "https://help.aliyun.com/zh/document_detail/3014531.html", "language": "zh"}],
}


def _family(fid: str, accelerator: str, scenario: str) -> Family:
    return Family.model_validate({
        "id": fid, "image_name": fid, "title": _text(fid, fid), "description": _text(f"Test family {fid}.", f"测试系列 {fid}。"),
        "vendor": "Alibaba Cloud", "accelerator": accelerator, "scenarios": [scenario], "framework": "pytorch",
        "public_registry_pattern": "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/{image}:{tag}",
        "vpc_registry_pattern": "acs-registry-vpc.{region-id}.cr.aliyuncs.com/egslingjun/{image}:{tag}",
    })


def _catalog(cid: str, pypi: list) -> Component:
    return Component.model_validate({
        "id": cid, "name": cid, "published_names": [cid], "layer": "library",
        "description": _text(f"Test catalog entry {cid}.", f"测试组件 {cid}。"), "pypi": pypi, "probe": {"kind": "pypi"},
    })


@functools.lru_cache(maxsize=1)
def _bundle() -> str:
    from lingjun.generator.bundle import bundle_json, compile_bundle
    from lingjun.schema.loader import load_knowledge_base

    kb, problems = load_knowledge_base(FIXTURE_KB)
    assert not [p for p in problems if p.is_error]
    kb.families["inference-nv-pytorch"] = _family("inference-nv-pytorch", "nvidia-gpu", "inference")
    kb.families["inference-xpu-pytorch-opt"] = _family("inference-xpu-pytorch-opt", "ppu", "inference")
    for cid, pypi in (("xgrammar", ["xgrammar"]), ("sglang", ["sglang"]), ("sgl-kernel", ["sgl-kernel"]),
                      ("cosmos-framework", ["cosmos-framework"])):
        kb.components[cid] = _catalog(cid, pypi)
    kb.releases += [ReleaseRecord.model_validate(r) for r in (INFERENCE_2504, TRAINING_XPU_20261020, INFERENCE_XPU_OPT)]
    kb.sort()
    return bundle_json(compile_bundle(kb, site_url="https://kb.example.org/"))


def bundle() -> dict:
    """The compiled bundle (a fresh copy)."""
    return copy.deepcopy(json.loads(_bundle()))


def data() -> KnowledgeData:
    """The bundle as the checker loads it (shape checked)."""
    return KnowledgeData.from_dict(bundle())


def write_bundle(path: Path) -> Path:
    """Write the bundle to ``path`` (for ``--data``); returns ``path``."""
    path.write_text(_bundle(), encoding="utf-8")
    return path
