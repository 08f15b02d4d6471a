"""Probe: installed Python distributions, read from ``*.dist-info`` / ``*.egg-info`` directly.

``importlib.metadata`` is not used: it builds path finders and parses
every METADATA with :mod:`email`, which costs tens of milliseconds for a few
hundred distributions.  Here each site directory is listed once and only the
header block of ``METADATA`` (``PKG-INFO`` for eggs) is read, up to the first
blank line.  Per distribution: ``Name``, ``Version``, ``Requires-Dist``
lines, the ``INSTALLER`` file and the ``url`` of ``direct_url.json``.

Site directories, in import precedence order:

* live: the interpreter's ``sys.path`` directories (not the standard library
  or zip files), then :func:`site.getsitepackages` and the user site, so the
  scan also works under ``python -S``;
* fake root: ``/usr/local/lib/python3.*/{dist,site}-packages``,
  ``/usr/lib/python3/dist-packages``, ``/usr/lib/python3.*/site-packages``,
  ``/opt/conda/lib/python3.*/site-packages`` and ``/opt/*/lib/python3.*/site-packages``
  (virtual environments) under the root.

Broken metadata never raises: the distribution is kept with ``error`` set
(``"METADATA missing"``, ``"METADATA is not UTF-8"``, ``"invalid version 'x'"``,
``"no Name in METADATA"``) and the name taken from the directory name.
"""

from __future__ import annotations

import json
import os
import re
import site
import sys
import sysconfig
from typing import Any, Optional

from lingjun.checks.facts import DistributionFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "distributions"

_HEADER_LIMIT = 256 * 1024
_PY_DIR = re.compile(r"^python3\.\d+$")


