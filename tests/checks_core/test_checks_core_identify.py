"""Which release applies: --release, LINGJUN_RELEASE, the manifest, then the fingerprint."""

from __future__ import annotations

import pytest

from lingjun.checks.cli import load_data
from lingjun.checks.facts import DistributionFacts, Facts, ManifestFacts
from lingjun.checks.knowledge.identify import UnknownReleaseError, identify, score_record, versions_match
from lingjun.checks.knowledge.bundle import BUNDLE_FORMAT, KnowledgeData


def _component(cid, names):
    return {"id": cid, "pypi": names, "probe": {"kind": "pypi"}}


DATA = KnowledgeData.from_dict(
    {
        "format": BUNDLE_FORMAT,
        "site_url": "https://kb.example/",
        "families": [{"id": "fam", "role": "product"}, {"id": "base", "role": "base"}],
        "components": [
            _component("torch", ["torch"]),
            _component("deepspeed", ["deepspeed"]),
            _component("vllm", ["vllm"]),
            _component("triton", ["triton", "pytorch-triton"]),
            {"id": "cuda", "pypi": [], "probe": {"kind": "cuda-toolkit"}},
        ],
        "releases": [
            {"family": "fam", "version": "25.06", "components": [
                {"id": "torch", "version": "2.7.1.8+nv25.3"}, {"id": "deepspeed", "version": "0.16.4+ali"},
                {"id": "vllm", "version": "0.9.1"}, {"id": "cuda", "version": "12.8"}]},
            {"family": "fam", "version": "25.07", "components": [
                {"id": "torch", "version": "2.7.1.8+nv25.3"}, {"id": "deepspeed", "version": "0.16.9+ali"},
                {"id": "vllm", "version": "0.9.2"}, {"id": "triton", "version": "3.3.0", "architectures": ["amd64"]},
                {"id": "triton", "version": "3.4.0", "architectures": ["aarch64"]}]},
            {"family": "base", "version": "25.03", "components": [{"id": "torch", "version": "2.7.0a0+7c8ec84dab"}]},
        ],
    }
)


def _facts(**installed):
    facts = Facts()
    facts.host.machine = "x86_64"
    facts.distributions = [DistributionFacts(name=n.replace("_", "-"), version=v) for n, v in installed.items()]
    return facts


@pytest.mark.parametrize(
    "installed, published, points",
    [
        ("0.16.9+ali", "0.16.9+ali", 1.0),
        ("0.16.9+ali.20250701", "0.16.9+ali", 1.0),
        ("0.16.9", "0.16.9+ali", 1.0),
        ("2.7.1.8+cu128", "2.7.1.8+nv25.3", 0.5),
        ("2.7.1.8+nv25.3", "2.7.1.8+nv25.03", 1.0),  # PEP 440 normalises the local label
        ("2.7.1", "2.7.1.8", 0.0),
        ("2.7.0a0+7c8ec84dab", "2.7.0", 0.0),
        ("garbage", "garbage", 1.0),
        ("garbage", "2.0", 0.0),
        (None, "2.0", 0.0),
    ],
)
def test_versions_match(installed, published, points):
    assert versions_match(installed, published) == points


def test_option_wins_and_unknown_option_lists_known():
    facts = _facts()
    facts.env["LINGJUN_RELEASE"] = "fam:25.06"
    match = identify(facts, DATA, "fam:25.07")
    assert (match.ref, match.how, match.record.version) == ("fam:25.07", "option", "25.07")
    with pytest.raises(UnknownReleaseError) as info:
        identify(facts, DATA, "fam:99.99")
    assert info.value.known == ["base:25.03", "fam:25.06", "fam:25.07"]


def test_env_then_manifest():
    facts = _facts(torch="2.7.1.8+nv25.3", deepspeed="0.16.9+ali", vllm="0.9.2")
    facts.manifest = ManifestFacts(path="/etc/lingjun/release.json", release="fam:25.06")
    assert identify(facts, DATA).how == "manifest"
    assert identify(facts, DATA).ref == "fam:25.06"
    facts.env["LINGJUN_RELEASE"] = "fam:25.07"
    match = identify(facts, DATA)
    assert (match.how, match.ref) == ("env", "fam:25.07")
    facts.env["LINGJUN_RELEASE"] = "fam:11.11"  # unknown: passed over (release.identified warns), the manifest decides
    unknown = identify(facts, DATA)
    assert (unknown.how, unknown.ref, unknown.rejected) == ("manifest", "fam:25.06", [("env", "fam:11.11")])


def test_fingerprint_picks_best_record_with_score_and_runner_up():
    facts = _facts(torch="2.7.1.8+nv25.3", deepspeed="0.16.9+ali", vllm="0.9.2", pytorch_triton="3.3.0")
    match = identify(facts, DATA)
    assert (match.how, match.ref, match.score) == ("fingerprint", "fam:25.07", 1.0)
    assert match.candidates == [("fam:25.06", pytest.approx(1 / 3, abs=1e-3))]


def test_fingerprint_respects_architecture():
    facts = _facts(torch="2.7.1.8+nv25.3", deepspeed="0.16.9+ali", vllm="0.9.2", triton="3.4.0")
    facts.host.machine = "aarch64"
    assert identify(facts, DATA).score == 1.0
    facts.host.machine = "x86_64"
    assert identify(facts, DATA).score == 0.75


def test_below_threshold_is_none_with_closest_candidate():
    facts = _facts(torch="2.7.1.8+nv25.3", deepspeed="0.1.0")
    match = identify(facts, DATA)
    assert match.how == "none" and match.ref is None and match.record is None
    assert match.candidates[0][0] in ("fam:25.06", "fam:25.07")


def test_base_image_torch_build_alone_identifies_it():
    match = identify(_facts(torch="2.7.0a0+7c8ec84dab"), DATA)
    assert (match.how, match.ref) == ("fingerprint", "base:25.03")


def test_nothing_installed_is_none():
    match = identify(_facts(), DATA)
    assert (match.how, match.ref, match.candidates) == ("none", None, [])


def test_score_record_counts():
    record = DATA.record("fam:25.06")
    pypi = {"torch": ["torch"], "deepspeed": ["deepspeed"], "vllm": ["vllm"]}
    assert score_record(record, {"torch": "2.7.1.8+cu128", "vllm": "0.9.1"}, pypi, "amd64") == (0.5, 1, 3)


def test_every_bundled_product_release_identifies_itself_from_its_own_versions():
    data = load_data(None)
    pypi = {c["id"]: c["pypi"] for c in data.components if (c.get("probe") or {}).get("kind") == "pypi" and c.get("pypi")}
    for record in data.product_releases():
        entries = [e for e in record.get("components", []) if e["id"] in pypi and "aarch64" not in (e.get("architectures") or [])]
        if len(entries) < 2:
            continue
        facts = _facts(**{pypi[e["id"]][0]: e["version"] for e in entries})
        match = identify(facts, data)
        assert match.how == "fingerprint" and match.score == 1.0, (record["family"], record["version"], match)
        chosen = {(e.id, e.version) for e in match.record.components}
        assert {(e["id"], e["version"]) for e in entries} <= chosen
