"""Reading the ``--deepspeed-config`` file for the DeepSpeed config rules.

Private helper of the rule modules (one concern: where the file is and how it is walked).  The file's
problems (not UTF-8, not JSON, not an object) are reported once, by ``config.deepspeed-file``; every other
DeepSpeed rule stays silent on a file it cannot read.  DeepSpeed's config reference:
https://www.deepspeed.ai/docs/config-json/
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.inputs import deepspeed_config

__all__ = ["config_path", "load", "leaves", "DEEPSPEED_CONFIG_DOC"]

DEEPSPEED_CONFIG_DOC = "https://www.deepspeed.ai/docs/config-json/"


def config_path(ctx: CheckContext, given: str) -> "Path":
    """The config file under the checker's ``--root`` (the path as given when the root is ``/``)."""
    path = Path(given)
    root = ctx.options.root or "/"
    if root in ("", "/"):
        return path
    return Path(root) / (path.relative_to("/") if path.is_absolute() else path)


def load(ctx: CheckContext) -> Optional[tuple[dict, str]]:
    """``(config, path as given)``, or None without ``--deepspeed-config`` or when the file cannot be used."""
    given = ctx.options.deepspeed_config
    if not given:
        return None

    try:
        config, _ = deepspeed_config.load_lenient(config_path(ctx, given))
    except deepspeed_config.DeepSpeedConfigError:
        return None
    return config, given


def leaves(node: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every non-container value of a config as ``(dotted.path, value)``; list items as ``path[i]``."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from leaves(value, f"{prefix}[{i}]")
    else:
        yield prefix, node
