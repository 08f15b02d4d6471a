"""lingjun.checks._startup, its first trick: reading the zipapp's directory and serving its bytecode in one pass."""

from __future__ import annotations

import io
import subprocess
import sys
import types
import zipfile

import pytest

from lingjun.checks._startup import ArchiveFinder, install_archive_finder, read_directory
from lingjun.generator.zipapp import build_zipapp, with_bytecode, zip_entries


@pytest.fixture(scope="module")
def pyz(checker_pyz):
    return checker_pyz


def _finder(path) -> ArchiveFinder:
    data = path.read_bytes()
    return ArchiveFinder(str(path), data, read_directory(data))


def test_read_directory_matches_zipfile_after_a_shebang_line():
    buffer = io.BytesIO()
    buffer.write(b"#!/usr/bin/env python3\n")
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a/stored.txt", b"plain", compress_type=zipfile.ZIP_STORED)
        archive.writestr("a/deflated.txt", b"x" * 5000, compress_type=zipfile.ZIP_DEFLATED)
    data = buffer.getvalue()
    entries = read_directory(data)
    assert sorted(entries) == ["a/deflated.txt", "a/stored.txt"]
    assert entries["a/stored.txt"][0] == 0 and entries["a/deflated.txt"][0] == 8
    finder = ArchiveFinder("/x.pyz", data, entries)
    assert finder.get_data("/x.pyz/a/stored.txt") == b"plain"
    assert finder.get_data("a/deflated.txt") == b"x" * 5000
    with pytest.raises(OSError):
        finder.get_data("/x.pyz/a/missing.txt")


@pytest.mark.parametrize("data", [b"", b"not a zip at all", b"PK\x05\x06" + b"\xff" * 18])
def test_read_directory_refuses_what_is_not_a_plain_zip(data):
    with pytest.raises(ValueError):
        read_directory(data)


def test_finder_serves_the_archive_bytecode_with_zipimport_style_locations(pyz):
    finder = _finder(pyz)
    spec = finder.find_spec("lingjun.checks.core.requirement_name")
    assert spec is not None and spec.loader is finder
    assert spec.origin == f"{pyz}/lingjun/checks/core/requirement_name.py" and spec.has_location
    package = finder.find_spec("lingjun.checks.probes")
    assert package.submodule_search_locations == [f"{pyz}/lingjun/checks/probes"]
    assert finder.find_spec("json") is None and finder.find_spec("lingjun.schema.gate") is None
    module = types.ModuleType(spec.name)
    module.__spec__ = spec
    finder.exec_module(module)
    assert module.leading_name("Torch_Vision>=0.15") == "torch-vision"
    assert "def leading_name" in finder.get_source("lingjun.checks.core.requirement_name")
    assert finder.is_package("packaging") and not finder.is_package("packaging.version")
    assert finder.get_data(f"{pyz}/lingjun/checks/data/bundle.json").startswith(b"{")


def test_finder_steps_aside_for_bytecode_of_another_interpreter(pyz, tmp_path):
    entries = []
    for name, content in with_bytecode(zip_entries()):
        if name == "lingjun/checks/core/versions.pyc":
            content = b"\x00\x00\r\n" + content[4:]  # another Python's magic number
        entries.append((name, content))
    other = tmp_path / "other.pyz"
    build_zipapp(other, entries)
    finder = _finder(other)
    assert finder.find_spec("lingjun.checks.core.versions") is None  # zipimport compiles the source instead
    assert finder.find_spec("lingjun.checks.facts") is not None


def test_install_refuses_a_file_that_is_not_an_archive(tmp_path):
    path = tmp_path / "plain.txt"
    path.write_text("hello\n")
    before = list(sys.meta_path)
    assert install_archive_finder(str(path)) is None and install_archive_finder(str(tmp_path / "absent.pyz")) is None
    assert sys.meta_path == before


def test_zipapp_run_imports_through_the_finder(pyz):
    probe = (
        "import runpy, sys; sys.argv = [sys.argv[0], '--version']\n"
        "try:\n    runpy.run_path(sys.argv[0], run_name='__main__')\nexcept SystemExit as exc:\n    code = exc.code\n"
        "import lingjun.checks.cli as cli\n"
        "print(code, type(cli.__loader__).__name__, cli.__file__)\n"
    )
    result = subprocess.run([sys.executable, "-I", "-c", probe.replace("sys.argv[0]", repr(str(pyz)))], capture_output=True, text=True, timeout=60, cwd="/")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"0 ArchiveFinder {pyz}/lingjun/checks/cli.py"
