"""--from given another input than a snapshot: the error names what the file looks like and the option that reads it."""

from __future__ import annotations

import json

import pytest

from checks_core_helpers import REPO, run_cli

PASTE = REPO / "tests" / "checks_core" / "data" / "collect_env_inference_vllm_2504.txt"


def _one_line(*args: str) -> str:
    result = run_cli(*args)
    assert result.returncode == 3 and result.stdout == "" and len(result.stderr.splitlines()) == 1, result.stderr
    return result.stderr


def test_a_collect_env_paste_given_to_from_says_use_from_collect_env(tmp_path):
    assert _one_line("--from", str(PASTE)) == (
        f"lingjun-check: {PASTE}: not a snapshot: this looks like collect_env output; use --from-collect-env FILE\n")
    # saved by Windows PowerShell 5 (UTF-16 with a byte order mark): still recognised
    utf16 = tmp_path / "env.txt"
    utf16.write_bytes(PASTE.read_text(encoding="utf-8").encode("utf-16"))
    assert _one_line("--from", str(utf16)).endswith("this looks like collect_env output; use --from-collect-env FILE\n")


@pytest.mark.parametrize("document, words", [
    ({"schema": "lingjun-check/report/1", "findings": []}, "this is a lingjun-check report (--format json); write a snapshot with --collect FILE"),
    ({"schema": "lingjun-check/fleet/1", "nodes": []}, "this is a lingjun-check fleet result; give one node's snapshot (--collect FILE)"),
    ({"format": "lingjun-kb/bundle/2", "releases": []}, "this is release data; use --data FILE"),
    ({"train_batch_size": 8, "zero_optimization": {"stage": 3}}, "this looks like a DeepSpeed config; use --deepspeed-config FILE"),
])
def test_other_json_inputs_are_named(tmp_path, document, words):
    path = tmp_path / "input.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert _one_line("--from", str(path)) == f"lingjun-check: {path}: not a snapshot: {words}\n"


def test_nvidia_smi_output_is_named(tmp_path):
    path = tmp_path / "smi.txt"
    path.write_text("+---------------------------------------------------------------------------------------+\n"
                    "| NVIDIA-SMI 550.127.08             Driver Version: 550.127.08   CUDA Version: 12.4     |\n", encoding="utf-8")
    assert "this looks like nvidia-smi output, which is read inside a snapshot" in _one_line("--from", str(path))


def test_text_of_no_known_kind_still_says_not_json(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("hello\n", encoding="utf-8")
    assert _one_line("--from", str(path)) == f"lingjun-check: {path}: not JSON: Expecting value: line 1 column 1 (char 0)\n"
