"""Constrained scalar types shared by the data models.

Every version in the knowledge base is a string.  These annotated types
validate the string's shape and, where a comparison is needed, parse it with
:mod:`packaging` or the driver/CUDA types in :mod:`lingjun.checks.core.versions`;
nothing is ever read as a float.
"""

from __future__ import annotations

import re
from typing import Annotated
from urllib.parse import urlsplit

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from pydantic import AfterValidator, Field, StringConstraints, WithJsonSchema

from lingjun.checks.core.release_order import IDENTIFIER, identifier_date, is_year_month
from lingjun.checks.core.versions import CudaVersion, DriverVersion, VersionFormatError

__all__ = [
    "Identifier",
    "FamilyId",
    "ReleaseVersion",
    "ReleaseRef",
    "VersionString",
    "DriverVersionString",
    "CudaVersionString",
    "SpecifierString",
    "Url",
    "ShortText",
    "YearMonth",
]

#: whitespace, controls and bidirectional controls: never part of a URL as written on a page
_URL_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _check_url(value: str) -> str:
    bad = _URL_UNSAFE.search(value)
    if bad:
        raise ValueError(f"not an http(s) URL: {value!r} (it holds U+{ord(bad.group()):04X}; "
                         "percent-encode spaces as %20)")
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number in 0-65535
    except ValueError as exc:
        raise ValueError(f"not an http(s) URL: {value!r} ({exc})") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {value!r}")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"URL {value!r} holds a user name or password; link the public page without them")
    return value


def _check_ascii_digits(value: str) -> str:
    """Refuse digits outside ASCII (``２５.07``): the patterns' ``\\d`` matches every Unicode digit."""
    if not value.isascii():
        raise ValueError(f"{value!r} holds characters outside ASCII; write the digits 0-9 (not full-width ones)")
    return value


#: blank characters ``str.strip`` keeps: zero-width spaces and joiners, word joiner,
#: soft hyphen, BOM, Hangul fillers, Mongolian vowel separator
_INVISIBLE = re.compile(r"[\s\u00ad\u034f\u115f\u1160\u180e\u200b-\u200f\u2060-\u2064\u3164\ufeff\uffa0]*")


def _check_visible(value: str) -> str:
    if _INVISIBLE.fullmatch(value):
        raise ValueError("the text is blank (only spaces or invisible characters such as U+200B); write the text")
    return value


#: lower-case id: ``torch``, ``flash-attn``, ``training-nv-pytorch``
Identifier = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z0-9][a-z0-9._-]{0,63}$"),
]

FamilyId = Identifier

def _check_release_id(value: str) -> str:
    """A release identifier: ``YY.MM``, ``YYYY-MM-DD`` or another lower-case name (see release_order)."""
    _check_ascii_digits(value)
    if not IDENTIFIER.match(value):
        raise ValueError(f"{value!r} is not a release identifier: write YY.MM (\"25.07\"), a date YYYY-MM-DD "
                         "(\"2026-10-20\") or the page's own name in lower-case letters, digits, '.', '_' and '-'")
    if re.fullmatch(r"[0-9.-]+", value) and not (is_year_month(value) or identifier_date(value)):
        # digits only: meant as a month or a day, so a typo ("25.13", "25.7", "2026-02-30") is an error
        raise ValueError(f"{value!r} is neither a month YY.MM (\"25.07\") nor a date YYYY-MM-DD (\"2026-10-20\")")
    return value


#: Release identifier: ``YY.MM`` (``25.07``), a date ``YYYY-MM-DD`` (``2026-10-20``) or the page's own
#: lower-case name (``sglang0.5.4.post3-250105``); always quoted in YAML.  Releases are ordered by date
#: (:func:`lingjun.checks.core.release_order.release_order_key`), never as text.
ReleaseVersion = Annotated[
    str,
    AfterValidator(_check_release_id),
    WithJsonSchema({"type": "string", "pattern": IDENTIFIER.pattern}),
]


