"""Checker rules, one small module each; importing this package registers them all.

Modules whose names start with ``_`` are helpers shared by the rules.
"""

from lingjun.checks.rules import (  # noqa: F401  (imported to register)
    release_identified,
    driver_present,
    driver_minimum,
    driver_cuda_compatibility,
    driver_forward_compat_consumer_gpu,
    driver_compat_shadows_host,
    driver_nvml_mismatch,
    driver_device_nodes,
    driver_branch_eol,
    cuda_torch_build_vs_driver,
    cuda_compute_capability,
    cuda_toolkit_vs_record,
)
from lingjun.checks.rules import (  # noqa: F401,E402  (imported to register)
    packages_missing,
    packages_version_mismatch,
    packages_image_build_replaced,
    packages_extension_abi,
    libraries_cudnn_shadowed,
    libraries_nccl_shadowed,
    libraries_nccl_cuda_majors,
    python_interpreter,
    env_nccl_socket_ifname,
    env_nccl_socket_ifname_pod_size,
    env_checkpoint_optimization,
    config_deepspeed_prefetch_bucket_size,
    known_issues_match,
)
