"""Probe: torch build facts from ``torch/version.py``, read with regular expressions (torch is never imported).

Both styles are understood (source: torch wheels' ``torch/version.py``, written by
https://github.com/pytorch/pytorch/blob/main/tools/generate_torch_version.py)::

    __version__ = '2.9.1+cu128'          cuda: Optional[str] = '12.8'     (torch >= 2.1, annotated)
    __version__ = '1.13.1+cu117'         cuda = '11.7'                     (older wheels)

``debug = False``, ``git_version = '...'`` and ``hip`` likewise; ``None``
values stay None.  torch is looked for where its distribution says
(``Location``), then in every site directory.  Fills ``torch`` (None when
torch is not installed).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from lingjun.checks.facts import ProbeRecord, TorchBuildFacts
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes.distributions import scan, site_dirs

NAME = "torch"

_ASSIGN = re.compile(r"^\s*(__version__|cuda|hip|git_version|debug)\s*(?::[^=]*)?=\s*(.+?)\s*(?:#.*)?$", re.MULTILINE)


def _literal(text: str) -> Any:
    text = text.strip()
    if text in ("None",):
        return None
    if text in ("True", "False"):
        return text == "True"
    match = re.match(r"^(['\"])(.*)\1$", text)
    if match:
        return match.group(2)
    return ...  # not a plain literal


def parse_version_py(text: str) -> dict[str, Any]:
    """Fields of a ``torch/version.py``: ``{"version", "cuda", "hip", "git_version", "debug"}`` (present keys only).

    >>> parse_version_py("__version__ = '2.7.1+cu128'\\ncuda: Optional[str] = '12.8'\\ndebug = False")
    {'version': '2.7.1+cu128', 'cuda': '12.8', 'debug': False}
    """
    out: dict[str, Any] = {}
    for match in _ASSIGN.finditer(text):
        key = "version" if match.group(1) == "__version__" else match.group(1)
        value = _literal(match.group(2))
        if value is ... or key in out:
            continue
        if key == "debug" and not isinstance(value, bool):
            continue
        if key != "debug" and value is not None and not isinstance(value, str):
            continue
        out[key] = value
    return out


def _locations(env: ProbeEnv) -> list[str]:
    found: list[str] = []
    for dist in scan(env):
        if dist.name.lower() == "torch" and dist.location:
            found.append(dist.location)
    found += [d for d in site_dirs(env) if d not in found]
    return found


@register_probe(NAME, order=140)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Find and parse ``torch/version.py`` (see the module docstring)."""
    for location in _locations(env):
        path = f"{location}/torch/version.py"
        try:
            text = env.open_bytes(path, 64 * 1024).decode("utf-8", "replace")
        except OSError:
            continue
        fields = parse_version_py(text)
        facts = TorchBuildFacts(
            version=fields.get("version"),
            cuda=fields.get("cuda"),
            hip=fields.get("hip"),
            git_version=fields.get("git_version"),
            debug=fields.get("debug"),
            location=location,
        )
        if facts.version is None:
            record.ok, record.error = False, f"{path}: no plain __version__ string"
        return {"torch": facts}
    return {"torch": None}


def torch_version(env: ProbeEnv) -> Optional[str]:
    """The installed torch distribution version from metadata, or None."""
    for dist in scan(env):
        if dist.name.lower() == "torch":
            return dist.version
    return None
