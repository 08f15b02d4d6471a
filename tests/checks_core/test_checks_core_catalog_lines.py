"""catalog_lines.recognise: each printed form of an Xid, a CUDA or NVML error and an NCCL warning names its entry.

A small catalog made here pins the reading of each form; the generated tests over the real catalogs are in
test_checks_core_error_catalogs.py.
"""

from __future__ import annotations

import pytest

from lingjun.checks.knowledge.catalog_lines import recognise
from lingjun.checks.knowledge.error_catalogs import CATALOGS_FORMAT, CatalogError, ErrorCatalogs, format_regex

TEXT = {"en": "x", "zh": "x"}
CATALOGS = ErrorCatalogs.from_dict({
    "format": CATALOGS_FORMAT,
    "xid": {"edition": "test edition", "sources": [{"url": "https://docs.nvidia.com/deploy/xid-errors/index.html",
                                                  "title": "Xid"}],
            "entries": [{"xid": 79, "name": "GPU has fallen off the bus", "kind": "hardware", "action": "RESTART_BM",
                         "severity": "error", "meaning": TEXT}]},
    "cuda": {"edition": "CUDA test", "sources": [{"url": "https://docs.nvidia.com/cuda/", "title": "CUDA"}],
             "runtime": [
                 {"code": 2, "name": "cudaErrorMemoryAllocation", "message": "out of memory", "class": "memory",
                  "meaning": TEXT},
                 {"code": 214, "name": "cudaErrorECCUncorrectable", "message": "uncorrectable ECC error encountered",
                  "class": "ecc-hardware", "meaning": TEXT},
                 {"code": 802, "name": "cudaErrorSystemNotReady", "message": "system not yet initialized",
                  "class": "nvlink-fabric", "meaning": TEXT},
                 {"code": 35, "name": "cudaErrorInsufficientDriver",
                  "message": "CUDA driver version is insufficient for CUDA runtime version", "class": "driver-too-old",
                  "meaning": TEXT}],
             "driver": [{"code": 100, "name": "CUDA_ERROR_NO_DEVICE", "message": "no CUDA-capable device is detected",
                         "class": "no-device", "meaning": TEXT}],
             "nvml": [{"code": 18, "name": "NVML_ERROR_LIB_RM_VERSION_MISMATCH", "message": "Driver/library version mismatch",
                       "class": "driver-install", "meaning": TEXT}]},
    "nccl": {"edition": "NCCL test", "sources": [{"url": "https://github.com/NVIDIA/nccl", "title": "NCCL"}],
             "versions": ["2.21.5", "2.28.3"],
             "subsystems": [{"id": "ib", "files": ["transport/net_ib*", "transport/net_ib/*"], "title": TEXT,
                             "points_to": TEXT, "remedy": TEXT},
                            {"id": "misc", "files": ["*"], "title": TEXT, "points_to": TEXT, "remedy": TEXT}],
             "messages": [["transport/net_ib/connect.cc", 370, 380, "2.27.3", "2.28.3",
                           "NET/IB: %s failed to create QP: %s"],
                          ["transport/net_ib.cc", 1100, 1160, "2.21.5", "2.26.6", "NET/IB : Got completion from peer %s with status=%d opcode=%d len=%u vendor err %u (%s)%s%s%s%s"],
                          ["misc/socket.cc", 40, 50, "2.21.5", "2.28.3", "Net : Connection closed by remote peer %s"]]},
})


def _only(line: str):
    found = recognise(line, CATALOGS)
    assert len(found) == 1, found
    return found[0]


def test_an_xid_line_names_the_catalog_entry():
    match = _only("[Tue Jun 11 09:14:02 2024] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, "
                  "GPU has fallen off the bus.")
    assert (match.catalog, match.number, match.info.name, match.info.action) == ("xid", 79, "GPU has fallen off the bus",
                                                                                 "RESTART_BM")


def test_an_xid_the_catalog_does_not_list_is_still_a_match_without_an_entry():
    match = _only("NVRM: Xid (PCI:0000:dc:00): 185, pid=1, name=python")
    assert (match.key, match.number, match.info) == ("xid:185", 185, None)


@pytest.mark.parametrize("line", [
    "RuntimeError: CUDA error: uncorrectable ECC error encountered",
    "[rank3]: torch.AcceleratorError: CUDA error: uncorrectable ECC error encountered",
    "(Worker pid=9) ERROR 09-26 10:57:34 [core.py:1] RuntimeError: CUDA error: uncorrectable ECC error encountered",
    "misc/argcheck.cc:30 Cuda failure 'uncorrectable ECC error encountered'",
    "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:307 'uncorrectable ECC error encountered'",
    "Cuda failure: 214 uncorrectable ECC error encountered",
    "RuntimeError: cuda runtime error (39) : uncorrectable ECC error encountered at /pytorch/aten/src/THC/THCCachingAllocator.cpp:510",
    "CUDA error at cudaTensorCoreGemm.cu:334 code=214(cudaErrorECCUncorrectable) \"cudaMalloc(...)\"",
])
def test_each_printed_form_of_a_runtime_error_names_the_same_entry(line):
    match = _only(line)
    assert (match.catalog, match.api, match.number, match.info.name) == ("cuda", "runtime", 214, "cudaErrorECCUncorrectable")


def test_nccl_s_numbered_cuda_failure_is_a_driver_api_error():
    match = _only("transport/nvls.cc:157 Cuda failure 100 'no CUDA-capable device is detected'")
    assert (match.api, match.number, match.info.name) == ("driver", 100, "CUDA_ERROR_NO_DEVICE")


