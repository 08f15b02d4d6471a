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
    # red-team round 8: key=value in free text, names not on the word list, secrets known by their shape
    ("NCCL_NET_PLUGIN_CONF", "host=plugin.internal password=hunter2-free", "hunter2-free"),
    ("NCCL_PLUGIN_OPTS", "mode=fast,passwd=pw-comma-list;x=1", "pw-comma-list"),
    ("UCX_OPTS", "user=svc cred=cred-free-text", "cred-free-text"),
    ("PYTORCH_CREDS", "creds-value", "creds-value"),
    ("TORCH_API_CRED", "api-cred-value", "api-cred-value"),
    ("LINGJUN_SIGNATURE", "signature-value", "signature-value"),
    ("TORCH_URL_SIG", "url-sig-value", "url-sig-value"),
    ("LINGJUN_GH", "ghp_" + "a1" * 18, "a1" * 18),
    ("LINGJUN_GHPAT", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "11ABCDEFG0123456789_abcdef"),
    ("LINGJUN_AWSID", "AKIAIOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"),
    ("NV_STS", "id=ASIAY34FZKBOKMUTVV7A", "Y34FZKBOKMUTVV7A"),
    ("LINGJUN_ALIYUN", "LTAI5tQ9exampleKey01", "5tQ9exampleKey01"),
    ("LINGJUN_HF", "hf_abcdefghijklmnopqrstuvwxyz012345", "abcdefghijklmnopqrstuvwxyz012345"),
    ("NV_LICENSE", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.jwt-signature-part", "eyJzdWIiOiIxIn0"),
    ("LINGJUN_WEBHOOK", "https://hooks.slack.com/services/T000/B000/XXXXslackXXXX", "XXXXslackXXXX"),
    ("LINGJUN_SLACKBOT", "xoxb-123456789012-slack-bot-token", "slack-bot-token"),
    ("LINGJUN_BASIC", "https://x.example/ Authorization: Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
    ("LINGJUN_CURL", "curl -H 'Authorization: Bearer bearer-tok-9876' https://x", "bearer-tok-9876"),
    ("LINGJUN_SSH_BLOB", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\n-----END OPENSSH PRIVATE KEY-----",
     "b3BlbnNzaC1rZXktdjEAAAA"),
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
    # red-team round 8: bare addresses in values and free text, other home directories
    ("LINGJUN_A", "10.0.0.5", "10.0.0.5"),
    ("LINGJUN_C", "10.0.0.1,10.0.0.2", "10.0.0.2"),
    ("LINGJUN_G", "peer=10.0.0.5", "10.0.0.5"),
    ("LINGJUN_D", "2001:db8::1", "2001:db8::1"),
    ("NCCL_SOCKET_IFNAME", "=10.0.0.9", "10.0.0.9"),
    ("LINGJUN_TEXT", "hosts: 192.0.2.44 and fe80::1%eth0.", "192.0.2.44"),
    ("LINGJUN_V6FULL", "2001:0db8:0000:0000:0000:ff00:0042:8329", "ff00:0042:8329"),
    ("LINGJUN_NOTE", "cudnn 9.1.0.70 at 203.0.113.9", "203.0.113.9"),
    ("LD_LIBRARY_PATH", "/data/home/erin-data/lib:/usr/lib", "erin-data"),
    ("LINGJUN_HOMEVAR", "/var/home/heidi-var/x", "heidi-var"),
    ("LINGJUN_HOMEMNT", "/mnt/home/ivan-mnt/x", "ivan-mnt"),
    ("LINGJUN_HOMEWIN", "C:\\Users\\frank-win\\venv", "frank-win"),
    ("LINGJUN_HOMETILDE", "~grace-tilde/venv", "grace-tilde"),
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
    # versions, devices, paths and option lists that look a little like what is masked
    ("CUDNN_VERSION", "9.1.0.70"),
    ("NV_TENSORRT_VERSION", "10.3.0.26"),
    ("CUDA_HOME", "/usr/local/cuda-12.8"),
    ("LINGJUN_PIN", "nvidia-cudnn-cu12==9.1.0.70"),
    ("LINGJUN_LIB", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0.70"),
    ("LINGJUN_TIME", "12:30:45"),
    ("LINGJUN_MAC", "02:42:ac:11:00:02"),
    ("TORCH_LOGS", "+dynamo,c10::Error,at::Tensor"),
    ("NCCL_IB_HCA_LIST", "=mlx5_0:1,mlx5_1:1"),
    ("TORCH_SIGNAL_HANDLERS", "1"),
    ("NCCL_DESIGN_MODE", "ring"),
    ("PYTORCH_SORT", "sort_by=name"),
    ("LINGJUN_REQ", "keyring==24.1.0; extra == 'auth'"),
    ("LINGJUN_HOMEWORK", "/homework/alice"),
    ("LINGJUN_TILDE", "~/venv:~=1.2"),
    ("NCCL_SOCKET_IFNAME_LIST", "eth0,ib0"),
    ("LINGJUN_SK", "sk-learn-extra-contrib-packages"),
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
    assert mask_identifiers("peer=10.0.0.5,[2001:db8::1]:80 2001:db8::2") == "peer=***,[***]:80 ***"
    assert mask_identifiers("9.1.0.70") == "***" and mask_identifiers("9.1.0.70", keep_versions=True) == "9.1.0.70"
    assert mask_identifiers("10.0.0.5:29500", keep_versions=True) == "***:29500"  # a port: a peer even in a version field
    assert mask_identifiers("/data/home/erin/x C:\\Users\\frank\\x ~grace/x") == "/data/home/***/x C:\\Users\\***\\x ~***/x"
    assert mask_secrets("host=h password=hunter2") == "host=h password=***"
    assert mask_secrets("Authorization: Basic dXNlcjpwYXNz") == "Authorization: Basic ***"
    assert mask_secrets("https://hooks.slack.com/services/T0/B0/X1") == "https://hooks.slack.com/services/***"


def test_versions_in_version_fields_stay_and_addresses_elsewhere_go(tmp_path):
    """The context rule: a four-part dotted number is a version in a ``...version`` field, an address elsewhere."""
    from lingjun.checks.facts import LibraryFile, NativeLibraryFacts

    facts_fields = {"cudnn": NativeLibraryFacts(files=[LibraryFile(path="/opt/10.0.0.5/libcudnn.so", version="9.1.0.70")])}
    recorded = json.loads(_written(tmp_path, {"NV_CUDNN_VERSION": "9.1.0.70", "LINGJUN_X": "9.1.0.70"}, **facts_fields))
    assert recorded["cudnn"]["files"] == [{"path": "/opt/***/libcudnn.so", "version": "9.1.0.70", "via": None}]
    assert recorded["env"] == {"NV_CUDNN_VERSION": "9.1.0.70", "LINGJUN_X": "***"}
    dists = [DistributionFacts(name="p", version="1.0", requires=["nvidia-cudnn-cu12==9.1.0.70", "x>=10.0.0.5"])]
    assert json.loads(_written(tmp_path, {}, distributions=dists))["distributions"][0]["requires"] == dists[0].requires


def test_secrets_are_masked_in_every_string_also_with_include_ids(tmp_path):
    from lingjun.checks.facts import PythonFacts

    python = PythonFacts(executable="/opt/ghp_" + "b2" * 18 + "/python")
    dists = [DistributionFacts(name="p", version="1.0", location="/x/password=hunter9", direct_url="https://u:pw9@h/p")]
    for include_ids in (False, True):
        text = _written(tmp_path, {}, include_ids=include_ids, python=python, distributions=dists)
        assert "b2b2" not in text and "hunter9" not in text and "pw9" not in text


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


# --------------------------------------------------------------------------
# redaction by shape: each identifier and secret shape planted in every string field of a snapshot
# --------------------------------------------------------------------------

#: (shape, planted text, the part that must not be written): GPU and MIG UUIDs (identifiers) and secrets
#: recognised by their shape wherever they stand
IDENTIFIER_SHAPES = [
    ("GPU UUID", "GPU-8932f937-d72c-4e30-b24c-4f8a1a0a2b3c", "8932f937"),
    ("MIG UUID", "MIG-4f1e2d3c-5b6a-7980-a1b2-c3d4e5f60718", "4f1e2d3c"),
    ("MIG UUID, old form", "MIG-GPU-7a6b5c4d-3e2f-1a0b-9c8d-7e6f5a4b3c2d/1/0", "7a6b5c4d"),
    ("MIG UUID in lower case", "mig-5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", "5a4b3c2d"),
    ("e-mail address", "mail alice.b+ops@example.com", "alice.b+ops"),
]
SECRET_SHAPES = [
    ("Alibaba Cloud STS key id", "STS.NUgYrLnoC37mZZCNnAbez2Ezu", "NUgYrLnoC37mZZCNnAbez2Ezu"),
    ("Google API key", "AIzaSyD-EXAMPLEexample1234567890abcdefg", "SyD-EXAMPLEexample1234567890abcdefg"),
    ("ModelScope token", "ms-1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d", "1b2c3d4e-5f60"),
    ("X-Api-Key header", "X-Api-Key: k3y-h3ader-v4lue", "k3y-h3ader-v4lue"),
    ("Basic credential without Authorization", "Basic YWxpY2U6czNjcmV0LWJhc2lj", "YWxpY2U6czNjcmV0LWJhc2lj"),
    ("password with a colon", "password:pw-c0lon-v4lue", "pw-c0lon-v4lue"),
    ("prefixed password with a colon", "DB_PASSWORD:pw-prefixed-v4lue", "pw-prefixed-v4lue"),
    ("GitLab personal access token", "glpat-Zx9Yw8Vu7Ts6Rq5Po4Nm", "Zx9Yw8Vu7Ts6Rq5Po4Nm"),
    ("npm access token", "npm_" + "Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb6", "Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb6"),
    ("Set-Cookie header", "Set-Cookie: _sess_id=c00kie-v4lue; Path=/; HttpOnly", "c00kie-v4lue"),
    ("Docker config auth", '{"auths": {"registry.example.com": {"auth": "ZG9ja2VyOnB3LWRvY2tlcg=="}}}',
     "ZG9ja2VyOnB3LWRvY2tlcg=="),
]


def _planted(cls, text: str):
    """An instance of the facts dataclass ``cls`` with ``text`` in every string field, every list of strings, every
    dict value and, recursively, one item of every list of dataclasses and every optional dataclass."""
    import dataclasses
    import typing

    def value_for(hint):
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Union:
            inner = [a for a in args if a is not type(None)]
            return value_for(inner[0]) if len(inner) == 1 else None
        if hint is str:
            return text
        if dataclasses.is_dataclass(hint):
            return _planted(hint, text)
        if origin is list and args:
            item = value_for(args[0])
            return [] if item is None else [item]
        if origin is dict:
            return {"LINGJUN_PLANTED": text, "NVIDIA_MIG_CONFIG_DEVICES": text}
        return None

    kwargs = {}
    for field in dataclasses.fields(cls):
        if field.name in ("schema", "origin"):
            continue
        value = value_for(typing.get_type_hints(cls)[field.name])
        if value is not None:
            kwargs[field.name] = value
    return cls(**kwargs)


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


@pytest.mark.parametrize("include_ids", [False, True])
@pytest.mark.parametrize("shape,planted,leak", IDENTIFIER_SHAPES + SECRET_SHAPES,
                         ids=[row[0] for row in IDENTIFIER_SHAPES + SECRET_SHAPES])
def test_every_shape_is_masked_in_every_string_field_of_a_snapshot(tmp_path, shape, planted, leak, include_ids):
    from lingjun.checks.inputs.snapshot import snapshot_line

    text = f"before {planted} after"
    facts = _planted(Facts, text)
    path = tmp_path / "snapshot.json"
    write_snapshot(facts, str(path), include_ids=include_ids)
    written, line = path.read_text(encoding="utf-8"), snapshot_line(facts, include_ids=include_ids)
    kept = include_ids and (shape, planted, leak) in IDENTIFIER_SHAPES
    for output in (written, line):
        values = list(_strings(json.loads(output)))
        carrying = [value for value in values if value.startswith("before ")]
        assert len(carrying) >= 60  # the planted fields reached the snapshot, masked
        if kept:  # identifiers are written with --include-ids
            assert leak in output and all(value == text for value in carrying)
        else:
            assert leak not in output and not any(leak in value for value in values)
            assert all(value.endswith(" after") and "***" in value for value in carrying)


def test_device_uuids_keep_their_kind_when_masked():
    assert mask_identifiers("NVIDIA_MIG_CONFIG_DEVICES=MIG-GPU-7a6b5c4d-3e2f-1a0b-9c8d-7e6f5a4b3c2d/1/0,all") == (
        "NVIDIA_MIG_CONFIG_DEVICES=MIG-***,all")
    assert mask_identifiers("GPU-8932f937-d72c-4e30-b24c-4f8a1a0a2b3c MIG-4f1e2d3c-5b6a-7980-a1b2-c3d4e5f60718") == (
        "GPU-*** MIG-***")
    assert mask_identifiers("GPU-0 gpu-util MIG-disabled") == "GPU-0 gpu-util MIG-disabled"  # not UUIDs
    assert mask_identifiers("mig-4f1e2d3c-5b6a-7980-a1b2-c3d4e5f60718") == "mig-***"  # the prefix as written


@pytest.mark.parametrize("text", ["PCI:0000:3b:00.0", "00000000:3B:00.0", "pkg @ git+https://example.com/x.git",
                                  "torch@2.1.0", "user@localhost", "pip install pkg@v1.2.3-beta.rc", "lib@2.0.1-rc1"])
def test_pci_bus_ids_and_at_signs_that_are_not_e_mail_addresses_are_kept(text):
    """PCI bus ids name a slot, the same on every node of a model (Xid lines and the topology need them); an ``@``
    before a version or a host without a domain is not an e-mail address."""
    assert mask_identifiers(text) == text


@pytest.mark.parametrize("text", ["Basic Configuration", "basic troubleshooting steps", "Basic QWxhZGRpbg==",
                                  "STS.short", "ms-swift", "AIza-too-short", "tokens: 2048", "max_tokens:16",
                                  "glpat-short", "npm_install", "Authorization required", "cookies enabled",
                                  "author=Alice Chen", "authority=ca.example.com", "?author=me&page=2"])
def test_shapes_that_are_not_secrets_are_kept(text):
    assert mask_secrets(text) == text


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_a_snapshot_given_with_from_has_its_secrets_masked_before_any_report(tmp_path, fmt):
    """A snapshot written by hand, edited or taken by an older checker may hold a secret --collect never keeps (a
    Bearer token quoted in an error line, a password in a URL): the report of `--from` shows none of them."""
    import subprocess
    import sys

    token = "eyJhbGciOiJIUzI1NiJ9.abcdefghijklmnop.qrstuvwxyz0123"
    snap = {"schema": "lingjun-check/snapshot/1", "origin": "snapshot",
            "env": {"MY_URL": "https://user:hunter2pass@example.com/x"},
            "symptoms": {"errors": [f"RuntimeError: request failed with Authorization: Bearer {token}"]}}
    path = tmp_path / "snap.json"
    path.write_text(json.dumps(snap), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "lingjun.checks", "--from", str(path), "--format", fmt],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    assert token not in done.stdout and "eyJhbGciOiJIUzI1NiJ9" not in done.stdout and "hunter2pass" not in done.stdout
    assert "Authorization" in done.stdout  # the line is still shown, its secret masked


def test_a_label_ending_in_two_colons_is_not_an_ipv6_address():
    # nvidia-container-toolkit prints "Running hook #0:: error running hook"; "0::" parses as an address but is one
    # group: a quoted line keeps it, while addresses of two groups or more are masked
    assert mask_identifiers("Running hook #0:: error running hook: exit status 1") == \
        "Running hook #0:: error running hook: exit status 1"
    assert mask_identifiers("from fe80::1 and 2001:db8::7") == "from *** and ***"


@pytest.mark.parametrize("text, masked", [
    ('CUDA error: x password="hunter2"', 'CUDA error: x password="***"'),
    ("PASSWORD='x y' next", "PASSWORD='***' next"),
    ('api_key="sk-ABCDEF" and', 'api_key="***" and'),
    ('passwd = "x"', 'passwd = "***"'),
    ('--password "x" --token \'ghp_zz\'', '--password "***" --token \'***\''),
    ('--password="x"', '--password="***"'),
    ('secret="never-closed', 'secret=***'),
])
def test_a_quoted_secret_value_is_masked_inside_its_quotes(text, masked):
    assert mask_secrets(text) == masked


def test_a_long_line_cut_inside_a_token_drops_the_part_rather_than_show_it():
    # a line longer than the 8 KiB window, a GitHub token across the cut: its part has no shape masking knows
    from lingjun.checks.knowledge.signatures import LINE_LIMIT, _windows

    head = "CUDA error: " + "x " * ((LINE_LIMIT - 32) // 2)
    line = head + " ghp_" + "A" * 36 + " tail"
    assert line.find("ghp_") < LINE_LIMIT < line.find("ghp_") + 40  # the cut falls inside the token
    window = _windows(line, "CUDA error: ")[0]
    assert "AAAA" not in window and "ghp_" not in window and window.startswith("CUDA error: ")


def test_a_hugging_face_token_of_letters_only_is_masked_and_a_setting_name_kept():
    assert mask_secrets("HF_TOKEN hf_abcdefghijklmnopqrstuvwxyzABCDEFGH") == "HF_TOKEN ***"
    assert mask_secrets("HF_HUB_ENABLE_HF_TRANSFER=1 hf_hub_enable_hf_transfer") == \
        "HF_HUB_ENABLE_HF_TRANSFER=1 hf_hub_enable_hf_transfer"


def test_ld_library_path_is_masked_before_it_is_split_at_colons():
    from lingjun.checks.probes.loader import split_ld_library_path

    entries = split_ld_library_path("/usr/lib:https://admin:S3cretPass@10.0.0.1/lib:/opt/x")
    assert not any("S3cretPass" in e for e in entries) and entries[0] == "/usr/lib" and entries[-1] == "/opt/x"
    assert split_ld_library_path("/usr/local/cuda/lib64::/usr/lib") == ["/usr/local/cuda/lib64", "/usr/lib"]


def test_a_quote_whose_literal_masking_hides_shows_no_part_of_a_long_token():
    # "token: CUDA error: ..." masks the literal itself; the quote must still be cut around it, not at the window's
    # start, which here falls 50 characters into a 342-character JWT signature (no blank to cut at)
    from lingjun.checks.knowledge.signatures import LINE_LIMIT, quote

    signature = "SIGx" + "aB3-_z" * 56 + "q" * 2
    head = "job start Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJ" + "p" * 3000 + "." + signature
    literal_at = len(head) - len(signature) + 50 + LINE_LIMIT // 2
    filler = " ".join("w" * 9 for _ in range(LINE_LIMIT))[:literal_at - len(head) - len(" token: ")]
    line = head + filler + " token: CUDA error: an illegal memory access was encountered " + "pad " * 1500
    quoted = quote(line, "CUDA error: ")
    assert not any(signature[i:i + 12] in quoted for i in range(len(signature) - 12))
    assert "illegal memory access" in quoted and len(quoted) <= 402


def test_a_line_longer_than_the_feed_limit_is_cut_between_words():
    from lingjun.checks.knowledge.signatures import _word_cut_bounds

    def cut(text, start, end, keep_from, keep_to):
        return text[slice(*_word_cut_bounds(text, start, end, keep_from, keep_to))]

    text = b"NCCL WARN x " + b"y" * 50 + b" tail"
    assert cut(text, 20, 40, 0, 9) == b""  # inside one word: nothing of it
    assert cut(text, 0, 30, 0, 9) == b"NCCL WARN x "


def test_the_unspecified_and_loopback_ipv6_addresses_in_brackets_are_kept_and_others_masked():
    """torch's store prints ``[::]:29500`` (every address, no machine named); ``[2001:db8::1]`` names one."""
    assert mask_identifiers("failed to bind to [::]:29500 and [::1]:29500") == "failed to bind to [::]:29500 and [::1]:29500"
    assert mask_identifiers("peer [2001:db8::1]:9000") == "peer [***]:9000"


@pytest.mark.parametrize("text,masked", [
    ('Cookie: sid="s3ss10n"', 'Cookie: sid="***"'),
    ("headers={'Cookie': 'sid=s3ss10n; uid=42'}", "headers={'Cookie': 'sid=***; uid=***'}"),
    ('{"Set-Cookie": "sid=s3ss10n; Path=/"}', '{"Set-Cookie": "sid=***; Path=/"}'),
    ('{\\"Cookie\\": \\"sid=s3ss10n\\"}', '{\\"Cookie\\": \\"sid=***\\"}'),
    ("Set-Cookie: a=s3ss10n; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=0th3r; Path=/; HttpOnly",
     "Set-Cookie: a=***; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=***; Path=/; HttpOnly"),
    ("Cookie: s3ss10n-only trailing words", "Cookie: *** trailing words"),
])
def test_every_cookie_of_a_header_is_masked_in_every_form_and_its_attributes_kept(text, masked):
    """A quoted cookie value, a header dict's or JSON's Cookie item and the second cookie of a folded Set-Cookie
    (each once kept whole or in part) are masked; Path, Expires and the other attributes are kept."""
    assert mask_secrets(text) == masked
