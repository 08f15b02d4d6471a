"""The manifest's ``image`` against its ``release`` (red-team finding F11): when the two name different images the
checker takes neither at its word on what they disagree about, and ``release.manifest-image`` names both values;
an image that no recorded release publishes is reported too; a mirror of a recorded image is no contradiction."""

from __future__ import annotations

import json

import pytest

import checks_core_release_shapes as kit
from checks_core_helpers import REPO, run_cli
from lingjun.checks.context import CheckContext, CheckOptions
from lingjun.checks.facts import Facts, ManifestFacts
from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.knowledge.identify import identify, manifest_conflict
from lingjun.checks.rules import load_rules
from lingjun.checks.runner import run_rules

DATA = kit.data()
REF = "inference-nv-pytorch:25.04"
VLLM_IMAGE = f"{kit.REGISTRY}/inference-nv-pytorch:{kit.VLLM_TAG}"
SGLANG_IMAGE = f"{kit.REGISTRY}/inference-nv-pytorch:{kit.SGLANG_TAG}"
TRAINING_IMAGE = f"{kit.REGISTRY}/training-nv-pytorch:25.07-serverless"
GHOST_IMAGE = f"{kit.REGISTRY}/inference-nv-pytorch:25.04-ghost"
VLLM_PASTE = REPO / "tests" / "checks_core" / "data" / "collect_env_inference_vllm_2504.txt"


def _facts(release, image, paste=None):
    facts = parse_collect_env(paste.read_text(encoding="utf-8")) if paste else Facts()
    data = {"release": release} | ({"image": image} if image is not None else {})
    facts.manifest = ManifestFacts(path="/etc/lingjun/release.json", release=release, data=data)
    # a paste shows no manifest: this one is added as if the input showed it
    facts.coverage.not_available = [s for s in facts.coverage.not_available if s != "manifest"]
    return facts


def _rule(facts):
    load_rules()
    match = identify(facts, DATA)
    findings = run_rules(CheckContext(facts=facts, data=DATA, release=match, options=CheckOptions()))
    return match, [(f.severity.value, f.message.get("en"), f.observed) for f in findings if f.rule == "release.manifest-image"]


@pytest.mark.parametrize("release, image", [
    (REF, SGLANG_IMAGE),  # the image names the variant the release leaves open
    (f"{REF}#vllm", VLLM_IMAGE),
    (kit.VLLM_TAG, VLLM_IMAGE),
    ("training-nv-pytorch:25.07", TRAINING_IMAGE),
    ("training-nv-pytorch:25.07", "registry.example.com/team/training-nv-pytorch:25.07-serverless"),  # a mirror
    ("training-nv-pytorch:25.07", "example/training-nv-pytorch:25.07-serverless"),  # the fakeroot's manifest
    ("training-nv-pytorch:25.07", None),
    ("training-nv-pytorch:24.01", TRAINING_IMAGE),  # the release names nothing: release.identified reports it
])
def test_no_conflict(release, image):
    facts = _facts(release, image)
    assert manifest_conflict(facts, DATA) is None
    assert _rule(facts)[1] == []


@pytest.mark.parametrize("release, image, kind, named, names", [
    (f"{REF}#vllm", SGLANG_IMAGE, "other-variant", f"{REF}#vllm", (f"{REF}#sglang",)),
    (kit.VLLM_TAG, SGLANG_IMAGE, "other-variant", f"{REF}#vllm", (f"{REF}#sglang",)),
    (REF, TRAINING_IMAGE, "other-release", REF, ("training-nv-pytorch:25.07",)),
    (REF, GHOST_IMAGE, "unknown-image", REF, ()),
    (REF, "training-nv-pytorch@sha256:0123", "unknown-image", REF, ()),
])
def test_conflicts_name_both_sides(release, image, kind, named, names):
    conflict = manifest_conflict(_facts(release, image), DATA)
    assert (conflict.kind, conflict.release, conflict.image, conflict.named, conflict.image_names) == (
        kind, release, image, named, names)


