"""A malformed release manifest is one clear warning, and a report never says both that the release came from the
manifest and that the manifest is not shown (red-team finding F15)."""

from __future__ import annotations

import json

import pytest

import checks_core_release_shapes as kit
from checks_core_helpers import run_cli
from lingjun.checks.facts import Facts, ManifestFacts
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict
from lingjun.checks.knowledge.identify import identify, manifest_image_problem
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes._collect import collect

REF = "inference-nv-pytorch:25.04"
FROM = "(from /etc/lingjun/release.json)"


def _coverage(text):
    """``(not shown, shown in part)`` parts of the report's coverage line."""
    line = next((ln for ln in text.splitlines() if ln.startswith("Input coverage")), "")
    missing = line.split("Not shown: ", 1)[1].split(". ", 1)[0] if "Not shown: " in line else ""
    partial = line.split("Shown in part: ", 1)[1].split(". ", 1)[0] if "Shown in part: " in line else ""
    return missing, partial


def _snapshot(manifest, **extra):
    return {"schema": "lingjun-check/snapshot/1", "manifest": manifest, **extra}


def _check(tmp_path, snapshot):
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot), encoding="utf-8")
    data = str(kit.write_bundle(tmp_path / "b.json"))
    report = json.loads(run_cli("--data", data, "--from", str(path), "--format", "json").stdout)
    text = run_cli("--data", data, "--from", str(path)).stdout
    problems = [f["observed"] for f in report["findings"] if f["rule"] == "checker.snapshot"]
    return report["release"], text, problems


def test_a_manifest_whose_copy_of_the_file_is_a_list_keeps_its_release_and_is_shown_in_part(tmp_path):
    release, text, problems = _check(tmp_path, _snapshot({"path": "/etc/lingjun/release.json", "release": REF, "data": ["x"]}))
    assert (release["ref"], release["how"]) == (REF, "manifest")
    assert problems == ["manifest.data: expected an object, got a list; ignored"]
    missing, partial = _coverage(text)
    assert FROM in text and "release manifest" not in missing and partial == "the image's release manifest"
    facts, _ = facts_from_snapshot_dict(_snapshot({"release": REF, "data": ["x"]}))
    assert ("manifest" in facts.coverage.partial, "manifest" in facts.coverage.not_available) == (True, False)


@pytest.mark.parametrize("manifest", ["training-nv-pytorch:25.07", ["training-nv-pytorch:25.07"], 7])
def test_a_manifest_that_is_not_an_object_is_one_warning_and_not_shown(tmp_path, manifest):
    release, text, problems = _check(tmp_path, _snapshot(manifest))
    kind = {str: "a string", list: "a list", int: "a number"}[type(manifest)]
    assert problems == [f"manifest: expected an object, got {kind}; ignored"]
    assert release["how"] == "none" and "the image's release manifest" in _coverage(text)[0] and FROM not in text


def test_a_release_is_never_taken_from_a_manifest_the_input_says_is_not_shown(tmp_path):
    snapshot = _snapshot({"path": "/etc/lingjun/release.json", "release": REF, "data": {"release": REF}},
                         coverage={"not_available": ["manifest"]})
    release, text, problems = _check(tmp_path, snapshot)
    assert release["how"] == "none" and "the image's release manifest" in _coverage(text)[0] and FROM not in text
    facts = Facts()
    facts.manifest = ManifestFacts(path="/etc/lingjun/release.json", release=REF, data={"release": REF})
    assert identify(facts, kit.data()).how == "manifest"
    facts.coverage.not_available = ["manifest"]
    assert identify(facts, kit.data()).how == "none"


@pytest.mark.parametrize("image, problem", [
    ({"x": [1, 2]}, "an object"), (["a"], "a list"), ("  ", "an empty string"), (None, "null"), (3, "a number"),
    (f"{kit.REGISTRY}/inference-nv-pytorch:{kit.VLLM_TAG}", None),
])
def test_an_image_that_is_no_reference_is_named(image, problem):
    facts = Facts()
    facts.manifest = ManifestFacts(path="/etc/lingjun/release.json", release=REF, data={"release": REF, "image": image})
    assert manifest_image_problem(facts) == problem
    facts.manifest.data = {"release": REF}
    assert manifest_image_problem(facts) is None


def test_the_live_manifest_with_an_image_list_is_one_warning(tmp_path):
    (tmp_path / "etc" / "lingjun").mkdir(parents=True)
    (tmp_path / "etc" / "lingjun" / "release.json").write_text(json.dumps({"release": REF, "image": ["a", "b"]}),
                                                                encoding="utf-8")
    facts = collect(ProbeEnv(root=str(tmp_path), environ={}), ["manifest"])
    assert facts.manifest.release == REF and manifest_image_problem(facts) == "a list"
    data = str(kit.write_bundle(tmp_path / "b.json"))
    snap = tmp_path / "snap.json"
    from lingjun.checks.inputs.snapshot import write_snapshot

    write_snapshot(facts, str(snap))
    report = json.loads(run_cli("--data", data, "--from", str(snap), "--format", "json").stdout)
    found = [(f["severity"], f["message"], f["observed"]) for f in report["findings"] if f["rule"] == "release.manifest-image"]
    assert found == [("warning", "The image's release manifest gives its image as a list, not an image reference; "
                                 "the image is ignored.", '["a", "b"]')]
    assert report["release"]["how"] == "manifest"
