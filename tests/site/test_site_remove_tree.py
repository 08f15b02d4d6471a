"""Removing an old site or a work folder never crosses into a mount placed inside it (a bind mount of releases/,
a home folder over NFS): generator/site/_remove_tree.py."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from lingjun.generator.site._remove_tree import mount_points, remove_tree

needs_root = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None,
                                reason="mounting needs root and mount(8) (CI runs as root)")


def _mount(*args: str) -> None:
    proc = subprocess.run(["mount", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"mount {' '.join(args)} failed here: {proc.stderr.strip()}")


def _tree(root) -> None:
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "page.html").write_text("x")
    (root / "index.html").write_text("x")


def test_a_plain_tree_is_removed_whole(tmp_path):
    site = tmp_path / "site"
    _tree(site)
    os.symlink(tmp_path, site / "link-to-parent")  # a link is removed as a link, its target untouched
    assert remove_tree(site) == []
    assert not site.exists() and tmp_path.is_dir()


@needs_root
@pytest.mark.parametrize("kind", ["bind", "tmpfs"])
def test_a_mount_inside_the_tree_is_left_with_what_it_holds(tmp_path, kind):
    site = tmp_path / "site"
    _tree(site)
    mnt = site / "a" / "mnt"
    mnt.mkdir()
    data = tmp_path / "releases"
    data.mkdir()
    (data / "record.yaml").write_text("kind: release\n")
    if kind == "bind":
        _mount("--bind", str(data), str(mnt))
    else:
        _mount("-t", "tmpfs", "-o", "size=1m", "none", str(mnt))
        (mnt / "record.yaml").write_text("kind: release\n")
    try:
        assert str(mnt) in mount_points()
        assert remove_tree(site) == [str(mnt)]
        assert (mnt / "record.yaml").read_text() == "kind: release\n"
        assert not (site / "index.html").exists() and not (site / "a" / "b").exists()
        assert sorted(os.listdir(site)) == ["a"] and sorted(os.listdir(site / "a")) == ["mnt"]
    finally:
        subprocess.run(["umount", str(mnt)], check=False)
    assert (data / "record.yaml").read_text() == "kind: release\n"


@needs_root
def test_a_build_over_a_site_holding_a_bind_mount_is_refused_and_keeps_the_mounted_folder(tmp_path):
    from site_kit import FIXTURE_KB
    from lingjun.generator.site.build import build_site
    from lingjun.generator.site._site_dir import mark_site

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("previous site")
    mark_site(site)
    data = tmp_path / "releases-copy"
    shutil.copytree(FIXTURE_KB, data)
    before = sorted(str(p.relative_to(data)) for p in data.rglob("*"))
    (site / "mnt").mkdir()
    _mount("--bind", str(data), str(site / "mnt"))
    try:
        from lingjun.generator.site._site_dir import SiteDirRefused

        # the mount is nothing the build wrote: refused in one line before any work, the mounted data untouched
        with pytest.raises(SiteDirRefused, match=r"holds what no build wrote \(mnt\)"):
            build_site(FIXTURE_KB, site, build_dir=tmp_path / "build")
        assert sorted(str(p.relative_to(data)) for p in data.rglob("*")) == before
        assert (site / "index.html").read_text() == "previous site"
    finally:
        for found in sorted(mount_points()):
            if found.startswith(str(tmp_path)):
                subprocess.run(["umount", found], check=False)
