"""Probe: the release manifest an image carries, ``/etc/lingjun/release.json``.

Format (version 1; only ``release`` is required)::

    {
      "schema": "lingjun/release-manifest/1",
      "release": "training-nv-pytorch:25.07",          // family:YY.MM or one of the release's image tags
      "image": "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless",
      "architecture": "amd64",
      "built_at": "2025-07-28T10:00:00Z"
    }

An image build writes it; ``LINGJUN_RELEASE`` in the environment says the
same and wins over the file (see :mod:`lingjun.checks.knowledge.identify`).  A file
that is not a JSON object, or whose ``release`` is not a string containing
``:``, is recorded with ``release = None`` and the problem in the probe record.  Fills
``manifest`` (None when there is no file).
"""

from __future__ import annotations

import json
from typing import Any

from lingjun.checks.facts import ManifestFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv, describe_os_error

NAME = "manifest"
PATH = "/etc/lingjun/release.json"


@register_probe(NAME, order=160)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Read the manifest file (see the module docstring)."""
    try:
        raw = env.open_bytes(PATH, 256 * 1024)
    except FileNotFoundError:
        return {"manifest": None}
    except OSError as exc:
        record.ok, record.error = False, f"{PATH}: {describe_os_error(exc)}"
        return {"manifest": ManifestFacts(path=PATH)}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        record.ok, record.error = False, f"{PATH}: not valid JSON ({exc})"
        return {"manifest": ManifestFacts(path=PATH)}
    if not isinstance(data, dict):
        record.ok, record.error = False, f"{PATH}: expected a JSON object"
        return {"manifest": ManifestFacts(path=PATH)}
    release = data.get("release")
    if not isinstance(release, str) or ":" not in release:
        record.ok, record.error = False, f"{PATH}: field 'release' must be a string 'family:YY.MM'"
        release = None
    return {"manifest": ManifestFacts(path=PATH, release=release, data=data)}
