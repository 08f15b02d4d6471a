"""The real error catalogs (checks/data/error-catalogs.json), entry by entry: every Xid NVIDIA's catalog lists, every
CUDA runtime, driver and NVML code in each form it is printed in, and every NCCL WARN format string of each NCCL
release read, instantiated as a log line, is recognised and named (catalog_lines.recognise)."""

from __future__ import annotations

import os
import re

import pytest

from lingjun.checks.knowledge.catalog_lines import recognise
from lingjun.checks.knowledge.error_catalogs import FormatPattern, embedded, format_regex

CATALOGS = embedded()

#: a value printf would print for each conversion
_SAMPLE = {"d": "3", "i": "3", "u": "7", "o": "17", "x": "7f3a", "X": "7F3A", "p": "0x7f3a00", "e": "1.5e+00",
           "E": "1.5E+00", "f": "1.500000", "g": "1.5", "G": "1.5", "c": "c", "s": "mlx5_0", "%": "%"}
_CONVERSION = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|z|j|t|L)?([diouxXeEfgGcsp%])")


def instantiate(fmt: str) -> str:
    """What NCCL prints for ``fmt`` with sample values."""
    return _CONVERSION.sub(lambda m: _SAMPLE[m.group(5)], fmt)


def _one(line: str, catalog: str):
    found = [m for m in recognise(line, CATALOGS) if m.catalog == catalog]
    assert len(found) == 1, (line, found)
    return found[0]


