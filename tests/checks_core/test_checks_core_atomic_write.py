"""checks/core/atomic_write: the one atomic file writer (snapshot, zipapp, schema export), and what it refuses to replace."""

import os
import stat

import pytest

from hostile_paths import HOSTILE_OUTPUT_KINDS, node_state
from lingjun.checks.core.atomic_write import UnsafeOutputPath, atomic_write, check_output_file


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


@pytest.mark.parametrize("kind", sorted(HOSTILE_OUTPUT_KINDS))
def test_atomic_write_refuses_every_kind_of_path_that_is_not_a_regular_file(kind, hostile_node):
    path = hostile_node(kind)
    before = node_state(path)
    folder = os.path.dirname(path) if path else None
    listing = sorted(os.listdir(folder)) if folder else None
    with pytest.raises(UnsafeOutputPath) as info:
        atomic_write(path, "x", make_parents=True)
    assert HOSTILE_OUTPUT_KINDS[kind] in info.value.strerror
    assert node_state(path) == before  # same kind, inode, device numbers, content or link target
    if folder:
        assert sorted(os.listdir(folder)) == listing  # no temporary file left


@pytest.mark.parametrize("name", ["out/", "a/b/"])
def test_a_path_ending_with_a_separator_is_refused_even_when_absent(name, tmp_path):
    with pytest.raises(UnsafeOutputPath, match="ends with a path separator"):
        atomic_write(f"{tmp_path}/{name}", "x", make_parents=True)
    assert os.listdir(tmp_path) == []


def test_check_output_file_allows_a_new_file_and_a_regular_file(tmp_path, hostile_node):
    check_output_file(tmp_path / "new.json")
    check_output_file(tmp_path / "missing" / "folder" / "new.json")
    existing = hostile_node("regular file")
    check_output_file(existing)
    atomic_write(existing, "replaced")
    assert open(existing, encoding="utf-8").read() == "replaced"


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    # opening a FIFO for writing would wait for a reader forever: the check never opens it
    with pytest.raises(UnsafeOutputPath, match="a FIFO"):
        check_output_file(fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
