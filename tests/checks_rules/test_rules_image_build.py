"""Which published versions are the image's own build (packages.image-build-replaced reads it per entry)."""

from __future__ import annotations

import pytest

from lingjun.checks.knowledge.catalog_entry import Component
from lingjun.checks.rules._packages import PackageView


@pytest.mark.parametrize("published, vendor_build, expected", [
    ("2.7.1.8+nv25.3", True, True),        # training-nv-pytorch's torch
    ("0.16.9+ali", True, True),            # DeepSpeed with Alibaba's changes
    ("2.6.0.7.post1+ppu1.5.1", True, True),  # PPU build of torch
    ("2.6.0+cu124", True, False),          # inference-nv-pytorch 25.04: PyTorch's own CUDA 12.4 wheel
    ("2.6.0+CPU", True, False),
    ("2.5.1+rocm6.2", True, False),
    ("4.51.1", True, False),               # stock transformers
    ("4.56.1+ali", False, False),          # the catalog says the component is never an image build
])
def test_an_image_build_is_a_vendor_component_published_with_its_own_local_label(published, vendor_build, expected):
    view = PackageView("x", published, Component(id="x", vendor_build=vendor_build), installed=None)  # type: ignore[arg-type]
    assert view.image_build is expected
