"""evidence.error-lines over the error catalogs: a line no signature holds that names an Xid, a CUDA or NVML error or an
NCCL warning is a finding naming the entry, its catalog's edition and what to do; no such log reads as OK."""

from __future__ import annotations

from checks_rules_kit import assert_bilingual, context, run
from lingjun.checks.cli import load_data
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.log_file import gather_evidence
from lingjun.checks.knowledge.error_catalogs import embedded
from lingjun.checks.report.findings import Severity

RULE = "evidence.error-lines"


def _findings(tmp_path, text: str):
    log = tmp_path / "job.log"
    log.write_text(text, encoding="utf-8")
    kd = load_data(None)  # the embedded bundle: the real signatures beside the real catalogs
    ctx = context(Facts(), kd)
    ctx.evidence = gather_evidence(kd, Facts(), [str(log)])
    findings = run(RULE, ctx)
    assert_bilingual([f for f in findings if f.severity is not Severity.ok])
    return findings


def test_an_xid_no_signature_holds_is_named_from_nvidias_catalog_with_its_action(tmp_path):
    findings = _findings(tmp_path, "[Mon Sep 29 10:02:11 2025] NVRM: Xid (PCI:0000:dc:00): 149, pid='<unknown>', "
                                   "name=<unknown>, NETIR_LINK_EVT Fatal XC0 i0 Link 11\n")
    (finding,) = findings
    entry = embedded().xid(149)
    assert finding.severity is Severity.error
    assert f"Xid 149, {entry.name}, in NVIDIA's Xid catalog ({embedded().edition('xid')})" in finding.message.en
    assert f"NVIDIA's immediate action: {entry.action}" in finding.message.en
    assert finding.remedy is not None and finding.remedy.en == entry.action_text["en"]
    assert "https://docs.nvidia.com/deploy/xid-errors/index.html" in finding.links


def test_an_xid_outside_the_catalog_is_still_an_error_naming_the_edition(tmp_path):
    (finding,) = _findings(tmp_path, "NVRM: Xid (PCI:0000:dc:00): 9999, pid=1, name=python\n")
    assert finding.severity is Severity.error
    assert f"Xid 9999 is not in NVIDIA's Xid catalog as of {embedded().edition('xid')}" in finding.message.en
    assert "nvidia-bug-report.sh" in finding.remedy.en


def test_repeated_lines_of_one_entry_are_one_finding_with_their_count(tmp_path):
    line = "NVRM: Xid (PCI:0000:dc:00): 149, pid=1, name=python\n"
    (finding,) = _findings(tmp_path, line * 3)
    assert "(3 such lines)" in finding.message.en and "共 3 行" in finding.message.zh


def test_a_line_a_signature_holds_is_left_to_the_signature(tmp_path):
    findings = _findings(tmp_path, "[Tue Jun 11 09:14:02 2024] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', "
                                   "name=<unknown>, GPU has fallen off the bus.\n")
    assert len(findings) == 1 and "NVIDIA's Xid catalog" not in findings[0].message.en


def test_a_log_without_catalog_lines_stays_ok(tmp_path):
    findings = _findings(tmp_path, "epoch 1 loss 2.31\nCUDA kernel errors might be asynchronously reported\n")
    assert [f.severity for f in findings] == [Severity.ok]
    assert "no Xid, no CUDA or NVML error and no NCCL warning" in findings[0].message.en


def test_torch_s_driver_api_form_alone_names_the_driver_entry(tmp_path):
    # c10/cuda/CUDAException.h (C10_CUDA_DRIVER_CHECK) prints "CUDA driver error: <cuGetErrorString>"; no other
    # literal is on the line, so "CUDA driver error" itself must make the line read
    (finding,) = _findings(tmp_path, "RuntimeError: CUDA driver error: device not ready\n")
    entry = embedded().cuda_error("driver", 600)
    assert finding.severity is Severity.error
    assert entry.name == "CUDA_ERROR_NOT_READY" and entry.name in finding.message.en


