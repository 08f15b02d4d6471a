"""Probes of the container and network layer (issue 9): /dev/shm, resource limits, RDMA, MIG.

Fake roots with the kernel's sysfs layout (symbolic links from /sys/class/infiniband into /sys/devices)
live in tests/fixtures/fakeroots/rdma-*; the MIG root fakes nvidia-smi.  /dev/shm is measured on a real
tmpfs where the tests run as root, the limits on a child process whose limits prlimit / setrlimit set.

What a committed fixture cannot show: an empty GID table entry, which the kernel answers with EINVAL on
read, is an empty file there (read as "" all the same); the EINVAL path and the entry cap are tested through
a ProbeEnv whose open_bytes raises as sysfs does.  The erdma root holds only the port files the probe
reads (state, phys_state, link_layer) and no GID table: its rate and GID types are not asserted.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap

import pytest

from checks_core_helpers import REPO, fakeroot, probe_root, run_cli
from lingjun.checks.facts import Facts, MigDeviceFacts, RdmaDeviceFacts, RdmaFacts, RdmaPortFacts
from lingjun.checks.inputs.collect_env_text import parse_collect_env
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict, read_snapshot, redact, write_snapshot
from lingjun.checks.probes import limits, nvidia_smi, nvml, rdma, shm
from lingjun.checks.probes._base import ProbeEnv
from lingjun.checks.probes._collect import collect
from lingjun.checks.probes._mig import parse_mig_line

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _ports(facts: Facts) -> dict:
    return {(d.name, p.port): (p.state, p.phys_state, p.link_layer, p.rate) for d in facts.rdma.devices for p in d.ports}


# -- RDMA ------------------------------------------------------------------------------------------


def test_roce_bond_root_active_and_down_ports_with_gid_types():
    facts = probe_root("rdma-roce-bond", probes=["rdma"])
    assert [(d.name, d.uverbs, d.node_guid) for d in facts.rdma.devices] == [("mlx5_bond_0", "uverbs0", None), ("mlx5_bond_1", "uverbs1", None)]
    assert _ports(facts) == {
        ("mlx5_bond_0", 1): ("ACTIVE", "LinkUp", "Ethernet", "200 Gb/sec (2X HDR)"),
        ("mlx5_bond_1", 1): ("DOWN", "Disabled", "Ethernet", "10 Gb/sec (1X QDR)"),
    }
    bond0 = facts.rdma.devices[0].ports[0]
    assert bond0.gid_types == ["IB/RoCE v1", "RoCE v2", "IB/RoCE v1", "RoCE v2", "", "", "", ""]
    assert bond0.gids == []  # identifiers: only with --include-ids
    assert facts.rdma.uverbs_nodes == ["/dev/infiniband/uverbs0", "/dev/infiniband/uverbs1"]  # rdma_cm is not a verbs node
    assert facts.rdma.uverbs_accessible is None  # not tried under --root
    assert "rdma" not in facts.coverage.not_available


def test_roce_bond_ids_only_when_asked():
    env = ProbeEnv(root=fakeroot("rdma-roce-bond"), environ={"PATH": "/usr/bin"}, include_ids=True)
    facts = collect(env, ["rdma"])
    bond0 = facts.rdma.devices[0]
    assert bond0.node_guid == "02c9:0203:0000:0001"
    assert bond0.ports[0].gids[:4] == [
        "fe80:0000:0000:0000:02c9:02ff:fe00:0001",
        "fe80:0000:0000:0000:02c9:02ff:fe00:0001",
        "0000:0000:0000:0000:0000:ffff:c000:0207",
        "0000:0000:0000:0000:0000:ffff:c000:0207",
    ]
    assert len(bond0.ports[0].gids) == len(bond0.ports[0].gid_types) == 8


def test_sysfs_devices_without_uverbs_nodes():
    facts = probe_root("rdma-no-uverbs", probes=["rdma"])
    assert [(d.name, d.uverbs) for d in facts.rdma.devices] == [("mlx5_0", "uverbs0"), ("mlx5_1", "uverbs1")]
    assert {p[2] for p in _ports(facts).values()} == {"InfiniBand"}
    assert facts.rdma.devices[0].ports[0].gid_types == ["IB/RoCE v1", "", "", ""]
    assert facts.rdma.uverbs_nodes == [] and facts.rdma.uverbs_accessible is None


def test_erdma_device():
    facts = probe_root("rdma-erdma", probes=["rdma"])
    assert [(d.name, d.uverbs) for d in facts.rdma.devices] == [("erdma_0", "uverbs0")]
    assert _ports(facts) == {("erdma_0", 1): ("ACTIVE", "LinkUp", "Ethernet", None)}
    assert facts.rdma.devices[0].ports[0].gid_types == []  # no GID table files: none read, nothing invented
    assert facts.rdma.uverbs_nodes == ["/dev/infiniband/uverbs0"]


def test_no_rdma_at_all_is_observed_absent(tmp_path):
    facts = collect(ProbeEnv(root=str(tmp_path), environ={}), ["rdma"])
    assert facts.rdma == RdmaFacts() and "rdma" not in facts.coverage.not_available


class _SysfsEnv(ProbeEnv):
    """A GID table of ``size`` entries where entries in ``empty`` fail to read as the kernel's do (EINVAL)."""

    def __init__(self, root: str, size: int, empty: set, **kw) -> None:
        super().__init__(root=root, environ={}, **kw)
        self.size, self.empty, self.reads = size, empty, 0

    def open_bytes(self, path: str, limit: int = 1 << 20) -> bytes:
        if "/gid_attrs/types/" in path or "/gids/" in path:
            self.reads += 1
            index = int(path.rsplit("/", 1)[1])
            if index >= self.size:
                raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
            if index in self.empty:
                raise OSError(errno.EINVAL, "Invalid argument", path)
            return b"RoCE v2\n" if "/types/" in path else b"fe80:0000:0000:0000:0000:0000:0000:0001\n"
        return super().open_bytes(path, limit)