def _check_release_ref(value: str) -> str:
    family, sep, version = value.partition(":")
    if not sep or not re.fullmatch(r"[a-z0-9][a-z0-9._-]{0,63}", family):
        raise ValueError(f"{value!r} is not a release reference: write family:release, e.g. \"training-nv-pytorch:25.07\"")
    _check_release_id(version)
    return value


#: ``<family>:<release>``, e.g. ``training-nv-pytorch:25.03`` or ``training-xpu-pytorch:2026-10-20``.
ReleaseRef = Annotated[
    str,
    AfterValidator(_check_release_ref),
    WithJsonSchema({"type": "string", "pattern": r"^[a-z0-9][a-z0-9._-]{0,63}:[a-z0-9][a-z0-9._-]{0,63}$"}),
]

#: A version exactly as published (``2.7.1.8+nv25.3``, ``0.8.2.dev0+g61c7a1b8.d20250325.cu128``).
VersionString = Annotated[
    str,
    StringConstraints(pattern=r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$"),
]

#: One line of free text that is not a translated sentence (a title, a value as published).
ShortText = Annotated[str, StringConstraints(min_length=1, max_length=300)]

#: ``YYYY-MM``: a month, used for driver end-of-life dates NVIDIA gives to the month.
YearMonth = Annotated[str, StringConstraints(pattern=r"^20\d{2}-(0[1-9]|1[0-2])$"), AfterValidator(_check_ascii_digits)]


def _check_driver(value: str) -> str:
    _check_ascii_digits(value)
    try:
        DriverVersion.parse(value)
    except VersionFormatError as exc:
        raise ValueError(f"{exc}; write it like \"570\" or \"570.124.06\"") from None
    return value


def _check_cuda(value: str) -> str:
    _check_ascii_digits(value)
    try:
        CudaVersion.parse(value)
    except VersionFormatError as exc:
        raise ValueError(f"{exc}; write it like \"12.8\" or \"12.8.1\"") from None
    return value


def _check_specifier(value: str) -> str:
    if not value.strip() or any(not part.strip() for part in value.split(",")):
        # packaging reads "" as "any version" and skips empty parts ("<0.8,"): a typo, not an intent
        raise ValueError(f"not a PEP 440 version specifier: {value!r} (an empty specifier or an empty part between "
                         "commas; write e.g. \">=0.15,<0.17\")")
    try:
        SpecifierSet(value)
    except InvalidSpecifier:
        raise ValueError(f"not a PEP 440 version specifier: {value!r} (write e.g. \">=0.15,<0.17\")") from None
    return value




#: NVIDIA driver version: ``575``, ``470.57``, ``570.124.06``.
DriverVersionString = Annotated[
    str,
    AfterValidator(_check_driver),
    WithJsonSchema({"type": "string", "pattern": r"^[Rr]?\d{2,4}(\.\d{1,3}){0,2}$"}),
]

#: CUDA toolkit version: ``12.8``, ``12.8.0``, ``12.8.0.038``.
CudaVersionString = Annotated[
    str,
    AfterValidator(_check_cuda),
    WithJsonSchema({"type": "string", "pattern": r"^\d{1,2}\.\d{1,2}(\.\d{1,4}){0,2}$"}),
]

#: PEP 440 specifier set: ``<0.8.2.dev0``, ``>=0.15,<0.17``.
SpecifierString = Annotated[
    str,
    AfterValidator(_check_specifier),
    WithJsonSchema({"type": "string", "minLength": 1}),
]

#: An absolute http(s) URL, kept as written (no normalisation).
Url = Annotated[
    str,
    AfterValidator(_check_url),
    WithJsonSchema({"type": "string", "format": "uri", "pattern": "^https?://"}),
]

_CJK = re.compile(r"[\u3400-\u9fff]")


def contains_cjk(text: str) -> bool:
    """True when ``text`` contains at least one CJK ideograph."""
    return bool(_CJK.search(text))


#: Prose in one language: 1-20,000 characters, at least one of them visible (not only spaces or zero-width characters).
NonEmptyText = Annotated[str, Field(min_length=1, max_length=20000), AfterValidator(_check_visible)]
