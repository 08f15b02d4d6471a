"""Is a text a documentation site's root address (a plain absolute http or https URL)?

The checker prints links under the release data's ``site_url`` into every report, so the URL of a
``--data`` bundle is held to the rules ``lingjun-kb build --site-url`` applies
(``lingjun.generator.site.site_url.normalize_site_url``): a scheme of http or https, a host, an
optional port in 1-65535, an optional path (the host checked by :func:`host_problem`: ASCII or punycode,
valid DNS labels); no user name or password, no query or fragment, and none
of the characters that end an HTML attribute or hide text (blanks, C0/C1 controls, DEL, zero-width and
bidirectional controls, quotes, ``<>``, backslash, backtick, ``{}|^``).  Standard library only, so the
generator could share this check (generator -> checks/core is the allowed direction).
"""

from __future__ import annotations

import re
from typing import Optional
from urllib.parse import urlsplit

__all__ = ["site_url_problem", "host_problem"]

#: a DNS label as a host name may hold it (RFC 1123): letters, digits and '-', not first or last, 1-63 characters
_LABEL = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$", re.ASCII)


def host_problem(netloc: str, hostname: str, port: Optional[int]) -> Optional[str]:
    """Why the host part of a site URL is refused (a phrase to follow the URL: ``"has an invalid port ..."``), or None.

    Refused: port 0 or an empty port, a percent-escape in the host, a host name with a character outside ASCII (a
    full-width or look-alike letter: an internationalised name must be written in punycode, ``xn--...``), a label
    that is empty, longer than 63 characters, starts or ends with ``-`` or holds anything but letters, digits and
    ``-``, a punycode label that does not decode, and a name longer than 253 characters.  An IPv6 address in
    brackets is left to ``urlsplit``.  ``lingjun-kb build --site-url`` (:mod:`lingjun.generator.site.site_url`) and
    the checker's bundle check share this function.
    """
    if port == 0 or netloc.endswith(":"):
        return "has an invalid port (give a number from 1 to 65535, or none)"
    if "%" in netloc:
        return "has a percent-escape in its host name; write the host name plainly"
    if netloc.startswith("["):  # an IPv6 address: urlsplit has checked the brackets
        return None
    if not hostname.isascii():
        return "has a host name with characters outside ASCII; write an internationalised name in punycode (xn--...)"
    name = hostname[:-1] if hostname.endswith(".") else hostname
    labels = name.split(".")
    if any(not label for label in labels):
        return "has an empty label in its host name ('..', or a leading dot)"
    if len(name) > 253:
        return "has a host name longer than 253 characters"
    for label in labels:
        if len(label) > 63:
            return f"has a host name label longer than 63 characters ({len(label)})"
        if not _LABEL.match(label):
            return f"has an invalid host name label {label[:63]!r} (letters, digits and '-', not first or last)"
        if label.startswith("xn--"):
            try:
                label.encode("ascii").decode("idna")
            except UnicodeError:
                return f"has a punycode label that does not decode ({label!r})"
    return None

_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\"'<>\\`{}|^]")


def site_url_problem(value: object) -> Optional[str]:
    """Why ``value`` is not a site root URL (a short phrase), or None when it is one.

    ``value`` may be anything (it comes from a JSON file); only a str can be a URL.  Leading and
    trailing blanks are not tolerated here: the bundle writer stores the normalised URL.
    """
    if not isinstance(value, str):
        return f"expected a string, got {type(value).__name__}"
    bad = _UNSAFE.search(value)
    if bad:
        return f"it holds U+{ord(bad.group()):04X}"
    try:
        parts = urlsplit(value)
        port = parts.port  # noqa: F841 - raises ValueError for a port that is not a number in 0-65535
    except ValueError as exc:
        return f"not a URL ({exc})"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "not an absolute http:// or https:// URL"
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return "it holds a user name or password"
    if parts.query or parts.fragment or "?" in value or "#" in value:
        return "it has a query or fragment"
    problem = host_problem(parts.netloc, parts.hostname, parts.port)
    return f"it {problem}" if problem else None
