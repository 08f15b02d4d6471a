"""Lines of the thirteenth trial's public failure reports (trial 13b, cases 03, 04 and 06) that the checker missed or
led wrongly, and the other forms public reports and the programs' sources print of the same lines:

* TGI refusing a model without its flash-attention models (huggingface/text-generation-inference#663, the trial's case
  03): every wording of the refusal across TGI releases, led by the reason TGI's warning above it gives (a kernel module
  missing from a TGI built from source, a GPU older than Ampere, no CUDA in the process; #663, #686, #714);
* TensorRT(-LLM) failing to deserialize an engine (triton-inference-server/tensorrtllm_backend#424, case 04): the
  deserialize line alone reads as an engine of another TensorRT/TensorRT-LLM release, and below TensorRT's more
  specific line it sums that line up, led by the reason it states (NVIDIA/TensorRT#2176, lix19937/tensorrt-insight#65);
* Transformer Engine's extension failing to import after torch moved (nvidia-cosmos/cosmos-transfer2.5#84, case 06):
  the remedy puts back the torch the project pins (uv sync, pip install -r requirements.txt) or rebuilds TE for it.

Lines are quoted from the public reports named beside them; lines in the form of a TGI release with no public report
at hand are its source's message filled in (server/text_generation_server/models/__init__.py at the tag named), and
say so.
"""

from __future__ import annotations

import pytest

from signature_cases_kit import assert_line_is, assert_log_leads, assert_matches_none, cli_report, lead_cause

TGI = "tgi-flash-attention-models-required"
DESERIALIZE = "tensorrt-engine-deserialize-failed"
TRT_RELEASE = "tensorrt-engine-version-tag-mismatch"
TRT_DEVICE = "tensorrt-engine-incompatible-device"
SYMBOL = "python-extension-undefined-symbol"

#: huggingface/text-generation-inference#663 (TGI built from source, --num-shard 2): the trial's case 03
TGI_663 = ["text-generation-launcher --model-id LLaMA-13B --disable-custom-kernels --port 6006 --num-shard 2",
           "2023-07-20T12:31:14.506674Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: "
           "No module named 'vllm_cache_ops'",
           "",
           "NotImplementedError: Sharded Llama requires Flash Attention enabled models."]
#: huggingface/text-generation-inference#686 (the official image on V100s)
TGI_686 = ["2023-07-24T02:39:19.746433Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: "
           "GPU with CUDA capability 7 0 is not supported",
           "    raise NotImplementedError(FLASH_ATT_ERROR_MESSAGE.format(\"Sharded Llama\"))",
           "NotImplementedError: Sharded Llama requires Flash Attention enabled models.",
           " rank=0",
           "2023-07-24T02:39:20.704629Z ERROR text_generation_launcher: Shard 0 failed to start"]
#: huggingface/text-generation-inference#714 (H100s, TGI 0.9.3): the process saw no CUDA
TGI_714 = ["2023-07-27T17:29:53.881747Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: "
           "CUDA is not available",
           "NotImplementedError: Sharded Llama requires Flash Attention enabled models."]


def test_case03_a_tgi_built_from_source_without_its_kernels_leads_with_them(tmp_path):
    """The warning says vllm_cache_ops is missing: the kernels of a source install, not the GPU, lead; the remedy builds
    them (the thread's make install-vllm) or uses the official image."""
    findings = assert_log_leads(tmp_path, TGI_663, TGI, "kernels-not-installed")
    remedy = findings[0].remedy.en
    assert "install-vllm" in remedy and "ghcr.io/huggingface/text-generation-inference:" in remedy
    report = cli_report(tmp_path, TGI_663)
    match = next(m for m in report["evidence"]["matches"] if m["signature"] == TGI)
    assert match["ruled_out"] == ["no-cuda-in-process"]


def test_a_v100_leads_with_the_gpu_and_quotes_its_capability(tmp_path):
    findings = assert_log_leads(tmp_path, TGI_686, TGI, "gpu-older-than-ampere")
    remedy = findings[0].remedy.en
    assert "compute capability 7.0" in remedy and "--num-shard 1" in remedy
    assert {"kernels-not-installed", "no-cuda-in-process"} <= set(
        next(m for m in cli_report(tmp_path, TGI_686)["evidence"]["matches"] if m["signature"] == TGI)["ruled_out"])


def test_no_cuda_in_tgis_process_leads_with_the_gpus_of_the_container(tmp_path):
    assert_log_leads(tmp_path, TGI_714, TGI, "no-cuda-in-process")
    remedy = next(f for f in cli_report(tmp_path, TGI_714)["findings"] if f["rule"] == "evidence.error-lines")["remedy"]
    assert "--gpus all" in remedy and "nvidia.com/gpu: N" in remedy and "torch.cuda.is_available()" in remedy