def test_the_cuda_catalog_holds_every_cublas_and_cudnn_status():
    cublas = {i.code: i.name for i in CATALOGS.cuda.values() if i.api == "cublas"}
    assert cublas == {1: "CUBLAS_STATUS_NOT_INITIALIZED", 3: "CUBLAS_STATUS_ALLOC_FAILED", 7: "CUBLAS_STATUS_INVALID_VALUE",
                      8: "CUBLAS_STATUS_ARCH_MISMATCH", 11: "CUBLAS_STATUS_MAPPING_ERROR",
                      13: "CUBLAS_STATUS_EXECUTION_FAILED", 14: "CUBLAS_STATUS_INTERNAL_ERROR",
                      15: "CUBLAS_STATUS_NOT_SUPPORTED", 16: "CUBLAS_STATUS_LICENSE_ERROR"}
    cudnn = {i.code: i for i in CATALOGS.cuda.values() if i.api == "cudnn"}
    assert len(cudnn) == 47 and {c // 1000 for c in cudnn} == {1, 2, 3, 4, 5}
    assert cudnn[2002].name == "CUDNN_STATUS_BAD_PARAM_NULL_POINTER" and cudnn[5000].name == "CUDNN_STATUS_EXECUTION_FAILED"
    # every name cuDNN 8 printed (cudnn_ops_infer.h, 1-14) names a cuDNN 9 entry
    for name in ("NOT_INITIALIZED", "ALLOC_FAILED", "BAD_PARAM", "INTERNAL_ERROR", "INVALID_VALUE", "ARCH_MISMATCH",
                 "MAPPING_ERROR", "EXECUTION_FAILED", "NOT_SUPPORTED", "LICENSE_ERROR", "RUNTIME_PREREQUISITE_MISSING",
                 "RUNTIME_IN_PROGRESS", "RUNTIME_FP_OVERFLOW", "VERSION_MISMATCH"):
        assert CATALOGS.cuda_by_name("CUDNN_STATUS_" + name) is not None, name
    for api, code in (("cublas", 1), ("cublas", 3), ("cublas", 13), ("cudnn", 1001), ("cudnn", 3000), ("cudnn", 4006),
                      ("cudnn", 5000)):
        remedy = CATALOGS.cuda_error(api, code).remedy
        assert remedy and remedy["en"] and remedy["zh"], (api, code)


def test_the_catalogs_hold_every_entry_they_promise():
    assert len(CATALOGS.xids) >= 172
    assert {n for n in (8, 13, 31, 32, 38, 43, 45, 48, 56, 57, 61, 62, 63, 64, 68, 69, 74, 79, 92, 94, 95, 119, 145,
                        149)} <= set(CATALOGS.xids)
    assert CATALOGS.edition("xid") and CATALOGS.sources("xid")[0].startswith("https://docs.nvidia.com/")


@pytest.mark.parametrize("number", sorted(CATALOGS.xids))
def test_every_xid_of_the_catalog_is_named(number):
    line = f"[Mon Sep 29 10:02:12 2025] NVRM: Xid (PCI:0000:dc:00): {number}, pid=12345, name=python, Ch 00000010"
    match = _one(line, "xid")
    assert (match.number, match.info) == (number, CATALOGS.xid(number))


_CUDA = sorted(CATALOGS.cuda.values(), key=lambda i: (i.api, i.code))


def _forms(info) -> "list[str]":
    """The lines each API's errors are printed in (catalog_lines' module docstring names where)."""
    forms = [f"CUDA error at kernel.cu:57 code={info.code}({info.name}) \"cudaMalloc(&p, n)\""
             if info.api == "runtime" else f"RuntimeError: {info.name}"]
    if info.message and info.api == "runtime":
        forms += [f"RuntimeError: CUDA error: {info.message}", f"[rank1]: torch.AcceleratorError: CUDA error: "
                  f"{info.message}", f"misc/strongstream.cc:53 NCCL WARN Cuda failure '{info.message}'"]
    if info.message and info.api == "driver":  # NCCL's CUCHECK prints a CUresult with its number
        forms += [f"RuntimeError: CUDA driver error: {info.message}",
                  f"transport/nvls.cc:157 NCCL WARN Cuda failure {info.code} '{info.message}'"]
    if info.message and info.api == "nvml":
        forms += [f"Failed to initialize NVML: {info.message}"]
    if info.api == "cublas":  # torch's TORCH_CUDABLAS_CHECK, TensorFlow's and CNTK's cuBLAS checks
        forms += [f"RuntimeError: CUDA error: {info.name} when calling `cublasCreate(handle)`",
                  f"E external/xla/xla/stream_executor/cuda/cuda_blas.cc:190] failed to run cuBLAS routine "
                  f"cublasSgemm_v2: {info.name}", f"CUBLAS failure {info.code}: {info.name} ; GPU=1"]
    if info.api == "cudnn":  # torch's AT_CUDNN_CHECK, Caffe's CUDNN_CHECK, Paddle's; and cuDNN 8's names
        for name in (info.name, *info.older_names):
            forms += [f"RuntimeError: cuDNN error: {name}", f"F0525 12:35:32.850440 182776 cudnn_conv_layer.cu:28] "
                      f"Check failed: status == CUDNN_STATUS_SUCCESS (8 vs. 0)  {name}",
                      f"OSError: (External) CUDNN error(8), {name}."]
    return forms


@pytest.mark.parametrize("info", _CUDA, ids=lambda i: f"{i.api}-{i.code}-{i.name}")
def test_every_cuda_and_nvml_code_is_named_in_each_printed_form(info):
    for line in _forms(info):
        match = _one(line, "cuda")
        if "code=" in line or line.startswith("RuntimeError: " + info.name) or " failure " in line and info.api == "driver" \
                or info.api in ("cublas", "cudnn"):
            assert match.info is info, line
        else:  # by the message: the entry printing that message (a message two APIs share names the first API's)
            assert match.info is not None and match.info.message.lower() == info.message.lower(), line


#: the formats with literal text of their own (one that is only ``%s`` names no line: any text fits it)
_NCCL = [info for info in CATALOGS.nccl if FormatPattern(info.format).length]


@pytest.mark.parametrize("info", _NCCL, ids=lambda i: f"{i.file}:{i.lines[0]}:{i.anchor}")
def test_every_nccl_warn_format_is_named_with_its_subsystem(info):
    text = instantiate(info.format).split("\n", 1)[0]  # NCCL prints each line of a format on its own line
    line = f"node-1:2041:2112 [3] {info.file}:{info.lines[0]} NCCL WARN {text}"
    match = _one(line, "nccl")
    assert match.info is not None, line
    assert os.path.basename(match.info.file) == os.path.basename(info.file)
    assert match.info is info or format_regex(match.info.format).match(text.strip())
    assert match.subsystem == info.subsystem and match.subsystem in CATALOGS.subsystems


def test_every_nccl_message_belongs_to_a_described_subsystem():
    assert _NCCL, "the NCCL catalog is empty"
    for info in _NCCL:
        sub = CATALOGS.subsystems[info.subsystem]
        assert sub.title.get("en") and sub.title.get("zh") and sub.remedy.get("en") and sub.remedy.get("zh")


#: libnvidia-container's messages that are not CLI contexts (those wrap the others), with literal text of their own
_CLI = [info for info in CATALOGS.cli if not info.context and FormatPattern(info.printed).length >= 3]


def _cli_line(info) -> "tuple[str, str]":
    """(the line Docker shows when ``info`` stops the prestart hook, the CLI stage it is printed under, or "")."""
    text = instantiate(info.format) + (": no such file or directory" if info.appends else "")
    if info.file.startswith("src/cli/") and info.appends:  # the CLI's own warn(3): printed bare
        return f"stderr: nvidia-container-cli: {text}: unknown.", ""
    stages = CATALOGS.cli_subsystems[info.subsystem].stages or ("initialization error",)
    stage = stages[0] if stages[0].endswith(" error") else "initialization error"
    return f"stderr: Auto-detected mode as 'legacy'\\nnvidia-container-cli: {stage}: {text}: unknown.", stage


def test_the_container_cli_catalog_holds_every_release_it_names():
    assert len(CATALOGS.cli) >= 160 and len(_CLI) >= 120
    assert CATALOGS.edition("container-cli").startswith("libnvidia-container 1.14.0 to 1.17.0")
    assert {c.stage for c in CATALOGS.cli if c.context} >= {"initialization error", "detection error", "mount error",
                                                            "ldcache error", "requirement error", "container error"}
    assert CATALOGS.sources("container-cli")[0].startswith("https://github.com/NVIDIA/libnvidia-container/tree/")


@pytest.mark.parametrize("info", _CLI, ids=lambda i: f"{i.file}:{i.lines[0]}:{i.anchor}")
def test_every_container_cli_message_is_named_with_its_stage_and_subsystem(info):
    line, stage = _cli_line(info)
    match = _one(line, "container-cli")
    assert match.info is not None, line
    text = instantiate(info.format)
    assert match.info is info or FormatPattern(match.info.printed).match(text + ": x", whole=False), line
    assert (match.context.stage if match.context is not None else "") == stage
    assert match.subsystem in CATALOGS.cli_subsystems
    if match.info is info:
        staged = CATALOGS.cli_subsystem_of_stage(stage) if stage else None
        assert match.subsystem == (staged if info.subsystem == "system" and staged else info.subsystem)


def test_a_damaged_xz_copy_of_a_data_file_is_an_error_naming_the_file():
    import lzma

    from lingjun.checks.knowledge._package_data import PackageDataError, unxz

    whole = lzma.compress(b'{"format": 1}', format=lzma.FORMAT_XZ)
    assert unxz(whole, "error-catalogs.json.xz") == b'{"format": 1}'
    for damaged in (b"not xz at all", whole[:-8]):
        with pytest.raises(PackageDataError, match=r"lingjun/checks/data/error-catalogs\.json\.xz is damaged"):
            unxz(damaged, "error-catalogs.json.xz")

@pytest.mark.parametrize("part", [
    {"xid": ["entries"]},                                # a list where an object belongs
    {"xid": {"entries": [{"name": "no number"}]}},       # an entry without its number
    {"cuda": {"runtime": [{"code": 1}]}},                # an entry without its name
    {"nccl": {"messages": [["only", "three", "fields"]]}},
    {"nccl": "text"},
    {"container-cli": {"subsystems": [7]}},
])
def test_a_catalogs_file_of_the_wrong_shape_is_a_catalog_error_not_a_crash(part):
    from lingjun.checks.knowledge.error_catalogs import CATALOGS_FORMAT, CatalogError, ErrorCatalogs

    with pytest.raises(CatalogError, match="not of the shape of format"):
        ErrorCatalogs.from_dict({"format": CATALOGS_FORMAT, **part})


def test_embedded_catalogs_that_are_not_json_are_a_catalog_error(monkeypatch):
    from lingjun.checks.knowledge import error_catalogs

    class Loader:
        def get_data(self, path):
            if path.endswith(".xz"):
                raise OSError(path)
            return b'{"format": "lingjun-kb/error-catalogs/1", "xid": {"entr'  # cut short

    import lingjun.checks as package

    monkeypatch.setattr(package, "__loader__", Loader())
    with pytest.raises(error_catalogs.CatalogError, match="not JSON"):
        error_catalogs._read_embedded()
