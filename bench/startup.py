"""Benchmark: what each piece of the zipapp's start-up machinery earns on a full check.

Usage (from the repository root, with the project installed)::

    .venv/bin/python bench/startup.py [--runs 30] [--cache DIR] [--min-dists 200] [--python PY]

It builds ``lingjun-check.pyz`` from the working tree five times, identical but
for the ``__main__.py`` entry point, and runs ``--format json`` with each in turn
(alternating, ``--runs`` times) in the benchmark virtual environment of
``bench/check.py`` (torch and 200+ distributions):

* ``as built``: the archive as ``lingjun-kb bundle`` writes it, with every trick of
  :mod:`lingjun.checks._startup` (collector paused and frozen at exit, one-pass archive finder,
  precompiled ``@dataclass`` methods);
* ``no dataclass code``: without the precompiled ``@dataclass`` methods;
* ``no archive loader``: without the one-pass archive finder (plain zipimport);
* ``no gc pause``: the cyclic garbage collector running throughout;
* ``plain zipimport``: only the build's bytecode and the collector paused by ``cli.main``.

Every variant carries the build's ``.pyc`` files.  Prints the median wall and
CPU time of each and the difference to ``as built``; exit code 0.  ``--python PY`` runs them with that
interpreter instead of the benchmark venv (none is made: a quick run, as the test suite's smoke test does).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check import default_cache, ensure_venv, measure  # noqa: E402

from lingjun.generator import zipapp  # noqa: E402

_IMPORT = "import lingjun.checks._startup as startup\n"
_GC = "startup.pause_collection()\n"
_NO_GC = "startup.pause_collection = lambda: False  # cli.main() takes this one: the collector keeps running\n"
_LOADER = "finder = startup.install_archive_finder(getattr(__loader__, 'archive', ''))\n"
_DATACLASS_CODE = (
    "import os\n"
    "reader = finder if finder is not None else __loader__\n"
    "try:\n    code = reader.get_data(os.path.join(getattr(__loader__, 'archive', ''), startup.MEMBER))\n"
    "except OSError:\n    code = None\nstartup.install_dataclass_code(code)\n"
)
_MAIN = "from lingjun.checks.cli import main\n"
_EXIT_FROZEN = "startup.exit_frozen(main())\n"

VARIANTS = {
    "as built": None,
    "no dataclass code": _IMPORT + _GC + _LOADER + _MAIN + _EXIT_FROZEN,
    "no archive loader": _IMPORT + _GC + "finder = None\n" + _DATACLASS_CODE + _MAIN + _EXIT_FROZEN,
    "no gc pause": _IMPORT + _NO_GC + _LOADER + _DATACLASS_CODE + _MAIN + "import sys\nsys.exit(main())\n",
    "plain zipimport": "import sys\n" + _MAIN + "sys.exit(main())\n",
}


def build(cache: Path) -> dict[str, Path]:
    """One archive per variant under ``cache``; ``{variant: path}``."""
    # compiled once (with the dataclass texts, a child interpreter): the variants differ only in __main__
    built = zipapp.with_bytecode(zipapp.zip_entries())
    out = {}
    for index, (name, main) in enumerate(VARIANTS.items()):
        chosen = built if main is None else sorted(
            [(n, c) for n, c in built if n not in ("__main__.py", "__main__.pyc")]
            + [("__main__.py", main.encode()), zipapp.pyc_entry("__main__.py", main.encode())])
        target = cache / f"startup-{index}.pyz"
        zipapp.build_zipapp(target, sorted(chosen))
        out[name] = target
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--cache", type=Path, default=default_cache())
    parser.add_argument("--min-dists", type=int, default=200)
    parser.add_argument("--python", type=Path, default=None, help="run with this interpreter, no benchmark venv made")
    args = parser.parse_args(argv)
    # absolute, not resolved (a venv's interpreter is a link): the runs start in /
    python = args.python.absolute() if args.python else ensure_venv(args.cache, args.min_dists)
    archives = build(args.cache)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in archives}
    started = time.perf_counter()
    for _ in range(args.runs):
        for name, pyz in archives.items():
            wall, _rss, status, cpu = measure([str(python), str(pyz), "--format", "json"])
            if status not in (0, 1, 2):
                print(f"{name}: exit {status}", file=sys.stderr)
                return 2
            times[name].append((wall, cpu))
    print(f"{args.runs} runs each, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"1-min load average {os.getloadavg()[0]:.2f}, {time.perf_counter() - started:.0f} s")
    base = statistics.median(w for w, _ in times["as built"])
    for name, runs in times.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"  {name:20} wall median {wall * 1000:7.1f} ms   CPU median {cpu * 1000:7.1f} ms   "
              f"vs as built {100 * (wall - base) / base:+6.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
