"""Benchmark: ``lingjun-check fleet`` over 500, 1,000 and 2,000 node snapshots.

Usage (from the repository root, with the project installed)::

    .venv/bin/python bench/fleet.py [--sizes 500 1000 2000] [--runs 3] [--extra-dists 0] [--form files|stream]

The snapshots come from the simulated fleet of ``tests/checks_fleet/fleet_corpus.py``
(the same generator as the tests: the ``proprietary-x86`` fake root with RDMA,
GPUs, /dev/shm and limits filled in, six injected outliers); ``--extra-dists N``
adds N installed distributions to every snapshot, for snapshots of a realistic
size.  For each size the snapshots are written to a temporary folder (``files``:
one ``*.json`` per node) or one ``kubectl logs --prefix --timestamps`` style file
(``stream``), then ``python -m lingjun.checks fleet PATH --format json`` runs
``--runs`` times in a child process; the median wall time (``time.perf_counter``),
the child's CPU time and peak resident memory (``os.wait4``), and the time per
node are printed.  The snapshots are generated in a separate process, so the
measured child does not inherit the generator's memory (``ru_maxrss`` counts
what a forked child held before ``exec``).  Target: 2,000 snapshots in at most 5 s, growing linearly
(the cost per added node, printed last, about constant; the per-node column
falls with size because start-up and the few rule runs are a fixed cost).  Exit code 1 when the target is missed.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "checks_fleet"))
import fleet_corpus  # noqa: E402

TARGET_SECONDS = 5.0
TARGET_NODES = 2000


def _run(argv: "list[str]") -> "tuple[float, float, int, int, bytes]":
    """(wall s, CPU s, peak RSS KiB, exit code, stdout) of one child."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=str(REPO))
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode, out


def _write(path: Path, size: int, extra: int, form: str) -> int:
    """Write the corpus of ``size`` nodes at ``path`` (a folder of files or one log file); returns its bytes."""
    snaps = fleet_corpus.node_snapshots(size, extra_distributions=extra)
    if form == "files":
        fleet_corpus.write_files(path, snaps)
        return sum(p.stat().st_size for p in path.iterdir())
    path.write_text("\n".join(fleet_corpus.kubectl_log_lines(snaps)) + "\n", encoding="utf-8")
    return path.stat().st_size


def main() -> int:
    if sys.argv[1:2] == ["--write"]:  # the generator's own process (see the module docstring)
        _, _, path, size, extra, form = sys.argv
        print(_write(Path(path), int(size), int(extra), form))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--extra-dists", type=int, default=0)
    parser.add_argument("--form", choices=["files", "stream"], default="files")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}; cpus: {os.cpu_count()}; form: {args.form}; extra distributions: {args.extra_dists}")
    print(f"{'nodes':>6} {'MiB':>7} {'median s':>9} {'cpu s':>7} {'ms/node':>8} {'peak MiB':>9} {'rule runs':>9} {'exit':>4}")
    results = {}
    cpu_at = {}
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / ("nodes" if args.form == "files" else "logs.txt")
            written = subprocess.run([sys.executable, __file__, "--write", str(path), str(size), str(args.extra_dists), args.form],
                                     capture_output=True, text=True, check=True)
            nbytes = int(written.stdout.strip())
            walls, cpus, peaks = [], [], []
            status, checked = None, None
            for _ in range(args.runs):
                wall, cpu, peak, status, out = _run([sys.executable, "-m", "lingjun.checks", "fleet", str(path), "--format", "json"])
                walls.append(wall)
                cpus.append(cpu)
                peaks.append(peak)
                report = json.loads(out)
                checked = report["summary"]["checked"]
                assert report["summary"]["nodes"] == size, report["summary"]
            median = statistics.median(walls)
            results[size] = median
            cpu_at[size] = statistics.median(cpus)
            print(f"{size:>6} {nbytes / 2**20:>7.1f} {median:>9.2f} {statistics.median(cpus):>7.2f} {1000 * median / size:>8.2f} "
                  f"{max(peaks) / 1024:>9.0f} {checked:>9} {status:>4}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    sizes = sorted(results)
    for small, large in zip(sizes, sizes[1:]):  # linear growth: about the same cost per added node
        print(f"added nodes {small}->{large}: {1000 * (results[large] - results[small]) / (large - small):.2f} ms/node wall, "
              f"{1000 * (cpu_at[large] - cpu_at[small]) / (large - small):.2f} ms/node CPU")
    if TARGET_NODES in results:
        ok = results[TARGET_NODES] <= TARGET_SECONDS
        print(f"target: {TARGET_NODES} snapshots in <= {TARGET_SECONDS:.0f} s: {'met' if ok else 'MISSED'} ({results[TARGET_NODES]:.2f} s)")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
