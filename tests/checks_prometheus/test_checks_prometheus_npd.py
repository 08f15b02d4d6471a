"""--format npd: one line of at most 80 UTF-8 bytes, key finding first, and node-problem-detector's exit codes."""

from __future__ import annotations

import re

import pytest

from checks_prometheus_kit import FIXTURES, SNAPSHOTS, json_report, run
from lingjun.checks import cli
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.report.render_npd import NPD_MAX_BYTES, fit_bytes, is_npd_line, npd_exit_code, render_npd, unknown_line


def _bytes(line: str) -> int:
    assert line.endswith("\n") and line.count("\n") == 1
    return len(line[:-1].encode("utf-8"))


@pytest.mark.parametrize("ours, theirs", [(0, 0), (1, 1), (2, 1), (3, 2), (130, 2), (-1, 2), (4, 2)])
def test_exit_codes_map_to_npds(ours, theirs):
    assert npd_exit_code(ours) == theirs


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("snapshot", SNAPSHOTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_snapshot_gives_one_short_line_naming_its_first_error(snapshot, lang, monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, "--from", str(snapshot), "--format", "npd", "--lang", lang)
    assert _bytes(out) <= NPD_MAX_BYTES
    assert not any(ch < " " for ch in out[:-1])
    assert is_npd_line(out)
    report = json_report(monkeypatch, capsys, "--from", str(snapshot), "--lang", lang)
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    warnings = [f for f in report["findings"] if f["severity"] == "warning"]
    assert code == (1 if errors else 0) == npd_exit_code(report["exit_code"])
    if errors:
        label = "错误" if lang == "zh" else "ERROR"
        assert out.startswith(f"{label} {errors[0]['rule']}: ")
        more = len(errors) + len(warnings) - 1
        if more:
            assert out.endswith(f" (+{more})\n")
        else:
            assert not re.search(r" \(\+\d+\)$", out.rstrip("\n"))
    else:
        assert out.startswith("通过 lingjun-check：" if lang == "zh" else "OK lingjun-check: ")
        assert (f"{len(warnings)} 个警告" if lang == "zh" else f"{len(warnings)} warning") in out


def test_strict_makes_warnings_a_problem(monkeypatch, capsys):
    # the first fixture snapshot with warnings and no error
    for snapshot in SNAPSHOTS:
        report = json_report(monkeypatch, capsys, "--from", str(snapshot))
        severities = [f["severity"] for f in report["findings"]]
        if "warning" in severities and "error" not in severities:
            break
    else:  # pragma: no cover - the fixtures always hold one
        pytest.fail("no snapshot with warnings and no errors")
    first = next(f for f in report["findings"] if f["severity"] == "warning")
    code, out, _ = run(monkeypatch, capsys, "--from", str(snapshot), "--format", "npd")
    assert code == 0 and out.startswith("OK lingjun-check: 0 errors, ")
    code, out, _ = run(monkeypatch, capsys, "--from", str(snapshot), "--format", "npd", "--strict")
    assert code == 1 and out.startswith(f"WARN {first['rule']}: ") and _bytes(out) <= NPD_MAX_BYTES


def _finding(rule: str, severity: Severity, en: str, zh: str) -> Finding:
    return Finding(rule=rule, severity=severity, area="driver", message=Text(en, zh))


def test_a_long_chinese_message_is_cut_between_characters():
    zh = "驱动版本 535.104.05 低于此发布版本要求的最低版本 550，CUDA 将无法初始化，请升级宿主机驱动。" * 3
    findings = [_finding("driver.minimum", Severity.error, "x" * 300, zh), _finding("driver.branch-eol", Severity.warning, "w", "w"),
                _finding("cuda.available", Severity.error, "e", "e")]
    line = render_npd(findings, 1, lang="zh")
    assert _bytes(line) <= NPD_MAX_BYTES
    assert line.startswith("错误 driver.minimum: 驱动版本 535.104.05") and line.endswith("… (+2)\n")
    line.encode("utf-8").decode("utf-8")  # no split character
    body = line[len("错误 driver.minimum: "):-len("… (+2)\n")]
    assert zh.startswith(body)
    # every limit from tiny to generous keeps to its byte budget
    for limit in range(1, 120):
        assert len(render_npd(findings, 1, lang="zh", limit=limit)[:-1].encode("utf-8")) <= limit


def test_controls_in_a_message_stay_on_one_visible_line():
    findings = [_finding("env.nccl-socket-ifname", Severity.error, "NCCL_SOCKET_IFNAME=eth0\x1b[31m\r\nOK all good", "同")]
    line = render_npd(findings, 1)
    assert line.count("\n") == 1 and "\x1b" not in line and "\r" not in line
    assert line.startswith("ERROR env.nccl-socket-ifname: NCCL_SOCKET_IFNAME=eth0\\x1b[31m OK all good")


def test_fit_bytes():
    assert fit_bytes("abc", 3) == "abc"
    assert fit_bytes("abcd", 3) == "…"
    assert fit_bytes("中文字", 8) == "中…"  # 3 + 3 bytes, never half a character
    assert fit_bytes("a\udcffb", 80) == "a?b"
    assert fit_bytes("abcd", 2) == "ab" and fit_bytes("中", 2) == ""


def test_usage_and_input_errors_are_unknown_with_a_message(tmp_path, monkeypatch, capsys):
    cases = [
        (["--root", str(tmp_path / "missing")], "UNKNOWN lingjun-check: --root "),
        (["--from", str(tmp_path / "missing.json")], "UNKNOWN lingjun-check: "),
        (["--no-such-option"], "UNKNOWN lingjun-check: usage error (see stderr)"),
        (["--timeout", "0"], "UNKNOWN lingjun-check: --timeout must be between 0 and 600 seconds"),
    ]
    for args, start in cases:
        code, out, err = run(monkeypatch, capsys, "--format", "npd", *args)
        assert code == 2, (args, out, err)
        assert out.startswith(start) and _bytes(out) <= NPD_MAX_BYTES, (args, out)
        assert err.strip()  # the full reason is still on stderr, which NPD logs


def test_an_internal_error_is_unknown(monkeypatch, capsys):
    def broken(args):
        raise RuntimeError("probe table corrupt")

    monkeypatch.setattr(cli, "_run", broken)
    code, out, err = run(monkeypatch, capsys, "--format", "npd", "--from", str(FIXTURES / "cases" / "C01.json"))
    assert code == 2
    assert out == "UNKNOWN lingjun-check: internal error: RuntimeError: probe table corrupt (set…\n"
    assert _bytes(out) == NPD_MAX_BYTES
    assert "probe table corrupt" in err


def test_other_formats_keep_their_exit_codes(monkeypatch, capsys):
    code, _, _ = run(monkeypatch, capsys, "--format", "prometheus", "--root", "/nonexistent-root-for-test")
    assert code == 3


def test_unknown_line_in_chinese():
    line = unknown_line("lingjun-check: --root /x: not a directory", "zh")
    assert line == "未知 lingjun-check：--root /x: not a directory\n"
    assert unknown_line(None, "en") == "UNKNOWN lingjun-check: no report\n"
