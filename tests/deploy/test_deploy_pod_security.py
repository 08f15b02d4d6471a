"""Every pod template under deploy/ passes Pod Security "restricted" (tests/deploy/_pod_security.py, from
https://kubernetes.io/docs/concepts/security/pod-security-standards/), except what a manifest names as not ours."""

from __future__ import annotations

import copy

import pytest

from _manifests import CRD_POD_TEMPLATES, REPO, load, manifests
from _pod_security import CONTROLS, restricted_violations

#: containers whose settings are the user's, by manifest: the training container of the pre-flight example
NOT_OURS = {"PyTorchJob": {"containers/pytorch"}}
#: the controls a manifest breaks by design, with what breaks them: the textfile DaemonSet writes into node-exporter's
#: folder on the node (a hostPath, as root); its comment says it needs a "privileged" namespace
BY_DESIGN = {"deploy/kubernetes/lingjun-check-textfile.yaml:0": {
    "HostPath Volumes": ["volume textfile: hostPath"],
    "Volume Types": ["volume textfile: hostPath"],
    "Running as Non-root": ["containers/lingjun-check: runAsNonRoot is not true"],
    "Running as Non-root user": ["pod: runAsUser 0"],
}}


def _templates():
    for name, doc in manifests():
        if doc["kind"] in CRD_POD_TEMPLATES:
            for where, template in CRD_POD_TEMPLATES[doc["kind"]](doc):
                yield f"{name}:{where}", doc["kind"], template
        elif doc["kind"] == "CronJob":
            yield name, doc["kind"], doc["spec"]["jobTemplate"]["spec"]["template"]
        elif "template" in doc.get("spec", {}):
            yield name, doc["kind"], doc["spec"]["template"]


TEMPLATES = list(_templates())


def test_every_workload_template_is_checked():
    kinds = sorted(kind for _, kind, _ in TEMPLATES)
    # the scheduled sweep; the check Job, its ACS variant and the report Job; the two DaemonSets (snapshot, textfile);
    # the PyTorchJob's two roles
    assert kinds == ["CronJob", "DaemonSet", "DaemonSet", "Job", "Job", "Job", "PyTorchJob", "PyTorchJob"]


def test_what_breaks_restricted_by_design_keeps_every_other_control():
    """The textfile DaemonSet breaks only what its hostPath and root user need: no capability, no privilege
    escalation, the runtime's seccomp, and the only hostPath is node-exporter's folder."""
    (name, _, template), = [(n, k, tpl) for n, k, tpl in TEMPLATES if n in BY_DESIGN]
    spec = template["spec"]
    (container,) = spec["containers"]
    assert container["securityContext"] == {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}}
    assert [v["hostPath"] for v in spec["volumes"] if "hostPath" in v] == [
        {"path": "/var/lib/node_exporter/textfile", "type": "DirectoryOrCreate"}]
    text = (REPO / name.split(":")[0]).read_text(encoding="utf-8")
    assert 'Pod Security level is "privileged"' in text and "never in the namespace of the check Job" in text


@pytest.mark.parametrize("name, kind, template", TEMPLATES, ids=[name for name, _, _ in TEMPLATES])
def test_pod_template_passes_restricted(name, kind, template):
    spec = template["spec"]
    found = restricted_violations(spec, (template.get("metadata") or {}).get("annotations"))
    exempt = NOT_OURS.get(kind, set())
    ours = {control: [item for item in items if not any(item.startswith(f"{c}:") for c in exempt)]
            for control, items in found.items()}
    assert {control: items for control, items in ours.items() if items} == BY_DESIGN.get(name, {})
    if exempt:
        # only the exempt containers are named, and each of our own containers passes on its own
        ours_only = copy.deepcopy(spec)
        ours_only["containers"] = [c for c in spec["containers"] if f"containers/{c['name']}" not in exempt]
        assert restricted_violations(ours_only) == {}


@pytest.mark.parametrize("name", ["lingjun-check-job.yaml", "lingjun-check-daemonset.yaml", "lingjun-check-job-acs.yaml",
                                  "lingjun-check-textfile.yaml"])
def test_pods_mount_no_service_account_token(name):
    assert load(name)["spec"]["template"]["spec"]["automountServiceAccountToken"] is False


def test_a_container_without_a_security_context_breaks_four_controls():
    """What the manifests had before: the check names the four restricted controls a bare container breaks."""
    spec = copy.deepcopy(load("lingjun-check-job.yaml")["spec"]["template"]["spec"])
    del spec["securityContext"]
    del spec["containers"][0]["securityContext"]
    found = restricted_violations(spec)
    assert sorted(found) == ["Capabilities", "Privilege Escalation", "Running as Non-root", "Seccomp"]
    assert found["Seccomp"] == ["containers/lingjun-check: no seccompProfile (pod or container)"]


@pytest.mark.parametrize("change, control", [
    (lambda s: s.update(hostNetwork=True), "Host Namespaces"),
    (lambda s: s["volumes"].append({"name": "host", "hostPath": {"path": "/"}}), "HostPath Volumes"),
    (lambda s: s["containers"][0]["securityContext"].update(privileged=True), "Privileged Containers"),
    (lambda s: s["containers"][0]["securityContext"]["capabilities"].update(add=["IPC_LOCK"]), "Capabilities"),
    (lambda s: s["securityContext"].update(runAsUser=0), "Running as Non-root user"),
    (lambda s: s["securityContext"].update(seccompProfile={"type": "Unconfined"}), "Seccomp"),
    (lambda s: s["containers"][0].update(ports=[{"containerPort": 80, "hostPort": 80}]), "Host Ports"),
    (lambda s: s["securityContext"].update(sysctls=[{"name": "kernel.msgmax", "value": "1"}]), "Sysctls"),
])
def test_each_control_catches_what_it_names(change, control):
    spec = copy.deepcopy(load("lingjun-check-job.yaml")["spec"]["template"]["spec"])
    change(spec)
    assert control in restricted_violations(spec)


def test_every_control_of_the_page_is_implemented():
    # the restricted profile's table: the baseline controls, then the five restricted ones
    assert len(CONTROLS) == 17
