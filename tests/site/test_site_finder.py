"""The compatibility finder, ``lingjun-kb which`` and the checker never disagree.

For every release of ``releases/``, every driver branch the finder holds and
a data center (H20) and a consumer (GeForce RTX 4090) GPU, at the branch's
lowest driver, at every threshold inside the branch and for the branch alone
(``R535``: an up-to-date driver of it):

* ``which`` (the CLI's answer),
* the finder page's data looked up as its script does, and
* the checker's rules ``driver.minimum``, ``driver.cuda-compatibility`` and
  ``driver.forward-compat-consumer-gpu`` run on a synthetic container snapshot
  (the driver, an NVML GPU named as NVML names it, the image's cuda-compat
  package where the record says the image carries it, the host's libcuda
  otherwise), their findings read back into a verdict class

give the same verdict.  The checker's path is independent of the finder's:
it reads the GPU class off the NVML name and brand, the compat package off
the snapshot, and decides through its rule modules.
"""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
from lingjun.checks.core.family_driver import driver_view
from lingjun.checks.core.release_compat import VERDICTS, branch_thresholds, release_verdict
from lingjun.checks.core.versions import DriverVersion
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.rules import RULES, load_rules
from lingjun.checks.runner import run_rule
from lingjun.generator.bundle import compile_bundle
from lingjun.generator.cli import main
from lingjun.generator.site.driver_matrix import Compat, classify_branch
from lingjun.generator.site.finder import (
    WhichError,
    find_gpu,
    finder_branches,
    finder_data,
    gpu_lookup,
    parse_driver_input,
    which,
)

from site_kit import REPO

load_rules()

#: (gpus.yaml name, NVML name, NVML brand)
GPUS = {"dc": ("H20", "NVIDIA H20", "nvidia"), "other": ("GeForce RTX 4090", "NVIDIA GeForce RTX 4090", "geforce")}
#: GPUs every driver branch of the reference data drives (CUDA 11.0 / 11.1 architectures): the pages' cells are per
#: GPU class, so they are compared with the answers for these
CLASS_GPUS = {"dc": ("A100", "NVIDIA A100-SXM4-80GB", "nvidia"),
              "other": ("GeForce RTX 3090", "NVIDIA GeForce RTX 3090", "geforce")}
DRIVER_RULES = ("driver.minimum", "driver.cuda-compatibility", "driver.forward-compat-consumer-gpu")


@pytest.fixture(scope="module")
def knowledge(real):
    kb, _ = real
    bundle = compile_bundle(kb)
    return kb, KnowledgeData.from_dict(bundle), bundle


def _facts(record: dict, driver: str, cls: str, gpus: dict = GPUS) -> Facts:
    """A container snapshot: kernel driver ``driver``, one GPU of class ``cls`` (of ``gpus``), the image as the record
    describes it."""
    _, nvml_name, brand = gpus[cls]
    facts = Facts()
    facts.driver.kernel_module_version = driver
    facts.driver.device_nodes = ["/dev/nvidiactl", "/dev/nvidia0"]
    facts.driver.device_nodes_accessible = True
    facts.nvml.init_ok = True
    facts.nvml.driver_version = driver
    facts.nvml.gpus = [GpuFacts(index=0, name=nvml_name, brand=brand)]
    carries_compat = bool(((record.get("driver") or {}).get("forward_compatibility")))
    if carries_compat:
        facts.cuda.compat_dir = "/usr/local/cuda/compat"
        if cls == "dc":  # the image's compat libcuda is loaded on data center GPUs
            facts.libcuda.path = facts.libcuda.real_path = "/usr/local/cuda/compat/libcuda.so.1"
            facts.libcuda.is_forward_compat = True
        else:
            facts.libcuda.path = facts.libcuda.real_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1"
            facts.libcuda.is_forward_compat = False
    else:  # the record does not say whether the image carries cuda-compat: the snapshot does not show it either
        facts.coverage.partial = ["cuda-toolkit", "libcuda"]
    return facts


