"""checks/core/atomic_write: the one atomic file writer (snapshot, zipapp, schema export), and what it refuses to replace."""

import os
import stat

import pytest

from hostile_paths import HOSTILE_OUTPUT_KINDS, node_folder, node_state
from checks_core_helpers import run_cli
from lingjun.checks.core.atomic_write import UnsafeOutputPath, atomic_write, check_output_file, read_prefix


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
    folder = node_folder(path) if path else None
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


# --------------------------------------------------------------------------
# an existing regular file is replaced only when the command wrote it (replaceable=)
# --------------------------------------------------------------------------


def test_a_regular_file_the_predicate_does_not_recognise_is_refused_and_kept(tmp_path):
    target = tmp_path / "README.md"
    target.write_text("# the project's own file\n", encoding="utf-8")
    seen = []

    def ours(path):
        seen.append(path)
        return read_prefix(path, 6) == b"MINE\n\n"

    with pytest.raises(UnsafeOutputPath, match=r"exists and is not a test file; only a new file or a test file is replaced"):
        atomic_write(target, "x", replaceable=ours, ours="a test file")
    assert target.read_text(encoding="utf-8") == "# the project's own file\n"
    assert seen == [str(target)] and os.listdir(tmp_path) == ["README.md"]
    target.write_text("MINE\n\nold", encoding="utf-8")
    atomic_write(target, "MINE\n\nnew", replaceable=ours, ours="a test file")
    assert target.read_text(encoding="utf-8") == "MINE\n\nnew"
    check_output_file(tmp_path / "absent", replaceable=lambda path: False)  # a new file needs no predicate


def test_read_prefix_reads_a_bounded_prefix_and_never_follows_or_blocks(tmp_path):
    data = tmp_path / "data"
    data.write_bytes(b"x" * 10000)
    assert read_prefix(data, 16) == b"x" * 16
    link = tmp_path / "link"
    link.symlink_to(data)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert read_prefix(link) == b"" and read_prefix(fifo) == b"" and read_prefix(tmp_path / "absent") == b""


@pytest.mark.parametrize("content,replaceable", [
    ('{\n  "schema": "lingjun-check/snapshot/1",\n  "host": {}\n}\n', True),
    ('{"schema":"lingjun-check/snapshot/1"}', True),
    ('{\n  "schema": "lingjun-check/snapshot/2"\n}\n', False),
    ('{\n  "host": {},\n  "schema": "lingjun-check/snapshot/1"\n}\n', False),  # ours always writes "schema" first
    ("# README\n", False),
    ("", False),
])
def test_collect_replaces_only_a_previous_snapshot(content, replaceable, tmp_path):
    from lingjun.checks.inputs.snapshot import is_previous_snapshot

    target = tmp_path / "facts.json"
    target.write_text(content, encoding="utf-8")
    assert is_previous_snapshot(str(target)) is replaceable
    if replaceable:
        return
    result = run_cli("--collect", str(target))  # refused before any probe runs
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr == (f"lingjun-check: --collect {target}: cannot write: exists and is not a lingjun-check "
                             "snapshot; only a new file or a lingjun-check snapshot is replaced: remove it or choose "
                             "another name\n")
    assert target.read_text(encoding="utf-8") == content


def test_write_snapshot_replaces_its_own_snapshot(tmp_path):
    from lingjun.checks.facts import Facts
    from lingjun.checks.inputs.snapshot import write_snapshot

    target = tmp_path / "facts.json"
    write_snapshot(Facts(), str(target))
    first = target.read_text(encoding="utf-8")
    assert first.startswith('{\n  "schema": "lingjun-check/snapshot/1",')
    facts = Facts()
    facts.collected_at = "2026-01-01T00:00:00Z"
    write_snapshot(facts, str(target))
    assert '"collected_at": "2026-01-01T00:00:00Z"' in target.read_text(encoding="utf-8")
    target.write_text("precious", encoding="utf-8")
    with pytest.raises(UnsafeOutputPath, match="is not a lingjun-check snapshot"):
        write_snapshot(facts, str(target))
    assert target.read_text(encoding="utf-8") == "precious"
