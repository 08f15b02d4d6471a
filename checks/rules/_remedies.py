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

from typing import Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.report.findings import Text
from lingjun.checks.rules._packages import PackageView, torch_view

__all__ = ["CONSTRAINTS_DOC", "FREEZE_ISSUE", "image_references", "fresh_container", "constraints_install",
           "restorable", "restore_command", "restore_remedy", "remedy_pair", "torch_is_image_build"]

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
    for tag in (ctx.record or {}).get("image_tags") or []:
        if isinstance(tag, dict):
            ref = tag.get("reference") or tag.get("tag")
            if isinstance(ref, str) and ref not in out:
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
    from lingjun.checks.core.torch_wheels import index_url, published_variants

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
    if pkg.catalog.get("torch_extension"):
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
        names = ", ".join(f"{p.catalog.get('name', p.id)} {p.published}" for p in fixed[:4])
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