def test_another_variant_leaves_the_variant_to_the_installed_components():
    # the vLLM image's packages, a manifest saying #sglang in release and the vLLM image in image: the packages decide
    match, found = _rule(_facts(f"{REF}#sglang", VLLM_IMAGE, VLLM_PASTE))
    assert (match.how, match.ref, match.variant, match.variant_candidates) == ("manifest", REF, "vllm", [])
    assert found == [("warning",
                      f"The image's release manifest contradicts itself: its release is '{REF}#sglang', its image "
                      f"'{VLLM_IMAGE}' is another image of the same release ({REF}#vllm). Neither is taken over the "
                      f"other; {REF}#vllm is checked (from the manifest's release).", VLLM_IMAGE)]


def test_another_variant_and_no_packages_leave_the_variant_unknown():
    match, found = _rule(_facts(f"{REF}#vllm", SGLANG_IMAGE))
    assert (match.how, match.variant, sorted(match.variant_candidates)) == ("manifest", None, ["sglang", "vllm"])
    assert found[0][1].endswith(f"; {REF} is checked (from the manifest's release), its variant not known (vllm or sglang).")


def test_another_release_passes_the_manifest_over():
    match, found = _rule(_facts(REF, TRAINING_IMAGE))
    assert (match.how, match.record, match.rejected) == ("none", None, [])
    assert found == [("warning",
                      f"The image's release manifest contradicts itself: its release is '{REF}', its image "
                      f"'{TRAINING_IMAGE}' is an image of another release (training-nv-pytorch:25.07). Neither is taken "
                      f"over the other; no release record applies.", TRAINING_IMAGE)]
    # the installed packages still identify the release
    match, found = _rule(_facts("training-nv-pytorch:25.07", SGLANG_IMAGE, VLLM_PASTE))
    assert (match.how, match.image_ref) == ("fingerprint", f"{REF}#vllm")
    assert "Neither is taken over the other; inference-nv-pytorch:25.04#vllm is checked (by matching installed component " \
           "versions)." in found[0][1]


def test_an_image_no_release_publishes_keeps_the_release():
    match, found = _rule(_facts(f"{REF}#vllm", GHOST_IMAGE))
    assert (match.how, match.image_ref) == ("manifest", f"{REF}#vllm")
    assert found == [("warning",
                      f"The image's release manifest names the release '{REF}#vllm' and the image '{GHOST_IMAGE}', which is "
                      f"not an image of any release in the bundled release data; {REF}#vllm is checked (from the manifest's "
                      f"release).", GHOST_IMAGE)]
    _, found = _rule(_facts(kit.VLLM_TAG, GHOST_IMAGE))
    assert found[0][1].startswith(f"The image's release manifest names the release '{kit.VLLM_TAG}' ({REF}#vllm) and")


def test_the_snapshot_of_the_red_team_is_reported_in_both_languages(tmp_path):
    snapshot = {"schema": "lingjun-check/snapshot/1",
                "manifest": {"path": "/etc/lingjun/release.json", "release": f"{REF}#vllm",
                             "data": {"release": f"{REF}#vllm", "image": SGLANG_IMAGE}}}
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snapshot), encoding="utf-8")
    data = str(kit.write_bundle(tmp_path / "b.json"))
    report = json.loads(run_cli("--data", data, "--from", str(path), "--format", "json").stdout)
    assert (report["release"]["variant"], sorted(report["release"]["variant_candidates"])) == (None, ["sglang", "vllm"])
    assert [f["severity"] for f in report["findings"] if f["rule"] == "release.manifest-image"] == ["warning"]
    zh = run_cli("--data", data, "--from", str(path), "--lang", "zh").stdout
    assert (f"镜像内的发布清单前后矛盾：release 字段为 '{REF}#vllm'，image 字段 '{SGLANG_IMAGE}' 却是同一版本的另一个镜像"
            f"（{REF}#sglang）。两者均未被优先采用；按 {REF} 检查（来自发布清单的 release 字段），镜像变体未知（vllm 或 sglang）。") in zh
