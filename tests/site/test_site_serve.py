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

from site_kit import FIXTURE_KB, REPO


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


# --------------------------------------------------------------------------
# option values: one line, exit 2, before anything is bound or built
# --------------------------------------------------------------------------


@pytest.mark.parametrize("value,words", [
    ("", "is empty"),
    (" ", "is empty"),
    ("\u202e", "is neither an IP address nor a host name"),
    ("127.0.0.1\x1b[2J", "is neither an IP address nor a host name"),
    ("*", "is neither an IP address nor a host name"),
    ("my host", "is neither an IP address nor a host name"),
    ("x..example", "is neither an IP address nor a host name"),
    ("bücher.example", "is neither an IP address nor a host name"),
    ("a" * 5000, "is neither an IP address nor a host name"),
])
def test_serve_host_is_checked_like_every_option(value, words, tmp_path, capsys):
    from lingjun.generator.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["serve", "--releases", str(FIXTURE_KB), "--site-dir", str(tmp_path / "site"), "--host", value])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    last = err.splitlines()[-1]
    assert last.startswith(f"lingjun-kb serve: error: argument --host: {words}") and len(last) < 300
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("value", ["127.0.0.1", "::1", "0.0.0.0", "::", "localhost", "my-box.lan"])
def test_serve_host_accepts_addresses_names_and_typed_out_wildcards(value):
    from lingjun.generator.site.serve import check_host

    assert check_host(value) == value


@pytest.mark.parametrize("value", ["-1", "65536", "x", "", "9" * 40, "1.5"])
def test_serve_port_is_checked_like_every_option(value, capsys):
    from lingjun.generator.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["serve", "--port", value])
    assert exc.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "lingjun-kb serve: error: argument --port: must be a whole number from 0 to 65535 (0: a free port)")


# --------------------------------------------------------------------------
# requests: every path answered, nothing raw on the terminal
# --------------------------------------------------------------------------


@pytest.fixture()
def small_site_server(tmp_path):
    """A server over a two-page site (index and 404) on a free port of 127.0.0.1, serving in its thread."""
    (tmp_path / "index.html").write_text("<html><body>home</body></html>", encoding="utf-8")
    (tmp_path / "404.html").write_text("<html><body>Page not found</body></html>", encoding="utf-8")
    server = open_server(tmp_path, "127.0.0.1", 0, rebuild=lambda: 0)
    server.serve_thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.serve_thread.join(timeout=10)


def _raw_request(port: int, line: bytes) -> bytes:
    """Send one HTTP/1.0 request line and read the answer to the end: the server has logged it by then
    (the connection is closed after the request's log line is written)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(line + b"\r\nHost: x\r\n\r\n")
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


@pytest.mark.parametrize("target,status", [
    (b"/%00", 400),
    (b"/index.html%00.txt", 400),
    (b"/%1b[2J%1b]0;owned%07", 400),
    (b"/%ff%fe", 400),
    (b"/%E2%80%AEevil", 400),
    (b"/%E2%80%8Bzero-width", 400),
    (b"/%C2%9B2J", 400),
    (b"/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd", 400),
    (b"/../../../../etc/passwd", 404),
    (b"/%2e%2e/%2e%2e/etc/passwd", 404),
    (b"/" + b"a" * 5000, 404),
    (b"/" + b"a/" * 3000, 404),
    (b"*", 404),
    (b"http://other.example/x", 404),
    (b"/%zz", 404),
    (b"/", 200),
])
def test_every_request_path_is_answered_without_a_traceback(small_site_server, target, status, capsys):
    answer = _raw_request(small_site_server, b"GET " + target + b" HTTP/1.0")
    assert answer.split(b"\r\n", 1)[0] == b"HTTP/1.0 " + str(status).encode() + b" " + {
        200: b"OK", 400: b"Bad Request", 404: b"Not Found"}[status]
    err = capsys.readouterr().err
    assert "Traceback" not in err and "\x1b" not in err and "\x00" not in err


def test_a_request_line_with_terminal_escapes_is_logged_inert(small_site_server, capsys):
    answer = _raw_request(small_site_server, b"GET /nope\x1b[31mERROR\x1b[0m\x9b2J HTTP/1.0")
    assert answer.startswith(b"HTTP/1.0 400 ")  # a control character in the path
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x9b" not in err
    assert err.count("\n") == 1 and err.rstrip("\n").endswith('"GET /nope\\x1b[31mERROR\\x1b[0m\\x9b2J HTTP/1.0" code 400')


def test_a_malformed_request_line_is_answered_400_and_logged_inert(small_site_server, capsys):
    answer = _raw_request(small_site_server, b"\x1b[2J GARBAGE\x00")
    assert b"Error code: 400" in answer  # http.server answers a line it cannot parse without a status line
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x00" not in err and "Traceback" not in err
    assert err.rstrip("\n").endswith('"\\x1b[2J GARBAGE\\x00" code 400')


def test_a_failure_inside_the_server_is_one_line_and_500(small_site_server, capsys, monkeypatch):
    from mkdocs.livereload import LiveReloadServer

    def broken(self, environ, start_response):
        raise RuntimeError("disk gone \x1b[2J")

    monkeypatch.setattr(LiveReloadServer, "_serve_request", broken)
    answer = _raw_request(small_site_server, b"GET /x HTTP/1.0")
    assert answer.startswith(b"HTTP/1.0 500 ")
    lines = capsys.readouterr().err.splitlines()
    assert "lingjun-kb serve: error answering /x: RuntimeError: disk gone \\x1b[2J" in lines
    assert not any("Traceback" in line or "\x1b" in line for line in lines)
