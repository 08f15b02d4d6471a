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
