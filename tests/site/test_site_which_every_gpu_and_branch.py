"""One answer (issue 33): for every GPU of gpus.yaml and every branch of driver-branches.yaml, each release ``which``
recommends to run natively or through forward compatibility is checked by the checker on a container of that GPU and a
driver of that branch (the newest of the branch: ``<branch>.999.99``; the image's cuda-compat in use where the
recommendation is forward compatibility), and gives no error in the driver and CUDA areas. Blackwell GPUs on R580 are
recommended only releases built on CUDA 12.8 or newer."""

from __future__ import annotations

import datetime as dt

import pytest

from lingjun.checks.cli import load_data
from lingjun.checks.context import CheckContext, CheckOptions
from lingjun.checks.facts import Facts, GpuFacts
from lingjun.checks.knowledge.identify import ReleaseMatch
from lingjun.checks.runner import run_rules
from lingjun.generator.site.finder import which

DAY = dt.date(2026, 12, 3)


def _container(gpu, branch: int, forward: bool) -> Facts:
    """A container with one ``gpu`` on the newest driver of ``branch``; the image's cuda-compat library in use when
    ``forward``."""
    facts = Facts()
    version = f"{branch}.999.99"
    facts.driver.kernel_module_version = version
    facts.driver.device_nodes = ["/dev/nvidiactl", "/dev/nvidia0"]
    facts.driver.device_nodes_accessible = True
    facts.nvml.init_ok = True
    facts.nvml.driver_version = version
    facts.nvml.gpus = [GpuFacts(index=0, name=f"NVIDIA {gpu.name}", brand="nvidia", compute_capability=gpu.compute_capability)]
    if forward:
        facts.cuda.compat_dir = "/usr/local/cuda/compat"
        facts.libcuda.is_forward_compat = True
    return facts


@pytest.fixture(scope="module")
def recommended(real):
    """``{(release, gpu name, branch): kind}`` of every native or forward-compatible recommendation."""
    kb, _ = real
    out = {}
    for gpu in kb.gpus.gpus:
        for row in kb.driver_branches.branches:
            for rec in which(kb, f"R{row.branch}", gpu.name, today=DAY)["recommendations"]:
                if rec["kind"] in ("native", "forward-compat"):
                    out[(rec["release"], gpu.name, row.branch)] = rec["kind"]
    return out


def test_every_recommended_release_checks_without_a_driver_or_cuda_error(real, recommended):
    kb, _ = real
    kd = load_data(None)
    gpus = {g.name: g for g in kb.gpus.gpus}
    checked, failures = {}, []
    for (ref, name, branch), kind in sorted(recommended.items()):
        gpu = gpus[name]
        key = (ref, gpu.compute_capability, gpu.data_center, branch, kind)
        if key in checked:
            continue
        record = kd.release(ref)
        ctx = CheckContext(facts=_container(gpu, branch, kind == "forward-compat"), data=kd,
                           release=ReleaseMatch(ref=ref, how="option", score=None, record=record), options=CheckOptions())
        errors = [(f.rule, f.message.en) for f in run_rules(ctx)
                  if f.severity.value == "error" and f.area in ("driver", "cuda")]
        checked[key] = errors
        if errors:
            failures.append((ref, name, f"R{branch}", kind, errors))
    assert len(recommended) > 1000 and len(checked) > 300  # the grid is walked, not skipped
    assert failures == []


@pytest.mark.parametrize("gpu", ["B200", "GeForce RTX 5090"])
def test_blackwell_on_r580_is_recommended_only_releases_on_cuda_12_8_or_newer(real, recommended, gpu):
    kb, _ = real
    refs = {ref for (ref, name, branch) in recommended if name == gpu and branch == 580}
    assert refs, "no release is recommended at all"
    for ref in refs:
        record = next(r for r in kb.releases if r.ref == ref)
        major, minor = (int(p) for p in str(record.cuda).split(".")[:2])
        assert (major, minor) >= (12, 8), (ref, record.cuda)
