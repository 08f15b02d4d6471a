"""checks/core/atomic_write: the one atomic file writer (snapshot, zipapp, schema export)."""

import os
import stat

import pytest

from lingjun.checks.core.atomic_write import atomic_write


def test_atomic_write_text_bytes_mode_and_parents(tmp_path):
    target = tmp_path / "a" / "b" / "out.txt"
    atomic_write(target, "é\nx\n", make_parents=True)
    assert target.read_bytes() == "é\nx\n".encode("utf-8")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    atomic_write(str(target), b"\x00bin", mode=0o755)
    assert target.read_bytes() == b"\x00bin"
    assert stat.S_IMODE(target.stat().st_mode) == 0o755
    assert sorted(os.listdir(target.parent)) == ["out.txt"]


def test_atomic_write_leaves_nothing_behind_on_failure(tmp_path):
    with pytest.raises(OSError):
        atomic_write(tmp_path / "missing" / "out.txt", "x")
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "target").mkdir()  # os.replace of a file over a folder fails
    with pytest.raises(OSError):
        atomic_write(folder / "target", "x")
    assert sorted(os.listdir(folder)) == ["target"]
