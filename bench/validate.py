"""Benchmark ``lingjun-kb validate`` on synthetic release trees.

Generates 100, 1,000 and 5,000 release records of realistic size (about 40
components and 5 usage notes each, with highlights, bug fixes, image tags,
a driver section and sources, ~9 KB of YAML) plus the catalogs, in a
temporary folder, then times the whole validation (loading, schema, every
gate rule) and reports peak memory.

Run:  .venv/bin/python bench/validate.py [--sizes 100 1000 5000] [--profile N]

Wall-clock seconds depend on what else the machine runs; CPU seconds of
this process are printed beside them.  Peak memory is measured with :mod:`tracemalloc` in a second, separate run
(tracing slows Python down, so it is not timed).  ``--profile N`` prints
the top functions of a cProfile run over N releases instead.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from lingjun.generator.checker_ids import checker_rule_ids
from lingjun.schema.gate.validate import validate

COMPONENTS = 40
NOTES = 5
FAMILIES = ("bench-nv-a", "bench-nv-b", "bench-nv-c", "bench-nv-d", "bench-nv-e")


def _text(en: str, zh: str) -> str:
    return f'{{en: "{en}", zh: "{zh}"}}'


def write_catalogs(root: Path) -> None:
    """families.yaml, components.yaml and the two reference tables."""
    (root / "reference").mkdir(parents=True)
    families = ["kind: families", "families:"]
    for family in FAMILIES:
        families += [
            f"  - id: {family}", f"    image_name: {family}",
            f"    title: {_text('Bench image ' + family, '基准测试镜像 ' + family)}",
            f"    description: {_text('A synthetic family for the benchmark.', '基准测试用的合成镜像系列。')}",
            "    vendor: Example", "    accelerator: nvidia-gpu", "    scenarios: [training, inference]",
            "    framework: pytorch", '    public_registry_pattern: "registry.example.com/bench/{image}:{tag}"',
            "    sources:", f'      - {{url: "https://example.com/{family}", language: en}}',
        ]
    (root / "families.yaml").write_text("\n".join(families) + "\n", encoding="utf-8")
    components = ["kind: components", "components:"]
    for i in range(COMPONENTS):
        components += [
            f"  - id: comp-{i}", f"    name: Component {i}", f"    published_names: [comp-{i}, Comp{i}]",
            "    layer: library", f"    description: {_text(f'Synthetic component {i}.', f'合成组件 {i}。')}",
            f"    pypi: [comp-{i}]", "    probe: {kind: pypi}",
        ]
    (root / "components.yaml").write_text("\n".join(components) + "\n", encoding="utf-8")
    (root / "reference" / "cuda-drivers.yaml").write_text(
        "kind: cuda-drivers\nsources:\n  - {id: rn, url: \"https://docs.nvidia.com/cuda/\", description: notes}\n"
        "toolkit_min_driver:\n"
        "  - {cuda: \"12.8\", release: \"12.8 GA\", toolkit: \"12.8.0\", linux_min_driver: \"570.26\", source: rn}\n"
        "minor_version_compat:\n  - {cuda_major: 12, min_branch: 525, min_driver: \"525.60.13\", sources: [rn]}\n"
        f"forward_compat_scope: {_text('Data center GPUs.', '数据中心 GPU。')}\n", encoding="utf-8")


def release_yaml(family: str, year: int, month: int, newest: bool) -> str:
    """One realistic release record."""
    version = f"{year:02d}.{month:02d}"
    lines = [
        "# yaml-language-server: $schema=../../schema/release.schema.json",
        "kind: release", f"family: {family}", f'version: "{version}"',
        f"status: {'current' if newest else 'superseded'}",
        f'released: {{date: "20{year:02d}-{month:02d}-28", kind: page-published, source: "https://example.com/{family}/{version}"}}',
        f"summary: {_text(f'Release {version} of {family} with updated libraries.', f'{family} 的 {version} 版本，更新了多个库。')}",
        "architectures: [amd64]",
        "image_tags:",
        f'  - tag: "{version}-serverless"',
        f'    reference: "registry.example.com/bench/{family}:{version}-serverless"',
        "    products: [acs, lingjun-multi-tenant]", "    not_for: [lingjun-single-tenant]",
        'cuda: "12.8"', 'python: "3.12.7+gc"',
        "driver:", "  vendor: nvidia", '  minimum: "570"', '  stated_as: "NVIDIA Driver release >= 570"',
        "  forward_compatibility:", '    - {branch: 535, minimum: "535.86"}', '    - {branch: 525, minimum: "525.85"}',
        "  must_upgrade_branches: [450, 460, 510, 520]",
        "component_list: complete",  # the page's whole list, as data.component-list-state asks a listing record to say
        "components:",
    ]
    serial = year * 12 + month
    for i in range(COMPONENTS):
        lines.append(f'  - {{id: comp-{i}, name: comp-{i}, version: "{i % 7}.{serial}.{i}+ali"}}')
    lines.append("highlights:")
    for i in range(3):
        lines += [f"  - text: {_text(f'Component {i} moves to a new version with fixes.', f'组件 {i} 升级到新版本并包含修复。')}",
                  f"    components: [comp-{i}]"]
    lines.append("bug_fixes:")
    lines += [f"  - text: {_text('Fixed an illegal memory access in MoE kernels.', '修复了 MoE 内核中的非法内存访问。')}",
              "    references:",
              '      - {project: vllm, kind: issue, url: "https://github.com/vllm-project/vllm/issues/13693", number: 13693}']
    lines.append("usage_notes:")
    for i in range(NOTES):
        lines += [f"  - id: note-{i}",
                  f"    text: {_text(f'Set NCCL_SOCKET_IFNAME to eth0 when a pod takes {i + 1} GPUs.', f'每个 Pod 使用 {i + 1} 张 GPU 时将 NCCL_SOCKET_IFNAME 设为 eth0。')}",
                  "    rule: env.nccl-socket-ifname-pod-size"]
    lines += ["quick_start:", f"  - title: {_text('Pull the image', '拉取镜像')}",
              f'    commands: ["docker pull registry.example.com/bench/{family}:{version}-serverless"]',
              "sources:", f'  - {{url: "https://example.com/{family}/{version}", language: en, last_updated: "2025-03-27 10:48:35"}}']
    return "\n".join(lines) + "\n"


def write_tree(root: Path, releases: int) -> int:
    """A releases tree with ``releases`` records spread over the bench families; returns bytes of YAML written."""
    write_catalogs(root)
    per_family = -(-releases // len(FAMILIES))
    written = 0
    total = 0
    for family in FAMILIES:
        folder = root / family
        folder.mkdir()
        count = min(per_family, releases - written)
        for n in range(count):
            year, month = 10 + n // 12, n % 12 + 1
            text = release_yaml(family, year, month, newest=(n == count - 1))
            (folder / f"{year:02d}.{month:02d}.yaml").write_text(text, encoding="utf-8")
            total += len(text.encode("utf-8"))
        written += count
    return total


def run(size: int) -> dict:
    """Time and measure one validation of ``size`` releases."""
    with tempfile.TemporaryDirectory(prefix="lingjun-bench-") as tmp:
        root = Path(tmp) / "releases"
        root.mkdir()
        yaml_bytes = write_tree(root, size)
        start, cpu_start = time.perf_counter(), time.process_time()
        result = validate([root], checker_rules=checker_rule_ids())
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        errors = [p.format() for p in result.problems if p.is_error]
        if errors:
            raise SystemExit("bench data does not validate:\n" + "\n".join(errors[:10]))
        tracemalloc.start()
        validate([root], checker_rules=checker_rule_ids())
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return {"size": size, "seconds": seconds, "cpu": cpu, "peak_mib": peak / 2**20, "yaml_mib": yaml_bytes / 2**20,
            "releases": len(result.kb.releases)}


def main(argv: list[str] | None = None) -> int:
    """Print one line per size: releases, YAML size, wall and CPU seconds, ms per release, peak traced memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--profile", type=int, metavar="N", help="profile one validation of N releases")
    args = parser.parse_args(argv)
    if args.profile:
        with tempfile.TemporaryDirectory(prefix="lingjun-bench-") as tmp:
            root = Path(tmp) / "releases"
            root.mkdir()
            write_tree(root, args.profile)
            profiler = cProfile.Profile()
            profiler.runcall(validate, [root])
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return 0
    print(f"{'releases':>8}  {'YAML MiB':>8}  {'seconds':>8}  {'CPU s':>6}  {'ms/release':>10}  {'peak MiB':>8}")
    for size in args.sizes:
        r = run(size)
        print(f"{r['releases']:>8}  {r['yaml_mib']:>8.1f}  {r['seconds']:>8.2f}  {r['cpu']:>6.2f}  {1000 * r['seconds'] / r['releases']:>10.2f}  "
              f"{r['peak_mib']:>8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
