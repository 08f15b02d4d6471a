"""driver.minimum maps the case release_verdict decides (lingjun.checks.core.release_compat.driver_case).

For every real release x a handful of driver branches that between them reach every case the real records
have (:data:`BRANCHES`; in each the thresholds inside it, its first and an up-to-date driver) x both GPU
classes, the rule's severity is the one :data:`BELOW` (written here, not read from the rule) gives the key of
``release_verdict`` for the same release, driver and GPU class: the finder and ``lingjun-kb which`` word the
same case the checker reports.  Only the records are loaded (no site model).
"""

from __future__ import annotations

import pytest

from lingjun.checks.context import CheckContext, CheckOptions, ReleaseMatch
from lingjun.checks.core.compat import parse_driver
from lingjun.checks.core.family_driver import driver_view
from lingjun.checks.core.release_compat import KEYS, branch_thresholds, release_verdict
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.report.findings import Severity
from lingjun.checks.rules import RULES, load_rules
from lingjun.checks.runner import run_rule
from lingjun.generator.bundle import compile_bundle
from lingjun.generator.site.build import load_validated

from site_kit import REPO

load_rules()

#: GPU class -> (NVML name, NVML brand, compute capability): Ampere, which every branch from R460 on drives
GPUS = {True: ("NVIDIA A100-SXM4-80GB", "nvidia", "8.0"), False: ("NVIDIA GeForce RTX 3090", "geforce", "8.6")}
#: R580, R570 (native; below 25.07's minimum, its cut-off text), R560 (must-upgrade), R550 (minor), R535 and R525
#: (forward compatibility admitted, below its minimum, data center only), R470 (forward unconfirmed, below the
#: floor), R450 (too old for Ampere on GeForce)
BRANCHES = (580, 570, 560, 550, 535, 525, 470, 450)
#: release_verdict's cases the rule reports before comparing (or without comparing) the driver
EARLY = {"ppu": Severity.skipped, "no-minimum": Severity.skipped, "no-driver": Severity.skipped, "predates-gpu": Severity.error}
#: below the release's minimum: info where forward compatibility runs it, warning where CUDA starts but the release
#: does not vouch for it (or does not say), error where CUDA cannot start or the release lists the branch to upgrade
BELOW = {"forward": Severity.info, "forward-unconfirmed": Severity.warning, "cut-off": Severity.warning,
         "below-release-minimum": Severity.warning, "forward-below-minimum": Severity.warning, "compat-not-shown": Severity.warning,
         "data-center-only": Severity.warning, "not-named": Severity.warning, "must-upgrade": Severity.error,
         "below-floor": Severity.error, "no-toolkit-row": Severity.error}


@pytest.fixture(scope="module")
def corpus():
    kb = load_validated(REPO / "releases")
    bundle = compile_bundle(kb)
    return KnowledgeData.from_dict(bundle), bundle


def _facts(record: dict, driver: str, data_center: bool) -> Facts:
    """A container snapshot as release_verdict reads the node: the image's cuda-compat is in use on a data center
    GPU when the record lists forward-compatible branches; otherwise the snapshot does not show cuda-compat."""
    name, brand, cc = GPUS[data_center]
    facts = Facts()
    facts.driver.kernel_module_version = facts.nvml.driver_version = driver
    facts.nvml.init_ok = True
    facts.nvml.gpus = [GpuFacts(index=0, name=name, brand=brand, compute_capability=cc)]
    if (record.get("driver") or {}).get("forward_compatibility"):
        facts.cuda.compat_dir = "/usr/local/cuda/compat"
        facts.libcuda.path = facts.libcuda.real_path = ("/usr/local/cuda/compat/libcuda.so.1" if data_center
                                                         else "/usr/lib/x86_64-linux-gnu/libcuda.so.1")
        facts.libcuda.is_forward_compat = data_center
    else:
        facts.coverage.partial = ["cuda-toolkit", "libcuda"]
    return facts


def _expected(view: dict, driver, key: str) -> Severity:
    """driver.minimum's severity for release_verdict's case ``key``: ok at or above the release's minimum."""
    if key in EARLY:
        return EARLY[key]
    if driver.satisfies_minimum(parse_driver(view["driver"]["minimum"])):
        return Severity.ok
    return BELOW[key]


def test_driver_minimum_reports_the_case_release_verdict_decides_for_every_release_branch_and_gpu_class(corpus):
    kd, bundle = corpus
    ref = bundle["cuda_drivers"]
    keys, compared = set(), 0
    for record in bundle["releases"]:
        view = driver_view(record, bundle["releases"])
        for branch in BRANCHES:
            points = {f"{branch}.0.0", f"{branch}.999.999"} | {v.text for v in branch_thresholds(view, ref, branch)}
            for point in sorted(points):
                driver = parse_driver(point)
                for data_center in (True, False):
                    verdict = release_verdict(view, driver, data_center, ref, GPUS[data_center][2])
                    ctx = CheckContext(facts=_facts(view, point, data_center), data=kd, options=CheckOptions(),
                                       release=ReleaseMatch(ref=f"{record['family']}:{record['version']}", how="option",
                                                            score=None, record=view))
                    [finding] = run_rule(RULES["driver.minimum"], ctx)
                    assert finding.severity == _expected(view, driver, verdict.key), (
                        record["version"], point, data_center, verdict.key, finding.message.en)
                    keys.add(verdict.key)
                    compared += 1
    assert compared > 500
    # every case the real records have, but the data gaps (no CUDA, no driver, no minimum, no reference row), an
    # unknown branch (release_verdict is not given the known branches here) and a release whose CUDA predates the GPU
    # (the GPUs here are Ampere, which every recorded CUDA builds for; cuda.compute-capability reports that case)
    assert keys == set(KEYS) - {"unknown-branch", "no-cuda", "no-driver", "no-minimum", "no-toolkit-row",
                                "cuda-predates-gpu"}, keys
