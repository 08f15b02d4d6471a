"""The public address of the site (MkDocs ``site_url``), per language.

Where it comes from, first found wins: ``lingjun-kb build/serve --site-url
URL``, the environment variable ``LINGJUN_KB_SITE_URL``, ``site_url`` in
``mkdocs.yml``.  The English site is at the URL, the Chinese one at
``URL + "zh/"``.  With it, MkDocs writes absolute canonical links and a
sitemap listing every page with its other-language page (hreflang), and the
Atom feeds link absolutely.  Without it (local builds) the sitemaps are empty
and links stay relative.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

import yaml

from lingjun.checks.core.site_url import host_problem

__all__ = ["ENV_VAR", "normalize_site_url", "site_url_from_config", "resolve_site_url", "language_site_url"]

#: environment variable giving the site URL when ``--site-url`` is not given
ENV_VAR = "LINGJUN_KB_SITE_URL"


#: characters a site URL may not hold: blanks, controls (C0, DEL, C1), bidirectional and
#: zero-width controls, quotes, angle brackets, backslash, backtick, braces, pipe, caret
_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\"'<>\\`{}|^]")


def normalize_site_url(value: str, source: str) -> str:
    """``value`` as a site root URL: ``http(s)://host[:port]/path/``, always ending in ``/``.

    The URL is printed into every page (canonical links, sitemaps, feeds), so
    only a plain absolute http(s) URL is accepted: a host (ASCII or punycode,
    valid DNS labels: none empty as in ``x..example``, none over 63 characters or
    starting or ending with ``-``; no percent-escape), an optional port from 1 to
    65535 and a path, no user name or password, no query or fragment, and none
    of the characters that could end an HTML attribute or hide text (blanks,
    control and bidirectional characters, quotes, ``<>``, backslash, backtick,
    ``{}|^``; percent-encode them).  ASCII blanks and line ends around the
    value are dropped.

    Args:
        value: what the user gave.
        source: where it came from, for the message (``--site-url``, a file name, ``LINGJUN_KB_SITE_URL``).

    Raises:
        ValueError: any of the above; the one-line message names ``source`` and shows the
            value with ``repr`` (controls escaped), cut to 200 characters.
    """
    text = value.strip(" \t\r\n")
    shown = _shown(text)
    bad = _UNSAFE.search(text)
    if bad:
        raise ValueError(f"{source}: {shown} is not a site URL: it holds {_char_name(bad.group())} "
                         "(percent-encode it, e.g. %20 for a blank)")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in 0-65535
    except ValueError as exc:
        raise ValueError(f"{source}: {shown} is not a URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{source}: {shown} is not an absolute http:// or https:// URL "
                         "(for example https://example.com/lingjun/)")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise ValueError(f"{source}: {shown} holds a user name or password; give the public address only")
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise ValueError(f"{source}: {shown} has a query or fragment; give the site root only")
    _check_host_and_port(parts.netloc, parts.hostname, parts.port, source, shown)
    return text if text.endswith("/") else text + "/"


def _check_host_and_port(netloc: str, hostname: str, port: Optional[int], source: str, shown: str) -> None:
    """Refuse what :func:`lingjun.checks.core.site_url.host_problem` refuses (the checker's bundle check shares it)."""
    problem = host_problem(netloc, hostname, port)
    if problem:
        raise ValueError(f"{source}: {shown} {problem}")


def _shown(text: str, limit: int = 200) -> str:
    """``repr(text)`` (controls and quotes escaped), cut after ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f" … ({len(text) - limit} more characters)"


def _char_name(char: str) -> str:
    """``a blank``, ``'<' (U+003C)``: a character for a message, controls as code points only."""
    if char == " ":
        return "a blank"
    code = f"U+{ord(char):04X}"
    return f"{char!r} ({code})" if char.isprintable() and not char.isspace() else code


class _ConfigLoader(yaml.SafeLoader):
    """Safe YAML loader that reads MkDocs' ``!ENV`` tag and leaves other tags' values as None."""


def _env_tag(loader: yaml.SafeLoader, node: yaml.Node) -> Optional[str]:
    # MkDocs (pyyaml_env_tag): `!ENV NAME` or `!ENV [NAME, OTHER, default]`
    if isinstance(node, yaml.ScalarNode):
        names, default = [loader.construct_scalar(node)], None
    else:
        items = loader.construct_sequence(node)
        names, default = (items[:-1], items[-1]) if len(items) > 1 else (items, None)
    for name in names:
        if isinstance(name, str) and os.environ.get(name):
            return os.environ[name]
    return default


_ConfigLoader.add_constructor("!ENV", _env_tag)
_ConfigLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def site_url_from_config(root: Path) -> Optional[str]:
    """The site URL of the checkout at ``root``: ``$LINGJUN_KB_SITE_URL``, else ``root/mkdocs.yml``'s ``site_url``.

    Returns:
        The URL ending in ``/``, or None when neither sets one (or ``mkdocs.yml`` is missing).

    Raises:
        ValueError: the value found is not an absolute http(s) URL (the message names where it came from),
            or ``mkdocs.yml`` is not valid YAML (the message names the file and line).
    """
    env = os.environ.get(ENV_VAR, "").strip(" \t\r\n")
    if env:
        return normalize_site_url(env, ENV_VAR)
    path = Path(root) / "mkdocs.yml"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = yaml.load(text, Loader=_ConfigLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        raise ValueError(f"{where}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    value = data.get("site_url") if isinstance(data, dict) else None
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise ValueError(f"{path}: site_url: expected a URL string, got {type(value).__name__}")
    return normalize_site_url(value, f"{path}: site_url")


def resolve_site_url(repo: Optional[Path], explicit: Optional[str] = None, default: Optional[str] = None) -> Optional[str]:
    """Base URL of the documentation site, ending in ``/``, or ``default`` (None) when none is configured.

    ``explicit`` (``--site-url``) wins; else :func:`site_url_from_config`
    (``$LINGJUN_KB_SITE_URL``, then ``repo/mkdocs.yml``'s ``site_url``; ``repo``
    is read only when ``explicit`` is empty); else ``default``.  There is no
    built-in address: a local ``lingjun-kb serve`` URL means nothing inside a
    container or in a ticket, so a checker bundle built without a site URL
    links to the official release pages and upstream documents instead.

    Raises:
        ValueError: a configured value is not an absolute http(s) URL (the message names its source).
    """
    if explicit:
        return normalize_site_url(explicit, "--site-url")
    return site_url_from_config(repo) or default


def language_site_url(site_url: Optional[str], lang: str) -> Optional[str]:
    """The root URL of ``lang``'s site: ``site_url`` for English, ``site_url + "zh/"`` for Chinese."""
    if site_url is None:
        return None
    return site_url if lang == "en" else f"{site_url}{lang}/"
