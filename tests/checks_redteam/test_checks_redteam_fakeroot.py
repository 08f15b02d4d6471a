"""Probing a hostile root: FIFOs, devices and huge files where the probes expect small text files, symlink loops,
an ld.so.conf include cycle, garbage in /proc/driver/nvidia/version.  No probe may hang until its timeout."""

from __future__ import annotations

import os
import time

from lingjun.checks.probes._collect import collect
from lingjun.checks.probes._base import ProbeEnv

SITE = "usr/local/lib/python3.12/dist-packages"


def _root(tmp_path):
    root = tmp_path / "root"
    site = root / SITE
    (root / "etc/ld.so.conf.d").mkdir(parents=True)
    (root / "proc/driver/nvidia").mkdir(parents=True)
    (root / "usr/local/cuda").mkdir(parents=True)
    (root / "dev").mkdir()
    site.mkdir(parents=True)
    (root / "etc/ld.so.conf").write_text("include /etc/ld.so.conf.d/*.conf\n")
    (root / "etc/ld.so.conf.d/a.conf").write_text("include /etc/ld.so.conf\ninclude /etc/ld.so.conf.d/b.conf\n/usr/lib/a\n")
    (root / "etc/ld.so.conf.d/b.conf").write_text("include /etc/ld.so.conf.d/a.conf\n/usr/lib/b\n")
    os.symlink("loop1.conf", root / "etc/ld.so.conf.d/loop2.conf")
    os.symlink("loop2.conf", root / "etc/ld.so.conf.d/loop1.conf")
    (root / "proc/driver/nvidia/version").write_bytes(b"\x00\xff\xfeNVRM version: NVIDIA UNIX x86_64 Kernel Module  \x1b[31m570.\xff.06\n")
    (root / "dev/nvidiactl").touch()
    os.mkfifo(root / "usr/local/cuda/version.json")
    os.symlink(".", site / "loop")
    os.symlink("x.dist-info", site / "y.dist-info")
    os.symlink("y.dist-info", site / "x.dist-info")
    good = site / "torch-2.7.0.dist-info"
    good.mkdir()
    (good / "METADATA").write_text("Metadata-Version: 2.1\nName: torch\nVersion: 2.7.0\n")
    (site / "fifo-1.0.dist-info").mkdir()
    os.mkfifo(site / "fifo-1.0.dist-info/METADATA")
    (site / "zero-1.0.dist-info").mkdir()
    os.symlink("/dev/zero", site / "zero-1.0.dist-info/METADATA")
    return root


def test_hostile_root_is_probed_without_timeouts(tmp_path):
    root = _root(tmp_path)
    env = ProbeEnv(root=str(root), environ={"PATH": "/usr/bin:/bin"}, timeout=5)
    start = time.monotonic()
    facts = collect(env)
    elapsed = time.monotonic() - start
    timed_out = [p.name for p in facts.probes if p.timed_out]
    assert timed_out == [], timed_out
    assert elapsed < 5
    assert facts.distribution("torch") is not None and facts.distribution("torch").version == "2.7.0"
    fifo = facts.distribution("fifo")
    assert fifo is None or fifo.error
    assert facts.cuda.toolkit_version is None
    assert facts.driver.kernel_module_version is None or facts.driver.kernel_module_version.isascii()
