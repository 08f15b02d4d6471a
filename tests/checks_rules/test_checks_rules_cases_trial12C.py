"""Lines of the twelfth trial's public failure reports (trial12b, cases 03 to 05) whose remedy did not fit the log,
and the other forms public reports print of the same lines:

* vLLM refusing a max_model_len its KV cache cannot hold (basalam/product-catalog-generator#10): the remedy quotes
  the log's own numbers, ``--max-model-len 3664`` or less or a higher ``--gpu-memory-utilization`` for the model's
  4096 tokens, instead of a fixed example (``32768``); every form vLLM printed across versions is read
  (vllm-project/vllm#2418, #15457, #16118, #32105, #44376);
* an illegal memory access under torch.compile's frames (vllm-project/vllm#17456, the defect of #17295 and #17344):
  the cause that leads is the compiled graph, with eager mode and the vLLM/torch pair as remedy, not a fused-MoE
  example the log does not support, and the finding's first source is NVIDIA's documentation, not an unrelated
  repository's thread;
* an undefined symbol in SGLang's sgl_kernel (sgl-project/sglang#5100, #13948) or vLLM's vllm/_C
  (vllm-project/vllm#3147, #5501, #15010): the torch the package pins, not flash-attn's wheel names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from checks_rules_kit import context
from lingjun.checks.core.remedy_template import fallback
from signature_cases_kit import (assert_line_is, assert_log_leads, lead_finding, remedy_values_for_log, signature)

KV = "vllm-max-model-len-exceeds-kv-cache"
IMA = "cuda-illegal-memory-access"
SYMBOL = "python-extension-undefined-symbol"

#: basalam/product-catalog-generator#10 (vLLM 0.2.7 on Colab), the trial's case 03
KV_V0 = ("ValueError: The model's max seq len (4096) is larger than the maximum number of tokens that can be stored in "
         "KV cache (3664). Try increasing gpu_memory_utilization or decreasing max_model_len when initializing the "
         "engine.")
#: vllm-project/vllm#32105: the V1 engine's form with the estimated maximum model length
KV_V1 = ("ValueError: To serve at least one request with the models's max seq len (202752), (71.16 GiB KV cache is "
         "needed, which is larger than the available KV cache memory (28.57 GiB). Based on the available memory, the "
         "estimated maximum model length is 81392. Try increasing `gpu_memory_utilization` or decreasing "
         "`max_model_len` when initializing the engine.")
#: vllm-project/vllm#15457 (vLLM 0.8.3): GB and no estimate
KV_V1_GB = ("ValueError: To serve at least one request with the models's max seq len (32768), (2.00 GB KV cache is "
            "needed, which is larger than the available KV cache memory (0.78 GB). Try increasing "
            "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")
#: vllm-project/vllm#44376 (vLLM 0.22): "model's"
KV_V1_MODELS = ("(EngineCore pid=2739502) ERROR 06-03 14:24:40 [core.py:1165] ValueError: To serve at least one request "
                "with the model's max seq len (30000), (6.66 GiB KV cache is needed, which is larger than the available "
                "KV cache memory (5.44 GiB). Based on the available memory, the estimated maximum model length is "
                "13528.")
#: vLLM's first V1 message (vllm/v1/core/kv_cache_utils.py, early 2025), its template with numbers of ours
KV_V1_FIRST = ("ValueError: To serve at least one request with the models's max seq len (131072), (16.0 GB KV cache "
               "isneeded, which is larger than the available KV Cache memory (4.4375 GB). Try increasing "
               "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.")

#: vllm-project/vllm#17456 (vLLM 0.8.5, Qwen2.5-VL), the trial's case 04: the two fragments of its traceback
COMPILED = [
    "ERROR 04-30 15:49:28 [core.py:396]   File \"/home/bigue/miniconda3/envs/vl/lib/python3.12/site-packages/torch/"
    "_functorch/aot_autograd.py\", line 1184, in forward",
    "ERROR 04-30 15:49:28 [core.py:396]     return compiled_fn(full_args)",
    "",
    "  File \"/home/bigue/miniconda3/envs/vl/lib/python3.12/site-packages/torch/_inductor/runtime/benchmarking.py\", "
    "line 202, in benchmark_gpu",
    "    return self.triton_do_bench(_callable, **kwargs, return_mode=\"median\")",
    "  File \"/home/bigue/miniconda3/envs/vl/lib/python3.12/site-packages/triton/testing.py\", line 118, in do_bench",
    "    di.synchronize()",
    "  File \"/home/bigue/miniconda3/envs/vl/lib/python3.12/site-packages/torch/cuda/__init__.py\", line 985, in "
    "synchronize",
    "    return torch._C._cuda_synchronize()",
    "RuntimeError: CUDA error: an illegal memory access was encountered",
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
    "incorrect.",
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
]

#: sgl-project/sglang#5100 (torch 2.7.0 with sgl-kernel 0.1.2), the trial's case 05
SGL = ("ImportError: /usr/local/lib/python3.11/dist-packages/sgl_kernel/common_ops.abi3.so: undefined symbol: "
       "_ZN5torch3jit17parseSchemaOrNameERKSsb")
#: sgl-project/sglang#13948: sgl_kernel's sm100 build, a const member function of c10 (_ZNK)
SGL_ZNK = ("- ImportError: /usr/local/lib/python3.10/dist-packages/sgl_kernel/sm100/common_ops.abi3.so: undefined "
           "symbol: _ZNK3c106SymInt6sym_neERKS0_")
#: vllm-project/vllm#3147, #5501 and #15010: vLLM's own kernels
VLLM_SO = [
    "ImportError: /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
    "_ZN2at4_ops15to_dtype_layout4callERKNS_6TensorEN3c108optionalINS5_10ScalarTypeEEENS6_INS5_6LayoutEEENS6_INS5_6Dev"
    "iceEEENS6_IbEEbbNS6_INS5_12MemoryFormatEEE",
    "WARNING 06-13 11:42:20 _custom_ops.py:11] Failed to import from vllm._C with ImportError('/usr/local/lib/python3.8/"
    "dist-packages/vllm/_C.abi3.so: undefined symbol: _ZN5torch7LibraryC1ENS0_4KindESsSt8optionalIN3c1011DispatchKeyEE"
    "PKcj')",
    "ImportError: /cpfs01/shared/vllm/vllm/_C.abi3.so: undefined symbol: _ZNK3c1011StorageImpl27throw_data_ptr_access_"
    "errorEv",
]
#: Dao-AILab/flash-attention#1832: an extension that is neither
FLASH_ATTN = ("ImportError: /opt/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: "
              "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIc"
              "EEE")


def source_links(finding) -> list[str]:
    """The links of a finding after the site's pages (the sources of its signature, in the order they print)."""
    return [link for link in finding.links if not link.startswith("https://kb.example.org/")]


