"""What ``lingjun-check --collect`` may not write: a corpus of secret- and identifier-bearing variables.

Each row is an environment variable a real training pod could carry, and the part of it that must not reach
the snapshot (the value itself, or the secret inside it).  Secrets are never written, with or without
``--include-ids``; identifiers (peer addresses, home-directory user names) only with ``--include-ids``.
The KEPT rows must reach the snapshot unchanged: masking may not eat the facts rules need.
"""

from __future__ import annotations

import json

import pytest

from lingjun.checks.core.redaction import mask_identifiers, mask_secrets
from lingjun.checks.facts import DistributionFacts, Facts
from lingjun.checks.inputs.snapshot import write_snapshot

#: (name, value, what must not be written): secrets, never written
SECRETS = [
    ("NVIDIA_API_KEY", "nvapi-Zq81secret", "nvapi-Zq81secret"),
    ("NCCL_IB_PASSWD", "hunter2-ib", "hunter2-ib"),
    ("NCCL_PASSWORD", "hunter2-nccl", "hunter2-nccl"),
    ("CUDA_PASS", "cuda-pass-value", "cuda-pass-value"),
    ("TORCH_PW", "torch-pw-value", "torch-pw-value"),
    ("LINGJUN_REGISTRY_PWD", "registry-pwd-value", "registry-pwd-value"),
    ("NV_PASSPHRASE", "passphrase-value", "passphrase-value"),
    ("PYTORCH_SESSION", "session-value", "session-value"),
    ("NVIDIA_COOKIE", "cookie-value", "cookie-value"),
    ("CUDA_PRIVATE_KEY_FILE", "/etc/pk-value.pem", "pk-value"),
    ("TORCH_AUTH_HEADER", "Bearer auth-value", "auth-value"),
    ("LINGJUN_CREDENTIALS", "cred-value", "cred-value"),
    ("NVSHMEM_SECRET", "nvshmem-secret-value", "nvshmem-secret-value"),
    ("UCX_IB_KEY", "ucx-key-value", "ucx-key-value"),
    ("NCCL_TLS_CERT", "cert-value", "cert-value"),
    ("NCCL_DEBUG_FILE", "https://logger:s3cr3t-url@logs.example.com/nccl.%h.log", "s3cr3t-url"),
    ("PYTORCH_PROXY", "alice:pa55w0rd-bare@proxy.internal:3128", "pa55w0rd-bare"),
    ("TORCH_HOME_URL", "https://hub.example.com/models?access_token=tok-query-123&rev=main", "tok-query-123"),
    ("NVIDIA_MIRROR", "https://s3.example.com/o?X-Amz-Credential=AKIAEXAMPLEKEY&X-Amz-Signature=sig-amz-abc", "sig-amz-abc"),
    ("NV_MIRROR", "https://s3.example.com/o?X-Amz-Credential=AKIAEXAMPLEKEY&X-Amz-Date=20250101", "AKIAEXAMPLEKEY"),
    ("LINGJUN_OSS", "https://b.oss.example.com/x?Expires=9&OSSAccessKeyId=LTAI-oss-id&Signature=oss-sig-value", "oss-sig-value"),
    ("CUDA_REPO", "https://repo.example.com/simple/?api_key=k3y-param", "k3y-param"),
    ("TORCH_URL", "https://login.example.com/cb#id_token=jwt-fragment-value", "jwt-fragment-value"),
    ("NCCL_NET_PROXY", "socks5://bob:b0b-socks-pw@proxy.example.com:1080", "b0b-socks-pw"),
    ("PYTORCH_AZURE", "https://a.blob.example.net/c/b?sv=2022&sig=azure-sas-sig", "azure-sas-sig"),
]
#: (name, value, what must not be written unless --include-ids): identifiers
IDENTIFIERS = [
    ("MASTER_ADDR", "node-17.internal", "node-17.internal"),
    ("NCCL_COMM_ID", "198.51.100.7:5000", "198.51.100.7"),
    ("NCCL_HOSTID", "host-abc-123", "host-abc-123"),
    ("NCCL_IB_ADDR_RANGE", "10.20.0.0/16", "10.20.0.0"),
    ("NVSHMEM_BOOTSTRAP_HOST", "10.1.2.3", "10.1.2.3"),
    ("TORCH_DIST_ENDPOINT", "etcd.internal:2379", "etcd.internal"),
    ("PYTORCH_RDZV_URL", "http://10.9.8.7:29500/rdzv", "10.9.8.7"),
    ("NCCL_DEBUG_SUBSYS_URL", "tcp://[2001:db8::7]:9000", "2001:db8::7"),
    ("LD_LIBRARY_PATH", "/home/alice-ld/.local/lib:/usr/local/cuda/lib64", "alice-ld"),
    ("VIRTUAL_ENV", "/home/bob-venv/venvs/train", "bob-venv"),
    ("PATH", "/Users/carol-path/bin:/usr/bin", "carol-path"),
    ("CONDA_PREFIX", "/home/dave-conda/miniconda3", "dave-conda"),
]
#: (name, value): written exactly as they are
KEPT = [
    ("NCCL_DEBUG", "INFO"),
    ("CUDA_VISIBLE_DEVICES", "0,1"),
    ("NCCL_SOCKET_IFNAME", "^docker0,lo"),
    ("NCCL_IB_HCA", "mlx5_0:1,mlx5_1:1"),
    ("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True,max_split_size_mb:128"),
    ("NV_CUDNN_VERSION", "9.1.0.70"),
    ("CUDA_VERSION", "12.4.1"),
    ("LD_PRELOAD", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"),
    ("NCCL_IB_GID_INDEX", "3"),
    ("TORCH_CUDA_ARCH_LIST", "8.0 9.0+PTX"),
    ("LINGJUN_RELEASE", "training-nv-pytorch:25.07"),
    ("PYTHONPATH", "/workspace/src:/root/lib"),
    ("NVIDIA_DRIVER_CAPABILITIES", "compute,utility"),
    ("MASTER_PORT", "29500"),
    ("NCCL_DEBUG_FILE", "/tmp/nccl.%h.%p.log"),
]


def _written(tmp_path, env: dict, include_ids: bool = False, **facts_fields) -> str:
    facts = Facts(env=dict(env), **facts_fields)
    path = tmp_path / "snapshot.json"
    write_snapshot(facts, str(path), include_ids=include_ids)
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("include_ids", [False, True])
@pytest.mark.parametrize("name,value,secret", SECRETS, ids=[row[0] + ":" + row[2] for row in SECRETS])
def test_secrets_never_reach_the_snapshot(tmp_path, name, value, secret, include_ids):
    text = _written(tmp_path, {name: value}, include_ids=include_ids)
    assert secret not in text


@pytest.mark.parametrize("name,value,identifier", IDENTIFIERS, ids=[row[0] for row in IDENTIFIERS])
def test_identifiers_reach_the_snapshot_only_with_include_ids(tmp_path, name, value, identifier):
    assert identifier not in _written(tmp_path, {name: value})
    kept = json.loads(_written(tmp_path, {name: value}, include_ids=True))
    assert kept["env"] == {name: value}


@pytest.mark.parametrize("name,value", KEPT, ids=[row[0] for row in KEPT])
def test_ordinary_settings_are_written_unchanged(tmp_path, name, value):
    assert json.loads(_written(tmp_path, {name: value}))["env"] == {name: value}


def test_values_keep_their_shape_around_what_is_masked():
    assert mask_secrets("alice:pw@proxy.internal:3128") == "***@proxy.internal:3128"
    assert mask_secrets("https://h/x?access_token=t&rev=main") == "https://h/x?access_token=***&rev=main"
    assert mask_identifiers("198.51.100.7:5000") == "***:5000"
    assert mask_identifiers("/home/alice/venv:/home/***/x") == "/home/***/venv:/home/***/x"
    assert mask_identifiers("/homework/alice") == "/homework/alice"


def test_home_directories_are_masked_in_every_fact(tmp_path):
    from lingjun.checks.facts import PythonFacts

    python = PythonFacts(executable="/home/erin/venv/bin/python", prefix="/home/erin/venv", site_packages=["/home/erin/venv/lib/python3.10/site-packages"])
    dists = [DistributionFacts(name="mypkg", version="1.0", location="/home/erin/src", direct_url="file:///home/erin/src/mypkg")]
    text = _written(tmp_path, {}, python=python, distributions=dists)
    assert "erin" not in text and text.count("/home/***/") == 5
    kept = _written(tmp_path, {}, include_ids=True, python=python, distributions=dists)
    assert kept.count("/home/erin/") == 5


def test_the_whole_corpus_through_a_live_collect(tmp_path):
    """End to end: the corpus in the environment of ``lingjun-check --collect`` on a fake root."""
    import subprocess
    import sys

    from checks_redteam_kit import REPO as repo  # noqa: N813

    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "NO_COLOR": "1", "HOME": "/root"}
    env.update({name: value for name, value, _ in SECRETS + IDENTIFIERS if name != "PATH"})
    snapshot = tmp_path / "live.json"
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--root", str(repo / "tests" / "fixtures" / "fakeroots" / "proprietary-x86"),
                           "--collect", str(snapshot), "--format", "json"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode in (0, 1, 2), proc.stderr
    text = snapshot.read_text(encoding="utf-8")
    leaked = [leak for _, _, leak in SECRETS + IDENTIFIERS if leak in text]
    assert not leaked
    recorded = json.loads(text)["env"]
    assert recorded["NCCL_DEBUG_FILE"] == "https://***@logs.example.com/nccl.%h.log"
    assert recorded["PYTORCH_PROXY"] == "***@proxy.internal:3128"


def test_corpus_stays_broad():
    """The corpus is a table, not a token sample: trimming it below the agreed size fails."""
    assert len(SECRETS) + len(IDENTIFIERS) >= 30 and len(KEPT) >= 10
