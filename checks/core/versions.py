"""Version types the checker and the data model share.

Only the standard library is used here, so this module runs inside any
container (it is embedded in ``lingjun-check.pyz``).  Python package versions
are compared with :mod:`packaging`; NVIDIA driver versions and CUDA toolkit
versions are not PEP 440 versions and get the small dedicated types below.

Examples:
    >>> DriverVersion.parse("570.124.06") > DriverVersion.parse("570.26")
    True
    >>> DriverVersion.parse("575").branch
    575
    >>> CudaVersion.parse("12.8.0.038").major_minor
    (12, 8)
    >>> CudaVersion.from_api_int(12080)
    CudaVersion('12.8')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

__all__ = ["DriverVersion", "CudaVersion", "VersionFormatError"]


class VersionFormatError(ValueError):
    """Raised when a driver or CUDA version string cannot be parsed."""


#: ASCII digits only (re.ASCII): Python's \d also matches full-width and other Unicode digits
_DRIVER_RE = re.compile(r"^\s*[Rr]?(\d{2,4})((?:\.\d{1,3}){0,2})\s*$", re.ASCII)
_CUDA_RE = re.compile(r"^\s*(\d{1,2})\.(\d{1,2})((?:\.\d{1,4}){0,2})\s*$", re.ASCII)


@total_ordering
@dataclass(frozen=True)
class DriverVersion:
    """An NVIDIA Linux driver version such as ``570.124.06``.

    ``parts`` holds the numeric fields (1 to 3 of them).  The first field is
    the driver branch (R570).  A version written with the branch only
    (``"575"``, as Alibaba's pages write "NVIDIA Driver release >= 575")
    means "any driver of that branch or newer": :meth:`satisfies_minimum`
    compares at the precision of the minimum.  Ordering pads missing fields
    with zeros, so ``575 < 575.51.03``.  The patch field keeps its text
    (``"06"``) for display but compares as an integer.

    Raises:
        VersionFormatError: from :meth:`parse` for anything that is not
            1-3 dot-separated integers (an ``R`` prefix is accepted).
    """

    text: str
    parts: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> "DriverVersion":
        """Parse ``"570"``, ``"R570"``, ``"570.26"`` or ``"570.124.06"``."""
        if not isinstance(text, str):
            raise VersionFormatError(f"driver version must be a string, got {type(text).__name__}")
        match = _DRIVER_RE.match(text)
        if not match:
            raise VersionFormatError(f"not an NVIDIA driver version: {text!r}")
        fields = [match.group(1)] + [f for f in match.group(2).split(".") if f]
        return cls(text=".".join(fields), parts=tuple(int(f) for f in fields))

    @property
    def branch(self) -> int:
        """The driver branch number, e.g. ``570`` for 570.124.06."""
        return self.parts[0]

    @property
    def is_branch_only(self) -> bool:
        """True when only the branch was given (``"575"``)."""
        return len(self.parts) == 1

    def _padded(self) -> tuple[int, int, int]:
        return tuple(list(self.parts) + [0] * (3 - len(self.parts)))  # type: ignore[return-value]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, DriverVersion):
            return NotImplemented
        return self._padded() < other._padded()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DriverVersion):
            return NotImplemented
        return self._padded() == other._padded()

    def __hash__(self) -> int:
        return hash(self._padded())

    def satisfies_minimum(self, minimum: "DriverVersion") -> bool:
        """Whether this (installed) driver meets ``minimum``.

        A branch-only minimum (``575``) is met by any driver of branch 575 or
        later; otherwise the full version is compared.
        """
        if minimum.is_branch_only:
            return self.branch >= minimum.branch
        return self >= minimum

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"DriverVersion({self.text!r})"


@total_ordering
@dataclass(frozen=True)
class CudaVersion:
    """A CUDA toolkit or driver-API version: ``12.8``, ``12.8.1``, ``12.8.0.038``.

    NGC images write ``CUDA_VERSION`` with four fields (``12.8.0.038``); the
    fourth is a build number and is kept for display but ignored when
    comparing.  ``cuDriverGetVersion`` returns ``1000*major + 10*minor``
    (12080); :meth:`from_api_int` decodes it.

    Raises:
        VersionFormatError: from :meth:`parse` on malformed input.
    """

    text: str
    major: int
    minor: int
    patch: int | None = None

    @classmethod
    def parse(cls, text: str) -> "CudaVersion":
        """Parse a dotted CUDA version string."""
        if not isinstance(text, str):
            raise VersionFormatError(f"CUDA version must be a string, got {type(text).__name__}")
        match = _CUDA_RE.match(text)
        if not match:
            raise VersionFormatError(f"not a CUDA version: {text!r}")
        rest = [f for f in match.group(3).split(".") if f]
        patch = int(rest[0]) if rest else None
        return cls(text=text.strip(), major=int(match.group(1)), minor=int(match.group(2)), patch=patch)

    @classmethod
    def from_api_int(cls, value: int) -> "CudaVersion":
        """Decode ``cuDriverGetVersion``/``cudaRuntimeGetVersion`` output (12080 -> 12.8)."""
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0 or value >= 100_000:
            # CUDA versions are written major*1000 + minor*10 (12080); anything from 100000 on is no CUDA version
            raise VersionFormatError(f"not a CUDA API version integer: {str(value)[:20]!r}")
        major, rem = divmod(value, 1000)
        return cls(text=f"{major}.{rem // 10}", major=major, minor=rem // 10)

    @property
    def major_minor(self) -> tuple[int, int]:
        """``(major, minor)``."""
        return (self.major, self.minor)

    def _key(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch or 0)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, CudaVersion):
            return NotImplemented
        return self._key() < other._key()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CudaVersion):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"CudaVersion({self.text!r})"