def _checker_verdict(findings) -> str:
    """The verdict class of the driver rules' findings.

    An error anywhere: unsupported (a PPU image is skipped by the rules as "not NVIDIA": unsupported here too).
    driver.cuda-compatibility info (no reference row) or forward-unconfirmed, or a driver.minimum warning that the
    release's cut-off driver text leaves the branch not stated: not-stated.  Another warning: minor-compat.
    driver.cuda-compatibility ok through forward compatibility: forward-compat.  Otherwise native.
    """
    by_rule = {}
    for finding in findings:
        by_rule.setdefault(finding.rule, []).append(finding)
    minimum = by_rule.get("driver.minimum", [])
    if any("PPU" in f.message.en for f in minimum):
        return "unsupported"
    severities = {f.severity.value for f in findings}
    if "error" in severities:
        return "unsupported"
    cuda = by_rule["driver.cuda-compatibility"]
    if any(f.severity.value == "info" for f in cuda):
        return "not-stated"
    if any(f.severity.value == "warning" and "only through forward compatibility" in f.message.en for f in cuda):
        return "not-stated"
    # below the minimum of a release whose cut-off driver text does not name the branch, CUDA running natively
    if any(f.severity.value == "warning" and f.message.en.endswith("is not stated.") for f in minimum):
        return "not-stated"
    if "warning" in severities:
        return "minor-compat"
    if any("through forward compatibility" in f.message.en for f in cuda):
        return "forward-compat"
    assert all(f.severity.value in ("ok", "info") for f in findings), findings
    return "native"


#: one finding -> the verdicts it is consistent with (None: it says nothing about the verdict)
def _finding_readings(finding) -> set[str] | None:
    """What one driver rule's finding says on its own, as the verdicts it allows.

    An error: unsupported.  driver.minimum: ok (the release minimum is met) allows native or minor-compat (the
    toolkit may still need more); info naming forward compatibility allows forward-compat; a warning that leaves the
    branch not stated or lacks the compat package's evidence, not-stated; another warning, minor-compat.
    driver.cuda-compatibility: ok natively, native (or minor-compat or not-stated, which the release's minimum
    decides: driver.minimum's part); ok through forward compatibility, forward-compat; a warning of
    forward compatibility unconfirmed, or info (no reference row), not-stated; another warning, minor-compat.
    driver.forward-compat-consumer-gpu's ok and info findings and skipped findings say nothing.
    """
    sev, en, rule_id = finding.severity.value, finding.message.en, finding.rule
    if sev == "skipped":
        return {"unsupported"} if "PPU" in en else None
    if sev == "error":
        return {"unsupported"}
    if rule_id == "driver.forward-compat-consumer-gpu":
        return None  # ok or info: the GPU class or the loaded libcuda, not a verdict on the release
    if rule_id == "driver.minimum":
        if sev == "ok":
            return {"native", "minor-compat"}
        if sev == "info":
            return {"forward-compat"} if "forward compatibility" in en else None
        if en.endswith("is not stated.") or "does not show whether" in en:
            return {"not-stated"}
        return {"minor-compat"}
    if sev == "info":
        return {"not-stated"}
    if sev == "warning":
        # CUDA starts with limits; whether the release refuses the branch (must-upgrade: unsupported) is driver.minimum's part
        return {"not-stated"} if "only through forward compatibility" in en else {"minor-compat", "unsupported"}
    # CUDA runs natively: the release's own minimum (driver.minimum's part) may still leave it minor-compat or not stated
    return {"forward-compat"} if "through forward compatibility" in en else {"native", "minor-compat", "not-stated"}