def test_gid_table_empty_entries_and_cap():
    root = fakeroot("rdma-roce-bond")
    env = _SysfsEnv(root, size=255, empty={2, 5})
    types = rdma._gid_table(env, "/sys/class/infiniband/mlx5_bond_0/ports/1", "types")
    assert len(types) == rdma.MAX_GID_ENTRIES == 32 and env.reads == 32  # 255 entries, the first 32 read
    assert types[2] == types[5] == "" and types[0] == types[31] == "RoCE v2"
    short = _SysfsEnv(root, size=3, empty=set())
    assert rdma._gid_table(short, "/x", "types") == ["RoCE v2"] * 3 and short.reads == 4  # stops at the table's end


def test_device_and_port_caps_are_recorded(tmp_path):
    base = tmp_path / "sys" / "class" / "infiniband"
    for i in range(rdma.MAX_DEVICES + 2):
        (base / f"mlx5_{i:02d}" / "ports").mkdir(parents=True)
    for n in range(1, rdma.MAX_PORTS + 3):
        (base / "mlx5_00" / "ports" / str(n)).mkdir()
        (base / "mlx5_00" / "ports" / str(n) / "state").write_text("4: ACTIVE\n")
    facts = collect(ProbeEnv(root=str(tmp_path), environ={}), ["rdma"])
    assert len(facts.rdma.devices) == rdma.MAX_DEVICES
    assert [p.port for p in facts.rdma.devices[0].ports] == [1, 2, 3, 4]
    record = facts.probes[0]
    assert record.ok and record.error == f"read {rdma.MAX_DEVICES} of {rdma.MAX_DEVICES + 2} devices; mlx5_00: read 4 of 6 ports"


@pytest.mark.parametrize("text, word", [("4: ACTIVE", "ACTIVE"), ("5: LinkUp\n", "LinkUp"), ("1: DOWN", "DOWN"), ("ACTIVE", "ACTIVE"), ("", None), (None, None)])
def test_state_word(text, word):
    assert rdma.state_word(text) == word


