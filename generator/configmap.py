"""``lingjun-kb bundle --configmap``: ``lingjun-check.pyz`` shipped to a cluster as a Kubernetes ConfigMap.

The manifest is YAML: one ``v1`` ConfigMap whose ``binaryData`` holds the
zipapp under the key :data:`PYZ_KEY` (base64, as the API expects).  Pods mount
it and run ``python3 /opt/lingjun/lingjun-check.pyz`` (see ``deploy/kubernetes/``).

Size rules (sources in ``shared/sources/fleet.md``):

- the API server adds the lengths of every ``data`` value and the *decoded*
  lengths of every ``binaryData`` value and refuses the object when the sum is
  above 1 MiB (:data:`CONFIGMAP_LIMIT`;
  ``pkg/apis/core/validation/validation.go`` in
  https://github.com/kubernetes/kubernetes); :func:`payload_bytes` counts the
  same way;
- client-side ``kubectl apply`` copies the whole object into the
  ``kubectl.kubernetes.io/last-applied-configuration`` annotation, and all
  annotations together may hold at most 262144 bytes
  (:data:`ANNOTATION_LIMIT`; https://github.com/kubernetes/kubectl/issues/712),
  so this ConfigMap must be created with ``kubectl create``/``replace`` or
  ``kubectl apply --server-side``; the manifest's first line says so.

The zipapp in the ConfigMap is built by :func:`lingjun.generator.zipapp.zip_entries` and
:func:`~lingjun.generator.zipapp.zipapp_bytes` like ``dist/lingjun-check.pyz``, but without the
bytecode :func:`~lingjun.generator.zipapp.with_bytecode` adds: that bytecode roughly triples the
archive (above 1 MiB, see ``bench/configmap_size.py``) and only speeds up start-up when the
image's Python is exactly the builder's, which for a training image is rarely the case.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any, Mapping

import yaml

from lingjun.checks.core.atomic_write import read_prefix

__all__ = [
    "PYZ_KEY", "CONFIGMAP_LIMIT", "ANNOTATION_LIMIT", "HEADER", "ConfigMapTooLarge",
    "configmap_object", "configmap_yaml", "payload_bytes", "is_previous_configmap", "check_name", "check_namespace",
]

#: the key of the zipapp in ``binaryData``; the file name pods see under the mount path
PYZ_KEY = "lingjun-check.pyz"
#: bytes the API server allows in a ConfigMap's data + decoded binaryData (1 MiB, as for Secrets)
CONFIGMAP_LIMIT = 1024 * 1024
#: bytes all annotations of an object may hold together (what breaks client-side ``kubectl apply``)
ANNOTATION_LIMIT = 262144
#: first line of every manifest written: how to create it, and how :func:`is_previous_configmap` knows it
HEADER = ("# lingjun-check.pyz as a ConfigMap, written by `lingjun-kb bundle --configmap`. Create it with "
          "`kubectl create -f` (or `kubectl replace -f`, `kubectl apply --server-side -f`): client-side "
          "`kubectl apply` fails because its annotation may hold at most 262144 bytes.\n")

_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


class ConfigMapTooLarge(ValueError):
    """The payload is above :data:`CONFIGMAP_LIMIT`; ``.size`` is the payload in bytes."""

    def __init__(self, size: int) -> None:
        super().__init__(f"the ConfigMap would hold {size} bytes; Kubernetes refuses more than {CONFIGMAP_LIMIT} "
                         "(1 MiB of data + decoded binaryData)")
        self.size = size


def check_name(name: str) -> str:
    """``name`` when it is a valid ConfigMap name (an RFC 1123 DNS subdomain of at most 253 characters).

    Raises:
        ValueError: with a one-line reason.
    """
    if not name or len(name) > 253 or not _DNS_SUBDOMAIN.match(name):
        raise ValueError("must be lower-case letters, digits, '-' and '.', start and end with a letter or digit, "
                         "at most 253 characters (a Kubernetes object name)")
    return name


def check_namespace(namespace: str) -> str:
    """``namespace`` when it is a valid namespace name (an RFC 1123 DNS label of at most 63 characters).

    Raises:
        ValueError: with a one-line reason.
    """
    if not namespace or len(namespace) > 63 or not _DNS_LABEL.match(namespace):
        raise ValueError("must be lower-case letters, digits and '-', start and end with a letter or digit, "
                         "at most 63 characters (a Kubernetes namespace)")
    return namespace


def configmap_object(pyz: bytes, name: str = "lingjun-check", namespace: "str | None" = None) -> dict[str, Any]:
    """The ConfigMap as a dict (``apiVersion``, ``kind``, ``metadata``, ``binaryData``) holding ``pyz``.

    ``metadata`` carries the ``app.kubernetes.io/name`` label and the annotation
    ``lingjun.alibabacloud.com/pyz-sha256`` (the zipapp's SHA-256, hex) so a pod or
    an operator can tell which build a cluster holds.  No namespace key when
    ``namespace`` is None (``kubectl -n`` then decides).

    Raises:
        ValueError: a bad ``name`` or ``namespace`` (:func:`check_name`, :func:`check_namespace`).
        ConfigMapTooLarge: ``pyz`` is above :data:`CONFIGMAP_LIMIT`.
    """
    metadata: dict[str, Any] = {"name": check_name(name)}
    if namespace is not None:
        metadata["namespace"] = check_namespace(namespace)
    metadata["labels"] = {"app.kubernetes.io/name": "lingjun-check", "app.kubernetes.io/managed-by": "lingjun-kb"}
    metadata["annotations"] = {"lingjun.alibabacloud.com/pyz-sha256": hashlib.sha256(pyz).hexdigest()}
    obj = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata,
           "binaryData": {PYZ_KEY: base64.b64encode(pyz).decode("ascii")}}
    size = payload_bytes(obj)
    if size > CONFIGMAP_LIMIT:
        raise ConfigMapTooLarge(size)
    return obj


def payload_bytes(obj: Mapping[str, Any]) -> int:
    """Bytes of a ConfigMap as the API server counts them against :data:`CONFIGMAP_LIMIT`:
    the UTF-8 length of every ``data`` value plus the decoded length of every ``binaryData`` value.

    Raises:
        binascii.Error: a ``binaryData`` value is not base64.
    """
    data = obj.get("data") or {}
    binary = obj.get("binaryData") or {}
    return (sum(len(str(v).encode("utf-8")) for v in data.values())
            + sum(len(base64.b64decode(v, validate=True)) for v in binary.values()))


def configmap_yaml(obj: Mapping[str, Any]) -> str:
    """The manifest text: :data:`HEADER`, then ``obj`` as one YAML document (keys in the given order,
    the base64 text on one line)."""
    return HEADER + yaml.safe_dump(dict(obj), sort_keys=False, width=float("inf"), default_flow_style=False)


def is_previous_configmap(path: str) -> bool:
    """True when the regular file ``path`` starts with :data:`HEADER` (a manifest this command wrote).

    Only the first bytes are read, without following a link.
    """
    marker = HEADER.encode("utf-8")
    return read_prefix(path, len(marker)) == marker
