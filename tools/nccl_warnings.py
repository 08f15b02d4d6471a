#!/usr/bin/env python3
"""Extract the catalog of NCCL ``WARN(...)`` format strings from NCCL's own source.

Maintainer's tool (not shipped).  It reads a bare git mirror of https://github.com/NVIDIA/nccl, walks ``src/``
of each requested tag, finds every call of NCCL's ``WARN(fmt, ...)`` logging macro and writes
``releases/errors/nccl-warnings.yaml`` (kind ``nccl-warning-catalog``, see ``schema/error_catalogs.py``)::

    python tools/nccl_warnings.py --git-dir /work/.mirror/NVIDIA+nccl/repo            # writes the catalog
    python tools/nccl_warnings.py --git-dir ... --check                                # exit 1 if it is stale
    python tools/nccl_warnings.py --git-dir ... --tags v2.21.5-1 v2.22.3-1 --stdout    # other tags, to stdout

Python 3.10+, standard library only.  Deterministic: the same tags of the mirror give byte-identical output.

How a WARN call becomes a catalog entry
---------------------------------------
* Files: every ``src/**/*.{cc,cu,h,cpp,c,cuh,hpp}`` blob of the tag (plugins such as ``ext-net`` count only where
  they live under ``src/``).  ``file`` is the path relative to ``src/``, which is what NCCL's logger prints
  (see ``LOG_PATH_NOTE``).
* Lexing: comments, string and character literals and backslash-newline splices are handled as the C
  preprocessor does, so a ``WARN(`` in a comment or a string is ignored and multi-line calls are found.  ``WARN``
  must be a whole identifier followed by ``(`` (``NOWARN(``, ``NCCLCHECKNOWARN(`` are other macros).  The macro's
  own ``#define WARN(...)`` in include/debug.h is skipped.  ``#if`` conditions are not evaluated: a WARN in either
  branch is listed.
* Line: the line holding the ``WARN`` token; GCC expands ``__LINE__`` in a multi-line macro call to the line of
  the macro's name.  A WARN written in the body of another ``#define`` (CUDACHECK, SYSCHECK, the ibvwrap and NVML
  wrappers...) prints the file and line where that macro is *used*; such entries carry a trailing comment
  ``# in #define NAME`` and a checker must match them by format.
* Format: the first macro argument.  Adjacent string literals are joined and their C escapes decoded (``\\n``
  becomes a newline), i.e. the text printf receives.  A token between literals is handled thus:
    - ``<inttypes.h>`` macros (PRIu64, PRIx64, ...) become their LP64 glibc expansion (``"%" PRIu64`` -> ``%lu``);
    - any other identifier (the macro parameter ``name`` in ``"Call to " name " failed"``) or a stringified
      parameter (``#name``) becomes ``%s``: at run time it is a string (``ibv_create_qp``, ``nvmlDeviceGetCount``)
      and a checker matches it like any ``%s``; the entry's comment names the parameter.
  A first argument with no string literal at all would be written ``%s`` too (NCCL has none).  The one
  ``WARN("%s", constant)`` (strongstream.cc's ``launchRaceFatalMsg``) is catalogued with the text of the string
  constant the file defines, since a bare ``%s`` format would match every message.
* Merging: one entry per (file, format).  ``lines`` is the first and last line the call sat on over the tags
  read, ``versions`` the first and last version holding it; it is present in every version in between unless the
  entry's comment says ``absent in ...``.  Several call sites of one format in one file share the entry (the
  comment gives the most sites one version has).
* Subsystems: ``files`` globs are ``fnmatch`` patterns (``*`` also matches ``/``, as schema/error_catalogs.py
  applies them); the first subsystem with a matching glob owns a file.  The script fails if a file has none.
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: the last patch release of each minor release read, oldest first
DEFAULT_TAGS = [
    "v2.21.5-1",
    "v2.22.3-1",
    "v2.23.4-1",
    "v2.24.3-1",
    "v2.25.1-1",
    "v2.26.6-1",
    "v2.27.7-1",
    "v2.28.9-1",
    "v2.29.7-1",
    "v2.30.7-1",
]

SOURCE_EXTS = (".cc", ".cu", ".h", ".cpp", ".c", ".cuh", ".hpp")

LOG_PATH_NOTE = r"""
# How a log shows FILE in "FILE:LINE NCCL WARN msg": WARN() passes __FILE__ and __LINE__, src/include/debug.h
#   #define WARN(...) ncclDebugLog(NCCL_LOG_WARN, NCCL_ALL, __FILE__, __LINE__, __VA_ARGS__)          (2.21-2.29)
#   #define WARN(...) ncclDebugLogInternal(NCCL_LOG_WARN, NCCL_ALL, __FILE__, __func__, __LINE__, ...)  (2.30)
# and src/debug.cc prints that string unchanged, e.g. v2.28.9-1 src/debug.cc:360
#   len += snprintf(buffer+len, sizeof(buffer)-len, "[%d] %s:%d NCCL WARN ", cudaDev, filefunc, line);
# 2.30 adds the function: "[%d] %s:%d (%s) NCCL WARN %s\n" -> "transport/net_ib/connect.cc:372 (fn) NCCL WARN".
# __FILE__ is the path the compiler was given.  NCCL's Makefile runs in src/ (make -C src; $(CXX) ... -c $<, with
# $< = transport/net_ib.cc) and its CMake build (2.28+) adds -fmacro-prefix-map=<src>/=, so logs show the path
# RELATIVE TO src/, not a basename: "transport/net_ib.cc:1295 NCCL WARN", "misc/socket.cc:...", headers as found
# via -Iinclude ("include/alloc.h:..."), "transport/net_ib/connect.cc:372" once 2.29 split net_ib.cc into
# transport/net_ib/*.cc.  The catalog's `file` is that string.  Other builds prefix it (Bazel/TF:
# "external/nccl_archive/src/init.cc", or an absolute path), and people quoting logs shorten it to a basename
# ("connect.cc:372"), so match a log FILE by equality, then by "/"+file suffix, then by basename (basenames are
# not unique: connect.cc, init.cc, p2p.cc, net.cc, ... sit in several directories).  Net plugins
# (libnccl-net*.so, e.g. "ib_plugin.c") print their own file names and are not in this catalog.
"""

# ---------------------------------------------------------------------------
#: the errnos the socket part's messages print (``returned 113(No route to host)``, ``failed : Connection refused``)
#: whose meaning changes what to try first; number and name from Linux's include/uapi/asm-generic/errno.h, message
#: glibc's strerror text, meaning from the page each names
SOCKET_ERRNOS = [
    {
        "errno": 113, "name": "EHOSTUNREACH", "message": "No route to host",
        "source": "https://github.com/torvalds/linux/blob/master/net/ipv4/icmp.c",
        "points_to": {
            "en": "An ICMP 'host unreachable' or 'host administratively prohibited' "
                  "answer came back for the peer's address, or this node has no route to that host. Between nodes "
                  "that otherwise reach each other this is most often a firewall rejecting the port: the REJECT "
                  "rules of firewalld and of RHEL-family iptables answer with icmp-host-prohibited, which Linux "
                  "reports as this errno. Otherwise the address is not reachable from here (a docker bridge or "
                  "pod-internal address of the peer, another VLAN).",
            "zh": "对端地址返回了 ICMP “主机不可达”或“主机被管理性禁止”，或本节点没有到该主机的路由。"
                  "在节点之间本可互通的情况下，最常见的是防火墙拒绝了该端口：firewalld 与 RHEL 系 iptables 的 REJECT 规则以 "
                  "icmp-host-prohibited 应答，Linux 将其报告为这个 errno。否则就是该地址从本节点不可达（对端的 docker 网桥或 "
                  "Pod 内部地址、另一个 VLAN）。",
        },
        "remedy": {
            "en": "From this node, test the address and port the line names: nc -zv ADDRESS PORT. If it fails the "
                  "same way, allow TCP between the training nodes on all ports (NCCL listens on ephemeral ones): "
                  "firewall-cmd --permanent --zone=trusted --add-source=SUBNET then firewall-cmd --reload, or a "
                  "security-group rule that admits the group's own traffic; stopping the firewall for one test "
                  "(systemctl stop firewalld) confirms it. If the address is not on a network the nodes share, "
                  "set NCCL_SOCKET_IFNAME to the interface of the common network.",
            "zh": "在本节点上测试该行给出的地址和端口：nc -zv ADDRESS PORT。若同样失败，就在训练节点之间放通全部 TCP 端口（NCCL "
                  "监听的是临时端口）：firewall-cmd --permanent --zone=trusted --add-source=SUBNET 后执行 firewall-cmd --reload，"
                  "或添加允许安全组内互访的安全组规则；临时停止防火墙做一次测试（systemctl stop firewalld）即可确认。若该地址不在"
                  "各节点共用的网络上，把 NCCL_SOCKET_IFNAME 设为共用网络的网卡。",
        },
    },
    {
        "errno": 111, "name": "ECONNREFUSED", "message": "Connection refused",
        "source": "https://man7.org/linux/man-pages/man2/connect.2.html",
        "points_to": {
            "en": "The peer's host answered, but nothing listened on that port: the peer "
                  "process was not listening yet or had already exited (its own log holds the first error), the "
                  "address belongs to another machine than the peer (a docker0 address such as 172.17.0.1 exists on "
                  "every node), or a firewall's REJECT rule answered with its default port-unreachable.",
            "zh": "对端主机有应答，但该端口上没有进程监听：对端进程尚未开始监听或已经退出（第一个错误在"
                  "对端日志里），该地址属于对端以外的另一台机器（172.17.0.1 这类 docker0 地址每个节点上都有），或防火墙的 REJECT "
                  "规则以默认的 port-unreachable 应答。",
        },
        "remedy": {
            "en": "Check that the peer rank is still running and read its log first; make every rank resolve "
                  "MASTER_ADDR (the root address) to the same host; exclude bridges with "
                  "NCCL_SOCKET_IFNAME=^docker0,lo,veth or name the shared interface. nc -zv ADDRESS PORT from this "
                  "node tests the address.",
            "zh": "先确认对端 rank 仍在运行并查看其日志；确保每个 rank 把 MASTER_ADDR（root 地址）解析到同一台主机；用 "
                  "NCCL_SOCKET_IFNAME=^docker0,lo,veth 排除网桥，或直接指定共用网卡。在本节点执行 nc -zv ADDRESS PORT 可测试该地址。",
        },
    },
    {
        "errno": 110, "name": "ETIMEDOUT", "message": "Connection timed out",
        "source": "https://man7.org/linux/man-pages/man2/connect.2.html",
        "points_to": {
            "en": "No answer came back at all for the peer's address: packets are dropped on "
                  "the way (a firewall or security-group rule that drops), the address is not routed between the "
                  "nodes (an interface the peer cannot reach), or the peer's node is down.",
            "zh": "对端地址完全没有应答：报文在途中被丢弃（防火墙或安全组的丢弃规则），该地址在节点之间"
                  "不可路由（对端无法到达的网卡），或对端节点已宕机。",
        },
        "remedy": {
            "en": "From this node: nc -zv -w 5 ADDRESS PORT and ping ADDRESS. Allow TCP between the training nodes "
                  "in the firewall or security group; set NCCL_SOCKET_IFNAME to the interface of the network the "
                  "nodes share.",
            "zh": "在本节点执行 nc -zv -w 5 ADDRESS PORT 与 ping ADDRESS。在防火墙或安全组中放通训练节点之间的 TCP；把 "
                  "NCCL_SOCKET_IFNAME 设为各节点共用网络的网卡。",
        },
    },
    {
        "errno": 104, "name": "ECONNRESET", "message": "Connection reset by peer",
        "source": "https://man7.org/linux/man-pages/man3/errno.3.html",
        "points_to": {
            "en": "The connection was up and the peer closed it abruptly: its process died "
                  "or was killed (out of memory, an exception, an Xid), so this line is a consequence and the first "
                  "error is in the peer's log.",
            "zh": "连接已建立，对端突然关闭了它：对端进程崩溃或被杀（内存不足、异常、Xid），所以这一行只是"
                  "结果，第一个错误在对端的日志里。",
        },
        "remedy": {
            "en": "Find the rank that failed first (the earliest error across all ranks' logs; kubectl logs "
                  "--previous for a restarted pod; dmesg on its node for an OOM kill or an Xid) and fix that; this "
                  "rank only lost its peer.",
            "zh": "找出最先失败的 rank（所有 rank 日志中最早的错误；重启过的 Pod 用 kubectl logs --previous；在其节点上用 dmesg "
                  "查看 OOM kill 或 Xid）并处理它；本 rank 只是失去了对端。",
        },
    },
    {
        "errno": 101, "name": "ENETUNREACH", "message": "Network is unreachable",
        "source": "https://man7.org/linux/man-pages/man2/connect.2.html",
        "points_to": {
            "en": "This node has no route to the network of the peer's address: NCCL picked "
                  "an address on a network only the peer has (an IPv6 address, a pod-internal or docker bridge "
                  "address), or the interface it used is down.",
            "zh": "本节点没有到对端地址所在网络的路由：NCCL 选中了只有对端才有的网络上的地址（IPv6 地址、"
                  "Pod 内部或 docker 网桥地址），或所用网卡已 down。",
        },
        "remedy": {
            "en": "Set NCCL_SOCKET_IFNAME to the interface of the network all nodes share, and NCCL_SOCKET_FAMILY=AF_INET "
                  "when IPv6 addresses get picked; ip route get ADDRESS shows whether this node can reach it.",
            "zh": "把 NCCL_SOCKET_IFNAME 设为所有节点共用网络的网卡，选中的是 IPv6 地址时设置 NCCL_SOCKET_FAMILY=AF_INET；"
                  "ip route get ADDRESS 可查看本节点能否到达该地址。",
        },
    },
    {
        "errno": 99, "name": "EADDRNOTAVAIL", "message": "Cannot assign requested address",
        "source": "https://man7.org/linux/man-pages/man2/bind.2.html",
        "points_to": {
            "en": "This node was asked to use a local address it does not have (an "
                  "address of another machine in NCCL_COMM_ID or the interface settings, an IPv6 link-local address "
                  "without its interface), or no ephemeral port was left to connect from.",
            "zh": "本节点被要求使用一个它没有的本地地址（NCCL_COMM_ID 或网卡设置中写了另一台机器的地址、"
                  "未带网卡名的 IPv6 链路本地地址），或已没有可用于发起连接的临时端口。",
        },
        "remedy": {
            "en": "Check ip addr on this node and set NCCL_SOCKET_IFNAME to one of its own interfaces; NCCL_COMM_ID "
                  "must name the root rank's address as every rank reaches it.",
            "zh": "在本节点执行 ip addr，并把 NCCL_SOCKET_IFNAME 设为本机的某个网卡；NCCL_COMM_ID 必须写 root rank 的、所有 rank "
                  "都能到达的地址。",
        },
    },
]


#: the errnos the shared-memory part's messages print (``Call to shm_open failed : Permission denied``, ``Error while
#: creating shared memory segment ... error: No space left on device (28)``) whose meaning changes what to try first
SHM_ERRNOS = [
    {
        "errno": 13, "name": "EACCES", "message": "Permission denied",
        "source": "https://man7.org/linux/man-pages/man3/shm_open.3.html",
        "points_to": {
            "en": "This process may not create or open the file under /dev/shm: the directory is not writable by "
                  "its user (its mode is not the usual 1777, or it belongs to another user), or a file of the "
                  "same name is left by a process of another user (a stale nccl-* segment). Size has nothing to "
                  "do with it, so a larger /dev/shm does not help.",
            "zh": "本进程无权在 /dev/shm 下创建或打开该文件：该目录对其用户不可写（权限不是通常的 1777，或属于另一个用户），"
                  "或另一用户的进程留下了同名文件（残留的 nccl-* 段）。这与大小无关，加大 /dev/shm 没有用。",
        },
        "remedy": {
            "en": "Run ls -ld /dev/shm (expect drwxrwxrwt, mode 1777) and ls -l /dev/shm/nccl-*; restore the mode with "
                  "chmod 1777 /dev/shm, remove stale nccl-* files of finished jobs (as their owner or root), and run "
                  "all ranks of a node as one user. In a container use its own tmpfs (docker --shm-size or "
                  "--ipc=host; in Kubernetes an emptyDir with medium: Memory) rather than a host directory mounted "
                  "over /dev/shm.",
            "zh": "运行 ls -ld /dev/shm（应为 drwxrwxrwt，即 1777）和 ls -l /dev/shm/nccl-*；用 chmod 1777 /dev/shm 恢复权限，"
                  "删除已结束作业残留的 nccl-* 文件（以其属主或 root 身份），并让同一节点的所有 rank 以同一用户运行。容器中使用"
                  "容器自己的 tmpfs（docker 的 --shm-size 或 --ipc=host；Kubernetes 中 medium: Memory 的 emptyDir），不要把宿主机"
                  "目录挂载到 /dev/shm。",
        },
    },
    {
        "errno": 28, "name": "ENOSPC", "message": "No space left on device",
        "source": "https://man7.org/linux/man-pages/man3/posix_fallocate.3.html",
        "points_to": {
            "en": "The tmpfs at /dev/shm has no room left for the segment: it is small (a container's default is "
                  "64 MiB) or filled by other files (DataLoader workers, stale segments of earlier runs).",
            "zh": "/dev/shm 上的 tmpfs 已没有空间容纳该段：它太小（容器默认只有 64 MiB），或已被其他文件占满"
                  "（DataLoader 工作进程、之前运行残留的段）。",
        },
        "remedy": {
            "en": "Check df -h /dev/shm; give the container a larger one (docker run --shm-size=16g or --ipc=host; in "
                  "Kubernetes an emptyDir with medium: Memory and a sizeLimit at /dev/shm) or remove stale nccl-* "
                  "files.",
            "zh": "查看 df -h /dev/shm；为容器提供更大的 /dev/shm（docker run --shm-size=16g 或 --ipc=host；Kubernetes 中在 "
                  "/dev/shm 挂载 medium: Memory 并设 sizeLimit 的 emptyDir），或删除残留的 nccl-* 文件。",
        },
    },
    {
        "errno": 2, "name": "ENOENT", "message": "No such file or directory",
        "source": "https://man7.org/linux/man-pages/man2/open.2.html",
        "points_to": {
            "en": "The segment a peer created is not there when this rank opens it: it was removed first (the peer "
                  "failed and cleaned up, or something empties /dev/shm), or the two ranks do not see the same "
                  "/dev/shm (separate containers or IPC namespaces).",
            "zh": "本 rank 打开对端创建的段时它已不存在：它先被删除了（对端失败后清理，或有程序清空了 /dev/shm），"
                  "或两个 rank 看到的不是同一个 /dev/shm（分属不同容器或 IPC 命名空间）。",
        },
        "remedy": {
            "en": "Keep the ranks of a node in one container or pod, or start their containers with --ipc=host; read "
                  "the peer's log for an earlier failure. NCCL_SHM_DISABLE=1 avoids the segments meanwhile.",
            "zh": "让同一节点的 rank 处于同一个容器或 Pod，或以 --ipc=host 启动它们的容器；查看对端日志中更早的失败。"
                  "在此之前可设 NCCL_SHM_DISABLE=1 避开这些段。",
        },
    },
]

# Subsystems.  Order matters: the first subsystem one of whose globs matches a file owns it.
# ---------------------------------------------------------------------------

SUBSYSTEMS: list[dict] = [
    {
        "id": "gin",
        "files": ["gin/**", "plugin/gin.cc", "plugin/gin/**", "plugin/rma.cc", "plugin/rma/**", "rma/**",
                  "transport/gdaki/**", "transport/net_ib/gdaki/**"],
        "title": {"en": "GPU-Initiated Networking (GIN), RMA and GDAKI (device API, 2.28+)",
                  "zh": "GPU 发起的网络通信（GIN）、RMA 与 GDAKI（device API，2.28+）"},
        "points_to": {
            "en": "The device-side API that lets CUDA kernels issue network puts/signals themselves, either through "
                  "GDAKI (the GPU drives an mlx5 NIC queue directly) or through a CPU proxy backend, plus the "
                  "one-sided RMA layer built on it. WARNs here mean no GIN/RMA-capable NIC was found on some rank, "
                  "GIN is disabled (NCCL_GIN_ENABLE=0) while the application asks for GIN resources, the ranks "
                  "disagree on the backend or its capabilities, the NIC or plugin lacks a needed feature, or "
                  "registering a window for remote access failed (typically no GPUDirect RDMA / DMA-BUF).",
            "zh": "device 端 API 让 CUDA kernel 自己发起网络写入 / 信号：要么通过 GDAKI（GPU 直接驱动 mlx5 网卡队列），"
                  "要么通过 CPU proxy 后端；其上还有单边 RMA 层。这里的 WARN 表示某些 rank 上找不到支持 GIN/RMA 的网卡，"
                  "应用请求了 GIN 资源但 GIN 被关闭（NCCL_GIN_ENABLE=0），各 rank 的后端或能力不一致，网卡或插件缺少所需功能，"
                  "或为远程访问注册窗口失败（通常是没有 GPUDirect RDMA / DMA-BUF）。",
        },
        "remedy": {
            "en": "Give every rank the same RDMA NICs (NCCL_IB_HCA, /dev/infiniband mounted) with GPUDirect RDMA "
                  "working (nvidia-peermem loaded or DMA-BUF with NCCL_DMABUF_ENABLE=1); leave NCCL_GIN_ENABLE at "
                  "its default when the application uses the device API, or pin the backend with NCCL_GIN_TYPE; "
                  "use the same NCCL build on all nodes. Collect NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET.",
            "zh": "让每个 rank 拥有相同的 RDMA 网卡（NCCL_IB_HCA，挂载 /dev/infiniband），并确保 GPUDirect RDMA 可用"
                  "（加载 nvidia-peermem，或使用 DMA-BUF 并设 NCCL_DMABUF_ENABLE=1）；应用使用 device API 时不要关闭 "
                  "NCCL_GIN_ENABLE，或用 NCCL_GIN_TYPE 固定后端；所有节点使用同一 NCCL 构建。收集 NCCL_DEBUG=INFO "
                  "NCCL_DEBUG_SUBSYS=INIT,NET。",
        },
    },
    {
        "id": "ib",
        "files": ["transport/net_ib.cc", "transport/net_ib/**", "misc/ibvwrap.cc", "misc/ibvsymbols.cc",
                  "misc/mlx5dv*.cc", "include/ibv*.h"],
        "title": {"en": "InfiniBand / RoCE transport (IB verbs, mlx5)",
                  "zh": "InfiniBand / RoCE 传输（IB verbs、mlx5）"},
        "points_to": {
            "en": "NCCL's built-in IB/RoCE network could not open, configure or use an RDMA NIC. "
                  "Usual causes: the HCA or its port is down or not visible in the container "
                  "(/dev/infiniband not mapped, no RDMA device plugin); NCCL_IB_HCA names a device or port "
                  "that does not exist; on RoCE the GID index points at a link-local or wrong-VLAN GID, "
                  "or the two sides use different RoCE versions/subnets; memory registration failing because "
                  "the locked-memory limit (ulimit -l) is small in the container; QP/CQ creation hitting "
                  "device limits or running out of memory; GPUDirect RDMA unavailable (nvidia-peermem / "
                  "DMA-BUF not usable); and completion errors (status 12 retry exceeded, 5 flushed) that "
                  "mean the remote peer, a link or a switch went away during traffic.",
            "zh": "NCCL 内置的 IB/RoCE 网络无法打开、配置或使用 RDMA 网卡。常见原因：HCA 或端口处于 down 状态，"
                  "或容器里看不到（未映射 /dev/infiniband、没有 RDMA device plugin）；NCCL_IB_HCA 写了不存在的设备或端口；"
                  "RoCE 下 GID 索引指向链路本地地址或错误 VLAN 的 GID，或两端 RoCE 版本 / 子网不一致；"
                  "容器内锁定内存上限（ulimit -l）太小导致内存注册失败；创建 QP/CQ 超过设备上限或内存不足；"
                  "GPUDirect RDMA 不可用（nvidia-peermem / DMA-BUF 无法使用）；以及完成错误"
                  "（status 12 重传超限、5 被冲刷），表示通信过程中对端进程、链路或交换机出了问题。",
        },
        "remedy": {
            "en": "Check the NICs from inside the container: ibv_devinfo (port state PORT_ACTIVE), ibstat, "
                  "show_gids; mount /dev/infiniband and request the RDMA resource (or run privileged/hostNetwork "
                  "for diagnosis). Pin the devices with NCCL_IB_HCA=mlx5_0,mlx5_1 (prefix '=' for an exact match, "
                  "'^' to exclude) and on RoCE set NCCL_IB_GID_INDEX=3 (the RoCE v2 IPv4 GID; check with "
                  "show_gids), NCCL_IB_TC / NCCL_IB_SL as the fabric requires. Raise the memlock limit: "
                  "docker run --ulimit memlock=-1, ulimit -l unlimited, or LimitMEMLOCK=infinity for the "
                  "container runtime. For GPUDirect RDMA load nvidia-peermem (lsmod | grep peermem) or use "
                  "DMA-BUF (NCCL_DMABUF_ENABLE=1, kernel 5.12+, open GPU driver); as a diagnostic "
                  "NCCL_NET_GDR_LEVEL=LOC turns GDR off. For completion errors look at the peer's log, "
                  "ibdiagnet/port counters, and tune NCCL_IB_TIMEOUT / NCCL_IB_RETRY_CNT. NCCL_IB_DISABLE=1 "
                  "falls back to sockets to prove the IB path is at fault. Collect NCCL_DEBUG=INFO "
                  "NCCL_DEBUG_SUBSYS=INIT,NET.",
            "zh": "在容器内检查网卡：ibv_devinfo（端口状态应为 PORT_ACTIVE）、ibstat、show_gids；挂载 /dev/infiniband 并申请 "
                  "RDMA 资源（排查时可临时用 privileged / hostNetwork）。用 NCCL_IB_HCA=mlx5_0,mlx5_1 指定网卡"
                  "（前缀 '=' 精确匹配，'^' 排除）；RoCE 下设置 NCCL_IB_GID_INDEX=3（RoCE v2 的 IPv4 GID，用 show_gids 确认），"
                  "按网络要求设置 NCCL_IB_TC / NCCL_IB_SL。提高锁定内存上限：docker run --ulimit memlock=-1、"
                  "ulimit -l unlimited，或给容器运行时设置 LimitMEMLOCK=infinity。GPUDirect RDMA 需加载 nvidia-peermem"
                  "（lsmod | grep peermem）或改用 DMA-BUF（NCCL_DMABUF_ENABLE=1，内核 5.12+、开源 GPU 驱动）；"
                  "排查时 NCCL_NET_GDR_LEVEL=LOC 可关闭 GDR。完成错误要看对端日志、ibdiagnet / 端口计数器，"
                  "并调整 NCCL_IB_TIMEOUT / NCCL_IB_RETRY_CNT。NCCL_IB_DISABLE=1 退回 socket，可用来确认是否是 IB 路径的问题。"
                  "收集 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET 日志。",
        },
    },
    {
        "id": "socket",
        "files": ["misc/socket.cc", "include/socket.h", "transport/net_socket.cc"],
        "title": {"en": "TCP sockets (bootstrap and socket network)",
                  "zh": "TCP socket（bootstrap 与 socket 网络）"},
        "points_to": {
            "en": "A TCP connection NCCL uses for bootstrap, for its out-of-band exchange or as the data network "
                  "failed. Usual causes: NCCL picked the wrong interface (docker0 bridge, a veth, a loopback or an "
                  "address on a subnet the other nodes cannot reach) because NCCL_SOCKET_IFNAME is unset or wrong; "
                  "a firewall or security group blocks the ephemeral ports between pods/nodes; the peer process "
                  "died or was killed (its own log holds the first error), giving 'connection reset' / "
                  "'connection closed by remote peer'; no usable interface at all; or mismatched address families "
                  "(IPv4 vs IPv6).",
            "zh": "NCCL 用于 bootstrap、带外信息交换或作为数据网络的 TCP 连接失败。常见原因：未设置或设错 NCCL_SOCKET_IFNAME，"
                  "NCCL 选中了错误的网卡（docker0 网桥、veth、回环地址，或其他节点不可达子网上的地址）；防火墙或安全组拦截了"
                  "Pod / 节点之间的临时端口；对端进程已退出或被杀（第一个错误在对端日志里），表现为 connection reset / "
                  "connection closed by remote peer；根本没有可用网卡；或地址族不一致（IPv4 与 IPv6）。",
        },
        "remedy": {
            "en": "Set NCCL_SOCKET_IFNAME to the interface all ranks share, e.g. NCCL_SOCKET_IFNAME=eth0 (or "
                  "'=eth0' for an exact name, '^docker0,lo,veth' to exclude); set NCCL_SOCKET_FAMILY=AF_INET if "
                  "IPv6 addresses get picked. Check that every node can reach the others on that address (ping, "
                  "nc -zv host port) and open the TCP port range between them; in Kubernetes use the pod network "
                  "or hostNetwork consistently on all ranks. Check that MASTER_ADDR/the root address resolves to "
                  "the same interface. If a peer died, read the first failing rank's log (OOM kill, exception, "
                  "XID) rather than this one. Collect NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP to see "
                  "the chosen interfaces ('Bootstrap : Using eth0:...').",
            "zh": "把 NCCL_SOCKET_IFNAME 设为所有 rank 共用的网卡，例如 NCCL_SOCKET_IFNAME=eth0（'=eth0' 精确匹配，"
                  "'^docker0,lo,veth' 表示排除）；若被选中的是 IPv6 地址，设置 NCCL_SOCKET_FAMILY=AF_INET。确认各节点能通过该地址"
                  "互通（ping、nc -zv HOST PORT），并放通节点之间的 TCP 端口范围；Kubernetes 中所有 rank 要么都用 Pod 网络、要么都用 "
                  "hostNetwork。确认 MASTER_ADDR / root 地址解析到同一网卡。如果是对端退出，应去看最先失败的 rank 的日志"
                  "（OOM kill、异常、XID），而不是本条。收集 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET,BOOTSTRAP，"
                  "查看选中的网卡（'Bootstrap : Using eth0:...'）。",
        },
        "errnos": SOCKET_ERRNOS,
    },
    {
        "id": "net",
        "files": ["transport/net.cc", "net.cc", "plugin/net.cc", "misc/gdrwrap.cc", "include/gdrwrap.h"],
        "title": {"en": "Network transport and net plugin loading",
                  "zh": "网络传输层与 net 插件加载"},
        "points_to": {
            "en": "The generic network layer between GPUs on different nodes: loading the net plugin "
                  "(libnccl-net.so or NCCL_NET_PLUGIN) and checking its API version, choosing the network "
                  "(NCCL_NET), connecting send/recv pairs, registering buffers with the NIC and running the "
                  "proxy-driven transfers. Usual causes: a plugin built for another NCCL or CUDA version, or one "
                  "that cannot find its own dependencies; NCCL_NET naming a network that is not available; the "
                  "remote side failing (the error then follows an IB or socket WARN); buffer registration failing "
                  "for lack of GPUDirect RDMA; and GDRCopy (gdrdrv) problems.",
            "zh": "跨节点 GPU 之间的通用网络层：加载 net 插件（libnccl-net.so 或 NCCL_NET_PLUGIN）并检查其 API 版本、"
                  "选择网络（NCCL_NET）、建立收发连接、向网卡注册缓冲区以及由 proxy 驱动的数据传输。常见原因：插件是针对其他 "
                  "NCCL 或 CUDA 版本编译的，或找不到自身依赖；NCCL_NET 指定的网络不可用；对端失败（这时前面通常有 IB 或 socket "
                  "的 WARN）；缺少 GPUDirect RDMA 导致缓冲区注册失败；以及 GDRCopy（gdrdrv）问题。",
        },
        "remedy": {
            "en": "Look for the 'NET/Plugin' INFO lines (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET) to see which "
                  "plugin and network were chosen. Point NCCL_NET_PLUGIN at a plugin built for this NCCL (or, on 2.28+, "
                  "NCCL_NET_PLUGIN=none to use the built-in IB/socket code; earlier, unset it and remove "
                  "libnccl-net.so from the library path), and NCCL_NET=IB or NCCL_NET=Socket to "
                  "force a network. Make the plugin's libraries resolvable (ldd on the .so, LD_LIBRARY_PATH). "
                  "Diagnose GPUDirect RDMA with NCCL_NET_GDR_LEVEL=LOC (off) and GDRCopy with NCCL_GDRCOPY_ENABLE=0. "
                  "If an IB or socket WARN precedes this one, fix that first.",
            "zh": "查看 'NET/Plugin' 相关 INFO 行（NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET），确认选中的插件与网络。"
                  "让 NCCL_NET_PLUGIN 指向为当前 NCCL 编译的插件（2.28+ 也可设 NCCL_NET_PLUGIN=none 使用内置 IB/socket 实现；"
                  "更早版本则取消该变量并把 libnccl-net.so 移出库路径），用 "
                  "NCCL_NET=IB 或 NCCL_NET=Socket 强制指定网络。确保插件依赖的库可被找到（对 .so 执行 ldd、设置 LD_LIBRARY_PATH）。"
                  "用 NCCL_NET_GDR_LEVEL=LOC（关闭 GDR）排查 GPUDirect RDMA，用 NCCL_GDRCOPY_ENABLE=0 排查 GDRCopy。"
                  "如果本条之前已有 IB 或 socket 的 WARN，先处理那条。",
        },
    },
    {
        "id": "shm",
        # include/shm.h: the header that held the segment code (and its SYSCHECK calls) up to 2.11
        "files": ["transport/shm.cc", "misc/shmutils.cc", "include/shm.h"],
        "title": {"en": "Shared memory (/dev/shm) transport",
                  "zh": "共享内存（/dev/shm）传输"},
        "points_to": {
            "en": "NCCL could not create, size, map or attach a POSIX shared-memory segment under /dev/shm, used "
                  "between processes on the same node (SHM transport, proxy and host buffers). Usual causes: the "
                  "container's /dev/shm is the 64 MB Docker default or a small tmpfs and runs out (errors such as "
                  "'No space left on device' or a bus error); ranks of one node in different containers or IPC "
                  "namespaces so one cannot open the other's segment; the segment was removed before the peer "
                  "attached; or /dev/shm, or a stale segment of the same name, is not writable by the process's "
                  "user ('Permission denied').",
            "zh": "NCCL 无法在 /dev/shm 下创建、扩容、映射或附加 POSIX 共享内存段，该共享内存用于同节点进程之间的通信"
                  "（SHM 传输、proxy 与主机缓冲区）。常见原因：容器的 /dev/shm 仍是 Docker 默认的 64 MB 或很小的 tmpfs，空间耗尽"
                  "（报 'No space left on device' 或 bus error）；同一节点的 rank 分布在不同容器或 IPC 命名空间中，互相打不开对方的段；"
                  "对端附加之前共享内存段已被删除；或 /dev/shm（或同名的残留段）对该进程的用户不可写（'Permission denied'）。",
        },
        "remedy": {
            "en": "Give the container a large /dev/shm: docker run --shm-size=16g (or --ipc=host); in Kubernetes "
                  "mount an emptyDir with medium: Memory (and a sizeLimit) at /dev/shm. Check free space with "
                  "df -h /dev/shm. Keep all ranks of a node in one IPC namespace: one pod (its containers share it) or "
                  "docker run --ipc=host / --ipc=container:<name>. As a diagnostic NCCL_SHM_DISABLE=1 moves intra-node traffic to P2P or "
                  "the network.",
            "zh": "给容器足够大的 /dev/shm：docker run --shm-size=16g（或 --ipc=host）；Kubernetes 中在 /dev/shm 挂载 "
                  "medium: Memory 的 emptyDir（并设置 sizeLimit）。用 df -h /dev/shm 查看剩余空间。同一节点的所有 rank 要处于同一 IPC "
                  "命名空间：放在同一个 Pod（其容器共享 IPC 命名空间），或 docker run --ipc=host / --ipc=container:<名称>。排查时 NCCL_SHM_DISABLE=1 "
                  "可把节点内流量改走 P2P 或网络。",
        },
        "errnos": SHM_ERRNOS,
    },
    {
        "id": "p2p",
        "files": ["transport/p2p.cc", "misc/ipcsocket.cc", "os/*ipcsocket*", "register.cc", "register/**",
                  "allocator.cc", "mnnvl.cc", "mem_manager.cc"],
        "title": {"en": "Intra-node GPU peer-to-peer, CUDA IPC / cuMem and buffer registration",
                  "zh": "节点内 GPU 点对点、CUDA IPC / cuMem 与缓冲区注册"},
        "points_to": {
            "en": "Direct GPU-to-GPU access inside a node (NVLink or PCIe P2P) and the memory machinery behind it: "
                  "CUDA IPC handles, cuMem (VMM) allocations exported as POSIX file descriptors over a UNIX socket "
                  "or as fabric handles (multi-node NVLink), and user buffer registration. Usual causes: GPUs in "
                  "different containers or PID namespaces so IPC handles or the UNIX-domain socket cannot be "
                  "shared; seccomp/ptrace limits on pidfd_getfd; a driver, fabric manager or IMEX channel that "
                  "does not support the handle type; PCIe ACS or a virtualised topology that breaks P2P; "
                  "running out of GPU memory when mapping peer buffers; and misuse of registration APIs.",
            "zh": "节点内 GPU 之间的直接访问（NVLink 或 PCIe P2P）及其背后的内存机制：CUDA IPC 句柄、以 POSIX 文件描述符"
                  "（通过 UNIX socket 传递）或 fabric 句柄（多节点 NVLink）导出的 cuMem（VMM）分配，以及用户缓冲区注册。"
                  "常见原因：GPU 分属不同容器或 PID 命名空间，IPC 句柄或 UNIX 域 socket 无法共享；seccomp / ptrace 限制了 "
                  "pidfd_getfd；驱动、Fabric Manager 或 IMEX channel 不支持该句柄类型；PCIe ACS 或虚拟化拓扑导致 P2P 不可用；"
                  "映射对端缓冲区时显存不足；以及注册类 API 使用不当。",
        },
        "remedy": {
            "en": "Run all ranks of a node in one container/pod, or share namespaces (--ipc=host --pid=host). As "
                  "diagnostics: NCCL_P2P_DISABLE=1 (avoid P2P), NCCL_CUMEM_ENABLE=0 (go back to legacy CUDA IPC "
                  "instead of cuMem/VMM handles), NCCL_P2P_USE_CUDA_MEMCPY=1, NCCL_P2P_LEVEL=NVL. Check the "
                  "topology with nvidia-smi topo -m and disable PCIe ACS on bare metal. For multi-node NVLink "
                  "check nvidia-fabricmanager / IMEX (/dev/nvidia-caps-imex-channels mounted) or set "
                  "NCCL_MNNVL_ENABLE=0. Free GPU memory (lower the framework's cache) if maps fail with out of "
                  "memory. Collect NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P,ALLOC.",
            "zh": "同一节点的所有 rank 放在同一个容器 / Pod，或共享命名空间（--ipc=host --pid=host）。排查手段："
                  "NCCL_P2P_DISABLE=1（不用 P2P）、NCCL_CUMEM_ENABLE=0（不用 cuMem/VMM 句柄，退回传统 CUDA IPC）、"
                  "NCCL_P2P_USE_CUDA_MEMCPY=1、NCCL_P2P_LEVEL=NVL。用 nvidia-smi topo -m 查看拓扑，裸金属上关闭 PCIe ACS。"
                  "多节点 NVLink 检查 nvidia-fabricmanager / IMEX（挂载 /dev/nvidia-caps-imex-channels），或设 "
                  "NCCL_MNNVL_ENABLE=0。若映射时报显存不足，减少框架缓存以释放显存。收集 NCCL_DEBUG=INFO "
                  "NCCL_DEBUG_SUBSYS=INIT,P2P,ALLOC。",
        },
    },
    {
        "id": "nvls",
        "files": ["transport/nvls.cc"],
        "title": {"en": "NVLink SHARP (NVLS) multicast",
                  "zh": "NVLink SHARP（NVLS）多播"},
        "points_to": {
            "en": "NCCL could not set up NVLink SHARP multicast objects on NVSwitch systems (H100/H200/B200 "
                  "HGX, GB200). Usual causes: the Fabric Manager is not running or does not match the driver, "
                  "the driver/CUDA is too old for multicast, cuMem handles cannot be exchanged between the "
                  "containers, or NVLS buffers do not fit in GPU memory.",
            "zh": "NCCL 无法在 NVSwitch 系统（H100/H200/B200 HGX、GB200）上建立 NVLink SHARP 多播对象。常见原因：Fabric "
                  "Manager 未运行或与驱动版本不符，驱动 / CUDA 版本太旧不支持多播，cuMem 句柄无法在容器之间交换，"
                  "或 NVLS 缓冲区超出可用显存。",
        },
        "remedy": {
            "en": "Check nvidia-fabricmanager status and that its version equals the driver's; run ranks of a node "
                  "in one container or share IPC/PID namespaces. NCCL_NVLS_ENABLE=0 turns NVLS off (diagnostic "
                  "or workaround). Lower NCCL_NVLS_NCHANNELS or NCCL_NVLS_CHUNKSIZE if GPU memory is tight.",
            "zh": "检查 nvidia-fabricmanager 的运行状态，并确认其版本与驱动一致；同一节点的 rank 放在同一容器或共享 IPC/PID "
                  "命名空间。NCCL_NVLS_ENABLE=0 关闭 NVLS（用于排查或规避）。"
                  "显存紧张时可调小 NCCL_NVLS_NCHANNELS 或 NCCL_NVLS_CHUNKSIZE。",
        },
    },
    {
        "id": "collnet",
        "files": ["transport/coll_net.cc"],
        "title": {"en": "CollNet (in-network reduction, e.g. SHARP)",
                  "zh": "CollNet（网络内归约，如 SHARP）"},
        "points_to": {
            "en": "The CollNet transport, which offloads reductions to the network through a collnet plugin "
                  "(for example the SHARP plugin in nccl-rdma-sharp-plugins), failed to connect, register "
                  "memory or complete an operation. Usual causes: the SHARP aggregation manager or plugin is "
                  "not available or misconfigured, or the underlying IB path failed.",
            "zh": "CollNet 传输通过 collnet 插件（例如 nccl-rdma-sharp-plugins 中的 SHARP 插件）把归约卸载到网络，"
                  "该传输在建立连接、注册内存或完成操作时失败。常见原因：SHARP 聚合管理器或插件不可用或配置有误，或底层 IB 路径失败。",
        },
        "remedy": {
            "en": "Set NCCL_COLLNET_ENABLE=0 to rule CollNet out; check the plugin (NCCL_NET_PLUGIN, its SHARP_COLL_* "
                  "settings) and the SHARP manager; then look at the IB side.",
            "zh": "设 NCCL_COLLNET_ENABLE=0 排除 CollNet；检查插件（NCCL_NET_PLUGIN 及其 SHARP_COLL_* 设置）与 SHARP "
                  "管理器；然后再查 IB 侧。",
        },
    },
    {
        "id": "proxy",
        "files": ["proxy.cc"],
        "title": {"en": "Proxy thread (host-side helper for network and shared-memory transfers)",
                  "zh": "Proxy 线程（网络与共享内存传输的主机侧助手）"},
        "points_to": {
            "en": "The per-process proxy thread, which drives network sends/receives and serves other local ranks "
                  "over a UNIX-domain or TCP socket, failed: a local peer died or closed its connection, a proxy "
                  "call timed out, shared memory for proxy operations could not be set up, or an operation failed "
                  "asynchronously in the transport below (an IB/socket/net WARN usually comes first).",
            "zh": "每个进程的 proxy 线程负责驱动网络收发，并通过 UNIX 域或 TCP socket 为本节点其他 rank 提供服务；它失败的情形包括："
                  "本地对端退出或关闭连接、proxy 调用超时、proxy 操作所需的共享内存无法建立，或下层传输异步出错"
                  "（通常之前已有 IB/socket/net 的 WARN）。",
        },
        "remedy": {
            "en": "Find the first WARN across all ranks of the node; check that no rank was OOM-killed or crashed; "
                  "give the container enough /dev/shm (--shm-size=16g or an emptyDir medium: Memory) and keep the "
                  "node's ranks in one IPC namespace. Collect NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,PROXY,NET.",
            "zh": "找出本节点所有 rank 中最早的那条 WARN；确认没有 rank 被 OOM kill 或崩溃；给容器足够的 /dev/shm"
                  "（--shm-size=16g 或 medium: Memory 的 emptyDir），并让本节点的 rank 处于同一 IPC 命名空间。收集 "
                  "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,PROXY,NET。",
        },
    },
    {
        "id": "bootstrap",
        "files": ["bootstrap.cc"],
        "title": {"en": "Bootstrap (out-of-band rendezvous of all ranks)",
                  "zh": "Bootstrap（所有 rank 的带外会合）"},
        "points_to": {
            "en": "The out-of-band rendezvous that connects all ranks at communicator creation, based on the "
                  "unique id the root rank publishes, failed or timed out. Usual causes: ranks disagree on the "
                  "unique id / world size (a launcher bug or stale MASTER_ADDR), the root's address is not "
                  "reachable from the other nodes (wrong NCCL_SOCKET_IFNAME, firewall, different pod networks), "
                  "one rank never started or died, or NCCL_COMM_ID points to a wrong host:port.",
            "zh": "在创建通信器时，基于 root rank 发布的 unique id 把所有 rank 连接起来的带外会合失败或超时。常见原因：各 rank 的 "
                  "unique id / world size 不一致（启动器问题或 MASTER_ADDR 过期），其他节点访问不到 root 的地址"
                  "（NCCL_SOCKET_IFNAME 不对、防火墙、Pod 网络不同），某个 rank 没有启动或已退出，或 NCCL_COMM_ID 指向错误的 host:port。",
        },
        "remedy": {
            "en": "Make all ranks use the same interface: NCCL_SOCKET_IFNAME=eth0 (and the same for "
                  "MASTER_ADDR); open the ports between nodes; verify that every rank started (launcher logs) "
                  "and received the same world size; unset or correct NCCL_COMM_ID. NCCL_DEBUG=INFO "
                  "NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP shows the addresses used.",
            "zh": "让所有 rank 使用同一网卡：NCCL_SOCKET_IFNAME=eth0（MASTER_ADDR 也要对应该网卡）；放通节点之间的端口；"
                  "确认每个 rank 都已启动（看启动器日志）且 world size 一致；清除或改正 NCCL_COMM_ID。NCCL_DEBUG=INFO "
                  "NCCL_DEBUG_SUBSYS=INIT,BOOTSTRAP 可显示使用的地址。",
        },
    },
    {
        "id": "topology",
        "files": ["graph/**"],
        "title": {"en": "Topology detection, graph search and tuning",
                  "zh": "拓扑探测、图搜索与调优"},
        "points_to": {
            "en": "NCCL's view of the node (GPUs, NVLink, PCIe switches, NICs, CPUs from /sys and NVML), the "
                  "search for rings/trees over it, and the algorithm/protocol tuning. Usual causes: a container "
                  "that hides or fakes /sys (PCI paths unresolvable, NUMA info missing), an NCCL_TOPO_FILE or "
                  "NCCL_GRAPH_FILE that does not match the machine, GPUs or NICs the search cannot connect, "
                  "malformed tuning variables (NCCL_ALGO, NCCL_PROTO), or ranks of one communicator that see "
                  "different topologies.",
            "zh": "NCCL 对本机的认识（从 /sys 与 NVML 得到的 GPU、NVLink、PCIe 交换机、网卡、CPU）、基于它的 ring/tree 搜索，"
                  "以及算法 / 协议调优。常见原因：容器隐藏或伪造了 /sys（解析不出 PCI 路径、缺少 NUMA 信息），NCCL_TOPO_FILE "
                  "或 NCCL_GRAPH_FILE 与机器不符，搜索无法连通某些 GPU 或网卡，调优变量（NCCL_ALGO、NCCL_PROTO）格式错误，"
                  "或同一通信器的各 rank 看到的拓扑不一致。",
        },
        "remedy": {
            "en": "Mount /sys read-only as usual (do not mask /sys/devices), and compare NCCL_TOPO_DUMP_FILE="
                  "/tmp/topo.xml output with nvidia-smi topo -m. Remove or fix NCCL_TOPO_FILE / NCCL_GRAPH_FILE "
                  "and NCCL_ALGO / NCCL_PROTO settings. Give every rank the same GPU/NIC visibility "
                  "(CUDA_VISIBLE_DEVICES, NCCL_IB_HCA). Collect NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING.",
            "zh": "按常规以只读方式挂载 /sys（不要屏蔽 /sys/devices），把 NCCL_TOPO_DUMP_FILE=/tmp/topo.xml 的输出与 "
                  "nvidia-smi topo -m 对照。删除或改正 NCCL_TOPO_FILE / NCCL_GRAPH_FILE 以及 NCCL_ALGO / NCCL_PROTO 设置。"
                  "让每个 rank 看到相同的 GPU / 网卡（CUDA_VISIBLE_DEVICES、NCCL_IB_HCA）。收集 NCCL_DEBUG=INFO "
                  "NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING。",
        },
    },
    {
        "id": "ras",
        "files": ["ras/**"],
        "title": {"en": "RAS (reliability, availability, serviceability) monitor",
                  "zh": "RAS（可靠性、可用性、可服务性）监控"},
        "points_to": {
            "en": "NCCL's RAS subsystem (2.24+), a background thread that keeps TCP links between processes to "
                  "report the state of communicators (ncclras client, port 28028 by default). Its WARNs mean it "
                  "could not bind or connect its sockets, a peer stopped answering keep-alives (often a dead or "
                  "hung node), or it received an unexpected message. They rarely cause a job failure by "
                  "themselves.",
            "zh": "NCCL 的 RAS 子系统（2.24+）是一个后台线程，在进程之间保持 TCP 连接以报告通信器状态（ncclras 客户端，"
                  "默认端口 28028）。它的 WARN 表示无法绑定或连接其 socket、对端不再响应心跳（常见于节点宕机或卡死），"
                  "或收到意外消息。它们本身很少导致作业失败。",
        },
        "remedy": {
            "en": "Check the node that stopped answering; if the RAS port is blocked or conflicts, set "
                  "NCCL_RAS_ADDR=<addr>:<port> or turn RAS off with NCCL_RAS_ENABLE=0. Query a running job with "
                  "the ncclras client.",
            "zh": "检查不再响应的节点；若 RAS 端口被拦截或冲突，设置 NCCL_RAS_ADDR=<地址>:<端口>，或用 NCCL_RAS_ENABLE=0 关闭 RAS。"
                  "可用 ncclras 客户端查询运行中的作业。",
        },
    },
    {
        "id": "cuda",
        "files": ["misc/cudawrap.cc", "include/cudawrap.h", "include/checks.h", "include/alloc.h",
                  "misc/nvmlwrap.cc", "misc/strongstream.cc"],
        "title": {"en": "CUDA driver / runtime / NVML calls",
                  "zh": "CUDA 驱动 / 运行时 / NVML 调用"},
        "points_to": {
            "en": "A CUDA runtime, CUDA driver or NVML call made by NCCL failed (CUDACHECK and friends print the "
                  "CUDA error string, e.g. \"Cuda failure 'out of memory'\"). Usual causes: the GPU ran out of "
                  "memory, an earlier kernel fault poisoned the context (illegal address, XID), the driver "
                  "libraries in the container do not match the kernel module (libcuda.so / libnvidia-ml.so "
                  "missing or from another driver), the CUDA driver is too old for the runtime, or "
                  "CUDA_VISIBLE_DEVICES / the container's GPU set differs between ranks.",
            "zh": "NCCL 调用 CUDA 运行时、CUDA 驱动或 NVML 失败（CUDACHECK 等会打印 CUDA 错误字符串，例如 "
                  "'Cuda failure 2 out of memory'）。常见原因：显存耗尽，之前的 kernel 故障已破坏上下文（非法地址、XID），"
                  "容器内驱动库与内核模块不匹配（缺少 libcuda.so / libnvidia-ml.so 或来自其他驱动版本），CUDA 驱动版本低于运行时要求，"
                  "或各 rank 的 CUDA_VISIBLE_DEVICES / 容器 GPU 集合不一致。",
        },
        "remedy": {
            "en": "Read the CUDA error in the message; check nvidia-smi inside the container and dmesg for XIDs; "
                  "make sure the NVIDIA container toolkit injected the host driver libraries (ldconfig -p | grep "
                  "libcuda) and that the driver satisfies the image's CUDA version (or use forward compatibility "
                  "correctly); reduce memory use (NCCL_BUFFSIZE, framework cache) on out-of-memory; as a "
                  "diagnostic NCCL_CUMEM_ENABLE=0. Rerun with CUDA_LAUNCH_BLOCKING=1 to locate an earlier kernel "
                  "fault.",
            "zh": "先看消息里的 CUDA 错误；在容器内运行 nvidia-smi，并查看 dmesg 中的 XID；确认 NVIDIA container toolkit 已注入宿主机驱动库"
                  "（ldconfig -p | grep libcuda），且驱动满足镜像的 CUDA 版本要求（或正确使用向前兼容包）；显存不足时减少占用"
                  "（NCCL_BUFFSIZE、框架缓存）；排查时可设 NCCL_CUMEM_ENABLE=0。用 CUDA_LAUNCH_BLOCKING=1 重跑以定位更早的 kernel 故障。",
        },
    },
    {
        "id": "init",
        "files": ["init.cc", "init_nvtx.cc", "channel.cc", "group.cc", "enqueue.cc", "transport.cc",
                  "dev_runtime*.cc", "devcomm/**", "ce_coll.cc", "scheduler/**", "misc/argcheck.cc"],
        "title": {"en": "Communicator setup, API use and collective launch",
                  "zh": "通信器建立、API 使用与集合通信下发"},
        "points_to": {
            "en": "Creating, splitting, finalising or aborting a communicator, checking the arguments of NCCL calls "
                  "and turning them into kernels. Usual causes: API misuse reported as 'invalid usage' (null or "
                  "misaligned buffers, a count/datatype/op that does not match across ranks, ranks calling "
                  "collectives in different orders, using a communicator from two threads, mismatched "
                  "ncclGroupStart/End), duplicate GPUs in one communicator (two ranks on the same device, e.g. "
                  "because of CUDA_VISIBLE_DEVICES in containers), a mismatch of NCCL versions between ranks, "
                  "an asynchronous error already raised by another part of NCCL, and timeouts or aborts "
                  "triggered by the framework's watchdog.",
            "zh": "创建、拆分、结束或中止通信器，检查 NCCL 调用的参数并把它们转换为 kernel。常见原因：API 误用，报 invalid usage"
                  "（缓冲区为空或未对齐，各 rank 的 count / 数据类型 / 归约操作不一致，各 rank 调用集合通信的顺序不同，"
                  "两个线程共用一个通信器，ncclGroupStart/End 不配对）；一个通信器里出现重复 GPU（两个 rank 在同一设备上，"
                  "例如容器里的 CUDA_VISIBLE_DEVICES 配置问题）；各 rank 的 NCCL 版本不一致；NCCL 其他部分先前已产生异步错误；"
                  "以及框架看门狗触发的超时或中止。",
        },
        "remedy": {
            "en": "Fix the call site the message names (same count, dtype, op and order of collectives on every "
                  "rank; one device per rank: check LOCAL_RANK → cuda.set_device and CUDA_VISIBLE_DEVICES); use the "
                  "same NCCL build on every node (one image); look earlier in the log for the first WARN when the "
                  "message reports an async error. Collect NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL; "
                  "TORCH_NCCL_ASYNC_ERROR_HANDLING / TORCH_NCCL_BLOCKING_WAIT control how PyTorch surfaces it.",
            "zh": "修正消息所指的调用（每个 rank 的 count、dtype、op 以及集合通信顺序一致；每个 rank 一块 GPU：检查 LOCAL_RANK → "
                  "cuda.set_device 与 CUDA_VISIBLE_DEVICES）；所有节点使用同一 NCCL 构建（同一镜像）；若消息报告的是异步错误，"
                  "到日志前面找第一条 WARN。收集 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL；PyTorch 通过 "
                  "TORCH_NCCL_ASYNC_ERROR_HANDLING / TORCH_NCCL_BLOCKING_WAIT 控制如何上报此类错误。",
        },
    },
    {
        "id": "os",
        "files": ["os/**"],
        "title": {"en": "OS abstraction layer (sockets, shared memory, affinity; 2.29+)",
                  "zh": "操作系统抽象层（socket、共享内存、CPU 亲和性；2.29+）"},
        "points_to": {
            "en": "From 2.29 NCCL moved its system calls behind src/os/ (linux.cc, windows.cc); the socket "
                  "connect/accept, POSIX shared-memory create/extend/map (2.30) and CPU-affinity calls that used "
                  "to warn from misc/socket.cc and misc/shmutils.cc now warn from here. Causes are those of the "
                  "socket and shm subsystems: wrong interface or blocked ports, a peer that died, a /dev/shm that "
                  "is too small or not shared, and CPU sets restricted by the container (cgroup cpuset).",
            "zh": "从 2.29 起 NCCL 把系统调用集中到 src/os/（linux.cc、windows.cc）：原来在 misc/socket.cc 与 misc/shmutils.cc 中"
                  "报警的 socket connect/accept、POSIX 共享内存创建 / 扩展 / 映射（2.30）以及 CPU 亲和性调用，现在从这里报警。"
                  "原因与 socket、shm 两个子系统相同：网卡选错或端口被拦截、对端已退出、/dev/shm 太小或未共享，"
                  "以及容器（cgroup cpuset）限制了可用 CPU。",
        },
        "remedy": {
            "en": "Socket messages: NCCL_SOCKET_IFNAME=eth0, open the ports, read the peer's log. Shared-memory "
                  "messages: docker run --shm-size=16g (or --ipc=host), or an emptyDir with medium: Memory on "
                  "/dev/shm; NCCL_SHM_DISABLE=1 as a diagnostic. Affinity messages: check the container's cpuset "
                  "(cat /sys/fs/cgroup/cpuset.cpus.effective) or set NCCL_IGNORE_CPU_AFFINITY=1.",
            "zh": "socket 类消息：NCCL_SOCKET_IFNAME=eth0，放通端口，查看对端日志。共享内存类消息：docker run --shm-size=16g"
                  "（或 --ipc=host），或在 /dev/shm 挂载 medium: Memory 的 emptyDir；排查时可设 NCCL_SHM_DISABLE=1。亲和性类消息："
                  "检查容器的 cpuset（cat /sys/fs/cgroup/cpuset.cpus.effective），或设 NCCL_IGNORE_CPU_AFFINITY=1。",
        },
        #: socket and shared-memory calls both warn from here (their errnos do not overlap)
        "errnos": SOCKET_ERRNOS + SHM_ERRNOS,
    },
    {
        "id": "misc",
        "files": ["**"],
        "title": {"en": "Other NCCL internals (parameters, plugins, utilities)",
                  "zh": "NCCL 其他内部模块（参数、插件、工具函数）"},
        "points_to": {
            "en": "Everything not covered above: environment/parameter parsing (a malformed NCCL_* value), "
                  "tuner/profiler/env plugin loading (NCCL_TUNER_PLUGIN, NCCL_PROFILER_PLUGIN, NCCL_ENV_PLUGIN "
                  "pointing at a missing or incompatible library), debug-log setup (NCCL_DEBUG_FILE not "
                  "writable), host memory helpers, the memory profiler and generic utilities.",
            "zh": "上面未覆盖的部分：环境变量 / 参数解析（NCCL_* 取值格式错误），tuner / profiler / env 插件加载"
                  "（NCCL_TUNER_PLUGIN、NCCL_PROFILER_PLUGIN、NCCL_ENV_PLUGIN 指向缺失或不兼容的库），调试日志设置"
                  "（NCCL_DEBUG_FILE 不可写），主机内存辅助函数、内存分析器以及通用工具函数。",
        },
        "remedy": {
            "en": "Read the variable or library the message names and correct or unset it (env | grep NCCL_); "
                  "disable optional plugins to isolate (NCCL_TUNER_PLUGIN=none, NCCL_PROFILER_PLUGIN=none on 2.28+; "
                  "on older releases unset them and keep stray libnccl-tuner*.so / libnccl-profiler*.so off the "
                  "library path); "
                  "make NCCL_DEBUG_FILE point to a writable path; check host memory limits of the container. "
                  "Collect NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=ALL for context.",
            "zh": "查看消息中提到的变量或库，改正或取消设置（env | grep NCCL_）；关闭可选插件以隔离问题（2.28+ 可设 NCCL_TUNER_PLUGIN=none、"
                  "NCCL_PROFILER_PLUGIN=none；更早版本则取消这些变量，并确保库路径上没有多余的 libnccl-tuner*.so / "
                  "libnccl-profiler*.so）；让 NCCL_DEBUG_FILE 指向可写路径；检查容器的主机内存限制。收集 "
                  "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=ALL 以获得上下文。",
        },
    },
]


# <inttypes.h> format macros as glibc defines them on LP64 (x86_64, aarch64).
_PRI_RE = re.compile(r"^(PRI|SCN)([diouxX])(8|16|32|64|LEAST8|LEAST16|LEAST32|LEAST64|FAST8|FAST16|FAST32|FAST64"
                     r"|MAX|PTR)$")


def pri_expansion(name: str) -> str | None:
    m = _PRI_RE.match(name)
    if not m:
        return None
    kind, conv, width = m.groups()
    if width in ("64", "LEAST64", "FAST64", "MAX", "PTR", "FAST16", "FAST32"):
        return "l" + conv
    if kind == "SCN" and width in ("8", "LEAST8", "FAST8"):
        return "hh" + conv
    if kind == "SCN" and width in ("16", "LEAST16"):
        return "h" + conv
    return conv


def owner(path: str) -> tuple[str, str] | None:
    """(subsystem id, glob) of the first subsystem whose glob matches ``path``."""
    for s in SUBSYSTEMS:
        for pattern in s["files"]:
            if fnmatch.fnmatchcase(path, pattern):
                return s["id"], pattern
    return None


# ---------------------------------------------------------------------------
# A C lexer, just enough to find WARN(...) calls and their first argument.
# ---------------------------------------------------------------------------

@dataclass
class Tok:
    kind: str           # 'id', 'str', 'num', 'chr', 'p' (punctuator)
    val: str            # identifier / punctuator text; for 'str' the decoded contents
    line: int           # line in the original file
    define: str | None  # name of the #define whose body holds the token, if any


_SIMPLE_ESC = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
               "\\": "\\", "'": "'", '"': '"', "?": "?", "e": "\x1b"}


def decode_c_string(body: str) -> str:
    out = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        i += 1
        if i >= n:
            out.append("\\")
            break
        e = body[i]
        if e in _SIMPLE_ESC:
            out.append(_SIMPLE_ESC[e])
            i += 1
        elif e in "01234567":
            j = i
            while j < n and j < i + 3 and body[j] in "01234567":
                j += 1
            out.append(chr(int(body[i:j], 8)))
            i = j
        elif e == "x":
            j = i + 1
            while j < n and body[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(chr(int(body[i + 1:j], 16)) if j > i + 1 else "x")
            i = j
        elif e in "uU":
            width = 4 if e == "u" else 8
            out.append(chr(int(body[i + 1:i + 1 + width], 16)))
            i += 1 + width
        else:  # unknown escape: GCC keeps the character (with a warning)
            out.append(e)
            i += 1
    return "".join(out)


_ID_START = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_ID_CHARS = _ID_START | set("0123456789")
_STR_PREFIXES = {"L", "u", "U", "u8"}
_RAW_PREFIXES = {"R", "LR", "uR", "UR", "u8R"}


def lex(text: str) -> list[Tok]:
    # Translation phase 2: splice backslash-newline, remembering each character's original line.
    text = text.replace("\r\n", "\n")
    chars: list[str] = []
    lines: list[int] = []
    line = 1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] == "\n":
            i += 2
            line += 1
            continue
        chars.append(c)
        lines.append(line)
        if c == "\n":
            line += 1
        i += 1
    s = "".join(chars)
    n = len(s)
    toks: list[Tok] = []
    i = 0
    at_line_start = True
    define: str | None = None
    while i < n:
        c = s[i]
        if c == "\n":
            at_line_start = True
            define = None  # a directive ends at the end of its (spliced) line
            i += 1
            continue
        if c in " \t\f\v\r":
            i += 1
            continue
        if s.startswith("//", i):
            j = s.find("\n", i)
            i = n if j < 0 else j
            continue
        if s.startswith("/*", i):
            j = s.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        ln = lines[i]
        if c == "#" and at_line_start:
            at_line_start = False
            j = i + 1
            while j < n and s[j] in " \t":
                j += 1
            k = j
            while k < n and s[k] in _ID_CHARS:
                k += 1
            directive = s[j:k]
            if directive == "define":
                m = k
                while m < n and s[m] in " \t":
                    m += 1
                e = m
                while e < n and s[e] in _ID_CHARS:
                    e += 1
                define = s[m:e] or None
                i = e  # the macro's name is no token: '#define WARN(...)' is not a call
            elif directive in ("include", "error", "warning", "pragma", "line"):
                j2 = s.find("\n", k)
                i = n if j2 < 0 else j2
            else:
                i = k
            continue
        at_line_start = False
        if c in _ID_START:
            j = i + 1
            while j < n and s[j] in _ID_CHARS:
                j += 1
            word = s[i:j]
            if j < n and s[j] == '"' and word in _RAW_PREFIXES:
                k = s.find("(", j + 1)
                delim = s[j + 1:k]
                end = s.find(")" + delim + '"', k + 1)
                end = n if end < 0 else end
                toks.append(Tok("str", s[k + 1:end], ln, define))
                i = end + len(delim) + 2
                continue
            if not (j < n and s[j] == '"' and word in _STR_PREFIXES):
                toks.append(Tok("id", word, ln, define))
                i = j
                continue
            i, c = j, '"'  # an encoding prefix: lex the string that follows
        if c == '"':
            j = i + 1
            while j < n and s[j] != '"' and s[j] != "\n":
                j += 2 if s[j] == "\\" else 1
            toks.append(Tok("str", decode_c_string(s[i + 1:j]), ln, define))
            i = j + 1
            continue
        if c == "'":
            j = i + 1
            while j < n and s[j] != "'" and s[j] != "\n":
                j += 2 if s[j] == "\\" else 1
            toks.append(Tok("chr", s[i:j + 1], ln, define))
            i = j + 1
            continue
        if c.isdigit() or (c == "." and i + 1 < n and s[i + 1].isdigit()):
            j = i + 1
            while j < n and (s[j] in _ID_CHARS or s[j] in ".'" or (s[j] in "+-" and s[j - 1] in "eEpP")):
                j += 1
            toks.append(Tok("num", s[i:j], ln, define))
            i = j
            continue
        if s.startswith("##", i):
            toks.append(Tok("p", "##", ln, define))
            i += 2
            continue
        toks.append(Tok("p", c, ln, define))
        i += 1
    return toks


_OPEN, _CLOSE = set("([{"), set(")]}")


def arguments(toks: list[Tok], k: int) -> list[list[Tok]]:
    """``toks[k]`` is the ``(`` after WARN; the tokens of each macro argument."""
    depth = 0
    args: list[list[Tok]] = [[]]
    for t in toks[k + 1:]:
        if t.kind == "p":
            if t.val in _OPEN:
                depth += 1
            elif t.val in _CLOSE:
                if depth == 0:
                    return args
                depth -= 1
            elif t.val == "," and depth == 0:
                args.append([])
                continue
        args[-1].append(t)
    return args


def string_constant(text: str, name: str) -> str | None:
    """The text of ``name`` where the file defines it as one string literal (``... name = "text";``)."""
    m = re.search(r"\b" + re.escape(name) + r'\s*(?:\[\s*\])?\s*=\s*"((?:[^"\\\n]|\\.)*)"\s*;', text)
    return decode_c_string(m.group(1)) if m else None


def render_format(arg: list[Tok]) -> tuple[str, list[str]]:
    """(format, what became ``%s``): the printf format of a WARN's first argument."""
    if not any(t.kind == "str" for t in arg):
        return "%s", [" ".join(t.val for t in arg)]
    out: list[str] = []
    subst: list[str] = []
    i = 0
    while i < len(arg):
        t = arg[i]
        if t.kind == "str":
            out.append(t.val)
        elif t.kind == "id" and pri_expansion(t.val) is not None:
            out.append(pri_expansion(t.val) or "")
        elif t.kind == "p" and t.val == "#" and i + 1 < len(arg) and arg[i + 1].kind == "id":
            out.append("%s")
            subst.append("#" + arg[i + 1].val)
            i += 1
        else:
            out.append("%s")
            subst.append(t.val)
        i += 1
    return "".join(out), subst


@dataclass
class Occ:
    line: int
    format: str
    define: str | None
    subst: tuple[str, ...]


def extract_warns(text: str) -> list[Occ]:
    """Every WARN call of one source file."""
    toks = lex(text)
    occs: list[Occ] = []
    for k, t in enumerate(toks):
        if t.kind == "id" and t.val == "WARN" and k + 1 < len(toks) and toks[k + 1].kind == "p" \
                and toks[k + 1].val == "(":
            args = arguments(toks, k + 1)
            fmt, subst = render_format(args[0])
            if fmt == "%s" and not subst and len(args) == 2 and len(args[1]) == 1 and args[1][0].kind == "id":
                # WARN("%s", someConstant): catalogue the constant's text, else "%s" would match any message
                const = string_constant(text, args[1][0].val)
                if const is not None:
                    fmt, subst = const.replace("%", "%%"), ["text of " + args[1][0].val]
            occs.append(Occ(t.line, fmt, t.define, tuple(subst)))
    return occs


# ---------------------------------------------------------------------------
# git
# ---------------------------------------------------------------------------

class Git:
    def __init__(self, git_dir: str):
        self.git_dir = git_dir
        self._proc = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def tree(self, tag: str) -> list[tuple[str, str]]:
        """(path, blob id) of every file under src/ of ``tag``, sorted by path."""
        out = subprocess.run(["git", "--git-dir", self.git_dir, "ls-tree", "-r", "-z", "--full-tree", tag,
                              "--", "src"], check=True, stdout=subprocess.PIPE).stdout
        res = []
        for rec in out.split(b"\0"):
            if rec:
                meta, path = rec.split(b"\t", 1)
                _mode, typ, sha = meta.split()
                if typ == b"blob":
                    res.append((path.decode(), sha.decode()))
        return sorted(res)

    def blob(self, sha: str) -> str:
        assert self._proc.stdin and self._proc.stdout
        self._proc.stdin.write(sha.encode() + b"\n")
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().split()
        if len(header) != 3:
            raise SystemExit(f"git cat-file: unexpected answer for {sha}: {header!r}")
        data = self._proc.stdout.read(int(header[2]))
        self._proc.stdout.read(1)
        return data.decode("utf-8", errors="replace")

    def close(self) -> None:
        if self._proc.stdin:
            self._proc.stdin.close()
        self._proc.wait()


def tag_version(tag: str) -> str:
    m = re.match(r"^v?(\d+\.\d+\.\d+)(?:-\d+)?$", tag)
    if not m:
        raise SystemExit(f"cannot read a version from tag {tag!r}")
    return m.group(1)


# ---------------------------------------------------------------------------
# Collecting and merging
# ---------------------------------------------------------------------------

@dataclass
class Entry:
    file: str
    format: str
    lines: tuple[int, int]
    versions: tuple[str, str]
    absent: list[str]       # versions between the first and last that lack it
    sites: int              # most call sites in one version
    defines: list[str]      # macros whose body holds the call
    all_in_defines: bool    # every call site is in a macro body
    subst: list[str]        # macro parameters printed where the format says %s
    subsystem: str


def collect(git_dir: str, tags: list[str]) -> list[Entry]:
    git = Git(git_dir)
    found: dict[tuple[str, str], dict[int, list[Occ]]] = {}
    cache: dict[str, list[Occ]] = {}
    try:
        for ti, tag in enumerate(tags):
            for path, sha in git.tree(tag):
                if not path.startswith("src/") or not path.endswith(SOURCE_EXTS):
                    continue
                if sha not in cache:
                    text = git.blob(sha)
                    cache[sha] = extract_warns(text) if "WARN" in text else []
                for occ in cache[sha]:
                    found.setdefault((path[len("src/"):], occ.format), {}).setdefault(ti, []).append(occ)
    finally:
        git.close()
    versions = [tag_version(t) for t in tags]
    entries: list[Entry] = []
    unowned: set[str] = set()
    for (file, fmt), by_tag in found.items():
        present = sorted(by_tag)
        occs = [o for ti in present for o in by_tag[ti]]
        sub = owner(file)
        if sub is None:
            unowned.add(file)
            continue
        entries.append(Entry(
            file=file, format=fmt,
            lines=(min(o.line for o in occs), max(o.line for o in occs)),
            versions=(versions[present[0]], versions[present[-1]]),
            absent=[versions[ti] for ti in range(present[0], present[-1] + 1) if ti not in by_tag],
            sites=max(len(by_tag[ti]) for ti in present),
            defines=sorted({o.define for o in occs if o.define}),
            all_in_defines=all(o.define for o in occs),
            subst=sorted({x for o in occs for x in o.subst}),
            subsystem=sub[0]))
    if unowned:
        raise SystemExit("no subsystem glob matches: " + ", ".join(sorted(unowned)))
    entries.sort(key=lambda e: (e.file, e.lines[0], e.lines[1], e.format))
    return entries


# ---------------------------------------------------------------------------
# YAML (hand-written for a stable, compact layout; JSON string syntax is valid YAML)
# ---------------------------------------------------------------------------

def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def qa(s: str) -> str:
    return json.dumps(s, ensure_ascii=True)


_PLAIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./+-]*$")


