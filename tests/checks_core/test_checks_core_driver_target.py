"""The one driver a remedy names (lingjun.checks.core.driver_target), and reports that name only it."""

import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path

from lingjun.checks.core.driver_target import branch_end_of_life, last_branch_for_cc, upgrade_target
from lingjun.checks.core.versions import DriverVersion

ROOT = Path(__file__).resolve().parents[2]
V = DriverVersion.parse
TODAY = dt.date(2026, 12, 1)
ROWS = [
    {"branch": 620, "type": "long-term-support", "end_of_life": False, "eol": "2029-09"},
    {"branch": 610, "type": "new-feature", "end_of_life": False, "eol": "2026-08"},
    {"branch": 595, "type": "production", "end_of_life": False, "eol": "2027-03"},
    {"branch": 580, "type": "long-term-support", "end_of_life": False},
    {"branch": 575, "end_of_life": True},
    {"branch": 570, "type": "production", "end_of_life": False, "eol": "2026-02"},
    {"branch": 535, "type": "long-term-support", "end_of_life": False, "eol": "2026-06"},
]


def test_end_of_life_is_computed_from_the_date_not_the_stored_flag():
    r570 = ROWS[5]
    assert branch_end_of_life(r570, dt.date(2026, 2, 28)) is False
    assert branch_end_of_life(r570, dt.date(2026, 3, 1)) is True  # end_of_life: false, but its month has passed
    assert branch_end_of_life({"branch": 575, "end_of_life": True}, TODAY) is True
    assert branch_end_of_life({"branch": 580, "end_of_life": False}, TODAY) is False


def test_newest_supported_production_branch_wins_over_a_new_feature_branch():
    target = upgrade_target([V("575")], ROWS, TODAY)
    assert (target.branch, str(target.minimum), target.en) == (620, "620", "R620 (620 or later)")
    only_nfb = [ROWS[1]]
    assert upgrade_target([V("575")], only_nfb, dt.date(2026, 1, 1)).branch == 610


def test_the_minimum_is_the_highest_requirement_inside_the_chosen_branch():
    target = upgrade_target([V("595.58.03"), V("575")], ROWS[2:], TODAY)
    assert target.en == "R595 (595.58.03 or later)"


def test_a_branch_below_a_requirement_or_end_of_life_never_qualifies():
    assert upgrade_target([V("570.26")], ROWS[4:], TODAY) is None  # 575 and 570 are end of life, 535 is too old
    assert upgrade_target([V("530.30.02")], ROWS[3:], TODAY).branch == 580


def test_volta_and_older_are_bounded_by_r580():
    assert last_branch_for_cc((7, 0)) == 580 and last_branch_for_cc((6, 1)) == 580
    assert last_branch_for_cc((7, 5)) is None and last_branch_for_cc(None) is None
    # NVIDIA: R580 is the last branch for Maxwell, Pascal and Volta, so "or later" stays inside it
    target = upgrade_target([V("535")], ROWS, TODAY, last_branch=580)
    assert target.en == "R580 (580 or later within R580; later branches do not support this GPU)"
    assert target.zh == "R580（R580 分支内 580 或更高；之后的分支不再支持该 GPU）"
    assert upgrade_target([V("535")], ROWS, TODAY).en.endswith("or later)")  # no GPU bound: a plain minimum


def test_one_report_names_one_driver_as_the_fix(tmp_path):
    """570 on training-nv-pytorch 25.07 (minimum 575, CUDA 12.8 needs 570.26): every driver remedy names the same branch."""
    snap = {
        "schema": "lingjun-check/snapshot/1", "origin": "snapshot",
        "driver": {"kernel_module_version": "570.133.20"},
        "nvidia_smi": {"available": True, "driver_version": "570.133.20",
                       "gpus": [{"index": 0, "name": "NVIDIA H20", "compute_capability": "9.0"}]},
        "torch": {"version": "2.8.0+cu129", "cuda": "12.9"},
        "symptoms": {"cuda_available": False},
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(snap))
    out = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from", str(path), "--release", "training-nv-pytorch:25.07",
                          "--format", "json"], capture_output=True, text=True, cwd=ROOT)
    report = json.loads(out.stdout)
    remedies = [f["remedy"]["en"] if isinstance(f.get("remedy"), dict) else f.get("remedy") or "" for f in report["findings"]]
    named = {m for r in remedies for m in re.findall(r"\bR(\d{3})\b", r)}
    assert len(named) == 1, remedies
    assert not any(re.search(r"\b(575|570\.26|575\.51\.03)\b", r) for r in remedies), remedies