def _run_checker(kd: KnowledgeData, record: dict, driver: str, cls: str, per_rule: bool = False, gpus: dict = GPUS):
    """The checker's verdict class; with ``per_rule`` also ``{rule: verdicts its findings allow}`` (rules that said
    something about the verdict only)."""
    # the record as the checker's release match reads it: a cut-off driver text with what the family's neighbours state
    view = driver_view(record, kd.releases)
    ctx = CheckContext(facts=_facts(record, driver, cls, gpus), data=kd,
                       release=ReleaseMatch(ref=f"{record['family']}:{record['version']}", how="option", score=None, record=view),
                       options=CheckOptions())
    findings = [f for rule in DRIVER_RULES for f in run_rule(RULES[rule], ctx)]
    if not per_rule:
        return _checker_verdict(findings)
    readings: dict[str, set[str]] = {}
    for finding in findings:
        allowed = _finding_readings(finding)
        if allowed is not None:
            readings[finding.rule] = readings.get(finding.rule, set(VERDICTS)) & allowed
    return _checker_verdict(findings), readings


#: driver branches that between them reach every case of release_verdict the real records have (R580 native ...
#: R450, too old for Hopper): the grid the finder, which and the checker are compared on
SAMPLE_BRANCHES = (580, 570, 560, 550, 535, 525, 470, 450)


def test_which_finder_and_checker_agree_on_one_driver_of_every_case_and_gpu_class(knowledge):
    """For each GPU class and each case release_verdict decides on the real records (its key), the first release and
    driver of :data:`SAMPLE_BRANCHES` that reach it: which, the finder's data and the checker give one verdict, and
    each driver rule's own reading allows it.  That driver.minimum maps every other point of the grid the same way
    is tests/site/test_site_release_case_and_driver_minimum.py's part."""
    kb, kd, bundle = knowledge
    data = finder_data(kb)
    records = {f"{r['family']}:{r['version']}": r for r in bundle["releases"]}
    ref = bundle["cuda_drivers"]
    gpus = {g["name"]: g for g in data["gpus"]}
    samples: dict[tuple[str, str, str], tuple[dict, str]] = {}
    for cls, (gpu, _, _) in GPUS.items():
        for branch in SAMPLE_BRANCHES:
            for entry in data["releases"]:
                view = driver_view(records[entry["ref"]], bundle["releases"])
                points = [f"R{branch}", f"{branch}.0.0"] + [v.text for v in branch_thresholds(view, ref, branch)]
                for point in points:
                    verdict = release_verdict(view, parse_driver_input(point), cls == "dc", ref, gpus[gpu]["compute_capability"])
                    samples.setdefault((cls, verdict.key, verdict.verdict), (entry, point))
    seen = set()
    for (cls, key, _), (entry, point) in samples.items():
        gpu = GPUS[cls][0]
        driver = parse_driver_input(point)
        [via_which] = [r["verdict"] for r in which(kb, point, gpu, all_families=True)["releases"] if r["release"] == entry["ref"]]
        via_finder = gpu_lookup(data, entry, gpus[gpu], driver)[1]
        # the checker reads a full version: a branch alone is an up-to-date driver of the branch
        via_checker, per_rule = _run_checker(kd, records[entry["ref"]], f"{driver.branch}.999.999" if driver.is_branch_only else point,
                                             cls, per_rule=True)
        assert via_which == via_finder == via_checker, (entry["ref"], point, cls, key, via_which, via_finder, via_checker)
        # every driver rule's own reading agrees with the verdict, not only the worst of them
        for rule_id, readings in per_rule.items():
            assert via_which in readings, (entry["ref"], point, cls, key, via_which, rule_id, readings)
        seen.add(via_which)
    assert len(samples) > 20
    # the sample exercises every verdict the finder can show
    assert seen == set(VERDICTS), seen


#: the drivers page's cell labels -> the finder's verdicts (``unknown``: the data does not decide, a not-stated case)
_LABEL_VERDICT = {"native": "native", "forward": "forward-compat", "minor": "minor-compat", "unsupported": "unsupported",
                  "not-stated": "not-stated", "unknown": "not-stated"}
_SPAN = re.compile(r'<span class="lj-compat lj-([a-z-]+)"')