def render(tags: list[str], entries: list[Entry]) -> str:
    versions = [tag_version(t) for t in tags]
    counts = {s["id"]: 0 for s in SUBSYSTEMS}
    for e in entries:
        counts[e.subsystem] += 1
    out: list[str] = []
    w = out.append
    w("# yaml-language-server: $schema=../../schema/nccl-warning-catalog.schema.json")
    w("# GENERATED by tools/nccl_warnings.py from NVIDIA/nccl git tags (" + " ".join(tags) + ");")
    w("# do not edit by hand: rerun the tool.  Every WARN(fmt, ...) call under src/ of each tag read.")
    w("#")
    out.extend(LOG_PATH_NOTE.strip("\n").split("\n"))
    w("#")
    w("# format: the printf format NCCL passes (C escapes decoded, adjacent literals joined).  <inttypes.h>")
    w("#   macros are expanded for LP64 glibc (\"%\" PRIu64 -> %lu).  A macro parameter pasted between literals")
    w("#   (\"Call to \" name \" failed\", #name) is written %s: at run time it prints a string such as")
    w("#   ibv_create_qp; the line's comment names it.  %m is glibc's strerror(errno).  A trailing \\n is NCCL's")
    w("#   own (the logger adds another).")
    w("# lines / versions: first and last line the call sat on, and first and last version holding it, over the")
    w("#   versions read; present in every version in between unless the comment says \"absent in\".")
    w("# Trailing comments: \"in #define X\": the WARN is in macro X's body, so a log shows the file:line where X")
    w("#   is used, not this line (match such entries by format); \"N sites\": that many calls with this format")
    w("#   in this file in one version (the lines range spans them).")
    w("# subsystems.files: fnmatch globs over `file` (* also matches /); the first subsystem that matches wins.")
    w("# Messages per subsystem: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; total {len(entries)}.")
    bad = [ln for ln in out if not ln.startswith("#")]
    if bad:
        raise SystemExit(f"internal error: a header line is not a comment: {bad[0]!r}")
    w("kind: nccl-warning-catalog")
    w("schema_version: 1")
    w("edition: " + q(f"NCCL {tags[0]} to {tags[-1]} (NVIDIA/nccl tags)"))  # shown to users: no repo path
    w("sources:")
    w("  - url: https://github.com/NVIDIA/nccl")
    w("    title: " + q(f"NVIDIA/nccl source (tags {tags[0]} … {tags[-1]})"))
    w("  - url: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html")
    w("    title: " + q("NCCL troubleshooting"))
    w("  - url: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html")
    w("    title: " + q("NCCL environment variables"))
    w("versions: [" + ", ".join(q(v) for v in versions) + "]")
    w("subsystems:")
    for s in SUBSYSTEMS:
        w(f"  - id: {s['id']}")
        w("    files: [" + ", ".join(q(f) for f in s["files"]) + "]")
        w(f"    title: {{en: {q(s['title']['en'])}, zh: {q(s['title']['zh'])}}}")
        for key in ("points_to", "remedy"):
            w(f"    {key}:")
            w(f"      en: {q(s[key]['en'])}")
            w(f"      zh: {q(s[key]['zh'])}")
        if s.get("errnos"):
            w("    errnos:")
            for e in s["errnos"]:
                w(f"      - errno: {e['errno']}")
                w(f"        name: {e['name']}")
                w(f"        message: {q(e['message'])}")
                w(f"        source: {e['source']}")
                for key in ("points_to", "remedy"):
                    w(f"        {key}:")
                    w(f"          en: {q(e[key]['en'])}")
                    w(f"          zh: {q(e[key]['zh'])}")
    w("messages:")
    for e in entries:
        file = e.file if _PLAIN.match(e.file) else q(e.file)
        line = (f"  - {{file: {file}, lines: [{e.lines[0]}, {e.lines[1]}], "
                f"versions: [{q(e.versions[0])}, {q(e.versions[1])}], format: {qa(e.format)}}}")
        notes = []
        if e.defines:
            notes.append(("" if e.all_in_defines else "partly ") + "in #define " + ", ".join(e.defines))
        for x in e.subst:
            notes.append(x[:8] == "text of " and f'WARN("%s", {x[8:]}): the constant\'s text' or f"%s = {x}")
        if e.sites > 1:
            notes.append(f"{e.sites} sites")
        if e.absent:
            notes.append("absent in " + ", ".join(e.absent))
        w(line + ("  # " + "; ".join(notes) if notes else ""))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Extract NCCL's WARN format strings into the nccl-warning-catalog.")
    ap.add_argument("--git-dir", required=True, help="bare git mirror of NVIDIA/nccl")
    ap.add_argument("--tags", nargs="+", default=DEFAULT_TAGS, help="tags to read, oldest first")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "releases/errors/nccl-warnings.yaml"))
    ap.add_argument("--check", action="store_true", help="exit 1 if --out differs from a fresh run (writes nothing)")
    ap.add_argument("--stdout", action="store_true", help="write the YAML to stdout instead of --out")
    ap.add_argument("-v", "--verbose", action="store_true", help="print counts and unused globs to stderr")
    args = ap.parse_args(argv)
    entries = collect(args.git_dir, args.tags)
    text = render(args.tags, entries)
    if args.verbose:
        used = {owner(e.file) for e in entries}
        for s in SUBSYSTEMS:
            for pattern in s["files"]:
                if (s["id"], pattern) not in used:
                    print(f"unused glob: {s['id']}: {pattern}", file=sys.stderr)
        print(f"messages: {len(entries)}", file=sys.stderr)
    return emit(text, args, "tools/nccl_warnings.py", f"{len(entries)} messages, {len(text.encode('utf-8'))} bytes")


def emit(text: str, args: argparse.Namespace, tool: str, summary: str) -> int:
    """Write ``text`` as ``args`` ask (``--stdout``; ``--check``: exit 1, naming ``tool``, when ``--out`` differs; else
    write ``--out`` and print ``summary``), the exit code."""
    if args.stdout:
        sys.stdout.write(text)
        return 0
    out = Path(args.out)
    if args.check:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"{out} is out of date: rerun {tool}", file=sys.stderr)
            return 1
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}: {summary}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
