"""Each probe against the committed fake roots (tests/fixtures/fakeroots)."""

from __future__ import annotations

import pytest

from checks_core_helpers import fakeroot, probe_root
from lingjun.checks.probes import cudnn, driver_proc, loader, nccl, network, torch_build
from lingjun.checks.probes._base import ProbeEnv


# -- /proc/driver/nvidia/version ------------------------------------------------


@pytest.mark.parametrize(
    "line, version, flavor",
    [
        ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.124.06  Tue Feb 11 01:31:19 UTC 2025", "570.124.06", "proprietary"),
        ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  555.58.02  Release Build  (dvs-builder@U16)  Tue Jun 25", "555.58.02", "open"),
        ("NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.95.05  Release Build  (dvs-builder@U22)", "580.95.05", "open"),
        ("NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.104.05  Sat Aug 19 01:13:15 UTC 2023", "535.104.05", "proprietary"),
        ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.57.02  Tue Jul 13 16:14:05 UTC 2021 (VirtualGPU)", "470.57.02", "proprietary"),
        ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  455.23  Fri Sep 18 19:50:53 UTC 2020", "455.23", "proprietary"),
    ],
)
def test_nvrm_line_formats(line, version, flavor):
    assert driver_proc.parse_nvrm(line + "\nGCC version:  gcc version 12.3.0\n") == (version, flavor)


