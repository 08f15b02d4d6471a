"""``lingjun-kb serve``: a busy port is one line and status 2; unknown paths get the site's 404 page."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from lingjun.generator.site import cli_serve
from lingjun.generator.site.serve import ServeError, error_page, open_server

from conftest import FIXTURE_KB, REPO


@pytest.fixture()
def busy_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield sock.getsockname()[1]


def test_busy_port_is_one_line_and_status_2_before_building(busy_port, tmp_path, capsys):
    site = tmp_path / "site"
    args = SimpleNamespace(releases=str(FIXTURE_KB), site_dir=str(site), host="127.0.0.1", port=busy_port)
    assert cli_serve(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"lingjun-kb serve: port {busy_port} on 127.0.0.1 is in use; choose another with --port\n"
    assert not site.exists()


def test_busy_port_from_the_command_line_has_no_traceback(busy_port, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "lingjun.generator.cli", "serve", "--releases", str(FIXTURE_KB),
         "--site-dir", str(tmp_path / "site"), "--port", str(busy_port)],
        capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"lingjun-kb serve: port {busy_port} on 127.0.0.1 is in use; choose another with --port"]


@pytest.mark.parametrize("port,expected", [
    (70000, "port 70000 is out of range; choose one from 1 to 65535 with --port"),
])
def test_other_listen_errors_are_one_line(port, expected):
    with pytest.raises(ServeError) as info:
        open_server(Path("site"), "127.0.0.1", port, rebuild=lambda: 0)
    assert str(info.value) == expected


def test_error_page_follows_the_language_of_the_path(tmp_path):
    (tmp_path / "zh").mkdir()
    (tmp_path / "404.html").write_text("en", encoding="utf-8")
    assert error_page(tmp_path, "/releases/nope/") == tmp_path / "404.html"
    assert error_page(tmp_path, "/zh/releases/nope/") == tmp_path / "404.html"  # no zh page: English
    (tmp_path / "zh" / "404.html").write_text("zh", encoding="utf-8")
    assert error_page(tmp_path, "/zh/releases/nope/") == tmp_path / "zh" / "404.html"
    assert error_page(tmp_path, "/zh") == tmp_path / "zh" / "404.html"
    assert error_page(tmp_path, "/zhx/") == tmp_path / "404.html"
    assert error_page(tmp_path, "/x/", code=500) is None


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def test_unknown_paths_get_the_site_404_page_in_their_language(built_site):
    site, _ = built_site
    server = open_server(site, "127.0.0.1", 0, rebuild=lambda: 0)
    server.serve_thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        status, body = _get(base + "releases/training-nv-pytorch/99.99/")
        assert status == 404
        assert '<html lang="en"' in body and "Page not found" in body and "md-header" in body
        status, body = _get(base + "zh/releases/training-nv-pytorch/99.99/")
        assert status == 404
        assert '<html lang="zh"' in body and "页面不存在" in body and "md-header" in body
        status, body = _get(base + "releases/training-nv-pytorch/25.07/")
        assert status == 200 and "training-nv-pytorch 25.07" in body
    finally:
        server.shutdown()
        server.serve_thread.join(timeout=10)
