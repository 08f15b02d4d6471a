"""lingjun.checks.core.terminal_text and the text report: wrapped to the terminal's width, columns aligned by
display width (a Chinese character takes two columns)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from checks_core_helpers import REPO
from lingjun.checks.core.terminal_text import char_width, display_width, hanging_wrap, ljust, terminal_width, wrap, wrap_block

SNAPSHOT_2510 = REPO / "tests" / "fixtures" / "snapshots" / "training-nv-pytorch-25.10-16-gpus-eth0.json"


def test_display_width_counts_wide_characters_twice_and_colour_not_at_all():
    assert display_width("发布说明：") == 10
    assert display_width("e\u0301") == 1  # a combining accent takes no column
    assert display_width("\x1b[1;31m错误\x1b[0m") == 4
    assert ljust("警告", 5) == "警告 " and ljust("WARN", 5) == "WARN "


def test_every_ascii_character_takes_one_column():
    """display_width counts an ASCII text by its length: char_width must say 1 for each ASCII character."""
    assert all(char_width(chr(code)) == 1 for code in range(128))
    assert display_width("".join(chr(code) for code in range(128))) == 128


@pytest.mark.parametrize("word", ["x" * 5_000, "警告" * 1_500, "ab\u0301c警" * 900, "é" * 3_000])
def test_a_word_many_lines_long_is_cut_into_lines_that_fit(word):
    lines = wrap("go " + word + " end", 37, first=4, rest=2)
    assert "".join(lines).replace(" ", "") == "go" + word + "end"
    assert display_width(lines[0]) <= 33 and all(display_width(line) <= 35 for line in lines[1:])
    if word.isascii():
        assert lines[0] == "go" and {display_width(line) for line in lines[1:-2]} == {35}


def test_wrap_breaks_chinese_between_characters_but_not_before_closing_punctuation():
    lines = wrap("驱动 570.124.06 低于发布要求，按 NVIDIA 的对照表，CUDA 可以初始化。", 16)
    assert all(display_width(line) <= 16 for line in lines)
    assert not any(line[0] in "，。：）" for line in lines)
    assert "".join(lines).replace(" ", "") == "驱动570.124.06低于发布要求，按NVIDIA的对照表，CUDA可以初始化。"


def test_wrap_keeps_words_whole_and_cuts_only_a_word_wider_than_the_line():
    assert wrap("export NCCL_SOCKET_IFNAME=hpn0 now", 20) == ["export", "NCCL_SOCKET_IFNAME=h", "pn0 now"]
    assert wrap("a b c", 3) == ["a b", "c"]
    assert hanging_wrap("  -> ", "one two three", 12, 5) == ["  -> one two", "     three"]


def test_wrap_block_continues_a_row_under_its_last_column_or_below_it():
    row = "25.07  forward-compat  " + "word " * 12
    assert wrap_block(row, 60).splitlines() == ["25.07  forward-compat  word word word word word word word", 
                                                "                       word word word word word"]
    wide = "training-nv-pytorch:25.07" + " " * 30 + "minor-compat  Below the release's requirement and more words"
    lines = wrap_block(wide, 80).splitlines()
    assert lines[0] == "training-nv-pytorch:25.07" + " " * 30 + "minor-compat"
    assert lines[1] == "    Below the release's requirement and more words"


def test_terminal_width_is_columns_else_80_off_a_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "132")
    assert terminal_width() == 132
    monkeypatch.delenv("COLUMNS")
    if not sys.__stdout__.isatty():
        assert terminal_width() == 80
    monkeypatch.setenv("COLUMNS", "5")
    assert terminal_width() == 30


@pytest.fixture(scope="module")
def fixture_bundle_file(tmp_path_factory):
    sys.path.insert(0, str(REPO / "tests" / "checks_rules"))
    import checks_rules_kit

    path = tmp_path_factory.mktemp("bundle") / "bundle.json"
    path.write_text(json.dumps(checks_rules_kit.fixture_bundle()), encoding="utf-8")
    return path


def _report(bundle, lang, columns, snapshot=SNAPSHOT_2510):
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "LANG": "C.UTF-8"}
    if columns is not None:
        env["COLUMNS"] = columns
    done = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from", str(snapshot), "--data", str(bundle),
                           "--lang", lang], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("columns", ["80", None])  # None: no COLUMNS and a pipe, so 80
def test_checker_report_fits_80_columns(fixture_bundle_file, lang, columns):
    lines = _report(fixture_bundle_file, lang, columns)
    assert _fits(lines, 80)
    assert max(display_width(line) for line in lines) >= 70  # wrapped to the width, not far short of it
    assert any("NCCL_SOCKET_IFNAME" in line for line in lines)


def _fits(lines, width):
    """Every line within ``width`` columns, but for a line holding one URL, path or image reference alone, which is
    never cut (a cut one cannot be copied): the terminal folds it."""
    from lingjun.checks.core.terminal_text import _unbreakable

    return all(display_width(line) <= width or (len(line.split()) == 1 and _unbreakable(line.strip()))
               for line in lines)


def test_a_url_or_image_reference_wider_than_the_line_is_never_cut():
    from lingjun.checks.core.terminal_text import wrap

    ref = "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless"
    url = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html#runtime-and-mpi-issues"
    lines = wrap(f"start a fresh container from the image {ref}. See {url} for more", 60)
    assert f"{ref}." in lines and url in lines
    assert all(display_width(line) <= 60 for line in lines if line not in (f"{ref}.", url))
    assert wrap("x" * 70, 60) == ["x" * 60, "x" * 10]  # a plain word wider than the line is still cut


def _without_driver(tmp_path):
    """The 25.10 snapshot with no NVIDIA driver visible: the GPU rules' skips merge into "（7 条规则）" lines."""
    data = json.loads(SNAPSHOT_2510.read_text(encoding="utf-8"))
    data["driver"] = {"device_nodes": [], "kernel_module_version": None}
    data["nvml"] = {"gpus": []}
    path = tmp_path / "no-driver.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("columns", ["160", "80"])
