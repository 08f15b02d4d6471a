"""Two facts the GPU Operator's driver container logs state: the cluster is OpenShift (``log.openshift``: its name, the
rhocp repositories, OPENSHIFT_VERSION), and package repositories or a download host cannot be reached
(``log.repos_unreachable``: the driver container's FATAL line, dnf's and curl's failed name lookups, apt's)."""

from __future__ import annotations

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.facts import Facts
from lingjun.checks.knowledge.fact_values import fact_value
from lingjun.checks.knowledge.signatures import SignatureSet


def stated(name: str, line: str):
    evidence = Evidence()
    SignatureSet([]).scanner(evidence, "job.log").feed_block((line + "\n").encode())
    found = fact_value(name, Facts(), evidence)
    return found.value if found.known else None


@pytest.mark.parametrize("line", [
    # NVIDIA/gpu-operator#234
    "Unfortunately, after updating to OpenShift 4.7.21 the nvidia-driver DaemonSet pods crash with the following error:",
    "we also saw this problem, it is caused by an entitlement file too old (still valid, but not giving access to "
    "`rhocp-4.7` repositories).",
    # NVIDIA/gpu-operator#190
    "2. To edit 'nvidia-driver-daemonset' to update RHEL_VERSION=8.3 and OPENSHIFT_VERSION=4.7 using \"oc edit "
    "nvidia-driver-daemonset - n gpu-operator-resources\"",
])
def test_openshift_is_stated(line):
    assert stated("log.openshift", line) is True


@pytest.mark.parametrize("line", [
    # NVIDIA/gpu-operator#616
    "FATAL: failed to reach RHEL package repositories.  Ensure that the cluster can access the proper networks.",
    # dnf's and curl's failed lookups, apt's (their message formats)
    "Curl error (6): Couldn't resolve host name for https://cdn.redhat.com/content/dist/rhel8/8/x86_64/baseos/os/"
    "repodata/repomd.xml [Could not resolve host: cdn.redhat.com]",
    "Err:1 http://archive.ubuntu.com/ubuntu jammy InRelease  Temporary failure resolving 'archive.ubuntu.com'",
])
def test_unreachable_repositories_are_stated(line):
    assert stated("log.repos_unreachable", line) is True


@pytest.mark.parametrize("name, line", [
    ("log.openshift", "openshiftish-4 is not a cluster"),
    ("log.repos_unreachable", "we could not resolve hostnames of the pods"),
])
def test_other_words_state_nothing(name, line):
    assert stated(name, line) is None
