"""Probe: the Python interpreter.

Live: the interpreter running the checker (``sys.version_info``,
``sys.version``, ``sys.prefix``/``sys.base_prefix``, whether it is a
virtual environment) and the site directories the distributions probe scans.
Fake root: the version is taken from the first ``python3.X`` site directory
found under the root (major.minor only); the rest stays None.  Fills ``python``.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from lingjun.checks.facts import ProbeRecord, PythonFacts
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes.distributions import site_dirs

NAME = "python"


@register_probe(NAME, order=20)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Describe the interpreter (see the module docstring)."""
    sites = site_dirs(env)
    if not env.live:
        facts = PythonFacts(site_packages=list(sites))
        for site in sites:
            match = re.search(r"/python(3\.\d+)/", site)
            if match:
                facts.version = match.group(1)
                break
        return {"python": facts}
    info = sys.version_info
    return {
        "python": PythonFacts(
            version=f"{info.major}.{info.minor}.{info.micro}" + ("" if info.releaselevel == "final" else f"{info.releaselevel[0]}{info.serial}"),
            version_full=sys.version.splitlines()[0],
            implementation=sys.implementation.name,
            executable=sys.executable or None,
            prefix=sys.prefix,
            base_prefix=getattr(sys, "base_prefix", sys.prefix),
            in_virtualenv=sys.prefix != getattr(sys, "base_prefix", sys.prefix),
            site_packages=list(sites),
        )
    }
