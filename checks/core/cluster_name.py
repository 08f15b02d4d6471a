"""The name of the cluster a node belongs to: ``--cluster``, else the ``LINGJUN_CLUSTER`` variable.

Node names are unique only within one Kubernetes cluster, so ``lingjun-check
fleet`` tells the nodes of several clusters apart by the cluster recorded in
each snapshot and report (``"node": {"cluster": ...}``).  The manifests set
``LINGJUN_CLUSTER`` from the cluster's own identity (its name, or the UID of
its ``kube-system`` namespace: ``kubectl get namespace kube-system -o
jsonpath='{.metadata.uid}'``, <https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids>).

A cluster name is input text and is checked, never only cleaned: 1 to
:data:`CLUSTER_LIMIT` characters (a DNS label's length), letters of any script
(a console may name a cluster in Chinese), digits and ``. _ : -``, starting
with a letter or digit.  That covers Kubernetes object names (DNS labels and
subdomains up to 63 characters), UIDs and ``kubectl`` context names such as
``prod:cn-wulanchabu``; it keeps out white space,
controls, bidi marks, quotes, markup and ``/`` (which separates cluster and node
in ``CLUSTER/NODE``).  Standard library only.
"""

from __future__ import annotations

import re
from typing import Mapping, Optional

from lingjun.checks.core.inert_text import inert

__all__ = ["CLUSTER_VARIABLE", "PLACEHOLDER_CLUSTER", "CLUSTER_LIMIT", "CLUSTER_SOURCES", "ClusterNameError", "cluster_problem", "cluster_identity"]

#: the environment variable the manifests set to the cluster's name
CLUSTER_VARIABLE = "LINGJUN_CLUSTER"
#: the value of ``LINGJUN_CLUSTER`` the manifests in deploy/kubernetes/ ship, for the operator to replace: a fleet
#: whose nodes still record it is named by no one (``lingjun-check fleet`` warns)
PLACEHOLDER_CLUSTER = "my-cluster"
#: the longest cluster name, in characters (a DNS label's 63)
CLUSTER_LIMIT = 63
#: where a recorded cluster name came from
CLUSTER_SOURCES = ("option", CLUSTER_VARIABLE)
_FIRST = re.compile(r"[^\W_]")
_REST = re.compile(r"[\w.:-]*")


class ClusterNameError(ValueError):
    """A cluster name that is not one; ``str(error)`` is one line naming where it came from and why."""


def cluster_problem(value: object) -> Optional[str]:
    """Why ``value`` is not a cluster name (see the module docstring), or None when it is one."""
    if not isinstance(value, str):
        return "not a string"
    if not value:
        return "empty"
    if len(value) > CLUSTER_LIMIT:
        return f"{len(value)} characters, more than {CLUSTER_LIMIT}"
    if not _FIRST.match(value):
        return "it must start with a letter or digit"
    if _REST.fullmatch(value, 1) is None or not value.isprintable():
        return "only letters, digits and . _ : - are allowed"
    return None


def cluster_identity(option: Optional[str], environ: Mapping[str, str]) -> "tuple[Optional[str], Optional[str]]":
    """``(name, source)``: ``option`` ("option"), else ``environ["LINGJUN_CLUSTER"]`` when set and not blank
    ("LINGJUN_CLUSTER"); ``(None, None)`` without either.

    Raises:
        ClusterNameError: the one given is not a cluster name (the message names ``--cluster`` or the variable).
    """
    for value, source, shown in ((option, "option", "--cluster"), (environ.get(CLUSTER_VARIABLE), CLUSTER_VARIABLE, CLUSTER_VARIABLE)):
        if value is None or (source == CLUSTER_VARIABLE and not value.strip()):
            continue
        reason = cluster_problem(value)
        if reason is not None:
            raise ClusterNameError(f"{shown} {inert(repr(value), 80)}: not a cluster name: {reason}")
        return value, source
    return None, None
