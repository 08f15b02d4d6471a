"""``lingjun-kb which``: the answer first (per family the release to use, or the driver to install), the driver
branch's lifecycle against the day given, the families shown, and one verdict for a release whose driver text is cut
off (25.07) that agrees with its neighbours and names its evidence."""

from __future__ import annotations

import datetime as dt
import json

from lingjun.checks.core.driver_target import branch_end_of_life
from lingjun.generator.cli import main
from lingjun.generator.site.finder import which

from site_kit import REPO

DAY = dt.date(2026, 12, 1)


def _rows(answer):
    return {r["release"]: r for r in answer["releases"]}


def test_which_h20_on_535_starts_with_one_recommendation_and_says_the_branch_is_past_end_of_life(capsys, monkeypatch):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("COLUMNS", "10000")  # whole lines; the wrapping to the terminal is tested on its own
    assert main(["which", "--driver", "535.183.01", "--gpu", "H20", "--today", "2026-12-01"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("training-nv-pytorch: Use 25.09: the newest training-nv-pytorch release that runs on R535, "
                               "through forward compatibility")
    assert lines[1].startswith("inference-nv-pytorch: Install R")
    eol = next(l for l in lines if l.startswith("R535 "))
    assert eol.startswith("R535 is past end of life: NVIDIA's support ended 2026-06 (the month's last day, 2026-06-30, "
                          "is before today, 2026-12-01).")
    # the table follows the answer
    assert lines.index(eol) < lines.index(next(l for l in lines if l.startswith("RELEASE ")))


def test_which_computes_the_lifecycle_against_the_day_given(real):
    kb, _ = real
    before = which(kb, "535.183.01", "H20", today=dt.date(2026, 6, 30))["driver_branch"]
    after = which(kb, "535.183.01", "H20", today=dt.date(2026, 7, 1))["driver_branch"]
    assert (before["status"], before["eol_day"], before["upgrade_to"]) == ("supported", "2026-06-30", None)
    assert before["text"]["en"].startswith("R535 is supported: NVIDIA's end-of-life month is 2026-06")
    assert after["status"] == "end-of-life" and after["upgrade_to"] is not None
    assert f"Move to R{after['upgrade_to']['branch']} " in after["text"]["en"] and "请迁移到" in after["text"]["zh"]
    # the branch it names is supported that day
    row = next(b for b in kb.driver_branches.branches if b.branch == after["upgrade_to"]["branch"])
    assert not branch_end_of_life(row.model_dump(mode="json"), dt.date(2026, 7, 1))
    assert which(kb, "R999", "H20", today=DAY)["driver_branch"]["status"] == "unknown"


def test_which_25_07_agrees_with_25_06_and_25_08_and_names_its_evidence(real):
    kb, _ = real
    rows = _rows(which(kb, "535.183.01", "H20", today=DAY))
    verdicts = {v: rows[f"training-nv-pytorch:{v}"]["verdict"] for v in ("25.06", "25.07", "25.08")}
    assert verdicts == {"25.06": "forward-compat", "25.07": "forward-compat", "25.08": "forward-compat"}
    cut = rows["training-nv-pytorch:25.07"]
    assert cut["derived_from"] == ["NVIDIA's forward-compatibility table for CUDA 12.8", "25.06 and 25.08", "the image's cuda-compat"]
    assert cut["reason"]["en"].endswith("from NVIDIA's forward-compatibility table for CUDA 12.8 and what 25.06 and 25.08 state "
                                        "(R535 from 535.86 on); 25.07's own driver text is cut off.")
    assert "25.07 自身的驱动说明被截断" in cut["reason"]["zh"] and "NVIDIA 的 CUDA 12.8 向前兼容表" in cut["reason"]["zh"]
    assert rows["training-nv-pytorch:25.06"]["derived_from"] == []  # its own text decides
    # below the family's minimum inside R535 the neighbours do not admit it: minor version compatibility only
    low = _rows(which(kb, "535.54.03", "H20", today=DAY))["training-nv-pytorch:25.07"]
    assert low["verdict"] == "minor-compat" and "only from 535.86 on" in low["reason"]["en"]
    # not a data center GPU: no forward compatibility, whatever the family says
    assert _rows(which(kb, "535.183.01", "RTX 4090", today=DAY))["training-nv-pytorch:25.07"]["verdict"] == "minor-compat"


def test_which_must_upgrade_branches_read_as_unsupported(real):
    kb, _ = real
    rows = _rows(which(kb, "R560", "H20", today=DAY))
    for version in ("25.06", "25.08"):
        row = rows[f"training-nv-pytorch:{version}"]
        assert row["verdict"] == "unsupported" and "the release lists R560 as a branch to upgrade" in row["reason"]["en"]
    cut = rows["training-nv-pytorch:25.07"]
    assert cut["verdict"] == "unsupported"
    assert "25.06 and 25.08 list R560 as a branch to upgrade (25.07's own driver text is cut off)" in cut["reason"]["en"]


def test_which_shows_ppu_and_base_image_families_only_when_asked(real, capsys, monkeypatch):
    kb, _ = real
    default = which(kb, "535.183.01", "H20", today=DAY)
    assert default["families"] == ["inference-nv-pytorch", "training-nv-pytorch"]
    assert {r["release"].partition(":")[0] for r in default["releases"]} == set(default["families"])
    everything = which(kb, "535.183.01", "H20", all_families=True, today=DAY)
    assert {"ngc-pytorch", "training-xpu-pytorch"} <= set(everything["families"])
    # PPU images get rows, no recommendation for an NVIDIA GPU; NGC PyTorch (a base image) gets one
    assert {r["family"] for r in everything["recommendations"]} == {"inference-nv-pytorch", "ngc-pytorch", "training-nv-pytorch"}
    ppu = which(kb, "535.183.01", "H20", accelerator="ppu", today=DAY)
    assert ppu["recommendations"] == [] and all("xpu" in f for f in ppu["families"]) and ppu["families"]
    monkeypatch.chdir(REPO)
    assert main(["which", "--driver", "535", "--gpu", "H20", "--accelerator", "nvidia-gpu", "--format", "json"]) == 0
    assert "ngc-pytorch" in json.loads(capsys.readouterr().out)["families"]
    assert main(["which", "--driver", "535", "--gpu", "H20", "--today", "01/12/2026"]) == 2
    assert "--today '01/12/2026' is not a date" in capsys.readouterr().err


def test_which_names_the_driver_to_install_when_no_release_runs(real):
    kb, _ = real
    answer = which(kb, "535.183.01", "H20", today=DAY)
    [install] = [r for r in answer["recommendations"] if r["family"] == "inference-nv-pytorch"]
    target = install["driver_target"]
    assert install["kind"] == "install" and install["release"] == "inference-nv-pytorch:25.04"
    assert target["branch"] >= 550  # 25.04 needs 550
    row = next(b for b in kb.driver_branches.branches if b.branch == target["branch"])
    assert not branch_end_of_life(row.model_dump(mode="json"), DAY) and row.type is not None
    assert install["reason"]["en"].startswith(f"Install R{target['branch']} ({target['minimum']} or later): no "
                                              "inference-nv-pytorch release runs on R535")
    assert install["reason"]["zh"].startswith(f"请安装 R{target['branch']}")
    # a driver every release runs natively on: the newest release of each family
    native = which(kb, "R620", "H20", today=DAY)["recommendations"]
    assert [(r["kind"], r["release"]) for r in native] == [("native", "inference-nv-pytorch:25.04"),
                                                           ("native", "training-nv-pytorch:25.10")]


def test_which_sends_a_geforce_gpu_to_nvidias_linux_drivers_without_data_centre_branch_kinds(real):
    kb, _ = real
    answer = which(kb, "535.183.01", "RTX 4090", today=DAY)
    assert {r["kind"] for r in answer["recommendations"]} == {"install"}  # no forward compatibility off data centre GPUs
    for item in answer["recommendations"]:
        target = item["driver_target"]
        en, zh = item["reason"]["en"], item["reason"]["zh"]
        assert en.startswith(f"Install R{target['branch']} ({target['minimum']} or later): no {item['family']} release")
        assert "forward compatibility is for data center GPUs only" in en and "long-term" not in en
        assert "https://www.nvidia.com/en-us/drivers/unix/" in en and "https://www.nvidia.com/en-us/drivers/unix/" in zh
        assert "长期支持" not in zh
    # a data centre GPU on the same driver keeps the branch's kind from NVIDIA's data-centre table
    h20 = which(kb, "535.183.01", "H20", today=DAY)["recommendations"]
    assert any("long-term-support branch" in r["reason"]["en"] for r in h20 if r["kind"] == "install")


def test_which_sends_a_jetson_module_to_jetpack_for_its_driver(real):
    kb, _ = real
    for item in which(kb, "535.183.01", "Jetson AGX Orin", today=DAY)["recommendations"]:
        assert item["kind"] == "install"
        assert "https://developer.nvidia.com/embedded/jetpack" in item["reason"]["en"] and "JetPack" in item["reason"]["zh"]
        assert "drivers/unix" not in item["reason"]["en"] and not item["reason"]["en"].startswith("Install")


def test_which_claims_nothing_for_a_branch_the_reference_data_does_not_hold(real):
    kb, _ = real
    answer = which(kb, "R999", "H20", today=DAY)
    assert {r["verdict"] for r in answer["releases"]} == {"not-stated"}
    assert [(r["kind"], r["driver_target"]) for r in answer["recommendations"]] == [("not-stated", None)] * 2
    assert answer["recommendations"][0]["reason"]["en"] == (
        "No verdict on R999: it is not in the reference data here, so whether inference-nv-pytorch releases run on "
        "it is not known.")
    assert answer["driver_branch"]["status"] == "unknown"


def test_finder_data_holds_which_answer_for_the_readers_day(real):
    """The finder's script picks, for the reader's day, the install epoch and the lifecycle row that which computes."""
    from lingjun.generator.site.finder import finder_data

    kb, _ = real
    data = finder_data(kb)
    assert [f["id"] for f in data["families"] if f["default"]] == ["inference-nv-pytorch", "training-nv-pytorch"]
    assert {f["id"] for f in data["families"] if not f["nvidia"]} == {"inference-xpu-pytorch-opt", "training-xpu-pytorch"}
    h20 = next(g for g in data["gpus"] if g["name"] == "H20")
    epochs = data["installs"][h20["install"]]["inference-nv-pytorch"]
    chosen = [e for e in epochs if e[0] is None or e[0] <= DAY.isoformat()][-1]
    [install] = [r for r in which(kb, "535.183.01", "H20", today=DAY)["recommendations"] if r["kind"] == "install"]
    assert chosen[1:3] == [install["driver_target"]["branch"], install["driver_target"]["minimum"]]
    row = data["lifecycle"]["535"]
    status = which(kb, "535.183.01", "H20", today=DAY)["driver_branch"]
    assert (row["eol_day"], row["listed"]) == (status["eol_day"], False) and row["eol_day"] < DAY.isoformat()


def test_which_on_blackwell_never_recommends_a_release_built_on_an_older_cuda(real):
    """B200 (sm_100) and RTX 5090 (sm_120) need CUDA 12.8: 25.04's CUDA 12.4 cannot build for them, whatever the
    driver, so its row is unsupported and its family gets no release and no driver to install (issue 33)."""
    kb, _ = real
    for gpu in ("B200", "RTX 5090"):
        answer = which(kb, "580.95.05", gpu, today=DAY)
        row = _rows(answer)["inference-nv-pytorch:25.04"]
        assert row["verdict"] == "unsupported" and row["reason"]["en"].startswith("Built on CUDA 12.4, which predates Blackwell GPUs")
        assert "CUDA 12.8" in row["reason"]["en"] and "CUDA 12.8" in row["reason"]["zh"]
        rec = {r["family"]: r for r in answer["recommendations"]}
        assert (rec["inference-nv-pytorch"]["kind"], rec["inference-nv-pytorch"]["release"]) == ("no-release", None)
        assert rec["inference-nv-pytorch"]["driver_target"] is None
        assert rec["inference-nv-pytorch"]["reason"]["en"].startswith("No inference-nv-pytorch release recorded here runs on this GPU")
        training = rec["training-nv-pytorch"]
        assert training["kind"] == "native"
        chosen = kb.release(training["release"])
        assert tuple(int(p) for p in chosen.cuda.split(".")[:2]) >= (12, 8)
    # Hopper: CUDA 12.4 builds for sm_90, so 25.04 stays native on R580
    assert _rows(which(kb, "580.95.05", "H100", today=DAY))["inference-nv-pytorch:25.04"]["verdict"] == "native"


def test_finder_data_marks_the_cuda_versions_each_gpu_is_too_new_for_as_which_does(real):
    from lingjun.generator.site.finder import finder_data, gpu_lookup
    from lingjun.checks.core.versions import DriverVersion

    kb, _ = real
    data = finder_data(kb)
    b200 = next(g for g in data["gpus"] if g["name"] == "B200")
    h100 = next(g for g in data["gpus"] if g["name"] == "H100")
    assert "12.4" in b200["cuda_predates"] and "cuda_predates" not in h100
    release = next(r for r in data["releases"] if r["ref"] == "inference-nv-pytorch:25.04")
    assert release["cuda"] == "12.4"
    found = gpu_lookup(data, release, b200, DriverVersion.parse("580.95.05"))
    assert found[1] == "unsupported" and data["reasons"][found[2]][0] == _rows(which(kb, "580.95.05", "B200", today=DAY))[
        "inference-nv-pytorch:25.04"]["reason"]["en"]


def test_which_json_gives_each_image_its_public_and_vpc_pull_address(real):
    """The address to pull each image from (issue 33): the tag's published reference, and the family's VPC address
    with {region-id} left for the reader beside the regions the family names."""
    kb, _ = real
    rows = _rows(which(kb, "570.124.06", "H20", today=DAY))
    (vllm,) = [p for p in rows["inference-nv-pytorch:25.04"]["pull"] if p["variant"] == "vllm"]
    (address,) = vllm["addresses"]
    tag = "25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"
    assert address == {
        "tag": tag,
        "public": f"egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:{tag}",
        "vpc": f"acs-registry-vpc.{{region-id}}.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:{tag}",
        "vpc_regions": kb.families["inference-nv-pytorch"].vpc_regions}
    assert "cn-beijing" in address["vpc_regions"]
    # every image of every row has its addresses, one per tag
    for row in rows.values():
        record = next(r for r in kb.releases if r.ref == row["release"])
        assert [len(p["addresses"]) for p in row["pull"]] == [len(i["tags"]) for i in row["images"]], record.ref
