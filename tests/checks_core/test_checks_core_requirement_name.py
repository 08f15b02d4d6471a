"""The checker's PEP 503 name normaliser equals packaging's canonicalize_name, which it avoids importing at start-up."""

from __future__ import annotations

import doctest
import random

import pytest
from packaging.utils import canonicalize_name

import lingjun.checks.core.requirement_name as requirement_name
from lingjun.checks.core.requirement_name import normalise
from lingjun.checks.facts import normalise_name

NAMES = [
    "torch", "Torch", "PyYAML", "typing_extensions", "zope.interface", "Flash_Attn", "nvidia-nccl-cu12",
    "nvidia--NCCL__cu12", "a.-_b", "-leading", "trailing_", "...", "", "ÄÖ_ü", "x" * 300, "Megatron_Core.dev",
]


@pytest.mark.parametrize("name", NAMES)
def test_normalise_equals_canonicalize_name(name):
    assert normalise(name) == str(canonicalize_name(name)) == normalise_name(name)


def test_normalise_equals_canonicalize_name_on_random_names():
    rng = random.Random(503)
    alphabet = "aZ09-_.xY"
    for _ in range(5000):
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert normalise(name) == str(canonicalize_name(name)), name


def test_doctests():
    assert doctest.testmod(requirement_name).failed == 0