def _drivers_page_cells(text: str, site) -> dict[tuple[str, int], str]:
    """``{(release, branch): cell label}`` read off the rendered drivers page (its shown columns)."""
    found = {}
    for family, table in site.driver_tables.items():
        for record, _ in table.rows:
            href = f'<td><a href="../releases/{record.family}/{record.version}/">'
            [row] = [row for row in re.findall(r"<tr>\n<td><a href=[^>]*>.*?</tr>", text, re.S) if row.startswith("<tr>\n" + href)]
            labels = _SPAN.findall(row)
            assert len(labels) == len(table.branches), (record.ref, row)
            found.update({(record.ref, b): label for b, label in zip(table.branches, labels)})
    return found


def _release_page_cells(text: str) -> dict[int, str]:
    """``{branch: cell label}`` of a release page's folded per-branch table."""
    return {int(b): label for b, label in re.findall(r'^<td>R(\d+)</td>\n<td><span class="lj-compat lj-([a-z-]+)"', text, re.M)}


def test_site_pages_finder_which_and_checker_agree_on_every_release_branch_and_gpu_class(knowledge, real, pages):
    """The drivers page and the release pages' branch tables (data center), the matrix model (both classes), the
    finder's data and ``which`` give one verdict for every release x branch, up-to-date driver; the checker votes on
    the first release x branch of each GPU class, cell reason and verdict (that driver.minimum maps every other
    point alike is tests/site/test_site_release_case_and_driver_minimum.py's part)."""
    kb, kd, bundle = knowledge
    _, site = real
    data = {e["ref"]: e for e in finder_data(kb)["releases"]}
    records = {f"{r['family']}:{r['version']}": r for r in bundle["releases"]}
    rendered = {lang: _drivers_page_cells(pages[lang]["drivers"], site) for lang in ("en", "zh")}
    assert rendered["en"] == rendered["zh"] and len(rendered["en"]) > 50
    compared = {"drivers-page": 0, "release-page": 0, "model": 0}
    labels_seen = set()
    checked: set[tuple[str, str, str]] = set()
    full = finder_data(kb)
    gpus = {g["name"]: g for g in full["gpus"]}
    for cls, (gpu, _, _) in CLASS_GPUS.items():
        for branch in finder_branches(kb):
            answers = {r["release"]: r["verdict"] for r in which(kb, f"R{branch}", gpu, all_families=True)["releases"]}
            for ref_id, entry in data.items():
                record = kb.release(ref_id)
                via_which = answers[ref_id]
                via_finder = gpu_lookup(full, entry, gpus[gpu], parse_driver_input(f"R{branch}"))[1]
                view = site.views[ref_id]
                shown = dict(view.driver_cells)
                if cls == "dc" and branch in shown:
                    cell = shown[branch]  # the built model the pages render
                else:
                    cell = classify_branch(record, branch, kb.cuda_drivers, data_center=(cls == "dc"),
                                           family=kb.releases_of(record.family))
                via_model = _LABEL_VERDICT[cell.compat.value]
                assert cell.verdict == via_model
                compared["model"] += 1
                votes = {"which": via_which, "finder": via_finder, "model": via_model}
                if (cls, cell.reason, cell.verdict) not in checked:
                    checked.add((cls, cell.reason, cell.verdict))
                    votes["checker"] = _run_checker(kd, records[ref_id], f"{branch}.999.999", cls, gpus=CLASS_GPUS)
                if cls == "dc":
                    for lang in ("en", "zh"):
                        page = _release_page_cells(pages[lang][f"release:{ref_id}"])
                        if branch in page:
                            votes[f"release-page-{lang}"] = _LABEL_VERDICT[page[branch]]
                            compared["release-page"] += 1
                        if (ref_id, branch) in rendered[lang]:
                            votes[f"drivers-page-{lang}"] = _LABEL_VERDICT[rendered[lang][(ref_id, branch)]]
                            compared["drivers-page"] += 1
                    labels_seen.add(cell.compat)
                assert len(set(votes.values())) == 1, (ref_id, branch, cls, votes, cell.en)
    assert compared["drivers-page"] > 200 and compared["release-page"] > 500 and compared["model"] > 600, compared
    assert {v for _, _, v in checked} == set(VERDICTS), checked
    # the pages show every label of their legend but "unknown" (every real release has a CUDA row)
    assert labels_seen == set(Compat) - {Compat.unknown}, labels_seen


