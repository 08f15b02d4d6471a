"""Benchmark: ``lingjun-check --from SNAPSHOT`` with very many installed distributions.

Usage (from the repository root, with the project installed)::

    .venv/bin/python bench/snapshot_scale.py [--sizes 10000 100000 300000] [--profile N] [--release REF]

For each size it writes a snapshot (schema lingjun-check/snapshot/1, the test
case C01 plus N synthetic distributions, each with a version, an installer, a
two ``Requires-Dist`` lines, one of them a pin on torch that the installed
torch satisfies, one of five lines unless ``--distinct-pins``) into a
temporary folder, runs ``python -m lingjun.checks --from FILE --format json``
in a child process and prints: distributions, snapshot size, wall seconds,
the child's CPU seconds (user + system, ``os.wait4``), microseconds of CPU
per distribution and the child's peak resident memory.  Time should grow
linearly: the last column stays about constant from 10,000 to 300,000 (before
the fix 300,000 took 96 s, most of it in per-object type introspection of
the snapshot reader).  ``--profile N`` prints the 25 costliest functions of
one in-process check of N distributions.  ``--release REF`` (e.g. training-nv-pytorch:25.10)
checks against that release record, which runs the release's rules too (before the index by
name in ``Facts.distribution`` 300,000 distributions took 169 s with a release, 11 s without).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASE = REPO / "tests" / "fixtures" / "cases" / "C01.json"


def write_snapshot(path: Path, size: int, distinct_pins: bool = False) -> int:
    """A snapshot of C01 plus ``size`` synthetic distributions; returns its size in bytes.

    Each pins torch with one of five lines, or with a line of its own (``distinct_pins``: the worst case,
    every line parsed by packaging).  300,000 of them take about 40 MiB, under the 64 MiB a snapshot may have.
    """
    data = json.loads(BASE.read_text(encoding="utf-8"))
    data["distributions"] += [
        {"name": f"bench-pkg-{i}", "version": f"{i % 9}.{i % 97}.{i % 13}", "installer": "pip",
         "requires": [f"bench-pkg-{(i + 1) % size}>=0.1", f"torch>=0.{i if distinct_pins else i % 5}; python_version >= '3.8'"]}
        for i in range(size)
    ]
    text = json.dumps(data)
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def run(size: int, distinct_pins: bool = False, release: "str | None" = None) -> dict:
    """Time one check of a snapshot with ``size`` distributions in a child process."""
    with tempfile.TemporaryDirectory(prefix="lingjun-bench-") as tmp:
        snapshot = Path(tmp) / "snapshot.json"
        nbytes = write_snapshot(snapshot, size, distinct_pins)
        env = dict(os.environ, NO_COLOR="1", LANG="C.UTF-8")
        env.pop("LINGJUN_RELEASE", None)
        start = time.perf_counter()
        extra = ["--release", release] if release else []
        child = subprocess.Popen([sys.executable, "-m", "lingjun.checks", "--from", str(snapshot), "--format", "json", *extra],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1, 2):
            raise SystemExit(f"lingjun-check failed on {size} distributions (exit {code}): {child.stderr.read().decode()[:500]}")
    cpu = usage.ru_utime + usage.ru_stime
    return {"size": size, "mib": nbytes / 2**20, "seconds": seconds, "cpu": cpu, "us_per_dist": 1e6 * cpu / size,
            "rss_mib": usage.ru_maxrss / 1024}


def main(argv: "list[str] | None" = None) -> int:
    """Print one line per size (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 300_000])
    parser.add_argument("--profile", type=int, metavar="N", help="profile one in-process check of N distributions")
    parser.add_argument("--release", metavar="REF", help="check against this release record (runs its rules too)")
    parser.add_argument("--distinct-pins", action="store_true", help="every distribution pins torch with a line of its own")
    args = parser.parse_args(argv)
    if args.profile:
        from lingjun.checks.cli import main as check

        with tempfile.TemporaryDirectory(prefix="lingjun-bench-") as tmp:
            snapshot = Path(tmp) / "snapshot.json"
            write_snapshot(snapshot, args.profile, args.distinct_pins)
            profiler = cProfile.Profile()
            with open(os.devnull, "w") as sink:
                stdout, sys.stdout = sys.stdout, sink
                try:
                    profiler.runcall(check, ["--from", str(snapshot), "--format", "json",
                                             *(["--release", args.release] if args.release else [])])
                finally:
                    sys.stdout = stdout
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0
    print(f"{'dists':>8}  {'MiB':>6}  {'seconds':>8}  {'CPU s':>6}  {'us/dist':>8}  {'RSS MiB':>8}")
    for size in args.sizes:
        r = run(size, args.distinct_pins, args.release)
        print(f"{r['size']:>8}  {r['mib']:>6.1f}  {r['seconds']:>8.2f}  {r['cpu']:>6.2f}  {r['us_per_dist']:>8.1f}  {r['rss_mib']:>8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