def test_chinese_report_columns_align_by_display_width(fixture_bundle_file, tmp_path, columns):
    """Labels (错误, 警告: four columns), rule ids and the "（7 条规则）" of merged skips padded by display width: every
    finding's message, and every continuation of one, starts at the same column."""
    lines = _report(fixture_bundle_file, "zh", columns, _without_driver(tmp_path))
    assert max(display_width(line) for line in lines) <= int(columns)
    pattern = r"  (错误|警告|信息|通过|跳过)( +)(（\d+ 条规则）|\S+)( +)" if columns == "160" else r"  (错误|警告|信息|通过|跳过)( +)(（\d+ 条规则）|\S+)$"
    rows = [re.match(pattern, line) for line in lines]
    rows = [m for m in rows if m]
    assert len(rows) > 10 and any(m.group(3).startswith("（") for m in rows)
    assert {display_width(m.group(1) + m.group(2)) for m in rows} == {6}
    if columns == "160":  # the message beside the rule id
        starts = {display_width(m.group(0)) for m in rows}
    else:  # too narrow for that: the message under the rule id, past the label
        starts = {8}
    assert len(starts) == 1
    continued, in_message = [], False  # the lines that continue a message (not its remedy or link)
    for line in lines:
        if re.match(pattern, line):
            in_message = True
            continue
        if not line.startswith(" " * 8) or line.lstrip().startswith(("->", "http")):
            in_message = False
        elif in_message:
            continued.append(line)
    assert continued and {len(line) - len(line.lstrip()) for line in continued} == starts


def test_wide_terminal_keeps_the_message_beside_the_rule(fixture_bundle_file):
    lines = _report(fixture_bundle_file, "en", "160")
    assert max(display_width(line) for line in lines) <= 160
    (row,) = [line for line in lines if "env.nccl-socket-ifname-pod-size" in line]
    assert row.startswith("  WARN   env.nccl-socket-ifname-pod-size") and "NCCL_SOCKET_IFNAME is eth0" in row


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rule_list_fits_80_columns_with_a_row_per_rule(lang):
    from lingjun.checks.rules import load_rules

    done = subprocess.run([sys.executable, "-m", "lingjun.checks", "--list-rules", "--lang", lang], capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "COLUMNS": "80"})
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and max(display_width(line) for line in lines) <= 80
    assert [line.split()[0] for line in lines if not line.startswith(" ")] == [spec.id for spec in load_rules()]