def test_open_state_on_real_nodes(tmp_path):
    assert rdma.open_state([]) is None
    regular = tmp_path / "uverbs0"
    regular.write_text("")
    assert rdma.open_state([str(regular)]) is False  # not a character device: not a usable verbs node
    if not IS_ROOT:
        pytest.skip("making a character device node needs root")
    node = tmp_path / "uverbs1"
    try:
        os.mknod(str(node), stat.S_IFCHR | 0o600, os.makedev(1, 3))  # the null device under another name
    except OSError as exc:
        pytest.skip(f"mknod not allowed here: {exc}")
    try:
        opened = rdma.open_state([str(node)])
    except OSError:  # pragma: no cover
        opened = None
    if opened is None:
        pytest.skip("the tmp file system does not allow device nodes (nodev)")
    assert opened is True
    # an unprivileged user may not open a root-owned 0600 node: EACCES -> False (asked in a forked child as nobody)
    os.chmod(str(tmp_path), 0o755)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 3
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            code = {False: 0, True: 1, None: 2}[rdma.open_state([str(node)])]
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status


# -- /dev/shm --------------------------------------------------------------------------------------


def test_mountinfo_parsing_and_fs_type():
    text = textwrap.dedent("""\
        21 1 0:20 / / rw - overlay overlay rw
        25 21 0:23 / /dev/shm rw,relatime - tmpfs shm rw,size=65536k
        30 25 0:27 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=8388608k
        31 21 0:28 / /mnt/my\\040disk rw - ext4 /dev/sda1 rw
        broken line
    """)
    mounts = shm.parse_mountinfo(text)
    assert mounts == [("/", "overlay"), ("/dev/shm", "tmpfs"), ("/dev/shm", "tmpfs"), ("/mnt/my disk", "ext4")]
    assert shm.fs_type_of(mounts, "/dev/shm") == "tmpfs"
    assert shm.fs_type_of(mounts, "/mnt/my disk/x") == "ext4"
    assert shm.fs_type_of(mounts, "/dev/shmx") == "overlay"  # a name sharing a prefix is not under /dev/shm
    assert shm.fs_type_of(mounts, "/srv/data", exact=True) is None
    assert shm.fs_type_of([], "/dev/shm") is None


def test_host_ipc_from_the_namespace_inode():
    assert shm.host_ipc_from_link("ipc:[4026531839]") is True  # PROC_IPC_INIT_INO
    assert shm.host_ipc_from_link("ipc:[4026532417]") is False
    assert shm.host_ipc_from_link(None) is None
    assert shm.host_ipc_from_link("net:[4026531840]") is None


def test_live_shm_matches_statvfs():
    if not os.path.isdir("/dev/shm"):
        pytest.skip("no /dev/shm on this system")
    facts = collect(ProbeEnv(), ["shm"])
    st = os.statvfs("/dev/shm")
    assert facts.shm.present is True
    assert facts.shm.size_bytes == st.f_blocks * st.f_frsize
    try:
        link = os.readlink("/proc/self/ns/ipc")
    except OSError:
        link = None
    assert facts.shm.host_ipc is shm.host_ipc_from_link(link)


def test_fake_root_shm_folder_is_not_measured():
    facts = probe_root("rdma-roce-bond", probes=["shm"])
    # a plain folder, not a mount: its size says nothing about the container's; the root's mount table says tmpfs
    assert (facts.shm.present, facts.shm.size_bytes, facts.shm.used_bytes, facts.shm.fs_type, facts.shm.host_ipc) == (True, None, None, "tmpfs", None)
    absent = probe_root("rdma-erdma", probes=["shm"])
    assert absent.shm.present is None  # a folder without dev/shm: the runtime mounts it at start


@pytest.fixture()
def tmpfs_root(tmp_path):
    """A root whose /dev/shm is a real 64 MiB tmpfs (root only)."""
    if not IS_ROOT:
        pytest.skip("mounting a tmpfs for /dev/shm needs root")
    target = tmp_path / "dev" / "shm"
    target.mkdir(parents=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(target)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"mount -t tmpfs failed here: {done.stderr.strip()}")
    try:
        yield tmp_path
    finally:
        subprocess.run(["umount", str(target)], check=False)


def test_real_tmpfs_shm_under_root(tmpfs_root):
    (tmpfs_root / "dev" / "shm" / "buffer").write_bytes(b"\0" * (4 << 20))
    facts = collect(ProbeEnv(root=str(tmpfs_root), environ={}), ["shm"])
    assert facts.shm.present is True
    assert facts.shm.size_bytes == 64 * 1024 * 1024
    assert facts.shm.used_bytes == 4 * 1024 * 1024
    assert facts.shm.fs_type == "tmpfs"  # this host's mount table, at the measured folder
    assert facts.shm.host_ipc is None


