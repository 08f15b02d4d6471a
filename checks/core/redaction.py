"""Masking secrets and identifiers inside text values before they are recorded (``lingjun-check --collect``).

Two kinds, two functions:

* :func:`mask_secrets` (always applied; ``--include-ids`` does not keep them):
  credentials in a URL's user part (``https://user:pw@host``), the same
  without a scheme (``user:pw@host:3128``), and the values of query or
  fragment parameters whose name says secret (``?access_token=``,
  ``&X-Amz-Signature=``, ``sig=``, ``api_key=``, ``password=``).
* :func:`mask_identifiers` (applied unless ``--include-ids``): IP addresses
  where a value names a peer (an IPv4 address followed by ``:port`` or
  ``/prefix``, in a URL's host, or an IPv6 address in brackets) and the user
  name of a home directory (``/home/alice/...`` -> ``/home/***/...``, also
  ``/Users/``).  Bare dotted numbers are left alone: ``9.1.0.70`` is a cuDNN
  version as often as an address.  Host names are not recognised in free text;
  variables named for a peer (``MASTER_ADDR``, ``NCCL_COMM_ID``) are dropped by
  name instead (:mod:`lingjun.checks.probes.env_vars`).

What is masked becomes ``***``; the rest of the value is kept, so a reader
still sees that a proxy or a home-directory path was set.
:func:`mask_strings` applies a function to every string inside dataclasses,
lists and dicts (in place).

Examples:
    >>> mask_secrets("https://u:p@h/x?access_token=abc&x=1")
    'https://***@h/x?access_token=***&x=1'
    >>> mask_secrets("alice:s3cret@proxy.internal:3128")
    '***@proxy.internal:3128'
    >>> mask_identifiers("198.51.100.7:5000,/home/alice/venv/lib")
    '***:5000,/home/***/venv/lib'
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable

__all__ = ["MASK", "SECRET_PARAMETER_WORDS", "mask_secrets", "mask_identifiers", "mask_strings"]

#: what a masked part becomes
MASK = "***"
#: a query/fragment parameter whose name contains one of these (case-insensitive) carries a secret
SECRET_PARAMETER_WORDS = ("token", "key", "secret", "pass", "pwd", "sig", "auth", "credential", "session", "cookie", "private")

_URL_USERINFO = re.compile(r"(?<=://)[^/?#@\s]+@")
# user:password@host at the start of a value or after a separator, no scheme (a proxy setting)
_BARE_USERINFO = re.compile(r"(?:(?<=^)|(?<=[\s,;=(\"']))[^\s/?#@:,;=\"'()]+:[^\s/?#@,;\"'()]*@(?=[\w\[])")
_SECRET_PARAMETER = re.compile(
    r"(?<=[?&#;])([^=&#;\s]*(?:" + "|".join(SECRET_PARAMETER_WORDS) + r")[^=&#;\s]*=)[^&#;\s]*", re.IGNORECASE
)
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_IPV4 = rf"{_OCTET}(?:\.{_OCTET}){{3}}"
# an IPv4 address naming a peer: followed by :port or /prefix, or the host of a URL
_PEER_IPV4 = re.compile(rf"(?<![\w.]){_IPV4}(?=:[0-9]|/[0-9]{{1,2}}(?![\w.]))|(?<=://){_IPV4}(?![\w.])|(?<=@){_IPV4}(?![\w.])")
_BRACKETED_IPV6 = re.compile(r"\[[0-9A-Fa-f:.]*:[0-9A-Fa-f:.%\w]*\]")
_HOME_USER = re.compile(r"(?<![\w.])(/home/|/Users/)(?!\*\*\*(?:/|$))[^/\s:;,\"']+")


def mask_secrets(text: str) -> str:
    """``text`` with credentials in URLs, ``user:password@`` prefixes and secret query parameters replaced by ``***``."""
    if "@" in text:
        text = _URL_USERINFO.sub(MASK + "@", text)
        text = _BARE_USERINFO.sub(MASK + "@", text)
    if "=" in text:
        text = _SECRET_PARAMETER.sub(lambda m: m.group(1) + MASK, text)
    return text


def mask_identifiers(text: str) -> str:
    """``text`` with peer IP addresses and the user names of home directories replaced by ``***``."""
    text = _PEER_IPV4.sub(MASK, text)
    if "[" in text:
        text = _BRACKETED_IPV6.sub(f"[{MASK}]", text)
    if "/home/" in text or "/Users/" in text:
        text = _HOME_USER.sub(lambda m: m.group(1) + MASK, text)
    return text


def mask_strings(value: Any, mask: Callable[[str], str]) -> Any:
    """``value`` with ``mask`` applied to every string inside it: dataclass fields are replaced in place,
    lists and dicts (their values) are rebuilt.  Returns the (same) dataclass, or the new container or string."""
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, list):
        return [mask_strings(v, mask) for v in value]
    if isinstance(value, dict):
        return {k: mask_strings(v, mask) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            setattr(value, field.name, mask_strings(getattr(value, field.name), mask))
    return value
