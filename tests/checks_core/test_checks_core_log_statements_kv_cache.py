"""vLLM's refusal of a max_model_len its KV cache cannot hold states the numbers a remedy quotes: the context it was
asked for (``vllm.max_seq_len``), the longest the cache holds (``vllm.kv_cache_tokens``) and, from its V1 engine, the
memory one request needs and the memory the cache has (``vllm.kv_cache_needed_gib``, ``vllm.kv_cache_available_gib``).

The forms are those of vLLM's source: the V0 engine's ``raise_if_cache_size_invalid`` (vllm/worker/worker.py) and
the V1 engine's memory check (vllm/v1/core/kv_cache_utils.py: ``GB`` with two decimals in 0.8.2 to 0.8.4, ``GiB`` and
the estimated maximum model length from 0.8.5, ``model's`` instead of ``models's`` in later releases).  Every line is
quoted from a public report (the source follows each one) but the first V1 form's, which is vLLM's own message
template filled with numbers of ours (no public report of that form was found).
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from log_statements_kit import feed

KV = ("vllm.max_seq_len", "vllm.kv_cache_tokens", "vllm.kv_cache_needed_gib", "vllm.kv_cache_available_gib")

LINES = {
    # basalam/product-catalog-generator#10 (vLLM 0.2.7): the V0 form without backticks
    "v0-plain": ("ValueError: The model's max seq len (4096) is larger than the maximum number of tokens that can be "
                 "stored in KV cache (3664). Try increasing gpu_memory_utilization or decreasing max_model_len when "
                 "initializing the engine.",
                 {"vllm.max_seq_len": 4096, "vllm.kv_cache_tokens": 3664}),
    # gpustack/gpustack#1800 (vLLM 0.8.4's V0 engine), under its logger's prefix
    "v0-logged": ("ERROR 04-17 15:10:09 [engine.py:448] ValueError: The model's max seq len (8192) is larger than the "
                  "maximum number of tokens that can be stored in KV cache (2400). Try increasing "
                  "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
                  {"vllm.max_seq_len": 8192, "vllm.kv_cache_tokens": 2400}),
    # vLLM's first V1 check (vllm/v1/core/kv_cache_utils.py, early 2025): unrounded floats, "isneeded" (two string
    # pieces joined without a space), "KV Cache memory"
    "v1-first": ("ValueError: To serve at least one request with the models's max seq len (131072), (16.0 GB KV cache "
                 "isneeded, which is larger than the available KV Cache memory (4.4375 GB). Try increasing "
                 "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
                 {"vllm.max_seq_len": 131072, "vllm.kv_cache_needed_gib": "16.00",
                  "vllm.kv_cache_available_gib": "4.44"}),
    # vllm-project/vllm#15457 (vLLM 0.8.3): GB, no estimate
    "v1-gb": ("ValueError: To serve at least one request with the models's max seq len (32768), (2.00 GB KV cache is "
              "needed, which is larger than the available KV cache memory (0.78 GB). Try increasing "
              "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
              {"vllm.max_seq_len": 32768, "vllm.kv_cache_needed_gib": "2.00", "vllm.kv_cache_available_gib": "0.78"}),
    # vllm-project/vllm#16118: GiB, before the estimate was added
    "v1-gib": ("ERROR 04-05 01:12:55 [core.py:390] ValueError: To serve at least one request with the models's max seq "
               "len (1048576), (24.00 GiB KV cache is needed, which is larger than the available KV cache memory "
               "(9.97 GiB). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing "
               "the engine.",
               {"vllm.max_seq_len": 1048576, "vllm.kv_cache_needed_gib": "24.00",
                "vllm.kv_cache_available_gib": "9.97"}),
    # vllm-project/vllm#32105: the estimated maximum model length
    "v1-estimate": ("ValueError: To serve at least one request with the models's max seq len (202752), (71.16 GiB KV "
                    "cache is needed, which is larger than the available KV cache memory (28.57 GiB). Based on the "
                    "available memory, the estimated maximum model length is 81392. Try increasing "
                    "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
                    {"vllm.max_seq_len": 202752, "vllm.kv_cache_tokens": 81392, "vllm.kv_cache_needed_gib": "71.16",
                     "vllm.kv_cache_available_gib": "28.57"}),
    # vllm-project/vllm#44376 (vLLM 0.22): "model's", under the engine core's prefix
    "v1-models": ("(EngineCore pid=2739502) ERROR 06-03 14:24:40 [core.py:1165] ValueError: To serve at least one "
                  "request with the model's max seq len (30000), (6.66 GiB KV cache is needed, which is larger than "
                  "the available KV cache memory (5.44 GiB). Based on the available memory, the estimated maximum "
                  "model length is 13528. Try increasing `gpu_memory_utilization` (which also controls CPU memory on "
                  "the CPU backend) or decreasing `max_model_len` when initializing the engine.",
                  {"vllm.max_seq_len": 30000, "vllm.kv_cache_tokens": 13528, "vllm.kv_cache_needed_gib": "6.66",
                   "vllm.kv_cache_available_gib": "5.44"}),
}


def kv(evidence: Evidence) -> dict:
    return {name: fact.value for name, fact in evidence.stated.items() if name in KV}


@pytest.mark.parametrize("name", sorted(LINES))
def test_the_refusal_states_the_context_and_what_the_cache_holds(name):
    line, expected = LINES[name]
    assert kv(feed(line)) == expected


def test_the_numbers_come_with_their_line():
    # vllm-project/vllm#10517: the line vLLM prints above its refusal
    evidence = feed("Loading model weights took 14.9888 GB", LINES["v0-logged"][0])
    assert evidence.value("vllm.kv_cache_tokens").line.where() == "job.log:2"


def test_two_refusals_with_other_numbers_state_neither():
    # a job retried with another --max-model-len (vllm-project/vllm#10517: 29000, then 20000 that fits): two
    # refusals that disagree leave the value unknown, so a remedy says its words instead of one retry's number
    evidence = feed(LINES["v0-plain"][0], LINES["v0-logged"][0])
    assert evidence.value("vllm.kv_cache_tokens") is None


@pytest.mark.parametrize("line", [
    # vLLM's start-up report of the cache it made (vllm-project/vllm#15928), not a refusal
    "INFO 04-01 10:13:16 [kv_cache_utils.py:566] GPU KV cache size: 107,824 tokens",
    # the refusal with no memory at all (vllm-project/vllm#27508): no number to quote
    "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing "
    "the engine.",
])
def test_other_kv_cache_lines_state_none_of_the_numbers(line):
    assert kv(feed(line)) == {}
