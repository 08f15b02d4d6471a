"""Placeholders ``lingjun-kb new`` writes into a draft release, and the gate refuses.

The draft generator (:mod:`lingjun.generator.new_release`) writes them; the
gate rule ``data.placeholder`` (:mod:`lingjun.schema.gate.rules.placeholder`)
and ``data.known-issue-refs`` report any still left.
"""

from __future__ import annotations

__all__ = ["PLACEHOLDER", "PLACEHOLDER_ID", "PLACEHOLDER_URL"]

#: the marker ``lingjun-kb new`` writes into every value the release engineer must fill in
PLACEHOLDER = "TODO(lingjun-kb new)"
#: the placeholder it writes where only an id fits (``known_issues``)
PLACEHOLDER_ID = "todo.lingjun-kb-new"
#: the address it writes where a source page must be named (``.invalid`` never resolves, RFC 2606)
PLACEHOLDER_URL = "https://todo.invalid/official-release-note-page"