@register_probe(NAME, order=30)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Scan every site directory (see the module docstring)."""
    return {"distributions": scan(env)}


def site_dirs(env: ProbeEnv) -> list[str]:
    """Container paths of the site directories, computed once per :class:`ProbeEnv`."""
    return env.shared("site-dirs", lambda: _live_site_dirs() if env.live else _root_site_dirs(env))


def scan(env: ProbeEnv) -> list[DistributionFacts]:
    """Every distribution in :func:`site_dirs`, computed once per :class:`ProbeEnv`."""
    return env.shared("distributions", lambda: [d for s in site_dirs(env) for d in _scan_dir(env, s)])


def _live_site_dirs() -> list[str]:
    excluded = set()
    for key in ("stdlib", "platstdlib"):
        try:
            excluded.add(os.path.realpath(sysconfig.get_paths()[key]))
        except (KeyError, OSError):
            pass
    candidates = [p for p in sys.path if p]
    try:
        candidates += site.getsitepackages()
    except AttributeError:  # old virtualenv site.py
        pass
    user = getattr(site, "USER_SITE", None)
    if user and getattr(site, "ENABLE_USER_SITE", False):
        candidates.append(user)
    out: list[str] = []
    seen: set[str] = set()
    for path in candidates:
        real = os.path.realpath(path)
        if real in seen or real in excluded or not os.path.isdir(real) or real.endswith("lib-dynload"):
            continue
        seen.add(real)
        out.append(os.path.abspath(path))
    return out


def _root_site_dirs(env: ProbeEnv) -> list[str]:
    out: list[str] = []
    for prefix in ("/usr/local/lib", "/usr/lib", "/opt/conda/lib"):
        for name in env.listdir(prefix):
            if _PY_DIR.match(name):
                for sub in ("dist-packages", "site-packages"):
                    path = f"{prefix}/{name}/{sub}"
                    if env.isdir(path):
                        out.append(path)
        if prefix != "/opt/conda/lib" and env.isdir(f"{prefix}/python3/dist-packages"):
            out.append(f"{prefix}/python3/dist-packages")
    for venv in env.listdir("/opt"):
        if venv == "conda":
            continue
        for name in env.listdir(f"/opt/{venv}/lib"):
            path = f"/opt/{venv}/lib/{name}/site-packages"
            if _PY_DIR.match(name) and env.isdir(path):
                out.append(path)
    return out


def _scan_dir(env: ProbeEnv, directory: str) -> list[DistributionFacts]:
    out: list[DistributionFacts] = []
    for name in env.listdir(directory):
        if name.endswith(".dist-info"):
            out.append(read_dist_info(env, f"{directory}/{name}", directory))
        elif name.endswith(".egg-info"):
            out.append(read_egg_info(env, f"{directory}/{name}", directory))
    return out


def _name_from_dir(dirname: str) -> str:
    stem = dirname.rsplit(".", 1)[0]
    return stem.split("-", 1)[0] or stem


def parse_headers(text: str) -> dict[str, list[str]]:
    """Header fields of a core-metadata file (up to the first blank line), lower-cased keys -> values in order."""
    fields: dict[str, list[str]] = {}
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if not line:
            break
        if line[0] in " \t":
            continue  # continuation of a long header: not needed here
        key, sep, value = line.partition(":")
        if sep:
            fields.setdefault(key.strip().lower(), []).append(value.strip())
    return fields


def _read_header_text(env: ProbeEnv, path: str) -> str:
    data = env.open_bytes(path, _HEADER_LIMIT)
    end = data.find(b"\n\n")
    if end >= 0:
        data = data[:end]
    return data.decode("utf-8")


_PEP440: "Optional[re.Pattern[str]]" = None


def _check_version(version: Optional[str]) -> Optional[str]:
    """None when ``version`` is a valid PEP 440 version (packaging's own pattern, without building a Version)."""
    global _PEP440
    if version is None:
        return "no Version in METADATA"
    if _PEP440 is None:
        from packaging.version import VERSION_PATTERN

        _PEP440 = re.compile(r"^\s*" + VERSION_PATTERN + r"\s*$", re.VERBOSE | re.IGNORECASE)
    if not _PEP440.match(version):
        return f"invalid version {version!r}"
    return None


def _from_metadata(env: ProbeEnv, meta_path: str, dirpath: str, location: str, requires_key: str) -> DistributionFacts:
    dirname = dirpath.rsplit("/", 1)[-1]
    try:
        text = _read_header_text(env, meta_path)
    except FileNotFoundError:
        return DistributionFacts(name=_name_from_dir(dirname), location=location, error=f"{meta_path.rsplit('/', 1)[-1]} missing")
    except UnicodeDecodeError:
        return DistributionFacts(name=_name_from_dir(dirname), location=location, error="METADATA is not UTF-8")
    except OSError as exc:
        return DistributionFacts(name=_name_from_dir(dirname), location=location, error=f"cannot read metadata: {exc.strerror or exc}")
    fields = parse_headers(text)
    name = (fields.get("name") or [None])[0]
    version = (fields.get("version") or [None])[0]
    dist = DistributionFacts(
        name=name or _name_from_dir(dirname),
        version=version,
        location=location,
        requires=list(fields.get(requires_key, [])),
    )
    dist.error = "no Name in METADATA" if not name else _check_version(version)
    return dist


def read_dist_info(env: ProbeEnv, dirpath: str, location: str) -> DistributionFacts:
    """One ``*.dist-info`` directory (container path) as :class:`DistributionFacts`."""
    dist = _from_metadata(env, dirpath + "/METADATA", dirpath, location, "requires-dist")
    try:
        dist.installer = env.open_bytes(dirpath + "/INSTALLER", 256).decode("utf-8", "replace").strip() or None
    except OSError:
        pass
    try:
        direct = json.loads(env.open_bytes(dirpath + "/direct_url.json", 64 * 1024).decode("utf-8", "replace"))
        if isinstance(direct, dict) and isinstance(direct.get("url"), str):
            dist.direct_url = direct["url"]
    except (OSError, ValueError):
        pass
    return dist


def read_egg_info(env: ProbeEnv, path: str, location: str) -> DistributionFacts:
    """One ``*.egg-info`` (directory with ``PKG-INFO``, or a ``PKG-INFO``-format file) as :class:`DistributionFacts`."""
    if env.isdir(path):
        dist = _from_metadata(env, path + "/PKG-INFO", path, location, "requires-dist")
        try:
            text = env.open_bytes(path + "/requires.txt", 64 * 1024).decode("utf-8", "replace")
            for line in text.splitlines():
                line = line.strip()
                if line.startswith("["):
                    break
                if line:
                    dist.requires.append(line)
        except OSError:
            pass
        return dist
    return _from_metadata(env, path, path, location, "requires-dist")
