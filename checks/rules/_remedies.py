"""Remedies for the packages a release ships, decided in one place so that two findings never disagree.

Private helper of the rule modules.  The principle: a remedy names a command, flag or image that exists.

* A package the image built itself (torch ``2.7.1.8+nv25.3``, DeepSpeed ``0.16.9+ali``, Transformers
  ``4.51.2+ali``, PPU builds), and a compiled torch extension of an image whose torch is its own build, is
  served by no public index: the way back is a fresh container from the release's image, named in full from
  the record's ``image_tags`` (:func:`fresh_container`).  Extras are then installed without touching the
  image's packages: a constraints file of what is installed (``pip list --format=freeze``, which writes
  ``name==version`` also for packages installed from a local file, where ``pip freeze`` writes
  ``name @ file://...``: https://github.com/pypa/pip/issues/8176) passed with ``-c``
  (https://pip.pypa.io/en/stable/user_guide/#constraints-files), or ``--no-deps``.
* A stock torch wheel (``2.6.0+cu124``) comes back from PyTorch's index for its CUDA variant
  (``pip install --no-deps torch==2.6.0 --index-url https://download.pytorch.org/whl/cu124``), when the
  bundle's torch-wheels table says PyTorch published that variant for that release.
* A plain PyPI package (no local version label, not a compiled torch extension) comes back with
  ``pip install --no-deps 'NAME==VERSION'``.
"""

from __future__ import annotations

import re
from typing import Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.torch_wheels import (
    index_url,
    listed_releases,
    published_variants,
    torch_release,
    variant_cuda,
)
from lingjun.checks.core.versions import CudaVersion, VersionFormatError
from lingjun.checks.report.findings import Text
from lingjun.checks.rules._packages import _STOCK_LABEL, PackageView, torch_view

__all__ = ["CONSTRAINTS_DOC", "FREEZE_ISSUE", "image_references", "fresh_container", "constraints_install",
           "restorable", "restore_command", "restore_remedy", "remedy_pair", "torch_is_image_build", "torch_wheel",
           "torch_wheel_remedy", "INSTALL_DOC", "installed_torch_is_stock", "release_with_cuda", "architecture_remedy"]

CONSTRAINTS_DOC = "https://pip.pypa.io/en/stable/user_guide/#constraints-files"
FREEZE_ISSUE = "https://github.com/pypa/pip/issues/8176"
#: the two commands that install an extra package without replacing the image's
CONSTRAINTS_EN = ("pip list --format=freeze > /tmp/image-constraints.txt, then pip install -c /tmp/image-constraints.txt "
                  "PACKAGE (or pip install --no-deps PACKAGE)")
#: the commands inside those sentences, which a page shows as code
CONSTRAINTS_COMMANDS = ("pip list --format=freeze > /tmp/image-constraints.txt",
                        "pip install -c /tmp/image-constraints.txt PACKAGE", "pip install --no-deps PACKAGE")
CONSTRAINTS_ZH = ("pip list --format=freeze > /tmp/image-constraints.txt，然后 pip install -c /tmp/image-constraints.txt "
                  "PACKAGE（或 pip install --no-deps PACKAGE）")


def image_references(ctx: CheckContext) -> list[str]:
    """The full references (registry/repository:tag) of the image(s) the record states for this container, else tags."""
    out: list[str] = []
    for tag in ctx.record.image_tags if ctx.record is not None else ():
        ref = tag.reference or tag.tag
        if ref not in out:
            out.append(ref)
    return out


def fresh_container(ctx: CheckContext) -> Text:
    """"start a fresh container from the release's image REF" (no capital, no full stop), both languages."""
    refs = image_references(ctx)
    if len(refs) == 1:
        return Text(f"start a fresh container from the release's image {refs[0]}", f"用该发布的镜像 {refs[0]} 重新启动一个容器")
    if refs:
        shown = " or ".join(refs[:3])
        return Text(f"start a fresh container from the image this one was started from ({shown})",
                    f"用启动本容器的镜像（{'或'.join(refs[:3])}）重新启动一个容器")
    return Text("start a fresh container from the image this one was started from",
                "用启动本容器的镜像重新启动一个容器")


def constraints_install(packages: str = "PACKAGE") -> Text:
    """How to add packages without replacing the image's (``packages`` replaces ``PACKAGE``)."""
    return Text(CONSTRAINTS_EN.replace("PACKAGE", packages), CONSTRAINTS_ZH.replace("PACKAGE", packages))


def torch_is_image_build(ctx: CheckContext) -> bool:
    """Whether the release's torch is the image's own build (no public index serves it)."""
    torch = torch_view(ctx) if ctx.record is not None else None
    return bool(torch is not None and torch.image_build)