def test_h20_and_rtx_4090_on_535_183_01(real):
    kb, _ = real
    h20 = {r["release"]: r for r in which(kb, "535.183.01", "H20", all_families=True)["releases"]}
    rtx = {r["release"]: r for r in which(kb, "535.183.01", "rtx 4090")["releases"]}
    # 25.08 admits R535 (535.86 or later) for forward compatibility on data center GPUs
    assert h20["training-nv-pytorch:25.08"]["verdict"] == "forward-compat"
    assert rtx["training-nv-pytorch:25.08"]["verdict"] == "minor-compat"
    assert "R535" in h20["training-nv-pytorch:25.08"]["reason"]["en"]
    assert "向前兼容" in h20["training-nv-pytorch:25.08"]["reason"]["zh"]
    # below 535.86 the release's forward compatibility does not hold
    low = {r["release"]: r for r in which(kb, "535.54.03", "H20")["releases"]}
    assert low["training-nv-pytorch:25.08"]["verdict"] == "minor-compat"
    assert "535.86" in low["training-nv-pytorch:25.08"]["reason"]["en"]
    # the PPU image is not for NVIDIA GPUs
    assert h20["training-xpu-pytorch:25.05"]["verdict"] == "unsupported"
    # R580 meets every NVIDIA release's minimum
    assert {r["verdict"] for r in which(kb, "R580", "H20")["releases"] if "xpu" not in r["release"]} == {"native"}


