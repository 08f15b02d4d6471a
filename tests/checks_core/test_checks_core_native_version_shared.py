"""One implementation of the cuDNN / NCCL version codes serves the probes and the rules (checks/core/native_version.py)."""

from __future__ import annotations

import doctest

import pytest

import lingjun.checks.core.native_version as native_version
from lingjun.checks.probes import cudnn, nccl
from lingjun.checks.rules import _finding


@pytest.mark.parametrize("module", [native_version, cudnn, nccl, _finding])
def test_doctests(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_probe_decoders_agree_with_the_rules_parsers_on_every_code():
    for value in list(range(-5, 1100)) + list(range(1100, 200000, 37)) + [8700, 8905, 91002, 21903, 2804, 21701]:
        c = native_version.parse_cudnn(value)
        n = native_version.parse_nccl(value)
        assert cudnn.decode_cudnn_int(value) == (native_version.triple_text(c) if c else None), value
        assert nccl.decode_nccl_code(value) == (native_version.triple_text(n) if n else None), value


@pytest.mark.parametrize(
    "header, version",
    [
        ("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 10\n#define CUDNN_PATCHLEVEL 2\n#define CUDNN_VERSION 1\n", (9, 10, 2)),
        ("#define CUDNN_VERSION 8905\n", (8, 9, 5)),
        ("#define CUDNN_MAJOR 8\n#define CUDNN_MINOR x\n#define CUDNN_VERSION 8700\n", (8, 7, 0)),
        ("#define CUDNN_VERSION 999\n", None),
        ("#define CUDNN_VERSION (CUDNN_MAJOR * 1000)\n", None),
        ("", None),
    ],
)
def test_cudnn_header_through_native_version(header, version):
    assert native_version.cudnn_from_defines(cudnn.parse_defines(header)) == version
    assert cudnn.parse_cudnn_header(header) == (native_version.triple_text(version) if version else None)


@pytest.mark.parametrize(
    "header, version",
    [
        ('#define NCCL_MAJOR 2\n#define NCCL_MINOR 27\n#define NCCL_PATCH 5\n#define NCCL_SUFFIX "+cuda12.9"\n', (2, 27, 5)),
        ("#define NCCL_VERSION_CODE 2804\n", (2, 8, 4)),
        ("#define NCCL_MAJOR 2\n", None),
    ],
)
def test_nccl_header_through_native_version(header, version):
    assert native_version.nccl_from_defines(nccl.parse_defines(header)) == version
    assert nccl.parse_nccl_header(header) == (native_version.triple_text(version) if version else None)
