"""family_driver.driver_view: a cut-off driver text read with what the family's nearest releases state alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingjun.checks.core.family_driver import derived_entry, driver_view


def _release(version, order, cuda="12.8", forward=(), must=(), cut=False, family="f"):
    driver = {"vendor": "nvidia", "minimum": "575", "forward_compatibility": [{"branch": b, "minimum": m} for b, m in forward],
              "must_upgrade_branches": list(must)}
    if cut:
        driver["text_truncated"] = True
    return {"family": family, "version": version, "cuda": cuda, "order_key": [2025, order, 0], "driver": driver}


def test_neighbours_that_agree_complete_a_cut_off_text():
    before = _release("25.06", 6, forward=[(470, "470.57"), (535, "535.86")], must=[560])
    cut = _release("25.07", 7, forward=[(470, "470.57")], cut=True)
    after = _release("25.08", 8, forward=[(470, "470.57"), (535, "535.104")], must=[560])
    view = driver_view(cut, [before, cut, after])
    assert view is not cut and "derived" not in cut["driver"]  # a copy; the record itself is untouched
    assert derived_entry(view["driver"], 535) == {"branch": 535, "decision": "forward", "minimum": "535.104",
                                                  "from": ["25.06", "25.08"]}  # the higher minimum
    assert derived_entry(view["driver"], 560)["decision"] == "must-upgrade"
    assert derived_entry(view["driver"], 470) is None  # the record's own text names it


def test_neighbours_that_disagree_or_differ_state_nothing():
    cut = _release("25.07", 7, cut=True)
    admits = _release("25.06", 6, forward=[(535, "535.86")])
    refuses = _release("25.08", 8, must=[535])
    assert driver_view(cut, [admits, cut, refuses]) is cut
    silent = _release("25.08", 8)
    assert driver_view(cut, [admits, cut, silent]) is cut  # one side does not name it
    # a neighbour of another CUDA, or itself cut off, or of another family, is not asked
    assert driver_view(cut, [_release("25.06", 6, cuda="12.4", forward=[(535, "535.86")])]) is cut
    assert driver_view(cut, [_release("25.06", 6, forward=[(535, "535.86")], cut=True)]) is cut
    assert driver_view(cut, [_release("25.06", 6, forward=[(535, "535.86")], family="g")]) is cut
    # only one side has a neighbour: it alone
    assert derived_entry(driver_view(cut, [admits, cut])["driver"], 535)["from"] == ["25.06"]


def test_a_complete_text_is_read_as_it_stands():
    whole = _release("25.07", 7, forward=[(470, "470.57")])
    assert driver_view(whole, [_release("25.06", 6, forward=[(535, "535.86")]), whole]) is whole
    assert driver_view(None, []) is None


@pytest.mark.xdist_group("checkout-bundle")  # reads the checkout's bundle.json, which other tests rewrite
def test_the_checkers_release_match_reads_25_07_with_its_neighbours():
    """lingjun-check --release training-nv-pytorch:25.07 reads the record through driver_view over the bundle (the
    checkout's checks/data/bundle.json), as the finder and which do."""
    from lingjun.checks.facts import Facts
    from lingjun.checks.knowledge.bundle import KnowledgeData
    from lingjun.checks.knowledge.identify import identify

    bundle = Path(__file__).resolve().parents[2] / "checks" / "data" / "bundle.json"
    data = KnowledgeData.from_dict(json.loads(bundle.read_text(encoding="utf-8")))
    match = identify(Facts(), data, "training-nv-pytorch:25.07")
    entry = derived_entry(match.record.raw["driver"], 535)
    assert entry == {"branch": 535, "decision": "forward", "minimum": "535.86", "from": ["25.06", "25.08"]}
    assert derived_entry(match.record.raw["driver"], 560)["decision"] == "must-upgrade"
    # the typed view rules read holds the same entries
    assert [(d.branch, d.decision, d.minimum, d.from_) for d in match.record.driver.derived if d.branch == 535] == [
        (535, "forward", "535.86", ["25.06", "25.08"])]
    assert "derived" not in identify(Facts(), data, "training-nv-pytorch:25.08").record.raw["driver"]
    assert identify(Facts(), data, "training-nv-pytorch:25.08").record.driver.derived == []
