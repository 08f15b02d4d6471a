"""Hostile file systems, output channels and sub-command arguments: one positioned line or a usage error, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lingjun.generator.cli import main
from lingjun.schema.export import render_schema, schema_file_name, write_schemas
from lingjun.schema.models import DOCUMENT_MODELS

ROOT = Path(__file__).resolve().parents[2]
GATE_FIXTURES = ROOT / "tests" / "fixtures" / "gate"
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"


def _tree(tmp_path: Path, name: str = "releases") -> Path:
    root = tmp_path / name
    shutil.copytree(GATE_FIXTURES / "base", root)
    return root


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _usage(capsys, *args: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    assert exc.value.code == 2
    return capsys.readouterr().err


# --------------------------------------------------------------------------
# files that are not plain files
# --------------------------------------------------------------------------


def test_fifo_named_on_the_command_line_is_an_error_and_does_not_hang(tmp_path):
    fifo = tmp_path / "25.02.yaml"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "validate", "-q", str(fifo)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{fifo}: not a regular file (a FIFO); a release data file must be a plain file [error file.read]" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_fifo_inside_the_tree_is_reported_not_opened(tmp_path, capsys):
    root = _tree(tmp_path)
    fifo = root / "demo-nv" / "25.03.yaml"
    os.mkfifo(fifo)
    code, out, _ = _run(capsys, "validate", "-q", str(root))
    assert code == 1
    assert f"{fifo}: not a regular file (a FIFO); a release data file must be a plain file [error file.read]" in out


def test_symlink_in_the_tree_is_refused_and_its_target_never_read(tmp_path, capsys):
    root = _tree(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("kind: TOP-SECRET-TOKEN\n", encoding="utf-8")
    link = root / "known-issues" / "leak.yaml"
    link.symlink_to(secret)
    code, out, _ = _run(capsys, "validate", "-q", str(root))
    assert code == 1
    assert f"{link}: symbolic link; the gate does not follow links: commit the file itself [error file.symlink]" in out
    assert "TOP-SECRET-TOKEN" not in out


def test_symlinked_folder_dangling_link_and_link_loop_in_the_tree(tmp_path, capsys):
    root = _tree(tmp_path)
    (root / "mirror").symlink_to(root / "demo-nv", target_is_directory=True)
    (root / "demo-nv" / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (root / "demo-nv" / "a.yaml").symlink_to(root / "demo-nv" / "b.yaml")
    (root / "demo-nv" / "b.yaml").symlink_to(root / "demo-nv" / "a.yaml")
    code, out, _ = _run(capsys, "validate", "-q", "--format", "json", str(root))
    assert code == 1
    found = {(Path(p["path"]).name, p["rule"]) for p in json.loads(out)}
    assert {("mirror", "file.symlink"), ("gone.yaml", "file.symlink"), ("a.yaml", "file.symlink"),
            ("b.yaml", "file.symlink")} <= found
    # the releases behind the folder link are not loaded twice
    assert not any(p["rule"] == "data.unique-release" for p in json.loads(out))


def test_refused_link_is_reported_when_only_its_folder_is_named(tmp_path, capsys):
    root = _tree(tmp_path)
    link = root / "demo-nv" / "25.03.yaml"
    link.symlink_to(root / "demo-nv" / "25.02.yaml")
    code, out, _ = _run(capsys, "validate", "-q", str(root / "demo-nv"))
    assert code == 1
    assert f"{link}: symbolic link" in out


def test_link_loop_named_on_the_command_line_is_a_usage_error(tmp_path, capsys):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    err = _usage(capsys, "validate", str(loop))
    assert f"{loop} is a symbolic link to nothing (broken, or a loop of links)" in err


def test_empty_releases_folder_fails(tmp_path, capsys):
    empty = tmp_path / "releases"
    empty.mkdir()
    (empty / "README.md").write_text("not data\n", encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", str(empty))
    assert code == 1
    assert f"{empty}: no release data here: the folder holds no *.yaml or *.yml file [error file.none]" in out


def test_paths_with_spaces_and_unicode(tmp_path, capsys):
    root = _tree(tmp_path, "发布 数据")
    record = root / "demo-nv" / "25.02.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace('version: "2.7.1"', "version: 2.10"), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", "--format", "json", str(record))
    assert code == 1
    note, problem = json.loads(out)  # sorted by position: the family note is at 1:1
    assert (problem["path"], problem["line"], problem["col"], problem["field"]) == (str(record), 13, 39, "components.0.version")
    assert (note["path"], note["rule"], note["severity"]) == (str(record), "data.family-incomplete", "info")
    code, out, _ = _run(capsys, "validate", "-q", "--format", "github", str(record))
    assert f"::error file={str(record).replace(':', '%3A')},line=13,col=39,title=yaml.unquoted-string::" in out


# --------------------------------------------------------------------------
# output channels
# --------------------------------------------------------------------------


def test_text_output_keeps_one_problem_per_line(capsys):
    path = HOSTILE / "newline-in-key.yaml"
    code, out, _ = _run(capsys, "validate", "-q", str(path))
    assert code == 1
    lines = out.splitlines()
    assert f"{path}:8:1: evil\\nOK: 0 errors: unknown field `evil\\nOK: 0 errors`" in out
    assert not any(line.startswith("OK: 0 errors") for line in lines)  # the key cannot forge a verdict line
    assert lines[-1].startswith("FAILED:")


def test_github_output_escapes_terminal_escapes_and_bidi(capsys):
    code, out, _ = _run(capsys, "validate", "-q", "--format", "github", str(HOSTILE / "bidi-override.yaml"))
    assert code == 1
    assert "\u202e" not in out and "\\u202e" not in out  # the message names the character, the value is not echoed
    code, out, _ = _run(capsys, "validate", "-q", "--format", "github", str(HOSTILE / "newline-in-key.yaml"))
    assert "title=schema.unknown-field::evil%0AOK: 0 errors: unknown field `evil%0AOK: 0 errors`" in out
    assert not any(line.startswith("OK: 0 errors") for line in out.splitlines())


def test_only_warnings_exit_zero(tmp_path, capsys):
    root = _tree(tmp_path)
    record = root / "demo-nv" / "25.02.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("第二个演示版本。", "second"), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", str(root))
    assert code == 0
    assert out.splitlines()[-1] == "OK: 0 errors, 1 warning, 0 notes in 9 files"


def test_reader_closing_the_pipe_early_is_not_a_traceback(tmp_path):
    root = _tree(tmp_path)
    proc = subprocess.run(f"{sys.executable} -m lingjun.generator.cli validate {root} | head -c 10",
                          shell=True, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr, proc.stderr
    assert proc.stdout == "OK: 0 erro"


def test_internal_error_in_the_gate_is_one_line_exit_1(monkeypatch, tmp_path, capsys):
    import lingjun.schema.gate.validate as gate_validate

    def broken(*args, **kwargs):
        raise ValueError("surprise")

    monkeypatch.setattr(gate_validate.Corpus, "from_documents", broken)
    code, out, err = _run(capsys, "validate", "-q", str(_tree(tmp_path)))
    assert code == 1
    assert err == "lingjun-kb validate: internal error: ValueError: surprise; please report it\n"


# --------------------------------------------------------------------------
# positions
# --------------------------------------------------------------------------


def test_deep_error_points_at_the_item(tmp_path, capsys):
    root = _tree(tmp_path)
    record = root / "demo-nv" / "25.02.yaml"
    text = record.read_text(encoding="utf-8").replace(
        '  - {id: vllm, name: vLLM, version: "0.8.2"}\n',
        '  - {id: vllm, name: vLLM, version: "0.8.2"}\n  - id: torch\n    name: torch\n    version: "2.7.1"\n'
        "    architectures:\n      - amd64\n      - arm64\n")
    record.write_text(text, encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", str(record))
    assert code == 1
    assert (f"{record}:21:9: components.3.architectures.1: 'arm64' is not allowed here; expected 'amd64' or 'aarch64' "
            "[error schema.enum]") in out.splitlines()


def test_explicit_str_tag_is_accepted(tmp_path, capsys):
    root = _tree(tmp_path)
    record = root / "demo-nv" / "25.02.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace('version: "25.02"', "version: !!str 25.02")
                      .replace('version: "2.7.1"', "version: !!str 2.7.1"), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", str(root))
    assert (code, out.splitlines()[-1]) == (0, "OK: 0 errors, 0 warnings, 0 notes in 9 files")


def test_negative_driver_branch_is_reported(tmp_path, capsys):
    root = _tree(tmp_path)
    record = root / "demo-nv" / "25.02.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace(
        'driver: {vendor: nvidia, minimum: "570"}', 'driver: {vendor: nvidia, minimum: "570", must_upgrade_branches: [-5]}'),
        encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", str(record))
    assert code == 1
    assert f"{record}:11:66: driver.must_upgrade_branches.0: Input should be greater than or equal to 100" in out


# --------------------------------------------------------------------------
# lingjun-kb new
# --------------------------------------------------------------------------


@pytest.mark.parametrize("version, why", [
    ("２５.03", "holds characters outside ASCII"),
    ("25.3", "is neither a month YY.MM"),
    ("25.13", "is neither a month YY.MM"),
    ("25.00", "is neither a month YY.MM"),
    ("2025.07", "is neither a month YY.MM"),
    (" 25.03", "is not a release identifier"),
])
def test_new_bad_version_is_a_usage_error(version, why, tmp_path, capsys):
    root = _tree(tmp_path)
    err = _usage(capsys, "new", "demo-nv", version, "--releases", str(root))
    assert f"release {version!r} {why}" in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if "error:" in line]) == 1
    assert sorted(p.name for p in (root / "demo-nv").iterdir()) == ["25.01.yaml", "25.02.yaml"]


def test_new_family_that_is_a_path_is_a_usage_error(tmp_path, capsys):
    root = _tree(tmp_path)
    err = _usage(capsys, "new", "../escape", "25.03", "--releases", str(root))
    assert "family '../escape' is not a family id" in err
    assert not (tmp_path / "escape").exists()


def test_new_without_a_releases_folder_is_a_usage_error(tmp_path, capsys):
    err = _usage(capsys, "new", "demo-nv", "25.03", "--releases", str(tmp_path / "nowhere"))
    assert "is not a folder" in err


def test_new_that_cannot_write_leaves_nothing_behind(tmp_path, capsys, monkeypatch):
    import lingjun.generator.new_release as new_release

    root = _tree(tmp_path)

    def no_links(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(new_release.os, "link", no_links)
    code, _, err = _run(capsys, "new", "demo-nv", "25.03", "--releases", str(root))
    assert code == 1
    assert "cannot write" in err and "No space left on device" in err
    assert sorted(p.name for p in (root / "demo-nv").iterdir()) == ["25.01.yaml", "25.02.yaml"]


def test_new_does_not_follow_a_dangling_link_at_the_target(tmp_path, capsys):
    root = _tree(tmp_path)
    outside = tmp_path / "outside.yaml"
    (root / "demo-nv" / "25.03.yaml").symlink_to(outside)
    code, _, err = _run(capsys, "new", "demo-nv", "25.03", "--releases", str(root))
    assert code == 1 and "already exists; refusing to overwrite it" in err
    assert not outside.exists()


# --------------------------------------------------------------------------
# lingjun-kb schema
# --------------------------------------------------------------------------


def test_schema_check_reports_missing_corrupted_and_binary_files(tmp_path, capsys):
    write_schemas(tmp_path)
    (tmp_path / schema_file_name("release")).unlink()
    (tmp_path / schema_file_name("families")).write_text("{broken", encoding="utf-8")
    (tmp_path / schema_file_name("components")).write_bytes(b"\xff\xfe\x00garbage")
    code, out, err = _run(capsys, "schema", "--check", "--out", str(tmp_path))
    assert code == 1 and "Traceback" not in err
    assert f"{tmp_path / 'release.schema.json'} is stale or missing (missing)" in err
    assert f"{tmp_path / 'families.schema.json'} is stale or missing (differs from what the models give)" in err
    assert f"{tmp_path / 'components.schema.json'} is stale or missing (not UTF-8 text: corrupted)" in err
    assert "known-issue.schema.json" not in err


def test_schema_out_that_is_a_file_is_a_usage_error(tmp_path, capsys):
    target = tmp_path / "afile"
    target.write_text("keep me\n", encoding="utf-8")
    err = _usage(capsys, "schema", "--out", str(target))
    assert f"--out {target} is not a folder" in err
    assert target.read_text(encoding="utf-8") == "keep me\n"


def test_schema_refuses_before_writing_any_file_and_keeps_the_others_whole(tmp_path, capsys):
    write_schemas(tmp_path)
    (tmp_path / schema_file_name("components")).write_text("{}", encoding="utf-8")  # not ours: refused too
    blocker = tmp_path / schema_file_name("release")
    blocker.unlink()
    blocker.mkdir()  # a folder where a schema file should go
    code, _, err = _run(capsys, "schema", "--out", str(tmp_path))
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1
    assert f"{tmp_path / schema_file_name('components')} exists and is not a JSON Schema file lingjun-kb schema wrote" in err
    assert (tmp_path / schema_file_name("components")).read_text(encoding="utf-8") == "{}"
    (tmp_path / schema_file_name("components")).unlink()
    code, _, err = _run(capsys, "schema", "--out", str(tmp_path))
    assert code == 2 and "is a folder" in err and err.endswith("nothing was written\n")
    assert not (tmp_path / schema_file_name("components")).exists()  # not written before the check of "release"
    assert (tmp_path / schema_file_name("families")).read_text(encoding="utf-8") == render_schema("families")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_schema_out_empty_is_refused_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "schema", "--out", "")
    assert (code, out) == (2, "") and err == "lingjun-kb schema: --out is empty; give the folder the schema files go to\n"
    assert os.listdir(tmp_path) == []


def test_schema_replaces_its_own_previous_files(tmp_path, capsys):
    write_schemas(tmp_path)
    stale = render_schema("release").replace('"title": "ReleaseRecord"', '"title": "ReleaseRecord", "x": 1', 1)
    (tmp_path / schema_file_name("release")).write_text(stale, encoding="utf-8")  # ours, from older models
    code, out, _ = _run(capsys, "schema", "--out", str(tmp_path))
    assert code == 0 and out.count("wrote ") == len(DOCUMENT_MODELS)
    assert (tmp_path / schema_file_name("release")).read_text(encoding="utf-8") == render_schema("release")


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_output_to_a_non_utf8_stream_is_escaped_not_a_traceback(fmt, tmp_path):
    path = HOSTILE / "fullwidth-version.yaml"
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    proc = subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "validate", "-q", "--format", fmt, str(path)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    if fmt == "json":
        assert any(p["message"].startswith("'２５.02' holds characters outside ASCII") for p in json.loads(proc.stdout))
    else:
        assert "'\\uff12\\uff15.02' holds characters outside ASCII" in proc.stdout


# --------------------------------------------------------------------------
# terminal and JSON output: every kind of control and bidi character, every channel
# --------------------------------------------------------------------------

#: one sample per kind (C0 escape sequence, forged line, CR, DEL, C1 CSI, line separator, each bidi control)
_HOSTILE_TEXT = {
    "esc-csi": "x\x1b[31m", "forged-line": "x\nOK: 0 errors", "carriage-return": "x\rOK", "del": "x\x7f",
    "c1-csi": "x\x9b2J", "c1-nel": "x\x85", "line-separator": "x\u2028y", "rlo": "x\u202eevil", "lri": "x\u2066y",
    "rlm": "x\u200fy", "arabic-mark": "x\u061cy",
}


def _raw_unsafe(text: str) -> list[str]:
    from lingjun.checks.core.inert_text import UNSAFE

    return [c for c in text if ord(c) in UNSAFE and c != "\n"]


@pytest.mark.parametrize("kind", sorted(_HOSTILE_TEXT))
def test_usage_errors_quote_hostile_words_inert(kind, capsys, tmp_path):
    value = _HOSTILE_TEXT[kind]
    for args in (["validate", str(tmp_path / value)], [value], ["validate", "--format", value],
                 ["validate", "--root", str(tmp_path / value), str(tmp_path)]):
        err = _usage(capsys, *args)
        errors = [line for line in err.splitlines() if ": error:" in line]
        assert len(errors) == 1 and not _raw_unsafe(err), repr(err)


@pytest.mark.parametrize("kind", sorted(_HOSTILE_TEXT))
@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_hostile_key_and_file_name_are_inert_in_every_format(kind, fmt, capsys, tmp_path):
    source = (HOSTILE / "newline-in-key.yaml").read_text(encoding="utf-8")
    key = json.dumps(_HOSTILE_TEXT[kind])  # a YAML double-quoted key holding the character
    path = tmp_path / f"25.02{_HOSTILE_TEXT[kind].replace(chr(10), '_')}.yaml"
    path.write_text(source.replace('"evil\\nOK: 0 errors"', key), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", "--format", fmt, str(path))
    assert code == 1
    assert not _raw_unsafe(out), repr(out)
    if fmt == "json":
        fields = {p["field"] for p in json.loads(out)}  # escapes read back as the characters
        assert _HOSTILE_TEXT[kind] in fields
    else:
        assert not any(line.startswith("OK: 0 errors") for line in out.splitlines())


def test_a_long_hostile_message_is_shortened(capsys, tmp_path):
    from lingjun.checks.core.inert_text import ECHO_LIMIT

    source = (HOSTILE / "newline-in-key.yaml").read_text(encoding="utf-8")
    path = tmp_path / "25.02.yaml"
    # an explicit key ("? KEY") may be longer than the 1024 characters of a plain one
    path.write_text(source.replace('"evil\\nOK: 0 errors": 1', "? " + "k" * 20_000 + "\n: 1"), encoding="utf-8")
    code, out, _ = _run(capsys, "validate", "-q", str(path))
    assert code == 1 and "more characters)" in out
    assert max(len(line) for line in out.splitlines()) < 2 * ECHO_LIMIT + 200


@pytest.mark.parametrize("kind", sorted(_HOSTILE_TEXT))
@pytest.mark.parametrize("command", ["build", "bundle"])
def test_build_and_bundle_errors_quote_paths_inert(kind, command, capsys, tmp_path):
    missing = tmp_path / f"releases{_HOSTILE_TEXT[kind]}"
    args = [command, "--releases", str(missing)]
    args += ["--site-dir", str(tmp_path / "site")] if command == "build" else ["--output", str(tmp_path / "x.pyz")]
    code, out, err = _run(capsys, *args)
    assert code in (1, 2)
    assert not _raw_unsafe(out + err), repr(out + err)
    assert all(line.startswith((str(tmp_path), "lingjun-kb ")) for line in err.splitlines()), err
    assert not (tmp_path / "x.pyz").exists()


# --------------------------------------------------------------------------
# names in error lines: at most 256 characters of each, whatever option brings them
# --------------------------------------------------------------------------

_LONG_NAMES = {"one word": "n" * 4090, "with blanks": "n b" * 1364}
_SEED = str(ROOT / "tests" / "fixtures" / "seeds" / "training-nv-pytorch-25.07.en.txt")

#: every option of lingjun-kb that takes a name, with the name in it ("{}")
_NAME_OPTIONS = {
    "new FAMILY": ["new", "{}", "25.11", "--releases", str(GATE_FIXTURES / "base")],
    "new RELEASE": ["new", "demo-nv", "{}", "--releases", str(GATE_FIXTURES / "base")],
    "new --release-date": ["new", "demo-nv", "sglang0.5-x", "--release-date", "{}", "--releases", str(GATE_FIXTURES / "base")],
    "import --family": ["import", _SEED, "--family", "{}", "-o", "-"],
    "import --release": ["import", _SEED, "--release", "{}", "-o", "-"],
    "import --lang": ["import", _SEED, "--lang", "{}"],
    "validate --format": ["validate", "--format", "{}"],
    "which --gpu": ["which", "--driver", "535", "--gpu", "{}"],
    "which --driver": ["which", "--driver", "{}", "--gpu", "H20"],
    "bundle --name": ["bundle", "--configmap", "--name", "{}", "-o", "-"],
    "bundle --namespace": ["bundle", "--configmap", "--namespace", "{}", "-o", "-"],
    "build --site-url": ["build", "--site-url", "{}"],
    "serve --host": ["serve", "--host", "{}"],
}


def _longest_run_of_the_name(err: str, name: str) -> int:
    letters = set(name.replace(" ", ""))
    longest = current = 0
    for character in err:
        current = current + 1 if (character in letters or (character == " " and current)) else 0
        longest = max(longest, current)
    return longest


@pytest.mark.parametrize("shape", sorted(_LONG_NAMES))
@pytest.mark.parametrize("option", sorted(_NAME_OPTIONS))
def test_every_error_line_shortens_the_names_it_quotes(option, shape, capsys):
    from lingjun.checks.core.inert_text import NAME_LIMIT

    name = _LONG_NAMES[shape]
    args = [a.replace("{}", name) for a in _NAME_OPTIONS[option]]
    capsys.readouterr()
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code in (1, 2), err[:500]
    assert "Traceback" not in err
    assert _longest_run_of_the_name(err, name) <= NAME_LIMIT + 1, err[:600]
    assert max(len(line) for line in err.splitlines()) < 1200


@pytest.mark.parametrize("shape", sorted(_LONG_NAMES))
@pytest.mark.parametrize("option", ["--release", "--from", "--data", "--deepspeed-config", "--from-collect-env",
                                    "--log", "--root", "--node-name", "--format"])
def test_every_lingjun_check_error_line_shortens_the_names_it_quotes(option, shape, capsys, tmp_path):
    from lingjun.checks.cli import main as check_main
    from lingjun.checks.core.inert_text import NAME_LIMIT

    name = _LONG_NAMES[shape]
    value = str(tmp_path / name[:200]) + name if option not in ("--release", "--node-name", "--format") else name
    capsys.readouterr()
    try:
        code = check_main([option, value, "--root", str(tmp_path)] if option != "--root" else [option, value])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    if option == "--node-name":  # a node name is not refused: it is shortened where the report shows it
        return
    assert code == 3, err[:500]
    assert "Traceback" not in err
    assert _longest_run_of_the_name(err, name) <= NAME_LIMIT + 1, err[:600]
