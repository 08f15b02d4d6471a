"""``data.version-agreement``: a release's ``cuda`` and ``python`` agree with its CUDA and Python components.

A record states the CUDA toolkit and the Python interpreter twice: as the
release-level fields ``cuda``/``python`` and as the ``cuda``/``python``
entries of its component list.  The two are compared at the precision both
give: ``12.8`` and ``12.8.0`` agree, ``12.8.1`` and ``12.8.0`` do not;
``3.12.7+gc`` and ``3.12.7`` agree (a local label counts only when both
carry one).  A disagreement is a warning unless a ``source_conflicts``
entry of the record names the field (``cuda``, ``components.cuda``,
``components.cuda.version``; likewise for ``python``): official pages do
publish two different values, and the record then says which one it keeps.
"""

from __future__ import annotations

from typing import Iterator

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.checks.core.version_match import parse_version
from lingjun.schema.models import ReleaseRecord, Severity

#: release-level field -> id of the component entry that states the same thing
_FIELDS = ("cuda", "python")


def agree(first: str, second: str) -> bool:
    """True when two published versions agree at the precision both give.

    The release segments are compared up to the shorter one (``12.8`` vs
    ``12.8.0``: agree); pre/post/dev parts and local labels are compared
    only when both versions have them.  Text that is not a PEP 440 version
    must be equal.
    """
    if first == second:
        return True
    a, b = parse_version(first), parse_version(second)
    if a is None or b is None:
        return False
    size = min(len(a.release), len(b.release))
    if a.release[:size] != b.release[:size]:
        return False
    for part in ("pre", "post", "dev", "local"):
        left, right = getattr(a, part), getattr(b, part)
        if left is not None and right is not None and left != right:
            return False
    return True


def _explained(record: ReleaseRecord, name: str) -> bool:
    """True when a source conflict of ``record`` is about the release field or the component ``name``."""
    accepted = {name, f"components.{name}", f"components.{name}.version"}
    return any(conflict.field in accepted for conflict in record.source_conflicts)


@gate_rule("data.version-agreement", Severity.warning,
           "The `cuda` and `python` of each image (the variant's, else the release's) and the `python` of each runtime "
           "agree with the versions of the cuda and python components of the same list (at the precision both "
           "give), unless a source_conflicts entry names the field.", order=240)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare the stated ``cuda``/``python`` with every component entry of the same id, list by list."""
    for listed in corpus.component_lists():
        doc, record = listed.doc, listed.record
        variant = listed.located.image.variant
        for name in _FIELDS:
            if listed.runtime is not None:
                if name != "python":
                    continue  # a runtime states its own Python only; CUDA is the image's
                stated, field_loc = listed.runtime.python, (*listed.loc, name)
            else:
                stated = getattr(listed.located.image, name)
                own = variant is not None and getattr(variant, name) is not None
                field_loc = (*listed.loc, name) if own or variant is None else None
            if stated is None or _explained(record, name):
                continue
            for index, entry in enumerate(listed.components):
                if entry.id != name or agree(stated, entry.version):
                    continue
                where = ".".join(str(part) for part in (*listed.loc, "components", index))
                # a variant that takes the release's value is reported at its own entry
                loc = field_loc if field_loc is not None else (*listed.loc, "components", index, "version")
                yield Issue(doc.path, loc,
                            f"{name} {stated} disagrees with the {name} component's version {entry.version} "
                            f"({where}); correct one of them, or, if the page states both, add a "
                            f"source_conflicts entry whose field is `{name}` or `components.{name}`")
