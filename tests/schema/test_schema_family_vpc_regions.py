"""``Family.vpc_regions``: the region ids a release page's chooser offers for ``{region-id}`` are Alibaba Cloud ids."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from lingjun.schema.models import Family

REPO = Path(__file__).resolve().parents[2]


def _family(**extra):
    data = next(f for f in yaml.safe_load((REPO / "releases" / "families.yaml").read_text(encoding="utf-8"))["families"]
                if f["id"] == "training-nv-pytorch")
    return Family.model_validate({**data, **extra})


def test_the_real_family_offers_the_regions_its_pages_use():
    assert _family().vpc_regions == ["cn-beijing", "cn-wulanchabu"]


@pytest.mark.parametrize("region", ["cn-hangzhou", "ap-southeast-1", "us-west-1", "cn-shanghai-finance-1", "cn-north-2-gov-1"])
def test_region_ids_of_alibaba_clouds_form_are_accepted(region):
    assert _family(vpc_regions=[region]).vpc_regions == [region]


@pytest.mark.parametrize("region", ["CN-Beijing", "cn beijing", "{region-id}", "cn-beijing\n", "", "<b>x</b>", "cn-" + "a" * 40, "cn"])
def test_anything_else_is_refused_naming_the_field(region):
    with pytest.raises(ValidationError, match="vpc_regions.0"):
        _family(vpc_regions=[region])
