"""NCCL's failed call on a shared-memory segment states its errno (``nccl.shm_errno``), in each release's form: the
SYSCHECK macros' ``Call to shm_open failed : Permission denied`` (2.4 to 2.11, include/shm.h), ``Call to open failed:
...`` (misc/shmutils.cc), 2.3's ``shm_open failed to open NAME : ...``, the INFO line ``misc/shmutils.cc:68 -> 2 (...)``
of 2.21 and 2.22, and the segment code's own warnings with ``error: TEXT (N)`` (2.22 on).

Lines are quoted from public reports where one prints the form (the source follows each); the forms no report at hand
prints are NCCL's format strings filled in (the tag named beside each).
"""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.signatures import SignatureSet


def errno(*lines: str):
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block("".join(line + "\n" for line in lines).encode())
    found = fact_value("nccl.shm_errno", Facts(), evidence)
    return found.value if found.known else None


@pytest.mark.parametrize("line, number", [
    # NVIDIA/nccl#328 (PyTorch 1.2, NCCL 2.4)
    ("node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied", 13),
    # NVIDIA/nccl#290
    ("include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device", 28),
    # NVIDIA/nccl#1589 (NCCL 2.23)
    ("g148:14937:69361 [0] misc/shmutils.cc:93 NCCL WARN Call to open failed: No such file or directory", 2),
    # pytorch/ci-infra#490 (a CI pod's 64 MiB /dev/shm)
    ("[2026-04-22 21:34:20] mt-l-x86iavx512-45-172-t4-4-csmpw-runner-g4sfw-workflow:202016:202235 [0] "
     "misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-WU88OE (size 9637888), "
     "error: No space left on device (28)", 28),
    ("[2026-04-22 21:34:20] mt-l-x86iavx512-45-172-t4-4-csmpw-runner-g4sfw-workflow:202016:202235 [0] "
     "misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-WU88OE to 9637892 bytes, error: No space left "
     "on device (28)", 28),
    # vllm-project/vllm#18831
    ("NCCL WARN Error while attaching to shared memory segment /dev/shm/nccl- (size 192814336), error: No such file or "
     "directory (2)", 2),
    # NCCL's formats: v2.24.3-1 misc/shmutils.cc:73, v2.11.4-1 include/shm.h:29, v2.21.5-1 misc/shmutils.cc:83,
    # v2.21.5-1 SYSCHECKGOTO's INFO at misc/shmutils.cc:68, v2.3.5-5 include/shm.h:19
    ("node1:77:88 [0] misc/shmutils.cc:73 NCCL WARN Error: failed to create shared memory file /dev/shm/nccl-XXXXXX, "
     "error Permission denied (13)", 13),
    ("node1:77:88 [0] include/shm.h:29 NCCL WARN Call to mmap failed : Cannot allocate memory", 12),
    ("node1:77:88 [0] misc/shmutils.cc:83 NCCL WARN Could not map /dev/shm/nccl-a1B2c3 size 9637888, error: Cannot "
     "allocate memory", 12),
    ("node1:77:88 [0] NCCL INFO misc/shmutils.cc:68 -> 2 (Permission denied)", 13),
    ("node1:77:88 [0] include/shm.h:19 NCCL WARN shm_open failed to open /nccl-shm-recv-5840-0-0 : Read-only file "
     "system", 30),
])
def test_nccls_failed_shared_memory_call_states_its_errno(line, number):
    assert errno(line) == number


@pytest.mark.parametrize("line", [
    # a bare open or mmap of another file is not the segment code's
    "node1:77:88 [0] transport/net_ib.cc:120 NCCL WARN Call to open failed : Permission denied",
    "node1:77:88 [0] NCCL WARN Call to mmap failed : Cannot allocate memory",
    # no errno: NCCL 2.21's create line, 2.16's SYSCHECKGOTO INFO
    "ubuntu:9621:9688 [3] misc/shmutils.cc:112 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-KWfVyt "
    "(size 5967872)",
    "node1:77:88 [0] NCCL INFO misc/shmutils.cc:66 -> 2",
])
def test_lines_without_the_segments_errno_state_none(line):
    assert errno(line) is None
