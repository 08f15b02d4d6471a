"""Error lines of torchrun (torch.distributed.elastic), mp.spawn and the c10d store, read from whole job logs: the
signal that ended a worker (SIGKILL, SIGBUS) leads over the ChildFailedError summary, rank 0's TCPStore timing out
waiting for clients, and a rank losing rank 0's store while it fetches the ncclUniqueId.

The lines are quoted from public reports: fidelity/stoke#31 and apple/ml-recurrent-drafter#5 (exitcode -9),
tloen/alpaca-lora#338 and hpcaitech/ColossalAI#3556 (exitcode -7), zai-org/GLM-130B#100 (exitcode 1),
open-mmlab/mmsegmentation#3106 (SIGABRT), OpenRLHF/OpenRLHF#1040 (DistStoreError), pytorch/pytorch#131781 and
hiyouga/LlamaFactory#1969 (Connection reset by peer, Broken pipe), murong-xu/CADS#4 (CUDA out of memory); the
frames and table rows around them follow torch's own format (torch/distributed/elastic/multiprocessing/errors).
"""

from __future__ import annotations

from lingjun.checks.facts import Facts
from lingjun.checks.report.findings import Severity
from signature_cases_kit import evidence_for_log, findings_for_log

SIGKILL = "pytorch-elastic-worker-sigkill"
SIGBUS = "pytorch-elastic-worker-sigbus"
CHILD = "pytorch-elastic-child-failed"
CLIENTS = "pytorch-c10d-store-clients-timeout"
PEER = "pytorch-c10d-store-peer-gone"
CUDA_OOM = "pytorch-cuda-out-of-memory"

SUMMARY_SENTENCE = "This line sums up a failure the log's other error lines show in detail"


def _table(exitcode: int, pid: int, traceback: str, script: str = "train.py") -> list[str]:
    """The ChildFailedError block torchrun prints for one failed rank (the template of errors/__init__.py)."""
    return [
        "Traceback (most recent call last):",
        '  File "/usr/local/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 250, in launch_agent',
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        f"{script} FAILED",
        "------------------------------------------------------------",
        "Failures:",
        "  <NO_OTHER_FAILURES>",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        "  time      : 2023-04-14_06:35:35",
        "  host      : 32a68c302449",
        "  rank      : 0 (local_rank: 0)",
        f"  exitcode  : {exitcode} (pid: {pid})",
        "  error_file: <N/A>",
        f"  traceback : {traceback}",
        "============================================================",
    ]


SIGKILL_LOG = [
    "Loading checkpoint shards:   0%|          | 0/2 [00:00<?, ?it/s]",
    "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 10401 closing signal SIGTERM",
    "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 10398) of binary: "
    "/anaconda/envs/py37_default/bin/python",
    *_table(-9, 10398, "Signal 9 (SIGKILL) received by PID 10398"),
]

SIGBUS_LOG = [
    "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 5620 closing signal SIGTERM",
    "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -7) local_rank: 1 (pid: 5621) of binary: "
    "/usr/bin/python3.10",
    *_table(-7, 3112, "Signal 7 (SIGBUS) received by PID 3112", script="finetune.py"),
]

CUDA_OOM_LINE = ("[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 22.78 GiB. GPU 0 has a total "
                 "capacity of 31.47 GiB of which 12.73 GiB is free.")

EXIT_1_LOG = [
    "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 160924) of binary: "
    "/usr/bin/python",
    *_table(1, 160924, "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
            script="/home/edcuser/models/glm/GLM-130B-main/generate.py"),
]

CLIENTS_LOG = [
    '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 1520, in init_process_group',
    "    store, rank, world_size = next(rendezvous_iterator)",
    '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/rendezvous.py", line 189, in _create_c10d_store',
    "    return TCPStore(",
    "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/3 clients joined.",
]

PEER_RESET = ("[rank15]: torch.distributed.DistBackendError: [15] is setting up NCCL communicator and retrieving "
              "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection "
              "reset by peer")
PEER_LOG = [
    '[rank15]:   File "/home/joe/micromamba/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", '
    'line 2288, in all_reduce',
    "[rank15]:     work = group.allreduce([tensor], opts)",
    PEER_RESET,
    "[rank15]: Exception raised from recvBytes at ../torch/csrc/distributed/c10d/Utils.hpp:672 (most recent call first):",
]


def _errors(tmp_path, lines: list[str], facts: "Facts | None" = None) -> list:
    return [f for f in findings_for_log(tmp_path, lines, facts=facts) if f.severity is Severity.error]


def _hits(tmp_path, lines: list[str]) -> list[str]:
    return [hit.signature for hit in evidence_for_log(tmp_path, lines).hits]


