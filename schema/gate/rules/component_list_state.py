"""``data.component-list-state``: a record's ``component_list`` state is one its entries can support.

The site reads a ``complete`` list as "a component not listed is not in
the image" and reports additions and removals from it, so the state is a
claim about the page, checked against what the record holds:

* ``complete`` with no entry, or with entries all taken from the features
  or driver text (``stated_in``), claims a list nobody read;
* ``partial`` with no entry knows nothing: that is ``not-published``;
* ``not-published`` with an entry ``stated_in: component-list`` contradicts
  itself (the entry says the page's list was read);
* ``not-captured`` (the page has a list the recorded copy does not show)
  with an entry from that list: part of it was read, which is ``partial``.

A record that lists components must state ``component_list`` itself: left
out, the model infers the least assertive state (``partial``), and the
gate asks for the state to be written so a complete list is never read as
partial by accident, nor a partial one as complete.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import ComponentList, Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.schema.models import ListState, Severity, StatedIn


def _what(listed: ComponentList) -> str:
    """How messages name the list's owner: the record, ``variant vllm`` or ``runtime cosmos-framework/20261015``."""
    if listed.runtime is not None:
        return f"runtime {listed.runtime.id}"
    variant = listed.located.image.variant_id
    return f"variant {variant}" if variant else "the record"


@gate_rule("data.component-list-state", Severity.error,
           "The component_list state (complete, partial, not-published, not-captured) of a release, each variant and each runtime "
           "is one its component entries can support: stated when entries are listed, no empty complete or partial "
           "list, no complete list read only from the features or driver text.",
           order=75)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each list's ``component_list`` with its ``components`` entries (release, variants, runtimes)."""
    for listed in corpus.component_lists():
        doc = listed.doc
        state = listed.state
        entries = listed.components
        prefix = ".".join(str(part) for part in (*listed.loc, "components"))
        what = _what(listed)
        from_list = [i for i, e in enumerate(entries) if e.stated_in is StatedIn.component_list]
        where = (*listed.loc, "component_list")
        if entries and not listed.state_stated:
            yield Issue(doc.path, where,
                        f"{what} lists {len(entries)} component(s) but does not state component_list; "
                        "write `complete` when the page's whole list was read, else `partial`")
        elif state is ListState.complete and not entries:
            yield Issue(doc.path, where,
                        f"component_list is `complete` but {what} lists no component; write `not-published` "
                        "when the page shows no component list, or add its entries")
        elif state is ListState.complete and not from_list:
            yield Issue(doc.path, where,
                        "component_list is `complete` but every entry comes from the features or driver text "
                        "(stated_in), not from a component list; write `partial`")
        elif state is ListState.partial and not entries:
            yield Issue(doc.path, where,
                        "component_list is `partial` but no component is listed; write `not-published`, "
                        "or add the versions the page does name")
        elif state is ListState.not_published and from_list:
            yield Issue(doc.path, (*listed.loc, "components", from_list[0], "id"),
                        f"component_list is `not-published` but {prefix}.{from_list[0]} is stated in the "
                        "component list; write `partial` or `complete`, or correct the entry's stated_in")
        elif state is ListState.not_captured and from_list:
            yield Issue(doc.path, (*listed.loc, "components", from_list[0], "id"),
                        f"component_list is `not-captured` but {prefix}.{from_list[0]} was read from the "
                        "component list; part of the list was captured: write `partial`")
