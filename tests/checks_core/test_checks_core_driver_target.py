"""The one driver a remedy names (lingjun.checks.core.driver_target), and reports that name only it."""

import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

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


def test_the_oldest_supported_long_term_support_branch_wins_over_newer_ones():
    # 575 needed on 2026-12-01: 580 (LTS), 595 (production) and 620 (LTS) qualify; the least change is R580
    target = upgrade_target([V("575")], ROWS, TODAY)
    assert (target.branch, str(target.minimum), target.branch_type, target.newest) == (580, "580", "long-term-support", 620)
    assert target.en == "R580 (580 or later; R620 is the newest)"
    assert target.zh == "R580（580 或更高；最新的是 R620）"


def test_a_long_term_support_branch_is_preferred_to_an_older_production_branch():
    # 581 needed: 595 (production) is older, but 620 (long-term support) qualifies and wins; it is also the newest
    target = upgrade_target([V("581")], ROWS, TODAY)
    assert (target.branch, target.newest, target.en) == (620, None, "R620 (620 or later)")


def test_the_oldest_production_branch_when_no_long_term_support_branch_qualifies():
    rows = [{"branch": 600, "type": "production", "eol": "2028-01"}] + ROWS[1:]  # no 620
    target = upgrade_target([V("581")], rows, TODAY)
    assert (target.branch, target.branch_type, target.newest) == (595, "production", 600)
    assert target.en == "R595 (595 or later; R600 is the newest)"


def test_a_new_feature_branch_only_when_nothing_else_qualifies():
    only_nfb = [ROWS[1]]
    assert upgrade_target([V("575")], only_nfb, dt.date(2026, 1, 1)).branch == 610
    # 600 needed on 2026-01-01: no long-term support or production branch reaches it, two new feature branches do
    rows = [{"branch": 615, "type": "new-feature", "eol_undated": "new-feature"}] + ROWS[1:]
    target = upgrade_target([V("600.10")], rows, dt.date(2026, 1, 1))
    assert (target.branch, target.branch_type, target.newest) == (610, "new-feature", 615)
    assert target.en == "R610 (610 or later; R615 is the newest)"
    # the same rows with R620 (long-term support) back: the new feature branches lose
    assert upgrade_target([V("600.10")], ROWS[:1] + rows, dt.date(2026, 1, 1)).branch == 620


def test_the_minimum_is_the_highest_requirement_inside_the_chosen_branch():
    target = upgrade_target([V("595.58.03"), V("575")], ROWS[2:], TODAY)
    assert target.en == "R595 (595.58.03 or later)"
    target = upgrade_target([V("580.65.06"), V("575"), V("580.82.07")], ROWS, TODAY)
    assert (str(target.minimum), target.en) == ("580.82.07", "R580 (580.82.07 or later; R620 is the newest)")


def test_a_branch_below_a_requirement_or_end_of_life_never_qualifies():
    assert upgrade_target([V("570.26")], ROWS[4:], TODAY) is None  # 575 and 570 are end of life, 535 is too old
    assert upgrade_target([V("530.30.02")], ROWS[3:], TODAY).branch == 580
    # before its end of life R535 is the least change for a 535 requirement; after it, R580
    assert upgrade_target([V("535")], ROWS, dt.date(2026, 5, 1)).branch == 535
    assert upgrade_target([V("535")], ROWS, dt.date(2026, 7, 1)).branch == 580


def test_volta_and_older_are_bounded_by_r580():
    assert last_branch_for_cc((7, 0)) == 580 and last_branch_for_cc((6, 1)) == 580
    assert last_branch_for_cc((7, 5)) is None and last_branch_for_cc(None) is None
    # NVIDIA: R580 is the last branch for Maxwell, Pascal and Volta, so "or later" stays inside it
    target = upgrade_target([V("535")], ROWS, TODAY, last_branch=580)
    assert (target.branch, target.newest, target.last_for_gpu) == (580, None, True)
    assert target.en == "R580 (580 or later within R580; later branches do not support this GPU)"
    assert target.zh == "R580（R580 分支内 580 或更高；之后的分支不再支持该 GPU）"
    # no GPU bound: a plain minimum, with the newest branch beside it
    assert upgrade_target([V("535")], ROWS, TODAY).en == "R580 (580 or later; R620 is the newest)"
    # a requirement past R580 leaves a Volta GPU nothing to install
    assert upgrade_target([V("595")], ROWS, TODAY, last_branch=580) is None
    # while R535 is supported it is the least change, and the words say where Volta's branches end
    target = upgrade_target([V("535")], ROWS, dt.date(2026, 5, 1), last_branch=580)
    assert (target.branch, target.newest, target.last_for_gpu) == (535, 580, False)
    assert target.en == "R535 (535 or later; R580 is the newest; branches after R580 do not support this GPU)"
    assert target.zh == "R535（535 或更高；最新的是 R580；R580 之后的分支不再支持该 GPU）"


def _real_branches():
    return yaml.safe_load((ROOT / "releases" / "reference" / "driver-branches.yaml").read_text())["branches"]


def test_an_image_needing_550_on_hopper_gets_r580_with_r620_named_on_2026_12_03():
    """The issue's case: the image needs 550, the GPU is Hopper (its first CUDA, 11.8, needs 520.61.05)."""
    target = upgrade_target([V("550"), V("520.61.05")], _real_branches(), dt.date(2026, 12, 3))
    assert (target.branch, str(target.minimum), target.branch_type, target.eol, target.newest) == (
        580, "580", "long-term-support", "2028-06", 620)
    assert target.en == "R580 (580 or later; R620 is the newest)"
    assert target.zh == "R580（580 或更高；最新的是 R620）"


def test_volta_never_gets_a_branch_past_r580_from_the_real_table():
    rows = _real_branches()
    for today in (dt.date(2026, 5, 1), dt.date(2026, 12, 3), dt.date(2028, 6, 30)):
        for need in ("384.81", "535", "550", "575.51.03", "580.65.06"):
            target = upgrade_target([V(need)], rows, today, last_branch=last_branch_for_cc((7, 0)))
            assert target is not None and target.branch <= 580 and (target.newest or 0) <= 580, (today, need)
    assert upgrade_target([V("590.44.01")], rows, dt.date(2026, 12, 3), last_branch=580) is None
    # after R580's end of life no branch supports Volta
    assert upgrade_target([V("535")], rows, dt.date(2028, 7, 1), last_branch=580) is None


def test_cuda_13_1_on_the_real_table_gets_r620_not_the_older_production_r595():
    # CUDA 13.1 needs 590.44.01: R590 and R615 are new feature branches, R595 production, R620 long-term support
    target = upgrade_target([V("590.44.01")], _real_branches(), dt.date(2026, 12, 3))
    assert (target.branch, target.newest, target.en) == (620, None, "R620 (620 or later)")


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
    # one fix, the same words in every remedy ("R580 (580 or later; R620 is the newest)" on 2026-12-03, the checker
    # runs on the real day): the newest branch is named beside it, never as a second fix
    fixes = {m for r in remedies for m in re.findall(r"\bR\d{3} \([^)]*\)", r)}
    assert len(fixes) == 1, remedies
    if dt.date.today() <= dt.date(2028, 6, 30):  # R580's end of life
        assert fixes == {"R580 (580 or later; R620 is the newest)"}, remedies
    assert not any(re.search(r"\b(575|570\.26|575\.51\.03)\b", r) for r in remedies), remedies
