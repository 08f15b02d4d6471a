"""The distribution name at the start of a ``Requires-Dist`` line, read without parsing the whole requirement.

Building a :class:`packaging.requirements.Requirement` costs tens of
microseconds per line (and importing its parser, markers and specifiers
about 15 ms); a container holds hundreds of ``Requires-Dist`` lines, of
which the rules need only those naming a few distributions (torch, its
extensions, the ``nvidia-*`` wheels).  :func:`leading_name` reads the name
the way packaging's own parser does (``packaging/_tokenizer.py``: optional
spaces or tabs, then the ``IDENTIFIER`` token
``\\b[a-zA-Z0-9][a-zA-Z0-9._-]*\\b``), so for every line that packaging
accepts, ``leading_name(line) == Requirement(line).name``.  A rule can
therefore skip a line whose leading name is not one it looks for and build
the full ``Requirement`` only for the rest, with the same result as parsing
every line.
"""

from __future__ import annotations

import functools
import re
from typing import Optional

__all__ = ["leading_name", "normalise"]

_LEADING_NAME = re.compile(r"[ \t]*(\b[a-zA-Z0-9][a-zA-Z0-9._-]*\b)")


#: PEP 503: a run of ``-``, ``_`` and ``.`` counts as one ``-`` (https://peps.python.org/pep-0503/#normalized-names)
_SEPARATOR_RUN = re.compile(r"[-_.]+")


@functools.lru_cache(maxsize=4096)  # every installed distribution name is normalised, often more than once
def normalise(name: str) -> str:
    """PEP 503 normalised form of a distribution name (``Flash_Attn`` -> ``flash-attn``); never raises for a str.

    The checker's one implementation (:func:`lingjun.checks.facts.normalise_name` is this
    function).  It is the rule PEP 503 states, equal to
    :func:`packaging.utils.canonicalize_name` for every name (a test holds them equal), but
    written here because importing ``packaging.utils`` pulls in ``packaging.tags`` and with it
    ``logging``, ``subprocess`` and ``platform``: about 24 ms of a 140 ms check, measured with
    ``python -X importtime`` on ``lingjun-check.pyz``.

    >>> normalise("Flash_Attn"), normalise("zope.interface"), normalise("nvidia--NCCL__cu12")
    ('flash-attn', 'zope-interface', 'nvidia-nccl-cu12')
    """
    return _SEPARATOR_RUN.sub("-", name).lower()


@functools.lru_cache(maxsize=8192)  # the same lines recur across distributions and rules
def leading_name(line: str) -> Optional[str]:
    """The PEP 503 normalised name a requirement line starts with, or None when it starts with no name.

    The line may still be an invalid requirement (a valid one always has this name).

    >>> leading_name("Torch_Vision (>=0.15) ; extra == 'x'"), leading_name("  nvidia-nccl-cu12==2.27.3"), leading_name("==1")
    ('torch-vision', 'nvidia-nccl-cu12', None)
    """
    match = _LEADING_NAME.match(line)
    return normalise(match.group(1)) if match else None