@pytest.mark.parametrize("text", ["", "GCC version: 12", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  banana", "NVRM version: Kernel Module"])
def test_nvrm_garbage_is_not_a_version(text):
    assert driver_proc.parse_nvrm(text) == (None, None)


def test_proprietary_root_driver_and_device_nodes():
    facts = probe_root("proprietary-x86", probes=["driver_proc", "devices"])
    assert facts.driver.kernel_module_version == "570.124.06"
    assert facts.driver.kernel_module_flavor == "proprietary"
    # GPU nodes in numeric order (nvidia10 after nvidia2)
    assert facts.driver.device_nodes == ["/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2", "/dev/nvidia10", "/dev/nvidia-uvm", "/dev/nvidiactl"]
    assert facts.driver.device_nodes_accessible is True


def test_open_aarch64_root_driver():
    facts = probe_root("open-aarch64-compat", probes=["driver_proc"])
    assert (facts.driver.kernel_module_version, facts.driver.kernel_module_flavor) == ("555.58.02", "open")


def test_missing_proc_file_is_absent():
    facts = probe_root("hanging-smi", probes=["driver_proc"])
    assert facts.driver.kernel_module_version is None
    assert facts.driver.proc_version_error == "absent"


# -- loader order, libcuda, NVML library -------------------------------------------


def test_ld_so_conf_order_follows_include_glob_sorted():
    facts = probe_root("proprietary-x86", probes=["loader"])
    assert [c.file for c in facts.loader.ld_so_conf] == [
        "/etc/ld.so.conf.d/libc.conf",
        "/etc/ld.so.conf.d/x86_64-linux-gnu.conf",
        "/etc/ld.so.conf.d/zz-cuda.conf",
    ]
    assert facts.loader.ld_so_conf[1].dirs == ["/usr/local/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"]


def test_ld_library_path_split_keeps_order_and_drops_empty_entries():
    assert loader.split_ld_library_path("/a::/b;/c:") == ["/a", "/b", "/c"]
    assert loader.split_ld_library_path(None) == []


def test_search_dirs_order_and_provenance():
    facts = probe_root("open-aarch64-compat", environ={"LD_LIBRARY_PATH": "/opt/nccl/lib"}, probes=["loader"])
    dirs = loader.search_dirs(facts.loader, ["/site/nvidia/nccl/lib"])
    assert [(d.path, d.via) for d in dirs[:4]] == [
        ("/opt/nccl/lib", "LD_LIBRARY_PATH"),
        ("/site/nvidia/nccl/lib", "wheel"),
        ("/usr/local/cuda/compat", "ld.so.conf"),
        ("/usr/local/lib/aarch64-linux-gnu", "ld.so.conf"),
    ]


def test_libcuda_from_host_driver():
    facts = probe_root("proprietary-x86", probes=["libcuda", "nvml"])
    assert facts.libcuda.path == "/usr/lib/x86_64-linux-gnu/libcuda.so.1"
    assert facts.libcuda.real_path == "/usr/lib/x86_64-linux-gnu/libcuda.so.570.124.06"
    assert facts.libcuda.file_version == "570.124.06"
    assert facts.libcuda.is_forward_compat is False
    assert facts.libcuda.driver_api_version is None  # ctypes is never used on a fake root
    assert facts.nvml.library_path == "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"
    assert facts.nvml.library_version == "570.124.06"
    assert facts.nvml.init_ok is None


def test_compat_libcuda_registered_first_shadows_host():
    facts = probe_root("open-aarch64-compat", probes=["libcuda"])
    assert facts.libcuda.candidates == ["/usr/local/cuda/compat/libcuda.so.1", "/usr/lib/aarch64-linux-gnu/libcuda.so.1"]
    assert facts.libcuda.path == "/usr/local/cuda/compat/libcuda.so.1"
    assert facts.libcuda.real_path == "/usr/local/cuda-12.8/compat/libcuda.so.570.86.10"
    assert facts.libcuda.file_version == "570.86.10"
    assert facts.libcuda.is_forward_compat is True


def test_ld_library_path_puts_host_libcuda_first():
    facts = probe_root("open-aarch64-compat", environ={"LD_LIBRARY_PATH": "/usr/lib/aarch64-linux-gnu"}, probes=["libcuda"])
    assert facts.libcuda.file_version == "555.58.02"
    assert facts.libcuda.is_forward_compat is False


def test_compat_path_detection():
    from lingjun.checks.probes.libcuda import is_compat_path

    assert is_compat_path("/usr/local/cuda-12.8/compat/lib.real/libcuda.so.1")
    assert is_compat_path(None, "/opt/cuda-compat-12-8/libcuda.so.1")
    assert not is_compat_path("/usr/lib/x86_64-linux-gnu/libcuda.so.1")


# -- CUDA toolkit -------------------------------------------------------------------


def test_toolkit_version_json_through_absolute_symlink_inside_root():
    facts = probe_root("proprietary-x86", environ={"CUDA_VERSION": "12.8.1.012", "CUDA_DRIVER_VERSION": "570.124.06"}, probes=["cuda_toolkit"])
    assert facts.cuda.toolkit_version == "12.8.1"
    assert facts.cuda.version_file == "/usr/local/cuda/version.json"
    assert facts.cuda.env_cuda_version == "12.8.1.012"
    assert facts.cuda.env_compat_driver_version == "570.124.06"
    assert facts.cuda.compat_dir is None


def test_toolkit_version_txt_and_compat_dir():
    facts = probe_root("open-aarch64-compat", probes=["cuda_toolkit"])
    assert facts.cuda.toolkit_version == "12.8.0"
    assert facts.cuda.version_file == "/usr/local/cuda/version.txt"
    assert facts.cuda.compat_dir == "/usr/local/cuda/compat"
    assert facts.cuda.compat_libcuda_version == "570.86.10"


# -- cuDNN and NCCL -----------------------------------------------------------------


@pytest.mark.parametrize("value, text", [(91002, "9.10.2"), (90100, "9.1.0"), (8905, "8.9.5"), (8200, "8.2.0"), (7605, "7.6.5"), (12, None)])
def test_cudnn_integer_formulas(value, text):
    assert cudnn.decode_cudnn_int(value) == text


@pytest.mark.parametrize("value, text", [(21701, "2.17.1"), (22703, "2.27.3"), (2804, "2.8.4"), (2708, "2.7.8"), (5, None)])
def test_nccl_version_code_formulas(value, text):
    assert nccl.decode_nccl_code(value) == text


def test_cudnn_header_v8_layout():
    assert cudnn.parse_cudnn_header("#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n") == "8.9.7"
    assert cudnn.parse_cudnn_header("#define CUDNN_VERSION 8700\n") == "8.7.0"
    assert cudnn.parse_cudnn_header("#define CUDNN_MAJOR nine\n") is None


def test_nccl_header_prefers_fields_over_code():
    text = '#define NCCL_MAJOR 2\n#define NCCL_MINOR 27\n#define NCCL_PATCH 5\n#define NCCL_SUFFIX "+cuda12.9"\n#define NCCL_VERSION_CODE 22705\n'
    assert nccl.parse_nccl_header(text) == "2.27.5"
    assert nccl.parse_nccl_header("#define NCCL_VERSION_CODE 21903 // 2.19.3\n") == "2.19.3"


def test_cudnn_system_library_and_header():
    facts = probe_root("proprietary-x86", probes=["cudnn"])
    assert facts.cudnn.header_version == "9.10.2"
    assert facts.cudnn.header_path == "/usr/include/x86_64-linux-gnu/cudnn_version_v9.h"
    assert facts.cudnn.resolved is not None
    assert (facts.cudnn.resolved.path, facts.cudnn.resolved.version, facts.cudnn.resolved.via) == (
        "/usr/lib/x86_64-linux-gnu/libcudnn.so.9",
        "9.10.2",
        "ld.so.conf",
    )


def test_nccl_wheel_resolution_and_torch_pin():
    facts = probe_root("proprietary-x86", probes=["nccl"])
    assert facts.nccl.expected_by_torch == "2.26.2"
    assert [(w.name, w.version, w.cuda_major) for w in facts.nccl.wheels] == [("nvidia-nccl-cu12", "2.26.2", 12)]
    assert facts.nccl.header_version == "2.26.2"
    assert facts.nccl.resolved is not None
    assert facts.nccl.resolved.via == "wheel"
    assert facts.nccl.resolved.version == "2.26.2"  # the wheel file has no version in its name


def test_nccl_on_ld_library_path_shadows_wheel_and_two_cuda_majors_seen():
    facts = probe_root("open-aarch64-compat", environ={"LD_LIBRARY_PATH": "/opt/nccl/lib", "NCCL_VERSION": "2.18.3"}, probes=["nccl", "cudnn"])
    assert facts.nccl.expected_by_torch == "2.14.3"  # old "(==2.14.3)" Requires-Dist style
    assert sorted(w.cuda_major for w in facts.nccl.wheels) == [11, 12]
    assert facts.nccl.resolved.path == "/opt/nccl/lib/libnccl.so.2"
    assert facts.nccl.resolved.version == "2.18.3"
    assert facts.nccl.resolved.via == "LD_LIBRARY_PATH"
    assert facts.nccl.env_version == "2.18.3"
    # two wheels own nvidia/nccl/lib: the file's version cannot be told
    wheel_file = [f for f in facts.nccl.files if f.via == "wheel"]
    assert len(wheel_file) == 1 and wheel_file[0].version is None
    assert facts.cudnn.expected_by_torch == "8.5.0.96"


# -- torch, distributions, python ---------------------------------------------------


def test_torch_version_py_annotated_and_old_style():
    new = torch_build.parse_version_py("__version__ = '2.9.1+cu128'\ndebug = False\ncuda: Optional[str] = '12.8'\nhip: Optional[str] = None\n")
    assert new == {"version": "2.9.1+cu128", "debug": False, "cuda": "12.8", "hip": None}
    old = torch_build.parse_version_py('__version__ = "1.13.1+cu117"\ndebug = False\ncuda = "11.7"\ngit_version = "49444c3e"\nhip = None\n')
    assert old == {"version": "1.13.1+cu117", "debug": False, "cuda": "11.7", "git_version": "49444c3e", "hip": None}
    cpu = torch_build.parse_version_py("__version__ = '2.13.0+cpu'\ncuda: Optional[str] = None\n")
    assert cpu == {"version": "2.13.0+cpu", "cuda": None}


def test_torch_probe_reads_the_file_not_the_package():
    facts = probe_root("proprietary-x86", probes=["torch_build"])
    assert facts.torch is not None
    assert (facts.torch.version, facts.torch.cuda, facts.torch.debug, facts.torch.hip) == ("2.7.1.8+nv25.3", "12.8", False, None)
    assert facts.torch.location == "/usr/local/lib/python3.12/dist-packages"


def test_no_torch_is_none():
    assert probe_root("hanging-smi", probes=["torch_build"]).torch is None


def test_distribution_variety():
    facts = probe_root("proprietary-x86", probes=["distributions", "python_env"])
    by_name = {d.name: d for d in facts.distributions}
    assert set(by_name) == {"torch", "nvidia-nccl-cu12", "deepspeed", "old-pkg", "flat-egg", "six"}
    torch = by_name["torch"]
    assert (torch.version, torch.installer, torch.error) == ("2.7.1.8+nv25.3", "pip", None)
    assert torch.requires[1].startswith("nvidia-nccl-cu12==2.26.2")
    assert len(torch.requires) == 2  # "Name: not-this" in the body is not a header
    assert by_name["deepspeed"].direct_url == "file:///tmp/build/deepspeed"
    assert by_name["old-pkg"].requires == ["six>=1.0"]
    assert by_name["flat-egg"].version == "0.3"
    assert by_name["six"].location == "/usr/lib/python3/dist-packages"
    assert facts.python.version == "3.12"
    assert facts.python.site_packages == ["/usr/local/lib/python3.12/dist-packages", "/usr/lib/python3/dist-packages"]
    assert facts.distribution("NVIDIA_NCCL_CU12").version == "2.26.2"


def test_live_distributions_include_this_interpreter_packages():
    from lingjun.checks.probes._collect import collect

    facts = collect(ProbeEnv(), ["distributions", "python_env"])
    names = {d.name.lower() for d in facts.distributions}
    assert {"packaging", "pytest", "pydantic"} <= names
    packaging = facts.distribution("packaging")
    import packaging as installed

    assert packaging.version == installed.__version__
    assert facts.python.version.startswith("3.")


# -- OS, env, network, manifest -----------------------------------------------------


def test_os_release():
    facts = probe_root("proprietary-x86", probes=["os_release"])
    assert (facts.host.os_id, facts.host.os_version_id, facts.host.os_pretty_name) == ("ubuntu", "24.04", "Ubuntu 24.04.2 LTS")
    assert facts.host.kernel_release == "5.10.134-16.al8.x86_64"
    assert facts.host.hostname is None


def test_env_allow_list_drops_secrets_and_ids():
    environ = {
        "NCCL_SOCKET_IFNAME": "eth0",
        "NCCL_IB_HCA": "mlx5",
        "CUDA_VISIBLE_DEVICES": "0,1",
        "LD_LIBRARY_PATH": "/usr/local/cuda/compat",
        "CHECKPOINT_OPTIMIZATION": "true",
        "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True",
        "LINGJUN_RELEASE": "training-nv-pytorch:25.07",
        "NVIDIA_API_KEY": "nvapi-secret",
        "LINGJUN_TOKEN": "t",
        "HF_TOKEN": "hf_x",
        "AWS_SECRET_ACCESS_KEY": "x",
        "OSS_ACCESS_KEY_ID": "x",
        "MASTER_ADDR": "node-17.internal",
        "HOME": "/root",
        "NCCL_DEBUG_FILE": "https://user:pw@example.com/log",
    }
    facts = probe_root("hanging-smi", environ=environ, probes=["env_vars"])
    assert facts.env == {
        "CHECKPOINT_OPTIMIZATION": "true",
        "CUDA_VISIBLE_DEVICES": "0,1",
        "LD_LIBRARY_PATH": "/usr/local/cuda/compat",
        "LINGJUN_RELEASE": "training-nv-pytorch:25.07",
        "NCCL_DEBUG_FILE": "https://***@example.com/log",
        "NCCL_IB_HCA": "mlx5",
        "NCCL_SOCKET_IFNAME": "eth0",
        "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True",
    }
    env = ProbeEnv(root=fakeroot("hanging-smi"), environ=environ, include_ids=True)
    from lingjun.checks.probes import env_vars

    assert env_vars.probe(env, None)["env"]["MASTER_ADDR"] == "node-17.internal"


def test_network_from_procfs_and_sysfs():
    facts = probe_root("proprietary-x86", probes=["network"])
    assert [(i.name, i.operstate, i.mtu, i.ipv4, i.ipv6) for i in facts.network] == [
        ("eth0", "up", 1500, ["10.0.0.5/24"], ["fe80::216:32ff:fe0a:b0c/64"]),
        ("hpn0", "up", 9000, ["192.168.16.7/20"], []),
        ("lo", "unknown", 65536, ["127.0.0.1/8"], ["::1/128"]),
    ]


def test_network_parsers_on_garbage():
    assert network.parse_if_inet6("zzz 01 80\n") == {}
    assert network.parse_route("Iface\nbroken\n") == []
    assert network.parse_fib_trie_locals("|-- 999.1.1.1\n   /32 host LOCAL\n") == ["999.1.1.1"]
    assert network.assign_ipv4(["999.1.1.1"], []) == {}


def test_manifest_read():
    facts = probe_root("proprietary-x86", probes=["manifest"])
    assert facts.manifest is not None
    assert facts.manifest.release == "training-nv-pytorch:25.07"
    assert facts.manifest.path == "/etc/lingjun/release.json"
    assert probe_root("hanging-smi", probes=["manifest"]).manifest is None


# -- the whole collection on a fake root -------------------------------------------------


def test_full_collect_on_fake_root_records_every_probe():
    from lingjun.checks.probes import load_probes

    facts = probe_root("proprietary-x86")
    assert [p.name for p in facts.probes] == [
        "os", "python", "distributions", "env", "loader", "driver-proc", "device-nodes", "nvml",
        "nvidia-smi", "libcuda", "cuda-toolkit", "cudnn", "nccl", "torch", "network", "manifest", "shm", "limits", "rdma", "gpu-topology",
    ]
    assert len(facts.probes) == len(load_probes())
    assert all(p.ok for p in facts.probes), [p for p in facts.probes if not p.ok]
    assert facts.has_nvidia_driver and facts.driver_version == "570.124.06"
    assert facts.nvidia_smi.available is False  # no nvidia-smi inside this root


def test_is_compat_path_is_one_function_for_probe_and_rules():
    """The probe and the driver rules share core.compat.is_compat_path; each accepted input keeps its answer."""
    from lingjun.checks.core.compat import is_compat_path
    from lingjun.checks.probes import libcuda
    from lingjun.checks.rules import _driver_facts

    assert libcuda.is_compat_path is is_compat_path is _driver_facts.is_compat_path
    cases = {
        None: False,
        "": False,
        "/usr/local/cuda/compat": True,
        "/usr/local/cuda-12.8/compat/lib/libcuda.so.1": True,
        "/usr/local/cuda-12.8/compat/lib.real/libcuda.so.1": True,
        "/opt/cuda-compat-12-8/libcuda.so.1": True,
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1": False,
        "/usr/lib/compatibility/libcuda.so.1": False,
        "compat": True,
        "/usr/local/cuda\\compat\\lib": True,
    }
    for path, expected in cases.items():
        assert is_compat_path(path) is expected, path
    assert is_compat_path(None, "/opt/cuda-compat-12-8/libcuda.so.1")
    assert not is_compat_path()
    assert not is_compat_path(3, ["compat"])
