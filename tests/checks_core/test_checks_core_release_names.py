"""--release as users mistype it: close spellings ("did you mean ...?") on one line, and releases the official pages
name but the knowledge base does not record yet ("published, not yet recorded"), with the embedded release data."""

from __future__ import annotations

import json

import pytest

from checks_core_helpers import REPO, run_cli
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.knowledge.identify import close_matches, find_unrecorded, identify

VLLM_PASTE = REPO / "tests" / "checks_core" / "data" / "collect_env_inference_vllm_2504.txt"
INDEX = "https://help.aliyun.com/en/cs/user-guide/acs-ai-container-image-version-release-record/"


def _data() -> KnowledgeData:
    return KnowledgeData.from_dict(json.loads((REPO / "checks" / "data" / "bundle.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("typed, meant", [
    ("inference-nv-pytorch:25.04#vlm", ["inference-nv-pytorch:25.04#vllm"]),
    ("inference-nv-pytorch:25.04#sglng", ["inference-nv-pytorch:25.04#sglang"]),
    ("inference-nv-pytorh:25.04", ["inference-nv-pytorch:25.04"]),
    ("training-xpu-pytorch:2026-10-2", ["training-xpu-pytorch:2026-10-20"]),
    ("25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverles", ["25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"]),
    ("training-nv-pytorch:24.01", []),  # no release of the family is one typo away
])
def test_close_spellings(typed, meant):
    assert close_matches(_data(), typed) == meant


@pytest.mark.parametrize("typed, line", [
    ("inference-nv-pytorch:25.04#vlm", "did you mean inference-nv-pytorch:25.04#vllm?"),
    ("inference-nv-pytorh:25.04", "did you mean inference-nv-pytorch:25.04?"),
    ("training-xpu-pytorch:2026-10-2", "did you mean training-xpu-pytorch:2026-10-20?"),
])
def test_a_typo_is_one_line_with_did_you_mean_not_every_release(typed, line):
    result = run_cli("--from-collect-env", str(VLLM_PASTE), "--release", typed)
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr == f"lingjun-check: --release {typed}: unknown release; {line}\n"


def test_an_unknown_release_of_a_known_family_lists_that_family_only():
    result = run_cli("--from-collect-env", str(VLLM_PASTE), "--release", "training-nv-pytorch:24.01")
    assert result.returncode == 3
    assert result.stderr.startswith("lingjun-check: --release training-nv-pytorch:24.01: unknown release; training-nv-pytorch "
                                    "releases: training-nv-pytorch:25.02, ")
    assert "inference-nv-pytorch" not in result.stderr and len(result.stderr.splitlines()) == 1


def test_an_unrecorded_release_is_published_not_yet_recorded():
    data = _data()
    assert find_unrecorded(data, "inference-nv-pytorch:25.10") == {
        "ref": "inference-nv-pytorch:25.10", "family": "inference-nv-pytorch", "version": "25.10", "named_in": [INDEX]}
    # the tag the index page shows names it too
    assert find_unrecorded(data, "25.10-vllm0.11.0-pytorch2.8-cu128-20251028-serverless")["ref"] == "inference-nv-pytorch:25.10"
    match = identify(Facts(), data, "inference-nv-pytorch:25.10")
    assert (match.ref, match.how, match.record, match.unrecorded["named_in"]) == ("inference-nv-pytorch:25.10", "option", None, [INDEX])


def test_the_checker_says_published_not_yet_recorded_and_skips_record_rules():
    result = run_cli("--from-collect-env", str(VLLM_PASTE), "--release", "inference-nv-pytorch:25.10", "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    (identified,) = [f for f in report["findings"] if f["rule"] == "release.identified"]
    assert identified["severity"] == "info"
    assert identified["message"] == (
        "Release inference-nv-pytorch:25.10 is published, not yet recorded: nothing is known about it here (named in "
        f"{INDEX}); checks against a release record are skipped.")
    # nothing compared against a record: no package verdicts, no driver minimum
    assert not [f for f in report["findings"] if f["rule"].startswith("packages.") and f["severity"] in ("ok", "warning", "error")]


def test_the_bundle_carries_unrecorded_releases_lean():
    family = _data().family("inference-nv-pytorch")
    assert family["unrecorded_releases"][0] == {
        "version": "25.10", "image_tags": ["25.10-vllm0.11.0-pytorch2.8-cu128-20251028-serverless"], "named_in": [INDEX]}
    assert set(family["unrecorded_releases"][1]) == {"version", "image_tags", "named_in"}


def test_the_text_report_header_says_published_not_yet_recorded():
    result = run_cli("--from-collect-env", str(VLLM_PASTE), "--release", "inference-nv-pytorch:25.10")
    assert result.stdout.splitlines()[1] == "Release: inference-nv-pytorch:25.10 (chosen with --release) — published, not yet recorded"
