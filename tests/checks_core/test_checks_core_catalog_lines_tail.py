"""catalog_lines' tail reading: a CUDA runtime or driver message that another program's wrapper quotes, in none of the
printed forms (TensorFlow's ``Status: MESSAGE``, llama.cpp's ``failed to initialize CUDA: MESSAGE``), names its
entry; a message that stands alone wherever it is, a short one only after ``: `` on a line that names CUDA.

The cases are generated from the real catalog (every message), plus lines from public reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.knowledge.catalog_lines import message_literals, recognise, stands_alone
from lingjun.checks.knowledge.error_catalogs import embedded
from lingjun.checks.knowledge.signatures import SignatureSet

ROOT = Path(__file__).resolve().parents[2]

CATALOGS = embedded()
#: (message, entry) of every runtime and driver message the tail reading knows (8 characters or more)
MESSAGES = [(message, info) for api in ("runtime", "driver") for message, info in CATALOGS.cuda_messages(api)
            if len(message) >= 8]
ALONE = [(m, i) for m, i in MESSAGES if stands_alone(m)]
SHORT = [(m, i) for m, i in MESSAGES if not stands_alone(m)]


def _named(line: str) -> "list[str]":
    return [m.info.name for m in recognise(line, CATALOGS) if m.catalog == "cuda" and m.info is not None]


def _first_owner(message: str) -> str:
    """The entry the reader names for ``message``: the runtime's when both APIs return the same text."""
    return next(info.name for m, info in MESSAGES if m == message)


def test_the_catalog_splits_its_messages_into_both_kinds():
    assert len(ALONE) > 80 and len(SHORT) > 30
    assert stands_alone("no CUDA-capable device is detected") and stands_alone("device kernel image is invalid")
    assert not stands_alone("unspecified launch failure") and not stands_alone("out of memory")


def test_every_message_that_stands_alone_is_read_in_a_wrapper_that_names_no_cuda():
    missed = [m for m, _ in ALONE if _named(f"worker 3 failed. Status: {m}") != [_first_owner(m)]]
    assert missed == []


def test_every_message_that_stands_alone_is_read_capitalised_and_before_punctuation():
    missed = [m for m, _ in ALONE if _named(f"E0101 app.cc:12] {m[0].upper()}{m[1:]} (after 3 retries)") != [_first_owner(m)]]
    assert missed == []


def test_every_short_message_is_read_after_a_colon_on_a_line_that_names_cuda():
    missed = [m for m, _ in SHORT if _named(f"ggml_cuda_compute_forward: CUDA kernel failed: {m}") != [_first_owner(m)]]
    assert missed == []


@pytest.mark.parametrize("template", ["service stopped: {}", "ggml_cuda: the {} case", "cuda:x{}"],
                         ids=["no-cuda-on-the-line", "no-colon-before-it", "inside-a-word"])
def test_a_short_message_is_not_read_without_cuda_a_colon_or_word_boundaries(template):
    read = [m for m, _ in SHORT if _named(template.format(m))]
    assert read == []


def test_a_message_inside_a_longer_word_is_not_read():
    assert _named("Status: xno CUDA-capable device is detected") == []
    assert _named("Status: no CUDA-capable device is detected_v2") == []


def test_nvml_unknown_error_is_not_read_as_the_cuda_runtime_s():
    assert recognise("nvidia-smi: Unable to determine the device handle for GPU0000:3B:00.0: Unknown Error",
                     CATALOGS) == []


def test_a_driver_api_call_on_the_line_is_cuda_context_for_a_short_message():
    assert _named("cuMemAlloc failed: out of memory") == ["cudaErrorMemoryAllocation"]


def test_a_form_that_names_an_entry_wins_over_the_tail():
    # torch's form reads 209 from "CUDA error: "; the tail would read the same; a stated code decides
    assert _named("RuntimeError: CUDA error: no kernel image is available for execution on the device") == [
        "cudaErrorNoKernelImageForDevice"]
    assert _named("Cuda failure 2 'out of memory'") == ["CUDA_ERROR_OUT_OF_MEMORY"]


