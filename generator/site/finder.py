"""The compatibility finder's data and ``lingjun-kb which``: every release's verdict for a driver and a GPU.

The decision is the checker's (:func:`lingjun.checks.core.release_compat.release_verdict`),
evaluated here at build time; nothing in this module decides compatibility.

* :func:`which` answers one question (a driver, a GPU model, optionally a
  family) for every release, as ``lingjun-kb which`` prints it.
* :func:`finder_data` precomputes the answers the ``/finder/`` page looks up:
  per release, per GPU class (``dc``: data center, ``other``: any other
  GPU) and per driver branch, the list of ``[lowest driver, verdict, reason
  index]`` intervals of that branch (the first interval starts at the
  branch's lowest driver, ``null``; the index points into ``reasons``, a
  list of ``[en, zh]`` written once each).  The page's script picks the
  interval holding the typed driver; it never decides.
* :func:`find_gpu` reads a GPU model name against ``releases/reference/gpus.yaml``.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import re
from typing import Any, Optional

from lingjun.checks.core.driver_target import last_branch_for_cc
from lingjun.checks.core.release_compat import (
    VERDICTS,
    branch_thresholds,
    driver_predates_gpu,
    effective_driver,
    release_cuda_predates_gpu,
    release_verdict,
    unknown_branch,
)
from lingjun.checks.core.compat import parse_cuda
from lingjun.checks.core.family_driver import cut_off
from lingjun.checks.core.gpu_arch import min_cuda_for_cc, parse_cc
from lingjun.checks.core.gpu_models import lookup_key, model_from_name
from lingjun.checks.core.inert_text import capped
from lingjun.checks.core.release_order import release_order_key
from lingjun.checks.core.versions import DriverVersion, VersionFormatError
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import Accelerator, DriverVendor, FamilyRole, GpuModel, ReleaseRecord
from lingjun.schema.release_images import image_for_tag, release_images
from lingjun.generator.site._verdict_records import verdict_records
from lingjun.generator.site.recommend import (
    KIND_ORDER,
    branch_status,
    install_epochs,
    lifecycle_rows,
    recommend,
)

__all__ = ["WhichError", "parse_driver_input", "find_gpu", "finder_branches", "finder_data", "which",
           "release_url", "intervals", "lookup", "gpu_lookup", "GPU_CLASSES", "release_image_rows", "find_release",
           "shown_families"]

#: the GPU classes of the finder's data: data center GPUs, and every other GPU (GeForce, RTX workstation)
GPU_CLASSES = ("dc", "other")

_DRIVER_RE = re.compile(r"^[Rr]?\d{3,4}(?:\.\d{1,4}){0,2}$", re.ASCII)


class WhichError(ValueError):
    """A driver or GPU the finder cannot read; ``str()`` is one line naming the value and close matches."""


def parse_driver_input(text: str) -> DriverVersion:
    """``535.183.01``, ``535.183``, ``R535`` or ``535`` -> :class:`DriverVersion`.

    Raises:
        WhichError: for anything else (one line, the value shown with ``repr``, cut to 60 characters with a marker).
    """
    value = (text or "").strip()
    if not _DRIVER_RE.match(value):
        raise WhichError(f"not an NVIDIA driver version: {capped(value, 60)!r} (write it as 535.183.01, or a branch as R535 or 535)")
    try:
        return DriverVersion.parse(value.lstrip("Rr"))
    except VersionFormatError as exc:  # pragma: no cover - the pattern above admits only parseable text
        raise WhichError(str(exc)) from None


def _tails(key: str) -> list[str]:
    """The ends of a key in whole words: ``"geforce rtx 4090"`` -> ``["geforce rtx 4090", "rtx 4090", "4090"]``."""
    words = key.split()
    return [" ".join(words[i:]) for i in range(len(words))]


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def find_gpu(kb: KnowledgeBase, name: str) -> GpuModel:
    """The GPU model of ``gpus.yaml`` that ``name`` names, by the lookup the checker and the finder page use.

    In order (names compared by :func:`lingjun.checks.core.gpu_models.lookup_key`: NFKC, case, blanks,
    ``-``/``_``/``/`` and a leading ``NVIDIA`` ignored):

    1. a whole model name (``h20``, ``NVIDIA GeForce RTX 4090``);
    2. a whole model name with the blanks removed (``RTX4090`` is not one, ``GeForceRTX4090`` is);
    3. the name as NVML prints it (``NVIDIA A100-SXM4-40GB``): the longest model name it holds in whole words
       (:func:`lingjun.checks.core.gpu_models.model_from_name`, the checker's lookup);
    4. a distinctive end of exactly one model's name, in whole words or with the blanks removed, holding a digit
       (``RTX 4090``, ``RTX4090``, ``4090``); ``RTX`` alone names no model.

    Raises:
        WhichError: an unknown or ambiguous name; the line lists up to five close matches.
    """
    gpus = list(kb.gpus.gpus) if kb.gpus else []
    if not gpus:
        raise WhichError("no GPU reference table (releases/reference/gpus.yaml) in this knowledge base")
    text = str(name)
    wanted = lookup_key(text) if len(text) <= 200 else ""
    shown = capped(text.strip(), 60)
    if not wanted:
        raise WhichError(f"unknown GPU model: {shown!r}; see releases/reference/gpus.yaml")
    keys = [(g, lookup_key(g.name)) for g in gpus]
    squeezed = wanted.replace(" ", "")
    for same in (lambda k: k == wanted, lambda k: k.replace(" ", "") == squeezed):
        found = [g for g, k in keys if same(k)]
        if len(found) == 1:
            return found[0]
    row = model_from_name(text, [{"name": g.name} for g in gpus])
    if row is not None:
        return next(g for g in gpus if g.name == row["name"])
    ending = []
    if _has_digit(wanted):
        ending = [g for g, k in keys if wanted in _tails(k) or squeezed in {t.replace(" ", "") for t in _tails(k)}]
        if len(ending) == 1:
            return ending[0]
    # names holding the text first (RTX 409 -> GeForce RTX 4090), then the most similar ones, blanks removed
    holding = [g.name for g, k in keys if wanted in k or squeezed in k.replace(" ", "")]

    def score(key: str) -> float:
        """Similarity to the typed name, its best against the model name's ends (blanks removed)."""
        return max(difflib.SequenceMatcher(None, squeezed, t.replace(" ", "")).ratio() for t in _tails(key))

    scored = sorted(((score(k) + (1 if g.name in holding else 0), g.name) for g, k in keys), key=lambda c: -c[0])
    close = [n for value, n in scored if value >= 0.6]
    hint = f"; close matches: {', '.join(close[:5])}" if close else "; see releases/reference/gpus.yaml"
    what = "ambiguous GPU model" if len(ending) > 1 or len(holding) > 1 else "unknown GPU model"
    raise WhichError(f"{what}: {shown!r}{hint}")


def _reference(kb: KnowledgeBase) -> Optional[dict[str, Any]]:
    return kb.cuda_drivers.model_dump(mode="json") if kb.cuda_drivers else None


def finder_branches(kb: KnowledgeBase) -> list[int]:
    """Driver branches the finder holds, newest first: ``driver-branches.yaml``, the branches releases name, and
    the branches of NVIDIA's tables (Table 3 minimums, minor version compatibility floors)."""
    found: set[int] = set()
    if kb.driver_branches:
        found.update(b.branch for b in kb.driver_branches.branches)
    for record in kb.releases:
        driver = record.driver
        if driver is None or driver.vendor.value != "nvidia":
            continue
        found.add(DriverVersion.parse(driver.minimum).branch)
        found.update(f.branch for f in driver.forward_compatibility)
        found.update(driver.must_upgrade_branches)
    if kb.cuda_drivers:
        found.update(DriverVersion.parse(r.linux_min_driver).branch for r in kb.cuda_drivers.toolkit_min_driver)
        found.update(r.min_branch for r in kb.cuda_drivers.minor_version_compat)
    return sorted(found, reverse=True)


def intervals(record: dict, ref: Optional[dict], branch: int, data_center: bool) -> list[list[Optional[str]]]:
    """``[[lowest driver or None, verdict, en, zh], ...]`` for ``branch``, ascending; consecutive equal answers merged.

    The answer is taken at the branch's lowest driver (``B.0.0``) and at every
    :func:`~lingjun.checks.core.release_compat.branch_thresholds` version; the
    reasons name the branch, never the exact driver, so one answer holds for a whole interval.
    """
    points: list[Optional[DriverVersion]] = [None] + list(branch_thresholds(record, ref, branch))
    out: list[list[Optional[str]]] = []
    for point in points:
        driver = point if point is not None else DriverVersion(text=f"{branch}.0.0", parts=(branch, 0, 0))
        answer = release_verdict(record, driver, data_center, ref)
        row = [point.text if point is not None else None, answer.verdict, answer.en, answer.zh]
        if out and out[-1][1:] == row[1:]:
            continue
        out.append(row)
    return out


def lookup(intervals: list[list[Any]], driver: DriverVersion) -> list[Any]:
    """The interval holding ``driver`` (what the finder's script does; for tests).

    A branch-only driver stands for an up-to-date driver of the branch: the last interval.
    """
    if driver.is_branch_only:
        return intervals[-1]
    chosen = intervals[0]
    for row in intervals[1:]:
        if row[0] is not None and driver >= DriverVersion.parse(row[0]):
            chosen = row
    return chosen


def gpu_lookup(data: dict[str, Any], release: dict[str, Any], gpu: dict[str, Any], driver: DriverVersion) -> list[Any]:
    """``[lowest driver, verdict, reason index or text]`` the finder's script shows for one release (for tests).

    In the script's order (and :func:`release_verdict`'s): a PPU image keeps its own reading; a branch the data does
    not hold gives the ``unknown_branch`` reading; a driver below the
    GPU's ``drives_from`` on a branch of its ``predates`` is unsupported for every NVIDIA release; a release whose CUDA is
    in the GPU's ``cuda_predates`` is unsupported on it; otherwise the release's interval (:func:`lookup`) of the GPU's
    class.
    """
    if release.get("ppu"):  # every branch's cell holds the PPU reading
        return lookup(release["cells"]["dc" if gpu["data_center"] else "other"][str(data["branches"][0])], driver)
    if driver.branch not in data["branches"]:
        return [None, "not-stated", data["unknown_branch"][0].replace("{branch}", str(driver.branch))]
    predates = gpu.get("predates") or {}
    if not release.get("ppu") and str(driver.branch) in predates \
            and effective_driver(driver) < DriverVersion.parse(gpu["drives_from"]):
        return [None, "unsupported", predates[str(driver.branch)]]
    too_old = gpu.get("cuda_predates") or {}
    if not release.get("ppu") and release.get("cuda") in too_old:
        return [None, "unsupported", too_old[release["cuda"]]]
    return lookup(release["cells"]["dc" if gpu["data_center"] else "other"][str(driver.branch)], driver)


def _cuda_text(cuda: Any) -> Optional[str]:
    """``"12.4"``: a record's CUDA as major.minor, or None when it states none."""
    version = parse_cuda(cuda)
    return f"{version.major}.{version.minor}" if version is not None else None


def _release_facets(record: ReleaseRecord) -> dict[str, Any]:
    """Products and CPU architectures the tags of a release's images state (empty lists: not stated)."""
    images = release_images(record)
    tags = [tag for image in images for tag in image.image_tags]
    products = sorted({p.value for tag in tags for p in tag.products})
    not_for = sorted({p.value for tag in tags for p in tag.not_for})
    arches = {a.value for image in images for a in image.architectures} | {a.value for tag in tags for a in tag.architectures}
    return {"products": products, "not_for": not_for, "architectures": sorted(arches)}


def release_image_rows(record: ReleaseRecord) -> list[dict[str, Any]]:
    """The images of a release as the finder and ``which`` list them: ``[{"ref", "variant", "title", "tags"}]``.

    One entry for a release without variants (``variant`` and ``title`` None); the driver verdict is the
    release's, shared by all its images.
    """
    return [{"ref": image.ref, "variant": image.variant_id,
             "title": image.title.model_dump(mode="json") if image.title else None,
             "tags": [t.tag for t in image.image_tags]} for image in release_images(record)]


def pull_addresses(record: ReleaseRecord, family: Any) -> list[dict[str, Any]]:
    """Where each image of ``record`` is pulled from, as ``which --format json`` gives it: ``[{"ref", "variant",
    "addresses": [{"tag", "public": the tag's published reference, "vpc": the family's VPC address with ``{region-id}``
    left for the reader (None where the family states none), "vpc_regions": the regions the family names}]}]``
    (``family``: the :class:`~lingjun.schema.models.Family` entry, or None)."""
    pattern = getattr(family, "vpc_registry_pattern", None)
    image_name = getattr(family, "image_name", None)
    regions = list(getattr(family, "vpc_regions", None) or [])
    out = []
    for image in release_images(record):
        rows = [{"tag": t.tag, "public": t.reference,
                 "vpc": pattern.replace("{image}", image_name).replace("{tag}", t.tag) if pattern and image_name else None,
                 "vpc_regions": regions if pattern else []} for t in image.image_tags]
        out.append({"ref": image.ref, "variant": image.variant_id, "addresses": rows})
    return out


def finder_data(kb: KnowledgeBase) -> dict[str, Any]:
    """Everything the finder page's script reads, JSON-serialisable.

    Shape::

        {"verdicts": [...VERDICTS],
         "branches": [620, 610, ...],
         "gpus": [{"name": "H20", "compute_capability": "9.0", "data_center": true}, ...],
         "releases": [{"ref": "training-nv-pytorch:25.08", "family": ..., "version": ...,
                       "products": [...], "not_for": [...], "architectures": [...],
                       "images": [{"ref", "variant", "title", "tags"}, ...],
                       "cells": {"dc": {"535": [[null, "minor-compat", 3], ["535.86", "forward-compat", 4]]},
                                 "other": {...}}}, ...],
         "reasons": [[en, zh], ...]}

    Releases are in family order, newest first (by date) within a family; a release with variants is
    one entry whose ``images`` give each variant's tags (the verdict is the release's).
    """
    ref = _reference(kb)
    branches = finder_branches(kb)
    reasons: list[list[str]] = []
    index: dict[tuple[str, str], int] = {}

    def reason_id(en: str, zh: str) -> int:
        if (en, zh) not in index:
            index[(en, zh)] = len(reasons)
            reasons.append([en, zh])
        return index[(en, zh)]

    # the verdicts read only a record's ``cuda`` and ``driver``: releases that share them share their cells
    shared: dict[str, dict[str, dict[str, list[list[Any]]]]] = {}
    releases = []
    views = verdict_records(kb)
    for family in sorted({r.family for r in kb.releases}):
        for record in kb.releases_of(family):
            raw = views[record.ref]
            # a cut-off driver text's reasons name the release: its cells are its own
            key = json.dumps([raw.get("cuda"), raw.get("driver"), raw.get("version") if cut_off(raw) else None], sort_keys=True)
            if key not in shared:
                shared[key] = {cls: {str(b): [[low, verdict, reason_id(en, zh)]
                                              for low, verdict, en, zh in intervals(raw, ref, b, cls == "dc")]
                                     for b in branches} for cls in GPU_CLASSES}
            cells = shared[key]
            releases.append({"ref": record.ref, "family": record.family, "version": record.version,
                             "cuda": _cuda_text(raw.get("cuda")),
                             # a PPU image: PPU driver, or no driver stated but a PPU SDK (as release_verdict reads it)
                             "ppu": (record.driver.vendor.value == "ppu") if record.driver is not None else bool(record.ppu_sdk),
                             **_release_facets(record), "images": release_image_rows(record), "cells": cells})
    gpus = []
    # the answer depends on the branch and the compute capability only: GPUs of one architecture share it
    predated: dict[tuple[int, Any], Optional[tuple[str, str, str]]] = {}
    for g in (kb.gpus.gpus if kb.gpus else []):
        entry: dict[str, Any] = {"name": g.name, "compute_capability": g.compute_capability, "data_center": g.data_center}
        # branches whose drivers (below ``drives_from``) cannot drive this GPU's architecture at all
        predates: dict[str, int] = {}
        drives_from = None
        for b in branches:
            if (b, g.compute_capability) not in predated:
                predated[(b, g.compute_capability)] = driver_predates_gpu(
                    DriverVersion(text=f"{b}.0.0", parts=(b, 0, 0)), g.compute_capability, ref)
            found = predated[(b, g.compute_capability)]
            if found is not None:
                predates[str(b)] = reason_id(found[0], found[1])
                drives_from = found[2]
        if predates:
            entry["drives_from"] = drives_from
            entry["predates"] = predates
        # the releases' CUDA versions too old to build for this GPU's architecture (release_cuda_predates_gpu)
        too_old = {}
        for cuda in sorted({r["cuda"] for r in releases if r["cuda"] and not r["ppu"]}):
            found = release_cuda_predates_gpu(cuda, g.compute_capability)
            if found is not None:
                too_old[cuda] = reason_id(found[0], found[1])
        if too_old:
            entry["cuda_predates"] = too_old
        gpus.append(entry)
    placeholder = unknown_branch("{branch}")
    return {"verdicts": list(VERDICTS), "branches": branches, "gpus": gpus, "reasons": reasons, "releases": releases,
            "unknown_branch": [placeholder.en, placeholder.zh], **_answer_data(kb, gpus)}


def _answer_data(kb: KnowledgeBase, gpus: list[dict[str, Any]]) -> dict[str, Any]:
    """What the finder's answer-first block reads: ``families`` (``[{"id", "default", "nvidia"}]``: shown without the
    "all families" toggle, and whether a recommendation is given), ``lifecycle``
    (:func:`lingjun.generator.site.recommend.lifecycle_rows`) and ``installs`` (per distinct GPU architecture, the driver
    to install per family by day, :func:`lingjun.generator.site.recommend.install_epochs`; key ``""``: for the GPU alone);
    each GPU entry gets ``install``, its index into ``installs``."""

    default = set(shown_families(kb))
    families = [{"id": f, "default": f in default,
                 "nvidia": f not in kb.families or kb.families[f].accelerator is Accelerator.nvidia_gpu}
                for f in sorted({r.family for r in kb.releases})]
    installs: list[dict[str, Any]] = []
    index: dict[Any, int] = {}
    by_name = {g.name: g for g in (kb.gpus.gpus if kb.gpus else [])}
    for entry in gpus:
        gpu = by_name[entry["name"]]
        cc = parse_cc(gpu.compute_capability)
        key = (min_cuda_for_cc(cc) if cc else None, last_branch_for_cc(cc))
        if key not in index:
            index[key] = len(installs)
            per = {"": install_epochs(kb, None, gpu)}
            for fam in families:
                newest = kb.releases_of(fam["id"])
                if fam["nvidia"] and newest:
                    per[fam["id"]] = install_epochs(kb, newest[0], gpu)
            installs.append(per)
        entry["install"] = index[key]
    return {"families": families, "lifecycle": lifecycle_rows(kb), "installs": installs}


def release_url(record: ReleaseRecord, site_url: Optional[str]) -> Optional[str]:
    """The release's page on the configured site (``URL/releases/FAMILY/VERSION/``), else its first official source page."""
    if site_url:
        return f"{site_url.rstrip('/')}/releases/{record.family}/{record.version}/"
    return record.sources[0].url if record.sources else None


def _date_newest_first(version: str, release_date: Any) -> tuple:
    """Sort key of a release by date, newest first; one that gives no date after the dated ones."""
    key = release_order_key(version, release_date)
    return (key is None,) + (tuple(-part for part in key) if key else (0, 0, 0)) + (version,)


def find_release(kb: KnowledgeBase, text: str) -> Optional[ReleaseRecord]:
    """The release ``text`` names: ``family:release``, ``family:release#variant``, or an image tag or
    full reference of one of its images; None when none matches."""
    wanted = (text or "").strip()
    ref = wanted.partition("#")[0]
    found = kb.release(ref)
    if found is not None:
        return found
    return next((r for r in kb.releases if image_for_tag(r, wanted) is not None), None)



def _ppu_records(kb: KnowledgeBase) -> list[ReleaseRecord]:
    """Releases for PPU accelerators: a PPU driver requirement, else a family whose accelerator is PPU."""
    found = []
    for record in kb.releases:
        family = kb.families.get(record.family)
        if (record.driver.vendor is DriverVendor.ppu if record.driver is not None
                else family is not None and family.accelerator is Accelerator.ppu):
            found.append(record)
    return found


def is_ppu_name(kb: KnowledgeBase, name: str) -> bool:
    """True when ``name`` names a PPU rather than an NVIDIA GPU: ``PPU`` itself, or a chip or instance type a PPU
    release's page lists (``M890``, ``efg3.GP9A``); compared by :func:`lookup_key`."""
    wanted = lookup_key(str(name)) if len(str(name)) <= 200 else ""
    if not wanted:
        return False
    names = {"ppu"} | {lookup_key(m) for r in _ppu_records(kb) if r.gpu_support for m in r.gpu_support.models}
    return wanted in names


def ppu_answer(kb: KnowledgeBase) -> str:
    """One line for a PPU asked of ``which``: it answers for NVIDIA drivers and GPUs only, and the PPU driver minimum
    each PPU release states (``training-xpu-pytorch:25.05 needs PPU driver >= 1.1.0``), oldest first."""
    stated = []
    for record in sorted(_ppu_records(kb), key=lambda r: (r.family, r.order_key or (0, 0, 0))):
        if record.driver is not None and record.driver.vendor is DriverVendor.ppu:
            stated.append(f"{record.ref} needs PPU driver >= {record.driver.minimum}")
        else:
            stated.append(f"{record.ref} states no PPU driver minimum")
    listed = "; ".join(stated) if stated else "no PPU release is recorded"
    return ("which answers for NVIDIA drivers and GPUs only (NVIDIA driver branches do not apply to a PPU); "
            f"PPU releases' own driver minimums: {listed}")


def shown_families(kb: KnowledgeBase, family: Optional[str] = None, all_families: bool = False,
                   accelerator: Optional[str] = None) -> list[str]:
    """The families ``which`` and the finder answer for, in name order.

    ``family``: only it; ``all_families``: every family; ``accelerator`` (``nvidia-gpu``, ``ppu``): every family of that
    accelerator, products and base images; by default the product families for NVIDIA GPUs (PPU images and base images
    such as NGC PyTorch only when asked for).
    """
    families = sorted({r.family for r in kb.releases} | set(kb.families))
    if family is not None:
        return [f for f in families if f == family]
    if all_families:
        return families
    wanted = accelerator or Accelerator.nvidia_gpu.value
    return [f for f in families if f in kb.families and kb.families[f].accelerator.value == wanted
            and (accelerator is not None or kb.families[f].role is FamilyRole.product)]


def which(kb: KnowledgeBase, driver_text: str, gpu_name: str, family: Optional[str] = None,
          site_url: Optional[str] = None, all_families: bool = False, accelerator: Optional[str] = None,
          today: Optional[dt.date] = None) -> dict[str, Any]:
    """The answer of ``lingjun-kb which`` as its JSON document: the answer first, then every release's verdict.

    Returns ``{"driver": the driver normalised (``R535`` for a branch, ``535.183.01`` for a version),
    "driver_input": the text as given (stripped), "gpu": {"name", "compute_capability", "data_center"},
    "today": "YYYY-MM-DD", "driver_branch": the branch's lifecycle on ``today``
    (:func:`lingjun.generator.site.recommend.branch_status`), "recommendations": per NVIDIA family shown, the release to
    use or the driver to install (:func:`lingjun.generator.site.recommend.recommend`), "families": the families shown,
    "releases": [{"release", "verdict", "reason": {"en", "zh"}, "derived_from": [evidence named], "url", "images",
    "pull": where each image is pulled from (:func:`pull_addresses`)}],
    "unrecorded": [{"family", "version"}]}`` in the finder's release order (family, then newest first by
    date).  A release with variants is one row; ``images`` lists each image's tags
    (:func:`release_image_rows`).  ``unrecorded`` names the releases the pages name without a record
    (no verdict: nothing is known of them) of the families shown, newest first by date.  The families shown are
    :func:`shown_families`'s; ``today`` defaults to the current date.

    Raises:
        WhichError: a malformed driver, an unknown or ambiguous GPU, an unknown family or accelerator (one line each).
    """
    if is_ppu_name(kb, gpu_name):
        raise WhichError(ppu_answer(kb))
    driver = parse_driver_input(driver_text)
    gpu = find_gpu(kb, gpu_name)
    families = sorted({r.family for r in kb.releases} | set(kb.families))
    if family is not None and family not in families:
        close = difflib.get_close_matches(family, families, n=5, cutoff=0.4)
        hint = f"; close matches: {', '.join(close)}" if close else f"; families: {', '.join(families)}"
        raise WhichError(f"unknown family: {capped(family, 60)!r}{hint}")
    accelerators = [a.value for a in Accelerator]
    if accelerator is not None and accelerator not in accelerators:
        raise WhichError(f"unknown accelerator: {capped(accelerator, 60)!r}; accelerators: {', '.join(accelerators)}")
    today = today or dt.date.today()
    ref = _reference(kb)
    known = set(finder_branches(kb))
    rows = []
    unrecorded = []
    recommendations = []
    views = verdict_records(kb)
    shown = shown_families(kb, family, all_families, accelerator)
    for fam in shown:
        family_rows = []
        for record in kb.releases_of(fam):
            answer = release_verdict(views[record.ref], driver, gpu.data_center, ref,
                                     compute_capability=gpu.compute_capability, known_branches=known)
            family_rows.append({"release": record.ref, "verdict": answer.verdict, "reason": {"en": answer.en, "zh": answer.zh},
                                "derived_from": list(answer.derived_from),
                                "url": release_url(record, site_url), "images": release_image_rows(record),
                                "pull": pull_addresses(record, kb.families.get(fam))})
        rows += family_rows
        entry = kb.families.get(fam)
        if family_rows and (entry is None or entry.accelerator is Accelerator.nvidia_gpu):
            recommendations.append(recommend(kb, fam, family_rows, driver, gpu, today))
        held = {r.version for r in kb.releases_of(fam)}
        if fam in kb.families:
            named = [u for u in kb.families[fam].unrecorded_releases if u.version not in held]
            named.sort(key=lambda u: _date_newest_first(u.version, u.release_date))
            unrecorded += [{"family": fam, "version": u.version} for u in named]
    return {"driver": f"R{driver.branch}" if driver.is_branch_only else driver.text, "driver_input": driver_text.strip(),
            "gpu": {"name": gpu.name, "compute_capability": gpu.compute_capability, "data_center": gpu.data_center},
            "today": today.isoformat(), "driver_branch": branch_status(kb, driver.branch, today, gpu),
            "recommendations": sorted(recommendations, key=lambda r: (KIND_ORDER.index(r["kind"]), r["family"])), "families": shown, "releases": rows, "unrecorded": unrecorded}
