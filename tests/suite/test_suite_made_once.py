"""The suite's folders made once per run (tests/made_once.py): made ahead by whichever xdist worker is free."""

from __future__ import annotations

import fcntl

import pytest

import made_once


class _Factory:
    """A stand-in for pytest's tmp_path_factory of one xdist worker: its base folder is ``<run>/popen-gw0``."""

    def __init__(self, run):
        self.run = run

    def getbasetemp(self):
        return self.run / "popen-gw0"


@pytest.fixture()
def registry(monkeypatch, tmp_path):
    monkeypatch.setattr(made_once, "_AHEAD", [])
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    made = []

    def register(name, fixture, seconds):
        @made_once.made_ahead(name, fixture, seconds)
        def make(folder, factory):
            made.append(name)
            (folder / "made").write_text(name)

        return make

    return register, made, _Factory(tmp_path)


def test_make_ahead_makes_the_wanted_free_folders_longest_first(registry, tmp_path):
    register, made, factory = registry
    register("short", "short_fixture", 1)
    register("long", "long_fixture", 9)
    register("unused", "unused_fixture", 20)
    register("busy", "busy_fixture", 5)
    with open(tmp_path / "shared-busy.lock", "w") as held:  # another worker is making it
        fcntl.flock(held, fcntl.LOCK_EX)
        assert made_once.make_ahead(factory, {"short_fixture", "long_fixture", "busy_fixture"}) == ["long", "short"]
    assert made == ["long", "short"]
    assert (tmp_path / "shared-long" / "made").read_text() == "long"
    assert not (tmp_path / "shared-busy").exists() and not (tmp_path / "shared-unused").exists()


def test_a_folder_made_ahead_is_not_made_again_when_its_fixture_asks(registry, tmp_path):
    register, made, factory = registry
    folder_of = register("site", "site_fixture", 3)
    assert made_once.make_ahead(factory, {"site_fixture"}) == ["site"]
    assert made_once.make_ahead(factory, {"site_fixture"}) == []  # found made: nothing to do
    assert folder_of(factory) == tmp_path / "shared-site"
    assert made == ["site"]


def test_without_xdist_nothing_is_made_ahead(registry, monkeypatch):
    register, made, factory = registry
    register("site", "site_fixture", 3)
    monkeypatch.delenv("PYTEST_XDIST_WORKER")
    assert made_once.make_ahead(factory, {"site_fixture"}) == [] and made == []


def test_a_name_registered_again_keeps_its_first_make(registry):
    register, made, factory = registry
    register("site", "first_fixture", 3)
    register("site", "second_fixture", 3)
    assert [entry[:3] for entry in made_once._AHEAD] == [("site", "first_fixture", 3)]
