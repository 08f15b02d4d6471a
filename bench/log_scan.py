"""Benchmark: ``lingjun-check --log`` over a large NCCL_DEBUG=INFO log, against a plain Python line count.

Usage (from the repository root, with the project installed)::

    .venv/bin/python bench/log_scan.py [--mib 256] [--runs 1]

A log of about ``--mib`` MiB is written to a temporary folder: NCCL INFO lines of eight ranks (channels,
rings, proxy lines), a few lines every signature's literal could trip on, and one real error line near the
end.  Then, ``--runs`` times each, in a child process:

* ``count``: ``sum(1 for _ in open(path, "rb"))``, the plain Python line count of the same file;
* ``check``: ``python -m lingjun.checks --log PATH --from SNAPSHOT --format json``.

Then a log of NCCL WARN lines (a quarter of the size, at least 1 MiB): warnings of six kinds, each line with its
own rank, address or count, so that the error catalogs read nearly every line (no two alike but for one in three):
``check`` over it, its rate printed beside the INFO log's.

Printed: the median wall time of both, the checker's rate in MiB/s, the ratio to the line count and the
child's peak resident memory (``os.wait4``).  Targets: the scan is linear (the rate does not fall with
size), its memory bounded (peak resident memory below 200 MiB whatever the size), at least 20 MiB/s on the INFO
log and at least 1 MiB/s on the WARN log (each of its lines is matched against the 877 NCCL formats).
Exit code 1 when a target is missed; the smoke test runs it at 2 MiB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_RATE = 20.0  # MiB/s
TARGET_WARN_RATE = 1.0  # MiB/s, a log of nothing but NCCL warnings
TARGET_RSS_MIB = 200

_INFO = [
    "node-{r}:1{r}23:1{r}45 [{r}] NCCL INFO Channel {c:02d}/0 : {r}[{r}] -> {n}[{n}] via P2P/IPC/read",
    "node-{r}:1{r}23:1{r}45 [{r}] NCCL INFO Connected all rings, use ring PXN 0 GDR 1",
    "node-{r}:1{r}23:1{r}47 [{r}] NCCL INFO proxyProgressAsync opId=0x7f18ff66c450 op.type=2 op.reqBuff=0x7f18e8008e90 done",
    "[rank{r}]:[W1201 10:1{c}:00.000] step {c} loss 2.{c}31 lr 3.0e-4 tokens/s 12345.6",
]
_ERROR = "node-3:1323:1345 [3] misc/shmutils.cc:72 NCCL WARN Error: failed to extend /dev/shm/nccl-H1dBqY to 9637892 bytes"
_WARN = [
    "node-{r}:1{r}23:1{r}45 [{r}] transport/net_ib.cc:1160 NCCL WARN NET/IB : Got async event : port error",
    "node-{r}:1{r}23:1{r}45 [{r}] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.{r}.{i}<{p}> failed : "
    "Connection refused",
    "node-{r}:1{r}23:1{r}45 [{r}] include/alloc.h:65 NCCL WARN Cuda failure 2 'out of memory'",
    "node-{r}:1{r}23:1{r}45 [{r}] transport/net_ib/connect.cc:372 NCCL WARN NET/IB: mlx5dv_create_qp failed to create QP: "
    "Cannot allocate memory",
    "node-{r}:1{r}23:1{r}45 [{r}] proxy.cc:{i} NCCL WARN [Proxy Service {i}] Failed to execute operation Setup from rank {p}, "
    "retcode 1",
    "node-{r}:1{r}23:1{r}45 [{r}] misc/shmutils.cc:{i} NCCL WARN Error: failed to extend /dev/shm/nccl-{p} to {p}{i} bytes",
]


def write_log(path: Path, mib: int) -> int:
    """Write a log of about ``mib`` MiB; returns its size in bytes."""
    block = "".join(_INFO[i % len(_INFO)].format(r=i % 8, n=(i + 1) % 8, c=i % 32) + "\n" for i in range(4096)).encode()
    target = mib << 20
    with open(path, "wb") as out:
        written = 0
        while written < target:
            out.write(block)
            written += len(block)
        out.write(b"NCCL version 2.21.5+cuda12.4\n" + _ERROR.encode() + b"\n")
        written += 100
    return path.stat().st_size


def write_warn_log(path: Path, mib: int) -> int:
    """Write a log of about ``mib`` MiB of NCCL WARN lines (:data:`_WARN`); returns its size in bytes."""
    target, written, i = mib << 20, 0, 0
    with open(path, "w", encoding="utf-8") as out:
        while written < target:
            line = _WARN[i % len(_WARN)].format(r=i % 8, i=i % 997, p=40000 + i % 20011) + "\n"
            out.write(line)
            written += len(line)
            i += 1
        out.write("NCCL version 2.21.5+cuda12.4\n" + _ERROR + "\n")
    return path.stat().st_size


def _child(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, peak resident MiB) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out = proc.stdout.read() if proc.stdout else b""
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{argv[1:4]} failed: {(proc.stderr.read() if proc.stderr else b'').decode()[:500]}")
    if "--log" in argv:
        report = json.loads(out)
        if not any(m["signature"] == "nccl-shm-no-space" for m in (report.get("evidence") or {}).get("matches", [])):
            raise SystemExit("the error line at the end of the log was not found")
    return wall, usage.ru_maxrss / 1024


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--no-target", action="store_true", help="print the figures without judging them")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "job.log"
        size = write_log(log, args.mib)
        snapshot = Path(tmp) / "snapshot.json"
        snapshot.write_text(json.dumps({"schema": "lingjun-check/snapshot/1", "origin": "snapshot",
                                        "shm": {"present": True, "size_bytes": 64 << 20}}))
        count = [sys.executable, "-c", f"import sys; print(sum(1 for _ in open({str(log)!r}, 'rb')))"]
        check = [sys.executable, "-m", "lingjun.checks", "--log", str(log), "--from", str(snapshot), "--format", "json"]
        counts = [_child(count) for _ in range(args.runs)]
        checks = [_child(check) for _ in range(args.runs)]
        warn_log = Path(tmp) / "warn.log"
        warn_mib = write_warn_log(warn_log, max(1, args.mib // 4)) / (1 << 20)
        warn = [sys.executable, "-m", "lingjun.checks", "--log", str(warn_log), "--from", str(snapshot), "--format", "json"]
        warn_s = statistics.median(_child(warn)[0] for _ in range(args.runs))
    mib = size / (1 << 20)
    count_s = statistics.median(c[0] for c in counts)
    check_s = statistics.median(c[0] for c in checks)
    rss = max(c[1] for c in checks)
    rate = mib / check_s
    print(f"log: {mib:.1f} MiB")
    print(f"python line count: {count_s:.2f} s ({mib / count_s:.0f} MiB/s)")
    print(f"lingjun-check --log: {check_s:.2f} s ({rate:.1f} MiB/s, {check_s / count_s:.1f}x the line count), "
          f"peak RSS {rss:.0f} MiB")
    print(f"lingjun-check --log, NCCL WARN lines only: {warn_mib:.1f} MiB in {warn_s:.2f} s ({warn_mib / warn_s:.1f} MiB/s)")
    missed = []
    if warn_mib / warn_s < TARGET_WARN_RATE:
        missed.append(f"WARN log rate {warn_mib / warn_s:.1f} MiB/s below {TARGET_WARN_RATE}")
    if args.mib >= 64 and rate < TARGET_RATE:
        missed.append(f"rate {rate:.1f} MiB/s below {TARGET_RATE}")
    if rss > TARGET_RSS_MIB:
        missed.append(f"peak RSS {rss:.0f} MiB above {TARGET_RSS_MIB}")
    for line in missed:
        print(f"target missed: {line}")
    return 1 if missed and not args.no_target else 0


if __name__ == "__main__":
    sys.exit(main())
