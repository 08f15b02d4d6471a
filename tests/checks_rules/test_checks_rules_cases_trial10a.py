"""Lines of the tenth trial's distributed, memory, Kubernetes and vLLM misses: Gloo's full-mesh connect
(pytorch-gloo-connect-full-mesh-failed), torchrun stopped by SIGHUP (pytorch-elastic-agent-sighup), the outer c10d
rendezvous line (pytorch-elastic-rendezvous-connection-error, a summary), DeepSpeed's passwordless-SSH check
(deepspeed-launcher-host-not-reachable-ssh), the allocator's NVML assertion (pytorch-allocator-nvml-assert), XLA's
out-of-memory (xla-resource-exhausted-out-of-memory), the kubelet's UnexpectedAdmissionError for GPUs
(kubernetes-admission-gpu-devices-unavailable) and vLLM's tensor parallel divisibility
(vllm-tensor-parallel-size-not-divisor).

Lines are quoted from public reports: aws-samples/aws-do-eks#69, vllm-project/vllm#5094, occlum/occlum#1604,
verl-project/verl#967 (Gloo); zai-org/ChatGLM2-6B#238, FlagOpen/FlagEmbedding#695, pytorch/pytorch#67538,
JingyunLiang/VRT#47, modelscope/ms-swift#5884 (SIGHUP); pytorch/pytorch#107021, #67547, wenet-e2e/wekws#172
(rendezvous); hpcac/2023-APAC-HPC-AI#1, volcano-sh/volcano#2952 (DeepSpeed); Stability-AI/sd3.5#18,
pytorch/pytorch#121899, #112377, #112950 (NVML); patrickbryant1/AFProfile#8, google-deepmind/alphafold#1023,
google-deepmind/jaxline#11, elixir-nx/xla#32, NVIDIA/DeepLearningExamples#405, patrick-kidger/equinox#737 (XLA);
kubernetes/kubernetes#130145, Project-HAMi/HAMi#596 (kubelet); MIV-XJTU/FSDrive#21, vllm-project/vllm#2652, #596,
THU-KEG/AdaptThink#1, QwenLM/Qwen3-VL#831 (vLLM). The logs are the trial's cases (the lines of those threads, with
the traceback frames the trial added). The near misses are other lines of the same outputs, other signatures'
examples, or lines of public reports that name a neighbouring failure (trueforge-org/truecharts#19201,
vllm-project/vllm#596's title, ColossalAI's shardformer assertion).
"""

from __future__ import annotations

import pytest

from lingjun.checks.report.findings import Severity
from signature_cases_kit import assert_line_is, assert_log_leads, assert_matches_none, cli_report, findings_for_log

GLOO = "pytorch-gloo-connect-full-mesh-failed"
SIGHUP = "pytorch-elastic-agent-sighup"
RDZV = "pytorch-elastic-rendezvous-connection-error"
STORE = "pytorch-c10d-store-connect-failed"
SSH = "deepspeed-launcher-host-not-reachable-ssh"
NVML = "pytorch-allocator-nvml-assert"
XLA = "xla-resource-exhausted-out-of-memory"
ADMISSION = "kubernetes-admission-gpu-devices-unavailable"
TP = "vllm-tensor-parallel-size-not-divisor"

