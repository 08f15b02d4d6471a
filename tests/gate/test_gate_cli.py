"""``lingjun-kb validate`` and the other sub-commands, through ``main([...])`` and as a real process."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
import yaml

from lingjun.generator.cli import main

ROOT = Path(__file__).resolve().parents[2]
GATE_FIXTURES = ROOT / "tests" / "fixtures" / "gate"
REAL_RELEASES = ROOT / "releases"


def _tree(tmp_path: Path, overlay: str | None = None) -> Path:
    root = tmp_path / "releases"
    shutil.copytree(GATE_FIXTURES / "base", root)
    if overlay:
        shutil.copytree(GATE_FIXTURES / overlay, root, dirs_exist_ok=True)
    return root


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_success_prints_the_release_table(tmp_path, capsys):
    root = _tree(tmp_path)
    code, out, _ = _run(capsys, "validate", str(root))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "OK: 0 errors, 0 warnings, 0 notes in 9 files"
    assert lines[1] == "3 releases in 2 families, 3 catalog components, 1 known issue"
    header = lines[3].split()
    assert header == ["family", "version", "status", "CUDA", "torch", "driver", "min", "components"]
    rows = [l.split() for l in lines[5:] if l]
    assert rows == [
        ["demo-nv", "25.02", "current", "12.8", "2.7.1", "R570", "3"],
        ["demo-nv", "25.01", "superseded", "12.8", "2.6.0", "R570", "3"],
        ["demo-base", "25.01", "current", "12.8.0", "2.6.0", "-", "1"],
    ]


def test_errors_exit_1_with_positioned_lines(tmp_path, capsys):
    root = _tree(tmp_path, "driver-minimum/fail")
    code, out, _ = _run(capsys, "validate", str(root))
    assert code == 1
    assert (f"{root}/demo-nv/25.02.yaml:11:35: driver.minimum: driver minimum 560 is below 570.26, the minimum driver "
            "of CUDA 12.8 [error data.driver-minimum]") in out.splitlines()
    assert out.splitlines()[-1] == "FAILED: 1 error, 0 warnings, 0 notes in 9 files"
    assert "family " not in out  # no table on failure


def test_json_format_lists_documented_fields(tmp_path, capsys):
    root = _tree(tmp_path, "component-downgrade/fail")
    code, out, _ = _run(capsys, "validate", "--format", "json", str(root))
    assert code == 0  # a warning does not fail
    assert json.loads(out) == [{
        "path": f"{root}/demo-nv/25.02.yaml", "line": 15, "col": 37, "field": "components.2.version",
        "message": "vllm goes down from 0.7.2 (demo-nv:25.01) to 0.6.0; if this is what the page publishes, "
                   "add it to acknowledged_downgrades with the reason",
        "severity": "warning", "rule": "data.component-downgrade"}]


def test_github_format_prints_annotations(tmp_path, capsys):
    root = _tree(tmp_path, "usage-note-rule/fail")
    code, out, _ = _run(capsys, "validate", "--format", "github", "-q", str(root))
    assert code == 1
    assert out.splitlines()[0] == (
        f"::error file={root}/demo-nv/25.01.yaml,line=28,col=11,title=data.usage-note-rule::usage_notes.0.rule: "
        "'env.nccl-socket-ifnam' is not a lingjun-check rule; did you mean 'env.nccl-socket-ifname'?")


def test_github_escapes_newlines_and_percent():
    from lingjun.schema.gate.report import github_annotation
    from lingjun.schema.problems import Problem, Severity

    line = github_annotation(Problem("a,b:c.yaml", 2, 3, "", "50%\nsecond", Severity.info, "data.x"))
    assert line == "::notice file=a%2Cb%3Ac.yaml,line=2,col=3,title=data.x::50%25%0Asecond"


def test_named_file_reports_only_its_problems_and_counts_the_rest(tmp_path, capsys):
    root = _tree(tmp_path, "single-current/fail")  # the problem is in demo-nv/25.01.yaml
    code, out, _ = _run(capsys, "validate", "-q", str(root / "demo-nv" / "25.02.yaml"))
    assert code == 0
    assert out.splitlines() == [
        "OK: 0 errors, 0 warnings, 0 notes in 1 file (1 more problem in other files of the releases tree; "
        "run `lingjun-kb validate` without paths to see them)"]
    code, out, _ = _run(capsys, "validate", "-q", str(root / "demo-nv" / "25.01.yaml"))
    assert code == 1 and "[error data.single-current]" in out


def test_named_file_still_resolves_references_from_the_tree(tmp_path, capsys):
    root = _tree(tmp_path)
    code, out, _ = _run(capsys, "validate", "-q", str(root / "demo-nv" / "25.01.yaml"))
    assert (code, out.splitlines()) == (0, ["OK: 0 errors, 0 warnings, 0 notes in 1 file"])


def test_named_catalog_reports_problems_everywhere(tmp_path, capsys):
    root = _tree(tmp_path, "catalog-unique/fail")
    code, out, _ = _run(capsys, "validate", "-q", str(root / "components.yaml"))
    assert code == 1
    assert f"{root}/demo-nv/25.02.yaml:13:23: components.0.name:" in out  # a release broken by the catalog change


def test_list_rules(capsys):
    code, out, _ = _run(capsys, "validate", "--list-rules")
    assert code == 0
    assert any(l.startswith("data.driver-minimum") and " error " in l for l in out.splitlines())
    from lingjun.schema.gate.runner import load_rules

    assert [l.split()[0] for l in out.splitlines()] == list(load_rules())  # one line per registered rule


@pytest.mark.parametrize("args", [["validate", "no/such/path"], ["validate", "--format", "xml"], ["frobnicate"], []])
def test_usage_problems_exit_2(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert "usage: lingjun-kb" in capsys.readouterr().err


def test_site_commands_dispatch_lazily_with_their_arguments(monkeypatch, capsys):
    seen = {}
    site = types.ModuleType("lingjun.generator.site")
    site.cli_build = lambda args: seen.setdefault("build", args) and 0
    site.cli_serve = lambda args: seen.setdefault("serve", args) and 0
    zipapp = types.ModuleType("lingjun.generator.zipapp")
    zipapp.cli_bundle = lambda args: seen.setdefault("bundle", args) and 3
    monkeypatch.setitem(sys.modules, "lingjun.generator.site", site)
    monkeypatch.setitem(sys.modules, "lingjun.generator.zipapp", zipapp)
    assert main(["build"]) == 0
    assert (seen["build"].releases, seen["build"].site_dir) == (Path("releases"), Path("site"))
    assert main(["serve", "--port", "9000"]) == 0
    assert (seen["serve"].host, seen["serve"].port, seen["serve"].site_dir) == ("127.0.0.1", 9000, Path("site"))
    assert main(["bundle", "--output", "x.pyz"]) == 3
    assert (seen["bundle"].releases, seen["bundle"].output) == (Path("releases"), Path("x.pyz"))


def test_missing_implementation_exits_2_with_a_message(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "lingjun.generator.zipapp", None)  # import fails
    assert main(["bundle"]) == 2
    assert "lingjun-kb bundle: not available in this installation" in capsys.readouterr().err


def test_pre_commit_hook_definition():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hooks == [{
        "id": "lingjun-kb-validate", "name": "lingjun-kb validate",
        "description": "Validate lingjun-kb release data (YAML safety, schema, cross-record rules).",
        "language": "python", "entry": "lingjun-kb validate", "files": r"^releases/.*\.ya?ml$", "pass_filenames": True}]


def test_console_script_runs_as_a_process(tmp_path):
    root = _tree(tmp_path, "placeholder/fail")
    proc = subprocess.run([sys.executable, "-m", "lingjun.generator.cli", "validate", "-q", str(root)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert f"{root}/demo-nv/25.02.yaml:5:15: summary.en: placeholder not filled in" in proc.stdout
    assert proc.stderr == ""


def _has_real_releases() -> bool:
    return any(REAL_RELEASES.glob("*/*.yaml"))


@pytest.mark.skipif(not _has_real_releases(), reason="no release records under releases/ yet")
def test_real_release_data_validates(capsys):
    code, out, _ = _run(capsys, "validate", str(REAL_RELEASES))
    assert code == 0, out