def _stock_torch_index(ctx: CheckContext, version: str) -> Optional[tuple[str, str]]:
    """``(release, index URL)`` for a stock torch wheel ``2.6.0+cu124`` whose variant PyTorch published, else None."""
    release, _, label = version.partition("+")
    if not label.startswith("cu"):
        return None
    if label in published_variants(ctx.data.torch_wheels, release):
        return release, index_url(label)
    return None


def restorable(ctx: CheckContext, pkg: PackageView) -> bool:
    """Whether a public index serves the release's version of ``pkg`` for this image (see the module docstring)."""
    return restore_command(ctx, pkg) is not None


def restore_command(ctx: CheckContext, pkg: PackageView) -> Optional[str]:
    """The pip command that puts the release's ``pkg`` back, None when no public index serves it."""
    if pkg.image_build:
        return None
    name = pkg.names[0]
    if pkg.id == "torch":
        found = _stock_torch_index(ctx, pkg.published)
        if found is None:
            return None
        return f"pip install --no-deps torch=={found[0]} --index-url {found[1]}"
    if pkg.catalog.torch_extension:
        return None  # compiled against the image's torch: a rebuilt or prebuilt wheel is not the image's
    if "+" in pkg.published:
        return None  # a local build (``2.3.0+5de3e14``): no public index serves it
    return f"pip install --no-deps '{name}=={pkg.published}'"


def restore_remedy(ctx: CheckContext, pkgs: list[PackageView]) -> Text:
    """One remedy putting ``pkgs`` back: the pip commands for those a public index serves, a fresh container for the rest."""
    commands = [c for c in (restore_command(ctx, p) for p in pkgs) if c and not c.startswith("pip install --no-deps '")]
    plain = [c[len("pip install --no-deps "):] for c in (restore_command(ctx, p) for p in pkgs)
             if c and c.startswith("pip install --no-deps '")]
    if plain:  # one command for the plain PyPI packages
        commands.append("pip install --no-deps " + " ".join(plain))
    fixed = [p for p in pkgs if restore_command(ctx, p) is None]
    parts_en: list[str] = []
    parts_zh: list[str] = []
    if fixed:
        names = ", ".join(f"{p.catalog.label} {p.published}" for p in fixed[:4])
        fresh = fresh_container(ctx)
        parts_en.append(f"No public index serves {names} as the image ships it: {fresh.en}")
        parts_zh.append(f"没有公共索引提供镜像中的 {names}：请{fresh.zh}")
    if commands:
        parts_en.append(("Put the others back with " if fixed else "Put it back with " if len(commands) == 1 else "Put them back with ")
                        + "; ".join(commands))
        parts_zh.append("其余的可用以下命令恢复：" + "；".join(commands) if fixed else "可用以下命令恢复：" + "；".join(commands))
    extra = constraints_install()
    parts_en.append(f"Install extra packages without replacing the image's: {extra.en}")
    parts_zh.append(f"安装其他包时不要替换镜像自带的包：{extra.zh}")
    return Text(". ".join(parts_en) + ".", "。".join(parts_zh) + "。")


def remedy_pair(text: Text) -> tuple[str, str]:
    """A :class:`Text` as the ``(en, zh)`` pair :func:`lingjun.checks.rules._finding.make` takes for ``remedy``."""
    return text.en, text.zh


#: PyTorch's install selector, for when the torch-wheels table cannot name a variant
INSTALL_DOC = "https://pytorch.org/get-started/locally/"


def torch_wheel(ctx: CheckContext, version: Optional[str], at_most: Optional[tuple[int, int]],
                at_least: Optional[tuple[int, int]] = None) -> Optional[tuple[str, str]]:
    """``(release, variant)``: a CUDA wheel PyTorch published whose CUDA lies in ``[at_least, at_most]`` (``at_most``:
    what the driver runs; ``at_least``: what the GPU architecture needs; either may be None, no bound).

    The installed torch's own release first (``2.6.0`` of ``2.6.0+cu124``), so nothing else changes; when the
    bundle's torch-wheels table has no fitting variant for it (or does not list it), the newest listed release
    that has one.  None when no listed release fits.  The variant picked is the newest fitting one, or, with no
    driver bound, the oldest at or above ``at_least`` (it asks the least of the driver).
    """
    table = ctx.data.torch_wheels

    def fitting(release: Optional[str]) -> Optional[str]:
        found = [v for v in published_variants(table, release)
                 if (at_most is None or variant_cuda(v) <= at_most) and (at_least is None or variant_cuda(v) >= at_least)]
        if not found:
            return None
        return found[-1] if at_most is not None else found[0]

    own = torch_release(version)
    for release in ([own] if own else []) + listed_releases(table):
        variant = fitting(release)
        if variant is not None:
            return release, variant
    return None


