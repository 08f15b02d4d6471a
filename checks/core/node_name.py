"""The name of the node a check describes: ``--node-name``, else ``NODE_NAME``, else the host name.

Kubernetes gives a pod its node's name only through an environment variable
(downward API ``fieldRef: spec.nodeName``; the manifests set ``NODE_NAME``):
<https://kubernetes.io/docs/concepts/workloads/pods/downward-api/>.  The host
name (of a container, usually the pod's name) is only used when the facts carry
it, which they do only with ``--include-ids``.

A name is input text: :func:`clean_node_name` makes it inert (controls, bidi
marks escaped: :func:`lingjun.checks.core.inert_text.inert`) and shortens it to
:data:`~lingjun.checks.core.inert_text.NAME_LIMIT` characters, so it can be
printed, put in JSON or (escaped) in HTML.  Standard library only.
"""

from __future__ import annotations

from typing import Mapping, Optional

from lingjun.checks.core.inert_text import NAME_LIMIT, capped, inert

__all__ = ["NODE_NAME_VARIABLE", "clean_node_name", "given_node_name", "node_identity"]

#: the environment variable the Kubernetes manifests fill from ``spec.nodeName``
NODE_NAME_VARIABLE = "NODE_NAME"


def clean_node_name(value: object) -> Optional[str]:
    """``value`` as a node name: surrounding blanks stripped, inert, at most ``NAME_LIMIT`` characters.

    Returns None for None, a non-string or a blank string (no name).
    """
    if not isinstance(value, str):
        return None
    value = value.strip()
    return inert(value, NAME_LIMIT) if value else None


def given_node_name(value: object) -> Optional[str]:
    """``value`` as a node name, kept as given: surrounding blanks stripped, at most ``NAME_LIMIT`` characters (then
    ``… (N more characters)``), None for None, a non-string or a blank string. Not inert: for a model whose every
    output makes it so (the fleet's text and HTML reports write it with :func:`~lingjun.checks.core.inert_text.inert`,
    its JSON escapes every control and bidi character as ``\\uNNNN``, which reads back as the name)."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    return capped(value, NAME_LIMIT) if value else None


def node_identity(option: Optional[str], environ: Mapping[str, str], hostname: Optional[str]) -> "tuple[Optional[str], Optional[str]]":
    """``(name, source)``: the first usable of ``option`` ("option"), ``environ["NODE_NAME"]``
    ("NODE_NAME") and ``hostname`` ("hostname"); ``(None, None)`` when none is usable.

    ``hostname`` is the probed host name, which the facts hold only with ``--include-ids``.
    """
    for value, source in ((option, "option"), (environ.get(NODE_NAME_VARIABLE), NODE_NAME_VARIABLE), (hostname, "hostname")):
        name = clean_node_name(value)
        if name is not None:
            return name, source
    return None, None
