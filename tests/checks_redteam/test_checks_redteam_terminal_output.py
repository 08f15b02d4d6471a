"""Every value from input reaches the terminal and a JSON consumer inert, on every path of lingjun-check:
error messages (values of options, paths), argparse's own errors, the text report and the JSON report.

Kind-level: each output path is tried with every class of dangerous character (C0 controls, a line break
forging a report line, DEL, C1 controls, the line/paragraph separators and each kind of bidi control), and
with values long enough to flood a terminal.
"""

from __future__ import annotations

import json
import re

import pytest

from lingjun.checks.cli import main
from lingjun.checks.core.inert_text import ECHO_LIMIT, NAME_LIMIT, UNSAFE, capped, dumps, escape_json_text, inert

from checks_redteam_kit import REPO

#: one sample of each kind; the name says which
HOSTILE = {
    "esc-csi": "x\x1b[31mred",
    "osc-title": "x\x1b]0;pwned\x07",
    "forged-line": "x\n  ERROR  fake.rule injected",
    "carriage-return": "x\rOK",
    "bell-and-soh": "x\x01\x07",  # (NUL cannot reach argv: execve takes C strings)
    "del": "x\x7f",
    "c1-csi": "x\x9b2J",
    "c1-nel": "x\x85",
    "line-separator": "x\u2028y",
    "rlo": "x\u202eevil",
    "lri": "x\u2066y\u2069",
    "rlm": "x\u200fy",
    "arabic-mark": "x\u061cy",
}
RAW = re.compile("[" + "".join(f"\\U{c:08x}" for c in sorted(UNSAFE) if c != 0x0A) + "]")
CASE = REPO / "tests" / "fixtures" / "cases" / "C01.json"  # a GPU, a driver, torch


