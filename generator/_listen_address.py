"""The address ``lingjun-kb serve --host`` listens on, checked before anything is bound or built.

Kept out of :mod:`lingjun.generator.site` so that the command line checks the option even where the site
implementation is not installed (the sub-command then says so itself).
"""

from __future__ import annotations

import ipaddress
import re

__all__ = ["check_host"]

#: a host name: dot-separated labels of ASCII letters, digits and '-' (RFC 1123), at most 253 characters
_HOST_NAME = re.compile(r"(?=.{1,253}\Z)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*"
                        r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?\Z")


def check_host(value: str) -> str:
    """The ``--host`` value, checked: an IPv4 or IPv6 address, or a host name (``localhost``, ``my-box.lan``).

    The wildcard addresses ``0.0.0.0`` and ``::`` (listen on every interface) are accepted as typed: they are an
    explicit request.  An empty value is refused (the socket layer would take it for every interface), as are
    blanks, control, bidirectional and other non-ASCII characters, and anything else that is neither an address
    nor a host name.

    Raises:
        ValueError: why the value is refused, in words (the value itself is not repeated).
    """
    if value == "" or not value.strip():
        raise ValueError("is empty; give the address to listen on: 127.0.0.1 (this machine only, the default) "
                         "or 0.0.0.0 (every interface, typed out)")
    try:
        ipaddress.ip_address(value)
        return value
    except ValueError:
        pass
    if not value.isascii() or not value.isprintable() or _HOST_NAME.match(value) is None:
        raise ValueError("is neither an IP address nor a host name (letters, digits, '-' and '.'); "
                         "give 127.0.0.1, ::1, 0.0.0.0 or a host name of this machine")
    return value
