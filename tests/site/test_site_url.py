"""Where the site URL comes from: --site-url, LINGJUN_KB_SITE_URL, mkdocs.yml (``site_url_from_config``)."""

from __future__ import annotations

import re

import pytest

from lingjun.generator.site import site_url_from_config
from lingjun.generator.site.site_url import ENV_VAR, language_site_url, normalize_site_url

from site_kit import REPO


@pytest.fixture()
def no_env(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.delenv("LJ_TEST_URL", raising=False)
    return monkeypatch


def test_repository_config_sets_no_site_url(no_env):
    assert site_url_from_config(REPO) is None


def test_environment_wins_over_mkdocs_yml(no_env, tmp_path):
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nsite_url: https://docs.example.org/kb/\n", encoding="utf-8")
    assert site_url_from_config(tmp_path) == "https://docs.example.org/kb/"
    no_env.setenv(ENV_VAR, "http://127.0.0.1:9000/lj")
    assert site_url_from_config(tmp_path) == "http://127.0.0.1:9000/lj/"


def test_mkdocs_yml_with_theme_tags_and_env_tag(no_env, tmp_path):
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\nsite_url: !ENV [LJ_TEST_URL, 'https://fallback.example/']\n"
        "markdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
        encoding="utf-8")
    assert site_url_from_config(tmp_path) == "https://fallback.example/"
    no_env.setenv("LJ_TEST_URL", "https://from-env.example/a")
    assert site_url_from_config(tmp_path) == "https://from-env.example/a/"


def test_missing_or_empty_config_has_no_site_url(no_env, tmp_path):
    assert site_url_from_config(tmp_path) is None
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nsite_url: ''\n", encoding="utf-8")
    assert site_url_from_config(tmp_path) is None


def test_bad_values_name_their_source(no_env, tmp_path):
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nsite_url: docs.example.org\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"mkdocs\.yml: site_url: 'docs\.example\.org' is not an absolute"):
        site_url_from_config(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("site_name: [x\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"mkdocs\.yml:2: not valid YAML"):
        site_url_from_config(tmp_path)
    no_env.setenv(ENV_VAR, "ftp://example.org/")
    with pytest.raises(ValueError, match=f"^{ENV_VAR}: 'ftp://example.org/' is not an absolute"):
        site_url_from_config(tmp_path)


@pytest.mark.parametrize("value,expected", [
    ("https://example.com", "https://example.com/"),
    (" https://example.com/kb/ ", "https://example.com/kb/"),
    ("http://[::1]:8000/x", "http://[::1]:8000/x/"),
    ("https://example.com.:1/kb", "https://example.com.:1/kb/"),  # a fully qualified name, the lowest port
    ("https://a.b.example:65535/", "https://a.b.example:65535/"),
    ("https://example.com/%7Ekb/", "https://example.com/%7Ekb/"),  # escapes in the path stay allowed
])
def test_normalize(value, expected):
    assert normalize_site_url(value, "--site-url") == expected


@pytest.mark.parametrize("value", ["/kb/", "example.com", "https://example.com/?a=1", "https://example.com/#top",
                                   "javascript:alert(1)"])
def test_normalize_rejects(value):
    with pytest.raises(ValueError, match="^--site-url: "):
        normalize_site_url(value, "--site-url")


@pytest.mark.parametrize("value,words", [
    ("https://example.com:0/", "has an invalid port"),
    ("http://127.0.0.1:00/", "has an invalid port"),
    ("https://example.com:/", "has an invalid port"),
    ("https://example.com:65536/", "is not a URL"),
    ("https://x..example/", "has an empty label in its host name"),
    ("https://.example/", "has an empty label in its host name"),
    ("https://example..:8000/", "has an empty label in its host name"),
    ("https://%78.example/", "has a percent-escape in its host name"),
    ("https://ex%2Eample.com/", "has a percent-escape in its host name"),
])
def test_bad_hosts_and_ports_are_refused(value, words):
    with pytest.raises(ValueError, match=f"^--site-url: {re.escape(repr(value))} {words}"):
        normalize_site_url(value, "--site-url")


def test_language_roots():
    assert language_site_url("https://e.org/kb/", "en") == "https://e.org/kb/"
    assert language_site_url("https://e.org/kb/", "zh") == "https://e.org/kb/zh/"
    assert language_site_url(None, "zh") is None


#: (site URL, accepted): the host rules both checks apply
_HOSTS = [
    ("https://example.com/", True),
    ("https://docs.example.com/lingjun/", True),
    ("http://127.0.0.1:8000/", True),  # given explicitly: a local address is the user's choice
    ("https://xn--bcher-kva.example/", True),  # punycode (bücher)
    ("https://[::1]:8000/", True),
    ("https://-ex.com/", False),
    ("https://ex-.com/", False),
    ("https://" + "a" * 64 + ".com/", False),
    ("https://" + "a" * 63 + ".com/", True),
    ("https://\uff45\uff58.com/", False),  # full-width ｅｘ
    ("https://ex\u0430mple.com/", False),  # Cyrillic а
    ("https://ex_ample.com/", False),
    ("https://x..example/", False),
    ("https://example.com:0/", False),
    ("https://xn--zz.example/", False),  # punycode that does not decode
    ("https://" + ".".join(["a" * 60] * 5) + "/", False),  # over 253 characters
]


@pytest.mark.parametrize("url,accepted", _HOSTS)
def test_site_url_host_rules_agree_between_build_and_checker(url, accepted):
    from lingjun.checks.core.site_url import site_url_problem

    try:
        normalize_site_url(url, "--site-url")
        built = True
    except ValueError as exc:
        built = False
        assert str(exc).startswith("--site-url: ") and "\n" not in str(exc)
    assert built == accepted, url
    assert (site_url_problem(url) is None) == accepted, (url, site_url_problem(url))
