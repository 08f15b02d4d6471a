"""Probe: the release manifest an image carries, ``/etc/lingjun/release.json``.

Format (version 1; only ``release`` is required)::

    {
      "schema": "lingjun/release-manifest/1",
      "release": "training-nv-pytorch:25.07",          // family:release[#variant] or one of the release's image tags
      "image": "egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless",
      "architecture": "amd64",
      "built_at": "2025-07-28T10:00:00Z"
    }

``release`` names the release as :func:`lingjun.checks.knowledge.identify.find_release` reads it:
``family:release`` with any release identifier (``training-xpu-pytorch:2026-10-20``,
``inference-xpu-pytorch-opt:sglang0.5.4.post3-250105``), ``family:release#variant``, or an image tag
alone (``25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless``) or with its image name or registry.
``image``, when it is one of the release's references (or the same ``name:tag`` in another registry, a mirror),
names the variant of a release that publishes several.  An ``image`` that contradicts ``release`` (another release's
or another variant's image), that no recorded release publishes, or that is no string is kept as read here; the
checker never prefers one of two contradicting values silently (see :mod:`lingjun.checks.knowledge.identify`, step 3)
and the ``release.manifest-image`` rule warns, naming both.

An image build writes it; ``LINGJUN_RELEASE`` in the environment says the
same and wins over the file (see :mod:`lingjun.checks.knowledge.identify`).  A file
that is not a JSON object, or whose ``release`` is not a non-empty string of at most
:data:`MAX_RELEASE` characters, is recorded with ``release = None`` and the problem in the probe
record.  Fills ``manifest`` (None when there is no file).
"""

from __future__ import annotations

import json
from typing import Any

from lingjun.checks.facts import ManifestFacts, ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv, describe_os_error

NAME = "manifest"
PATH = "/etc/lingjun/release.json"
#: the longest ``release`` read (a full registry reference with a long tag is about 150 characters)
MAX_RELEASE = 512


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
    if not isinstance(release, str) or not release.strip() or len(release) > MAX_RELEASE:
        record.ok, record.error = False, (f"{PATH}: field 'release' must be a string 'family:release' or an image tag "
                                          f"(at most {MAX_RELEASE} characters)")
        release = None
    return {"manifest": ManifestFacts(path=PATH, release=release, data=data)}
