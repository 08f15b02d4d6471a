"""Is a text a documentation site's root address (a plain absolute http or https URL)?

The checker prints links under the release data's ``site_url`` into every report, so the URL of a
``--data`` bundle is held to the rules ``lingjun-kb build --site-url`` applies
(``lingjun.generator.site.site_url.normalize_site_url``): a scheme of http or https, a host, an
optional port in 0-65535, an optional path; no user name or password, no query or fragment, and none
of the characters that end an HTML attribute or hide text (blanks, C0/C1 controls, DEL, zero-width and
bidirectional controls, quotes, ``<>``, backslash, backtick, ``{}|^``).  Standard library only, so the
generator could share this check (generator -> checks/core is the allowed direction).
"""

from __future__ import annotations

import re
from typing import Optional
from urllib.parse import urlsplit

__all__ = ["site_url_problem"]

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
    return None
