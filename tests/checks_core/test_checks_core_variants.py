"""Releases with several images (variants), framework runtimes and identifiers beyond YY.MM (issue 12).

A vLLM and an SGLang container of inference-nv-pytorch 25.04 (collect_env pastes) are identified as the
release *and* the image; a paste both images match equally leaves the image unknown (both named) and the
package rules then compare only what both images list alike; the running interpreter inside
``/opt/runtimes/...`` names the runtime; PPU records give PPU verdicts, never NVIDIA ones.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json

import pytest

import checks_core_release_shapes as kit
from checks_core_helpers import REPO, run_cli
from lingjun.checks.context import CheckContext, CheckOptions
from lingjun.checks.facts import DistributionFacts, Facts, ManifestFacts
from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.knowledge.identify import UnknownReleaseError, find_release, identify, order_key
from lingjun.checks.report.render_prometheus import render_prometheus
from lingjun.checks.report.render_text import release_line
from lingjun.checks.rules import load_rules
from lingjun.checks.runner import run_rules

PASTES = REPO / "tests" / "checks_core" / "data"
VLLM_PASTE = PASTES / "collect_env_inference_vllm_2504.txt"
SGLANG_PASTE = PASTES / "collect_env_inference_sglang_2504.txt"
DATA = kit.data()
REF = "inference-nv-pytorch:25.04"


def _paste(path, drop=()):
    text = "".join(line for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
                   if not any(line.startswith(d) for d in drop))
    return parse_collect_env(text)


def _findings(facts, data=DATA, release=None):
    load_rules()
    match = identify(facts, data, release)
    return match, run_rules(CheckContext(facts=facts, data=data, release=match, options=CheckOptions()))


def _by_rule(findings, rule):
    return [(f.severity.value, f.message.get("en")) for f in findings if f.rule == rule]


# -- the bundle ------------------------------------------------------------------------------------------


def test_the_bundle_carries_each_image_and_the_order_key_without_site_prose():
    record = DATA.release(REF)
    assert [(v["id"], v["title"]["en"], [t["tag"] for t in v["image_tags"]]) for v in record["variants"]] == [
        ("vllm", "vLLM image", [kit.VLLM_TAG]), ("sglang", "SGLang image", [kit.SGLANG_TAG])]
    vllm = record["variants"][0]
    assert vllm["component_list"] == "complete" and vllm["python"] is None
    assert {"id": "xgrammar", "name": "xgrammar", "version": "0.1.18", "architectures": [], "introduced": False} in vllm["components"]
    assert not {"use_case", "scenarios", "note"} & set(vllm) and not {"summary", "highlights", "source_conflicts"} & set(record)
    assert record["order_key"] == [2025, 4, 0] and record["components"] == [] and record["image_tags"] == []
    xpu = DATA.release("training-xpu-pytorch:2026-10-20")
    assert xpu["order_key"] == [2026, 10, 20] and xpu["driver"] is None
    assert [(r["id"], r["path"]) for r in xpu["runtimes"]] == [
        ("cosmos-framework/20261015", "/opt/runtimes/cosmos-framework-ppu"), ("llama-factory/20261015", "/opt/runtimes/llama-factory-ppu"),
        ("diffsynth/20261015", "/opt/runtimes/diffsynth-ppu/")]
    assert "upstream" not in xpu["runtimes"][0]
    opt = DATA.release(f"inference-xpu-pytorch-opt:{kit.OPT_TAG}")
    assert opt["order_key"] is None  # no release date stated: not placed, and never ordered as text
    typed = [DATA.record(ref) for ref in (REF, "training-xpu-pytorch:2026-10-20", f"inference-xpu-pytorch-opt:{kit.OPT_TAG}")]
    assert [order_key(r) for r in typed] == [(2025, 4, 0), (2026, 10, 20), (0, 0, 0)]


# -- naming a release --------------------------------------------------------------------------------------


@pytest.mark.parametrize("value, ref, variant", [
    (REF, REF, None),
    (f"{REF}#vllm", REF, "vllm"),
    (f"{REF}#sglang", REF, "sglang"),
    (kit.VLLM_TAG, REF, "vllm"),
    (f"inference-nv-pytorch:{kit.SGLANG_TAG}", REF, "sglang"),
    (f"{kit.REGISTRY}/inference-nv-pytorch:{kit.VLLM_TAG}", REF, "vllm"),
    (f"acs-registry-vpc.cn-beijing.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:{kit.SGLANG_TAG}", REF, "sglang"),
    ("training-xpu-pytorch:2026-10-20", "training-xpu-pytorch:2026-10-20", None),
    (kit.XPU_TAG, "training-xpu-pytorch:2026-10-20", None),
    (f"training-xpu-pytorch:{kit.XPU_TAG}", "training-xpu-pytorch:2026-10-20", None),
    (f"inference-xpu-pytorch-opt:{kit.OPT_TAG}", f"inference-xpu-pytorch-opt:{kit.OPT_TAG}", None),
    (kit.OPT_TAG, f"inference-xpu-pytorch-opt:{kit.OPT_TAG}", None),
    ("25.07-serverless", "training-nv-pytorch:25.07", None),
])
def test_a_release_is_named_by_identifier_tag_reference_or_variant(value, ref, variant):
    found = find_release(DATA, value)
    assert found is not None and (found[0], found[2]) == (ref, variant)


@pytest.mark.parametrize("value", [
    f"{REF}#bogus", "inference-nv-pytorch:25.04-vllm0.8.5", "25.04-vllm0.8.5-pytorch2.6-cu124",
    f"training-nv-pytorch:{kit.VLLM_TAG}",  # another family's tag
    "training-xpu-pytorch:2026-10-21", f"{kit.VLLM_TAG}#vllm", "2026-10-20",
])
def test_no_guessing_for_variants_and_new_identifiers(value):
    assert find_release(DATA, value) is None


def test_a_bare_tag_two_releases_publish_is_ambiguous_and_names_both(tmp_path):
    raw = kit.bundle()
    ngc = next(r for r in raw["releases"] if r["family"] == "ngc-pytorch")
    ngc["image_tags"].append({"tag": "25.05", "reference": "nvcr.io/nvidia/pytorch:25.05", "architectures": [], "products": [],
                              "not_for": [], "digest": None})
    data = KnowledgeData.from_dict(raw)
    assert find_release(data, "25.05") is None
    with pytest.raises(UnknownReleaseError) as info:
        identify(Facts(), data, "25.05")
    assert info.value.ambiguous and info.value.known == [f"ngc-pytorch:{ngc['version']}", "training-xpu-pytorch:25.05"]
    path = tmp_path / "b.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    result = run_cli("--data", str(path), "--release", "25.05")
    assert result.returncode == 3 and len(result.stderr.splitlines()) == 1
    assert "ambiguous" in result.stderr and "training-xpu-pytorch:25.05" in result.stderr


def test_an_unknown_release_is_one_line_listing_the_new_identifiers(tmp_path):
    result = run_cli("--data", str(kit.write_bundle(tmp_path / "b.json")), "--release", "inference-nv-pytorch:25.04#bogus")
    assert result.returncode == 3 and len(result.stderr.splitlines()) == 1
    assert result.stderr.endswith("unknown release; inference-nv-pytorch releases: inference-nv-pytorch:25.04, "
                                  "inference-nv-pytorch:25.04#vllm, inference-nv-pytorch:25.04#sglang\n")
    result = run_cli("--data", str(kit.write_bundle(tmp_path / "b.json")), "--release", "training-xpu-pytorch:2026-10-2")
    assert result.stderr.endswith("unknown release; did you mean training-xpu-pytorch:2026-10-20?\n")


# -- which image runs --------------------------------------------------------------------------------------


@pytest.mark.parametrize("paste, variant, transformers", [(VLLM_PASTE, "vllm", "4.51.3"), (SGLANG_PASTE, "sglang", "4.51.1")])
def test_the_installed_components_name_the_variant(paste, variant, transformers):
    facts = _paste(paste)
    for option in (None, REF):
        match = identify(facts, DATA, option)
        assert (match.ref, match.variant, match.variant_candidates) == (REF, variant, [])
        assert match.image_ref == f"{REF}#{variant}"
        assert {e.id: e.version for e in match.record.components}["transformers"] == transformers
    fingerprinted = identify(facts, DATA)
    assert fingerprinted.how == "fingerprint" and fingerprinted.score == 1.0
    other = "sglang" if variant == "vllm" else "vllm"
    assert fingerprinted.candidates[0] == (f"{REF}#{other}", 0.667)


def test_a_tie_between_the_variants_leaves_the_variant_unknown_and_checks_only_what_both_list():
    facts = _paste(SGLANG_PASTE, drop=("[pip3] transformers",))  # torch and triton: the same in both images
    for option in (None, REF):
        match = identify(facts, DATA, option)
        assert (match.ref, match.variant, sorted(match.variant_candidates)) == (REF, None, ["sglang", "vllm"])
        assert [(e.id, e.version) for e in match.record.components] == [
            ("ubuntu", "22.04"), ("python", "3.10"), ("torch", "2.6.0+cu124"), ("cuda", "12.4"), ("accl-n", "2.23.4.12"),
            ("triton", "3.2.0")]
        assert match.record.component_list == "partial" and match.record.python == "3.10"
    match, findings = _findings(facts, release=REF)
    assert release_line(match, "en") == f"Release: {REF} (chosen with --release); variant unknown: vllm or sglang"
    assert release_line(match, "zh").endswith("；镜像变体未知：vllm 或 sglang")
    info = _by_rule(findings, "release.identified")
    assert info[0][0] == "info" and "matches vllm, sglang equally well" in info[0][1] and "only the 6 components" in info[0][1]
    # one line: the variant's line names the release and how it was chosen; no second "ok" line
    assert len(info) == 1 and info[0][1].startswith(f"Release {REF} (given with --release) publishes several images")
    # a package of one image only is never judged: xgrammar 0.1.17 is the SGLang image's, 0.1.18 the vLLM image's
    facts.distributions.append(DistributionFacts(name="triton", version="3.3.0"))
    facts.distributions = [d for d in facts.distributions if d.name != "triton" or d.version == "3.3.0"]
    _, findings = _findings(facts, release=REF)
    mismatch = _by_rule(findings, "packages.version-mismatch")
    assert [s for s, _ in mismatch] == ["warning", "ok"] and "3.3.0" in mismatch[0][1] and "3.2.0" in mismatch[0][1]
    assert "xgrammar" not in json.dumps(mismatch) and "sglang" not in json.dumps(_by_rule(findings, "packages.missing"))


def test_a_value_the_variants_state_differently_is_skipped_with_the_reason_when_the_variant_is_unknown():
    raw = kit.bundle()
    record = next(r for r in raw["releases"] if r["family"] == "inference-nv-pytorch")
    record["variants"][1]["python"] = "3.12"  # as if the SGLang image had its own Python
    facts = _paste(SGLANG_PASTE, drop=("[pip3] transformers",))
    match, findings = _findings(facts, KnowledgeData.from_dict(raw), REF)
    assert match.variant is None and match.record.python is None
    (severity, message), = _by_rule(findings, "python.interpreter")
    assert severity == "skipped" and message.startswith(f"{REF} publishes several images (") and "Python differs" in message
    match, findings = _findings(facts, KnowledgeData.from_dict(raw), kit.VLLM_TAG)  # the tag settles it
    assert _by_rule(findings, "python.interpreter") == [("ok", "Python 3.10.12 is the image's Python 3.10.")]


def test_the_manifest_image_names_the_variant_the_release_leaves_open():
    facts = _paste(SGLANG_PASTE, drop=("[pip3] transformers",))
    facts.manifest = ManifestFacts(path="/etc/lingjun/release.json", release=REF,
                                   data={"release": REF, "image": f"{kit.REGISTRY}/inference-nv-pytorch:{kit.SGLANG_TAG}"})
    facts.coverage.not_available.remove("manifest")  # a paste shows no manifest: this one is as if the input showed it
    match = identify(facts, DATA)
    assert (match.how, match.ref, match.variant) == ("manifest", REF, "sglang")
    facts.manifest = ManifestFacts(path="/etc/lingjun/release.json", release=kit.VLLM_TAG, data={"release": kit.VLLM_TAG})
    assert (identify(facts, DATA).how, identify(facts, DATA).variant) == ("manifest", "vllm")


def test_the_manifest_probe_takes_a_bare_tag_and_a_dated_release(tmp_path):
    from lingjun.checks.probes._base import ProbeEnv
    from lingjun.checks.probes._collect import collect

    for value in (kit.VLLM_TAG, "training-xpu-pytorch:2026-10-20"):
        (tmp_path / "etc" / "lingjun").mkdir(parents=True, exist_ok=True)
        (tmp_path / "etc" / "lingjun" / "release.json").write_text(json.dumps({"release": value}), encoding="utf-8")
        facts = collect(ProbeEnv(root=str(tmp_path), environ={}), ["manifest"])
        assert facts.manifest.release == value
    (tmp_path / "etc" / "lingjun" / "release.json").write_text(json.dumps({"release": ""}), encoding="utf-8")
    assert collect(ProbeEnv(root=str(tmp_path), environ={}), ["manifest"]).manifest.release is None


# -- reports ------------------------------------------------------------------------------------------------


def test_reports_name_the_variant_given_by_its_tag(tmp_path):
    data = str(kit.write_bundle(tmp_path / "b.json"))
    result = run_cli("--data", data, "--from-collect-env", str(VLLM_PASTE), "--release", kit.VLLM_TAG, "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    release = report["release"]
    assert (release["ref"], release["how"], release["variant"], release["variant_candidates"], release["runtime"]) == (
        REF, "option", "vllm", [], None)
    assert release["url"] == "https://kb.example.org/releases/inference-nv-pytorch/25.04/"
    found = {f["rule"]: f for f in report["findings"] if f["severity"] != "skipped"}
    assert found["release.identified"]["message"] == f"Release {REF}#vllm (given with --release)."
    assert found["packages.version-mismatch"]["message"] == "4 package(s) match the release versions."
    assert found["python.interpreter"]["message"] == "Python 3.10.12 is the image's Python 3.10."
    assert found["driver.minimum"]["message"] == "Driver 550.127.08 meets the release minimum (NVIDIA Driver release >= 550)."
    text = run_cli("--data", data, "--from-collect-env", str(SGLANG_PASTE), "--release", kit.SGLANG_TAG)
    assert f"Release: {REF}#sglang, SGLang image (chosen with --release)" in text.stdout
    text = run_cli("--data", data, "--from-collect-env", str(SGLANG_PASTE), "--release", kit.SGLANG_TAG, "--lang", "zh")
    assert f"发布版本: {REF}#sglang，SGLang 镜像 (由 --release 指定)" in text.stdout
    wrong = json.loads(run_cli("--data", data, "--from-collect-env", str(VLLM_PASTE), "--release", kit.SGLANG_TAG,
                               "--format", "json").stdout)
    mismatch = [f["message"] for f in wrong["findings"] if f["rule"] == "packages.version-mismatch" and f["severity"] == "warning"]
    # 4.51.1 without a local label is the upstream package in this image, not an image-specific build
    assert mismatch == ["Transformers is 4.51.3, the release ships 4.51.1."]


def test_prometheus_labels_the_image():
    facts = _paste(VLLM_PASTE)
    match, findings = _findings(facts)
    text = render_prometheus(findings, match, facts, rule_ids=sorted({f.rule for f in findings}), version="0.1.0",
                             exit_status=0, now=1.0)
    assert f'release="{REF}#vllm"' in text and 'release_how="fingerprint"' in text


def test_the_fleet_tells_the_vllm_and_the_sglang_nodes_apart(tmp_path):
    from lingjun.checks.fleet._cli import main

    data = str(kit.write_bundle(tmp_path / "b.json"))
    reports = []
    for name, paste in (("node-vllm", VLLM_PASTE), ("node-sglang", SGLANG_PASTE)):
        result = run_cli("--data", data, "--from-collect-env", str(paste), "--format", "json", "--node-name", name)
        reports.append(tmp_path / f"{name}.json")
        reports[-1].write_text(result.stdout, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([str(p) for p in reports] + ["--format", "json", "--data", data]) == 0
    fleet = json.loads(out.getvalue())
    assert [(n["name"], n["release"]) for n in fleet["nodes"]] == [("node-vllm", f"{REF}#vllm"), ("node-sglang", f"{REF}#sglang")]
    fact = next(f for f in fleet["facts"] if f["id"] == "release")
    assert fact["status"] == "tie" and sorted(g["value"] for g in fact["groups"]) == [f"{REF}#sglang", f"{REF}#vllm"]


# -- runtimes -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix, runtime, first", [
    ("/opt/runtimes/cosmos-framework-ppu/.venv", "cosmos-framework/20261015", ("cosmos-framework", "1.2.2")),
    ("/opt/runtimes/llama-factory-ppu", "llama-factory/20261015", ("ubuntu", "24.04.2")),
    ("/opt/runtimes/diffsynth-ppu", "diffsynth/20261015", ("ubuntu", "24.04.2")),
    ("/opt/runtimes/llama-factory-ppu-old", None, ("ubuntu", "24.04.2")),
    ("/usr", None, ("ubuntu", "24.04.2")),
])
def test_the_interpreter_under_a_runtime_path_names_the_runtime_and_its_list(prefix, runtime, first):
    facts = Facts()
    facts.python.prefix, facts.python.executable = prefix, f"{prefix}/bin/python3"
    match = identify(facts, DATA, kit.XPU_TAG)
    assert (match.runtime or {}).get("id") == runtime
    entries = [(e.id, e.version) for e in match.record.components]
    assert entries[0] == first and ("torch", "2.10.0") in entries
    # a runtime's list is partial on the page read: the combined list never claims more
    assert match.record.component_list == ("partial" if runtime else "complete")
    if runtime:
        paths = {r["id"]: r["path"] for r in DATA.release("training-xpu-pytorch:2026-10-20")["runtimes"]}
        assert release_line(match, "en").endswith(f"; runtime {runtime} ({paths[runtime]})")


def test_the_runtime_is_named_in_the_report():
    facts = Facts()
    facts.python.prefix, facts.python.executable = "/opt/runtimes/llama-factory-ppu", "/opt/runtimes/llama-factory-ppu/bin/python3"
    facts.python.version = "3.12.3"
    match, findings = _findings(facts, release=kit.XPU_TAG)
    info = [m for s, m in _by_rule(findings, "release.identified") if s == "info"]
    assert info == ["The interpreter runs in the image's runtime LlamaFactory (llama-factory/20261015, /opt/runtimes/llama-factory-ppu): "
                    "its component list is the one checked."]


# -- PPU records ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("release, minimum", [
    (f"inference-xpu-pytorch-opt:{kit.OPT_TAG}",
     "PPU image: the release needs PPU driver 1.1.0 or newer (Driver version >= 1.1.0); the PPU driver's version is not read, "
     "so it is not compared (NVIDIA driver minimums do not apply)."),
    ("training-xpu-pytorch:2026-10-20",
     "PPU image: the release's driver requirement was not recorded from its page (the copy read does not show that "
     "section); NVIDIA driver minimums do not apply."),
])
def test_ppu_releases_get_no_nvidia_verdicts(release, minimum):
    facts = _paste(SGLANG_PASTE)  # an NVIDIA paste checked against a PPU release: still no NVIDIA verdict
    _, findings = _findings(facts, release=release)
    assert _by_rule(findings, "driver.minimum") == [("skipped", minimum)]
    nvidia = [(f.rule, f.severity.value) for f in findings if f.rule.startswith("driver.") and f.severity.value != "skipped"]
    # the only driver verdict: the paste shows NVIDIA GPUs, so the PPU image does not fit this node
    assert nvidia == [("driver.present", "error")]
    (present,) = [f for f in findings if f.rule == "driver.present"]
    assert present.message.en == (f"{release} is a PPU image, but this node shows NVIDIA hardware (4x NVIDIA H20, NVIDIA driver "
                                  "550.127.08): the image's accelerator does not match this node's.")


def test_order_by_date_never_by_text():
    facts = Facts()
    facts.host.machine = "x86_64"
    facts.distributions = [DistributionFacts(name="torch", version="2.10.0"), DistributionFacts(name="triton", version="3.6.0+gitc6a4cb0f")]
    match = identify(facts, DATA)
    assert (match.ref, match.how) == ("training-xpu-pytorch:2026-10-20", "fingerprint")
    raw = copy.deepcopy(kit.bundle())
    for record in raw["releases"]:
        record.pop("order_key")  # a bundle without keys: computed from the identifier, never Version("2026-10-20")
    assert identify(facts, KnowledgeData.from_dict(raw)).ref == "training-xpu-pytorch:2026-10-20"


def test_a_paste_showing_one_stock_package_of_several_names_no_release():
    """A stock torch 2.6.0+cu124 is in the 25.04 images and in any PyTorch 2.6 container: one match of the several
    packages an image lists is not a fingerprint (the S3 paste of vllm-project/vllm#15607 shows only torch)."""
    facts = _paste(SGLANG_PASTE, drop=("[pip3] transformers", "[pip3] triton"))
    match = identify(facts, DATA)
    assert (match.how, match.ref, match.record) == ("none", None, None)
    assert match.candidates[0] == (f"{REF}#vllm", 1.0)


def test_a_ppu_image_that_states_no_driver_is_a_ppu_image_for_the_finder_too():
    from lingjun.checks.core.release_compat import release_verdict
    from lingjun.checks.core.versions import DriverVersion

    for release in ("training-xpu-pytorch:2026-10-20", f"inference-xpu-pytorch-opt:{kit.OPT_TAG}"):
        verdict = release_verdict(DATA.release(release), DriverVersion.parse("520.0.0"), True, DATA.cuda_drivers)
        assert (verdict.verdict, verdict.key) == ("unsupported", "ppu")
    nvidia = release_verdict(DATA.release(REF), DriverVersion.parse("550.54.14"), True, DATA.cuda_drivers)
    assert nvidia.verdict == "native"


def test_a_ppu_release_without_an_nvidia_driver_says_ppu_once_per_group_in_text():
    """The GPU rules of a PPU release skip as "PPU image" (not "No NVIDIA driver"), each in JSON, one line per area in text."""
    from lingjun.checks.report.render_text import render_text

    facts = Facts()
    facts.origin = "live"
    match, findings = _findings(facts, release="training-xpu-pytorch:2026-10-20")
    gpu = [spec.id for spec in load_rules() if spec.needs_gpu]
    skipped = {f.rule: f.message.en for f in findings if f.rule in gpu}
    assert set(skipped) == set(gpu) and set(skipped.values()) == {"PPU image: NVIDIA driver checks do not apply."}
    text = render_text(findings, match, lang="en")
    driver_rules = [spec.id for spec in load_rules() if spec.needs_gpu and spec.area == "driver"]
    line = f"({len(driver_rules)} rules)"
    (collapsed,) = [row for row in text.splitlines() if line in row]
    assert collapsed.startswith("  SKIP   ") and collapsed.endswith(
        f"PPU image: NVIDIA driver checks do not apply. [{', '.join(driver_rules)}]")
    assert text.count("PPU image: NVIDIA driver checks do not apply.") == len({spec.area for spec in load_rules() if spec.needs_gpu})


def test_a_named_variant_the_packages_do_not_fit_gets_a_did_you_mean():
    """--release inference-nv-pytorch:25.04#sglang on the vLLM image's packages: one release.identified line that names
    the variant the packages match; the variant that fits gets the plain ok line."""
    facts = _paste(VLLM_PASTE)
    _, findings = _findings(facts, release=f"{REF}#sglang")
    assert _by_rule(findings, "release.identified") == [(
        "info", f"Release {REF}#sglang (given with --release), but the installed packages match the vLLM image of this "
                f"release better; did you mean {REF}#vllm?")]
    _, findings = _findings(facts, release=f"{REF}#vllm")
    assert _by_rule(findings, "release.identified") == [("ok", f"Release {REF}#vllm (given with --release).")]


@pytest.mark.parametrize("left_out", ["components", "image_tags", "presence_unknown", "runtimes"])
def test_a_variant_that_leaves_out_a_list_is_checked_with_that_list_empty(left_out):
    """The lists a variant may leave out (the shape's optional ones): its report says its component list is not
    published, never "internal error" (the typed view once got None for them)."""
    raw = kit.bundle()
    record = next(r for r in raw["releases"] if f"{r['family']}:{r['version']}" == REF)
    record["variants"][0].pop(left_out)
    data = KnowledgeData.from_dict(raw)
    match, findings = _findings(_paste(VLLM_PASTE), data=data, release=f"{REF}#vllm")
    assert match.variant == "vllm" and getattr(match.record, left_out) == []
    assert not [f.rule for f in findings if "internal error" in f.message.en]
    if left_out == "components":
        assert match.record.component_list == "not-published"
