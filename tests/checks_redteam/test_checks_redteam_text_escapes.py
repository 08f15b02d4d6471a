"""The text report never passes control or bidi characters from facts through to the terminal."""

from __future__ import annotations

import re

from lingjun.checks.context import ReleaseMatch
from lingjun.checks.report.findings import Finding, Severity, Text
from lingjun.checks.report.render_text import render_text

from checks_redteam_kit import REDTEAM

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_finding_texts_are_escaped():
    finding = Finding(rule="env.nccl-socket-ifname", severity=Severity.error, area="environment",
                      message=Text("NCCL_SOCKET_IFNAME=eth0\x1b[31m\r\n matches nothing", "无\x1b[2J"),
                      remedy=Text("set \x07it", "设\x07置"), observed="eth0\x1b]0;pwned\x07", expected="a\u202eb\x00",
                      links=["http://x/\x1b[0m"])
    out = render_text([finding], ReleaseMatch(ref="training-nv-pytorch:25.07\x1b[2J"), lang="en")
    assert not RAW.search(out.replace("\n", "")), repr(out)
    assert "eth0\\x1b[31m\\r\\n matches nothing" in out  # one escape style for both CLIs (core.inert_text)
    assert "a\\u202eb\\x00" in out and "pwned\\x07" in out and "\\x1b[2J" in out


def test_colour_codes_of_the_report_itself_survive():
    finding = Finding(rule="driver.present", severity=Severity.ok, area="driver", message=Text("ok", "好"))
    out = render_text([finding], ReleaseMatch(), lang="en", color=True)
    assert "\x1b[32m" in out and "\x1b[0m" in out


def test_cli_text_report_of_a_snapshot_with_escape_sequences(tmp_path):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from", str(REDTEAM / "hostile-control-characters.json"), "--no-color"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert not RAW.search(proc.stdout.replace("\n", "")), proc.stdout
    assert "\\x1b[2J" in proc.stdout
