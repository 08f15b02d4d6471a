"""Troubleshooting pages: a remedy that quotes a value from the input (``{{driver.target|...}}``) shows its fallback
words, in both languages, since a page has no input; the placeholder syntax never reaches the page."""

from __future__ import annotations

import shutil

from lingjun.generator.site.build import load_validated
from lingjun.generator.site.model import build_site_model
from lingjun.generator.site.render import render_pages

from site_kit import FIXTURE_KB, REPO

SIGNATURE = REPO / "releases" / "troubleshooting" / "nvidia-container-cuda-requirement.yaml"


def test_a_remedy_value_reads_as_its_fallback_words_on_the_page(tmp_path):
    kb_dir = tmp_path / "kb"
    shutil.copytree(FIXTURE_KB, kb_dir)
    (kb_dir / "troubleshooting").mkdir()
    shutil.copyfile(SIGNATURE, kb_dir / "troubleshooting" / SIGNATURE.name)
    site = build_site_model(load_validated(kb_dir))
    pages = {lang: "\n".join(text for _, text in render_pages(site, lang)) for lang in ("en", "zh")}
    assert "Upgrade the host driver to the branch the image's release notes name, or pull" in pages["en"]
    assert "把宿主机驱动升级到镜像发布说明要求的分支，或拉取" in pages["zh"]
    assert "{{driver.target" not in pages["en"] + pages["zh"]
