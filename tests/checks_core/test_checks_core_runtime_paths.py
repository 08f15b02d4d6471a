"""Which runtime of an image holds the running interpreter: paths are compared normalised
(:func:`lingjun.checks.knowledge.record_view.runtime_for`), so ``..``, ``.`` and doubled slashes in a
snapshot's ``python.prefix`` never put an interpreter in a runtime it is not in (red-team finding F12)."""

from __future__ import annotations

import pytest

import checks_core_release_shapes as kit
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.identify import identify
from lingjun.checks.knowledge.record_view import runtime_for
from lingjun.checks.knowledge.release_record import release_from_dict

DATA = kit.data()
XPU = DATA.record("training-xpu-pytorch:2026-10-20")


@pytest.mark.parametrize("prefix, runtime", [
    # climbs out of the runtime: this is /usr, the image's own Python
    ("/opt/runtimes/cosmos-framework-ppu/../../../usr", None),
    ("/opt/runtimes/cosmos-framework-ppu/..", None),
    ("/opt/runtimes/cosmos-framework-ppu/../llama-factory-ppu-old", None),
    # climbs into a sibling runtime: that one
    ("/opt/runtimes/cosmos-framework-ppu/../llama-factory-ppu/venv", "llama-factory/20261015"),
    # the same place written with ./ and doubled slashes
    ("/opt//runtimes/./cosmos-framework-ppu/.venv", "cosmos-framework/20261015"),
    ("//opt/runtimes/cosmos-framework-ppu", "cosmos-framework/20261015"),
    # the record's path has a trailing slash (/opt/runtimes/diffsynth-ppu/)
    ("/opt/runtimes/diffsynth-ppu", "diffsynth/20261015"),
    # not absolute: names no place
    ("opt/runtimes/cosmos-framework-ppu", None),
])
def test_runtime_paths_are_compared_normalised(prefix, runtime):
    found = runtime_for(XPU, prefix, None)
    assert (found.id if found else None) == runtime
    found = runtime_for(XPU, None, f"{prefix}/bin/python3")
    assert (found.id if found else None) == runtime


def test_a_runtime_path_with_dotdot_in_the_record_is_normalised_too():
    image = release_from_dict({"family": "f", "version": "1", "runtimes": [{"id": "a", "path": "/opt/runtimes/x/../a"},
                                                                           {"id": "root", "path": "/"}]})
    assert runtime_for(image, "/opt/runtimes/a/venv", None).id == "a"
    assert runtime_for(image, "/opt/runtimes/x/venv", None) is None  # "/" is no runtime path


def test_a_snapshot_prefix_that_climbs_out_is_checked_against_the_image_not_the_runtime():
    facts = Facts()
    facts.python.prefix = "/opt/runtimes/cosmos-framework-ppu/../../../usr"
    facts.python.executable = "/opt/runtimes/cosmos-framework-ppu/../../../usr/bin/python3"
    match = identify(facts, DATA, kit.XPU_TAG)
    assert match.runtime is None
    assert match.record.component_list == "complete"
    assert [e.id for e in match.record.components][0] == "ubuntu"
