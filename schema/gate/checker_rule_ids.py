"""Ids of the ``lingjun-check`` rules that usage notes may name (``usage_notes[].rule``).

This is the fixed list agreed in the team brief, kept in this one place while
the checker's registry (:data:`lingjun.checks.registry.RULES`) is being
filled.  Once every checker rule is registered, :func:`checker_rule_ids`
should return the registry's ids alone.
"""

from __future__ import annotations

__all__ = ["CHECKER_RULE_IDS", "checker_rule_ids"]

CHECKER_RULE_IDS: frozenset[str] = frozenset(
    {
        "release.identified",
        "driver.present",
        "driver.minimum",
        "driver.cuda-compatibility",
        "driver.forward-compat-consumer-gpu",
        "driver.compat-shadows-host",
        "driver.nvml-mismatch",
        "driver.device-nodes",
        "driver.branch-eol",
        "cuda.torch-build-vs-driver",
        "cuda.compute-capability",
        "cuda.toolkit-vs-record",
        "packages.missing",
        "packages.version-mismatch",
        "packages.image-build-replaced",
        "packages.extension-abi",
        "libraries.cudnn-shadowed",
        "libraries.nccl-shadowed",
        "libraries.nccl-cuda-majors",
        "python.interpreter",
        "env.nccl-socket-ifname",
        "env.nccl-socket-ifname-pod-size",
        "env.checkpoint-optimization",
        "config.deepspeed-prefetch-bucket-size",
        "known-issues.match",
    }
)


def checker_rule_ids() -> frozenset[str]:
    """The agreed ids plus any rule already registered in :data:`lingjun.checks.registry.RULES`."""
    from lingjun.checks.registry import RULES

    return CHECKER_RULE_IDS | frozenset(RULES)