def _run(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    for name in ("LINGJUN_RELEASE", "LC_ALL", "LC_MESSAGES", "LINGJUN_CHECK_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("NO_COLOR", "1")
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _assert_inert_lines(text: str, lines: int) -> None:
    assert not RAW.search(text), repr(text)
    assert text.count("\n") == lines, repr(text)


# ---------------------------------------------------------------------------- the one implementation


@pytest.mark.parametrize("code", sorted(UNSAFE))
def test_every_unsafe_code_point_is_escaped_by_inert(code):
    shown = inert(f"a{chr(code)}b")
    assert shown.startswith("a\\") and shown.endswith("b") and len(shown) > 3
    assert not RAW.search(shown) and "\n" not in shown


@pytest.mark.parametrize("code", sorted(UNSAFE))
def test_every_unsafe_code_point_is_a_json_escape_and_reads_back(code):
    text = dumps({"k": f"a{chr(code)}b"})
    assert text.isascii() and chr(code) not in text
    assert json.loads(text) == {"k": f"a{chr(code)}b"}


def test_safe_text_is_unchanged():
    for text in ("plain", "中文 GPU 名称", "tab-free path/with spaces", "ä ö ü ß", "emoji 🚀"):
        assert inert(text) == text
        assert json.loads(dumps(text)) == text and escape_json_text(json.dumps(text, ensure_ascii=False)) == json.dumps(text, ensure_ascii=False)


def test_long_values_are_shortened_with_the_count_of_what_was_left_out():
    assert capped("a" * (ECHO_LIMIT + 5)) == "a" * ECHO_LIMIT + "… (5 more characters)"
    assert inert("\x1b" * 10, limit=2) == "\\x1b\\x1b… (8 more characters)"
    assert json.loads(dumps({"k": ["é" * 300]}, limit=100)) == {"k": ["é" * 100 + "… (200 more characters)"]}
    assert capped("short", None) == "short"


# ---------------------------------------------------------------------------- lingjun-check error lines


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_release_value_is_inert_in_its_error(kind, capsys, monkeypatch):
    code, out, err = _run(capsys, monkeypatch, "--from", str(CASE), "--release", HOSTILE[kind])
    assert code == 3 and out == ""
    _assert_inert_lines(err, 1)
    assert err.startswith("lingjun-check: --release x")


@pytest.mark.parametrize("kind", sorted(HOSTILE))
@pytest.mark.parametrize("option", ["--from", "--from-collect-env", "--deepspeed-config", "--root", "--data"])
def test_path_values_are_inert_in_their_errors(kind, option, capsys, monkeypatch, tmp_path):
    path = str(tmp_path / f"missing-{HOSTILE[kind]}")
    args = [option, path] if option in ("--from", "--from-collect-env") else ["--from", str(CASE), option, path]
    code, out, err = _run(capsys, monkeypatch, *args)
    assert code == 3 and out == ""
    _assert_inert_lines(err, 1)
    assert str(tmp_path) in err


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_collect_path_is_inert_when_it_fails_and_when_it_is_written(kind, capsys, monkeypatch, tmp_path):
    code, out, err = _run(capsys, monkeypatch, "--from", str(CASE), "--collect", str(tmp_path / "no-dir" / HOSTILE[kind]))
    assert code == 3
    _assert_inert_lines(err, 1)
    target = tmp_path / f"snap{HOSTILE[kind].replace('/', '_')}.json"
    code, out, err = _run(capsys, monkeypatch, "--from", str(CASE), "--collect", str(target), "--format", "json")
    assert code in (0, 1) and target.is_file()
    _assert_inert_lines(err, 1)
    assert "snapshot written to" in err


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_argparse_errors_are_inert(kind, capsys, monkeypatch):
    for args in ([HOSTILE[kind]], ["--format", HOSTILE[kind]], ["--timeout", HOSTILE[kind]]):
        code, out, err = _run(capsys, monkeypatch, *args)
        assert code == 3
        error_lines = [line for line in err.splitlines() if "error:" in line]
        assert len(error_lines) == 1 and error_lines[0].startswith("lingjun-check: error:"), err
        assert not RAW.search(err), repr(err)


def test_a_long_release_is_shortened_in_its_error(capsys, monkeypatch):
    code, _, err = _run(capsys, monkeypatch, "--from", str(CASE), "--release", "r" * 10_000)
    assert code == 3
    assert f"--release {'r' * NAME_LIMIT}… ({10_000 - NAME_LIMIT} more characters): unknown release" in err
    assert len(err) < 2_000


def test_a_long_unreadable_path_is_shortened(capsys, monkeypatch):
    code, _, err = _run(capsys, monkeypatch, "--from", "/nonexistent/" + "p" * 50_000)
    assert code == 3 and "more characters)" in err and len(err) < ECHO_LIMIT + 200


# ---------------------------------------------------------------------------- reports


def _hostile_snapshot(tmp_path, value: str, gpus: int = 1):
    data = json.loads(CASE.read_text(encoding="utf-8"))
    data["nvml"]["gpus"] = [dict(data["nvml"]["gpus"][0], name=f"NVIDIA {value}", index=i) for i in range(gpus)]
    data["env"] = {"NCCL_SOCKET_IFNAME": value, "CUDA_VISIBLE_DEVICES": value}
    data["distributions"].append({"name": "evil", "version": value})
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_json_report_carries_no_raw_control_or_bidi_character(kind, capsys, monkeypatch, tmp_path):
    code, out, err = _run(capsys, monkeypatch, "--from", str(_hostile_snapshot(tmp_path, HOSTILE[kind])), "--format", "json")
    assert code in (0, 1), err
    assert not RAW.search(out.replace("\n", "")), "raw character in the JSON report"
    report = json.loads(out)  # the escapes read back as the characters themselves
    assert any(HOSTILE[kind] in (g["name"] or "") for g in report["facts"]["gpus"])


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_text_report_keeps_one_line_per_line(kind, capsys, monkeypatch, tmp_path):
    code, out, _ = _run(capsys, monkeypatch, "--from", str(_hostile_snapshot(tmp_path, HOSTILE[kind])), "--no-color")
    assert code in (0, 1)
    assert not RAW.search(out)
    assert not any(line.startswith("  ERROR  fake.rule") for line in out.splitlines())


def test_a_huge_gpu_name_does_not_flood_the_reports(capsys, monkeypatch, tmp_path):
    snapshot = _hostile_snapshot(tmp_path, "G" * 2_000_000, gpus=8)
    code, text, _ = _run(capsys, monkeypatch, "--from", str(snapshot), "--no-color")
    assert code in (0, 1)
    assert len(text) < 200_000 and "more characters)" in text
    code, out, _ = _run(capsys, monkeypatch, "--from", str(snapshot), "--format", "json")
    report = json.loads(out)
    assert len(out) < 400_000
    names = [g["name"] for g in report["facts"]["gpus"]]
    assert names and all(n.endswith(f"… ({2_000_007 - ECHO_LIMIT} more characters)") for n in names)


@pytest.mark.parametrize("char", ["\U000E0001", "\U000E0041", "\U000E007F", "\uFFF9", "\uFFFB", "\u0600", "\u206A",
                                  "\U0001D173", "\U0001BCA0"])
def test_format_characters_are_written_as_escapes_in_text_and_json(char):
    """The third red team's E1: tag characters and the other invisible format characters (category Cf) reached the
    terminal and fleet's HTML as they were; JSON writes one above U+FFFF as its surrogate pair and reads back."""
    import json
    import unicodedata

    from lingjun.checks.core.inert_text import dumps, inert

    assert unicodedata.category(char) == "Cf"
    name = f"gpu{char}node"
    assert char not in inert(name) and inert(name).startswith("gpu\\")
    text = dumps({"name": name})
    assert char not in text and json.loads(text)["name"] == name