def test_an_nvml_error_written_in_camel_case_names_the_nvml_entry():
    for line in ("pynvml.NVMLError_LibRmVersionMismatch: Driver/library version mismatch",
                 "Failed to initialize nvml: LibRmVersionMismatch"):
        assert _only(line).info.name == "NVML_ERROR_LIB_RM_VERSION_MISMATCH", line


def test_a_function_returning_a_code_names_it_in_decimal_or_hex():
    assert _only("cudaGetDeviceCount returned 35").info.name == "cudaErrorInsufficientDriver"
    assert _only("warning: Cuda API error detected: cudaMalloc returned (0x2)").info.name == "cudaErrorMemoryAllocation"


def test_torch_start_up_warning_with_error_number_names_the_code():
    line = ("UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda "
            "functions before calling NumCudaDevices() that might have already set an error? Error 802: system not "
            "yet initialized (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)")
    assert _only(line).info.name == "cudaErrorSystemNotReady"


def test_a_driver_api_enum_name_names_the_driver_entry():
    match = _only("E external/xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: "
                  "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected")
    assert (match.api, match.number) == ("driver", 100)


def test_nvml_initialisation_failure_names_the_nvml_entry():
    match = _only("Failed to initialize NVML: Driver/library version mismatch")
    assert (match.api, match.number, match.info.name) == ("nvml", 18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH")


def test_a_status_compared_with_cuda_success_gives_its_code():
    match = _only("Check failed: cuda_status == cudaSuccess (35 vs. 0) CUDA driver version is insufficient")
    assert (match.api, match.number, match.info.name) == ("runtime", 35, "cudaErrorInsufficientDriver")


def test_a_cuda_error_whose_message_the_catalog_lacks_is_a_match_without_an_entry():
    match = _only("RuntimeError: CUDA error: a message from a future toolkit")
    assert (match.catalog, match.info, match.text) == ("cuda", None, "a message from a future toolkit")


@pytest.mark.parametrize("line", [
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions. CUDA errors might be reported late",
    "INFO: CUDA error checking is enabled",
])
def test_prose_about_cuda_errors_is_not_an_error_line(line):
    assert recognise(line, CATALOGS) == []


def test_an_nccl_warning_names_its_format_subsystem_and_versions():
    match = _only("gpu-7:2041:2112 [3] connect.cc:372 NCCL WARN NET/IB: mlx5dv_create_qp failed to create QP: "
                  "Cannot allocate memory")
    assert (match.catalog, match.subsystem, match.file, match.line) == ("nccl", "ib", "connect.cc", 372)
    assert (match.info.file, match.info.versions) == ("transport/net_ib/connect.cc", ("2.27.3", "2.28.3"))


def test_an_nccl_2_30_warning_naming_its_function_is_read_the_same():
    match = _only("gpu-7:2041:2112 [3] transport/net_ib/connect.cc:372 (ncclIbCreateQp) NCCL WARN NET/IB: "
                  "mlx5dv_create_qp failed to create QP: Cannot allocate memory")
    assert (match.subsystem, match.file, match.info.file) == ("ib", "transport/net_ib/connect.cc",
                                                              "transport/net_ib/connect.cc")


def test_an_nccl_warning_with_many_conversions_matches_its_format():
    line = ("node1:1:2 [0] transport/net_ib.cc:1159 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45678> with "
            "status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2 hca mlx5_0")
    match = _only(line)
    assert match.info is not None and match.info.file == "transport/net_ib.cc"


def test_an_nccl_warning_of_a_known_file_but_unknown_text_keeps_the_subsystem():
    match = _only("transport/net_ib.cc:99 NCCL WARN something new in a later release")
    assert (match.info, match.subsystem, match.key) == (None, "ib", "nccl-file:transport/net_ib.cc:ib")


def test_an_nccl_warning_quoting_a_cuda_error_gives_both():
    found = recognise("node:1:1 [0] enqueue.cc:1500 NCCL WARN Cuda failure 'out of memory'", CATALOGS)
    assert [(m.catalog, m.number) for m in found] == [("nccl", None), ("cuda", 2)]


def test_a_bare_file_name_two_subsystems_share_names_no_subsystem_by_itself():
    catalogs = ErrorCatalogs.from_dict({**CATALOGS.raw, "nccl": {**CATALOGS.raw["nccl"], "messages": [
        *CATALOGS.raw["nccl"]["messages"], ["graph/connect.cc", 10, 20, "2.21.5", "2.28.3", "Topology %s broken"]],
        "subsystems": [CATALOGS.raw["nccl"]["subsystems"][0],
                       {"id": "topology", "files": ["graph/*"], "title": TEXT, "points_to": TEXT, "remedy": TEXT},
                       CATALOGS.raw["nccl"]["subsystems"][1]]}})
    assert catalogs.subsystem_of("connect.cc") is None
    (match,) = recognise("connect.cc:15 NCCL WARN Topology ring broken", catalogs)
    assert match.subsystem == "topology"  # the format decides
    (match,) = recognise("connect.cc:15 NCCL WARN something else", catalogs)
    assert (match.info, match.subsystem) == (None, None)


def test_format_regex_matches_what_printf_prints():
    assert format_regex("dev %d port %u: %s (%lu bytes, 0x%lx)").match("dev 3 port 1: down (4096 bytes, 0x7f00ab)")
    assert format_regex("a %s%s%s b %s").match("a x y z b w")
    assert format_regex("{NCCL_NET_NAME} : %s").match("IB : oops")
    assert format_regex("100%% done").match("100% done")
    assert not format_regex("dev %d").match("dev x")


def test_catalogs_of_another_format_are_refused():
    with pytest.raises(CatalogError):
        ErrorCatalogs.from_dict({"format": "other"})
