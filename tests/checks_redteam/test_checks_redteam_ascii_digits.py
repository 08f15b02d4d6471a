"""Versions and compute capabilities are ASCII: full-width or other Unicode digits are not read as numbers
(Python's ``\\d`` and ``int()`` accept them, so "５７０.１２４" used to be driver R570)."""

from __future__ import annotations

import pytest

from lingjun.checks.core.compat import parse_cuda, parse_driver
from lingjun.checks.core.gpu_arch import covers, parse_cc


@pytest.mark.parametrize("text", ["５７０.１２４.０６", "٥٧٠.١٢٤", "570.１24"])
def test_unicode_digits_are_not_a_driver_version(text):
    assert parse_driver(text) is None


@pytest.mark.parametrize("text", ["１２.８", "12.８"])
def test_unicode_digits_are_not_a_cuda_version(text):
    assert parse_cuda(text) is None


def test_unicode_digits_are_not_a_compute_capability():
    assert parse_cc("１２.０") is None
    assert covers(["sm_９0"], (9, 0)) is None


def test_ascii_still_reads():
    assert str(parse_driver("570.124.06")) == "570.124.06" and parse_cc("12.0") == (12, 0)
    assert str(parse_cuda("12.8")).startswith("12.8")
