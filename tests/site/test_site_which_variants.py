"""The finder and ``lingjun-kb which`` on releases with variants, dated and named identifiers and families
the pages name without a record (fixture: ``site_kit.make_release_shapes_kb``)."""

from __future__ import annotations

import json

from lingjun.generator.cli import main
from lingjun.generator.site.finder import finder_data, find_release, release_image_rows, which
from lingjun.generator.site.finder_page import finder_context
from lingjun.generator.which import format_table


def test_a_release_with_variants_is_one_finder_row_with_each_variants_tags(release_shapes):
    kb, _ = release_shapes
    data = finder_data(kb)
    rows = [r for r in data["releases"] if r["family"] == "inference-nv-pytorch"]
    assert [r["ref"] for r in rows] == ["inference-nv-pytorch:25.04"]
    assert [(i["ref"], i["tags"]) for i in rows[0]["images"]] == [
        ("inference-nv-pytorch:25.04#vllm", ["25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"]),
        ("inference-nv-pytorch:25.04#sglang", ["25.04-sglang0.4.6.post1-pytorch2.6-cu124-20250430-serverless"])]
    assert rows[0]["images"][0]["title"] == {"en": "vLLM image", "zh": "vLLM 镜像"}
    xpu = [r["ref"] for r in data["releases"] if r["family"] == "training-xpu-pytorch"]
    assert xpu == ["training-xpu-pytorch:2026-10-20", "training-xpu-pytorch:25.05"]  # newest first, by date
    dated = next(r for r in data["releases"] if r["ref"] == "training-xpu-pytorch:2026-10-20")
    # no driver section: the checker's reading of the record decides (the finder only mirrors it, as which does)
    assert dated["architectures"] == ["amd64"] and dated["ppu"] is True  # no driver stated, but a PPU SDK


def test_finder_page_links_each_release_by_its_identifier(release_shapes):
    _, site = release_shapes
    context = finder_context(site, site.sitemap.pages["finder"])
    hrefs = {r["ref"]: r["href"] for r in context["finder"]["releases"]}
    assert hrefs["inference-xpu-pytorch-opt:sglang0.5.4.post3-250105"] == "../releases/inference-xpu-pytorch-opt/sglang0.5.4.post3-250105/"
    assert hrefs["training-xpu-pytorch:2026-10-20"] == "../releases/training-xpu-pytorch/2026-10-20/"


def test_find_release_reads_a_ref_a_variant_or_a_tag(release_shapes):
    kb, _ = release_shapes
    for text in ("inference-nv-pytorch:25.04", "inference-nv-pytorch:25.04#sglang",
                 "25.04-sglang0.4.6.post1-pytorch2.6-cu124-20250430-serverless",
                 "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/inference-nv-pytorch:25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"):
        assert find_release(kb, text).ref == "inference-nv-pytorch:25.04", text
    assert find_release(kb, "ppu2.2-pytorch2.10.0-ubuntu24.04-cuda13.0-py312-ljzoo-20261020").version == "2026-10-20"
    assert find_release(kb, "inference-nv-pytorch:25.10") is None  # named, not recorded


def test_which_answers_a_new_family_once_per_release(release_shapes):
    kb, _ = release_shapes
    answer = which(kb, "R570", "H20", family="inference-nv-pytorch")
    assert [r["release"] for r in answer["releases"]] == ["inference-nv-pytorch:25.04"]
    row = answer["releases"][0]
    assert row["verdict"] == "native" and row["images"] == release_image_rows(kb.release("inference-nv-pytorch:25.04"))
    assert answer["unrecorded"] == [{"family": "inference-nv-pytorch", "version": "26.03"},
                                    {"family": "inference-nv-pytorch", "version": "25.10"}]
    assert row["reason"]["en"] == ("R570 meets the release's requirement (NVIDIA Driver release >= 550) "
                                   "and runs CUDA 12.4 natively.")
    below = which(kb, "535.183.01", "H20", family="inference-nv-pytorch")["releases"][0]
    assert below["verdict"] == "minor-compat" and "does not state R535" in below["reason"]["en"]


def test_which_for_a_family_without_records_names_its_releases_without_a_verdict(release_shapes):
    kb, _ = release_shapes
    answer = which(kb, "R570", "H20", family="inference-xpu-pytorch")
    assert answer["releases"] == []
    assert [u["version"] for u in answer["unrecorded"]] == ["25.09", "25.08"]
    text = format_table(answer)
    lines = text.splitlines()
    assert lines[0].startswith("R570 ") and lines[1] == ""  # no recommendation for a PPU family; the branch's lifecycle
    assert lines[3:] == ["no recorded releases",
                                     "published, not yet recorded (no verdict): inference-xpu-pytorch:25.09, inference-xpu-pytorch:25.08"]


def test_which_table_lists_variant_tags_under_the_release(release_shapes):
    kb, _ = release_shapes
    lines = format_table(which(kb, "R570", "H20", family="inference-nv-pytorch")).splitlines()
    assert lines[0] == "inference-nv-pytorch: Use 25.04: the newest inference-nv-pytorch release that runs natively on R570."
    lines = lines[lines.index("") + 1:]  # the table after the answer
    assert lines[2].startswith("inference-nv-pytorch:25.04  native")
    assert lines[3].strip() == "vLLM image: 25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless"
    assert lines[4].strip() == "SGLang image: 25.04-sglang0.4.6.post1-pytorch2.6-cu124-20250430-serverless"
    assert lines[5] == "published, not yet recorded (no verdict): inference-nv-pytorch:26.03, inference-nv-pytorch:25.10"


def test_which_command_line_on_new_families(release_shapes_kb_dir, capsys, monkeypatch):
    monkeypatch.delenv("LINGJUN_KB_SITE_URL", raising=False)
    monkeypatch.setenv("COLUMNS", "10000")  # one line per release (the wrapping is tested in test_site_which_text_width.py)
    monkeypatch.chdir(release_shapes_kb_dir)
    assert main(["which", "--driver", "R570", "--gpu", "H20", "--family", "inference-nv-pytorch",
                 "--releases", str(release_shapes_kb_dir), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["releases"][0]["url"] == "https://help.aliyun.com/zh/cs/user-guide/inference-nv-pytorch-25-04"
    assert main(["which", "--driver", "R570", "--gpu", "H20", "--family", "training-xpu-pytorch",
                 "--releases", str(release_shapes_kb_dir)]) == 0
    out = capsys.readouterr().out.splitlines()
    out = out[out.index("") + 1:]  # the table after the answer
    assert [line.split()[0] for line in out[2:4]] == ["training-xpu-pytorch:2026-10-20", "training-xpu-pytorch:25.05"]
    assert main(["which", "--driver", "R570", "--gpu", "H20", "--family", "inference-nv-pytorh",
                 "--releases", str(release_shapes_kb_dir)]) == 2
    assert "close matches: inference-nv-pytorch" in capsys.readouterr().err
