"""Benchmark: ``lingjun-check fleet`` over realistic ``--collect`` snapshots, against a plain ``json.load`` floor.

Usage (from the repository root, with the project installed)::

    .venv/bin/python bench/fleet.py [--identical 2000] [--distinct 10000] [--packages 520] [--runs 1]
                                    [--form files|stream] [--no-target]

The snapshots are what ``lingjun-check --collect FILE`` writes in a training image
(``tests/checks_fleet/fleet_corpus.py``, :func:`realistic_base`: the real probe of the
``proprietary-x86`` fake root with RDMA, GPUs, /dev/shm and limits filled in, and 520
installed distributions with their ``Requires-Dist`` lines; about 236 KB each, indented
as the writer indents, ``"node"`` followed by ``"check_options"`` as ``--collect``
writes them), six injected outliers in every fleet.  Two fleets:

* ``identical``: nodes that differ only in their name, collection time and probe durations;
* ``distinct``: every node's text is its own (the ``/dev/shm`` bytes in use too, which a rule's
  message shows, so a node cannot reuse another's rule runs as a whole).

For each fleet the files are written to a temporary folder (``files``: one ``*.json``
per node) or one ``kubectl logs --prefix --timestamps`` file (``stream``), then two child
processes run ``--runs`` times each: the floor, a plain ``json.load`` of every file (or
``json.loads`` of every line), and ``python -m lingjun.checks fleet PATH --format json``.
Printed: wall and CPU seconds (``os.wait4``), peak resident memory, the distinct snapshots
checked, the rules run and the rule results reused, and the ratio fleet / floor of CPU time.  Targets: identical within 3x the floor's CPU time, distinct within 5x;
memory bounded by the report, not the input (peak resident memory above the floor's,
printed beside the input's and the report's size).  Exit code 1 when a target is missed
(``--no-target``: only printed).
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

TARGETS = {"identical": 3.0, "distinct": 5.0}
#: stand-ins in the templates for each node's probe durations and /dev/shm bytes in use (numbers no snapshot holds)
_SECONDS, _USED = 987650000, 876543210123

#: the floor: read every snapshot with the standard library and nothing else
FLOOR = r"""
import json, os, sys
path = sys.argv[1]
if os.path.isdir(path):
    for name in sorted(os.listdir(path)):
        with open(os.path.join(path, name), encoding="utf-8") as handle:
            json.load(handle)
else:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            at = line.find("{")
            if at >= 0:
                json.loads(line[at:])
