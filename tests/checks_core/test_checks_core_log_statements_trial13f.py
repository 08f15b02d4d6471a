"""What the lines of the thirteenth trial's failures state (trial 13b, cases 03, 04 and 06): why TGI's flash-attention
models did not import (a missing kernel module, no CUDA, the GPU's capability), the reason TensorRT gives for refusing
an engine plan (another release, another GPU, not a plan), and a Transformer Engine library that fails to load.

Every line is quoted from a public report (the source follows each one); lines in the form of a TGI release with no
public report at hand are its source's message filled in (server/text_generation_server/models/__init__.py and
utils/flash_attn.py at the tag named), and say so.
"""

from __future__ import annotations

import pytest

from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import UNKNOWN, fact_value
from log_statements_kit import feed, stated


TGI = ("tgi.kernels_missing", "tgi.cuda_unavailable")


@pytest.mark.parametrize("line, missing, unavailable, capability", [
    # huggingface/text-generation-inference#663 (TGI built from source without the vLLM kernels): the trial's case 03
    ("2023-07-20T12:31:14.506674Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: No "
     "module named 'vllm_cache_ops'", True, False, None),
    # huggingface/text-generation-inference#2621 (TGI 2.3.1 built from source)
    ("2024-10-08T09:26:28.345909Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: No "
     "module named 'moe_kernels'", True, False, None),
    # huggingface/text-generation-inference#1778: FlashAttention not found by a source install (two lines in the log)
    ("2024-04-20T07:20:49.339061Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: "
     "Flash Attention is not installed.", True, False, None),
    # huggingface/text-generation-inference#686 (the official image on a V100)
    ("2023-07-24T02:39:19.746433Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: GPU "
     "with CUDA capability 7 0 is not supported", False, False, "7.0"),
    # huggingface/text-generation-inference#714 (H100, the container without a usable GPU)
    ("2023-07-27T17:29:53.881747Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: CUDA "
     "is not available", False, True, None),
    # huggingface/text-generation-inference#2096 (the warning TGI prints when USE_FLASH_ATTENTION=false)
    ("WARN text_generation_launcher: Could not import Flash Attention enabled models: `USE_FLASH_ATTENTION` is false.",
     False, False, None),
])
def test_tgis_warning_states_why_its_flash_attention_models_did_not_import(line, missing, unavailable, capability):
    evidence = feed(line)
    facts = stated(evidence)
    assert (facts["tgi.kernels_missing"], facts["tgi.cuda_unavailable"]) == (missing, unavailable)
    assert facts.get("gpu.compute_capability") == capability
    assert fact_value("tgi.kernels_missing", Facts(), evidence).value is missing
    assert fact_value("tgi.cuda_unavailable", Facts(), evidence).line == "job.log:1"


@pytest.mark.parametrize("line, capability", [
    # huggingface/text-generation-inference#1161 (T4): TGI 1.x falls back to the first FlashAttention; the capability only
    ("2023-10-17T07:47:06.229031Z WARN text_generation_launcher: Unable to use Flash Attention V2: GPU with CUDA "
     "capability 7 5 is not supported for Flash Attention V2", "7.5"),
    # huggingface/text-generation-inference#533 (V100, TGI 0.8): the old warning's traceback ends in the capability check
    ("ImportError: GPU with CUDA capability 7 0 is not supported", "7.0"),
])
def test_the_capability_tgis_check_refused_is_the_gpus(line, capability):
    evidence = feed(line)
    assert stated(evidence)["gpu.compute_capability"] == capability
    assert fact_value("gpu.compute_capability_min", Facts(), evidence).value == capability
    assert not set(TGI) & set(stated(evidence))


@pytest.mark.parametrize("line", [
    # huggingface/text-generation-inference#814: TGI 1.0's warning (it then runs the first FlashAttention)
    "2023-08-11T06:42:31.317013Z  WARN text_generation_launcher: Unable to use Flash Attention V2: Flash Attention V2 is "
    "not installed.",
    # TGI 0.9.0 to 0.9.3: the warning has no reason and its traceback ends in flash_llama_modeling.py's
    # import vllm_cache_ops (Python's message for it, filled in)
    "ModuleNotFoundError: No module named 'vllm_cache_ops'",
])
def test_a_missing_tgi_kernel_is_stated_without_the_import_warning(line):
    assert {name: stated(feed(line))[name] for name in TGI} == {"tgi.kernels_missing": True, "tgi.cuda_unavailable": False}


def test_tgi_0_9_s_refusal_without_cuda_states_it():
    """TGI v0.9.0 to v0.9.3's message when torch sees no CUDA device (models/__init__.py), filled in."""
    facts = stated(feed("NotImplementedError: Sharded Llama requires CUDA. No compatible CUDA devices found."))
    assert (facts["tgi.cuda_unavailable"], facts["tgi.kernels_missing"]) == (True, False)


def test_the_same_module_name_elsewhere_states_nothing_of_tgi():
    # vllm-project/vllm#3147's vLLM kernels, not TGI's vendored ones
    assert not set(TGI) & set(stated(feed("ModuleNotFoundError: No module named 'vllm._C'")))


