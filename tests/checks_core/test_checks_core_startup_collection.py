"""lingjun.checks._startup, its third trick: the cyclic garbage collector paused for a check, its objects frozen at exit."""

from __future__ import annotations

import gc
import subprocess
import sys

from lingjun.checks._startup import pause_collection, resume_collection


def test_pause_collection_says_whether_the_collector_ran_and_resume_restores_that():
    was = gc.isenabled()
    try:
        gc.enable()
        assert pause_collection() is True and not gc.isenabled()
        resume_collection(True)
        assert gc.isenabled()
        gc.disable()
        assert pause_collection() is False
        resume_collection(False)
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_cli_main_pauses_the_collector_and_restores_it(monkeypatch, capsys):
    from lingjun.checks import cli

    seen = []
    monkeypatch.setattr(cli, "_main", lambda argv: seen.append(gc.isenabled()) or 0)
    was = gc.isenabled()
    gc.enable()
    try:
        assert cli.main(["--version"]) == 0
        assert seen == [False] and gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_exit_frozen_exits_with_the_status_after_freezing_what_the_run_allocated():
    done = subprocess.run([sys.executable, "-c",
                           "import atexit, gc\n"
                           "atexit.register(lambda: print(gc.get_freeze_count() > 0))\n"
                           "from lingjun.checks._startup import exit_frozen\n"
                           "exit_frozen(3)\n"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (3, "True\n", "")