CASES = [
    (GLOO, "unreachable-advertised-address",
     "RuntimeError: Gloo connectFullMesh failed with [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:152]"),
    (GLOO, "unreachable-advertised-address",
     "ERROR 05-29 04:08:22 worker_base.py:145] RuntimeError: Gloo connectFullMesh failed with "
     "[../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error"),
    (GLOO, "unreachable-advertised-address",
     "[E ProcessGroupGloo.cpp:144] Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] "
     "no error"),
    (SIGHUP, "session-hangup", "torch.distributed.elastic.multiprocessing.api.SignalException: Process 8665 got signal: 1"),
    (SIGHUP, "session-hangup",
     "torch.distributed.elastic.multiprocessing.api.SignalException: Process 792735 got signal: 1"),
    (SIGHUP, "session-hangup",
     "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 102241 closing signal SIGHUP"),
    (SIGHUP, "session-hangup",
     "WARNING:torch.distributed.elastic.agent.server.api:Received 1 death signal, shutting down workers"),
    (SIGHUP, "session-hangup",
     "W0920 09:10:41.194000 84933 site-packages/torch/distributed/elastic/agent/server/api.py:719] Received 1 death "
     "signal, shutting down workers"),
    (RDZV, "no-agent-hosts-the-store",
     "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has failed. "
     "See inner exception for details."),
    (RDZV, "no-agent-hosts-the-store",
     '    "message": "RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for '
     'details.",'),
    (SSH, "passwordless-ssh-not-set-up",
     "RuntimeError: Using hostfile at /home/552/dz9214/hostfile but host=gadi-gpu-v100-0011 was not reachable via ssh. "
     "If you are running with a single node please remove /home/552/dz9214/hostfile or setup passwordless ssh."),
    (SSH, "passwordless-ssh-not-set-up",
     "RuntimeError: Using hostfile at /etc/hostfile but host=ft-67ea02bd700cbb7-main-0.ft-67ea02bd700cbb7 was not "
     "reachable via ssh. If you are running with a single node please remove /etc/hostfile or setup passwordless ssh."),
    (NVML, "oom-masked-by-nvml",
     'RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":995, please '
     "report a bug to PyTorch."),
    (NVML, "oom-masked-by-nvml",
     'RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at "/opt/builds/pytorch/c10/cuda/CUDACachingAllocator.cpp"'
     ":830, please report a bug to PyTorch."),
    (NVML, "oom-masked-by-nvml",
     "RuntimeError: NVML_SUCCESS == DriverAPI::get()->nvmlDeviceGetHandleByPciBusId_v2_( pci_id, &nvml_device) "
     'INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp":815, please report a bug to PyTorch.'),
    (NVML, "oom-masked-by-nvml",
     'RuntimeError: NVML_SUCCESS == DriverAPI::get()->nvmlInit_v2_() INTERNAL ASSERT FAILED at '
     '"../c10/cuda/CUDACachingAllocator.cpp":1123, please report a bug to PyTorch.'),
    (XLA, "computation-too-large",
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4770354232 bytes."),
    (XLA, "computation-too-large",
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 7406166528 bytes."),
    (XLA, "computation-too-large",
     "[error] Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 58982400 bytes."),
    (XLA, "computation-too-large",
     "  (0) Resource exhausted: Out of memory while trying to allocate 68852648264 bytes."),
    (XLA, "computation-too-large",
     "XlaRuntimeError: RESOURCE_EXHAUSTED: Failed to allocate request for 6.27GiB (6727663616B) on device ordinal 0"),
    (ADMISSION, "stale-kubelet-allocation",
     "Message:         Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. "
     "Requested:1, Available: 0, which is unexpected"),
    (ADMISSION, "stale-kubelet-allocation",
     "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, "
     "which is unexpected"),
    (TP, "tp-size-not-a-divisor",
     "ValueError: Total number of attention heads (12) must be divisible by tensor parallel size (8)."),
    (TP, "tp-size-not-a-divisor",
     "ValueError: Total number of attention heads (52) must be divisible by tensor parallel size (8)."),
    (TP, "tp-size-not-a-divisor",
     "ValueError: Total number of attention heads (28) must be divisible by tensor parallel size (8)"),
    (TP, "tp-size-not-a-divisor",
     "ERROR 02-22 00:01:41 engine.py:400] The input size is not aligned with the quantized weight shape. This can be "
     "caused by too large tensor parallel size."),
]

INNER_TIMEOUT = ("[E socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to connect to "
                 "192.0.0.1:1234")

NEAR_MISSES = [
    # the lines after Gloo's in aws-do-eks#69: the detail, not the error
    "  timed out connecting: SO_ERROR: Connection refused, remote=[127.0.0.1]:<port>",
    "  (rank=8, size=16, local=[127.0.0.1])",
    # the inner c10d line of pytorch#107021: the connect signature's, not the rendezvous summary's
    INNER_TIMEOUT,
    # the CalledProcessError above DeepSpeed's message (hpcac/2023-APAC-HPC-AI#1)
    "subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no gadi-gpu-v100-0011 hostname' returned "
    "non-zero exit status 255.",
    # another INTERNAL ASSERT of torch, pytorch-device-index-assert's
    'RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "../aten/src/ATen/cuda/CUDAContext.cpp"'
    ":50, please report a bug to PyTorch.",
    # NVML's own failure, another signature's
    "Failed to initialize NVML: Driver/library version mismatch",
    # torch's own out-of-memory line, pytorch-cuda-out-of-memory's
    "RuntimeError: CUDA out of memory. Tried to allocate 1024.00 KiB (GPU 0; 11.17 GiB total capacity; 10.90 GiB "
    "already allocated; 576.00 KiB free; 30.96 MiB cached)",
    # the BufferAssignment report after XLA's line (AFProfile#8)
    "BufferAssignment OOM Debugging.",
    "                 total allocation:   14.44GiB",
    # the kubelet's reason line, and an Allocate failure of another vendor's unhealthy devices (truecharts#19201)
    "Reason:            UnexpectedAdmissionError",
    "Allocate failed due to no healthy devices present; cannot allocate unhealthy devices amd.com/gpu, which is "
    "unexpected",
    # vLLM's GPUs-per-node check (vllm#596's title) and ColossalAI's own assertion on heads
    "ValueError: The number of GPUs per node is not divisible by the number of tensor parallelism.",
    "AssertionError: The number of attention heads must be divisible by tensor parallel size.",
    # a SignalException for SIGTERM and for SIGINT (other signals, not the hang-up)
    "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4026234 got signal: 15",
    "torch.distributed.elastic.multiprocessing.api.SignalException: Process 1424368 got signal: 2",
]

#: the trial's case logs (cases 01, 02, 03, 04, 06, 07, 08 and 11 of trial 10), as pasted
LOGS = {
    # 01, aws-samples/aws-do-eks#69: Ray's error on top, Gloo's below it
    "gloo": ([
        "ray.exceptions.ActorHandleNotFoundError: ... created in job 01000000, but the current job is 02000000",
        "RuntimeError: Engine core initialization failed",
        CASES[0][2],
        NEAR_MISSES[0],
        NEAR_MISSES[1],
    ], GLOO, "unreachable-advertised-address"),
    # 02, pytorch#76894 with the lines of VRT#47's same failure
    "sighup": ([
        "WARNING:torch.distributed.elastic.agent.server.api:Received 1 death signal, shutting down workers",
        "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 102241 closing signal SIGHUP",
        "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 102242 closing signal SIGHUP",
        "Traceback (most recent call last):",
        '  File "/home/user/miniconda3/envs/env/lib/python3.8/site-packages/torch/distributed/run.py", line 710, in run',
        "    elastic_launch(",
        '  File "/home/user/miniconda3/envs/env/lib/python3.8/site-packages/torch/distributed/launcher/api.py", line 131, '
        "in __call__",
        "    return launch_agent(self._config, self._entrypoint, list(args))",
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 102240 got signal: 1",
    ], SIGHUP, "session-hangup"),
    # 03, pytorch#69197: only the outer line, under torchrun's frames
    "rendezvous": ([
        "Traceback (most recent call last):",
        '  File "/usr/local/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        '  File "/usr/local/lib/python3.10/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py",'
        " line 255, in create_backend",
        "    store = _create_tcp_store(params)",
        '  File "/usr/local/lib/python3.10/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py",'
        " line 181, in _create_tcp_store",
        "    raise RendezvousConnectionError(",
        CASES[8][2],
    ], RDZV, "no-agent-hosts-the-store"),
    # 04, hpcac/2023-APAC-HPC-AI#1
    "deepspeed": ([
        "Traceback (most recent call last):",
        '  File "/scratch/zs99/dz9214/BLOOM/deepspeed073/p38/lib/python3.8/site-packages/deepspeed/launcher/runner.py", '
        "line 401, in main",
        "    subprocess.check_call(",
        '  File "/scratch/zs99/dz9214/BLOOM/deepspeed073/p38/lib/python3.8/subprocess.py", line 364, in check_call',
        "    raise CalledProcessError(retcode, cmd)",
        NEAR_MISSES[3],
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "/scratch/zs99/dz9214/BLOOM/deepspeed073/p38/bin/deepspeed", line 6, in <module>',
        "    main()",
        '  File "/scratch/zs99/dz9214/BLOOM/deepspeed073/p38/lib/python3.8/site-packages/deepspeed/launcher/runner.py", '
        "line 407, in main",
        "    raise RuntimeError(",
        CASES[10][2],
    ], SSH, "passwordless-ssh-not-set-up"),
    # 06, Stability-AI/sd3.5#18, with one torch frame above it
    "nvml": ([
        '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1160, in convert',
        "    return t.to(device, dtype if t.is_floating_point() or t.is_complex() else None, non_blocking)",
        CASES[12][2],
    ], NVML, "oom-masked-by-nvml"),
    # 07, patrickbryant1/AFProfile#8
    "xla": ([
        CASES[16][2],
        "BufferAssignment OOM Debugging.",
        "BufferAssignment stats:",
        "             parameter allocation:  372.76MiB",
        "              constant allocation:    48.5KiB",
        "        maybe_live_out allocation:    9.64GiB",
        "     preallocated temp allocation:    4.44GiB",
        "                 total allocation:   14.44GiB",
        "              total fragmentation:  680.30MiB (4.60%)",
    ], XLA, "computation-too-large"),
    # 08, kubernetes/kubernetes#130145: kubectl describe pod
    "admission": ([
        "Status:              Failed",
        "Reason:            UnexpectedAdmissionError",
        CASES[21][2],
    ], ADMISSION, "stale-kubelet-allocation"),
    # 11, MIV-XJTU/FSDrive#21
    "tensor-parallel": ([
        "    raise ValueError(",
        CASES[23][2],
    ], TP, "tp-size-not-a-divisor"),
}

OURS = {sig_id for sig_id, _, _ in CASES}


def signature_of(finding) -> str:
    """The signature an evidence.error-lines finding names: the anchor of its troubleshooting page link."""
    return next(link for link in finding.links if "/troubleshooting/" in link).rsplit("#", 1)[1]


@pytest.mark.parametrize("sig_id, cause, line", CASES)
def test_each_reported_line_is_its_signature_with_the_expected_lead_cause(tmp_path, sig_id, cause, line):
    assert_line_is(tmp_path, line, sig_id, cause)


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_miss_lines_match_none_of_these_signatures(tmp_path, line):
    assert_matches_none(tmp_path, line, OURS)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_log_names_its_signature_with_the_expected_lead_cause(tmp_path, name):
    lines, sig_id, cause = LOGS[name]
    findings = assert_log_leads(tmp_path, lines, sig_id, cause)
    assert findings[0].severity is Severity.error
    assert signature_of(findings[0]) == sig_id


def test_inner_c10d_line_leads_and_the_rendezvous_summary_follows(tmp_path):
    # pytorch#107021: the client socket's timeout, then the outer RendezvousConnectionError that sums it up
    lines = [INNER_TIMEOUT, CASES[8][2]]
    findings = [f for f in findings_for_log(tmp_path, lines) if f.severity is not Severity.ok]
    assert [signature_of(f) for f in findings] == [STORE, RDZV]
    assert "sums up a failure" in findings[1].message.en


def test_rendezvous_line_alone_is_not_called_a_summary_and_names_is_host(tmp_path):
    [finding] = findings_for_log(tmp_path, LOGS["rendezvous"][0])
    assert "sums up a failure" not in finding.message.en
    assert "--rdzv-conf is_host=true" in finding.remedy.en


def test_remedies_name_the_commands_and_variables_the_threads_used(tmp_path):
    [gloo] = findings_for_log(tmp_path, LOGS["gloo"][0])
    assert "GLOO_SOCKET_IFNAME" in gloo.remedy.en and "getent hosts $(hostname)" in gloo.remedy.en
    [hangup] = [f for f in findings_for_log(tmp_path, LOGS["sighup"][0]) if f.severity is not Severity.ok]
    assert "tmux new -s train" in hangup.remedy.en and "setsid nohup torchrun" in hangup.remedy.en
    [ssh] = findings_for_log(tmp_path, LOGS["deepspeed"][0])
    assert "ssh -v -o PasswordAuthentication=no HOST hostname" in ssh.remedy.en and "ssh-copy-id HOST" in ssh.remedy.en
    [nvml] = findings_for_log(tmp_path, LOGS["nvml"][0])
    assert "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False" in nvml.remedy.en
    [xla] = findings_for_log(tmp_path, LOGS["xla"][0])
    assert "XLA_PYTHON_CLIENT_MEM_FRACTION" in xla.remedy.en or "total allocation" in xla.remedy.en
    # a log alone does not say where the job runs: the report gives the Kubernetes remedies this record has
    [admission] = [f for f in cli_report(tmp_path, LOGS["admission"][0])["findings"]
                   if f["rule"] == "evidence.error-lines"]
    assert "sudo systemctl restart kubelet" in admission["remedy"]
    [tp] = findings_for_log(tmp_path, LOGS["tensor-parallel"][0])
    assert "--pipeline-parallel-size" in tp.remedy.en and "num_attention_heads" in tp.remedy.en
