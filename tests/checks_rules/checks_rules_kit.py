"""Shared builders for the checker-rule tests: the compiled release data, synthetic records, contexts.

The bundle is compiled from the fixture knowledge base ``tests/fixtures/kb``,
a frozen copy of the ``releases/`` tree (NVIDIA reference tables, component
catalog, release records, known issues): a data change in ``releases/`` does
not change these tests.  A load problem in the fixture tree, or a fixture
record a test names that is not there, fails the test.  Synthetic records for
images that are not ours (NGC, NeMo, CUDA base images of the real-world cases)
are validated through the schema before use, so they have exactly the
bundle's shape.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any, Iterable, Optional

import pytest

from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
from lingjun.checks.facts import DistributionFacts, Facts, GpuFacts, TorchBuildFacts
from lingjun.checks.report.findings import Finding
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.rules import RULES, load_rules

load_rules()
from lingjun.checks.runner import run_rule, run_rules
from lingjun.schema.models import KnownIssue, ReleaseRecord

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "fixtures" / "cases"
FIXTURE_KB = ROOT / "tests" / "fixtures" / "kb"


@functools.lru_cache(maxsize=1)
def _fixture_bundle() -> dict:
    from lingjun.generator.bundle import compile_bundle
    from lingjun.schema.loader import load_knowledge_base

    kb, problems = load_knowledge_base(FIXTURE_KB)
    errors = [p for p in problems if p.is_error]
    assert not errors, f"the fixture knowledge base {FIXTURE_KB} does not load: {errors}"
    # built for a site, so every finding links at least to its rule's page there (assert_bilingual);
    # a bundle built without a site URL is tested in tests/checks_core/test_checks_core_bundle_gate_links.py
    return compile_bundle(kb, site_url="https://kb.example.org/")


def fixture_bundle() -> dict:
    """A deep copy of the bundle compiled from the fixture knowledge base; fails when its reference tables are empty."""
    bundle = copy.deepcopy(_fixture_bundle())
    assert bundle.get("cuda_drivers") and bundle.get("driver_branches"), (
        f"{FIXTURE_KB / 'reference'} compiles to no cuda_drivers / driver_branches")
    return bundle


def record(data: dict) -> dict:
    """A release record dict validated by the schema and dumped as in the bundle."""
    return ReleaseRecord.model_validate(data).model_dump(mode="json")


def issue(data: dict) -> dict:
    """A known issue validated by the schema and dumped as in the bundle."""
    return KnownIssue.model_validate(data).model_dump(mode="json")


def synthetic(family: str, version: str, source: str, **fields: Any) -> dict:
    """A minimal valid release record for an image that is not ours."""
    data = {
        "kind": "release",
        "family": family,
        "version": version,
        "status": "superseded",
        "summary": {"en": f"Test record for {family} {version}", "zh": f"{family} {version} 的测试记录"},
        "sources": [{"url": source, "language": "en"}],
    }
    data.update(fields)
    return record(data)


def comp(cid: str, version: str, **extra: Any) -> dict:
    """A component entry of a record."""
    return {"id": cid, "name": cid, "version": version, **extra}


def data(releases: Iterable[dict] = (), issues: Iterable[dict] = ()) -> KnowledgeData:
    """The fixture bundle plus extra records and known issues."""
    bundle = fixture_bundle()
    bundle["releases"].extend(releases)
    bundle["known_issues"].extend(issues)
    return KnowledgeData.from_dict(bundle)


def fixture_record(ref: str) -> dict:
    """A release record of the fixture knowledge base (``family:version``); fails when it is not there."""
    found = KnowledgeData.from_dict(fixture_bundle()).release(ref)
    if found is None:
        pytest.fail(f"{ref} is not in the fixture knowledge base {FIXTURE_KB}: copy its record from releases/ there")
    return found


def context(facts: Facts, kd: Optional[KnowledgeData] = None, rec: Optional[dict] = None, **options: Any) -> CheckContext:
    """A check context; ``rec`` is the applicable record (chosen ``how="option"``)."""
    ref = f"{rec['family']}:{rec['version']}" if rec else None
    if kd is None:
        kd = data()
        if rec is not None and kd.release(ref) is None:
            kd.raw["releases"].append(rec)
    match = ReleaseMatch(ref=ref, how="option" if rec else "none", score=None, record=rec)
    return CheckContext(facts=facts, data=kd, release=match, options=CheckOptions(**options))


def run(rule_id: str, ctx: CheckContext) -> list[Finding]:
    """Findings of one rule through the runner (so ``needs_gpu`` handling and isolation apply)."""
    import lingjun.checks.rules  # noqa: F401  (registers)

    return run_rule(RULES[rule_id], ctx)


def severities(findings: Iterable[Finding]) -> list[str]:
    """Severity values in order."""
    return [f.severity.value for f in findings]


def worst(findings: Iterable[Finding]) -> Optional[str]:
    """The most severe severity among findings (error > warning > info > ok > skipped)."""
    order = ["error", "warning", "info", "ok", "skipped"]
    values = [f.severity.value for f in findings]
    return min(values, key=order.index) if values else None


def assert_bilingual(findings: Iterable[Finding]) -> None:
    """Every finding has non-empty English and Chinese texts, the Chinese one with CJK characters, and links."""
    from lingjun.schema.fields import contains_cjk

    for f in findings:
        assert f.message.en.strip() and contains_cjk(f.message.zh), f
        if f.remedy:
            assert f.remedy.en.strip() and f.remedy.zh.strip(), f
        assert f.links, f


def load_case(case_id: str) -> Facts:
    """The snapshot of a real-world case."""
    return Facts.from_dict(json.loads((CASES / f"{case_id}.json").read_text(encoding="utf-8")))


def all_findings(ctx: CheckContext) -> list[Finding]:
    """Every rule through the runner."""
    return run_rules(ctx)


def gpu_facts(driver: Optional[str] = "570.124.06", gpus: Iterable[tuple] = (("NVIDIA H20", "nvidia", "9.0"),), **env: str) -> Facts:
    """Facts of a container with a driver (kernel module version, device nodes) and NVML GPUs ``(name, brand, cc)``."""
    facts = Facts()
    if driver:
        facts.driver.kernel_module_version = driver
        facts.driver.device_nodes = ["/dev/nvidiactl", "/dev/nvidia0"]
        facts.driver.device_nodes_accessible = True
        facts.nvml.init_ok = True
        facts.nvml.driver_version = driver
    facts.nvml.gpus = [GpuFacts(index=i, name=n, brand=b, compute_capability=cc) for i, (n, b, cc) in enumerate(gpus)]
    facts.env.update(env)
    return facts


def dist(name: str, version: Optional[str], **kw: Any) -> DistributionFacts:
    """An installed distribution."""
    return DistributionFacts(name=name, version=version, location=kw.pop("location", "/usr/local/lib/python3.12/dist-packages"), **kw)


def torch_build(version: str, cuda: Optional[str], **kw: Any) -> TorchBuildFacts:
    """torch/version.py facts."""
    return TorchBuildFacts(version=version, cuda=cuda, **kw)
