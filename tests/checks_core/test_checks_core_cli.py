"""The lingjun-check command on this machine (no GPU) and its options."""

from __future__ import annotations

import json

import jsonschema
import pytest

from checks_core_helpers import REPO, fakeroot, run_cli
from lingjun.checks.cli import default_lang, main

REPORT_SCHEMA = json.loads((REPO / "checks" / "report.schema.json").read_text(encoding="utf-8"))


def test_live_run_here_exits_0_and_skips_gpu_rules():
    result = run_cli("--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    jsonschema.validate(report, REPORT_SCHEMA)
    assert report["exit_code"] == 0 and report["summary"]["error"] == 0
    from lingjun.checks.runner import load_rules

    gpu_rules = {s.id for s in load_rules() if s.needs_gpu}
    skipped = {f["rule"]: f["message"] for f in report["findings"] if f["severity"] == "skipped"}
    assert gpu_rules and gpu_rules <= set(skipped)
    assert all(skipped[r] == "No NVIDIA driver in this container." for r in gpu_rules)
    assert report["facts"]["driver_version"] is None
    assert report["facts"]["distributions"] > 10


def test_live_text_report_header_and_areas():
    result = run_cli()
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("lingjun-check 0.1.0")
    assert lines[1].startswith("Release:")
    assert "Driver" in lines and lines[-1].startswith("Summary:")
    assert "\033[" not in result.stdout  # NO_COLOR / not a terminal


def test_require_gpu_fails_without_driver():
    result = run_cli("--require-gpu", "--format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert any(f["rule"] == "driver.present" and f["severity"] == "error" for f in report["findings"])


def test_chinese_report_by_option_and_locale():
    zh = run_cli("--lang", "zh")
    assert zh.returncode == 0 and "汇总" in zh.stdout and "发布版本" in zh.stdout
    by_locale = run_cli(env={"LANG": "zh_CN.UTF-8"})
    assert "汇总" in by_locale.stdout
    assert default_lang({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}) == "en"
    assert default_lang({"LC_MESSAGES": "zh_TW", "LANG": "en_US"}) == "zh"
    assert default_lang({}) == "en"


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--release", "training-nv-pytorch:99.99"], "unknown release; training-nv-pytorch releases: "),
        (["--format", "xml"], "invalid choice"),
        (["--timeout", "-1"], "--timeout"),
        (["--gpus-per-pod", "0"], "--gpus-per-pod must be between 1 and 64"),
        (["--gpus-per-pod", "65"], "--gpus-per-pod must be between 1 and 64"),
        (["--gpus-per-pod", "12345678901234567890123"], "--gpus-per-pod must be between 1 and 64"),
        (["--from", "/nonexistent/snap.json"], "cannot read snapshot"),
        (["--data", "/nonexistent/bundle.json"], "cannot read release data"),
        (["--deepspeed-config", "/nonexistent/ds.json"], "no such file"),
        (["--from", "a.json", "--from-collect-env", "b.txt"], "not allowed with"),
        (["--no-such-option"], "unrecognized arguments"),
    ],
)
def test_usage_errors_exit_3(args, needle):
    result = run_cli(*args)
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert needle in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_release_of_an_unknown_family_names_the_families_on_one_line():
    result = run_cli("--release", "nope:1.0")
    from lingjun.checks.cli import load_data

    assert result.returncode == 3 and len(result.stderr.splitlines()) == 1
    for family in load_data(None).raw["families"]:
        assert family["id"] in result.stderr
    assert "training-nv-pytorch:25.07" not in result.stderr  # not every release


def test_known_release_option_is_reported():
    from lingjun.checks.cli import load_data

    ref = next(f"{r['family']}:{r['version']}" for r in load_data(None).product_releases())
    result = run_cli("--release", ref, "--format", "json")
    assert result.returncode in (0, 1)
    release = json.loads(result.stdout)["release"]
    assert (release["ref"], release["how"], release["known"]) == (ref, "option", True)
    data = load_data(None)
    if data.site_url:  # the embedded bundle was built for a site: its release page
        assert release["url"] == f"{data.site_url}releases/{ref.replace(':', '/')}/"
    else:  # built without one: the official release-note page (English first, the report's language)
        sources = data.release(ref)["sources"]
        assert release["url"] == next((s["url"] for s in sources if s["language"] == "en"), sources[0]["url"])
        assert release["url"].startswith("https://")


def test_manifest_in_fake_root_identifies_release():
    result = run_cli("--root", fakeroot("proprietary-x86"), "--format", "json", env={"PATH": "/usr/bin"})
    release = json.loads(result.stdout)["release"]
    assert (release["ref"], release["how"]) == ("training-nv-pytorch:25.07", "manifest")


def test_help_documents_exit_codes():
    result = run_cli("--help")
    assert result.returncode == 0
    for line in ("0  no error findings", "1  at least one error", "2  warnings found and --strict", "3  usage error"):
        assert line in result.stdout


def test_list_rules_and_version():
    rules = run_cli("--list-rules")
    assert rules.returncode == 0 and "driver.present" in rules.stdout
    version = run_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("lingjun-check 0.1.0 (release data:")


def test_data_override(tmp_path):
    bundle = tmp_path / "bundle.json"
    bundle.write_text(json.dumps({"format": "lingjun-kb/bundle/2", "site_url": "https://x/", "releases": [], "families": [], "components": []}))
    result = run_cli("--data", str(bundle), "--format", "json")
    assert result.returncode == 0
    assert json.loads(result.stdout)["release"]["how"] == "none"
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"format": "other"}')
    assert run_cli("--data", str(wrong)).returncode == 3


def test_main_in_process_returns_code(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("lingjun-check")
    assert main(["--bogus"]) == 3


def test_collect_to_unwritable_place_is_usage_error(tmp_path):
    result = run_cli("--collect", str(tmp_path / "missing-dir" / "facts.json"))
    assert result.returncode == 3 and "cannot write" in result.stderr
