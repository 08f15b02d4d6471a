"""lingjun-kb build: work folders are always new (a planted link is never followed), ``..`` in --site-dir is
resolved before any work, and a bind mount of a source folder is refused like the folder itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from site_kit import FIXTURE_KB
from lingjun.generator.cli import main
from lingjun.generator.site import build as build_module
from lingjun.generator.site._site_dir import (MARKER, SiteDirRefused, check_site_dir, final_site_dir, mark_site,
                                              protected_folders)


def _victim(folder: Path) -> dict:
    folder.mkdir()
    for index in range(20):
        (folder / f"f{index}").write_text(f"precious {index}", encoding="utf-8")
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()}


def _state(folder: Path) -> dict:
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.is_file()}


def test_links_planted_at_the_work_folder_names_of_a_range_of_pids_are_never_followed(tmp_path, capsys, in_site_config):
    """The red-team case: links at ``.<site>.tmp-<pid>`` / ``.<site>.old-<pid>`` (old and new style names)
    for pids around this one; a real build (with a previous site, so both work folders are used) succeeds and
    leaves the link targets as they were, and the site is a folder, not a link."""
    victim = tmp_path / "victim"
    before = _victim(victim)
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("previous", encoding="utf-8")
    mark_site(site)
    pid = os.getpid()
    planted = []
    for other in range(max(1, pid - 100), pid + 100):
        for kind in ("tmp", "old"):
            for name in (f".site.{kind}-{other}", f".site.{kind}-{other}-"):
                link = tmp_path / name
                link.symlink_to(victim)
                planted.append(link)
    code = main(["build", "--releases", str(FIXTURE_KB), "--site-dir", str(site)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert _state(victim) == before
    assert not site.is_symlink() and site.is_dir()
    assert (site / MARKER).is_file() and (site / "zh" / "index.html").is_file()
    assert all(link.is_symlink() and os.readlink(link) == str(victim) for link in planted)
    leftovers = [name for name in os.listdir(tmp_path) if not (tmp_path / name).is_symlink()]
    assert sorted(leftovers) == ["site", "victim"]


def _fake_languages(monkeypatch, replace=None, hook=None):
    """Replace MkDocs by a writer of one page per language; ``hook(target)`` runs before the page of language
    ``replace`` is written.  Where the build forks the English build (``build_site(parallel=True)`` in a process
    of one thread) the replacement runs in that process as it would in this one; under pytest-xdist both
    languages are built here, into the same work folders."""

    def fake(lang, config_dir, docs_dir, target, nav, jieba, epoch, site_url, placements=None):
        if lang == replace and hook is not None:
            hook(Path(target))
        Path(target).mkdir(parents=True, exist_ok=True)
        (Path(target) / "index.html").write_text(lang, encoding="utf-8")

    monkeypatch.setattr(build_module, "build_language", fake)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_work_folder_replaced_by_a_link_during_the_build_is_never_swapped_in(tmp_path, monkeypatch, capsys, lang,
                                                                               in_site_config):
    """The folder a language is built into (the site's work folder for English, its own work folder for
    Chinese, built at the same time) is replaced by a link to a victim while that language builds."""
    victim = tmp_path / "victim"
    before = _victim(victim)
    site = tmp_path / "site"

    def replace_by_link(work: Path) -> None:
        assert work.name.startswith(".site.tmp-"), work  # a work folder next to the site, never the site
        work.rename(tmp_path / "moved-away")
        work.symlink_to(victim)

    _fake_languages(monkeypatch, lang, replace_by_link)
    code = main(["build", "--releases", str(FIXTURE_KB), "--site-dir", str(site)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "was replaced during the build; nothing was replaced" in err
    assert not os.path.lexists(site)
    # the page landed in the victim through the planted link (that is the attacker's own link);
    # nothing was removed from it and the site never became the link
    assert {k: v for k, v in _state(victim).items() if k in before} == before
    assert (victim / "index.html").read_text(encoding="utf-8") == lang
    assert not [name for name in os.listdir(tmp_path) if ".tmp-" in name and not (tmp_path / name).is_symlink()]


def test_dot_dot_is_resolved_against_the_real_parent_before_any_work(tmp_path, monkeypatch, capsys):
    imp = tmp_path / "imp"
    imp.mkdir()
    (imp / "keep.txt").write_text("keep", encoding="utf-8")
    regular = tmp_path / "regfile"
    regular.write_text("x", encoding="utf-8")
    calls = []
    monkeypatch.setattr(build_module, "load_validated", lambda releases: calls.append(releases))
    for given, words in ((imp / "newdir" / "..", f"is a folder no build made (it has no {MARKER} file)"),
                         (imp / "a" / "b" / ".." / "..", "is a folder no build made"),
                         (regular / "..", f"{regular} is a regular file, not a folder"),
                         (regular / "sub" / "..", f"{regular} is a regular file, not a folder")):
        code = main(["build", "--releases", str(FIXTURE_KB), "--site-dir", str(given)])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and words in err, (given, err)
    assert calls == []  # refused before loading the records
    assert sorted(os.listdir(tmp_path)) == ["imp", "regfile"] and os.listdir(imp) == ["keep.txt"]
    assert final_site_dir(imp / "new" / ".." / "site") == imp / "site"
    assert final_site_dir("new/../site", cwd=imp) == imp / "site"
    (tmp_path / "up").symlink_to(imp)
    assert final_site_dir(tmp_path / "up" / ".." / "s") == tmp_path / "s"  # ".." after a link: from its target
    (imp / "deep").mkdir()
    (tmp_path / "deeplink").symlink_to(imp / "deep")
    assert final_site_dir(tmp_path / "deeplink" / ".." / "s") == imp / "s"
    assert final_site_dir(tmp_path / "deeplink") == tmp_path / "deeplink"  # the last name is never followed


def test_a_site_given_with_dot_dot_is_built_at_the_folder_it_names(tmp_path, monkeypatch, capsys, in_site_config):
    _fake_languages(monkeypatch)
    given = tmp_path / "out" / "missing" / ".." / "site"
    code = main(["build", "--releases", str(FIXTURE_KB), "--site-dir", str(given)])
    assert code == 0, capsys.readouterr().err
    assert (tmp_path / "out" / "site" / "zh" / "index.html").read_text(encoding="utf-8") == "zh"
    assert os.listdir(tmp_path / "out") == ["site"]  # "missing" was never made


@pytest.fixture
def bind(tmp_path):
    """``bind(source, point)``: bind-mount ``source`` at ``point`` (root only), unmounted after the test."""
    mounted = []

    def mount(source: Path, point: Path) -> Path:
        point.mkdir(parents=True, exist_ok=True)
        result = subprocess.run(["mount", "--bind", str(source), str(point)], capture_output=True, text=True)
        if result.returncode != 0:
            pytest.skip(f"bind mounts need root: {result.stderr.strip()}")
        mounted.append(point)
        return point

    yield mount
    for point in reversed(mounted):
        subprocess.run(["umount", str(point)], check=False)


def test_a_bind_mount_of_a_source_folder_is_refused_like_the_folder(tmp_path, bind):
    config = tmp_path / "project" / "checkout"
    for name in ("releases", "docs", ".git"):
        (config / name).mkdir(parents=True)
    (config / "releases" / "families.yaml").write_text("x", encoding="utf-8")
    protected = protected_folders(config, config / "releases", config / ".build")
    work = tmp_path / "work"
    work.mkdir()
    point = bind(config / "releases", tmp_path / "mnt" / "rel")
    with pytest.raises(SiteDirRefused, match=r"is inside the releases folder \(the same folder as .*rel, another path"):
        check_site_dir(point / "newsite", config, protected, cwd=work)
    with pytest.raises(SiteDirRefused, match=r"is the releases folder \(the same folder"):
        check_site_dir(point, config, protected, cwd=work)
    assert sorted(os.listdir(config / "releases")) == ["families.yaml"]
    # a folder holding the checkout, marked as a site and mounted elsewhere: "holds", by identity
    mark_site(tmp_path / "project")
    above = bind(tmp_path / "project", tmp_path / "mnt" / "proj")
    with pytest.raises(SiteDirRefused, match="holds the checkout"):
        check_site_dir(above, config, protected, cwd=work)
    # an unrelated folder next to the mount points is still allowed
    assert check_site_dir(tmp_path / "mnt" / "site", config, protected, cwd=work) == tmp_path / "mnt" / "site"


def test_a_bind_mount_of_releases_through_the_command_builds_nothing(tmp_path, bind, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(build_module, "load_validated", lambda releases: calls.append(releases))
    releases = Path(build_module.find_config_dir()) / "releases"
    point = bind(releases, tmp_path / "bindrel")
    code = main(["build", "--releases", str(releases), "--site-dir", str(point / "newsite")])
    err = capsys.readouterr().err
    assert code == 2 and "is inside the releases folder (the same folder as" in err and err.count("\n") == 1
    assert calls == [] and not (releases / "newsite").exists()


def test_languages_are_built_one_after_the_other_in_a_process_running_other_threads(tmp_path, monkeypatch):
    """``serve`` rebuilds from a watcher thread: no fork there; both languages are built in this process."""
    import threading

    seen = []

    def fake(lang, config_dir, docs_dir, target, nav, jieba, epoch, site_url, placements=None):
        seen.append((lang, os.getpid()))
        Path(target).mkdir(parents=True, exist_ok=True)
        (Path(target) / "index.html").write_text(lang, encoding="utf-8")

    monkeypatch.setattr(build_module, "build_language", fake)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        build_module.build_site(FIXTURE_KB, tmp_path / "site", build_dir=tmp_path / "build")
    finally:
        stop.set()
        other.join()
    assert seen == [("en", os.getpid()), ("zh", os.getpid())]
    assert (tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8") == "zh"


#: builds the fixture site with a ``build_language`` that writes its process id, in a fresh Python process (one
#: thread: a pytest-xdist worker runs an I/O thread of its own, and no build forks beside it)
_PIDS_BUILD = """
import os, sys
from pathlib import Path
from lingjun.generator.site import build as build_module
def fake(lang, config_dir, docs_dir, target, nav, jieba, epoch, site_url, placements=None):
    Path(target).mkdir(parents=True, exist_ok=True)
    (Path(target) / "index.html").write_text(str(os.getpid()), encoding="utf-8")