def _lead(finding) -> str:
    return finding.message.en.split("Most likely cause here: ", 1)[1]


def _in_a_pod() -> Facts:
    """A container in a Kubernetes pod (its environment holds KUBERNETES_SERVICE_HOST): the Kubernetes remedies."""
    return Facts(env={"KUBERNETES_SERVICE_HOST": "10.0.0.1"})


def _shm(size: int) -> Facts:
    facts = Facts(origin="snapshot")
    facts.shm.present = True
    facts.shm.size_bytes = size
    return facts


# --- SIGKILL ----------------------------------------------------------------------------------------------------


def test_a_worker_killed_by_sigkill_leads_with_the_oom_killer_and_the_table_follows_as_a_summary(tmp_path):
    assert _hits(tmp_path, SIGKILL_LOG) == [SIGKILL, CHILD]
    first, second = _errors(tmp_path, SIGKILL_LOG)
    assert "job.log:3 shows: «ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9)" in first.message.en
    assert "(3 such lines)" in first.message.en  # the agent's line, the exitcode row and the traceback row
    assert "killed by SIGKILL (exitcode -9)" in first.message.en
    assert _lead(first).startswith("The kernel's OOM killer ended the worker: host RAM or the container's memory limit")
    assert "Other possible causes: Something outside the job sent SIGKILL" in first.message.en
    assert 'dmesg -T | grep -i -E "killed process|out of memory"' in first.remedy.en
    assert "docker run --memory=SIZE" in first.remedy.en and "mmap=True" in first.remedy.en
    assert "被 SIGKILL 终止" in first.message.zh
    assert "torchrun: a worker failed (ChildFailedError" in second.message.en
    assert SUMMARY_SENTENCE in second.message.en and "概括了日志中其他错误行" in second.message.zh


def test_in_a_pod_the_sigkill_remedy_reads_the_pods_oomkilled_state_and_raises_its_memory_limit(tmp_path):
    first = _errors(tmp_path, SIGKILL_LOG, facts=_in_a_pod())[0]
    assert "Kubernetes: kubectl describe pod POD shows Last State: Terminated, Reason: OOMKilled" in first.remedy.en
    assert "resources.limits.memory" in first.remedy.en and "docker run" not in first.remedy.en


def test_the_exitcode_and_traceback_rows_of_a_sigkill_alone_name_sigkill_only(tmp_path):
    rows = ["  exitcode  : -9 (pid: 3309)", "  traceback : Signal 9 (SIGKILL) received by PID 3309"]
    assert _hits(tmp_path, rows) == [SIGKILL]


def test_mp_spawn_reporting_sigkill_is_the_same_signature(tmp_path):
    (only,) = _errors(tmp_path, ["torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with "
                                 "signal SIGKILL"])
    assert "killed by SIGKILL (exitcode -9)" in only.message.en
    assert _lead(only).startswith("The kernel's OOM killer ended the worker")


# --- SIGBUS -----------------------------------------------------------------------------------------------------


def test_a_worker_killed_by_sigbus_leads_with_a_small_dev_shm_not_yet_confirmed_from_the_log_alone(tmp_path):
    assert _hits(tmp_path, SIGBUS_LOG) == [SIGBUS, CHILD]
    first, second = _errors(tmp_path, SIGBUS_LOG)
    assert "killed by SIGBUS (exitcode -7)" in first.message.en
    assert _lead(first).startswith("/dev/shm is small (the container default of 64 MiB, or a small --shm-size); the "
                                   "input does not show the size of /dev/shm, so this is not confirmed")
    assert "--shm-size=16g" in first.remedy.en and "--ipc=host" in first.remedy.en
    assert SUMMARY_SENTENCE in second.message.en
    in_a_pod = _errors(tmp_path, SIGBUS_LOG, facts=_in_a_pod())[0]
    assert "medium: Memory (sizeLimit: 16Gi) at /dev/shm" in in_a_pod.remedy.en


def test_a_snapshot_with_64_mib_of_dev_shm_confirms_the_small_shm_cause(tmp_path):
    first = _errors(tmp_path, SIGBUS_LOG, facts=_shm(64 << 20))[0]
    assert _lead(first).startswith("/dev/shm is small (the container default of 64 MiB, or a small --shm-size) (the "
                                   "size of /dev/shm is 64 MiB)")


def test_a_large_dev_shm_rules_out_its_size_and_leads_with_what_fills_it(tmp_path):
    first = _errors(tmp_path, SIGBUS_LOG, facts=_shm(16 << 30))[0]
    assert _lead(first).startswith("/dev/shm is large but filled: DataLoader workers' prefetched batches")
    assert "Ruled out by what the input shows: /dev/shm is small" in first.message.en
    assert "NCCL_SHM_DISABLE=1" in first.remedy.en and "num_workers" in first.remedy.en