def test_which_json_shape(real, capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("LINGJUN_KB_SITE_URL", "https://kb.example.com/docs/")
    status = main(["which", "--driver", "535.183.01", "--gpu", "H20", "--family", "training-nv-pytorch", "--format", "json"])
    assert status == 0
    answer = json.loads(capsys.readouterr().out)
    assert set(answer) == {"driver", "driver_input", "gpu", "today", "driver_branch", "recommendations", "families", "releases",
                           "unrecorded"}
    assert answer["driver"] == answer["driver_input"] == "535.183.01"
    assert answer["gpu"] == {"name": "H20", "compute_capability": "9.0", "data_center": True}
    kb, _ = real
    assert [r["release"] for r in answer["releases"]] == [r.ref for r in kb.releases_of("training-nv-pytorch")]
    for row in answer["releases"]:
        assert set(row) == {"release", "verdict", "reason", "derived_from", "url", "images", "pull"}
        assert [image["variant"] for image in row["images"]] == [None]
        assert row["verdict"] in VERDICTS
        assert set(row["reason"]) == {"en", "zh"} and row["reason"]["en"] and row["reason"]["zh"]
        family, version = row["release"].split(":")
        assert row["url"] == f"https://kb.example.com/docs/releases/{family}/{version}/"
    by_ref = {r["release"]: r for r in answer["releases"]}
    assert by_ref["training-nv-pytorch:25.08"]["verdict"] == "forward-compat"


def test_which_without_a_site_url_links_the_official_page(real):
    kb, _ = real
    row = next(r for r in which(kb, "R575", "A100")["releases"] if r["release"] == "training-nv-pytorch:25.08")
    assert row["url"] == kb.release("training-nv-pytorch:25.08").sources[0].url
    assert row["url"].startswith("https://www.alibabacloud.com/")


def test_which_text_table(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("COLUMNS", "10000")  # whole lines; the wrapping to the terminal is tested on its own
    assert main(["which", "--driver", "R535", "--gpu", "NVIDIA GeForce RTX 4090", "--family", "training-nv-pytorch"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the answer first (no training-nv-pytorch release runs natively or through forward compatibility on a GeForce)
    assert lines[0].startswith("training-nv-pytorch: Install R")
    header = lines.index("driver R535, GPU GeForce RTX 4090 (compute capability 8.9, not data center)")
    assert lines[header - 1] == "" and lines[header - 2].startswith("R535 ")
    assert lines[header + 1].split() == ["RELEASE", "VERDICT", "REASON"]
    row = next(line for line in lines if line.startswith("training-nv-pytorch:25.08 "))
    assert row.split()[1] == "minor-compat"


@pytest.mark.parametrize("argv,expected", [
    (["--driver", "53x", "--gpu", "H20"], "not an NVIDIA driver version: '53x'"),
    (["--driver", "535.183.01.7", "--gpu", "H20"], "not an NVIDIA driver version"),
    (["--driver", "535", "--gpu", "H2"], "ambiguous GPU model: 'H2'; close matches: H20, H200, GH200"),
    (["--driver", "535", "--gpu", "RTX 409"], "close matches: GeForce RTX 4090"),
    (["--driver", "535", "--gpu", "H20", "--family", "training-nv-pytorc"], "unknown family: 'training-nv-pytorc'; close matches: training-nv-pytorch"),
    (["--driver", "535", "--gpu", "<script>\x1b[31m"], "unknown GPU model"),
])
def test_which_errors_are_one_line_with_close_matches_and_exit_2(capsys, monkeypatch, argv, expected):
    monkeypatch.chdir(REPO)
    assert main(["which", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("lingjun-kb which: ")
    assert expected in lines[0]
    assert "\x1b" not in lines[0]


def test_gpu_names_read_like_nvml_prints_them(real):
    kb, _ = real
    assert find_gpu(kb, "NVIDIA H20").name == "H20"
    assert find_gpu(kb, "nvidia-h800").name == "H800"
    assert find_gpu(kb, "RTX 4090").name == "GeForce RTX 4090"
    with pytest.raises(WhichError, match="ambiguous GPU model: 'Edition'; close matches: .*Server Edition, .*Workstation Edition"):
        find_gpu(kb, "Edition")  # the end of two models' names
    # a word of many names names none of them (not TITAN RTX, the only name ending in it)
    with pytest.raises(WhichError, match="ambiguous GPU model: 'RTX'; close matches: TITAN RTX, GeForce RTX"):
        find_gpu(kb, "RTX")
    # blanks removed, a distinctive number, full-width digits (NFKC)
    assert find_gpu(kb, "RTX4090").name == "GeForce RTX 4090"
    assert find_gpu(kb, "4090").name == "GeForce RTX 4090"
    assert find_gpu(kb, "\uff14\uff10\uff19\uff10").name == "GeForce RTX 4090"
    # NVML's form, read as the checker reads it (checks/core/gpu_models.model_from_name)
    assert find_gpu(kb, "NVIDIA A100-SXM4-40GB").name == "A100"
    assert find_gpu(kb, "NVIDIA H200").name == "H200"
    with pytest.raises(WhichError, match="unknown GPU model: 'RTX 4090x'; close matches: GeForce RTX 4090, "):
        find_gpu(kb, "RTX 4090x")
    with pytest.raises(WhichError, match=r"unknown GPU model: '-'; see "):
        find_gpu(kb, " - ")
    with pytest.raises(WhichError):
        parse_driver_input("R")


def test_finder_data_is_complete_and_ordered(real):
    kb, _ = real
    data = finder_data(kb)
    assert data["verdicts"] == list(VERDICTS)
    assert data["branches"] == sorted(data["branches"], reverse=True)
    assert {535, 570, 575, 580, 470}.issubset(data["branches"])
    assert [r["ref"] for r in data["releases"]] == [r.ref for f in sorted({r.family for r in kb.releases})
                                                      for r in kb.releases_of(f)]
    for release in data["releases"]:
        for cls in ("dc", "other"):
            for branch in data["branches"]:
                rows = release["cells"][cls][str(branch)]
                assert rows[0][0] is None
                lows = [DriverVersion.parse(r[0]) for r in rows[1:]]
                assert lows == sorted(lows) and all(v.branch == branch for v in lows)
                assert all(r[1] in VERDICTS and 0 <= r[2] < len(data["reasons"]) for r in rows)
    assert all(en and zh for en, zh in data["reasons"])
    # 25.10 states amd64 and aarch64 builds; its serverless tag is for ACS and Lingjun multi-tenant
    r2510 = next(r for r in data["releases"] if r["ref"] == "training-nv-pytorch:25.10")
    assert r2510["architectures"] == ["aarch64", "amd64"]
    assert "acs" in r2510["products"]


def test_checker_does_not_admit_a_branch_the_record_resolves_as_must_upgrade(knowledge):
    """25.08 lists R545 as forward compatible and as must-upgrade, resolved must-upgrade: driver.minimum says it is not
    supported (an error), as the finder's verdict does."""
    _, kd, bundle = knowledge
    record = next(r for r in bundle["releases"] if r["family"] == "training-nv-pytorch" and r["version"] == "25.08")
    ctx = CheckContext(facts=_facts(record, "545.29.06", "dc"), data=kd,
                       release=ReleaseMatch(ref="training-nv-pytorch:25.08", how="option", score=None, record=record),
                       options=CheckOptions())
    [finding] = run_rule(RULES["driver.minimum"], ctx)
    assert finding.severity.value == "error"
    assert "admits R545" not in finding.message.en
    assert "the release lists R545 as a branch to upgrade: not supported" in finding.message.en
    assert "525.60.13" in finding.message.en and "R545" in finding.message.zh


def test_every_release_page_says_its_gpu_support_and_links_the_finder_preset(real, pages):
    kb, _ = real
    for lang in ("en", "zh"):
        for record in kb.releases:
            page = pages[lang][f"release:{record.ref}"]
            line = next(l for l in page.splitlines() if l.startswith('<p class="lj-gpu-support">'))
            href = f'../../../finder/?release&#61;{record.family}&#58;{record.version}"'
            ppu = (record.driver.vendor.value == "ppu" if record.driver is not None
                   else kb.families[record.family].accelerator.value == "ppu")
            if ppu:
                assert "finder/" not in line, (record.ref, line)  # the finder checks NVIDIA drivers and GPUs
            else:
                assert href in line, (record.ref, line)
    en = {r: next(l for l in pages["en"][f"release:{r}"].splitlines() if "lj-gpu-support" in l)
          for r in ("training-nv-pytorch:25.06", "training-nv-pytorch:25.08", "training-xpu-pytorch:25.05")}
    # 25.06 states newly added Blackwell support only: said as the release's, and partial
    assert "Blackwell named by the release; it does not list every architecture" in en["training-nv-pytorch:25.06"]
    # 25.08 states none: implied by CUDA 12.8, labelled so
    assert "implied by its CUDA 12.8 build, not stated by the release" in en["training-nv-pytorch:25.08"]
    assert "Volta, Turing, Ampere, Ada, Hopper, Blackwell" in en["training-nv-pytorch:25.08"]
    assert "a PPU image" in en["training-xpu-pytorch:25.05"]
    zh = next(l for l in pages["zh"]["release:training-nv-pytorch:25.08"].splitlines() if "lj-gpu-support" in l)
    assert "由其 CUDA 12.8 构建推断（发布说明未写明）" in zh


def test_checker_leaves_a_natively_running_branch_below_a_cut_off_release_minimum_not_stated(knowledge):
    """25.10 asks for R575 and its driver text is cut off; CUDA 12.8 runs natively on 570.124.06."""
    _, kd, bundle = knowledge
    record = next(r for r in bundle["releases"] if r["family"] == "training-nv-pytorch" and r["version"] == "25.10")
    ctx = CheckContext(facts=_facts(record, "570.124.06", "dc"), data=kd,
                       release=ReleaseMatch(ref="training-nv-pytorch:25.10", how="option", score=None, record=record),
                       options=CheckOptions(today=dt.date(2026, 12, 3)))
    [finding] = run_rule(RULES["driver.minimum"], ctx)
    assert finding.severity.value == "warning"
    assert finding.message.en == ("Driver 570.124.06 is below the release minimum (NVIDIA Driver release >= 575); NVIDIA's table "
                                  "gives 570.26 as the minimum for CUDA 12.8, so CUDA will initialise, but the release's "
                                  "recorded driver text is cut off: whether it admits R570 is not stated.")
    assert "是否允许 R570 未说明" in finding.message.zh
    # one branch as the fix: the oldest supported long-term support branch the release admits, the newest named
    # beside it (checks/core/driver_target.py), never two fixes
    assert finding.remedy.en == "Upgrade the host driver to R580 (580 or later; R620 is the newest)."
    # the same driver under 25.09, whose whole driver text is recorded: CUDA starts, the release was validated from 575 on
    record = next(r for r in bundle["releases"] if r["family"] == "training-nv-pytorch" and r["version"] == "25.09")
    ctx = CheckContext(facts=_facts(record, "570.124.06", "dc"), data=kd,
                       release=ReleaseMatch(ref="training-nv-pytorch:25.09", how="option", score=None, record=record),
                       options=CheckOptions())
    [finding] = run_rule(RULES["driver.minimum"], ctx)
    assert finding.severity.value == "warning" and "only validated from 575 on" in finding.message.en


def test_ppu_release_page_cuda_agrees_with_its_component_table_and_the_matrix(pages):
    """training-xpu-pytorch 25.05 records no NVIDIA CUDA, but its component table and the matrix say 12.6 (the PPU
    SDK's CUDA API level): the At-a-glance row and the family page show the same value, one source."""
    def rows(text):  # the rows of the page's HTML tables
        return re.findall(r"<tr>\n.*?</tr>", text, re.S)

    for lang, label in (("en", "the CUDA API level of the PPU SDK"), ("zh", "PPU SDK 提供的 CUDA API 版本")):
        page = pages[lang]["release:training-xpu-pytorch:25.05"]
        row = next(r for r in rows(page) if r.startswith("<tr>\n<td>CUDA</td>"))
        assert "12.6" in row and label in row, row
        matrix_row = next(r for r in rows(pages[lang]["matrix"]) if "training-xpu-pytorch/25.05/" in r)
        assert "12.6" in matrix_row
    family = next(r for r in rows(pages["en"]["family:training-xpu-pytorch"]) if ">25.05</a>" in r.split("</td>")[0])
    assert "12.6" in family
    # an NVIDIA release keeps its record's CUDA, without the PPU label
    nv = next(r for r in rows(pages["en"]["release:training-nv-pytorch:25.08"]) if r.startswith("<tr>\n<td>CUDA</td>"))
    assert "12.8" in nv and "PPU" not in nv


def test_which_normalises_the_driver_and_keeps_the_input(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    assert main(["which", "--driver", " r535 ", "--gpu", "H20", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["driver"], answer["driver_input"]) == ("R535", "r535")


def test_which_usage_errors_exit_2_and_echoed_values_are_cut_with_a_marker(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(REPO)
    assert main(["which", "--driver", "535", "--gpu", "H20", "--releases", str(tmp_path / "nonexistent")]) == 2
    assert capsys.readouterr().err.strip().endswith("nonexistent is not a folder")
    assert main(["which", "--driver", "535", "--gpu", "H20", "--family", "f" * 100]) == 2
    err = capsys.readouterr().err
    assert "'" + "f" * 60 + "… (40 more characters)'" in err


def test_which_piped_into_head_exits_quietly(tmp_path):
    import subprocess
    import sys

    command = (f"{sys.executable} -m lingjun.generator.cli which --driver R535 --gpu H20 | head -1")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.stdout.startswith("training-nv-pytorch: Use 25.09: ") and done.stdout.count("\n") == 1
    assert "Broken pipe" not in done.stderr and "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr


def test_finder_page_without_javascript_points_to_the_per_branch_table(pages):
    for lang, words in (("en", "needs JavaScript"), ("zh", "需要 JavaScript")):
        text = pages[lang]["finder"]
        note = re.search(r'<noscript><p class="lj-finder-noscript">(.*?)</p></noscript>', text)
        assert note and words in note.group(1), lang
        assert '<a href="#per-branch">' in note.group(1)
        assert "{ #per-branch }" in text
