"""lingjun-kb build --site-dir: only its own sites are replaced; killed, interrupted and concurrent builds leave no mess."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from site_kit import FIXTURE_KB, REPO, copy_site_config
from hostile_paths import HOSTILE_OUTPUT_KINDS, node_folder, node_state
from lingjun.generator.cli import main
from lingjun.generator.site._site_dir import MARKER, SiteDirRefused, check_site_dir, mark_site, protected_folders, remove_stale_work_folders

#: folders of the checkout the site may never be, hold or lie in (relative to the checkout)
PROJECT_FOLDERS = {
    "releases": "is the project's releases/ folder",
    "docs": "is the project's docs/ folder",
    ".git": "is the project's .git/ folder",
    "checks": "is the project's checks/ folder",
    "schema": "is the project's schema/ folder",
    "generator": "is the project's generator/ folder",
    "tests": "is the project's tests/ folder",
    "bench": "is the project's bench/ folder",
    ".build": "is the build folder",
    ".": "is the checkout",
    "..": "holds the checkout",
    "/": "holds the checkout",
    "releases/site": "is inside the project's releases/ folder",
    "docs/en/site": "is inside the project's docs/ folder",
    "tests/site-out": "is inside the project's tests/ folder",
    "generator/site/out": "is inside the project's generator/ folder",
    "": "is empty",
}


def _build(capsys, site_dir: str, releases: Path = FIXTURE_KB) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["build", "--releases", str(releases), "--site-dir", site_dir])
    out, err = capsys.readouterr()
    return code, out, err


#: what other tests write at the checkout's top level while these run (xdist runs them at the same time):
#: the browser tests' screenshots; no build writes there
_OTHER_TESTS_WRITE = {"test-artifacts"}


def _checkout_state() -> dict:
    """The checkout's top level and the names in its source folders (a refused build must change none)."""
    state = {"top": sorted(set(os.listdir(REPO)) - _OTHER_TESTS_WRITE)}
    for name in ("releases", "docs"):
        state[name] = sorted(str(p.relative_to(REPO)) for p in (REPO / name).rglob("*"))
    return state


