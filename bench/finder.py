"""Benchmark of the finder's build-time data: the real records and the synthetic corpus of bench/site.py.

Usage: python bench/finder.py [--releases releases] [--synthetic 200]

Prints, per corpus: releases, driver branches, the time of
:func:`lingjun.generator.site.finder.finder_data` (every release x branch x GPU class, through the
checker's decision) and the size of the JSON the finder page embeds (one language).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path



def _synthetic_kb(target: Path, count: int) -> Path:
    """bench/site.py's synthetic corpus (loaded by path: ``site`` is also a standard-library module)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_site", Path(__file__).resolve().parent / "site.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its @dataclass looks its module up there
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.synthetic_kb(target, count)


def run(label: str, releases: Path) -> None:
    from lingjun.generator.site.build import load_validated
    from lingjun.generator.site.finder import finder_data

    kb = load_validated(releases)
    start = time.perf_counter()
    data = finder_data(kb)
    elapsed = time.perf_counter() - start
    size = len(json.dumps(dict(data, reasons=[r[0] for r in data["reasons"]]), ensure_ascii=False, separators=(",", ":")))
    print(f"{label}: {len(data['releases'])} releases x {len(data['branches'])} branches x 2 GPU classes: "
          f"finder_data {elapsed:.2f} s, page data {size / 1024:.0f} KiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=Path, default=Path("releases"))
    parser.add_argument("--synthetic", type=int, default=200)
    args = parser.parse_args()
    run("real records", args.releases)
    with tempfile.TemporaryDirectory() as tmp:
        run(f"synthetic ({args.synthetic} releases + fixtures)", _synthetic_kb(Path(tmp) / "kb", args.synthetic))
    return 0


if __name__ == "__main__":
    sys.exit(main())