@pytest.mark.parametrize("line, cause", [
    # huggingface/text-generation-inference#1138 (a TGI run from its source tree)
    ("NotImplementedError: Sharded Santacoder requires Flash Attention enabled models.", "gpu-older-than-ampere"),
    # TGI 3.x's refusal of a vision model (models/__init__.py: FLASH_ATT_ERROR_MESSAGE.format("Idefics")), filled in
    ("NotImplementedError: Idefics requires Flash Attention enabled models.", "gpu-older-than-ampere"),
    # huggingface/text-generation-inference#463 (TGI 0.8's wording)
    ("NotImplementedError: Sharded RefinedWeb requires Flash Attention CUDA kernels to be installed.",
     "gpu-older-than-ampere"),
    # TGI v0.9.0 to v0.9.3's three messages (models/__init__.py), filled in
    ("NotImplementedError: Sharded Llama requires CUDA and Flash Attention kernels to be installed.",
     "gpu-older-than-ampere"),
    ("NotImplementedError: Sharded Llama requires a CUDA device with capability 7.5, > 8.0 or 9.0. No compatible CUDA "
     "device found.", "gpu-older-than-ampere"),
    ("NotImplementedError: Sharded Llama requires CUDA. No compatible CUDA devices found.", "no-cuda-in-process"),
    # huggingface/text-generation-inference#1208 (TGI 1.1)
    ("NotImplementedError: Mistral model requires flash attention v2", "gpu-older-than-ampere"),
    # TGI v1.3's Mixtral refusal (models/__init__.py), filled in
    ("NotImplementedError: Mixtral models requires flash attention v2, stk and megablocks", "gpu-older-than-ampere"),
])
def test_every_wording_of_tgis_refusal_is_one_signature(tmp_path, line, cause):
    assert_line_is(tmp_path, line, TGI, cause)


@pytest.mark.parametrize("line", [
    # the warning alone: TGI goes on with its other models (huggingface/text-generation-inference#398's V100 serves)
    TGI_663[1],
    # transformers' own refusal (QwenLM/Qwen3-VL#685), another program's
    "ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package "
    "flash_attn seems to be not installed.",
    # a model that does not need flash attention at all (TGI 3.x: "sharded is not supported for AutoModel")
    "NotImplementedError: sharded is not supported for AutoModel",
])
def test_near_misses_of_tgis_refusal(tmp_path, line):
    assert_matches_none(tmp_path, line, {TGI})


#: triton-inference-server/tensorrtllm_backend#424 (an engine of TensorRT 9.3 in a Triton of 9.2): the trial's case 04
TRT_424 = ("| tensorrt_llm     | 1       | UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: "
           "[TensorRT-LLM][ERROR] Assertion failed: Failed to deserialize cuda engine (/tmp/tritonbuild/tensorrtllm/"
           "tensorrt_llm/cpp/tensorrt_llm/runtime/tllm |")


def test_case04_the_deserialize_line_alone_leads_with_the_release_that_built_the_engine(tmp_path):
    findings = assert_log_leads(tmp_path, [TRT_424], DESERIALIZE, "built-by-another-release")
    remedy = findings[0].remedy.en
    assert "trtllm-python-py3" in remedy and "trtllm-build" in remedy and "pip show tensorrt_llm tensorrt" in remedy


@pytest.mark.parametrize("line", [
    # NVIDIA/TensorRT-LLM#1038
    "UNAVAILABLE: Internal: unexpected error when creating modelInstanceState: [TensorRT-LLM][ERROR] Assertion failed: "
    "Failed to deserialize cuda engine (/app/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:72)",
    # HKUST-Aerial-Robotics/D2SLAM#52
    "[11/08/2024-08:46:50] [E] [TRT] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine "
    "deserialization failed.)",
    # hova88/PointPillars_MultiHead_40FPS#37 (TensorRT 7)
    "ERROR: INVALID_CONFIG: Deserialize the cuda engine failed.",
    # triple-mu/YOLOv8-TensorRT#308 (TensorRT 10)
    "ERROR: IRuntime::deserializeCudaEngine: Error Code 1: Internal Error (Unexpected call to stub loadRunner for "
    "ReformatRunner.)",
    # yuvraj108c/ComfyUI-Dwpose-Tensorrt#5 (Polygraphy)
    "[!] Could not deserialize engine. See log for details.",
])
def test_every_form_of_the_deserialize_line_is_the_summary(tmp_path, line):
    assert_line_is(tmp_path, line, DESERIALIZE, "built-by-another-release")


def test_below_tensorrts_version_line_the_summary_follows_it(tmp_path):
    """NVIDIA/TensorRT#2105: Version tag does not match, then Engine deserialization failed: the specific line leads,
    the summary says so and agrees."""
    lines = ["[06/29/2022-16:20:45] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::35] Error Code 1: Serialization "
             "(Serialization assertion safeVersionRead == safeSerializationVersion failed.Version tag does not match. "
             "Note: Current Version: 0, Serialized Engine Version: 43)",
             "[06/29/2022-16:20:45] [TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error "
             "(Engine deserialization failed.)"]
    findings = assert_log_leads(tmp_path, lines, TRT_RELEASE, "built-in-another-image")
    summary = next(f for f in findings if f.observed and f.observed.endswith("job.log:2"))
    assert "sums up a failure" in summary.message.en
    assert lead_cause(cli_report(tmp_path, lines), DESERIALIZE) == "built-by-another-release"


