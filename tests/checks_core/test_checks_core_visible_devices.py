"""CUDA_VISIBLE_DEVICES read as CUDA reads it: stop at the first invalid entry, nothing on a repeat, renumbering."""

from __future__ import annotations

import doctest

import pytest

from lingjun.checks.core import visible_devices
from lingjun.checks.core.visible_devices import parse, resolve


def test_doctests():
    result = doctest.testmod(visible_devices)
    assert result.attempted >= 3 and result.failed == 0


@pytest.mark.parametrize("value,kinds,stopped,duplicate", [
    ("1,2", [("1", "index"), ("2", "index")], None, None),
    ("0, 2 ,-1,1", [("0", "index"), ("2", "index")], "-1", None),  # NVIDIA's example: 1 after -1 is hidden
    ("1gpu,2", [("1gpu", "index"), ("2", "index")], None, None),  # strtoul-like: leading digits count
    ("GPU-8932f937,MIG-abc", [("GPU-8932f937", "gpu-uuid"), ("MIG-abc", "mig-uuid")], None, None),
    ("0,0", [("0", "index"), ("0", "index")], None, "0"),
    ("01,1", [("01", "index"), ("1", "index")], None, "1"),  # the same ordinal written twice
    ("foo,0", [], "foo", None),
])
def test_parse(value, kinds, stopped, duplicate):
    parsed = parse(value)
    assert [(e.text, e.kind) for e in parsed.entries] == kinds
    assert parsed.stopped_at == stopped and parsed.duplicate == duplicate


@pytest.mark.parametrize("value", ["", "  ", "-1", "none", "NoDevFiles"])
def test_values_that_hide_every_gpu(value):
    parsed = parse(value)
    assert parsed.hides_all and parsed.entries == [] and parsed.stopped_at is None


def test_resolve_against_the_gpu_count():
    assert resolve(parse("1,2"), gpu_count=4).visible == ["1", "2"]
    out = resolve(parse("0,3,1"), gpu_count=2)
    assert out.visible == ["0"] and out.out_of_range == "3"
    unknown = resolve(parse("1,2"))
    assert unknown.visible == ["1", "2"] and unknown.unchecked == ["1", "2"] and unknown.out_of_range is None
    assert resolve(parse("1,1"), gpu_count=4).visible == []


def test_resolve_uuids_by_prefix_only_when_the_input_shows_them():
    uuids = ["GPU-8932f937-d72c-4106-c12f-20bd9faed9f6", "GPU-11112222-0000-0000-0000-000000000000"]
    assert resolve(parse("GPU-8932f937"), gpu_uuids=uuids).visible == ["GPU-8932f937"]
    missing = resolve(parse("GPU-1111,GPU-dead"), gpu_uuids=uuids)
    assert missing.visible == ["GPU-1111"] and missing.out_of_range == "GPU-dead"
    assert resolve(parse("GPU-dead")).unchecked == ["GPU-dead"]
    mig = resolve(parse("MIG-aaaa"), mig_uuids=["MIG-bbbb-0000"])
    assert mig.visible == [] and mig.out_of_range == "MIG-aaaa"