# --- case 03: the KV cache's numbers --------------------------------------------------------------------------------


def test_case03_the_remedy_quotes_the_caches_capacity_and_the_models_length(tmp_path):
    assert_log_leads(tmp_path, ["```", KV_V0, "```"], KV, "context-longer-than-needed")
    remedy = lead_finding(tmp_path, [KV_V0]).remedy
    assert "Set --max-model-len 3664 or less" in remedy.en
    assert "To keep the model's max seq len of 4096 tokens instead, raise --gpu-memory-utilization above its default 0.9" \
        in remedy.en
    assert "--max-model-len 3664 或更小" in remedy.zh and "模型的最大序列长度 4096 个 token" in remedy.zh
    assert "32768" not in remedy.en and "{{" not in remedy.en + remedy.zh


def test_the_v1_form_quotes_the_estimate_and_the_memory(tmp_path):
    remedy = lead_finding(tmp_path, [KV_V1]).remedy
    assert "Set --max-model-len 81392 or less" in remedy.en and "202752 tokens" in remedy.en
    en, zh = remedy_values_for_log(tmp_path, [KV_V1], ["vllm.kv_cache_memory", "vllm.kv_cache_tokens"])
    assert en == {"vllm.kv_cache_memory": "it needs 71.16 GiB and has 28.57 GiB", "vllm.kv_cache_tokens": "81392 or less"}
    assert zh["vllm.kv_cache_memory"] == "需要 71.16 GiB，现有 28.57 GiB"


