"""A number too long for Python's int() (over 4,300 digits) is bad input, never an internal error.

Kind-level: every run of digits in the collect_env pastes of the red-team corpus, and every value of the
snapshots that rules read numbers from, is replaced in turn by thousands of digits; the check must end
with a report (no "internal error in rule") or with one line naming the file and line (exit 3).
"""

from __future__ import annotations

import copy
import json
import re

import pytest

from lingjun.checks.core.native_version import parse_cudnn, parse_nccl
from lingjun.checks.core.small_int import MAX_DIGITS, small_int

from checks_redteam_kit import REDTEAM, REPO, run_json

LONG = "9" * 5000
#: what a hostile value that should hold a number looks like: bare, as a version part, inside a name
SHAPES = [LONG, f"1.{LONG}", f"12.{LONG}.3", f"nvidia-nccl-cu{LONG}"]


def _no_internal_error(report: dict) -> None:
    broken = [f for f in report["findings"] if "internal error" in f["message"]]
    assert not broken, broken


@pytest.mark.parametrize("text", ["9" * 5000, "9" * (MAX_DIGITS + 1), "１２", "-3", "", "1e3", None, 12])
def test_small_int_refuses_what_is_not_a_short_ascii_number(text):
    assert small_int(text) is None


def test_small_int_reads_short_numbers():
    assert (small_int("0"), small_int(" 42\n"), small_int("9" * MAX_DIGITS)) == (0, 42, int("9" * MAX_DIGITS))


@pytest.mark.parametrize("parse", [parse_cudnn, parse_nccl])
@pytest.mark.parametrize("text", [LONG, f"8.{LONG}.1", f"({LONG}, 1, 2)", f"2.19.{LONG}", f"libx.so.{LONG}.1.2"])
def test_native_versions_with_endless_digits_are_unreadable(parse, text):
    assert parse(text) is None


@pytest.mark.parametrize("paste", sorted(p.name for p in REDTEAM.glob("*.collect_env.txt")))
def test_every_number_of_a_collect_env_paste_made_endless(paste, monkeypatch, capsys, tmp_path):
    text = (REDTEAM / paste).read_text(encoding="utf-8", errors="replace")
    target = tmp_path / "paste.txt"
    runs = list(re.finditer(r"[0-9]+", text))
    assert len(runs) >= 5
    for match in runs:
        target.write_text(text[:match.start()] + LONG + text[match.end():], encoding="utf-8")
        code, report, err = run_json(monkeypatch, capsys, "--from-collect-env", str(target))
        if code == 3:  # bad input: one line naming the file and line
            assert report is None and err.count("\n") == 1 and f"{target}: line " in err, err
            assert "internal error" not in err and "more characters)" in err
        else:
            _no_internal_error(report)


def test_gpu_index_too_long_names_the_line(monkeypatch, capsys, tmp_path):
    target = tmp_path / "paste.txt"
    target.write_text(f"PyTorch version: 2.5.1\nGPU models and configuration:\nGPU 0: NVIDIA A100\nGPU {LONG}: NVIDIA A100\n", encoding="utf-8")
    code, report, err = run_json(monkeypatch, capsys, "--from-collect-env", str(target))
    assert code == 3 and report is None
    assert err.startswith(f"lingjun-check: {target}: line 4: GPU models and configuration: the GPU index 9999") and len(err) < 300


@pytest.mark.parametrize("fixture", ["redteam/R06-deepprep-233.json", "redteam/R07-open-gpu-kernel-modules-47.json",
                                     "redteam/R11-functorch-926.json", "cases/C14.json", "cases/C01.json"])
def test_every_value_of_a_snapshot_made_an_endless_number(fixture, monkeypatch, capsys, tmp_path):
    base = json.loads((REPO / "tests" / "fixtures" / fixture).read_text(encoding="utf-8"))
    target = tmp_path / "snapshot.json"

    def leaves(node, path=()):
        if isinstance(node, dict):
            for key, value in node.items():
                yield from leaves(value, path + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from leaves(value, path + (i,))
        elif isinstance(node, (str, int)) and not isinstance(node, bool) and path[0] not in ("schema", "origin"):
            yield path

    paths = list(leaves(base))
    assert len(paths) > 5
    for path in paths:
        for shape in SHAPES:
            data = copy.deepcopy(base)
            node = data
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = shape
            target.write_text(json.dumps(data), encoding="utf-8")
            code, report, err = run_json(monkeypatch, capsys, "--from", str(target))
            assert code in (0, 1, 2), (path, shape[:20], err)
            _no_internal_error(report)


def _float_fields(cls, path=()):
    """Paths (field names, "[]" for a list item) of every float field the snapshot format has."""
    import dataclasses
    import typing

    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if typing.get_origin(hint) is typing.Union:
            hint = args[0]
        if typing.get_origin(hint) is list:
            item = typing.get_args(hint)[0]
            if dataclasses.is_dataclass(item):
                yield from _float_fields(item, path + (f.name, "[]"))
        elif dataclasses.is_dataclass(hint):
            yield from _float_fields(hint, path + (f.name,))
        elif hint is float:
            yield path + (f.name,)


def test_the_snapshot_format_has_float_fields():
    from lingjun.checks.facts import Facts

    assert ("probes", "[]", "seconds") in list(_float_fields(Facts))


@pytest.mark.parametrize("number", [10 ** 400, -(10 ** 400), 10 ** 309])
def test_every_float_field_given_an_integer_beyond_float_range_is_dropped(number, monkeypatch, capsys, tmp_path):
    """An integer that float() cannot hold (OverflowError) is an unusable value: dropped and reported."""
    from lingjun.checks.facts import Facts
    from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict

    base = json.loads((REPO / "tests" / "fixtures" / "cases" / "C01.json").read_text(encoding="utf-8"))
    target = tmp_path / "snapshot.json"
    for path in _float_fields(Facts):
        data = copy.deepcopy(base)
        node = data
        for part in path[:-1]:
            if part == "[]":
                if not node:
                    node.append({"name": "os"})
                node = node[0]
            else:
                node = node.setdefault(part, [] if path[path.index(part) + 1:][:1] == ("[]",) else {})
        node[path[-1]] = number
        facts, problems = facts_from_snapshot_dict(data)
        field = ".".join(p for p in path if p != "[]")
        assert any("number out of range" in p and p.endswith("; ignored") for p in problems), (field, problems)
        target.write_text(json.dumps(data), encoding="utf-8")
        code, report, err = run_json(monkeypatch, capsys, "--from", str(target))
        assert code in (0, 1, 2), (field, err)
        _no_internal_error(report)