def installed_torch_is_stock(version: Optional[str]) -> bool:
    """Whether an installed torch ``version`` is a build PyTorch publishes (``2.6.0``, ``2.6.0+cu124``, ``+cpu``),
    not a vendor's (NGC's ``2.9.0a0+50eac81``, the image's ``2.7.1.8+nv25.3``); False when the version is not known.

    >>> installed_torch_is_stock("2.6.0+cu124"), installed_torch_is_stock("2.9.0a0+50eac81"), installed_torch_is_stock(None)
    (True, False, False)
    """
    if not version:
        return False
    public, _, label = version.partition("+")
    return bool(re.fullmatch(r"\d+\.\d+\.\d+", public)) and (not label or bool(_STOCK_LABEL.match(label)))


def torch_wheel_remedy(ctx: CheckContext, version: Optional[str], at_most: Optional[tuple[int, int]],
                       at_least: Optional[tuple[int, int]] = None) -> Optional[Text]:
    """"install the torch R build PyTorch publishes for CUDA X.Y: pip install torch==R --index-url URL" (no capital, no
    full stop), from :func:`torch_wheel`; None when no listed wheel fits, or when torch must not be replaced (the
    image's own build, a vendor's build such as NGC's ``2.9.0a0+50eac81``, torch_xla's CPU torch, or a torch whose
    version is not known): the caller then names a fresh container or another release."""
    if not installed_torch_is_stock(version) or torch_is_image_build(ctx) or any(
            ctx.facts.distribution(n) is not None for n in ("torch-xla", "torch_xla")):
        return None
    found = torch_wheel(ctx, version, at_most, at_least)
    if found is None:
        return None
    release, variant = found
    major, minor = variant_cuda(variant)  # type: ignore[misc]
    command = f"pip install torch=={release} --index-url {index_url(variant)}"
    return Text(f"install the torch {release} build PyTorch publishes for CUDA {major}.{minor}: {command}",
                f"安装 PyTorch 为 torch {release} 发布的 CUDA {major}.{minor} 构建：{command}")


def release_with_cuda(ctx: CheckContext, needed: tuple[int, int]) -> Optional[str]:
    """``family:version`` of the newest release of the running release's family whose CUDA is at least ``needed``
    (newest by the bundle's ``order_key``); None without a release, or when none of the family's records states one."""
    family = ctx.record.family if ctx.record is not None else None
    best: Optional[tuple[list, str]] = None
    for rel in ctx.data.records:
        if rel.family != family or not rel.cuda or rel.order_key is None:
            continue
        try:
            cuda = CudaVersion.parse(rel.cuda)
        except (VersionFormatError, ValueError):
            continue
        if cuda.major_minor >= needed and (best is None or rel.order_key > best[0]):
            best = (rel.order_key, f"{family}:{rel.version}")
    return best[1] if best else None


def architecture_remedy(ctx: CheckContext, torch_version: Optional[str], needed: Optional[tuple[int, int]],
                        at_most: Optional[tuple[int, int]]) -> Text:
    """The fix for a GPU whose architecture the image's CUDA or torch predates (``needed``: the first CUDA that
    supports it; ``at_most``: what the driver runs, None when not known): the newest release of this family built
    on a CUDA that new, a torch wheel PyTorch publishes for it (:func:`torch_wheel_remedy`), or both."""
    if needed is None:
        return Text("Use an image release and torch build whose CUDA supports this GPU architecture.",
                    "请改用其 CUDA 支持该 GPU 架构的镜像版本与 torch 构建。")
    cuda = f"{needed[0]}.{needed[1]}"
    parts_en: list[str] = []
    parts_zh: list[str] = []
    release = release_with_cuda(ctx, needed)
    if release is not None:
        parts_en.append(f"use the release {release}, built on CUDA {cuda} or newer")
        parts_zh.append(f"改用基于 CUDA {cuda} 或更新版本的发布 {release}")
    wheel = torch_wheel_remedy(ctx, torch_version, at_most, needed)
    if wheel is not None:
        parts_en.append(wheel.en)
        parts_zh.append(wheel.zh)
    if not parts_en:
        return Text(f"Use an image release and torch build on CUDA {cuda} or newer, the first that supports this GPU "
                    f"architecture (PyTorch's selector: {INSTALL_DOC}).",
                    f"请改用基于 CUDA {cuda} 或更新版本的镜像版本与 torch 构建（CUDA {cuda} 起支持该 GPU 架构；"
                    f"PyTorch 安装选择器：{INSTALL_DOC}）。")
    en = " or ".join(parts_en)
    return Text(en[:1].upper() + en[1:] + ".", "，或".join(parts_zh) + "。")