# -- limits ----------------------------------------------------------------------------------------

_LIMITS_CHILD = (
    "import json\n"
    "from lingjun.checks.probes._base import ProbeEnv\n"
    "from lingjun.checks.probes._collect import collect\n"
    "f = collect(ProbeEnv(), ['limits'])\n"
    "print(json.dumps([f.to_dict()['limits'], f.coverage.not_available]))\n"
)


def _limits_child(prefix: list, preexec=None) -> dict:
    child = subprocess.run(prefix + [sys.executable, "-c", _LIMITS_CHILD], capture_output=True, text=True, cwd=str(REPO),
                           preexec_fn=preexec, timeout=60)
    assert child.returncode == 0, child.stderr
    values, not_available = json.loads(child.stdout)
    assert "limits" not in not_available
    return values


def test_limits_set_by_prlimit():
    if not shutil.which("prlimit"):
        pytest.skip("prlimit (util-linux) is not installed")
    import resource

    hard_lock = resource.getrlimit(resource.RLIMIT_MEMLOCK)[1]
    if hard_lock != resource.RLIM_INFINITY and hard_lock < 4 * 1024 * 1024:
        pytest.skip("the memlock hard limit here is below the 4 MiB this test sets")
    got = _limits_child(["prlimit", "--memlock=65536:4194304", "--nofile=1024:4096"])
    assert (got["memlock_soft"], got["memlock_hard"], got["nofile_soft"], got["nofile_hard"]) == (65536, 4194304, 1024, 4096)


def test_limits_set_by_setrlimit_in_the_child():
    import resource

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_MEMLOCK, (32768, 32768))
        resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512))

    got = _limits_child([], preexec=lower)
    assert (got["memlock_soft"], got["memlock_hard"], got["nofile_soft"], got["nofile_hard"]) == (32768, 32768, 512, 512)
    with open("/proc/self/status", encoding="utf-8") as fh:
        assert got["cap_ipc_lock"] is limits.cap_from_status(fh.read())  # the child inherits this process's capabilities


