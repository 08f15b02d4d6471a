"""The answer first: per product family, the release to use on a node's driver and GPU, and the driver branch's lifecycle.

Nothing here decides compatibility: the verdicts are :func:`lingjun.checks.core.release_compat.release_verdict`'s
(the rows of :func:`lingjun.generator.site.finder.which`).  From them, per family of the GPU's accelerator:

1. the newest release (by release order, newest first as ``KnowledgeBase.releases_of`` gives them) whose verdict is
   ``native``;
2. else the newest whose verdict is ``forward-compat``;
3. else, when no release has a verdict on the branch (one the reference data does not hold), that it is not known;
4. else the driver to install: the one supported branch :func:`lingjun.checks.core.driver_target.upgrade_target` picks
   for the newest release's requirements (its minimum, Table 3's minimum for its CUDA, the first driver for the GPU's
   architecture), as every driver remedy of the checker names it.  For a GPU that is not a data-centre GPU the
   sentence names no branch kind (long-term support, production: the kinds of NVIDIA's data-centre drivers) and
   points to NVIDIA's Linux driver downloads, where GeForce and workstation GPUs get their drivers.

The node's driver branch lifecycle (:func:`branch_status`) is computed against ``today``
(:func:`lingjun.checks.core.driver_target.branch_end_of_life`, NVIDIA's end-of-life month), never stored.
Every sentence comes from :data:`WORDS` (English and Simplified Chinese).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Optional

from lingjun.checks.core.compat import parse_cuda, parse_driver, toolkit_min_driver
from lingjun.checks.core.driver_target import branch_end_of_life, eol_month_end, last_branch_for_cc, upgrade_target
from lingjun.checks.core.gpu_arch import min_cuda_for_cc, parse_cc
from lingjun.checks.core.versions import CudaVersion, DriverVersion
from lingjun.checks.core.release_compat import release_cuda_predates_gpu
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.models import GpuModel

__all__ = ["KIND_ORDER", "WORDS", "branch_status", "recommend", "install_target", "install_epochs", "lifecycle_rows"]

#: the order recommendations are listed in: a release to use first
KIND_ORDER = ("native", "forward-compat", "install", "no-release", "not-stated", "no-target")

#: every sentence of the answer, ``key -> (en, zh)``; ``{...}`` are filled in by :func:`recommend` and :func:`branch_status`
WORDS: dict[str, tuple[str, str]] = {
    "native": ("Use {version}: the newest {family} release that runs natively on R{branch}.",
               "推荐 {version}：{family} 中可在 R{branch} 上原生运行的最新版本。"),
    "forward-compat": ("Use {version}: the newest {family} release that runs on R{branch}, through forward compatibility "
                       "(the image's cuda-compat on a data center GPU); none runs natively.",
                       "推荐 {version}：{family} 中可在 R{branch} 上运行的最新版本，通过向前兼容（数据中心 GPU 上使用镜像中的 "
                       "cuda-compat）；没有可原生运行的版本。"),
    "install": ("Install {target}: no {family} release runs on R{branch} natively or through forward compatibility; "
                "{target_branch} is a supported {kind} branch that runs {newest} natively.",
                "请安装 {target}：{family} 中没有可在 R{branch} 上原生运行或向前兼容运行的版本；{target_branch} 是受支持的"
                "{kind}分支，可原生运行 {newest}。"),
    "install.other": ("Install {target}: no {family} release runs on R{branch} natively, and forward compatibility is for "
                      "data center GPUs only; a GeForce or workstation GPU takes a Linux driver of that version from NVIDIA's "
                      "driver downloads (https://www.nvidia.com/en-us/drivers/unix/), which runs {newest} natively.",
                      "请安装 {target}：{family} 中没有可在 R{branch} 上原生运行的版本，而向前兼容只适用于数据中心 GPU；GeForce 或"
                      "工作站 GPU 请从 NVIDIA 驱动下载页（https://www.nvidia.com/en-us/drivers/unix/）获取该版本的 Linux 驱动，"
                      "可原生运行 {newest}。"),
    "install.jetson": ("No {family} release runs on R{branch} natively; {newest} needs {target}, and a Jetson module's "
                       "driver comes with its JetPack release (https://developer.nvidia.com/embedded/jetpack), not from a "
                       "driver download.",
                       "{family} 中没有可在 R{branch} 上原生运行的版本；{newest} 需要 {target}，而 Jetson 模组的驱动随其 JetPack "
                       "版本（https://developer.nvidia.com/embedded/jetpack）提供，而不是单独下载安装。"),
    "no-release": ("No {family} release recorded here runs on this GPU, whatever the driver: {newest}, the newest, is "
                   "unsupported. {reason}",
                   "{family} 中没有已记录的版本可在此 GPU 上运行，与驱动无关：最新的 {newest} 也不受支持。{reason}"),
    "not-stated": ("No verdict on R{branch}: it is not in the reference data here, so whether {family} releases run on "
                   "it is not known.",
                   "R{branch} 没有结论：此处的参考数据中没有这个分支，{family} 的版本能否在其上运行未知。"),
    "no-target": ("No {family} release runs on R{branch} natively or through forward compatibility, and no supported "
                  "branch of NVIDIA's table meets {newest}'s requirements.",
                  "{family} 中没有可在 R{branch} 上原生运行或向前兼容运行的版本，NVIDIA 分支表中也没有满足 {newest} 要求的受支持分支。"),
    "kind.long-term-support": ("long-term-support", "长期支持"),
    "kind.production": ("production", "生产"),
    "kind.new-feature": ("new-feature", "新功能"),
    "kind.none": ("driver", "驱动"),
    "eol.date": ("R{branch} is past end of life: NVIDIA's support ended {month} (the month's last day, {day}, is before "
                 "today, {today}).",
                 "R{branch} 已过生命周期：NVIDIA 对其支持已于 {month} 结束（该月最后一天 {day} 早于今天 {today}）。"),
    "eol.listed": ("R{branch} is past end of life: NVIDIA lists it so, without a month.",
                   "R{branch} 已过生命周期：NVIDIA 将其列为已终止支持，未给出月份。"),
    "supported.date": ("R{branch} is supported: NVIDIA's end-of-life month is {month} ({day} is on or after today, {today}).",
                       "R{branch} 仍受支持：NVIDIA 给出的生命周期终止月份为 {month}（{day} 不早于今天 {today}）。"),
    "supported.none": ("R{branch} is supported: NVIDIA gives it no end-of-life month{kind_note}.",
                       "R{branch} 仍受支持：NVIDIA 未给出生命周期终止月份{kind_note}。"),
    "note.new-feature": (" (a new-feature branch)", "（新功能分支）"),
    "target": ("R{branch} ({minimum} or later)", "R{branch}（{minimum} 或更高）"),
    "unknown": ("R{branch} is not in NVIDIA's branch table here: its lifecycle is not known.",
                "此处 NVIDIA 分支表中没有 R{branch}：其生命周期未知。"),
    "move": (" Move to {target}.", "请迁移到 {target}。"),
}


def is_jetson(name: str) -> bool:
    """Whether ``name`` (NVIDIA's CUDA GPU list, https://developer.nvidia.com/cuda-gpus) is a Jetson module, whose
    driver ships with JetPack rather than as a driver download (finder.js asks the same of the name)."""
    return name.startswith("Jetson ")


def _fill(key: str, **values: Any) -> dict[str, str]:
    """``WORDS[key]`` in both languages; a value given as an ``(en, zh)`` pair is filled in each language's words."""
    out = {}
    for i, lang in enumerate(("en", "zh")):
        filled = {k: (v[i] if isinstance(v, tuple) else v) for k, v in values.items()}
        out[lang] = WORDS[key][i].format(**filled)
    return out


def _target_text(target: Any) -> tuple[str, str]:
    """A :class:`~lingjun.checks.core.driver_target.DriverTarget` as ``WORDS["target"]`` in both languages."""
    en, zh = WORDS["target"]
    return en.format(branch=target.branch, minimum=target.minimum), zh.format(branch=target.branch, minimum=target.minimum)


def _branch_rows(kb: KnowledgeBase) -> list[dict[str, Any]]:
    return [b.model_dump(mode="json") for b in kb.driver_branches.branches] if kb.driver_branches else []


def install_target(kb: KnowledgeBase, record: Any, gpu: GpuModel, today: dt.date) -> Optional[Any]:
    """The :class:`~lingjun.checks.core.driver_target.DriverTarget` that runs ``record`` natively on ``gpu``, or None.

    Requirements: the record's NVIDIA minimum, Table 3's minimum driver for its CUDA, and the first driver for the
    GPU's architecture; bounded by the last branch that supports the GPU (Volta and older: R580).
    """
    ref = kb.cuda_drivers.model_dump(mode="json") if kb.cuda_drivers else None
    needs: list[Optional[DriverVersion]] = []
    if record is not None and record.driver is not None and record.driver.vendor.value == "nvidia":
        needs.append(parse_driver(record.driver.minimum))
    cuda = parse_cuda(record.cuda) if record is not None and record.cuda else None
    if cuda is not None:
        needs.append(toolkit_min_driver(cuda, ref))
    cc = parse_cc(gpu.compute_capability)
    first = min_cuda_for_cc(cc) if cc else None
    if first is not None:  # the first CUDA of the GPU's architecture, and Table 3's driver for it
        needs.append(toolkit_min_driver(CudaVersion(text=f"{first[0]}.{first[1]}", major=first[0], minor=first[1]), ref))
    return upgrade_target(needs, _branch_rows(kb), today, last_branch_for_cc(parse_cc(gpu.compute_capability)))


def branch_status(kb: KnowledgeBase, branch: int, today: dt.date, gpu: Optional[GpuModel] = None) -> dict[str, Any]:
    """The lifecycle of driver ``branch`` on ``today``.

    Returns ``{"branch": 535, "type": "long-term-support" | None, "status": "end-of-life" | "supported" | "unknown",
    "eol": "2026-06" | None, "eol_day": "2026-06-30" | None, "upgrade_to": {"branch", "minimum"} | None,
    "text": {"en", "zh"}}``; ``unknown`` when NVIDIA's branch table (``releases/reference/driver-branches.yaml``) has no
    row for it.  For a branch past end of life, ``upgrade_to`` (and the text) name the one supported branch
    :func:`install_target` picks for ``gpu`` alone (no release's requirement).
    """
    row = next((r for r in _branch_rows(kb) if r.get("branch") == branch), None)
    if row is None:
        return {"branch": branch, "type": None, "status": "unknown", "eol": None, "eol_day": None, "upgrade_to": None,
                "text": _fill("unknown", branch=branch)}
    end = eol_month_end(row.get("eol")) if row.get("eol") else None
    past = branch_end_of_life(row, today)
    fill = {"branch": branch, "month": row.get("eol"), "day": end.isoformat() if end else None, "today": today.isoformat()}
    if past:
        text = _fill("eol.date" if end else "eol.listed", **fill)
    elif end is not None:
        text = _fill("supported.date", **fill)
    else:
        new_feature = row.get("type") == "new-feature"
        text = _fill("supported.none", **fill, kind_note=WORDS["note.new-feature"] if new_feature else "")
    upgrade = None
    if past and gpu is not None:
        target = install_target(kb, None, gpu, today)
        if target is not None:
            upgrade = {"branch": target.branch, "minimum": str(target.minimum)}
            move = _fill("move", target=_target_text(target))
            text = {lang: text[lang] + move[lang] for lang in ("en", "zh")}
    return {"branch": branch, "type": row.get("type"), "status": "end-of-life" if past else "supported",
            "eol": row.get("eol"), "eol_day": end.isoformat() if end else None, "upgrade_to": upgrade, "text": text}


def recommend(kb: KnowledgeBase, family: str, rows: list[dict[str, Any]], driver: DriverVersion, gpu: GpuModel,
              today: dt.date) -> dict[str, Any]:
    """The recommendation for ``family`` from its ``rows`` (``which``'s rows of that family, newest first).

    Returns ``{"family", "kind": "native" | "forward-compat" | "install" | "no-release" | "not-stated" | "no-target", "release": "family:version" |
    None, "driver_target": {"branch", "minimum", "type", "eol"} | None, "reason": {"en", "zh"}}``.
    """
    name = family
    b = driver.branch
    for kind in ("native", "forward-compat"):
        chosen = next((r for r in rows if r["verdict"] == kind), None)
        if chosen is not None:
            version = chosen["release"].partition(":")[2]
            return {"family": family, "kind": kind, "release": chosen["release"], "driver_target": None,
                    "reason": _fill(kind, version=version, family=name, branch=b)}
    if rows and all(r["verdict"] == "not-stated" for r in rows):  # an unknown branch: nothing is known to fail
        return {"family": family, "kind": "not-stated", "release": None, "driver_target": None,
                "reason": _fill("not-stated", family=name, branch=b)}
    newest = kb.releases_of(family)[0] if kb.releases_of(family) else None
    too_old = release_cuda_predates_gpu(newest.cuda, gpu.compute_capability) if newest is not None else None
    if too_old is not None:  # the newest release's CUDA cannot build for the GPU: no driver makes any release run
        return {"family": family, "kind": "no-release", "release": None, "driver_target": None,
                "reason": {"en": WORDS["no-release"][0].format(family=name, newest=newest.version, reason=too_old[0]),
                           "zh": WORDS["no-release"][1].format(family=name, newest=newest.version, reason=too_old[1])}}
    target = install_target(kb, newest, gpu, today) if newest is not None else None
    newest_name = newest.version if newest is not None else family
    if target is None:
        return {"family": family, "kind": "no-target", "release": None, "driver_target": None,
                "reason": _fill("no-target", family=name, branch=b, newest=newest_name)}
    if gpu.data_center:
        kind = f"kind.{target.branch_type}" if f"kind.{target.branch_type}" in WORDS else "kind.none"
        reason = _fill("install", target=_target_text(target), family=name, branch=b, target_branch=f"R{target.branch}",
                       kind=WORDS[kind], newest=newest_name)
    else:  # the branch kinds (long-term support, production) are those of NVIDIA's data-centre drivers
        key = "install.jetson" if is_jetson(gpu.name) else "install.other"
        reason = _fill(key, target=_target_text(target), family=name, branch=b, newest=newest_name)
    return {"family": family, "kind": "install", "release": newest.ref if newest is not None else None,
            "driver_target": {"branch": target.branch, "minimum": str(target.minimum), "type": target.branch_type,
                              "eol": target.eol},
            "reason": reason}


def _change_days(kb: KnowledgeBase) -> list[dt.date]:
    """The days on which some branch's end of life starts (the day after its ``eol`` month), ascending."""
    days = set()
    for row in _branch_rows(kb):
        end = eol_month_end(row.get("eol")) if row.get("eol") else None
        if end is not None:
            days.add(end + dt.timedelta(days=1))
    return sorted(days)


def install_epochs(kb: KnowledgeBase, record: Any, gpu: GpuModel) -> list[list[Any]]:
    """:func:`install_target` for every day, as ``[[first day "YYYY-MM-DD" or None, branch, minimum, type] or
    [day, None, None, None], ...]`` ascending: the target changes only when a branch reaches its end of life, so a page
    built once can show the target of the reader's day (the finder's script picks the last epoch that has begun)."""
    days = _change_days(kb)
    starts: list[Optional[dt.date]] = [None] + days
    out: list[list[Any]] = []
    for start in starts:
        day = start if start is not None else (days[0] - dt.timedelta(days=1) if days else dt.date(2000, 1, 1))
        target = install_target(kb, record, gpu, day)
        entry = [start.isoformat() if start else None] + ([target.branch, str(target.minimum), target.branch_type]
                                                         if target is not None else [None, None, None])
        if out and out[-1][1:] == entry[1:]:
            continue
        out.append(entry)
    return out


def lifecycle_rows(kb: KnowledgeBase) -> dict[str, dict[str, Any]]:
    """``{"535": {"eol": "2026-06", "eol_day": "2026-06-30", "listed": False, "type": ...}}`` for the finder's script,
    which compares ``eol_day`` with the reader's day as :func:`branch_status` does (``listed``: end of life without a
    month, :func:`lingjun.checks.core.driver_target.branch_end_of_life`)."""
    out = {}
    for row in _branch_rows(kb):
        end = eol_month_end(row.get("eol")) if row.get("eol") else None
        out[str(row["branch"])] = {"eol": row.get("eol"), "eol_day": end.isoformat() if end else None,
                                   "listed": end is None and branch_end_of_life(row, dt.date.min),
                                   "type": row.get("type")}
    return out
