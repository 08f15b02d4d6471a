"""README.md agrees with the data: it names every product family, and release files by any release identifier."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_the_opening_paragraph_names_every_product_family():
    opening = (ROOT / "README.md").read_text(encoding="utf-8").split("\n\n")[1]
    families = yaml.safe_load((ROOT / "releases" / "families.yaml").read_text(encoding="utf-8"))["families"]
    products = [f["id"] for f in families if f.get("role", "product") == "product"]
    assert len(products) == 5
    assert [f for f in products if f"`{f}`" not in opening] == []


def test_release_files_are_named_by_any_release_identifier():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "<YY.MM>.yaml" not in text and "releases/<family>/<release>.yaml" in text
    for name in ("en", "zh"):
        assert "<YY.MM>" not in (ROOT / "docs" / name / "contributing.md").read_text(encoding="utf-8")


def test_step_three_names_what_new_catalog_files_need():
    step = (ROOT / "README.md").read_text(encoding="utf-8").split("\n3. ")[1].split("\n4. ")[0]
    for needed in ("`workaround`", "releases/known-issues/vllm-deepseek-max-model-len-oom.yaml", "`probe`",
                   "`status: superseded`"):
        assert needed in step, needed
    assert (ROOT / "releases" / "known-issues" / "vllm-deepseek-max-model-len-oom.yaml").is_file()
