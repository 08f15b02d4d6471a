"""Benchmark: ``lingjun-kb import`` on every page copy in the repository.

Usage (from the repository root, with the project installed)::

    .venv/bin/python bench/import_page.py [--runs 5] [--seeds tests/fixtures/seeds] [--no-target]

Drafts each page of ``tests/fixtures/pages/`` and the three seed pages of
``tests/fixtures/seeds/`` with :func:`lingjun.generator.importer.import_page` against the real
``releases/`` (the knowledge base is loaded once, as the command does), ``--runs``
times, and prints the median time per page and the slowest page.  It also times
one whole ``lingjun-kb import`` command in a child process (interpreter start-up,
loading the knowledge base, writing a draft into a temporary folder).
Target: every page drafted in well under a second; exit code 1 when a page's
median reaches 1 s (``--no-target``: the figures only, as the test suite's smoke test prints them on a
machine busy with other tests).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    """Print the timings; exit 1 when a page's median reaches one second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seeds", type=Path, default=REPO / "tests" / "fixtures" / "seeds")
    parser.add_argument("--no-target", action="store_true", help="print the figures without judging the 1 s target")
    args = parser.parse_args(argv)

    from lingjun.generator.importer import import_page
    from lingjun.generator.importer._errors import ImportRefused

    pages = sorted((REPO / "tests" / "fixtures" / "pages").glob("*.md"))
    pages = [p for p in pages if p.name != "README.md"]
    if args.seeds.is_dir():
        pages += sorted(args.seeds.glob("*.txt"))
    releases = REPO / "releases"
    medians, refused = {}, 0
    for page in pages:
        try:
            import_page(page, releases)  # warm (module imports) and refusals (index pages) leave the timing
        except ImportRefused:
            refused += 1
            continue
        runs = []
        for _ in range(args.runs):
            start = time.perf_counter()
            import_page(page, releases)
            runs.append(time.perf_counter() - start)
        medians[page.name] = statistics.median(runs)
    slowest = max(medians, key=medians.get)
    print(f"import_page: {len(medians)} pages ({refused} refused as not one release's notes), median per page {statistics.median(medians.values()) * 1000:.1f} ms, "
          f"slowest {slowest} {medians[slowest] * 1000:.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "import", str(REPO / "tests" / "fixtures" / "pages" / slowest if (REPO / "tests" / "fixtures" / "pages" / slowest).exists() else pages[0]), "-o",
                        str(Path(tmp) / "draft.yaml")], cwd=REPO, check=False, capture_output=True)
        print(f"lingjun-kb import (whole command, one page): {(time.perf_counter() - start) * 1000:.0f} ms")
    return 1 if medians[slowest] >= 1.0 and not args.no_target else 0


if __name__ == "__main__":
    sys.exit(main())
