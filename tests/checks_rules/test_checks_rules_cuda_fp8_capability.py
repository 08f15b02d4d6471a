"""cuda.fp8-capability: FP8 workloads need compute capability 8.9; skipped without the facts, never on a guess."""

import json
import subprocess
import sys
from pathlib import Path

import checks_rules_kit as kit

RULE = "cuda.fp8-capability"
ROOT = Path(__file__).resolve().parents[2]
H315 = ROOT / "tests" / "fixtures" / "cases" / "H315-vllm-fp8-a100.json"
A100 = (("NVIDIA A100-SXM4-80GB", "nvidia", "8.0"),)
MAVERICK = "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"


def _run(facts, **kw):
    findings = kit.run(RULE, kit.context(facts, **kw))
    kit.assert_bilingual(findings)
    return findings


def test_h315_fp8_moe_model_on_a100_is_an_error_naming_8_9():
    out = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from", str(H315), "--model", MAVERICK, "--format", "json"],
                         capture_output=True, text=True, cwd=ROOT)
    (f,) = [f for f in json.loads(out.stdout)["findings"] if f["rule"] == RULE]
    assert f["severity"] == "error"
    message = f["message"]["en"] if isinstance(f["message"], dict) else f["message"]
    assert "compute capability 8.9" in message and "fp8e4nv" in message


def test_dense_fp8_model_on_ampere_without_an_error_is_a_warning_weight_only():
    (f,) = _run(kit.gpu_facts("570.124.06", A100), served_model="neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8")
    assert f.severity.value == "warning" and "W8A16" in f.message.en and "BF16" in f.remedy.en


def test_fp8_moe_model_name_alone_on_ampere_is_an_error():
    (f,) = _run(kit.gpu_facts("570.124.06", A100), served_model=MAVERICK)
    assert f.severity.value == "error" and "mixture-of-experts" in f.message.en


def test_fp8_on_hopper_is_ok_and_no_evidence_or_no_gpu_skips():
    assert kit.severities(_run(kit.gpu_facts("570.124.06"), served_model=MAVERICK)) == ["ok"]
    assert kit.severities(_run(kit.gpu_facts("570.124.06", A100), served_model="meta-llama/Llama-3.1-8B-Instruct")) == ["skipped"]
    assert kit.severities(_run(kit.gpu_facts("570.124.06", A100))) == ["skipped"]
    assert kit.severities(_run(kit.gpu_facts(None, ()), served_model=MAVERICK)) == ["skipped"]
    # a name that merely contains the letters is not an FP8 model
    assert kit.severities(_run(kit.gpu_facts("570.124.06", A100), served_model="org/notfp8model")) == ["skipped"]


def test_the_error_line_alone_is_evidence():
    facts = kit.gpu_facts("570.124.06", A100)
    facts.symptoms.errors = ["RuntimeError: torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9"]
    (f,) = _run(facts)
    assert f.severity.value == "error" and "the input shows the failure" in f.message.en
