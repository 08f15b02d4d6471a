"""Stream and folder edges found by a red-team trial: no node disappears without a word, reading always stops,
and text in another encoding or with CR line ends is named or read."""

from __future__ import annotations

import io
import json
import os

import pytest

import fleet_corpus
from lingjun.checks.fleet import _inputs
from lingjun.checks.fleet._inputs import read_inputs


@pytest.fixture(scope="module")
def lines():
    base = fleet_corpus.base_snapshot()
    return [json.dumps(s, separators=(",", ":")) for s in fleet_corpus.node_snapshots(12, base=base)[:3] if s]


def _names(records):
    from lingjun.checks.fleet._identity import own_name

    return [own_name(r)[0] for r in records]


@pytest.mark.parametrize("prefix, pod", [
    ("[pod/a/b]", "a"),                       # no space after the prefix
    ("[pod//c] ", None),                      # an empty pod name
    ("[pod/a] ", "a"),                        # no container
    ("[pod/a/b] [pod/x/y] ", "a"),            # two prefixes
    ("\t", None),                             # a leading tab
    ("\ufeff", None),                         # a byte order mark at a line start mid-stream (files concatenated)
    ("2025-08-01T10:00:00Z [pod/a/b]", "a"),  # a time stamp, then a prefix without its space
    ("node-7 | ", None),                      # a prefix this reader does not know (another log shipper)
])
def test_every_line_holding_a_record_is_read_whatever_its_prefix(lines, prefix, pod):
    text = lines[0] + "\n" + prefix + lines[1] + "\n" + lines[2] + "\n"
    records, problems = read_inputs(["-"], stdin=io.BytesIO(text.encode("utf-8")))
    assert problems == []
    assert [r.line for r in records] == [1, 2, 3]
    assert records[1].pod == pod
    assert _names(records) == ["gpu-node-0000", "gpu-node-0001", "gpu-node-0002"]


def test_a_record_after_an_unknown_prefix_that_cannot_be_read_is_named(lines):
    text = lines[0] + "\n" + "junk> " + lines[1][:3000] + "\n"
    records, problems = read_inputs(["-"], stdin=io.BytesIO(text.encode("utf-8")))
    assert len(records) == 1
    assert [(p.input, p.line) for p in problems] == [("stdin", 2)]
    assert problems[0].reason.startswith("not a complete JSON object (cut short?)")


def test_cr_only_line_ends_are_read_as_lines(lines):
    records, problems = read_inputs(["-"], stdin=io.BytesIO("\r".join(lines).encode("utf-8") + b"\r"))
    assert problems == []
    assert _names(records) == ["gpu-node-0000", "gpu-node-0001", "gpu-node-0002"]


