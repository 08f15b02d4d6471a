#!/usr/bin/env python3
"""Extract the catalog of libnvidia-container's error messages (what ``nvidia-container-cli`` prints) from its source.

Maintainer's tool (not shipped).  It reads a bare git mirror holding the commits of
https://github.com/NVIDIA/libnvidia-container that NVIDIA Container Toolkit releases pin, walks ``src/`` of each, finds
every call that sets or prints an error and writes ``releases/errors/nvidia-container-cli.yaml`` (kind
``container-cli-error-catalog``, see ``schema/error_catalogs.py``)::

    python tools/container_cli_errors.py --git-dir /work/.mirror/OWNER+libnvidia-container/repo     # writes it
    python tools/container_cli_errors.py --git-dir ... --check                                     # exit 1 if stale
    python tools/container_cli_errors.py --git-dir ... --stdout                                    # to stdout

Python 3.10+, standard library only; the C lexer is tools/nccl_warnings.py's.  Deterministic: the same commits give
byte-identical output.

Which commits (``RELEASES``)
----------------------------
libnvidia-container has no version file since 1.14 (the version comes from its git tag), and NVIDIA Container
Toolkit vendors it as the submodule ``third_party/libnvidia-container``: ``git ls-tree vX.Y.Z third_party/`` of
https://github.com/NVIDIA/nvidia-container-toolkit names the commit each toolkit release builds.  ``RELEASES`` lists
those commits, one per distinct commit, named by the toolkit release that first pins it (libnvidia-container's own
tag of the same number).  ``--toolkit-git-dir`` re-reads the pins and fails if a listed commit differs.  The mirror
must hold the commits (any fork whose history contains them: a commit id fixes the content).

How a call becomes an entry
---------------------------
* Library (``src/*.c``, ``src/*.h``): ``error_set(err, fmt, ...)`` stores ``fmt`` then ``": "`` and
  ``strerror(errno)``; ``error_setx`` the format alone; ``error_set_dl`` appends ``dlerror()``, ``error_set_nvml``
  NVML's ``nvmlErrorString``, ``error_set_rpc`` the RPC status text, ``error_set_elf`` libelf's message
  (src/error.c, src/error_generic.c).  ``error_vset`` then lower-cases the text after the last ``:``
  (``Driver Not Loaded`` -> ``driver not loaded``).  ``appends`` names what is appended.
* CLI (``src/cli/*``): the same calls (the CLI's own checks: devices, requirements), and what it prints:
  ``warnx(fmt, ...)`` / ``errx(code, fmt, ...)`` print ``nvidia-container-cli: `` and the format; ``warn`` and
  ``err`` also append ``strerror(errno)``.  A CLI format that ends in ``: %s`` where the ``%s`` is a message
  (``"mount error: %s"``, ``libnvc.error(nvc)``) is a *context*: ``context: true``; the line is then
  ``nvidia-container-cli: mount error: <a library message>``.
* Go (``src/nvcgo/**/*.go`` outside ``vendor/``: the cgroup v2 helper, libnvidia-container-go.so):
  ``fmt.Errorf(fmt, ...)`` and ``errors.New(text)``; Go's ``%v``, ``%w`` and ``%q`` are written ``%s`` (they print
  a value's text), the rest as printf has them.  They reach the CLI inside ``failed to ...: %s``.
* Lexing is the C preprocessor's (comments, strings, splices: tools/nccl_warnings.py ``lex``); the format is the
  call's format argument with adjacent literals joined; a token between literals (``"%"PRId32``) is expanded as
  tools/nccl_warnings.py does.  A call whose format argument holds no literal is a function's definition or a
  forwarder and is skipped; so is a format with fewer than three letters of its own (``"%s"``, ``"%s: %s"``: they
  wrap a message catalogued where it is made).
* ``lines`` / ``versions``: first and last line of the call and first and last release holding the (file, format)
  pair over the releases read.  ``file`` is the path in the repository.
* Subsystems: ``files`` globs (``fnmatch``, ``*`` also matches ``/``); the first subsystem with a matching glob owns a
  file; ``stages`` name the contexts whose helper messages (utils.c, xfuncs.h) the subsystem owns.  The script fails
  if a file has none.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nccl_warnings import Git, arguments, emit, lex, render_format  # noqa: E402  (the same lexer as the NCCL catalog)

#: (release, commit): the commit of https://github.com/NVIDIA/libnvidia-container that NVIDIA Container Toolkit's tag
#: ``v<release>`` pins as third_party/libnvidia-container, one row per distinct commit, oldest first
RELEASES = [
    ("1.14.0", "6a24508dff6cb36841114ff4c1287cd29ded72af"),
    ("1.14.1", "1eb5a30a6ad0415550a9df632ac8832bf7e2bbba"),   # also toolkit 1.14.2, 1.14.3
    ("1.15.0", "6c8f1df7fd32cea3280cf2a2c6e931c9b3132465"),
    ("1.16.0", "4c2494f16573b585788a42e9c7bee76ecd48c73d"),   # also 1.16.1
    ("1.16.2", "921e2f3197385173cf8670342e96e98afe9b3dd3"),
    ("1.17.0", "63d366ee3b4183513c310ac557bf31b05b83328f"),   # also 1.17.1, 1.17.2
]

#: calls that set an error: name -> (index of the format argument, what the library appends after ": ")
LIBRARY_CALLS = {"error_set": (1, "errno"), "error_setx": (1, None), "error_set_dl": (1, "dlerror"),
                 "error_set_nvml": (3, "nvml"), "error_set_rpc": (2, "rpc"), "error_set_elf": (1, "elf")}
#: what the CLI prints (err(3)'s family): name -> (index of the format argument, what is appended)
CLI_CALLS = {"warnx": (0, None), "errx": (1, None), "warn": (0, "errno"), "err": (1, "errno")}

SUBSYSTEMS = [
    {
        "id": "requirement",
        "files": ["src/cli/dsl.c"],
        "stages": ["requirement error"],
        "title": {"en": "Image requirements (NVIDIA_REQUIRE_*) against the host's driver",
                  "zh": "镜像要求（NVIDIA_REQUIRE_*）与宿主机驱动的比对"},
        "points_to": {
            "en": "Before it mounts anything, the CLI compares the image's NVIDIA_REQUIRE_CUDA (and other "
                  "NVIDIA_REQUIRE_* variables: driver, arch, brand) with what the host has. 'unsatisfied condition: "
                  "cuda>=12.4' means the host's driver supports an older CUDA than the image was built for: the "
                  "driver branch is too old for the image, and CUDA's forward compatibility was not used or not "
                  "possible (it is for data center GPUs only).",
            "zh": "挂载任何内容之前，CLI 会把镜像的 NVIDIA_REQUIRE_CUDA（以及 driver、arch、brand 等其他 NVIDIA_REQUIRE_* 变量）"
                  "与宿主机的实际情况比对。'unsatisfied condition: cuda>=12.4' 表示宿主机驱动支持的 CUDA 比镜像构建所用的旧："
                  "驱动分支对该镜像而言过旧，且未使用或无法使用 CUDA 向前兼容（仅适用于数据中心 GPU）。",
        },
        "remedy": {
            "en": "Compare `nvidia-smi` (the 'CUDA Version' it prints is the newest CUDA the driver runs) with the "
                  "image's `docker inspect --format '{{.Config.Env}}' IMAGE | tr ' ' '\\n' | grep NVIDIA_REQUIRE`. "
                  "Upgrade the host to a driver branch that supports that CUDA (lingjun-check names the oldest "
                  "supported one), or use an image release built on an older CUDA. Only on a data center GPU whose "
                  "driver branch supports forward compatibility: start the container with -e NVIDIA_DISABLE_REQUIRE=1 "
                  "(env NVIDIA_DISABLE_REQUIRE: \"1\" in a pod spec) so the image's cuda-compat libraries are used.",
            "zh": "对照 `nvidia-smi`（其显示的 'CUDA Version' 是驱动能运行的最新 CUDA）与镜像的 "
                  "`docker inspect --format '{{.Config.Env}}' IMAGE | tr ' ' '\\n' | grep NVIDIA_REQUIRE`。把宿主机升级到支持该 CUDA "
                  "的驱动分支（lingjun-check 会给出满足要求的最旧受支持分支），或改用基于更旧 CUDA 构建的镜像版本。仅当 GPU 为数据中心 "
                  "GPU 且其驱动分支支持向前兼容时：以 -e NVIDIA_DISABLE_REQUIRE=1 启动容器（Pod 中为 env NVIDIA_DISABLE_REQUIRE: \"1\"），"
                  "让镜像的 cuda-compat 库生效。",
        },
    },
    {
        "id": "devices",
        "files": ["src/cli/common.c"],
        "stages": ["device error", "mig-config error", "mig-monitor error"],
        "title": {"en": "Device selection (NVIDIA_VISIBLE_DEVICES, MIG, IMEX channels)",
                  "zh": "设备选择（NVIDIA_VISIBLE_DEVICES、MIG、IMEX channel）"},
        "points_to": {
            "en": "The devices the container asks for (--device, NVIDIA_VISIBLE_DEVICES, "
                  "NVIDIA_MIG_CONFIG_DEVICES, NVIDIA_MIG_MONITOR_DEVICES, NVIDIA_IMEX_CHANNELS) name a GPU, MIG "
                  "device or channel the host does not have, or ask for something only 'all' supports. Usual "
                  "causes: an index or UUID from another node or from before a MIG reconfiguration, more GPUs asked "
                  "for than the node has, or a device plugin and a hand-set NVIDIA_VISIBLE_DEVICES disagreeing.",
            "zh": "容器请求的设备（--device、NVIDIA_VISIBLE_DEVICES、NVIDIA_MIG_CONFIG_DEVICES、NVIDIA_MIG_MONITOR_DEVICES、"
                  "NVIDIA_IMEX_CHANNELS）指向宿主机不存在的 GPU、MIG 设备或 channel，或请求了只有 'all' 才支持的功能。常见原因："
                  "索引或 UUID 来自其他节点或 MIG 重新划分之前，请求的 GPU 多于节点实际数量，或 device plugin 与手工设置的 "
                  "NVIDIA_VISIBLE_DEVICES 相互冲突。",
        },
        "remedy": {
            "en": "List what the host has with `nvidia-smi -L` (GPU and MIG UUIDs) and ask for those: "
                  "docker run --gpus '\"device=GPU-UUID\"' or -e NVIDIA_VISIBLE_DEVICES=0,1; in Kubernetes request "
                  "nvidia.com/gpu (or a MIG resource such as nvidia.com/mig-1g.10gb) and do not set "
                  "NVIDIA_VISIBLE_DEVICES by hand in the pod spec.",
            "zh": "用 `nvidia-smi -L` 列出宿主机实际的 GPU 与 MIG UUID，并按其请求：docker run --gpus '\"device=GPU-UUID\"' 或 "
                  "-e NVIDIA_VISIBLE_DEVICES=0,1；Kubernetes 中申请 nvidia.com/gpu（或 nvidia.com/mig-1g.10gb 等 MIG 资源），"
                  "不要在 Pod 规格中手工设置 NVIDIA_VISIBLE_DEVICES。",
        },
    },
    {
        "id": "cli",
        "files": ["src/cli/*"],
        "stages": ["input error", "permission error", "error parsing IMEX info", "Error"],
        "title": {"en": "The CLI's stages and arguments (nvidia-container-cli)",
                  "zh": "CLI 的各阶段与参数（nvidia-container-cli）"},
        "points_to": {
            "en": "The prefix names the stage of `nvidia-container-cli configure` (run by the toolkit's prestart "
                  "hook, nvidia-container-runtime-hook) that failed: initialization (loading the driver through "
                  "NVML), detection (finding the driver's libraries and binaries on the host), container (the "
                  "container's rootfs, PID and cgroups), device / mig-config / mig-monitor (the requested devices), "
                  "requirement (NVIDIA_REQUIRE_*), mount (bind-mounting into the rootfs) and ldcache (running "
                  "ldconfig in the container). 'permission error' means the CLI could not change its capabilities "
                  "(it needs root or the capabilities the hook gives it), 'input error' a bad argument, and "
                  "'Error: ...' that libnvidia-container.so.1 itself could not be loaded.",
            "zh": "前缀表明 `nvidia-container-cli configure`（由 toolkit 的 prestart hook，即 nvidia-container-runtime-hook 调用）"
                  "在哪个阶段失败：initialization（通过 NVML 加载驱动）、detection（在宿主机上查找驱动的库与可执行文件）、container"
                  "（容器的 rootfs、PID 与 cgroup）、device / mig-config / mig-monitor（所请求的设备）、requirement（NVIDIA_REQUIRE_*）、"
                  "mount（向 rootfs 绑定挂载）和 ldcache（在容器内运行 ldconfig）。'permission error' 表示 CLI 无法调整自身的 "
                  "capabilities（需要 root 或 hook 赋予的权限），'input error' 表示参数有误，'Error: ...' 表示无法加载 "
                  "libnvidia-container.so.1 本身。",
        },
        "remedy": {
            "en": "Run the same stage by hand on the host to see it alone: `nvidia-container-cli -k -d /dev/tty info` "
                  "(initialization and detection) and `nvidia-container-cli list`. Keep libnvidia-container1, "
                  "libnvidia-container-tools and nvidia-container-toolkit at the same version (`dpkg -l '*nvidia-container*'` "
                  "or `rpm -qa '*nvidia-container*'`), and run the runtime as root (rootless Docker or Podman needs "
                  "no-cgroups = true in /etc/nvidia-container-runtime/config.toml).",
            "zh": "在宿主机上手工单独运行该阶段：`nvidia-container-cli -k -d /dev/tty info`（initialization 与 detection）以及 "
                  "`nvidia-container-cli list`。保持 libnvidia-container1、libnvidia-container-tools 与 nvidia-container-toolkit "
                  "版本一致（`dpkg -l '*nvidia-container*'` 或 `rpm -qa '*nvidia-container*'`），并以 root 运行容器运行时"
                  "（rootless Docker 或 Podman 需在 /etc/nvidia-container-runtime/config.toml 中设置 no-cgroups = true）。",
        },
    },
    {
        "id": "driver",
        "files": ["src/driver.c", "src/driver.h", "src/rpc.c", "src/rpc.h", "src/nvc_rpc.x"],
        "stages": ["initialization error"],
        "title": {"en": "The host's driver through NVML (the driver RPC service)",
                  "zh": "通过 NVML 访问宿主机驱动（driver RPC 服务）"},
        "points_to": {
            "en": "libnvidia-container loads the host's libnvidia-ml.so.1 in a sandboxed child process (an RPC "
                  "service) and asks NVML for the driver version and the GPUs. 'nvml error: driver not loaded' "
                  "means the kernel module is not loaded on the host; 'load library failed: libnvidia-ml.so.1' that "
                  "the host has no driver's user-space libraries where ldconfig finds them (no driver installed, "
                  "a driver in a container of its own such as the GPU Operator's, or a WSL/VM without GPU "
                  "passthrough); 'driver/library version mismatch' that the library and the loaded module differ "
                  "after an upgrade; an 'rpc error' that the child died (seccomp, a crash inside NVML).",
            "zh": "libnvidia-container 在一个受限的子进程（RPC 服务）中加载宿主机的 libnvidia-ml.so.1，并向 NVML 查询驱动版本与 GPU。"
                  "'nvml error: driver not loaded' 表示宿主机未加载内核模块；'load library failed: libnvidia-ml.so.1' 表示宿主机上 "
                  "ldconfig 找不到驱动的用户态库（未安装驱动、驱动装在单独的容器中（如 GPU Operator），或 WSL/虚拟机未直通 GPU）；"
                  "'driver/library version mismatch' 表示升级后库与已加载的模块版本不一致；'rpc error' 表示子进程异常退出"
                  "（seccomp、NVML 内部崩溃）。",
        },
        "remedy": {
            "en": "On the host: `nvidia-smi` must work first. Load the module (`modprobe nvidia`, or install the "
                  "driver: `ubuntu-drivers install` / your distribution's package), check `ldconfig -p | grep "
                  "libnvidia-ml` lists it, and after a driver upgrade reboot or reload the modules so library and "
                  "module match. With the GPU Operator's containerised driver, set root = \"/run/nvidia/driver\" in "
                  "/etc/nvidia-container-runtime/config.toml ([nvidia-container-cli]). Then "
                  "`nvidia-container-cli -k -d /dev/tty info` should list the GPUs.",
            "zh": "在宿主机上：先确保 `nvidia-smi` 可用。加载内核模块（`modprobe nvidia`，或安装驱动：`ubuntu-drivers install` 或发行版的驱动包），"
                  "确认 `ldconfig -p | grep libnvidia-ml` 能列出该库；驱动升级后重启或重新加载模块，使库与模块版本一致。若使用 GPU Operator "
                  "的容器化驱动，在 /etc/nvidia-container-runtime/config.toml 的 [nvidia-container-cli] 中设置 root = \"/run/nvidia/driver\"。"
                  "之后 `nvidia-container-cli -k -d /dev/tty info` 应能列出 GPU。",
        },
    },
    {
        "id": "init",
        "files": ["src/nvc.c", "src/nvc_internal.h", "src/options.c", "src/options.h", "src/dxcore.c",
                  "src/dxcore.h", "src/nvc.h*", "src/common.h", "src/debug.h"],
        "stages": [],
        "title": {"en": "Library initialization (kernel modules, device nodes, capabilities, WSL)",
                  "zh": "库初始化（内核模块、设备节点、capabilities、WSL）"},
        "points_to": {
            "en": "nvc_init prepares the host: it loads the NVIDIA kernel modules and creates /dev/nvidia* device "
                  "nodes (as nvidia-modprobe does), reads the MIG capability minors under /proc/driver/nvidia-caps, "
                  "maps the user namespace's IDs and, on WSL, finds the GPU adapters through dxcore. Failures point "
                  "to a host without the kernel module, a read-only or missing /dev, MIG capabilities the driver "
                  "does not expose, or a WSL guest whose GPU is not shared.",
            "zh": "nvc_init 负责准备宿主机：加载 NVIDIA 内核模块并创建 /dev/nvidia* 设备节点（与 nvidia-modprobe 相同）、读取 "
                  "/proc/driver/nvidia-caps 下的 MIG capability 次设备号、映射用户命名空间的 ID，在 WSL 上通过 dxcore 查找 GPU 适配器。"
                  "失败通常说明宿主机没有内核模块、/dev 只读或缺失、驱动未提供 MIG capability，或 WSL 客户机未共享 GPU。",
        },
        "remedy": {
            "en": "On the host: `lsmod | grep nvidia` and `ls -l /dev/nvidia*`; run `nvidia-modprobe -u -c=0` (or "
                  "`nvidia-smi` once) to create the device nodes; for MIG check `ls /proc/driver/nvidia-caps`; on "
                  "WSL update the Windows driver and run `nvidia-smi` inside WSL first.",
            "zh": "在宿主机上：执行 `lsmod | grep nvidia` 与 `ls -l /dev/nvidia*`；运行 `nvidia-modprobe -u -c=0`（或先运行一次 "
                  "`nvidia-smi`）创建设备节点；MIG 场景检查 `ls /proc/driver/nvidia-caps`；WSL 中先更新 Windows 驱动，并确认在 WSL "
                  "内 `nvidia-smi` 可用。",
        },
    },
    {
        "id": "detection",
        "files": ["src/nvc_info.c", "src/elftool.c", "src/elftool.h", "src/ldcache.c", "src/ldcache.h"],
        "stages": ["detection error"],
        "title": {"en": "Detection of the driver's files on the host",
                  "zh": "在宿主机上查找驱动文件"},
        "points_to": {
            "en": "nvc_driver_info_new and nvc_device_info_new look up the driver's libraries in the host's "
                  "ld.so.cache (/etc/ld.so.cache, read as an ELF-aware cache file), its binaries on PATH, the "
                  "firmware and the device attributes through NVML. Failures point to a stale or foreign-format "
                  "ld.so.cache (run ldconfig), a driver installed outside the loader's paths, or an NVML error "
                  "while listing GPUs (a GPU fallen off the bus: see the host's dmesg for Xid 79).",
            "zh": "nvc_driver_info_new 与 nvc_device_info_new 在宿主机的 ld.so.cache（/etc/ld.so.cache）中查找驱动库，在 PATH "
                  "中查找驱动的可执行文件，并查找固件，通过 NVML 读取设备属性。失败通常说明 ld.so.cache 过期或格式不符（需运行 ldconfig）、"
                  "驱动安装在加载器路径之外，或列举 GPU 时 NVML 出错（GPU 掉卡：查看宿主机 dmesg 中的 Xid 79）。",
        },
        "remedy": {
            "en": "On the host: `ldconfig` (rebuild /etc/ld.so.cache), then `ldconfig -p | grep -E 'libnvidia-ml|libcuda'`; "
                  "`nvidia-smi -q | head` must list every GPU; `dmesg | grep -i xid` for a GPU that disappeared. "
                  "`nvidia-container-cli -k -d /dev/tty list` shows each file the CLI found.",
            "zh": "在宿主机上：运行 `ldconfig`（重建 /etc/ld.so.cache），再执行 `ldconfig -p | grep -E 'libnvidia-ml|libcuda'`；"
                  "`nvidia-smi -q | head` 必须能列出每块 GPU；用 `dmesg | grep -i xid` 查看是否有 GPU 掉卡。"
                  "`nvidia-container-cli -k -d /dev/tty list` 会列出 CLI 找到的每个文件。",
        },
    },
    {
        "id": "mount",
        "files": ["src/nvc_mount.c", "src/nvc_container.c"],
        "stages": ["mount error", "container error"],
        "title": {"en": "Mounting the driver into the container's rootfs",
                  "zh": "把驱动挂载进容器 rootfs"},
        "points_to": {
            "en": "nvc_driver_mount and nvc_device_mount bind-mount the driver's libraries, binaries, firmware, IPC "
                  "sockets and /dev/nvidia* nodes into the container's rootfs. 'file creation failed: ...: file "
                  "exists' or a mount over an existing file means the image already holds a driver file at that path "
                  "(a driver or libnvidia-ml copied into the image, or a second NVIDIA hook); a missing source means "
                  "the host lacks it (/dev/nvidia-caps, /run/nvidia-persistenced/socket); 'permission denied' points "
                  "to SELinux/AppArmor or a rootless runtime.",
            "zh": "nvc_driver_mount 与 nvc_device_mount 把驱动的库、可执行文件、固件、IPC socket 与 /dev/nvidia* 设备节点绑定挂载进容器 "
                  "rootfs。'file creation failed: ...: file exists' 或挂载到已有文件之上，说明镜像在该路径已有驱动文件（镜像中拷入了驱动或 "
                  "libnvidia-ml，或存在第二个 NVIDIA hook）；源文件不存在说明宿主机缺少它（/dev/nvidia-caps、"
                  "/run/nvidia-persistenced/socket）；'permission denied' 指向 SELinux/AppArmor 或 rootless 运行时。",
        },
        "remedy": {
            "en": "Remove driver files from the image (`docker run --rm --entrypoint ls IMAGE -l /usr/lib/x86_64-linux-gnu | grep -E 'libnvidia|libcuda'`: "
                  "no libcuda.so.1 or libnvidia-ml.so.1 may be in it) and make sure only one NVIDIA hook runs (Docker's "
                  "--gpus or the nvidia runtime, not both with CDI). On SELinux hosts run the container with "
                  "--security-opt label=disable or install the toolkit's SELinux policy. For a missing host path, "
                  "start the host service it belongs to (nvidia-persistenced) or run `nvidia-modprobe -c 0 -u`.",
            "zh": "从镜像中删除驱动文件（`docker run --rm --entrypoint ls IMAGE -l /usr/lib/x86_64-linux-gnu | grep -E 'libnvidia|libcuda'`："
                  "镜像中不能有 libcuda.so.1 或 libnvidia-ml.so.1），并确认只有一个 NVIDIA hook 生效（Docker 的 --gpus 或 nvidia runtime，"
                  "不要与 CDI 同时使用）。SELinux 宿主机上以 --security-opt label=disable 运行容器，或安装 toolkit 的 SELinux 策略。"
                  "宿主机路径缺失时，启动其所属的宿主机服务（nvidia-persistenced），或运行 `nvidia-modprobe -c 0 -u`。",
        },
    },
    {
        "id": "ldcache",
        "files": ["src/nvc_ldcache.c"],
        "stages": ["ldcache error"],
        "title": {"en": "Updating the container's ld.so.cache (ldconfig in the container)",
                  "zh": "更新容器的 ld.so.cache（在容器内运行 ldconfig）"},
        "points_to": {
            "en": "After mounting, the CLI runs the host's ldconfig (ldconfig = \"@/sbin/ldconfig\" in the toolkit's "
                  "config.toml, the '@' meaning a host path) inside the container's mount namespace, confined by "
                  "seccomp and dropped privileges, so the mounted libraries are found. Failures point to an "
                  "ldconfig path that does not exist on this host (/sbin/ldconfig.real is Ubuntu's), an image "
                  "whose /etc/ld.so.cache cannot be written (read-only rootfs), or a kernel or runtime that refuses "
                  "the seccomp filter.",
            "zh": "挂载完成后，CLI 在容器的挂载命名空间中、在 seccomp 与降权限制下运行宿主机的 ldconfig（toolkit 的 config.toml 中 "
                  "ldconfig = \"@/sbin/ldconfig\"，'@' 表示宿主机路径），让挂载的库能被找到。失败通常说明该 ldconfig 路径在此宿主机上不存在"
                  "（/sbin/ldconfig.real 是 Ubuntu 的路径），镜像的 /etc/ld.so.cache 不可写（只读 rootfs），或内核 / 运行时拒绝了 seccomp 过滤器。",
        },
        "remedy": {
            "en": "Set ldconfig in /etc/nvidia-container-runtime/config.toml to the host's real path "
                  "(`ls -l /sbin/ldconfig /sbin/ldconfig.real`: \"@/sbin/ldconfig.real\" on Debian/Ubuntu, "
                  "\"@/sbin/ldconfig\" elsewhere); do not make the image's rootfs read-only for GPU containers (or "
                  "mount a writable /etc/ld.so.cache).",
            "zh": "把 /etc/nvidia-container-runtime/config.toml 中的 ldconfig 设为宿主机的实际路径（`ls -l /sbin/ldconfig /sbin/ldconfig.real`："
                  "Debian/Ubuntu 上为 \"@/sbin/ldconfig.real\"，其他发行版为 \"@/sbin/ldconfig\"）；GPU 容器不要使用只读 rootfs"
                  "（或挂载可写的 /etc/ld.so.cache）。",
        },
    },
    {
        "id": "cgroups",
        "files": ["src/cgroup*", "src/nvcgo*", "src/nvcgo/**"],
        "stages": [],
        "title": {"en": "Device cgroups (v1 files, v2 eBPF through libnvidia-container-go)",
                  "zh": "设备 cgroup（v1 文件、v2 通过 libnvidia-container-go 的 eBPF）"},
        "points_to": {
            "en": "The CLI allows the container's cgroup to open the GPU device nodes: on cgroup v1 by writing "
                  "devices.allow, on cgroup v2 by attaching an eBPF device filter through libnvidia-container-go.so. "
                  "Failures point to a cgroup layout the CLI does not expect (a runtime's systemd cgroup driver, a "
                  "nested container, cgroup v2 without the devices controller), to a runtime that already manages "
                  "device access itself, or to a rootless runtime that has no cgroup rights.",
            "zh": "CLI 负责让容器的 cgroup 能打开 GPU 设备节点：cgroup v1 下写 devices.allow，cgroup v2 下通过 libnvidia-container-go.so "
                  "挂载 eBPF 设备过滤器。失败通常说明 cgroup 布局不符合 CLI 的预期（运行时的 systemd cgroup 驱动、嵌套容器、cgroup v2 "
                  "未启用 devices 控制器），运行时自己已管理设备访问，或 rootless 运行时没有 cgroup 权限。",
        },
        "remedy": {
            "en": "Check the host's cgroup version (`stat -fc %T /sys/fs/cgroup`: cgroup2fs is v2). With rootless "
                  "Docker/Podman set no-cgroups = true under [nvidia-container-cli] in "
                  "/etc/nvidia-container-runtime/config.toml and pass the devices (--device /dev/nvidia0 ...). "
                  "Otherwise use CDI (`nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`, then "
                  "--device nvidia.com/gpu=all), which leaves device access to the runtime.",
            "zh": "检查宿主机的 cgroup 版本（`stat -fc %T /sys/fs/cgroup`：cgroup2fs 即 v2）。rootless Docker/Podman 需在 "
                  "/etc/nvidia-container-runtime/config.toml 的 [nvidia-container-cli] 中设置 no-cgroups = true，并显式传入设备"
                  "（--device /dev/nvidia0 ...）。否则改用 CDI（`nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`，再用 "
                  "--device nvidia.com/gpu=all），把设备访问交给运行时处理。",
        },
    },
    {
        "id": "system",
        "files": ["src/utils.c", "src/utils.h", "src/xfuncs.h", "src/error*.c", "src/error*.h", "src/*"],
        "stages": [],
        "title": {"en": "System calls the library makes everywhere (files, memory, mounts, namespaces)",
                  "zh": "库在各处发起的系统调用（文件、内存、挂载、命名空间）"},
        "points_to": {
            "en": "The helpers every stage uses: opening, creating and reading files, resolving paths inside the "
                  "rootfs, mounting, joining the container's namespaces, dropping capabilities, allocating memory. "
                  "The errno text after the last colon says what the kernel refused ('no such file or directory', "
                  "'permission denied', 'file exists', 'read-only file system'), and the stage prefix "
                  "('mount error', 'ldcache error') says where.",
            "zh": "各阶段共用的辅助函数：打开、创建、读取文件，在 rootfs 内解析路径，挂载，加入容器的命名空间，放弃 capabilities，分配内存。"
                  "最后一个冒号后的 errno 文本说明内核拒绝了什么（'no such file or directory'、'permission denied'、'file exists'、"
                  "'read-only file system'），阶段前缀（'mount error'、'ldcache error'）说明发生在哪里。",
        },
        "remedy": {
            "en": "Read the path and the errno text: a missing path on the host (`ls -l PATH`), a file the image "
                  "already has at a path the driver is mounted to (remove it from the image), a read-only rootfs, or "
                  "a security module (`dmesg | grep -iE 'apparmor|avc'`). Rerun with debug output: "
                  "debug = \"/var/log/nvidia-container-toolkit.log\" under [nvidia-container-cli] in "
                  "/etc/nvidia-container-runtime/config.toml.",
            "zh": "看清路径与 errno 文本：宿主机上缺少该路径（`ls -l PATH`）、镜像在驱动挂载路径上已有同名文件（从镜像中删除）、rootfs 只读，"
                  "或安全模块拦截（`dmesg | grep -iE 'apparmor|avc'`）。打开调试输出后重试：在 /etc/nvidia-container-runtime/config.toml "
                  "的 [nvidia-container-cli] 中设置 debug = \"/var/log/nvidia-container-toolkit.log\"。",
        },
    },
]


def owner(path: str) -> str | None:
    """The id of the first subsystem one of whose globs matches ``path``."""
    return next((s["id"] for s in SUBSYSTEMS if any(fnmatch.fnmatchcase(path, g) for g in s["files"])), None)


@dataclass
class Occ:
    line: int
    format: str
    appends: str | None
    context: bool


_GO_CALL = re.compile(r'\b(fmt\.Errorf|errors\.New)\(\s*"((?:[^"\\\n]|\\.)*)"')
_GO_VERB = re.compile(r"%([-+ #0]*\d*(?:\.\d+)?)([vwq])")


def _letters(fmt: str) -> int:
    """How many letters the format has outside its conversions."""
    return sum(c.isalpha() for c in re.sub(r"%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z]{1,3}", "", fmt))


def extract_c(path: str, text: str) -> list[Occ]:
    """Every error-setting call (and, under src/cli/, every err(3)-family print) of one C file."""
    calls = dict(LIBRARY_CALLS)
    if path.startswith("src/cli/"):
        calls.update(CLI_CALLS)
    toks = lex(text)
    out: list[Occ] = []
    for k, t in enumerate(toks):
        if t.kind != "id" or t.val not in calls or k + 1 >= len(toks) or toks[k + 1].val != "(":
            continue
        if k and toks[k - 1].kind == "id" and toks[k - 1].val not in ("return", "else"):  # a declaration: int error_set(
            continue
        index, appends = calls[t.val]
        args = arguments(toks, k + 1)
        if len(args) <= index or not any(tok.kind == "str" for tok in args[index]):
            continue
        fmt, _subst = render_format(args[index])
        if _letters(fmt) < 3:
            continue
        context = t.val in CLI_CALLS and fmt.endswith(": %s") and appends is None
        out.append(Occ(t.line, fmt, appends, context))
    return out


def _go_unquote(body: str) -> str:
    return json.loads('"' + body.replace("\\'", "'") + '"')


def extract_go(text: str) -> list[Occ]:
    """Every ``fmt.Errorf``/``errors.New`` message of one Go file (Go's %v/%w/%q written %s)."""
    out: list[Occ] = []
    for m in _GO_CALL.finditer(text):
        fmt = _GO_VERB.sub(lambda v: "%" + v.group(1) + "s", _go_unquote(m.group(2)))
        if _letters(fmt) >= 3:
            out.append(Occ(text.count("\n", 0, m.start()) + 1, fmt, None, False))
    return out


@dataclass
class Entry:
    file: str
    format: str
    appends: str | None
    context: bool
    lines: tuple[int, int]
    versions: tuple[str, str]
    absent: list[str] = field(default_factory=list)
    sites: int = 1
    subsystem: str = ""


def _wanted(path: str) -> bool:
    if not path.startswith("src/"):
        return False
    if path.startswith("src/nvcgo/"):
        return path.endswith(".go") and "/vendor/" not in path and not path.endswith("_test.go")
    return path.endswith((".c", ".h"))


def collect(git_dir: str, releases: list[tuple[str, str]]) -> list[Entry]:
    git = Git(git_dir)
    found: dict[tuple[str, str, str | None], dict[int, list[Occ]]] = {}
    cache: dict[str, list[Occ]] = {}
    try:
        for ri, (_version, commit) in enumerate(releases):
            for path, sha in git.tree(commit):
                if not _wanted(path):
                    continue
                if sha not in cache:
                    text = git.blob(sha)
                    cache[sha] = extract_go(text) if path.endswith(".go") else extract_c(path, text)
                for occ in cache[sha]:
                    found.setdefault((path, occ.format, occ.appends), {}).setdefault(ri, []).append(occ)
    finally:
        git.close()
    versions = [v for v, _c in releases]
    entries: list[Entry] = []
    unowned: set[str] = set()
    for (file, fmt, appends), by_release in found.items():
        present = sorted(by_release)
        occs = [o for ri in present for o in by_release[ri]]
        sub = owner(file)
        if sub is None:
            unowned.add(file)
            continue
        entries.append(Entry(file, fmt, appends, any(o.context for o in occs),
                             (min(o.line for o in occs), max(o.line for o in occs)),
                             (versions[present[0]], versions[present[-1]]),
                             [versions[ri] for ri in range(present[0], present[-1] + 1) if ri not in by_release],
                             max(len(by_release[ri]) for ri in present), sub))
    if unowned:
        raise SystemExit("no subsystem glob matches: " + ", ".join(sorted(unowned)))
    entries.sort(key=lambda e: (e.file, e.lines[0], e.lines[1], e.format, e.appends or ""))
    return entries


def check_pins(toolkit_git_dir: str) -> None:
    """Fail unless each row of ``RELEASES`` is the submodule commit of toolkit tag ``v<release>``."""
    for version, commit in RELEASES:
        out = subprocess.run(["git", "--git-dir", toolkit_git_dir, "ls-tree", f"v{version}",
                              "third_party/libnvidia-container"], check=True, stdout=subprocess.PIPE, text=True).stdout
        pinned = out.split()[2] if out.split() else ""
        if pinned != commit:
            raise SystemExit(f"toolkit v{version} pins {pinned or 'nothing'}, RELEASES says {commit}")


def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def render(releases: list[tuple[str, str]], entries: list[Entry]) -> str:
    versions = [v for v, _c in releases]
    counts = {s["id"]: 0 for s in SUBSYSTEMS}
    for e in entries:
        counts[e.subsystem] += 1
    first, last = releases[0], releases[-1]
    out: list[str] = []
    w = out.append
    w("# yaml-language-server: $schema=../../schema/container-cli-error-catalog.schema.json")
    w("# GENERATED by tools/container_cli_errors.py from the libnvidia-container commits NVIDIA Container Toolkit")
    w("# v" + ", v".join(versions) + " pin (third_party/libnvidia-container); do not edit by hand: rerun the tool.")
    w("#")
    w("# How a line reads: nvidia-container-cli: <context> <message>[: <appended>], e.g.")
    w("#   nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared ...")
    w("#   (context \"initialization error: %s\" from src/cli/configure.c, message \"load library failed\" from")
    w("#   src/xfuncs.h, appended: dlerror()).  Docker and containerd wrap it (\"... stderr: nvidia-container-cli: ...:")
    w("#   unknown\").  appends: what src/error.c adds after \": \" (errno: strerror(errno); dlerror; nvml:")
    w("#   nvmlErrorString; rpc: the RPC status; elf: libelf's message), lower-cased after the last colon.")
    w("# context: a CLI format whose %s is another entry's message.  format: the printf format (Go's %v, %w, %q")
    w("#   written %s).  lines / versions: first and last line and release holding the (file, format) pair.")
    w("# Messages per subsystem: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; total {len(entries)}.")
    w("kind: container-cli-error-catalog")
    w("schema_version: 1")
    w("edition: " + q(f"libnvidia-container {first[0]} to {last[0]} (the commits NVIDIA Container Toolkit "
                      f"v{first[0]} to v{last[0]} pin)"))
    w("sources:")
    w(f"  - url: https://github.com/NVIDIA/libnvidia-container/tree/{last[1]}")
    w("    title: " + q(f"NVIDIA/libnvidia-container source at {last[1][:12]} (toolkit v{last[0]})"))
    w(f"  - url: https://github.com/NVIDIA/libnvidia-container/tree/{first[1]}")
    w("    title: " + q(f"NVIDIA/libnvidia-container source at {first[1][:12]} (toolkit v{first[0]})"))
    w("  - url: https://github.com/NVIDIA/nvidia-container-toolkit/tree/v" + last[0] + "/third_party")
    w("    title: " + q(f"NVIDIA Container Toolkit v{last[0]}: the pinned libnvidia-container commit"))
    w("  - url: https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/troubleshooting.html")
    w("    title: " + q("NVIDIA Container Toolkit troubleshooting"))
    w("versions: [" + ", ".join(q(v) for v in versions) + "]")
    w("commits: [" + ", ".join(q(c) for _v, c in releases) + "]")
    w("subsystems:")
    for s in SUBSYSTEMS:
        w(f"  - id: {s['id']}")
        w("    files: [" + ", ".join(q(f) for f in s["files"]) + "]")
        if s["stages"]:
            w("    stages: [" + ", ".join(q(f) for f in s["stages"]) + "]")
        w(f"    title: {{en: {q(s['title']['en'])}, zh: {q(s['title']['zh'])}}}")
        for key in ("points_to", "remedy"):
            w(f"    {key}:")
            w(f"      en: {q(s[key]['en'])}")
            w(f"      zh: {q(s[key]['zh'])}")
    w("messages:")
    for e in entries:
        extra = (f", appends: {e.appends}" if e.appends else "") + (", context: true" if e.context else "")
        notes = ([f"{e.sites} sites"] if e.sites > 1 else []) + (["absent in " + ", ".join(e.absent)] if e.absent else [])
        w(f"  - {{file: {e.file}, lines: [{e.lines[0]}, {e.lines[1]}], versions: [{q(e.versions[0])}, {q(e.versions[1])}], "
          f"format: {json.dumps(e.format)}{extra}}}" + ("  # " + "; ".join(notes) if notes else ""))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Extract libnvidia-container's error messages into a catalog.")
    ap.add_argument("--git-dir", required=True, help="bare git mirror holding libnvidia-container's pinned commits")
    ap.add_argument("--toolkit-git-dir", help="bare git mirror of NVIDIA/nvidia-container-toolkit: verify RELEASES")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "releases/errors/nvidia-container-cli.yaml"))
    ap.add_argument("--check", action="store_true", help="exit 1 if --out differs from a fresh run (writes nothing)")
    ap.add_argument("--stdout", action="store_true", help="write the YAML to stdout instead of --out")
    args = ap.parse_args(argv)
    if args.toolkit_git_dir:
        check_pins(args.toolkit_git_dir)
    entries = collect(args.git_dir, RELEASES)
    text = render(RELEASES, entries)
    return emit(text, args, "tools/container_cli_errors.py", f"{len(entries)} messages")


if __name__ == "__main__":
    sys.exit(main())
