"""Benchmark of the site build: the real records and 200 synthetic releases.

Prints the time of each stage (validate, render, mkdocs build) and pages per
second.  "render" is the site model plus Jinja2 to Markdown for both
languages (plus the JSON API, feeds and jieba dictionary); MkDocs time is
printed separately.  Target: render of 200 releases in both languages in
5 s or less on a 2-core machine.

Usage: python bench/site.py [--releases releases] [--synthetic 200] [--no-mkdocs]

The synthetic releases are clones of the fixture record
``tests/site/fixtures/kb/training-nv-pytorch/25.07.yaml`` with versions
YY.MM from 10.01 on and component versions shifted per release, written as
YAML into a temporary folder so the validate stage loads and gates them like
real files.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
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


def run(label: str, releases: Path, mkdocs: bool) -> None:
    from lingjun.generator.site.build import build_site, load_validated, render_markdown

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        kb = load_validated(releases)
        validate = time.perf_counter() - start
        start = time.perf_counter()
        _, pages = render_markdown(kb, Path(tmp) / "build", REPO)
        render = time.perf_counter() - start
        print(f"{label}: {len(kb.releases)} releases, {pages} pages (en+zh)")
        print(f"  validate   {validate:7.2f} s")
        print(f"  render     {render:7.2f} s   {pages / render:8.1f} pages/s")
        if mkdocs:
            timings = build_site(releases, Path(tmp) / "site", build_dir=Path(tmp) / "build2", config_dir=REPO, kb=kb)
            print(f"  mkdocs     {timings.mkdocs:7.2f} s   {timings.pages / timings.mkdocs:8.1f} pages/s (both languages)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=Path, default=REPO / "releases")
    parser.add_argument("--synthetic", type=int, default=200)
    parser.add_argument("--no-mkdocs", action="store_true", help="skip the MkDocs stage")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    import logging

    logging.getLogger("jieba").setLevel(logging.WARNING)
    if args.releases.is_dir():
        try:
            run("real records", args.releases, not args.no_mkdocs)
        except Exception as exc:  # the benchmark still measures the synthetic set
            print(f"real records: not built ({type(exc).__name__}: {exc})")
    with tempfile.TemporaryDirectory() as tmp:
        kb_dir = synthetic_kb(Path(tmp) / "kb", args.synthetic)
        run(f"synthetic ({args.synthetic} releases + fixtures)", kb_dir, not args.no_mkdocs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