def test_a_form_without_an_estimate_says_its_words_for_the_capacity(tmp_path):
    remedy = lead_finding(tmp_path, [KV_V1_GB]).remedy
    assert "Set --max-model-len to at most the number the line gives as the cache's capacity" in remedy.en
    assert "the model's max seq len of 32768 tokens" in remedy.en
    assert remedy_values_for_log(tmp_path, [KV_V1_GB], ["vllm.kv_cache_memory"])[0] == {
        "vllm.kv_cache_memory": "it needs 2.00 GiB and has 0.78 GiB"}


@pytest.mark.parametrize("line", [KV_V0, KV_V1, KV_V1_GB, KV_V1_MODELS, KV_V1_FIRST])
def test_every_form_vllm_printed_is_the_signature(tmp_path, line):
    assert_line_is(tmp_path, line, KV, "context-longer-than-needed")


def test_the_site_says_the_fallback_words_not_a_number():
    remedy = next(c for c in signature(KV)["causes"] if c["id"] == "context-longer-than-needed")["remedies"]["image"]
    shown = fallback(remedy["en"])
    assert "Set --max-model-len to at most the number the line gives" in shown
    assert not any(word.isdigit() and len(word) > 3 for word in shown.replace(",", " ").split())


# --- case 04: torch.compile's frames --------------------------------------------------------------------------------


def test_case04_an_illegal_access_under_torch_compile_leads_with_the_compiled_graph(tmp_path):
    findings = assert_log_leads(tmp_path, COMPILED, IMA, "torch-compile-kernel")
    lead = findings[0]
    assert "--enforce-eager" in lead.remedy.en and "vLLM 0.9.0" in lead.remedy.en
    assert "--enforce-eager" in lead.remedy.zh
    assert "H20" not in lead.message.en and "H20" not in lead.message.zh
    assert source_links(lead)[0] == "https://docs.nvidia.com/compute-sanitizer/ComputeSanitizer/index.html"
    assert "multi3drefer" not in source_links(lead)[0]


def test_a_bare_illegal_access_names_no_kernel_the_log_does_not_show(tmp_path):
    finding = lead_finding(tmp_path, ["RuntimeError: CUDA error: an illegal memory access was encountered"])
    assert "H20" not in finding.message.en and "fused MoE" not in finding.message.en
    assert "--enforce-eager" not in (finding.remedy.en if finding.remedy else "")


# --- case 05: the torch a package pins ------------------------------------------------------------------------------


@pytest.mark.parametrize("line", [SGL, SGL_ZNK])
def test_case05_sgl_kernel_built_for_another_torch_leads_with_sglangs_pinned_set(tmp_path, line):
    assert_line_is(tmp_path, line, SYMBOL, "sgl-kernel-for-other-torch")
    remedy = lead_finding(tmp_path, [line]).remedy
    assert 'pip install "sglang[all]==VERSION"' in remedy.en and 'pip install "sglang[all]==VERSION"' in remedy.zh
    assert "cxx11abi" not in remedy.en


@pytest.mark.parametrize("line", VLLM_SO)
def test_vllms_own_kernels_built_for_another_torch_lead_with_vllms_pinned_torch(tmp_path, line):
    assert_line_is(tmp_path, line, SYMBOL, "vllm-kernels-for-other-torch")
    remedy = lead_finding(tmp_path, [line]).remedy
    assert "pip install vllm==X" in remedy.en and "pip check" in remedy.en and "pip install vllm==X" in remedy.zh


def test_another_extension_keeps_the_wheel_advice_and_the_official_first_source(tmp_path):
    assert_line_is(tmp_path, FLASH_ATTN, SYMBOL, "extension-for-other-torch")
    finding = lead_finding(tmp_path, [FLASH_ATTN])
    assert "cxx11abi" in finding.remedy.en
    assert source_links(finding)[0] == "https://docs.pytorch.org/docs/stable/notes/libtorch_stable_abi.html"
