"""Measurement: how much of Kubernetes' 1 MiB ConfigMap limit ``lingjun-kb bundle --configmap`` uses.

Usage (from the repository root, with the project installed)::

    .venv/bin/python bench/configmap_size.py [--releases releases]

Prints, for the zipapp built from the working tree (the ConfigMap's, without bytecode, and the
``dist/lingjun-check.pyz`` one, with bytecode):

- the payload as the API server counts it (decoded ``binaryData`` + ``data``) against 1,048,576 bytes;
- the serialised sizes: compact JSON (what a client-side apply would copy into its annotation,
  limited to 262,144 bytes) and the YAML manifest as written;
- the time to build the manifest.

``--releases DIR`` bundles another knowledge base (the test suite's smoke test uses the small fixture one).
Exit code 1 when the ConfigMap's payload is above the limit.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from lingjun.generator import configmap as cm
from lingjun.generator.zipapp import bundle_text, with_bytecode, zip_entries, zipapp_bytes


def main(argv: "list[str] | None" = None) -> int:
    """Print the sizes; 0 when the ConfigMap fits, 1 when it does not."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=Path, default=Path("releases"), help="the knowledge base to bundle")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    text, problems = bundle_text(args.releases)
    if text is None:
        print(f"bench/configmap_size.py: {args.releases} does not validate: "
              f"{[p.format() for p in problems if p.is_error][:3]}", file=sys.stderr)
        return 2
    entries = zip_entries(text)
    pyz = zipapp_bytes(entries)
    obj = cm.configmap_object(pyz)
    manifest = cm.configmap_yaml(obj)
    took = time.perf_counter() - started
    payload = cm.payload_bytes(obj)
    compact = len(json.dumps(obj, separators=(",", ":")).encode())
    print(f"ConfigMap zipapp (no bytecode):  {len(pyz):>9,} bytes")
    print(f"  payload (API server count):    {payload:>9,} bytes = {payload / cm.CONFIGMAP_LIMIT:6.1%} of {cm.CONFIGMAP_LIMIT:,}")
    print(f"  serialised, compact JSON:      {compact:>9,} bytes = {compact / cm.ANNOTATION_LIMIT:6.1f}x the {cm.ANNOTATION_LIMIT:,}-byte annotation limit")
    print(f"  serialised, YAML manifest:     {len(manifest.encode()):>9,} bytes")
    print(f"  built in {took:.2f} s")
    full = zipapp_bytes(with_bytecode(entries))
    print(f"zipapp with bytecode (dist/):    {len(full):>9,} bytes = {len(full) / cm.CONFIGMAP_LIMIT:6.1%} of the limit")
    return 0 if payload <= cm.CONFIGMAP_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