"""


def _run(argv: "list[str]", out: Path) -> "tuple[float, float, int, int]":
    """(wall s, CPU s, peak RSS KiB, exit code) of one child, its standard output written to ``out``.

    The report goes to a file and only its summary is read back (:func:`_summary`): a child's peak resident memory
    (``ru_maxrss``) starts at what this process held when it was forked, so this process must stay small."""
    start = time.perf_counter()
    with out.open("wb") as handle:
        proc = subprocess.Popen(argv, stdout=handle, stderr=subprocess.DEVNULL, cwd=str(REPO))
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def _summary(path: Path) -> dict:
    """The ``summary`` object of a fleet JSON report, read without loading the whole report."""
    import mmap

    with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as view:
        at = view.find(b'"summary":')
        text = view[at + len(b'"summary":'):at + 4096].decode("utf-8", "replace")
    return json.JSONDecoder().raw_decode(text)[0]


def _write(path: Path, size: int, kind: str, packages: int, form: str) -> int:
    """Write a fleet of ``size`` nodes at ``path`` (a folder of files or one log file); returns its bytes.

    Each node's text is its variant's template (the base or an outlier, written once with ``json.dumps(indent=2)``)
    with the node's own values put in, so writing 10,000 nodes takes seconds."""
    import fleet_corpus

    base = fleet_corpus.realistic_base(packages)
    variants = fleet_corpus.node_snapshots(max(size, 12), base=base, distinct=False)
    names = fleet_corpus.outlier_names(max(size, 12))
    outlier_of = {name: kind_ for kind_, items in names.items() for name in items}
    templates: dict[str, str] = {}
    for data in variants:
        variant = outlier_of.get(data["node"]["name"], "base")
        if variant in templates:
            continue
        data = json.loads(json.dumps(data))
        data["collected_at"] = "@COLLECTED@"
        data["node"]["name"] = "@NODE@"
        for k, probe in enumerate(data["probes"]):
            probe["seconds"] = _SECONDS + k
        data["shm"]["used_bytes"] = _USED
        # as --collect FILE writes (indented) or --collect - (one line)
        templates[variant] = (json.dumps(data, indent=2, ensure_ascii=False) if form == "files"
                              else json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    form_files = form == "files"
    if form_files:
        path.mkdir(parents=True)
        total = 0
    out = None if form_files else path.open("w", encoding="utf-8")
    try:
        for i in range(size):
            name = fleet_corpus.node_name(i)
            text = templates[outlier_of.get(name, "base")] if size >= 12 else templates["base"]
            text = text.replace("@COLLECTED@", f"2026-11-30T{(i // 3600) % 24:02d}:{(i // 60) % 60:02d}:{i % 60:02d}Z").replace("@NODE@", name)
            for k in range(len(base["probes"])):
                text = text.replace(str(_SECONDS + k), f"{0.001 * ((i + k) % 17):.3f}", 1)
            text = text.replace(str(_USED), str(4096 * i if kind == "distinct" else 0), 1)
            if form_files:
                (path / f"{name}.json").write_text(text + "\n", encoding="utf-8")
                total += len(text) + 1
            else:
                line = text
                out.write(f"[pod/lingjun-check-{i}-x7k2p/check] 2026-11-30T10:00:{i % 60:02d}.123456789Z {line}\n")
                out.write(f"[pod/lingjun-check-{i}-x7k2p/check] 2026-11-30T10:00:{i % 60:02d}.123456789Z lingjun-check 0.1.0  (facts: live)\n")
    finally:
        if out is not None:
            out.close()
    return total if form_files else path.stat().st_size


def _measure(path: Path, size: int, runs: int) -> dict:
    floor, fleet = [], []
    checked = status = report_bytes = None
    out = path.parent / "report.json"
    for _ in range(runs):
        floor.append(_run([sys.executable, "-c", FLOOR, str(path)], out))
        result = _run([sys.executable, "-m", "lingjun.checks", "fleet", str(path), "--format", "json"], out)
        fleet.append(result)
        summary = _summary(out)
        assert summary["nodes"] == size, summary
        checked, status, report_bytes = summary["checked"], result[3], out.stat().st_size
        rules = f"{summary.get('rule_runs', '-')}/{summary.get('rule_results_reused', '-')}"
    return {"floor_wall": statistics.median(r[0] for r in floor), "floor_cpu": statistics.median(r[1] for r in floor),
            "floor_peak": max(r[2] for r in floor) / 1024, "wall": statistics.median(r[0] for r in fleet),
            "cpu": statistics.median(r[1] for r in fleet), "peak": max(r[2] for r in fleet) / 1024, "checked": checked,
            "exit": status, "report": report_bytes / 2**20, "rules": rules}


def main() -> int:
    if sys.argv[1:2] == ["--write"]:  # the generator's own process: the measured children inherit nothing of it
        _, _, path, size, kind, packages, form = sys.argv
        print(_write(Path(path), int(size), kind, int(packages), form))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--identical", type=int, default=2000, help="nodes of the identical fleet (0: skip it)")
    parser.add_argument("--distinct", type=int, default=10000, help="nodes of the all-distinct fleet (0: skip it)")
    parser.add_argument("--packages", type=int, default=520, help="installed distributions per snapshot")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--form", choices=["files", "stream"], default="files")
    parser.add_argument("--no-target", action="store_true", help="print the targets, never fail on them")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}; cpus: {os.cpu_count()}; form: {args.form}; packages: {args.packages}")
    print(f"{'fleet':>9} {'nodes':>6} {'KB/node':>8} {'floor s':>8} {'fleet s':>8} {'floor cpu':>9} {'fleet cpu':>9} "
          f"{'x floor':>7} {'checked':>7} {'rules run/reused':>16} {'floor MiB':>9} {'peak MiB':>8} {'input MiB':>9} {'report MiB':>10}")
    missed = []
    for kind in ("identical", "distinct"):
        size = getattr(args, kind)
        if size <= 0:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / ("nodes" if args.form == "files" else "logs.txt")
            written = subprocess.run([sys.executable, __file__, "--write", str(path), str(size), kind, str(args.packages), args.form],
                                     capture_output=True, text=True, check=True)
            nbytes = int(written.stdout.strip())
            m = _measure(path, size, args.runs)
        ratio = m["cpu"] / m["floor_cpu"] if m["floor_cpu"] else float("inf")
        print(f"{kind:>9} {size:>6} {nbytes / size / 1000:>8.1f} {m['floor_wall']:>8.2f} {m['wall']:>8.2f} {m['floor_cpu']:>9.2f} "
              f"{m['cpu']:>9.2f} {ratio:>7.2f} {m['checked']:>7} {m['rules']:>16} {m['floor_peak']:>9.0f} {m['peak']:>8.0f} {nbytes / 2**20:>9.1f} "
              f"{m['report']:>10.2f}")
        target = TARGETS[kind]
        ok = ratio <= target
        print(f"  target {kind}: fleet CPU within {target:.0f}x the json.load floor: {'met' if ok else 'MISSED'} ({ratio:.2f}x); "
              f"memory above the floor's {m['peak'] - m['floor_peak']:.0f} MiB for a {m['report']:.2f} MiB report "
              f"of a {nbytes / 2**20:.0f} MiB input ({(m['peak'] - m['floor_peak']) / max(m['report'], 0.01):.1f}x the report)")
        if not ok:
            missed.append(kind)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 1 if missed and not args.no_target else 0


if __name__ == "__main__":
    sys.exit(main())