@pytest.mark.parametrize("line, fact", [
    # triton-inference-server/tensorrtllm_backend#299
    ("[TensorRT-LLM][ERROR] 1: [stdArchiveReader.cpp::stdArchiveReaderInitCommon::47] Error Code 1: Serialization "
     "(Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not match. Note: Current "
     "Version: 226, Serialized Engine Version: 228)", "tensorrt.engine_other_release"),
    # NVIDIA/retinanet-examples#314
    ("6: The engine plan file is not compatible with this version of TensorRT, expecting library version 8.0.0 got "
     "8.0.1, please rebuild.", "tensorrt.engine_other_release"),
    # Tencent/PhoenixGo#23 (TensorRT 3 and 4 say GIE)
    ("The engine plan file is not compatible with this version of GIE, please rebuild.", "tensorrt.engine_other_release"),
    # Tencent-Hunyuan/HunyuanDiT#234: TensorRT 10's form, cut before its note
    ("IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Serialization assertion stdVersionRead == "
     "kSERIALIZATION_VERSION failed.", "tensorrt.engine_other_release"),
    # NVIDIA/TensorRT#2176
    ("The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute 7.5, please "
     "rebuild.4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization failed.)",
     "tensorrt.engine_other_gpu"),
    # lix19937/tensorrt-insight#65: the ONNX model read in place of the plan
    ("ERROR: 1: [stdArchiveReader.cpp::StdArchiveReader::32] Error Code 1: Serialization (Serialization assertion "
     "magicTagRead == kMAGIC_TAG failed.Magic tag does not match)", "tensorrt.plan_unreadable"),
    # NVIDIA/TensorRT#2915
    ("ERROR: 1: [runtime.cpp::parsePlan::314] Error Code 1: Serialization (Serialization assertion plan->header.magicTag "
     "==rt::kPLAN_MAGIC_TAG failed.)", "tensorrt.plan_unreadable"),
    # RichardoMrMu/yolov5-deepsort-tensorrt#5
    ("[10/31/2021-21:09:01] [E] [TRT] INVALID_ARGUMENT: Cannot deserialize with an empty memory buffer.",
     "tensorrt.plan_unreadable"),
])
def test_tensorrts_line_states_why_it_refused_the_engine(line, fact):
    evidence = feed(line)
    reasons = {name: value for name, value in stated(evidence).items() if name.startswith("tensorrt.")
               and name in ("tensorrt.engine_other_release", "tensorrt.engine_other_gpu", "tensorrt.plan_unreadable")}
    assert reasons == {fact: True}
    assert fact_value(fact, Facts(), evidence).value is True


def test_the_deserialize_line_alone_states_no_reason():
    # triton-inference-server/tensorrtllm_backend#424 (the trial's case 04)
    evidence = feed("| tensorrt_llm     | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: "
                    "[TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/tmp/tritonbuild/"
                    "tensorrtllm/tensorrt_llm/cpp/tensorrt_llm/runtime/tllm |")
    for fact in ("tensorrt.engine_other_release", "tensorrt.engine_other_gpu", "tensorrt.plan_unreadable"):
        assert fact_value(fact, Facts(), evidence).value is UNKNOWN


@pytest.mark.parametrize("line", [
    # nvidia-cosmos/cosmos-transfer2.5#84 (the trial's case 06)
    "[rank1]: ImportError: cosmos_acclerate/cosmos-transfer2.5-1.3.0/cosmos-transfer2.5/.venv/lib/python3.10/site-packages/"
    "transformer_engine/transformer_engine_torch.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_",
    # NVIDIA/TransformerEngine#1684 (TE 2.1's wheel_lib)
    "ImportError: /home/sombit-ng-nonadm/miniconda3/envs/soumyajit_intern/lib/python3.11/site-packages/transformer_engine/"
    "wheel_lib/transformer_engine_torch.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c106detail14torchCheckFailEPK"
    "cS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
    # huggingface/accelerate#1475 (TE 1.x's extension at the top of site-packages)
    "ImportError: /usr/local/lib/python3.8/dist-packages/transformer_engine_extensions.cpython-38-x86_64-linux-gnu.so: "
    "undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
    # NVIDIA/TransformerEngine#2504: TE's core library
    "OSError: /home/hadoop-friday-studio/.conda/envs/verl/lib/python3.12/site-packages/transformer_engine/"
    "libtransformer_engine.so: undefined symbol: _ZN18transformer_engine9to_stringERK15NVTEScalingMode",
])
def test_a_transformer_engine_library_in_the_failing_line_is_stated(line):
    evidence = feed(line)
    assert stated(evidence)["log.in_transformer_engine"] is True
    assert fact_value("log.in_transformer_engine", Facts(), evidence).value is True


def test_transformer_engines_python_frames_are_not_its_library():
    """A frame of TE's Python code (it imports flash-attn, whose library may be the one failing) states nothing:
    NVIDIA/TransformerEngine#1541's frame."""
    frame = ("  File \"/openbayes/home/Test/env/wan211/lib/python3.10/site-packages/transformer_engine/pytorch/__init__.py\", "
             "line 52, in _load_library")
    assert "log.in_transformer_engine" not in stated(feed(frame))
