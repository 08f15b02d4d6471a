"""lingjun-kb and paths the system refuses, output files that are not files, bounds of options, Ctrl-C: one line, never a traceback."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from hostile_paths import HOSTILE_OUTPUT_KINDS, make_hostile_node, node_state
from lingjun.generator import cli
from lingjun.generator.cli import MAX_BYTES_LIMIT, main
from lingjun.schema.export import schema_file_name, write_schemas

ROOT = Path(__file__).resolve().parents[2]
GATE_FIXTURES = ROOT / "tests" / "fixtures" / "gate"
LONG = "a" * 300  # one name past NAME_MAX (255)


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "releases"
    shutil.copytree(GATE_FIXTURES / "base", root)
    return root


def _run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _usage(capsys, *args: str) -> str:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    assert exc.value.code == 2
    return capsys.readouterr().err


def _refused_names(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Paths ``stat`` refuses with an error other than 'missing': ``{kind: (path, the system's words)}``."""
    afile = tmp_path / "afile"
    afile.write_text("x\n", encoding="utf-8")
    deep = str(tmp_path) + ("/" + "d" * 200) * 25  # > PATH_MAX (4096) in all
    return {
        "name too long": (str(tmp_path / f"{LONG}.yaml"), "File name too long"),
        "path too long": (deep + "/25.01.yaml", "File name too long"),
        "through a file": (str(afile / "25.01.yaml"), "Not a directory"),
    }


# --------------------------------------------------------------------------
# paths the system refuses
# --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["name too long", "path too long", "through a file"])
def test_validate_a_path_the_system_refuses_is_a_usage_error(kind, tmp_path, capsys):
    path, words = _refused_names(tmp_path)[kind]
    err = _usage(capsys, "validate", path)
    assert "Traceback" not in err
    last = err.splitlines()[-1]
    # a path is quoted cut to 256 characters with the count of the rest, so the reason after it is always seen
    assert last.startswith(f"lingjun-kb: error: {path[:256]}") and last.endswith(f": {words}")
    assert len(last) < 400


@pytest.mark.parametrize("kind", ["name too long", "path too long", "through a file"])
def test_validate_root_the_system_refuses_is_a_usage_error(kind, tmp_path, capsys):
    path, _ = _refused_names(tmp_path)[kind]
    err = _usage(capsys, "validate", "--root", path, str(_tree(tmp_path) / "families.yaml"))
    last = err.splitlines()[-1]
    assert last.startswith(f"lingjun-kb: error: --root {path[:256]}") and last.endswith(" is not a folder")


@pytest.mark.parametrize("command", [
    ["new", "demo-nv", "25.03", "--releases", "{}"],
    ["schema", "--out", "{}"],
    ["schema", "--check", "--out", "{}"],
    ["build", "--releases", "{}", "--site-dir", "{tmp}/site"],
    ["bundle", "--releases", "{}", "--output", "{tmp}/x.pyz"],
    ["bundle", "--output", "{}"],
])
@pytest.mark.parametrize("kind", ["name too long", "path too long"])
def test_every_sub_command_words_a_refused_path_in_one_line(command, kind, tmp_path, capsys):
    path, words = _refused_names(tmp_path)[kind]
    args = [a.replace("{}", path).replace("{tmp}", str(tmp_path)) for a in command]
    code, out, err = _run(capsys, *args)
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"lingjun-kb {command[0]}: ") and words in lines[0], err
    assert not (tmp_path / "site").exists() and not (tmp_path / "x.pyz").exists()


# --------------------------------------------------------------------------
# bounded options
# --------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "-1", "1.5", "0x10", "", str(MAX_BYTES_LIMIT + 1), "9" * 30, "9" * 5000])
def test_max_bytes_out_of_bounds_is_a_usage_error(value, capsys):
    err = _usage(capsys, "validate", f"--max-bytes={value}", str(GATE_FIXTURES / "base"))
    assert err.splitlines()[-1] == (f"lingjun-kb validate: error: argument --max-bytes: "
                                    f"must be a whole number from 1 to {MAX_BYTES_LIMIT} (1 GiB)")


