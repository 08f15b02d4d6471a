"""What a file given to ``--from`` is when it is not a snapshot: the input kinds users mix up, and the option that reads each.

``--from`` reads the JSON snapshot ``--collect`` writes.  Users hand it what they have at hand: the text
``python -m torch.utils.collect_env`` prints (read with ``--from-collect-env``), ``nvidia-smi``'s table, a JSON
report of ``--format json``, the release data (``--data``), a ``lingjun-check fleet`` result or a DeepSpeed config
(``--deepspeed-config``).  :func:`describe_text` and :func:`describe_json` name the kind and the option in one
sentence for the error line; None when the input is none of them.  Standard library only.
"""

from __future__ import annotations

import re
from typing import Any, Optional

__all__ = ["describe_text", "describe_json"]

#: lines nvidia-smi's table prints (its header), as in "| NVIDIA-SMI 550.127.08   Driver Version: 550.127.08 ..."
_NVIDIA_SMI = re.compile(r"NVIDIA-SMI \S+\s+Driver Version:")


def describe_text(text: str) -> Optional[str]:
    """The kind of a non-JSON input, as "this looks like X; use Y", or None.

    collect_env output is what :func:`lingjun.checks.inputs.collect_env_text.parse_collect_env` reads (its keys,
    or its ``[pip3]``/``[conda]`` package lines); nvidia-smi output is recognised by its header line.
    """
    from lingjun.checks.inputs.collect_env_text import CollectEnvError, parse_collect_env  # deferred: a plain or live check never needs it

    try:
        parse_collect_env(text)
    except CollectEnvError:
        pass
    else:
        return "this looks like collect_env output; use --from-collect-env FILE"
    if _NVIDIA_SMI.search(text):
        return ("this looks like nvidia-smi output, which is read inside a snapshot: run lingjun-check --collect FILE in the "
                "container and give that FILE")
    return None


def describe_json(data: Any) -> Optional[str]:
    """The kind of a JSON document that is not a snapshot, as "this is X; use Y", or None (it may be a snapshot)."""
    if not isinstance(data, dict):
        return None
    schema, fmt = data.get("schema"), data.get("format")
    if schema == "lingjun-check/report/1":
        return "this is a lingjun-check report (--format json); write a snapshot with --collect FILE"
    if isinstance(schema, str) and schema.startswith("lingjun-check/fleet/"):
        return "this is a lingjun-check fleet result; give one node's snapshot (--collect FILE)"
    if isinstance(fmt, str) and fmt.startswith("lingjun-kb/bundle/"):
        return "this is release data; use --data FILE"
    if "schema" not in data and ("zero_optimization" in data or "train_batch_size" in data
                                 or "train_micro_batch_size_per_gpu" in data):
        return "this looks like a DeepSpeed config; use --deepspeed-config FILE"
    return None