@pytest.mark.parametrize("site_dir", sorted(PROJECT_FOLDERS))
def test_the_checkout_and_its_source_folders_are_refused(site_dir, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    before = _checkout_state()
    code, out, err = _build(capsys, site_dir)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("lingjun-kb build: --site-dir ")
    assert PROJECT_FOLDERS[site_dir] in err
    assert _checkout_state() == before


@pytest.mark.parametrize("kind", sorted(set(HOSTILE_OUTPUT_KINDS) - {"empty name"}) + ["regular file"])
def test_anything_but_a_folder_of_its_own_is_refused(kind, hostile_node, capsys):
    path = hostile_node(kind)
    before, listing = node_state(path), sorted(os.listdir(node_folder(path)))
    code, out, err = _build(capsys, path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"lingjun-kb build: --site-dir {path}{':' if kind == 'path through a file' else ''} ")
    words = {"folder": f"is a folder no build made (it has no {MARKER} file)",
             "regular file": "is a regular file, not a site folder"}.get(kind) or HOSTILE_OUTPUT_KINDS[kind]
    assert words in err
    assert node_state(path) == before
    assert sorted(os.listdir(node_folder(path))) == listing  # no work folder made next to it


def test_a_folder_inside_a_refused_one_and_the_home_of_the_working_folder(tmp_path, monkeypatch):
    config = tmp_path / "checkout"
    (config / "docs").mkdir(parents=True)
    work = tmp_path / "work" / "here"
    work.mkdir(parents=True)
    protected = protected_folders(config, config / "releases", config / ".build")
    with pytest.raises(SiteDirRefused, match="holds the working folder"):
        check_site_dir(tmp_path / "work", config, protected, cwd=work)
    with pytest.raises(SiteDirRefused, match="is inside the project's docs/ folder"):
        check_site_dir(config / "docs" / "new" / "site", config, protected, cwd=work)
    link = tmp_path / "link"
    link.symlink_to(config)
    with pytest.raises(SiteDirRefused, match="is a symbolic link"):  # never followed
        check_site_dir(link, config, protected, cwd=work)
    with pytest.raises(SiteDirRefused, match="is the project's docs/ folder"):  # a link above it is resolved
        check_site_dir(link / "docs", config, protected, cwd=work)
    for allowed in (tmp_path / "absent" / "site", tmp_path / "empty"):
        if allowed.name == "empty":
            allowed.mkdir()
        check_site_dir(allowed, config, protected, cwd=work)
    marked = tmp_path / "marked"
    marked.mkdir()
    (marked / "index.html").write_text("old", encoding="utf-8")
    with pytest.raises(SiteDirRefused, match="no build made"):
        check_site_dir(marked, config, protected, cwd=work)
    mark_site(marked)
    check_site_dir(marked, config, protected, cwd=work)


def test_stale_work_folders_of_dead_builds_are_removed_and_live_ones_kept(tmp_path):
    site = tmp_path / "site"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        made = {}
        for name in (f".site.tmp-{dead.pid}", f".site.old-{dead.pid}", f".site.tmp-{os.getpid()}",
                     f".site.tmp-{live.pid}", ".site.tmp-abc", f".other.tmp-{dead.pid}"):
            (tmp_path / name).mkdir()
            (tmp_path / name / "page.html").write_text("x", encoding="utf-8")
            made[name] = tmp_path / name
        outside = tmp_path / "outside"
        outside.mkdir()
        (outside / "keep.txt").write_text("keep", encoding="utf-8")
        (tmp_path / f".site.old-{dead.pid + 1000000}").symlink_to(outside)
        removed = remove_stale_work_folders(site)
        assert sorted(p.name for p in removed) == sorted([f".site.tmp-{dead.pid}", f".site.old-{dead.pid}", f".site.tmp-{os.getpid()}"])
        assert sorted(os.listdir(tmp_path)) == sorted([f".site.tmp-{live.pid}", ".site.tmp-abc", f".other.tmp-{dead.pid}",
                                                      "outside", f".site.old-{dead.pid + 1000000}"])
        assert (outside / "keep.txt").read_text(encoding="utf-8") == "keep"
    finally:
        live.kill()
        live.wait()


# --------------------------------------------------------------------------
# real builds in a copy of the checkout's configuration (its own .build/)
# --------------------------------------------------------------------------


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A folder with the site configuration (mkdocs.yml, docs/, theme): builds run there use its .build/."""
    return copy_site_config(tmp_path / "checkout")


def _start(checkout: Path, site_dir: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "lingjun.generator.cli", "build", "--releases", str(FIXTURE_KB),
                             "--site-dir", str(site_dir)], cwd=checkout, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={k: v for k, v in os.environ.items() if k != "LINGJUN_KB_SITE_URL"})


def _wait_for_work_folder(proc: subprocess.Popen, site_dir: Path, seconds: float = 120) -> Path:
    """Wait until ``proc`` builds into its ``.<site>.tmp-<pid>-<random>`` folder (MkDocs is running)."""
    deadline = time.monotonic() + seconds
    while True:
        found = list(site_dir.parent.glob(f".{site_dir.name}.tmp-{proc.pid}-*"))
        if found:
            return found[0]
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the build never reached MkDocs"
        time.sleep(0.02)


def test_ctrl_c_during_a_build_is_one_line_exit_130_and_keeps_the_site(checkout, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("previous site", encoding="utf-8")
    mark_site(site)
    proc = _start(checkout, site)
    rendered = checkout / ".build" / "en"  # made inside build_site: the interrupt lands in the build
    deadline = time.monotonic() + 120
    while not rendered.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err == f"lingjun-kb build: interrupted; {site} was left as it was\n"
    assert (site / "index.html").read_text(encoding="utf-8") == "previous site"
    assert sorted(os.listdir(tmp_path)) == ["checkout", "site"]


def test_a_killed_builds_work_folder_is_removed_and_three_builds_at_once_all_succeed(checkout, tmp_path):
    """kill -9 mid-build leaves ``.site.tmp-PID``; three builds started together in the same checkout
    (one ``.build/``, one site) then all succeed, and the dead build's folder is gone."""
    site = tmp_path / "site"
    killed = _start(checkout, site)
    work = _wait_for_work_folder(killed, site)
    killed.kill()
    killed.communicate(timeout=60)
    assert work.is_dir() and not site.exists()
    procs = [_start(checkout, site) for _ in range(3)]
    outputs = [p.communicate(timeout=600) for p in procs]
    for proc, (out, err) in zip(procs, outputs):
        assert proc.returncode == 0, err
        assert out.startswith(f"built {site} (58 pages rendered; ")
    assert not work.exists()
    assert (site / MARKER).is_file()
    assert (site / "releases" / "training-nv-pytorch" / "25.07" / "index.html").is_file()
    assert (site / "zh" / "releases" / "training-nv-pytorch" / "25.07" / "index.html").is_file()
    assert sorted(os.listdir(tmp_path)) == ["checkout", "site"]
    assert sorted(os.listdir(checkout / ".build")) == ["en", "jieba-user-dict.txt", "zh"]


def test_a_full_destination_is_named_not_the_file_being_copied(tmp_path, in_site_config, capsys):
    """A site folder on a 64 KiB tmpfs: MkDocs's copy of .build/ fails with ENOSPC naming the source file; the
    line names the full file system of --site-dir instead (root only, as CI runs the tests)."""
    full = tmp_path / "full"
    full.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(full)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {made.stderr.strip()}")
    try:
        code = main(["build", "--releases", str(FIXTURE_KB), "--site-dir", str(full / "site")])
        leftovers = os.listdir(full)
    finally:
        subprocess.run(["umount", str(full)], check=False)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == (f"lingjun-kb build: No space left on device: the file system of {full} (--site-dir) is full; free "
                   f"space there or build elsewhere; {full / 'site'} was left as it was\n")
    assert ".build" not in err and leftovers == []


def test_the_fullest_destination_is_the_one_with_least_room(tmp_path):
    from lingjun.checks.core.no_space import fullest, is_no_space
    import errno

    shown, free = fullest([tmp_path / "missing" / "deeper"])  # measured at the folder that exists
    assert shown == str(tmp_path / "missing" / "deeper") and 0 < free <= os.statvfs(tmp_path).f_blocks * os.statvfs(tmp_path).f_frsize
    assert fullest([]) is None
    assert is_no_space(OSError(errno.ENOSPC, "No space left on device")) and not is_no_space(OSError(errno.EACCES, "x"))


def test_a_marked_folder_holding_files_no_build_wrote_is_refused(tmp_path, in_site_config):
    """A site copied into a web root beside other content (`cp -a site/. /var/www/html/`), or a marker file planted
    in a folder of one's own: the build replaces only what its marker lists, so nothing else is ever deleted."""
    from lingjun.generator.site._site_dir import protected_folders

    config = in_site_config
    protected = protected_folders(config, config / "releases", config / ".build")
    web = tmp_path / "www"
    (web / "sub").mkdir(parents=True)
    (web / "index.html").write_text("built", encoding="utf-8")
    mark_site(web)
    assert check_site_dir(web, config, protected) == web  # only its own entries: replaceable
    (web / "sub" / "thesis.tex").write_text("mine", encoding="utf-8")
    with pytest.raises(SiteDirRefused, match=r"holds what no build wrote \(sub/thesis.tex\)"):
        check_site_dir(web, config, protected)
    own = tmp_path / "own"
    (own / "sub").mkdir(parents=True)
    (own / "sub" / "thesis.tex").write_text("mine", encoding="utf-8")
    (own / MARKER).write_text("", encoding="utf-8")  # a marker without the build's list
    with pytest.raises(SiteDirRefused, match="without the list of the files its build wrote"):
        check_site_dir(own, config, protected)
    assert (own / "sub" / "thesis.tex").read_text(encoding="utf-8") == "mine"
