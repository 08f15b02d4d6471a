"""``data.component-downgrade``: component versions do not go down between releases unless acknowledged.

Like is compared with like: each image of a release with the same image (the same variant, by id) of
the family's previous release, and, where either side's list is split by CPU architecture (25.10 lists
aarch64 and amd64 separately), architecture by architecture
(:meth:`~lingjun.schema.release_images.ReleaseImage.components_for`).  A variant the previous release
does not have is compared with nothing.  A runtime is compared with the runtime of the same framework
(its id before ``/``: ``cosmos-framework/20261015`` and ``cosmos-framework/20261120``) in that image.
"""

from __future__ import annotations

from typing import Iterator, Optional

from lingjun.schema.gate.corpus import Corpus, matching_image
from lingjun.schema.gate.issue import Issue
from lingjun.schema.gate.rules import gate_rule
from lingjun.checks.core.version_match import parse_version
from lingjun.schema.models import ComponentEntry, CpuArch, Runtime, Severity
from lingjun.schema.release_images import release_images


def _architectures(*lists: list[ComponentEntry]) -> list[Optional[CpuArch]]:
    """The architectures ``lists`` are split by (sorted), or ``[None]`` when none is split."""
    split = {a for entries in lists for e in entries for a in e.architectures}
    return sorted(split, key=lambda a: a.value) if split else [None]


def _for(entries: list[ComponentEntry], architecture: Optional[CpuArch]) -> list[ComponentEntry]:
    """Entries that apply on ``architecture`` (entries without architectures apply on every one; None: all)."""
    return [e for e in entries if architecture is None or not e.architectures or architecture in e.architectures]


def _downgrades(now: list[ComponentEntry], before: list[ComponentEntry]) -> Iterator[tuple[int, ComponentEntry, str, Optional[CpuArch]]]:
    """``(index in now, entry, old version, architecture)`` for each entry of ``now`` whose version is lower than the
    same component's in ``before`` on the same architecture; each entry once (PEP 440; unparseable skipped)."""
    reported: set[int] = set()
    positions = {id(e): i for i, e in enumerate(now)}
    for arch in _architectures(now, before):
        old_versions = {e.id: e.version for e in _for(before, arch)}
        for entry in _for(now, arch):
            index = positions[id(entry)]
            old = old_versions.get(entry.id)
            if old is None or old == entry.version or index in reported:
                continue
            new_v, old_v = parse_version(entry.version), parse_version(old)
            if new_v is None or old_v is None or not new_v < old_v:
                continue
            reported.add(index)
            yield index, entry, old, arch


def _framework(runtime: Runtime) -> str:
    return runtime.id.partition("/")[0]


@gate_rule("data.component-downgrade", Severity.warning,
           "A component version lower than in the same image (variant) and architecture of the family's previous "
           "release is listed in acknowledged_downgrades; every acknowledgement matches a real downgrade.", order=120)
def check(corpus: Corpus) -> Iterator[Issue]:
    """Compare each image with the same image of the previous release (PEP 440; unparseable versions are skipped)."""
    for releases in corpus.ordered_families.values():  # data.family-incomplete and data.release-order name the rest
        for (_, previous), (doc, record) in zip(releases, releases[1:]):
            acknowledged = {(a.component, a.from_version, a.to_version) for a in record.acknowledged_downgrades}
            used: set[tuple[str, str, str]] = set()
            for image_index, image in enumerate(release_images(record)):
                before_image = matching_image(previous, image.variant_id)
                if before_image is None:
                    continue
                loc = ("variants", image_index) if image.variant is not None else ()
                pairs = [(loc, image.components, before_image.components, before_image.ref)]
                earlier_runtimes = {_framework(r): r for r in before_image.runtimes}
                for r_index, runtime in enumerate(image.runtimes):
                    earlier = earlier_runtimes.get(_framework(runtime))
                    if earlier is not None:
                        pairs.append(((*loc, "runtimes", r_index), runtime.components, earlier.components,
                                      f"{before_image.ref} runtime {earlier.id}"))
                for where, now, before, label in pairs:
                    for index, entry, old, arch in _downgrades(now, before):
                        triple = (entry.id, old, entry.version)
                        if triple in acknowledged:
                            used.add(triple)
                            continue
                        on = f" on {arch.value}" if arch is not None else ""
                        yield Issue(doc.path, (*where, "components", index, "version"),
                                    f"{entry.id} goes down from {old} ({label}{on}) to {entry.version}; "
                                    "if this is what the page publishes, add it to acknowledged_downgrades with the "
                                    "reason")
            for index, ack in enumerate(record.acknowledged_downgrades):
                if (ack.component, ack.from_version, ack.to_version) not in used:
                    yield Issue(doc.path, ("acknowledged_downgrades", index),
                                f"no downgrade of {ack.component} from {ack.from_version} to {ack.to_version} against "
                                f"{previous.ref}; remove or correct this entry")
    # the oldest release of a family has nothing to be acknowledged against
    for releases in corpus.ordered_families.values():
        doc, record = releases[0]
        for index, ack in enumerate(record.acknowledged_downgrades):
            yield Issue(doc.path, ("acknowledged_downgrades", index),
                        f"{record.ref} is the oldest release of its family: there is no previous version to go down from")