@pytest.mark.parametrize("value", ["1", str(MAX_BYTES_LIMIT)])
def test_max_bytes_at_the_bounds_is_used(value, tmp_path, capsys):
    code, out, _ = _run(capsys, "validate", "-q", "--max-bytes", value, str(_tree(tmp_path)))
    if value == "1":
        assert code == 1 and "over the limit of 1 bytes [error file.size]" in out
    else:
        assert code == 0, out


# --------------------------------------------------------------------------
# a folder where a data file is expected
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["demo-nv/25.11.yaml", "demo-nv/25.11.yml", "known-issues/new-issue.yaml", "extra.yaml"])
def test_a_folder_named_like_a_data_file_is_an_error_not_skipped(name, tmp_path, capsys):
    root = _tree(tmp_path)
    folder = root / name
    folder.mkdir()
    (folder / "inside.yaml").write_text("kind: families\n", encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", str(root))
    assert code == 1
    assert (f"{folder}: a folder named like a data file; a release data file must be a plain file "
            "(rename or remove the folder) [error file.read]") in out.splitlines()
    assert "inside.yaml" not in out  # not walked into


# --------------------------------------------------------------------------
# output files: only created, or a regular file replaced
# --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(HOSTILE_OUTPUT_KINDS))
def test_bundle_output_refuses_every_target_that_is_not_a_new_or_regular_file(kind, hostile_node, capsys):
    path = hostile_node(kind)
    before = node_state(path)
    code, out, err = _run(capsys, "bundle", "--output", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"lingjun-kb bundle: --output {path}: ")
    assert HOSTILE_OUTPUT_KINDS[kind] in err
    assert node_state(path) == before


@pytest.mark.parametrize("kind", sorted(set(HOSTILE_OUTPUT_KINDS) - {"empty name", "path through a file"}))
def test_schema_never_replaces_a_schema_file_that_is_not_a_regular_file(kind, tmp_path, capsys):
    out_dir = tmp_path / "schemas"
    write_schemas(out_dir)
    target = out_dir / schema_file_name("release")
    target.unlink()
    made = make_hostile_node(tmp_path, kind)
    os.rename(made, target)
    before = node_state(str(target))
    for kind_before in ("components", "families"):  # written before "release" when nothing is checked first
        (out_dir / schema_file_name(kind_before)).unlink()
    code, _, err = _run(capsys, "schema", "--out", str(out_dir))
    assert code == 2 and "Traceback" not in err
    assert err.count("\n") == 1 and HOSTILE_OUTPUT_KINDS[kind] in err and err.endswith("; nothing was written\n")
    assert f"{target} " in err
    assert node_state(str(target)) == before
    assert not (out_dir / schema_file_name("components")).exists() and not (out_dir / schema_file_name("families")).exists()


_REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("source", ["README.md", "releases/families.yaml", "checks/cli.py", "mkdocs.yml"])
def test_bundle_output_never_replaces_a_project_file(source, tmp_path, monkeypatch, capsys):
    """A copy of a project file (the layout of the checkout, in a temporary folder): refused, kept byte for byte."""
    monkeypatch.chdir(tmp_path)
    target = tmp_path / source
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(_REPO / source, target)
    before = target.read_bytes()
    code, out, err = _run(capsys, "bundle", "--output", source)
    assert (code, out) == (2, "")
    assert err == (f"lingjun-kb bundle: --output {source}: exists and is not a lingjun-check zipapp; only a new file "
                   "or a lingjun-check zipapp is replaced: remove it or choose another name\n")
    assert target.read_bytes() == before


def test_build_zipapp_replaces_only_its_own_previous_zipapp(tmp_path):
    from lingjun.checks.core.atomic_write import UnsafeOutputPath
    from lingjun.generator.zipapp import build_zipapp, is_previous_zipapp

    out = tmp_path / "lingjun-check.pyz"
    build_zipapp(out, [("__main__.py", b"print(1)\n"), ("lingjun/checks/__init__.py", b"")])
    assert is_previous_zipapp(str(out))
    build_zipapp(out, [("__main__.py", b"print(2)\n"), ("lingjun/checks/__init__.py", b"")])  # replaced
    import zipfile
    with zipfile.ZipFile(out) as archive:
        assert archive.read("__main__.py") == b"print(2)\n"
    other = tmp_path / "other.pyz"  # the same shebang and a zip, but not lingjun-check
    build_zipapp(other, [("__main__.py", b"print(3)\n")])
    not_zip = tmp_path / "script"
    not_zip.write_bytes(b"#!/usr/bin/env python3\nprint(4)\n")
    for path in (other, not_zip):
        before = path.read_bytes()
        assert not is_previous_zipapp(str(path))
        with pytest.raises(UnsafeOutputPath, match="is not a lingjun-check zipapp"):
            build_zipapp(path, [("__main__.py", b""), ("lingjun/checks/__init__.py", b"")])
        assert path.read_bytes() == before

# --------------------------------------------------------------------------
# Ctrl-C
# --------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["validate"], ["new", "demo-nv", "25.03"], ["schema"], ["build"], ["serve"], ["bundle"]])
def test_ctrl_c_in_any_sub_command_is_one_line_and_exit_130(argv, monkeypatch, capsys):
    def interrupted(args, parser):
        raise KeyboardInterrupt

    monkeypatch.setitem(cli._HANDLERS, argv[0], interrupted)
    code, out, err = _run(capsys, *argv)
    assert (code, out, err) == (130, "", f"lingjun-kb {argv[0]}: interrupted\n")


def test_ctrl_c_inside_validation_is_not_taken_for_an_internal_error(monkeypatch, tmp_path, capsys):
    import lingjun.schema.gate.validate as gate

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(gate, "validate", interrupted)
    code, out, err = _run(capsys, "validate", str(_tree(tmp_path)))
    assert (code, out, err) == (130, "", "lingjun-kb validate: interrupted\n")


# --------------------------------------------------------------------------
# output folders that cannot take a file: refused first, one line, exit 2
# --------------------------------------------------------------------------


@pytest.fixture()
def read_only_folder(tmp_path):
    """A folder on a file system mounted read-only (a tmpfs; root only, as CI runs the tests)."""
    import subprocess

    folder = tmp_path / "ro"
    folder.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a read-only tmpfs here (needs root): {made.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def _work_started(*args, **kwargs):
    raise AssertionError("the command did its work before refusing the output path")


#: every output option of lingjun-kb, with a function of the work that must not start before the refusal
_OUTPUT_OPTIONS = {
    "schema --out": (["schema", "--out", "{dir}/schemas"], None),
    "bundle --output": (["bundle", "--output", "{dir}/x.pyz"], "lingjun.generator.zipapp.bundle_text"),
    "bundle --configmap --output": (["bundle", "--configmap", "--output", "{dir}/x.yaml"], "lingjun.generator.zipapp.bundle_text"),
    "build --site-dir": (["build", "--releases", str(GATE_FIXTURES / "base"), "--site-dir", "{dir}/site"],
                         "lingjun.generator.site.build.load_validated"),
    "import --output": (["import", str(ROOT / "tests/fixtures/seeds/training-nv-pytorch-25.07.en.txt"), "-o", "{dir}/x.yaml"],
                        "lingjun.generator.importer.import_page"),
}


@pytest.mark.parametrize("option", sorted(_OUTPUT_OPTIONS))
@pytest.mark.parametrize("folder_kind,words", [
    ("through a file", "is a regular file, not a folder"),
    ("read-only file system", "is on a read-only file system"),
])
def test_every_output_option_refuses_a_folder_that_cannot_take_a_file_first(option, folder_kind, words, tmp_path, capsys,
                                                                             monkeypatch, request):
    import importlib

    argv, work = _OUTPUT_OPTIONS[option]
    if folder_kind == "through a file":
        folder = tmp_path / "README.md"
        folder.write_text("precious\n", encoding="utf-8")
    else:
        folder = request.getfixturevalue("read_only_folder")
    if work:
        module, name = work.rsplit(".", 1)
        monkeypatch.setattr(importlib.import_module(module), name, _work_started)
    code, out, err = _run(capsys, *[a.replace("{dir}", str(folder)) for a in argv])
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith(f"lingjun-kb {argv[0]}: ") and words in err, err
    if folder_kind == "through a file":
        assert folder.read_text(encoding="utf-8") == "precious\n"


def test_new_refuses_a_releases_folder_on_a_read_only_file_system_before_loading(read_only_folder, tmp_path, capsys,
                                                                                 monkeypatch):
    import subprocess

    import lingjun.generator.new_release as new_release

    source = _tree(tmp_path)
    made = subprocess.run(["mount", "--bind", "-o", "ro", str(source), str(read_only_folder)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot bind-mount read-only here: {made.stderr.strip()}")
    try:
        monkeypatch.setattr(new_release, "load_knowledge_base", _work_started)
        code, out, err = _run(capsys, "new", "demo-nv", "26.11", "--releases", str(read_only_folder))
    finally:
        subprocess.run(["umount", str(read_only_folder)], check=False)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("lingjun-kb new: ") and "is on a read-only file system" in err


def test_schema_write_failure_after_the_checks_is_exit_2(tmp_path, capsys, monkeypatch):
    """A write the system refuses once the checks passed (a full disk): one line, exit 2, as README says."""
    import errno as errnos

    import lingjun.schema.export as export

    def full(*args, **kwargs):
        raise OSError(errnos.ENOSPC, "No space left on device", str(tmp_path / "s" / "x.tmp"))

    monkeypatch.setattr(export, "atomic_write", full)
    code, out, err = _run(capsys, "schema", "--out", str(tmp_path / "s"))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "No space left on device" in err


# --------------------------------------------------------------------------
# bundle's data file: never into another checkout
# --------------------------------------------------------------------------


def _checkout_copy(folder: Path) -> Path:
    """A copy of what makes a folder a checkout of this project (pyproject.toml, checks/, generator/zipapp.py)."""
    (folder / "generator").mkdir(parents=True)
    shutil.copy(_REPO / "pyproject.toml", folder / "pyproject.toml")
    shutil.copy(_REPO / "generator" / "zipapp.py", folder / "generator" / "zipapp.py")
    shutil.copytree(_REPO / "checks", folder / "checks", ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_bundle_refuses_to_write_the_data_file_of_another_checkout(tmp_path, monkeypatch, capsys):
    """Checkout A installed (editable), bundle run in checkout B: A's tracked bundle.json is left as it is."""
    import lingjun.generator.zipapp as zipapp

    a, b = _checkout_copy(tmp_path / "A"), _checkout_copy(tmp_path / "B")
    data_a, data_b = a / "checks" / "data" / "bundle.json", b / "checks" / "data" / "bundle.json"
    before_a, before_b = data_a.read_bytes(), data_b.read_bytes()
    monkeypatch.setattr(zipapp, "_checks_dir", lambda: (a / "checks").resolve())
    monkeypatch.setattr(zipapp, "bundle_text", _work_started)
    monkeypatch.chdir(b)
    code, out, err = _run(capsys, "bundle", "--releases", str(_REPO / "releases"), "--output", str(tmp_path / "x.pyz"))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and f"this folder is a checkout ({b.resolve()})" in err
    assert f"the editable install of the checkout {a.resolve()}" in err and err.endswith("nothing was written\n")
    assert data_a.read_bytes() == before_a and data_b.read_bytes() == before_b
    assert not (tmp_path / "x.pyz").exists()


def test_bundle_in_its_own_checkout_or_outside_any_writes_the_installed_data_file(tmp_path):
    from lingjun.generator.zipapp import other_checkout_problem

    a = _checkout_copy(tmp_path / "A")
    assert other_checkout_problem(a, a / "checks") is None  # the checkout installed
    assert other_checkout_problem(tmp_path, a / "checks") is None  # not a checkout: the installed package's
    site = tmp_path / "site-packages" / "lingjun" / "checks"
    site.mkdir(parents=True)
    assert "the lingjun-kb that runs is installed at" in other_checkout_problem(a, site)