build_module.build_language = fake
if sys.argv[3] == "thread":
    import _thread, threading
    _thread.start_new_thread(threading.Event().wait, ())  # a thread threading.active_count() does not count
build_module.build_site(Path(sys.argv[1]), Path(sys.argv[2]) / "site", build_dir=Path(sys.argv[2]) / "build")
print(os.getpid())
"""


def _pids_build(tmp_path: Path, thread: str) -> tuple[int, int, int]:
    """``(builder process, English page's writer, Chinese page's writer)`` of a fixture build in a new process."""
    done = subprocess.run([sys.executable, "-c", _PIDS_BUILD, str(FIXTURE_KB), str(tmp_path), thread],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    english = int((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    chinese = int((tmp_path / "site" / "zh" / "index.html").read_text(encoding="utf-8"))
    return int(done.stdout.split()[-1]), english, chinese


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one CPU: the languages are built one after the other")
def test_english_is_built_in_a_forked_process_and_chinese_in_this_one(tmp_path):
    """A build in a process without other threads builds the languages at once; each page records its builder."""
    builder, english, chinese = _pids_build(tmp_path, "none")
    assert chinese == builder and english != builder
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "site"]  # no work folder left


def test_a_thread_started_outside_threading_keeps_the_build_in_one_process(tmp_path):
    """A thread ``threading`` does not know of (``_thread.start_new_thread``, as pytest-xdist's I/O thread is
    started) still rules out the fork: both languages are built by the builder itself."""
    builder, english, chinese = _pids_build(tmp_path, "thread")
    assert english == builder and chinese == builder