def test_a_container_cli_line_no_signature_holds_names_its_message_part_edition_and_remedy(tmp_path):
    line = ("docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
            "runtime create failed: runc create failed: unable to start container process: error during container "
            "init: error running hook #0: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: "
            "mount error: file creation failed: /var/lib/docker/overlay2/ab12/merged/usr/bin/nvidia-smi: file exists: "
            "unknown.\n")
    (finding,) = _findings(tmp_path, line)
    catalogs = embedded()
    mount = catalogs.cli_subsystems["mount"]
    assert finding.severity is Severity.error
    assert "failed at its 'mount error' stage: \u201cfile creation failed: %s: %s\u201d (src/utils.c" in finding.message.en
    assert f"\u201c{mount.title['en']}\u201d in the catalog of {catalogs.edition('container-cli')}" in finding.message.en
    assert mount.points_to["zh"] in finding.message.zh and "阶段为 'mount error'" in finding.message.zh
    assert finding.remedy.en == mount.remedy["en"] and finding.remedy.zh == mount.remedy["zh"]
    assert catalogs.sources("container-cli")[0] in finding.links


def test_a_container_cli_line_a_signature_holds_keeps_the_signature_s_causes(tmp_path):
    # releases/troubleshooting/nvidia-container-cuda-requirement.yaml holds this line: its causes, not the catalog's
    findings = _findings(tmp_path, "stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, "
                                   "please update your driver to a newer version, or use an earlier cuda container: unknown\n")
    assert findings and all("catalog of libnvidia-container" not in f.message.en for f in findings)


def test_a_container_cli_message_outside_the_catalog_still_names_its_stage(tmp_path):
    (finding,) = _findings(tmp_path, "nvidia-container-cli: detection error: a message no release prints: unknown\n")
    catalogs = embedded()
    assert finding.severity is Severity.error
    assert (f"failed at its 'detection error' stage, with a message that is not among the {len(catalogs.cli)} "
            f"messages of {catalogs.edition('container-cli')}") in finding.message.en
    assert finding.remedy.en == catalogs.cli_subsystems["detection"].remedy["en"]


def test_an_unknown_cuda_message_is_masked_like_the_quoted_line(tmp_path):
    (finding,) = _findings(tmp_path, "CUDA error: fetch https://admin:S3cretPass@10.20.30.40/m failed "
                                     "api_key=sk-ABCDEFGHIJKLMNOPQRSTUVWXYZ123456 in /home/alice/job\n")
    for text in (finding.message.en, finding.message.zh):
        assert "S3cretPass" not in text and "sk-ABCDEFGHIJ" not in text and "alice" not in text
    assert "the catalog" in finding.message.en


def test_an_xid_or_enum_no_form_reads_is_still_an_error_line_never_ok(tmp_path):
    log = tmp_path / "job.log"
    log.write_text("NVRM: Xid (PCI:0000:dc:00): 0x4f, pid=1\nNVRM: Xid (PCI:0000:dc:00): 1234567, pid=1\n"
                   "code=999(cudaErrorNotARealName)\n", encoding="utf-8")
    kd = load_data(None)
    ctx = context(Facts(), kd)
    ctx.evidence = gather_evidence(kd, Facts(), [str(log)])
    findings = run(RULE, ctx)  # unknown lines carry no remedy: nothing names their cause
    assert [f.severity for f in findings] == [Severity.error] * 3  # observed failures, their causes unknown
    assert all("no recorded signature matches" in f.message.en for f in findings)


def test_an_nccl_warning_quoting_a_cuda_code_with_its_own_remedy_gives_that_remedy(tmp_path):
    (finding,) = _findings(tmp_path, "9b405963aa12:774:854 [0] transport/shm.cc:590 NCCL WARN Cuda failure 217 "
                                     "'peer access is not supported between these two devices'\n")
    assert "It quotes CUDA driver API error 217" in finding.message.en  # the acronym keeps its case
    assert finding.remedy.en == embedded().cuda_error("driver", 217).remedy["en"]
    assert "NCCL_CUMEM_HOST_ENABLE=0" in finding.remedy.en and "--shm-size" not in finding.remedy.en


