"""The text report of a log read alone (--log-only): the skipped rules of the machine are counted in one line,
the release is "not named by the log"; the JSON report keeps every skipped rule."""

from __future__ import annotations

import json
import subprocess
import sys

LINES = [
    "node5:240:240 [6] NCCL INFO Bootstrap : Using bond0:10.0.0.5<0>",
    "node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned "
    "113(No route to host) errno 115(Operation now in progress)",
]


def _check(tmp_path, *args: str) -> subprocess.CompletedProcess:
    log = tmp_path / "job.log"
    log.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "lingjun.checks", "--log-only", "--log", str(log), "--no-color", *args],
                          capture_output=True, text=True, timeout=120, env={"COLUMNS": "100", "PATH": "/usr/bin:/bin"})


def test_log_only_text_folds_the_skipped_rules_into_one_counted_line(tmp_path):
    proc = _check(tmp_path, "--lang", "en")
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    assert "SKIP" not in out
    summary = next(line for line in out.splitlines() if line.startswith("Summary:"))
    skipped = int(summary.split(" skipped")[0].rsplit(" ", 1)[1])
    assert skipped > 20
    assert f"Not judged from the log alone: {skipped} checks of the machine" in " ".join(out.split())
    assert "Release: not named by the log (--release names it)" in out
    assert "Input coverage (the log alone): what the log states is judged" in " ".join(out.split())
    assert "ERROR  evidence.error-lines" in out
    skipped_rules = [f["rule"] for f in json.loads(_check(tmp_path, "--format", "json").stdout)["findings"]
                     if f["severity"] == "skipped"]
    assert len(skipped_rules) == skipped and not [r for r in skipped_rules if r in out]


def test_log_only_text_in_chinese_folds_them_too(tmp_path):
    out = _check(tmp_path, "--lang", "zh").stdout
    assert "跳过" not in out.split("汇总")[0].replace("已跳过", "")
    assert "仅凭日志无法判断的" in out and "发布版本：日志中未写明（用 --release 指定）" in out


def test_log_only_json_keeps_each_skipped_rule_with_its_reason(tmp_path):
    report = json.loads(_check(tmp_path, "--format", "json", "--lang", "en").stdout)
    skipped = [f for f in report["findings"] if f["severity"] == "skipped"]
    assert len(skipped) > 20 and all(f["message"] for f in skipped)
    assert any(f["rule"] == "release.identified" for f in skipped)
