"""``lingjun-check fleet``: check the snapshots or reports of many nodes and report what differs between them.

Run as ``lingjun-check fleet PATH...`` (see ``lingjun-check fleet --help``).
Modules, one concern each: :mod:`._inputs` reads files, folders and
``kubectl logs`` streams; :mod:`._identity` names the nodes and their clusters; :mod:`._check`
checks each node (cached by a fingerprint of its snapshot text); :mod:`._shared_runs` runs each rule once per
distinct value of the facts sections it reads; :mod:`._node_facts`
reads the facts that must agree; :mod:`._compare` finds majorities and
outliers, within and between clusters; :mod:`._model` builds the report (schema ``lingjun-check/fleet/1``);
:mod:`._render_text` and :mod:`._render_html` render it; :mod:`._output`
writes ``--output``; :mod:`._cli` is the command line.  Standard library only,
imported only when the first word is ``fleet`` (the plain check does not load it).
"""

from __future__ import annotations

from typing import Optional, Sequence

from lingjun.checks.fleet._cli import main as run

__all__ = ["main"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``lingjun-check fleet`` with ``argv`` (the words after ``fleet``); returns the exit code."""
    return run(argv)
