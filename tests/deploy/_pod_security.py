"""The Pod Security Standards' "restricted" profile (baseline included) as a check over one pod spec.

Written from the controls listed on https://kubernetes.io/docs/concepts/security/pod-security-standards/
(policy version "latest", Kubernetes 1.25 and later): each control is one function below, named as the page
names it, returning what breaks it.  :func:`restricted_violations` runs them all.  Used by
``test_deploy_pod_security.py`` on every pod template under ``deploy/``; the admission controller itself is not
available offline, so this is the page's table as code.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

Spec = dict[str, Any]

#: baseline "Capabilities": what a container may add
BASELINE_CAPABILITIES = frozenset({"AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD",
                                   "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT"})
#: baseline "Sysctls": the safe set
SAFE_SYSCTLS = frozenset({"kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
                          "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
                          "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
                          "net.ipv4.tcp_keepalive_probes"})
#: baseline "SELinux": the types allowed
SELINUX_TYPES = frozenset({"", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"})
#: restricted "Volume Types": the only volume sources allowed
RESTRICTED_VOLUMES = frozenset({"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim",
                                "projected", "secret"})


def containers(spec: Spec) -> Iterator[tuple[str, Spec]]:
    """``(kind/name, container)`` for every container, init container and ephemeral container of ``spec``."""
    for key in ("containers", "initContainers", "ephemeralContainers"):
        for container in spec.get(key) or []:
            yield f"{key}/{container.get('name')}", container


def _ctx(container: Spec) -> Spec:
    return container.get("securityContext") or {}


def host_process(spec: Spec, annotations: Spec) -> list[str]:
    found = []
    if ((spec.get("securityContext") or {}).get("windowsOptions") or {}).get("hostProcess") is True:
        found.append("pod: windowsOptions.hostProcess")
    found += [f"{n}: windowsOptions.hostProcess" for n, c in containers(spec)
              if (_ctx(c).get("windowsOptions") or {}).get("hostProcess") is True]
    return found


def host_namespaces(spec: Spec, annotations: Spec) -> list[str]:
    return [f"pod: {key}" for key in ("hostNetwork", "hostPID", "hostIPC") if spec.get(key) is True]


def privileged_containers(spec: Spec, annotations: Spec) -> list[str]:
    return [f"{n}: privileged" for n, c in containers(spec) if _ctx(c).get("privileged") is True]


def baseline_capabilities(spec: Spec, annotations: Spec) -> list[str]:
    return [f"{n}: adds {cap}" for n, c in containers(spec)
            for cap in ((_ctx(c).get("capabilities") or {}).get("add") or []) if cap not in BASELINE_CAPABILITIES]


def host_path_volumes(spec: Spec, annotations: Spec) -> list[str]:
    return [f"volume {v.get('name')}: hostPath" for v in spec.get("volumes") or [] if "hostPath" in v]


def host_ports(spec: Spec, annotations: Spec) -> list[str]:
    return [f"{n}: hostPort {p['hostPort']}" for n, c in containers(spec) for p in c.get("ports") or []
            if p.get("hostPort") not in (None, 0)]


def apparmor(spec: Spec, annotations: Spec) -> list[str]:
    found = []
    profiles = [("pod", (spec.get("securityContext") or {}).get("appArmorProfile"))]
    profiles += [(n, _ctx(c).get("appArmorProfile")) for n, c in containers(spec)]
    found += [f"{n}: appArmorProfile {p.get('type')}" for n, p in profiles
              if p and p.get("type") not in ("RuntimeDefault", "Localhost")]
    for key, value in annotations.items():
        if key.startswith("container.apparmor.security.beta.kubernetes.io/") and not (
                value == "runtime/default" or value.startswith("localhost/")):
            found.append(f"annotation {key}: {value}")
    return found


def selinux(spec: Spec, annotations: Spec) -> list[str]:
    options = [("pod", (spec.get("securityContext") or {}).get("seLinuxOptions"))]
    options += [(n, _ctx(c).get("seLinuxOptions")) for n, c in containers(spec)]
    found = []
    for name, opts in options:
        if not opts:
            continue
        if opts.get("type", "") not in SELINUX_TYPES:
            found.append(f"{name}: seLinuxOptions.type {opts['type']}")
        found += [f"{name}: seLinuxOptions.{key}" for key in ("user", "role") if opts.get(key)]
    return found


def proc_mount(spec: Spec, annotations: Spec) -> list[str]:
    return [f"{n}: procMount {_ctx(c)['procMount']}" for n, c in containers(spec)
            if _ctx(c).get("procMount") not in (None, "Default")]


def baseline_seccomp(spec: Spec, annotations: Spec) -> list[str]:
    profiles = [("pod", (spec.get("securityContext") or {}).get("seccompProfile"))]
    profiles += [(n, _ctx(c).get("seccompProfile")) for n, c in containers(spec)]
    return [f"{n}: seccompProfile Unconfined" for n, p in profiles if p and p.get("type") == "Unconfined"]


def sysctls(spec: Spec, annotations: Spec) -> list[str]:
    return [f"pod: sysctl {s.get('name')}" for s in (spec.get("securityContext") or {}).get("sysctls") or []
            if s.get("name") not in SAFE_SYSCTLS]


def volume_types(spec: Spec, annotations: Spec) -> list[str]:
    found = []
    for volume in spec.get("volumes") or []:
        sources = set(volume) - {"name"}
        found += [f"volume {volume.get('name')}: {source}" for source in sorted(sources - RESTRICTED_VOLUMES)]
    return found


def privilege_escalation(spec: Spec, annotations: Spec) -> list[str]:
    return [f"{n}: allowPrivilegeEscalation is not false" for n, c in containers(spec)
            if _ctx(c).get("allowPrivilegeEscalation") is not False]


def running_as_non_root(spec: Spec, annotations: Spec) -> list[str]:
    pod = (spec.get("securityContext") or {}).get("runAsNonRoot")
    found = []
    for name, container in containers(spec):
        own = _ctx(container).get("runAsNonRoot")
        if own is False or (own is None and pod is not True):
            found.append(f"{name}: runAsNonRoot is not true")
    return found


def running_as_non_root_user(spec: Spec, annotations: Spec) -> list[str]:
    found = ["pod: runAsUser 0"] if (spec.get("securityContext") or {}).get("runAsUser") == 0 else []
    return found + [f"{n}: runAsUser 0" for n, c in containers(spec) if _ctx(c).get("runAsUser") == 0]


def restricted_seccomp(spec: Spec, annotations: Spec) -> list[str]:
    pod = ((spec.get("securityContext") or {}).get("seccompProfile") or {}).get("type")
    found = [] if pod in (None, "RuntimeDefault", "Localhost") else [f"pod: seccompProfile {pod}"]
    for name, container in containers(spec):
        own = (_ctx(container).get("seccompProfile") or {}).get("type")
        if own is None and pod is None:
            found.append(f"{name}: no seccompProfile (pod or container)")
        elif own not in (None, "RuntimeDefault", "Localhost"):
            found.append(f"{name}: seccompProfile {own}")
    return found


def restricted_capabilities(spec: Spec, annotations: Spec) -> list[str]:
    found = []
    for name, container in containers(spec):
        caps = _ctx(container).get("capabilities") or {}
        if "ALL" not in (caps.get("drop") or []):
            found.append(f"{name}: capabilities do not drop ALL")
        found += [f"{name}: adds {cap}" for cap in caps.get("add") or [] if cap != "NET_BIND_SERVICE"]
    return found


#: every control of the restricted profile (the baseline ones first), by the page's name
CONTROLS: dict[str, Callable[[Spec, Spec], list[str]]] = {
    "HostProcess": host_process,
    "Host Namespaces": host_namespaces,
    "Privileged Containers": privileged_containers,
    "Capabilities (baseline)": baseline_capabilities,
    "HostPath Volumes": host_path_volumes,
    "Host Ports": host_ports,
    "AppArmor": apparmor,
    "SELinux": selinux,
    "/proc Mount Type": proc_mount,
    "Seccomp (baseline)": baseline_seccomp,
    "Sysctls": sysctls,
    "Volume Types": volume_types,
    "Privilege Escalation": privilege_escalation,
    "Running as Non-root": running_as_non_root,
    "Running as Non-root user": running_as_non_root_user,
    "Seccomp": restricted_seccomp,
    "Capabilities": restricted_capabilities,
}


def restricted_violations(spec: Spec, annotations: "Spec | None" = None) -> dict[str, list[str]]:
    """``{control: [what breaks it, ...]}`` for the controls that ``spec`` (a pod spec) breaks; empty: it passes."""
    found = {control: check(spec, annotations or {}) for control, check in CONTROLS.items()}
    return {control: items for control, items in found.items() if items}