def test_torch_s_cublas_status_names_the_cublas_entry_and_its_remedy_in_both_languages(tmp_path):
    # aten/src/ATen/cuda/CublasHandlePool.cpp's TORCH_CUDABLAS_CHECK: "CUDA error: <status name> when calling `...`";
    # the name, not "CUDA error", decides: it is not a CUDA runtime error the catalog lacks
    (finding,) = _findings(tmp_path, "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling "
                                     "`cublasCreate(handle)`\n")
    entry = embedded().cuda_error("cublas", 1)
    assert finding.severity is Severity.error
    assert entry.name == "CUBLAS_STATUS_NOT_INITIALIZED"
    assert "cuBLAS status 1, CUBLAS_STATUS_NOT_INITIALIZED: " in finding.message.en
    assert "cuBLAS 状态码 1，CUBLAS_STATUS_NOT_INITIALIZED：" in finding.message.zh
    assert "does not name" not in finding.message.en
    assert entry.remedy and finding.remedy.en == entry.remedy["en"] and finding.remedy.zh == entry.remedy["zh"]
    assert "GPU memory" in finding.remedy.en and "显存" in finding.remedy.zh


def test_a_cudnn_8_name_names_the_cudnn_9_code_it_became(tmp_path):
    (finding,) = _findings(tmp_path, "RuntimeError: cuDNN error: CUDNN_STATUS_MAPPING_ERROR\n")
    entry = embedded().cuda_error("cudnn", 4006)
    assert "CUDNN_STATUS_MAPPING_ERROR" in entry.older_names
    assert (f"cuDNN status 4006, {entry.name} (older releases name it CUDNN_STATUS_MAPPING_ERROR): "
            in finding.message.en)
    assert finding.remedy.en == entry.remedy["en"] and finding.remedy.zh == entry.remedy["zh"]


def test_an_xid_line_read_while_the_catalogs_are_damaged_is_an_unknown_error_line_never_ok(tmp_path, monkeypatch):
    from lingjun.checks.knowledge import error_catalogs

    def damaged():
        raise error_catalogs.CatalogError("the embedded error catalogs are not JSON (cut short)")

    monkeypatch.setattr(error_catalogs, "embedded", damaged)
    log = tmp_path / "dmesg.log"
    log.write_text("[Mon Sep 29 10:02:11 2025] NVRM: Xid (PCI:0000:dc:00): 45, pid=1, name=python, Ch 00000008\n")
    kd = load_data(None)
    ctx = context(Facts(), kd)
    ctx.evidence = gather_evidence(kd, Facts(), [str(log)])
    findings = run(RULE, ctx)
    assert any("could not be read (the embedded error catalogs are not JSON" in en for en, _ in ctx.evidence.notes)
    assert [f.severity for f in findings] == [Severity.error]  # an unknown error line, as with no catalogs at all
    assert "no recorded signature matches" in findings[0].message.en
    assert "NVRM: Xid (PCI:0000:dc:00): 45" in findings[0].message.en


def test_a_message_two_codes_print_names_the_other_code_when_the_line_shows_only_the_message(tmp_path):
    """Runtime errors 200 and 300 both print "device kernel image is invalid": read by its message alone, the finding
    names 200 and says it may be 300; a line that prints the code is not hedged."""
    (finding,) = _findings(tmp_path, "tensorflow.python.framework.errors_impl.InternalError: CUDA runtime implicit "
                                     "initialization on GPU:0 failed. Status: device kernel image is invalid\n")
    assert "CUDA runtime error 200, cudaErrorInvalidKernelImage" in finding.message.en
    assert "CUDA prints the same message for 300 (cudaErrorInvalidSource)" in finding.message.en
    assert "300 (cudaErrorInvalidSource)" in finding.message.zh
    (named,) = _findings(tmp_path, "RuntimeError: CUDA error: cudaErrorInvalidKernelImage\n")
    assert "same message" not in named.message.en