@pytest.mark.parametrize("encoding, named", [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-32", "UTF-32")])
def test_wide_text_is_named_by_its_encoding(lines, tmp_path, encoding, named):
    path = tmp_path / "ps.log"
    path.write_bytes(("\n".join(lines) + "\n").encode(encoding))
    records, problems = read_inputs([str(path)])
    assert records == []
    assert [str(p) for p in problems] == [f"{path}: {named} text, not UTF-8: convert it first (iconv -f {named} -t UTF-8); not read"]


class _Endless(io.RawIOBase):
    """/dev/zero as a binary stream: NUL bytes for ever, no line end."""

    def __init__(self):
        self.given = 0

    def readable(self):
        return True

    def readline(self, size=-1):
        size = 1 << 20 if size is None or size < 0 else size
        self.given += size
        return b"\0" * size


def test_reading_stops_at_the_total_cap_even_inside_an_over_long_line(monkeypatch):
    monkeypatch.setattr(_inputs, "MAX_LINE_BYTES", 64 * 1024)
    monkeypatch.setattr(_inputs, "MAX_FILE_BYTES", 8 * 1024 * 1024)
    endless = _Endless()
    records, problems = read_inputs(["-"], stdin=endless)
    assert records == []
    assert [str(p) for p in problems] == ["stdin:1: line longer than 65536 bytes; skipped",
                                          "stdin:1: more than 8 MiB; the rest is not read"]
    assert endless.given <= 8 * 1024 * 1024 + 2 * 1024 * 1024


def test_over_long_lines_count_towards_the_cap(monkeypatch, lines):
    monkeypatch.setattr(_inputs, "MAX_LINE_BYTES", 1024)
    monkeypatch.setattr(_inputs, "MAX_FILE_BYTES", 64 * 1024)
    text = ("x" * 5000 + "\n") * 40 + lines[0] + "\n"  # 200 KB of skipped lines, then a record past the cap
    records, problems = read_inputs(["-"], stdin=io.BytesIO(text.encode()))
    assert records == []
    assert str(problems[-1]) == "stdin:14: more than 65536 bytes; the rest is not read"  # 14 lines of 5,001 bytes > 64 KiB
    assert [str(p) for p in problems[:-1]] == [f"stdin:{n}: line longer than 1024 bytes; skipped" for n in range(1, 14)]


def _lock(monkeypatch, locked):
    """Make listing ``locked`` fail as an unreadable folder does for a user other than root (the tests may run as root)."""
    real = os.scandir

    def scandir(path="."):
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_an_unreadable_subfolder_is_named(lines, tmp_path, monkeypatch):
    (tmp_path / "a.json").write_text(lines[0], encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.json").write_text(lines[1], encoding="utf-8")
    _lock(monkeypatch, locked)
    records, problems = read_inputs([str(tmp_path)])
    assert len(records) == 1
    assert [str(p) for p in problems] == [f"{locked}: cannot read this folder: Permission denied; its files are not read"]


def test_an_unreadable_folder_says_permission_denied(lines, tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "b.json").write_text(lines[1], encoding="utf-8")
    _lock(monkeypatch, locked)
    records, problems = read_inputs([str(locked)])
    assert records == []
    assert [str(p) for p in problems] == [f"{locked}: cannot read this folder: Permission denied; its files are not read"]


def test_a_folder_of_links_says_links_are_not_followed(lines, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.json").write_text(lines[0], encoding="utf-8")
    links = tmp_path / "links"
    links.mkdir()
    (links / "a.json").symlink_to(real / "a.json")
    (links / "b.json").symlink_to(real / "a.json")
    records, problems = read_inputs([str(links)])
    assert records == []
    assert [str(p) for p in problems] == [f"{links}: folder without *.json, *.jsonl or *.log files but with 2 links, "
                                          "which are not followed: give the files they point to"]


def test_a_link_beside_real_files_is_said_in_a_note(lines, tmp_path, capsys):
    """A symlinked snapshot next to real ones: skipped, and said (a note: the exit code stays the nodes')."""
    from lingjun.checks.fleet._cli import main

    real = tmp_path / "real"
    real.mkdir()
    (real / "b.json").write_text(lines[1], encoding="utf-8")
    folder = tmp_path / "fleet"
    folder.mkdir()
    (folder / "a.json").write_text(lines[0], encoding="utf-8")
    (folder / "b.json").symlink_to(real / "b.json")
    (folder / "more").symlink_to(real, target_is_directory=True)
    records, problems = read_inputs([str(folder)])
    assert len(records) == 1
    reason = ("a symbolic link, skipped: links inside a folder are not followed (one may lead outside it, or to a file "
              "read twice); give the file it points to on the command line")
    assert [(str(p), p.note) for p in problems] == [(f"{folder / 'b.json'}: {reason}", True),
                                                    (f"{folder / 'more'}: {reason}", True)]
    status = main([str(folder), "--lang", "en"])
    out = capsys.readouterr()
    assert f"{folder / 'b.json'}: {reason}" in out.out + out.err
    assert status == main([str(folder / "a.json"), "--lang", "en"])  # a note leaves the exit code alone
