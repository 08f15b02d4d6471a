"""Benchmark of the site build: the real records and synthetic corpora of N releases.

Prints the time of each stage (validate, render, mkdocs build), pages per
second, the whole build's wall-clock and CPU seconds, and the machine's load
average, for every run; with ``--repeat`` the median of the runs.  "render"
is the site model plus Jinja2 to Markdown for both languages (plus the JSON
API, feeds and jieba dictionary); MkDocs time is printed separately.

Targets (issue 11, section 3): the 200-release corpus built (validate +
render + mkdocs, both languages) in 12 s or less on a 2-core machine, and
the build time of a 1,000-release corpus linear in its page count: compare
the "s/page" column of both sizes.  The wall-clock time depends on what else
the machine runs: read the load and the CPU seconds beside it.

Usage: python bench/site.py [--releases releases] [--synthetic 200 1000] [--repeat 3]
                            [--no-mkdocs] [--no-real] [--sequential] [--profile N]

``--sequential`` builds the two languages one after the other (by default
the English site is built in a forked process while this one builds the
Chinese; the CPU seconds count both processes).  ``--profile N`` runs the build of the first synthetic corpus once under
cProfile and prints the N functions with the most cumulative time.

The synthetic releases are clones of the fixture record
``tests/site/fixtures/kb/training-nv-pytorch/25.07.yaml`` with versions
YY.MM from 10.01 on and component versions shifted per release, written as
YAML into a temporary folder so the validate stage loads and gates them like
real files.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "site" / "fixtures" / "kb"


def synthetic_kb(target: Path, count: int) -> Path:
    """Write the fixture KB plus ``count`` synthetic training-nv-pytorch releases under ``target``."""
    shutil.copytree(FIXTURE, target)
    family_dir = target / "training-nv-pytorch"
    for path in family_dir.glob("*.yaml"):
        path.unlink()
    known = target / "known-issues" / "vllm-moe-illegal-memory-access.yaml"
    known.unlink()
    template = yaml.safe_load((FIXTURE / "training-nv-pytorch" / "25.07.yaml").read_text(encoding="utf-8"))
    versions = [f"{10 + i // 12:02d}.{i % 12 + 1:02d}" for i in range(count)]
    for index, version in enumerate(versions):
        record = dict(template)
        record["version"] = version
        record["status"] = "current" if index == count - 1 else "superseded"
        tag = f"{version}-serverless"
        record["image_tags"] = [dict(template["image_tags"][0], tag=tag,
                                     reference=template["image_tags"][0]["reference"].replace("25.07-serverless", tag))]
        record["quick_start"] = [dict(template["quick_start"][0],
                                      commands=[template["quick_start"][0]["commands"][0].replace("25.07", version)])]
        components = []
        for n, entry in enumerate(template["components"]):
            entry = dict(entry)
            if entry["id"] in ("vllm", "ray", "peft", "deepspeed"):
                entry["version"] = f"0.{index // (n + 1)}.{index % 7}"
            components.append(entry)
        if index % 50 == 0:
            components = components[:-1]  # a removed component now and then
        record["components"] = components
        record["summary"] = {"en": f"Synthetic release {version} for the benchmark.", "zh": f"用于基准测试的合成版本 {version}。"}
        (family_dir / f"{version}.yaml").write_text(yaml.safe_dump(record, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


@dataclass
class Run:
    """One build: stage seconds (wall), CPU seconds of the whole build, pages (both languages), load before."""

    validate: float
    render: float
    mkdocs: float
    cpu: float
    pages: int
    load: float

    @property
    def total(self) -> float:
        """Wall-clock seconds of the whole build."""
        return self.validate + self.render + self.mkdocs


def _cpu() -> float:
    """CPU seconds of this process and of its ended child processes (the forked English build), user + system."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def build_once(releases: Path, mkdocs: bool, parallel: bool = True) -> Run:
    """Validate, render and (unless ``mkdocs`` is False) build ``releases`` into a temporary folder
    (the languages at once unless ``parallel`` is False)."""
    from lingjun.generator.site.build import build_site, load_validated, render_markdown

    load = os.getloadavg()[0]
    cpu = _cpu()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        kb = load_validated(releases)
        validate = time.perf_counter() - start
        if not mkdocs:
            start = time.perf_counter()
            _, pages = render_markdown(kb, Path(tmp) / "build", REPO)
            return Run(validate, time.perf_counter() - start, 0.0, _cpu() - cpu, pages, load)
        timings = build_site(releases, Path(tmp) / "site", build_dir=Path(tmp) / "build", config_dir=REPO, kb=kb,
                             parallel=parallel)
        return Run(validate, timings.render, timings.mkdocs, _cpu() - cpu, timings.pages, load)


def report(label: str, releases: int, runs: list[Run]) -> None:
    """Print every run and, for several, the medians."""
    print(f"{label}: {releases} releases, {runs[0].pages} pages (en+zh)")
    print("  run  validate  render  mkdocs   total s  cpu s  pages/s  ms/page  load")
    rows = [(str(i + 1), r) for i, r in enumerate(runs)]
    if len(runs) > 1:
        median = Run(*(statistics.median(getattr(r, f) for r in runs)
                       for f in ("validate", "render", "mkdocs", "cpu", "pages", "load")))
        rows.append(("med", median))
    for name, r in rows:
        print(f"  {name:>3} {r.validate:9.2f} {r.render:7.2f} {r.mkdocs:7.2f} {r.total:9.2f} {r.cpu:6.2f}"
              f" {r.pages / r.total:8.1f} {1000 * r.total / r.pages:8.1f} {r.load:5.2f}")
    sys.stdout.flush()


def profile(releases: Path, top: int) -> None:
    """One build of ``releases`` under cProfile; prints the ``top`` functions by cumulative time."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    build_once(releases, True, parallel=False)  # one process: the profile sees both languages
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=Path, default=REPO / "releases")
    parser.add_argument("--synthetic", type=int, nargs="+", default=[200, 1000], help="corpus sizes (releases)")
    parser.add_argument("--repeat", type=int, default=3, help="builds of each corpus (medians printed)")
    parser.add_argument("--no-mkdocs", action="store_true", help="skip the MkDocs stage")
    parser.add_argument("--sequential", action="store_true", help="build the languages one after the other")
    parser.add_argument("--no-real", action="store_true", help="skip the real records")
    parser.add_argument("--profile", type=int, metavar="N", help="profile one build of the first synthetic corpus")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    import logging

    logging.getLogger("jieba").setLevel(logging.WARNING)
    print(f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.profile:
        with tempfile.TemporaryDirectory() as tmp:
            profile(synthetic_kb(Path(tmp) / "kb", args.synthetic[0]), args.profile)
        return 0
    if args.releases.is_dir() and not args.no_real:
        try:
            from lingjun.generator.site.build import load_validated

            count = len(load_validated(args.releases).releases)
            report("real records", count, [build_once(args.releases, not args.no_mkdocs, not args.sequential) for _ in range(args.repeat)])
        except Exception as exc:  # the benchmark still measures the synthetic sets
            print(f"real records: not built ({type(exc).__name__}: {exc})")
    for count in args.synthetic:
        with tempfile.TemporaryDirectory() as tmp:
            kb_dir = synthetic_kb(Path(tmp) / "kb", count)
            runs = [build_once(kb_dir, not args.no_mkdocs, not args.sequential) for _ in range(args.repeat)]
            report(f"synthetic ({count} releases + fixtures)", count + 2, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
