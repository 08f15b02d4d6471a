"""Release pages and the checker-rules page show the fixes lingjun-check prints, word for word.

The page's sentence and the report's come from the same functions; these tests hold them to it by running the
checker (the command line, the real data embedded in it) on a real collect_env paste (vllm-project/vllm#15607,
A800 on driver 470 with a stock torch) against training-nv-pytorch 25.07 and comparing the remedies.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.release_remedies import release_remedies
from lingjun.generator.site.build import load_validated
from lingjun.generator.site.model import build_site_model
from lingjun.generator.site.render import render_pages

ROOT = Path(__file__).resolve().parents[2]
PASTE = ROOT / "tests" / "fixtures" / "reports" / "S3-vllm-15607-a800-drv470.txt"
IMAGE = "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless"


@pytest.fixture(scope="module")
def site():
    return build_site_model(load_validated(ROOT / "releases"))


@pytest.fixture(scope="module")
def report():
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from-collect-env", str(PASTE), "--release",
                           "training-nv-pytorch:25.07", "--format", "json", "--lang", "en"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    return {f["rule"]: f for f in json.loads(proc.stdout)["findings"]}


def _views(site, ref):
    record = site.views[ref].record
    return {v.situation: v for v in site.views[ref].remedies}, record


def test_release_page_remedies_are_the_reports_word_for_word(site, report):
    views, _ = _views(site, "training-nv-pytorch:25.07")
    assert set(views) == {"driver", "image-builds"}
    assert views["driver"].remedy["en"] == report["driver.minimum"]["remedy"]
    assert views["driver"].remedy["en"].startswith("Upgrade the host driver to R")
    # the page shows the commands and the image reference as code spans; the words are the report's
    assert views["image-builds"].remedy["en"].replace("`", "") == report["packages.image-build-replaced"]["remedy"]
    assert f"`{IMAGE}`" in views["image-builds"].remedy["en"]
    assert "`pip list --format=freeze > /tmp/image-constraints.txt`" in views["image-builds"].remedy["zh"]
    assert IMAGE in views["image-builds"].remedy["en"] and IMAGE in views["image-builds"].remedy["zh"]
    assert "pip install -c /tmp/image-constraints.txt" in views["image-builds"].remedy["en"]


def test_a_release_of_upstream_builds_gets_no_fresh_container_remedy(site):
    # inference-nv-pytorch 25.04 ships the public torch 2.6.0+cu124: no image build to restore
    views, _ = _views(site, "inference-nv-pytorch:25.04")
    assert "image-builds" not in views and "driver" in views


def test_release_page_shows_the_section_in_both_languages(site):
    pages = {lang: dict((p.id, t) for p, t in render_pages(site, lang)) for lang in ("en", "zh")}
    page_id = next(p for p in pages["en"] if p.endswith("training-nv-pytorch:25.07") or p.endswith("25.07")
                   and "training-nv-pytorch" in p)
    en, zh = pages["en"][page_id], pages["zh"][page_id]
    assert "{ #checker-remedies }" in en and "{ #checker-remedies }" in zh
    assert f"computed on {site.remedies.on.isoformat()}" in en
    code = "<code>" + IMAGE.replace(":", "&#58;") + "</code>"
    assert code in en and code in zh
    assert "请将宿主机驱动升级到 R" in zh and "#packages-image-build-replaced" in en
    rules = pages["en"]["checker-rules"]
    entry = rules.split("{ #packages-image-build-replaced }", 1)[1].split("### ", 1)[0]
    assert "The fix it prints for the newest release of each family" in entry
    assert "#checker-remedies" in entry and "No public index serves" in entry


def test_driver_remedy_follows_the_day_the_checker_runs():
    raw = json.loads((ROOT / "checks" / "data" / "bundle.json").read_text(encoding="utf-8"))
    raw["driver_branches"]["branches"] = [
        {"branch": 620, "type": "long-term-support", "end_of_life": False, "eol": "2029-09"},
        {"branch": 580, "type": "long-term-support", "end_of_life": False, "eol": "2028-08"},
        {"branch": 575, "end_of_life": True}]
    data = KnowledgeData.from_dict(raw)
    record = data.release("training-nv-pytorch:25.07")
    on = {day: {r.situation: r.remedy.en for r in release_remedies(record, data, day)}["driver"]
          for day in (dt.date(2026, 12, 1), dt.date(2028, 9, 1), dt.date(2029, 10, 1))}
    # the least change while R580 is supported, the newest branch beside it; R620 once R580 is past its end of life
    assert on[dt.date(2026, 12, 1)] == "Upgrade the host driver to R580 (580 or later; R620 is the newest)."
    assert on[dt.date(2028, 9, 1)] == "Upgrade the host driver to R620 (620 or later)."
    # every branch of the table is past its end of life: no branch is named, and none made up
    assert on[dt.date(2029, 10, 1)] == "Upgrade the host driver to a driver branch NVIDIA still supports."


def test_a_ppu_release_gets_no_nvidia_driver_remedy():
    data = KnowledgeData.from_file(ROOT / "checks" / "data" / "bundle.json")
    ppu = next(r for r in data.releases if r["family"].startswith("training-xpu"))
    assert all(r.situation != "driver" for r in release_remedies(ppu, data, dt.date(2026, 12, 1)))