@pytest.mark.parametrize("first, cause", [
    # RootKit-Org/AI-Aimbot#21: an engine of compute 7.5 on compute 8.6
    ("[08/02/2022-00:09:49] [TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute "
     "8.6 got compute 7.5, please rebuild.", "built-on-another-gpu"),
    # lix19937/tensorrt-insight#65: the ONNX model read in place of the plan
    ("ERROR: 1: [stdArchiveReader.cpp::StdArchiveReader::32] Error Code 1: Serialization (Serialization assertion "
     "magicTagRead == kMAGIC_TAG failed.Magic tag does not match)", "plan-not-an-engine"),
])
def test_the_summary_is_led_by_the_reason_tensorrts_line_states(tmp_path, first, cause):
    lines = [first, "ERROR: 4: [runtime.cpp::deserializeCudaEngine::65] Error Code 4: Internal Error (Engine "
                    "deserialization failed.)"]
    assert lead_cause(cli_report(tmp_path, lines), DESERIALIZE) == cause


@pytest.mark.parametrize("line, sig_id", [
    # NVIDIA/TensorRT#2176: the reason and the deserialize line printed as one line
    ("The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute 7.5, please "
     "rebuild.4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error (Engine deserialization failed.)",
     TRT_DEVICE),
    # yuvraj108c/ComfyUI-Dwpose-Tensorrt#5: TensorRT 10 gives its reason in the deserialize line itself
    ("[E] IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Serialization assertion stdVersionRead == "
     "kSERIALIZATION_VERSION failed.Version tag does not match. Note: Current Version: 237, Serialized Engine Version: "
     "239)", TRT_RELEASE),
])
def test_a_line_that_states_tensorrts_reason_is_that_reasons_signature_alone(tmp_path, line, sig_id):
    assert [m["signature"] for m in cli_report(tmp_path, [line])["evidence"]["matches"]] == [sig_id]


def test_tensorrt_10s_deserialize_line_cut_before_its_reason_is_the_summary_led_by_the_release(tmp_path):
    """Tencent-Hunyuan/HunyuanDiT#234: the version assertion without its note (the version signature needs the note)."""
    assert_line_is(tmp_path, "IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Serialization assertion "
                             "stdVersionRead == kSERIALIZATION_VERSION failed.", DESERIALIZE, "built-by-another-release")
    report = cli_report(tmp_path, ["IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Serialization "
                                   "assertion stdVersionRead == kSERIALIZATION_VERSION failed."])
    assert next(m for m in report["evidence"]["matches"] if m["signature"] == DESERIALIZE)["ruled_out"] == []


def test_the_summary_beside_another_failure_names_no_cause_of_its_own(tmp_path):
    """Beside an unrelated error and no TensorRT reason, the deserialize line leaves the lead to the other line."""
    lines = ["AssertionError: libcuda.so cannot found!", TRT_424]
    assert lead_cause(cli_report(tmp_path, lines), DESERIALIZE) is None


@pytest.mark.parametrize("line", [
    # nvidia-cosmos/cosmos-transfer2.5#84 (torch 2.9 in place of the locked 2.7): the trial's case 06
    "[rank1]: ImportError: cosmos_acclerate/cosmos-transfer2.5-1.3.0/cosmos-transfer2.5/.venv/lib/python3.10/site-packages/"
    "transformer_engine/transformer_engine_torch.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_",
    # NVIDIA/TransformerEngine#1684 (torch 2.5.1 with TE 2.1.0)
    "ImportError: /home/sombit-ng-nonadm/miniconda3/envs/soumyajit_intern/lib/python3.11/site-packages/transformer_engine/"
    "wheel_lib/transformer_engine_torch.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c106detail14torchCheckFailEPK"
    "cS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
    # sgl-project/sglang#851: TE 1.x's extension
    "[rank0]: ImportError: /usr/local/lib/python3.10/dist-packages/transformer_engine_extensions.cpython-310-x86_64-linux-gnu.so: "
    "undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEENS2_8optionalINS2_10ScalarTypeEEENS6_INS2_6LayoutE"
    "EENS6_INS2_6DeviceEEENS6_IbEE",
])
def test_case06_transformer_engine_for_another_torch_puts_back_the_projects_torch(tmp_path, line):
    findings = assert_log_leads(tmp_path, [line], SYMBOL, "transformer-engine-for-other-torch")
    remedy = findings[0].remedy.en
    for words in ("uv sync --extra=cu128", "pip install -r requirements.txt", "pip check",
                  "pip install --no-build-isolation --no-cache-dir --force-reinstall --no-deps transformer_engine_torch"):
        assert words in remedy


def test_another_extension_keeps_its_own_lead(tmp_path):
    """flash-attn's extension (Dao-AILab/flash-attention#1832, the kind of the trial's case 05, graded right): not
    Transformer Engine's cause."""
    line = ("ImportError: /opt/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined "
            "symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE")
    assert_line_is(tmp_path, line, SYMBOL, "extension-for-other-torch")
