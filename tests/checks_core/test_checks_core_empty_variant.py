"""An empty variant after ``#`` names no release (red-team finding F14): ``training-nv-pytorch:25.07#`` is refused
like ``#vllm`` on a release without variants, with one line saying what is wrong, wherever the name comes from
(``--release``, ``LINGJUN_RELEASE``, the manifest, a snapshot's ``check_options.release``)."""

from __future__ import annotations

import json

import pytest

import checks_core_release_shapes as kit
from checks_core_helpers import run_cli
from lingjun.checks.facts import Facts, ManifestFacts
from lingjun.checks.knowledge.identify import UnknownReleaseError, find_release, identify, release_ref_problem

DATA = kit.data()
EMPTY = "nothing after '#': give FAMILY:RELEASE#VARIANT, or leave out the '#'"


@pytest.mark.parametrize("value", [
    "training-nv-pytorch:25.07#", "inference-nv-pytorch:25.04#", "inference-nv-pytorch:25.04# ", f"{kit.VLLM_TAG}#", "#",
])
def test_an_empty_variant_names_nothing(value):
    assert release_ref_problem(value) == EMPTY
    assert find_release(DATA, value) is None
    with pytest.raises(UnknownReleaseError) as info:
        identify(Facts(), DATA, value)
    assert info.value.reason == EMPTY and not info.value.ambiguous
    assert "training-nv-pytorch:25.07" in info.value.known  # the fleet's message still lists the releases


@pytest.mark.parametrize("value, ref, variant", [
    ("training-nv-pytorch:25.07", "training-nv-pytorch:25.07", None),
    ("inference-nv-pytorch:25.04#vllm", "inference-nv-pytorch:25.04", "vllm"),
    (" inference-nv-pytorch:25.04#sglang ", "inference-nv-pytorch:25.04", "sglang"),
])
def test_a_release_with_or_without_a_variant_is_still_named(value, ref, variant):
    assert release_ref_problem(value) is None
    found = find_release(DATA, value)
    assert found is not None and (found[0], found[2]) == (ref, variant)


def test_release_with_an_empty_variant_is_one_line_and_exit_3(tmp_path):
    data = str(kit.write_bundle(tmp_path / "b.json"))
    result = run_cli("--data", data, "--release", "training-nv-pytorch:25.07#")
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr == f"lingjun-check: --release training-nv-pytorch:25.07#: {EMPTY}\n"


@pytest.mark.parametrize("how", ["env", "manifest"])
def test_an_empty_variant_from_the_environment_or_the_manifest_is_passed_over(how):
    facts = Facts()
    if how == "env":
        facts.env["LINGJUN_RELEASE"] = "training-nv-pytorch:25.07#"
    else:
        facts.manifest = ManifestFacts(path="/etc/lingjun/release.json", release="training-nv-pytorch:25.07#",
                                       data={"release": "training-nv-pytorch:25.07#"})
    match = identify(facts, DATA)
    assert match.rejected == [(how, "training-nv-pytorch:25.07#")] and match.how == "none"


def test_a_snapshot_recording_an_empty_variant_is_checked_from_its_facts(tmp_path):
    snapshot = {"schema": "lingjun-check/snapshot/1",
                "check_options": {"release": "inference-nv-pytorch:25.04#", "require_gpu": False, "strict": False}}
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot), encoding="utf-8")
    result = run_cli("--data", str(kit.write_bundle(tmp_path / "b.json")), "--from", str(path), "--format", "json")
    report = json.loads(result.stdout)
    assert report["release"]["how"] == "none"
    observed = [f["observed"] for f in report["findings"] if f["rule"] == "checker.snapshot"]
    assert observed == ["check_options.release: 'inference-nv-pytorch:25.04#' names no release in this release data; "
                        "the release is identified from the facts instead"]