def test_cap_ipc_lock_dropped_by_setpriv():
    if not IS_ROOT or not shutil.which("setpriv"):
        pytest.skip("dropping a capability from the bounding set needs root and setpriv")
    probe = subprocess.run(["setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"setpriv cannot change the bounding set here: {probe.stderr.strip()}")
    got = _limits_child(["setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock"])
    assert got["cap_ipc_lock"] is False


def test_cap_from_status_and_unlimited():
    import resource

    assert limits.cap_from_status("Name:\tx\nCapEff:\t000001ffffffffff\n") is True
    assert limits.cap_from_status("CapEff:\t000001fffeffbfff\n") is False  # bit 14 cleared
    assert limits.cap_from_status("CapEff:\t0000000000004000\n") is True
    assert limits.cap_from_status("CapEff:\tzz\n") is None
    assert limits.cap_from_status("Name:\tx\n") is None
    assert limits.rlimit_value(resource.RLIM_INFINITY) == -1
    assert limits.rlimit_value(8388608) == 8388608


def test_limits_under_root_are_not_available():
    facts = probe_root("rdma-roce-bond", probes=["limits"])
    assert facts.limits.memlock_soft is None and facts.limits.cap_ipc_lock is None
    assert "limits" in facts.coverage.not_available
    assert facts.probes[0].ok and facts.probes[0].error == limits.NOT_LIVE


# -- MIG -------------------------------------------------------------------------------------------


def test_mig_from_fake_nvidia_smi_list():
    facts = probe_root("mig-smi", probes=["nvml", "nvidia_smi"], run_root_programs=True)
    assert [(g.index, g.mig_mode) for g in facts.nvidia_smi.gpus] == [(0, True), (1, None)]
    assert [(m.gpu_index, m.index, m.profile, m.uuid) for m in facts.mig_devices] == [(0, 0, "3g.40gb", None), (0, 1, "3g.40gb", None)]
    assert facts.nvidia_smi.cuda_version == "12.2"


def test_mig_uuids_only_with_ids():
    env = ProbeEnv(root=fakeroot("mig-smi"), environ={"PATH": "/usr/bin:/bin"}, include_ids=True, run_root_programs=True)
    facts = collect(env, ["nvml", "nvidia_smi"])
    assert [m.uuid for m in facts.mig_devices] == ["MIG-aaaaaaaa-1111-5222-8333-444444444444", "MIG-bbbbbbbb-1111-5222-8333-444444444444"]


def test_mig_list_that_hangs_is_cut_off(tmp_path):
    """nvidia-smi answers the query but -L hangs: the probe keeps the GPUs, records no MIG list and stays in time."""
    (tmp_path / "usr" / "bin").mkdir(parents=True)
    script = tmp_path / "usr" / "bin" / "nvidia-smi"
    script.write_text('#!/bin/sh\ncase "$1" in\n  --query-gpu=*) echo "535.161.08, NVIDIA A100-SXM4-80GB, 8.0, 81920";;\n'
                      '  -L) sleep 30;;\n  *) echo "| NVIDIA-SMI 535.161.08   Driver Version: 535.161.08   CUDA Version: 12.2 |";;\nesac\n')
    script.chmod(0o755)
    env = ProbeEnv(root=str(tmp_path), environ={"PATH": "/usr/bin"}, timeout=1.5, run_root_programs=True)
    facts = collect(env, ["nvml", "nvidia_smi"])
    record = next(p for p in facts.probes if p.name == "nvidia-smi")
    assert record.ok and not record.timed_out and record.seconds < 2.0
    assert record.error == "nvidia-smi -L gave no answer in the time left: MIG devices not known"
    assert [g.name for g in facts.nvidia_smi.gpus] == ["NVIDIA A100-SXM4-80GB"] and facts.nvidia_smi.gpus[0].mig_mode is None
    assert facts.mig_devices == [] and facts.nvidia_smi.cuda_version == "12.2"  # the banner came first


@pytest.mark.parametrize("line, parsed", [
    ("  MIG 3g.40gb     Device  0: (UUID: MIG-aaaaaaaa-1111-5222-8333-444444444444)", ("3g.40gb", 0, "MIG-aaaaaaaa-1111-5222-8333-444444444444")),
    ("  MIG 1g.5gb Device 6: (UUID: MIG-GPU-0b1c2d3e-aaaa-bbbb-cccc-dddddddddddd/13/0)", ("1g.5gb", 6, "MIG-GPU-0b1c2d3e-aaaa-bbbb-cccc-dddddddddddd/13/0")),
    ("MIG 3g.40gb Device 1:", ("3g.40gb", 1, None)),
    ("GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-0)", None),
    ("MIG mode: Enabled", None),
])
def test_parse_mig_line(line, parsed):
    assert parse_mig_line(line) == parsed


def test_parse_list_keeps_parents_and_nvml_profile_names():
    text = "GPU 0: A (UUID: GPU-0)\nGPU 1: B (UUID: GPU-1)\n  MIG 7g.80gb     Device  0: (UUID: MIG-1)\n"
    assert [(m.gpu_index, m.index, m.profile, m.uuid) for m in nvidia_smi.parse_list(text, with_ids=False)] == [(1, 0, "7g.80gb", None)]
    assert nvidia_smi.parse_list("  MIG 1g.10gb Device 0:\n", with_ids=True)[0].gpu_index is None
    assert nvml.mig_profile("NVIDIA A100-SXM4-80GB MIG 3g.40gb") == "3g.40gb"
    assert nvml.mig_profile("NVIDIA H100 80GB HBM3 MIG 1g.10gb+me") == "1g.10gb+me"
    assert nvml.mig_profile("NVIDIA H20") is None


def test_collect_env_keeps_mig_lines_t04():
    text = (REPO / "tests" / "fixtures" / "reports" / "T04-pytorch-130181-mig.txt").read_text(encoding="utf-8")
    facts = parse_collect_env(text)
    assert [(g.index, g.name, g.mig_mode) for g in facts.nvidia_smi.gpus] == [(0, "NVIDIA A100-SXM4-80GB", True)]
    assert [(m.gpu_index, m.index, m.profile, m.uuid) for m in facts.mig_devices] == [(0, 0, "3g.40gb", None), (0, 1, "3g.40gb", None)]
    assert "mig" in facts.coverage.partial
    assert {"shm", "limits", "rdma"} <= set(facts.coverage.not_available)


def test_collect_env_with_uuids_drops_them_and_a_gpu_without_mig_stays_unknown():
    text = textwrap.dedent("""\
        PyTorch version: 2.3.0+cu121
        GPU models and configuration:
        GPU 0: NVIDIA A100-SXM4-40GB
        GPU 1: NVIDIA A100-SXM4-40GB
          MIG 1g.5gb      Device  0: (UUID: MIG-11111111-2222-3333-4444-555555555555)
        Nvidia driver version: 535.54.03
    """)
    facts = parse_collect_env(text)
    assert [(g.index, g.mig_mode) for g in facts.nvidia_smi.gpus] == [(0, None), (1, True)]
    assert [(m.gpu_index, m.index, m.profile, m.uuid) for m in facts.mig_devices] == [(1, 0, "1g.5gb", None)]


# -- snapshot: redaction, reading, the command line -------------------------------------------------


def _facts_with_ids() -> Facts:
    facts = Facts()
    facts.mig_devices = [MigDeviceFacts(gpu_index=0, index=0, profile="3g.40gb", uuid="MIG-aaaa")]
    port = RdmaPortFacts(port=1, state="ACTIVE", link_layer="Ethernet", gid_types=["IB/RoCE v1", "RoCE v2"], gids=["fe80::1", "fe80::1"])
    facts.rdma.devices = [RdmaDeviceFacts(name="mlx5_bond_0", ports=[port], uverbs="uverbs0", node_guid="02c9:0203:0000:0001")]
    return facts


def test_redaction_drops_rdma_and_mig_identifiers():
    facts = _facts_with_ids()
    red = redact(facts)
    assert red.mig_devices[0].uuid is None and red.mig_devices[0].profile == "3g.40gb"
    device = red.rdma.devices[0]
    assert device.node_guid is None and device.ports[0].gids == [] and device.ports[0].gid_types == ["IB/RoCE v1", "RoCE v2"]
    assert facts.rdma.devices[0].node_guid == "02c9:0203:0000:0001"  # the original is untouched
    kept = redact(facts, include_ids=True)
    assert kept.mig_devices[0].uuid == "MIG-aaaa" and kept.rdma.devices[0].ports[0].gids == ["fe80::1", "fe80::1"]


def test_snapshot_reading_checks_the_new_fields():
    data = Facts().to_dict()
    data["shm"] = {"present": True, "size_bytes": "64m", "fs_type": "tmpfs"}
    data["limits"] = {"memlock_soft": 8388608, "cap_ipc_lock": "yes"}
    data["rdma"] = {"devices": [{"name": "mlx5_0", "ports": [{"port": "one", "state": "ACTIVE"}, {"port": 2, "gid_types": "RoCE v2"}]},
                                {"ports": []}], "uverbs_nodes": ["/dev/infiniband/uverbs0"]}
    data["mig_devices"] = [{"gpu_index": 0, "index": 0, "profile": "3g.40gb"}, "MIG 3g.40gb"]
    facts, problems = facts_from_snapshot_dict(data)
    assert problems[:5] == [  # in the order of the Facts fields
        "mig_devices[1]: expected an object, got a string; ignored",
        "shm.size_bytes: expected an integer, got '64m'; ignored",
        "limits.cap_ipc_lock: expected true/false, got 'yes'; ignored",
        "rdma.devices[0].ports[0].port: expected an integer, got 'one'; ignored",
        "rdma.devices[0].ports[0]: no usable port, so the entry was ignored",
    ]
    assert problems[5:] == ["rdma.devices[0].ports[1].gid_types: expected a list, got a string; ignored",
                            "rdma.devices[1]: no usable name, so the entry was ignored"]
    assert (facts.shm.present, facts.shm.size_bytes, facts.shm.fs_type) == (True, None, "tmpfs")
    assert (facts.limits.memlock_soft, facts.limits.cap_ipc_lock) == (8388608, None)
    # a port whose number is unusable cannot be told apart from the others: dropped, not defaulted to port 1
    assert [(p.port, p.state, p.gid_types) for p in facts.rdma.devices[0].ports] == [(2, None, [])]
    assert len(facts.rdma.devices) == 1 and facts.mig_devices == [MigDeviceFacts(gpu_index=0, index=0, profile="3g.40gb")]


def test_snapshot_without_the_new_sections_marks_them_not_available():
    data = Facts().to_dict()
    for key in ("shm", "limits", "rdma", "mig_devices"):
        del data[key]
    data["probes"] = []
    facts, _ = facts_from_snapshot_dict(data)
    assert {"shm", "limits", "rdma", "mig"} <= set(facts.coverage.not_available)


def test_collect_then_from_through_the_cli(tmp_path):
    out = tmp_path / "facts.json"
    result = run_cli("--root", fakeroot("rdma-roce-bond"), "--collect", str(out), "--format", "json", env={"PATH": "/usr/bin:/bin"})
    assert result.returncode in (0, 1), result.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert [d["name"] for d in data["rdma"]["devices"]] == ["mlx5_bond_0", "mlx5_bond_1"]
    assert data["rdma"]["devices"][0]["node_guid"] is None and data["rdma"]["devices"][0]["ports"][0]["gids"] == []
    assert data["rdma"]["devices"][0]["ports"][0]["gid_types"][:2] == ["IB/RoCE v1", "RoCE v2"]
    assert data["shm"]["fs_type"] == "tmpfs" and data["limits"]["memlock_soft"] is None
    assert "limits" in data["coverage"]["not_available"] and "rdma" not in data["coverage"]["not_available"]
    back, problems = read_snapshot(str(out))
    assert problems == [] and back.rdma.devices[1].ports[0].state == "DOWN"
    assert "limits" in back.coverage.not_available
    again = run_cli("--from", str(out), "--format", "json")
    assert again.returncode in (0, 1), again.stderr
    assert json.loads(again.stdout)["facts"]["coverage"]["not_available"] == ["limits"]  # the snapshot keeps what the probe could not know


def test_write_snapshot_with_ids_keeps_them(tmp_path):
    path = tmp_path / "s.json"
    write_snapshot(_facts_with_ids(), str(path), include_ids=True)
    back, problems = read_snapshot(str(path))
    assert problems == [] and back.rdma.devices[0].node_guid == "02c9:0203:0000:0001" and back.mig_devices[0].uuid == "MIG-aaaa"


class _FakeNvml:
    """The NVML calls the MIG code makes, answering through ctypes pointers as libnvidia-ml does.

    GPU handle 0: MIG enabled with MIG devices in slots 0 and 2 of 7 (slot 1 is NVML_ERROR_NOT_FOUND);
    handle 1: MIG disabled; handle 2: NVML_ERROR_NOT_SUPPORTED (a GPU without MIG).
    """

    NAMES = {1000: b"NVIDIA A100-SXM4-80GB MIG 3g.40gb", 1002: b"NVIDIA A100-SXM4-80GB MIG 2g.20gb"}

    def nvmlDeviceGetMigMode(self, handle, current, pending):
        if handle == 2:
            return 3
        current._obj.value = 1 if handle == 0 else 0
        pending._obj.value = current._obj.value
        return 0

    def nvmlDeviceGetMaxMigDeviceCount(self, handle, count):
        count._obj.value = 7
        return 0

    def nvmlDeviceGetMigDeviceHandleByIndex(self, handle, slot, out):
        if slot.value not in (0, 2):
            return 6  # NVML_ERROR_NOT_FOUND
        out._obj.value = 1000 + slot.value
        return 0

    def nvmlDeviceGetName(self, handle, buf, size):
        buf.value = self.NAMES[handle.value]
        return 0

    def nvmlDeviceGetUUID(self, handle, buf, size):
        buf.value = b"MIG-%d" % handle.value
        return 0


def test_nvml_mig_mode_and_devices_through_ctypes_pointers():
    lib = _FakeNvml()
    assert [nvml._mig_mode(lib, h) for h in (0, 1, 2)] == [True, False, False]
    assert nvml._mig_mode(object(), 0) is None  # a driver before MIG has no nvmlDeviceGetMigMode
    found = nvml._mig_devices(ProbeEnv(environ={}), lib, 3, 0)
    assert [(m.gpu_index, m.index, m.profile, m.uuid) for m in found] == [(3, 0, "3g.40gb", None), (3, 1, "2g.20gb", None)]
    with_ids = nvml._mig_devices(ProbeEnv(environ={}, include_ids=True), lib, 3, 0)
    assert [m.uuid for m in with_ids] == ["MIG-1000", "MIG-1002"]
