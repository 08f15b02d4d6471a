"""Pages the importer refuses: one line ``lingjun-kb import: PAGE: reason`` on stderr, exit 2 (or 1), no traceback."""

from __future__ import annotations

import os

import pytest

from importer_kit import RELEASES, seed
from lingjun.generator.cli import main
from lingjun.generator.importer import MAX_PAGE_BYTES


def _run(capsys, *argv):
    status = main(["import", *map(str, argv), "--releases", str(RELEASES)])
    out, err = capsys.readouterr()
    return status, out, err


def _one_line(err: str, page, reason: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"lingjun-kb import: {page}: "), lines[0]
    assert reason in lines[0], lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("content, reason", [
    (b"", "is empty"),
    (b"   \n\t\n", "is empty"),
    (os.urandom(4096).replace(b"\x00", b"\x01") + b"\xff\xfe\xfd", "not UTF-8"),
    (b"\x00\x01binary\x00", "binary"),
    (b"lorem ipsum dolor sit amet\n" * 200, "not an image release-note page"),
    ("# Function Compute 3.0 release notes\n\n## 2025-04\n\n- Added GPU instances.\n- Fixed cold starts.\n"
     "\n| Feature | Region |\n|---|---|\n| Async tasks | cn-hangzhou |\n".encode(), "not an image release-note page"),
    ("本文介绍函数计算的版本发布记录。\n\n| 功能 | 地域 |\n|---|---|\n| 异步任务 | cn-hangzhou |\n".encode("gbk"), "not UTF-8"),
])
def test_garbage_empty_other_product_and_bad_encoding_give_one_line(tmp_path, capsys, content, reason):
    page = tmp_path / "page.md"
    page.write_bytes(content)
    status, out, err = _run(capsys, page)
    assert status == 2 and out == ""
    _one_line(err, page, reason)


def test_a_10_mb_page_is_refused_before_parsing(tmp_path, capsys, monkeypatch):
    page = tmp_path / "huge.md"
    page.write_bytes(b"# training-nv-pytorch 25.07\n" + b"- vllm 0.9.2\n" * (10 * 1024 * 1024 // 13))
    assert page.stat().st_size > MAX_PAGE_BYTES
    import lingjun.generator.importer._reader as reader

    def no_parsing(*_a, **_k):  # pragma: no cover - the size check must come first
        raise AssertionError("parsed a page over the limit")

    monkeypatch.setattr(reader, "markdown_blocks", no_parsing)
    status, out, err = _run(capsys, page)
    assert status == 2 and out == ""
    _one_line(err, page, f"over the {MAX_PAGE_BYTES}-byte limit")


def test_a_folder_and_a_missing_file(tmp_path, capsys):
    status, _, err = _run(capsys, tmp_path)
    assert status == 2
    _one_line(err, tmp_path, "is a folder")
    missing = tmp_path / "nope.md"
    status, _, err = _run(capsys, missing)
    assert status == 2
    _one_line(err, missing, "no such file")


def test_a_fifo_is_refused_without_blocking(tmp_path, capsys):
    fifo = tmp_path / "page.md"
    os.mkfifo(fifo)
    status, _, err = _run(capsys, fifo)
    assert status == 2
    _one_line(err, fifo, "not a regular file")


def test_control_characters_in_the_name_are_escaped(tmp_path, capsys):
    page = tmp_path / "evil\x1b[31m\u202e.md"
    page.write_bytes(b"")
    status, _, err = _run(capsys, page)
    assert status == 2
    assert "\x1b" not in err and "\u202e" not in err
    assert "\\x1b[31m\\u202e.md" in err


def test_control_characters_from_the_page_never_reach_the_terminal(tmp_path, capsys, releases_copy):
    text = ("# training-xpu-pytorch 26.01\n\n## Main features\n\n- Upgraded vllm\x1b]0;pwned\x07 to 0.9.9\u202e.\n\n"
            "## Core components\n\n- vllm 0.9.9\n- Evil\x1b[2J 1.0\n\n## Assets\n\n"
            "- egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-xpu-pytorch:26.01\n")
    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    status = main(["import", str(page), "--releases", str(releases_copy), "-o", "-"])
    out, err = capsys.readouterr()
    assert status == 0
    for raw in ("\x1b", "\x07", "\u202e"):
        assert raw not in out and raw not in err
    assert "Upgraded vllm" in out


def test_an_unknown_family_is_refused_with_status_1(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text("# training-nv-pytorch 25.11\n\n## Core components\n\n- vllm 0.11.0\n", encoding="utf-8")
    releases = tmp_path / "releases"
    releases.mkdir()
    (releases / "families.yaml").write_text((RELEASES / "families.yaml").read_text(encoding="utf-8")
                                            .replace("id: training-nv-pytorch", "id: renamed-family"), encoding="utf-8")
    status = main(["import", str(page), "--releases", str(releases)])
    err = capsys.readouterr().err
    assert status == 1
    _one_line(err, page, "'training-nv-pytorch' is not in")


@pytest.mark.parametrize("text", [
    "# training-nv-pytorch 25.11\n" + "a." * 900_000 + "\n",  # one long host-like word
    "# training-nv-pytorch 25.11\n## Known issues\n" + "".join(" " * (i % 200) + "- x\n" for i in range(9000)),
    "# training-nv-pytorch 25.11\n## Core components\n| | aarch64 | amd64 |\n|---|---|---|\n"
    + "".join(f"| | a{i} 1.{i} | b{i} 2.{i} |\n" for i in range(30000)),
], ids=["long-word", "indented-items", "huge-table"])
def test_hostile_pages_under_the_size_limit_end_quickly_with_one_line(tmp_path, capsys, text):
    import time

    page = tmp_path / "page.md"
    page.write_text(text, encoding="utf-8")
    assert page.stat().st_size <= MAX_PAGE_BYTES
    start = time.perf_counter()
    status, out, err = _run(capsys, page)
    assert time.perf_counter() - start < 10
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv, reason", [
    (["--release", "25.13"], "is neither a month YY.MM"),
    (["--release", "../x"], "is not a release identifier"),
    (["--family", "../../etc"], "is not in"),
])
def test_bad_family_or_release_arguments_are_refused_before_any_path_is_made(tmp_path, capsys, argv, reason):
    page = seed("training-xpu-pytorch-25.05.en.txt")
    status, out, err = _run(capsys, page, *argv)
    assert status in (1, 2) and out == ""
    _one_line(err, page, reason)