def test_message_literals_hold_each_message_after_a_colon_capitalised_or_not_and_after_a_quote_once():
    literals = message_literals(["no CUDA-capable device is detected", "no CUDA-capable device is detected ", "short"])
    assert literals == ['"no CUDA-capable device is detected', "'no CUDA-capable device is detected",
                        ": No CUDA-capable device is detected", ": no CUDA-capable device is detected"]


def test_the_bundle_stores_every_message_literal_the_catalog_gives():
    stored = json.loads((ROOT / "checks" / "data" / "bundle.json").read_text(encoding="utf-8"))["catalog_messages"]
    assert stored == sorted({m for m, _ in MESSAGES}) and "device kernel image is invalid" in stored
    stored = KnowledgeData.from_file(ROOT / "checks" / "data" / "bundle.json").catalog_message_literals
    assert stored == message_literals([m for m, _ in MESSAGES])
    assert ": device kernel image is invalid" in stored and ": Device kernel image is invalid" in stored


def _scan(lines: "list[str]", message_literals_: "list[str]") -> Evidence:
    evidence = Evidence()
    SignatureSet([], message_literals_).scanner(evidence, "job.log").feed_block(
        "".join(line + "\n" for line in lines).encode())
    return evidence


def test_a_log_line_holding_only_a_quoted_message_is_an_error_line_of_the_catalog():
    stored = KnowledgeData.from_file(ROOT / "checks" / "data" / "bundle.json").catalog_message_literals
    evidence = _scan(["I0101 starting", "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
                      "initialization on GPU:0 failed. Status: device kernel image is invalid"], stored)
    (hit,) = evidence.catalog_hits
    assert [(m.info.name, m.info.code) for m in hit.matches] == [("cudaErrorInvalidKernelImage", 200)]
    assert hit.first.number == 2


def test_without_the_bundle_s_message_literals_such_a_line_is_not_read():
    evidence = _scan(["Status: device kernel image is invalid"], [])
    assert evidence.catalog_hits == []


def test_a_message_no_colon_or_quote_opens_is_not_searched_for_in_a_log():
    """The literals open with ``: `` or a quote: a bare message (a signature may still know it) is not sent to the
    catalogs by its message, so a log's search does not stop at every letter."""
    stored = KnowledgeData.from_file(ROOT / "checks" / "data" / "bundle.json").catalog_message_literals
    assert _scan(["W0101 retrying because device kernel image is invalid"], stored).catalog_hits == []


@pytest.mark.parametrize("line", [
    "runc create failed: mount /usr/local/cuda-12.2/compat/libcuda.so.535.104.05: operation not permitted",
    "chmod: changing permissions of '/usr/local/cuda-12.4/bin/nvcc': operation not permitted",
    "kubelet: failed to set up pod cuda-vectoradd network: unknown error",
    "barracuda backup failed: out of memory"], ids=["runc-path", "chmod-path", "pod-name", "word-part"])
def test_cuda_in_a_path_a_name_or_a_word_is_no_cuda_context_for_a_short_message(line):
    """Found by a hostile review: OS errors on lines that merely hold "cuda" read as CUDA errors 800, 999, 2."""
    assert _named(line) == []


def test_a_message_in_double_quotes_as_go_and_json_logs_write_it_reaches_the_catalog():
    """``error="unspecified launch failure"`` (a Go logger's key=value, a JSON field) holds no ``: `` before the
    message: the double quote opens a literal too."""
    stored = KnowledgeData.from_file(ROOT / "checks" / "data" / "bundle.json").catalog_message_literals
    evidence = _scan(['time=2025-01-01T00:00:00Z level=ERROR source=runner.go:88 msg="cuda launch" '
                      'error="unspecified launch failure"'], stored)
    (hit,) = evidence.catalog_hits
    assert [(m.info.name, m.info.code) for m in hit.matches] == [("cudaErrorLaunchFailure", 719)]