# --- ChildFailedError with other exit codes -----------------------------------------------------------------------


def test_a_cuda_out_of_memory_line_leads_and_the_child_failed_table_sums_it_up(tmp_path):
    lines = [CUDA_OOM_LINE, *EXIT_1_LOG]
    assert _hits(tmp_path, lines) == [CUDA_OOM, CHILD]
    first, second = _errors(tmp_path, lines)
    assert "CUDA out of memory" in first.message.en and "ChildFailedError" not in first.message.en
    assert "torchrun: a worker failed (ChildFailedError" in second.message.en
    assert SUMMARY_SENTENCE in second.message.en
    assert _lead(second).startswith("The worker raised a Python exception (exit code 1)")
    assert "--log-dir=DIR --redirects 3 --tee 3" in second.remedy.en and "@record" in second.remedy.en


def test_a_child_failed_table_alone_points_to_the_workers_traceback_without_the_summary_sentence(tmp_path):
    (only,) = _errors(tmp_path, EXIT_1_LOG)
    assert "job.log:1 shows: «ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1)" in only.message.en
    assert SUMMARY_SENTENCE not in only.message.en
    assert _lead(only).startswith("The worker raised a Python exception (exit code 1)")
    assert "Other possible causes: The worker died of a signal from native code" in only.message.en


def test_sigabrt_and_sigsegv_rows_are_the_generic_failure_and_not_the_sigkill_or_sigbus_ones(tmp_path):
    rows = ["  exitcode  : -6 (pid: 2385922)", "  traceback : Signal 6 (SIGABRT) received by PID 2385922",
            "E0101 00:00:00.000000 1 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -11) "
            "local_rank: 0 (pid: 6421) of binary: /usr/bin/python"]
    assert _hits(tmp_path, rows) == [CHILD]
    assert evidence_for_log(tmp_path, rows).hit(CHILD).count == 3


# --- the c10d store ------------------------------------------------------------------------------------------------


def test_rank_0s_store_timing_out_on_missing_clients_leads_with_ranks_that_never_started(tmp_path):
    assert _hits(tmp_path, CLIENTS_LOG) == [CLIENTS]
    (only,) = _errors(tmp_path, CLIENTS_LOG)
    assert "job.log:5 shows: «torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. " \
           "1/3 clients joined.»" in only.message.en
    assert _lead(only).startswith("The other ranks were not running in time")
    assert "WORLD_SIZE counts more processes than were launched" in only.message.en
    assert "init_process_group(timeout=timedelta(minutes=60))" in only.remedy.en
    in_a_pod = _errors(tmp_path, CLIENTS_LOG, facts=_in_a_pod())[0]
    assert "kubectl get pods -o wide shows worker pods Pending" in in_a_pod.remedy.en


def test_a_lost_store_connection_alone_leads_with_rank_0_failing_first(tmp_path):
    assert _hits(tmp_path, PEER_LOG) == [PEER]
    (only,) = _errors(tmp_path, PEER_LOG)
    assert "got error: Connection reset by peer" in only.message.en
    assert SUMMARY_SENTENCE not in only.message.en
    assert _lead(only).startswith("Rank 0 failed first")
    assert "Rank 0 was killed (exit code -9 or 137)" in only.message.en


def test_rank_0_killed_by_sigkill_leads_and_the_lost_store_connection_sums_it_up(tmp_path):
    lines = ["ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 10398) "
             "of binary: /usr/bin/python", *PEER_LOG]
    first, second = _errors(tmp_path, lines)
    assert "killed by SIGKILL (exitcode -9)" in first.message.en
    assert "rank 0's store while fetching the ncclUniqueId" in second.message.en
    assert SUMMARY_SENTENCE in second.message.en


def test_a_cuda_out_of_memory_on_rank_0_leads_over_the_broken_pipe_of_the_others(tmp_path):
    broken = ("RuntimeError: [2] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value "
              "store by key '0', but store->get('0') got error: Broken pipe. This may indicate a possible application "
              "crash on rank 0 or a network set up issue.")
    assert _hits(tmp_path, [broken, CUDA_OOM_LINE]) == [PEER, CUDA_OOM]
    first, second = _errors(tmp_path, [broken, CUDA_OOM_LINE])
    assert "CUDA out of memory" in first.message.en
    assert "got error: Broken pipe" in second.message.en and SUMMARY_SENTENCE in second.message.en


def test_a_store_timeout_while_fetching_the_nccl_id_is_not_the_lost_connection(tmp_path):
    timeout = ("RuntimeError: [1] is setting up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value "
               "store by key '0', but store->get('0') got error: Socket Timeout")
    assert _hits(tmp_path, [timeout]) == []
