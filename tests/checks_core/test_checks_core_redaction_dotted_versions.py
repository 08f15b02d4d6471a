"""A dotted quad inside a file name or a package's version is a version, not an IPv4 address (issue 36 red team, O1):
``mask_text`` keeps ``libnccl-net-1.2.3.4.so``, ``v1.2.3.4``, ``libfoo.so.1.2.3.4`` and ``1.2.3.4-1ubuntu``, and masks
an address standing alone, with a port, NCCL's ``<port>``, after ``=`` or in a range."""

from __future__ import annotations

import json

import pytest

from lingjun.checks import cli
from lingjun.checks.core.redaction import mask_text

#: dotted quads that are part of a file name or a version: kept
VERSIONS = [
    "Loaded libnccl-net-1.2.3.4.so",
    "NET/Plugin: Loaded net plugin NCCL RDMA Plugin (libnccl-net-1.2.3.4.so)",
    "v1.2.3.4",
    "libfoo.so.1.2.3.4",
    "1.2.3.4-1ubuntu",
    "libcudnn9-cuda-12 9.1.0.70-1ubuntu1 amd64",
    "libnccl2 2.21.5.1-1+cuda12.4",
    "nvidia-driver 1.2.3.4-1.el8",
    "TensorRT-10.3.0.26.Linux.x86_64-gnu.cuda-12.5.tar.gz",
    "/opt/foo-1.2.3.4/lib:/usr/lib",
]
#: (text, masked): addresses, masked wherever they stand
ADDRESSES = [
    ("10.1.2.3", "***"),
    ("Connect to 10.1.2.3<43891> failed", "Connect to ***<43891> failed"),
    ("192.168.0.5:29500", "***:29500"),
    ("addr=10.0.0.1", "addr=***"),
    ("peers 10.0.0.1,10.0.0.2.", "peers ***,***."),
    ("range 10.0.0.1-10.0.0.9", "range ***-***"),
    ("peer 10.0.0.5. Retrying", "peer ***. Retrying"),
    ("libfoo-1.2.3.4.so from 203.0.113.9", "libfoo-1.2.3.4.so from ***"),
    ("node-10.0.0.5:8080", "node-***:8080"),
    ("10.0.0.5-1", "***-1"),
]


@pytest.mark.parametrize("text", VERSIONS)
def test_a_dotted_quad_in_a_file_name_or_version_is_kept(text):
    assert mask_text(text) == text


@pytest.mark.parametrize("text,masked", ADDRESSES)
def test_an_ipv4_address_is_masked_beside_the_versions_that_look_like_one(text, masked):
    assert mask_text(text) == masked


def test_a_quoted_nccl_line_keeps_the_plugins_version_and_masks_the_peer(tmp_path, capsys):
    log = tmp_path / "job.log"
    log.write_text("node1:77:88 [0] NCCL INFO NET/Plugin: Loaded net plugin (libnccl-net-1.2.3.4.so)\n"
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB; libnccl-net-1.2.3.4.so, "
                   "peer 10.1.2.3<43891>\n")
    capsys.readouterr()
    cli.main(["--log", str(log), "--log-only", "--format", "json"])
    out = json.dumps(json.loads(capsys.readouterr().out))
    assert "libnccl-net-1.2.3.4.so, peer ***<43891>" in out and "10.1.2.3" not in out
