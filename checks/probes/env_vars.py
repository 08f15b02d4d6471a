"""Probe: allow-listed environment variables.

Only variables that matter for GPU training and that carry no credentials
are kept: names starting with one of :data:`PREFIXES` or equal to one of
:data:`NAMES`.  Any name containing one of :data:`SECRET_WORDS` (``NVIDIA_API_KEY``,
``LINGJUN_TOKEN``, ``NCCL_IB_PASSWD``, ``CUDA_PW``, ``PYTORCH_CREDS``, ``LINGJUN_SIGNATURE``)
or having a word of :data:`SECRET_NAME_WORDS` (``TORCH_URL_SIG``) is dropped even when its
prefix is allowed, and credentials inside values (``user:password@`` with or without a
scheme, ``?access_token=...`` and other secret query parameters, ``password=...``,
token-shaped secrets such as ``ghp_...`` or ``AKIA...``) become ``***``
(:func:`lingjun.checks.core.redaction.mask_secrets`), also with ``--include-ids``.
Variables that name a peer (:data:`ID_NAMES` such as ``MASTER_ADDR`` and
``NCCL_COMM_ID``, or a name with one of the words of :data:`ID_NAME_WORDS`:
``NCCL_HOSTID``, ``UCX_..._ADDR``) are kept only with ``--include-ids``.  Fills ``env``.
GPU and MIG UUIDs in the device lists (:data:`DEVICE_LIST_NAMES`) identify the hardware: a shared snapshot
keeps the entries but shows ``GPU-***`` / ``MIG-***`` (:func:`mask_device_ids`), unless ``--include-ids``.
"""

from __future__ import annotations

from typing import Any, Mapping

from lingjun.checks.core.redaction import mask_secrets
from lingjun.checks.facts import ProbeRecord
from lingjun.checks.probes import register_probe
from lingjun.checks.probes._base import ProbeEnv

NAME = "env"

PREFIXES = ("NCCL_", "CUDA_", "NVIDIA_", "NV_", "CUDNN_", "PYTORCH_", "TORCH_", "LINGJUN_", "ACCL_", "GLOO_", "NVSHMEM_", "UCX_")
NAMES = frozenset(
    {
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "PATH",
        "CHECKPOINT_OPTIMIZATION",
        "OMP_NUM_THREADS",
        "MASTER_PORT",
        "WORLD_SIZE",
        "LOCAL_WORLD_SIZE",
        "RANK",
        "LOCAL_RANK",
        "NODE_RANK",
        "VIRTUAL_ENV",
        "CONDA_PREFIX",
        "PYTHONPATH",
        "TRANSFORMERS_OFFLINE",
        "DS_ACCELERATOR",
        "ENV",
        "BASH_ENV",
        "_CUDA_COMPAT_PATH",
        "_CUDA_COMPAT_STATUS",
    }
)
ID_NAMES = frozenset({"MASTER_ADDR", "NCCL_COMM_ID"})
#: ``_``-separated words of a name that make it an identifier (an address or a host): kept only with --include-ids
ID_NAME_WORDS = frozenset({"ADDR", "ADDRS", "ADDRESS", "HOST", "HOSTS", "HOSTNAME", "HOSTID", "IP", "IPS", "ENDPOINT", "ENDPOINTS", "PEER", "PEERS"})
SECRET_WORDS = ("TOKEN", "KEY", "SECRET", "PASS", "PW", "CRED", "AUTH", "COOKIE", "SESSION", "PRIVATE", "CERT", "SIGNATURE")
#: ``_``-separated words of a name that make it a secret (as a substring they would catch SIGNAL, DESIGN)
SECRET_NAME_WORDS = frozenset({"SIG", "SIGS"})


#: variables whose value lists GPUs by index or UUID (CUDA's and the NVIDIA container runtime's)
DEVICE_LIST_NAMES = ("CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES")
#: what a GPU-/MIG- UUID entry becomes in a shared snapshot
_UUID_PREFIXES = ("GPU-", "MIG-")


def mask_device_ids(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` with every ``GPU-...`` / ``MIG-...`` entry of :data:`DEVICE_LIST_NAMES` replaced by ``GPU-***`` /
    ``MIG-***``; indices, other words (``all``, ``void``) and other variables stay as they are.

    >>> mask_device_ids({"CUDA_VISIBLE_DEVICES": "0, GPU-8932f937-d72c,MIG-GPU-1/2/0", "PATH": "/bin"})
    {'CUDA_VISIBLE_DEVICES': '0, GPU-***,MIG-***', 'PATH': '/bin'}
    """
    out = dict(environ)
    for name in DEVICE_LIST_NAMES:
        value = out.get(name)
        if value is None:
            continue
        entries = []
        for entry in value.split(","):
            stripped = entry.strip()
            prefix = next((p for p in _UUID_PREFIXES if stripped.upper().startswith(p)), None)
            entries.append(entry[: len(entry) - len(entry.lstrip())] + stripped[:4] + "***" if prefix else entry)
        out[name] = ",".join(entries)
    return out


def is_secret_name(name: str) -> bool:
    """Whether the variable ``name`` says it holds a secret (:data:`SECRET_WORDS`, :data:`SECRET_NAME_WORDS`):
    ``--collect`` never records it, and a snapshot read back has its value masked."""
    upper = name.upper()
    return any(word in upper for word in SECRET_WORDS) or not SECRET_NAME_WORDS.isdisjoint(upper.split("_"))


def is_allowed(name: str, include_ids: bool = False) -> bool:
    """Whether the variable ``name`` may be recorded."""
    upper = name.upper()
    if is_secret_name(name):
        return False
    if name in ID_NAMES or not ID_NAME_WORDS.isdisjoint(upper.split("_")):
        return include_ids and (name in NAMES or name in ID_NAMES or name.startswith(PREFIXES))
    return name in NAMES or name.startswith(PREFIXES)


def filter_env(environ: Mapping[str, str], include_ids: bool = False) -> dict[str, str]:
    """The allow-listed subset of ``environ``, credentials in values masked, sorted by name."""
    return {k: mask_secrets(v) for k, v in sorted(environ.items()) if is_allowed(k, include_ids)}


@register_probe(NAME, order=40)
def probe(env: ProbeEnv, record: ProbeRecord) -> dict[str, Any]:
    """Keep the allow-listed variables of ``env.environ``."""
    return {"env": filter_env(env.environ, env.include_ids)}
