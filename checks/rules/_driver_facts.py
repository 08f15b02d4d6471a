"""Driver- and CUDA-related readings of the facts shared by the driver and cuda rules.

Private helper of the rule modules: which kernel driver, which image CUDA,
whether cuda-compat libraries are in the image or on the loader path.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from lingjun.checks.core.compat import (
    GPU_DATACENTER,
    forward_admitted,
    gpu_class,
    is_compat_path,
    parse_cuda,
    parse_driver,
    toolkit_min_driver,
)
from lingjun.checks.coverage import OBSERVED, source_label, state
from lingjun.checks.report.findings import Text
from lingjun.checks.context import CheckContext
from lingjun.checks.core.driver_target import last_branch_for_cc, upgrade_target
from lingjun.checks.core.gpu_arch import min_cuda_for_cc, parse_cc
from lingjun.checks.core.gpu_models import compute_capability_from_name
from lingjun.checks.core.release_compat import driver_predates_gpu
from lingjun.checks.facts import Facts
from lingjun.checks.core.versions import CudaVersion, DriverVersion

__all__ = ["kernel_driver", "image_cuda", "compat_present", "compat_on_loader_path", "driver_cuda", "RELEASE_RECORD",
           "release_minimum", "bounded_by_release", "DRIVER_VERSION", "driver_predates_gpus", "release_admits_forward",
           "driver_fix", "driver_fix_text"]


def kernel_driver(facts: Facts) -> Optional[DriverVersion]:
    """The kernel driver version (/proc, then NVML, then nvidia-smi), None when absent or unreadable."""
    return parse_driver(facts.driver_version)


#: where the image's CUDA came from when the release record states it
RELEASE_RECORD = Text("release record", "发布记录")
#: what is missing when no driver version was read (:func:`lingjun.checks.coverage.not_shown`)
DRIVER_VERSION = Text("the driver's version", "驱动版本")


def image_cuda(ctx: CheckContext) -> tuple[Optional[CudaVersion], Text]:
    """The image's CUDA: the release record's ``cuda``, else the toolkit found in the image; with where it came from
    (:func:`lingjun.checks.coverage.source_label`: "version.json" live, the snapshot field or the collect_env line otherwise)."""
    cuda = parse_cuda(ctx.record.cuda) if ctx.record is not None else None
    if cuda is not None:
        return cuda, RELEASE_RECORD
    facts = ctx.facts
    for text, field, live in ((facts.cuda.toolkit_version, "cuda.toolkit_version", "version.json"),
                              (facts.cuda.env_cuda_version, "cuda.env_cuda_version", "CUDA_VERSION")):
        cuda = parse_cuda(text)
        if cuda is not None:
            return cuda, source_label(facts, field, Text(live, live))
    return None, Text("", "")


def compat_present(facts: Facts) -> Optional[bool]:
    """Whether the image carries cuda-compat libraries.

    True on any sign of them; False only when the CUDA toolkit and libcuda were observed in full and none was
    found; None (not known) when the input does not show them (a collect_env paste, a snapshot without those sections).
    """
    if facts.cuda.compat_dir or facts.cuda.compat_libcuda_version or facts.libcuda.is_forward_compat:
        return True
    if any(is_compat_path(c) for c in facts.libcuda.candidates):
        return True
    if state(facts, "cuda-toolkit") == OBSERVED and state(facts, "libcuda") == OBSERVED:
        return False
    return None


def compat_on_loader_path(facts: Facts) -> list[str]:
    """cuda-compat directories on ``LD_LIBRARY_PATH`` or in ``/etc/ld.so.conf.d`` (with the conf file name)."""
    found = [d for d in facts.loader.ld_library_path if is_compat_path(d)]
    for conf in facts.loader.ld_so_conf:
        for d in conf.dirs:
            if is_compat_path(d):
                found.append(f"{d} ({conf.file})")
    return found


def driver_cuda(ctx: CheckContext, max_native) -> tuple[Optional[CudaVersion], str]:
    """The CUDA version the host driver supports natively, with its source.

    NVML's ``cuda_driver_version`` or nvidia-smi's "CUDA Version" first, then
    ``cuDriverGetVersion``, then the kernel driver looked up in Table 3
    (``max_native(driver, ref)``).  When the resolved libcuda is a compat
    library the reported numbers are the compat driver's, so only Table 3 is used.
    """
    facts = ctx.facts
    compat = bool(facts.libcuda.is_forward_compat)
    if not compat and isinstance(facts.nvml.cuda_driver_version, int) and facts.nvml.cuda_driver_version > 0:
        try:
            return CudaVersion.from_api_int(facts.nvml.cuda_driver_version), "NVML"
        except ValueError:
            pass
    smi = None if compat else parse_cuda(facts.nvidia_smi.cuda_version)
    if smi is not None:
        return smi, "nvidia-smi"
    api = facts.libcuda.driver_api_version
    if isinstance(api, int) and api > 0 and not compat:
        try:
            return CudaVersion.from_api_int(api), "cuDriverGetVersion"
        except ValueError:
            pass
    driver = kernel_driver(facts)
    if driver is not None:
        native = max_native(driver, ctx.data.cuda_drivers)
        if native is not None:
            return native, "Table 3"
    return None, ""


def release_minimum(ctx: CheckContext) -> Optional[DriverVersion]:
    """The NVIDIA driver minimum the applicable release record states (``driver.minimum``), None without one."""
    driver = ctx.record.driver if ctx.record is not None else None
    return parse_driver(driver.minimum) if driver is not None else None


def bounded_by_release(ctx: CheckContext, decision):
    """``decision`` (:class:`~lingjun.checks.core.compat.CompatDecision`) with ``required`` raised to the release's own
    minimum when that is higher: a remedy never suggests a driver the release itself does not accept."""
    minimum = release_minimum(ctx)
    if minimum is None or decision is None:
        return decision
    if decision.required is None or not decision.required.satisfies_minimum(minimum):
        return dataclasses.replace(decision, required=minimum)
    return decision


def driver_predates_gpus(ctx: CheckContext, driver: DriverVersion) -> Optional[tuple[str, str, str, str]]:
    """The first GPU the kernel ``driver`` is too old to drive at all: ``(gpu name, en, zh, minimum driver)``, or None.

    The GPU's compute capability comes from NVML (or the bundle's GPU table by its name); the decision is
    :func:`lingjun.checks.core.release_compat.driver_predates_gpu` (a driver drives an architecture only when its
    native CUDA is at least the CUDA that introduced it).  On a live node such a GPU would not show up at all; a
    snapshot or a paste can still name one.
    """

    for gpu in ctx.facts.gpus:
        cc = gpu.compute_capability or compute_capability_from_name(gpu.name, ctx.data.gpus)
        found = driver_predates_gpu(driver, cc, ctx.data.cuda_drivers)
        if found is not None:
            return (gpu.name or f"GPU {gpu.index}",) + found
    return None


def release_admits_forward(ctx: CheckContext, driver: DriverVersion, decision) -> bool:
    """Whether the release admits ``driver``'s branch for forward compatibility on these GPUs
    (:func:`forward_admission` names who admits it)."""
    return forward_admission(ctx, driver, decision) is not None


def forward_admission(ctx: CheckContext, driver: DriverVersion, decision) -> Optional[str]:
    """Who admits ``driver``'s branch for forward compatibility on these GPUs, as the finder reads it: ``"release
    record"``, ``"family's releases"`` (the record's driver text cut off), or None when it is not admitted.

    True when ``decision`` (:class:`~lingjun.checks.core.compat.CompatDecision`) fell back to minor version
    compatibility only because the input does not show the image's compat libcuda in use, while every GPU is a data
    center GPU, the record lists the branch (not resolved must-upgrade) with its minimum met (a record that lists
    branches says the image carries cuda-compat; only input showing none overrules it) and the loaded libcuda is not known to be the host's.  ``driver.minimum`` and
    ``driver.cuda-compatibility`` read this one answer, so they never disagree.
    """
    if decision is None or decision.mode != "minor-version" or ctx.facts.libcuda.is_forward_compat is False:
        return None
    if compat_present(ctx.facts) is False:  # the record listing the branch says the image carries cuda-compat
        return None
    classes = [gpu_class(g.name, g.brand, ctx.data.gpus) for g in ctx.facts.gpus]
    if not classes or any(c != GPU_DATACENTER for c in classes):
        return None
    cuda, _ = image_cuda(ctx)
    if cuda is None:
        return None
    admitted, where = forward_admitted(driver, cuda, ctx.record_dict, ctx.data.cuda_drivers)
    if admitted is True and where == "family's releases":
        # the record's driver text is cut off and its family's neighbours admit the branch (driver.derived): the
        # record's own forward-compatible branches still show that the image carries cuda-compat, as release_verdict
        # reads it; without them the package is not assumed
        drv = ctx.record.driver if ctx.record is not None else None
        return where if drv is not None and drv.forward_compatibility else None
    return where if admitted is True and where == "release record" else None


def driver_needs(ctx: CheckContext) -> "tuple[list[DriverVersion], Optional[int]]":
    """``(requirements, last branch)`` of :func:`driver_fix`: every minimum driver the report knows of (none: the
    input shows no requirement) and the last branch that supports one of the GPUs (None: no end announced)."""
    ref = ctx.data.cuda_drivers
    needs: list[Optional[DriverVersion]] = [release_minimum(ctx)]
    cuda, _ = image_cuda(ctx)
    if cuda is not None:
        needs.append(toolkit_min_driver(cuda, ref))
    # the CUDA a line says the image requires (nvidia-container-cli's "unsatisfied condition: cuda>=12.8")
    required = ctx.evidence.value("cuda.required")
    stated = parse_cuda(required.value) if required is not None else None
    if stated is not None:
        needs.append(toolkit_min_driver(stated, ref))
    torch = ctx.facts.torch
    built = parse_cuda(torch.cuda) if torch is not None else None
    if built is not None:
        needs.append(toolkit_min_driver(built, ref))
    last: Optional[int] = None
    for gpu in ctx.facts.gpus:
        cc = parse_cc(gpu.compute_capability or compute_capability_from_name(gpu.name, ctx.data.gpus))
        first = min_cuda_for_cc(cc) if cc else None
        if first is not None:
            needs.append(toolkit_min_driver(CudaVersion(text=f"{first[0]}.{first[1]}", major=first[0], minor=first[1]), ref))
        end = last_branch_for_cc(cc)
        if end is not None:
            last = end if last is None else min(last, end)
    return [n for n in needs if n is not None], last


def driver_fix(ctx: CheckContext):
    """The one driver every driver remedy of a report names (:class:`~lingjun.checks.core.driver_target.DriverTarget`),
    or None when the branch table names no supported branch that fits.

    Its requirements are all the report knows (:func:`driver_needs`): the release's minimum, the Table-3 minimum of
    the image's CUDA, of torch's CUDA and of the CUDA a log line says the image requires, and the first driver for
    each visible GPU's architecture; GPUs whose support ends with a branch (Volta and older: R580) bound it from
    above.  :func:`lingjun.checks.core.driver_target.upgrade_target` decides.
    """
    needs, last = driver_needs(ctx)
    return upgrade_target(needs, ctx.data.driver_branches, ctx.options.today, last)


def driver_upgrade_remedy(ctx: CheckContext) -> Text:
    """"Upgrade the host driver to R620 (620 or later)." in both languages: ``driver.minimum``'s remedy, which the
    site's release pages show as the checker prints it (:mod:`lingjun.checks.release_remedies`)."""
    up = driver_fix_text(ctx)
    return Text(f"Upgrade the host driver to {up.en}.", f"请将宿主机驱动升级到 {up.zh}。")


def driver_fix_text(ctx: CheckContext) -> Text:
    """"the host driver to R620 (620 or later)" in both languages: the target of :func:`driver_fix`, or "a supported
    driver branch" when the branch table names none."""
    target = driver_fix(ctx)
    if target is None:
        return Text("a driver branch NVIDIA still supports", "NVIDIA 仍在支持的驱动分支")
    return Text(target.en, target.zh)
