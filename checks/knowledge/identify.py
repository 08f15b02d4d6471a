"""Which release record, variant and runtime apply to this container.

Order (first that gives an answer wins; ``ReleaseMatch.how`` says which):

1. ``option``: ``--release``.  A release the official pages name but the data holds no record of
   (a family's ``unrecorded_releases``: :func:`find_unrecorded`) gives a match without a record and with
   ``unrecorded`` set: nothing is known about it, so the rules that need a record skip.  Any other unknown
   value raises :class:`UnknownReleaseError` (the CLI turns it into exit code 3 with the close spellings
   :func:`close_matches` finds, or the matches of an ambiguous tag).
2. ``env``: ``LINGJUN_RELEASE`` in the (allow-listed) environment facts.
3. ``manifest``: ``release`` of ``/etc/lingjun/release.json``.  When the manifest's ``image`` contradicts it
   (:func:`manifest_conflict`: the image is another release's, or another variant's of the same release), the
   manifest does not decide what the two disagree on: another release, and the manifest is passed over (the next
   step decides); another variant, and the release is taken but the variant is chosen as if none were named.
   An ``image`` that is no recorded release's image leaves the ``release`` in force.  The
   ``release.manifest-image`` rule reports each of these, naming both values.

Each of the three names a release as users copy it (:func:`find_release`):
``family:release`` (the release identifier is ``YY.MM``, a date such as
``training-xpu-pytorch:2026-10-20``, or the page's own name such as
``inference-xpu-pytorch-opt:sglang0.5.4.post3-250105``), ``family:release#variant``
(``inference-nv-pytorch:25.04#vllm``), one of the release's image tags alone
(``25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless``, when no other
release publishes the same tag) or after the image or family name
(``training-nv-pytorch:25.07-serverless``), the full reference
``egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless``,
or the family's VPC form ``acs-registry-vpc.<region-id>.cr.aliyuncs.com/...``.
A tag must be one the record lists; nothing is guessed from prefixes.  A tag
names its variant too.
4. ``fingerprint``: every *image* (each variant of a release with variants,
   else the release itself) is scored against the installed distributions.
   For each component entry whose catalog probe is ``pypi``
   (and whose ``architectures``, when given, include this machine), the
   installed version of any of the component's PyPI names is compared with
   the published version using :mod:`packaging`:

   * same public version and compatible local label (equal, one missing, or
     one a ``.``-separated prefix of the other, so ``0.16.4+ali`` matches
     ``0.16.4+ali.1``): 1 point;
   * same public version, different local label (``2.7.1+cu128`` where the
     record says ``2.7.1+nv25.3``): 0.5 point;
   * otherwise, or not installed: 0.

   The score is points / compared entries (0.0-1.0).  The best image wins
   when its score is at least :data:`THRESHOLD` and at least
   :data:`MIN_MATCHED` entries (or all of them, for an image listing only one
   probed component, such as an NGC base image's torch build; a partial list
   showing one of several is not enough) matched fully; ties go to product families
   over base images, then to the newer release (by date: :mod:`lingjun.checks.core.release_order`,
   never by comparing identifiers as text).  Up to five runners-up are kept in ``candidates``.
5. ``none``: no record applies; environment checks still run.

The variant: named by a tag or ``#variant``, or, when only the release is named (``family:release``,
a manifest without an ``image``), the variant whose list the installed components match best.  Two
variants that match equally well are a tie: the variant stays unknown (``ReleaseMatch.variant_candidates``
names both) and is never picked silently.

The runtime: when the running interpreter (``sys.prefix`` or ``sys.executable``) lies under one of the
image's runtime paths (``/opt/runtimes/llama-factory-ppu``), that runtime (:func:`lingjun.checks.knowledge.record_view.runtime_for`).

``ReleaseMatch.record`` is the release as that image shows it
(:func:`lingjun.checks.knowledge._image_view.image_record`, then typed).  Records are read typed
(:attr:`lingjun.checks.knowledge.bundle.KnowledgeData.records`).

An env value or manifest naming a release the data does not know is passed
over: it is kept in ``ReleaseMatch.rejected`` (the ``release.identified``
rule warns about it, naming the known releases) and the next step decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional, Union

from lingjun.checks.context import ReleaseMatch
from lingjun.checks.facts import Facts, ManifestFacts, normalise_name
from lingjun.checks.knowledge.bundle import KnowledgeData
from lingjun.checks.core.family_driver import driver_view
from lingjun.checks.core.version_match import parse_version
from lingjun.checks.coverage import OBSERVED, available, state
from lingjun.checks.knowledge._image_view import image_record
from lingjun.checks.knowledge.record_view import image_tags, runtime_for, variant_of

if TYPE_CHECKING:
    from lingjun.checks.knowledge.release_record import Release, Variant

__all__ = ["UnknownReleaseError", "ManifestConflict", "identify", "find_release", "find_releases", "find_unrecorded",
           "close_matches", "unknown_release_hint", "better_variant", "release_ref_problem", "manifest_conflict",
           "manifest_image_problem", "release_names", "score_record", "versions_match", "order_key", "THRESHOLD",
           "MIN_MATCHED"]

#: minimum fingerprint score for a record to apply
THRESHOLD = 0.6
#: minimum number of fully matching components for a fingerprint
MIN_MATCHED = 2

_MACHINE_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "aarch64", "arm64": "aarch64"}


class UnknownReleaseError(ValueError):
    """``--release`` names a release the data does not hold (``known`` lists the valid refs), or several
    (``ambiguous`` True; ``known`` lists the ones it could mean: a bare tag two families publish).

    ``reason``: why the value names no release when the value itself is malformed (:func:`release_ref_problem`:
    ``training-nv-pytorch:25.07#`` has nothing after ``#``), else None (a well-formed name the data lacks);
    ``suggestions``: close spellings of ``ref`` that name a release (:func:`close_matches`), best first."""

    def __init__(self, ref: str, known: list[str], ambiguous: bool = False, suggestions: Optional[list[str]] = None,
                 reason: Optional[str] = None) -> None:
        super().__init__(f"{'ambiguous' if ambiguous else 'unknown'} release {ref!r}" + (f": {reason}" if reason else ""))
        self.ref = ref
        self.known = known
        self.ambiguous = ambiguous
        #: close spellings of ``ref`` that name a release (:func:`close_matches`), best first
        self.suggestions = list(suggestions or [])
        self.reason = reason


def release_ref_problem(value: str) -> Optional[str]:
    """Why ``value`` cannot name a release whatever the data holds, or None when it may.

    An empty variant is refused (``training-nv-pytorch:25.07#``, ``25.07# ``): ``#`` asks for one image of
    the release, and nothing after it names none, as ``#vllm`` on a release without variants names none.

    >>> release_ref_problem("inference-nv-pytorch:25.04#"), release_ref_problem("inference-nv-pytorch:25.04#vllm")
    ("nothing after '#': give FAMILY:RELEASE#VARIANT, or leave out the '#'", None)
    """
    named, hash_sign, variant = value.strip().partition("#")
    if hash_sign and not variant.strip():
        return "nothing after '#': give FAMILY:RELEASE#VARIANT, or leave out the '#'"
    return None


def release_ref(record: "Release") -> str:
    """``family:version`` of a release record."""
    return record.ref


def versions_match(installed: Optional[str], published: Optional[str]) -> float:
    """1.0, 0.5 or 0.0 for an installed vs published version (see the module docstring).

    >>> versions_match("0.16.4+ali.1", "0.16.4+ali"), versions_match("2.7.1+cu128", "2.7.1+nv25.3"), versions_match("2.6.0", "2.7.1")
    (1.0, 0.5, 0.0)
    """
    if not installed or not published:
        return 0.0

    a, b = parse_version(installed), parse_version(published)
    if a is None or b is None:
        return 1.0 if installed.strip().lower() == published.strip().lower() else 0.0
    if a.release != b.release or a.pre != b.pre or a.post != b.post or a.dev != b.dev or a.epoch != b.epoch:
        return 0.0
    la, lb = a.local, b.local
    if la is None or lb is None or la == lb or la.startswith(lb + ".") or lb.startswith(la + "."):
        return 1.0
    return 0.5


def _pypi_components(data: KnowledgeData) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for component in data.catalog:
        if component.probe.kind == "pypi" and component.pypi:
            out[component.id] = [normalise_name(n) for n in component.pypi]
    return out


def score_record(
    record: "Union[Release, Variant]", installed: dict[str, str], pypi: dict[str, list[str]], arch: Optional[str],
    absent_known: bool = True
) -> tuple[float, int, int]:
    """``(score, fully_matched, compared)`` of one release record (or one image of it: a variant, or
    :attr:`lingjun.checks.context.ReleaseMatch.record`) against installed versions (normalised name -> version).

    ``absent_known`` False (a package list shown only in part, such as a collect_env paste) leaves out the record's
    components the list does not name: they are not known to be missing, so they neither count for nor against it.
    """
    points = 0.0
    matched = compared = 0
    for entry in record.components:
        names = pypi.get(entry.id)
        if not names:
            continue
        archs = entry.architectures
        if arch and archs and arch not in archs:
            continue
        if not absent_known and not any(n in installed for n in names):
            continue
        compared += 1
        best = max((versions_match(installed.get(n), entry.version) for n in names), default=0.0)
        points += best
        matched += best == 1.0
    return (points / compared if compared else 0.0), matched, compared


#: what stands for ``{region-id}`` in a family's registry pattern: an Alibaba Cloud region id (cn-beijing)
_REGION_ID = r"[a-z0-9]+(?:-[a-z0-9]+)*"


def _pattern_matches(pattern: str, image: str, tag: str, value: str) -> bool:
    """Whether ``value`` is ``pattern`` (``host/ns/{image}:{tag}``, maybe with ``{region-id}``) filled in exactly."""
    parts = re.split(r"(\{[a-z-]+\})", pattern)
    fill = {"{image}": re.escape(image), "{tag}": re.escape(tag), "{region-id}": _REGION_ID}
    regex = "".join(fill.get(part, re.escape(part)) if part.startswith("{") else re.escape(part) for part in parts)
    return re.fullmatch(regex, value) is not None


def order_key(record: "Release") -> tuple[int, int, int]:
    """Where a release falls in its family's order: the bundle's ``order_key`` (``[year, month, day]``), else
    :func:`lingjun.checks.core.release_order.release_order_key`; ``(0, 0, 0)`` when neither places it."""
    key = record.order_key
    if key is not None and len(key) == 3:
        return (key[0], key[1], key[2])
    from lingjun.checks.core.release_order import release_order_key  # deferred: not every check needs it

    return release_order_key(record.version, record.release_date) or (0, 0, 0)


def _tag_matches(data: KnowledgeData, family_id: str, tag: str, reference: Optional[str], text: str, bare: bool) -> bool:
    """Whether ``text`` names the image tag ``tag`` (whose full ``reference`` is given, where known) of the family
    ``family_id``, in one of the forms :func:`find_release` accepts."""
    if bare and text == tag:
        return True
    family = data.family(family_id) or {}
    images = {str(name) for name in (family.get("image_name"), family_id) if name}
    patterns = [p for p in (family.get("public_registry_pattern"), family.get("vpc_registry_pattern")) if isinstance(p, str)]
    return (text == reference or any(text == f"{image}:{tag}" for image in images)
            or any(_pattern_matches(pattern, image, tag, text) for pattern in patterns for image in images))


def find_releases(data: KnowledgeData, value: str) -> "list[tuple[str, Release, Optional[str]]]":
    """Every ``(family:release, record, variant id or None)`` that ``value`` names (see :func:`find_release`);
    more than one only for a bare tag that several releases publish."""
    text = value.strip()
    if not text or release_ref_problem(text):
        return []
    named, _, variant = text.partition("#")
    record = data.record(named)
    if record is not None:
        if not variant:
            return [(named, record, None)]
        return [(named, record, variant)] if variant_of(record, variant) is not None else []
    if variant:
        return []
    bare = ":" not in text and "/" not in text
    found = []
    for record in data.records:
        for variant_id, entry in image_tags(record):
            if _tag_matches(data, record.family, entry.tag, entry.reference, text, bare):
                found.append((release_ref(record), record, variant_id))
                break
    return found


def find_unrecorded(data: KnowledgeData, value: str) -> Optional[dict[str, Any]]:
    """The release ``value`` names among those the official pages name without a record here (the families'
    ``unrecorded_releases``): ``{"ref": "family:release", "family", "version", "named_in": [url, ...]}``, or None.

    ``value`` is ``family:release`` (a ``#variant`` after it is ignored: nothing is known of its images), or one of
    the tags the naming page shows, written as :func:`find_release` accepts tags.  Only one match counts.
    """
    text = value.strip()
    named = text.partition("#")[0]
    bare = ":" not in text and "/" not in text
    found = []
    for family in data.raw.get("families", []):
        for entry in family.get("unrecorded_releases") or []:
            version = str(entry.get("version"))
            ref = f"{family.get('id')}:{version}"
            if named == ref or any(_tag_matches(data, str(family.get("id")), tag, None, text, bare)
                                   for tag in entry.get("image_tags") or []):
                found.append({"ref": ref, "family": family.get("id"), "version": version,
                              "named_in": [u for u in entry.get("named_in") or [] if isinstance(u, str)]})
    return found[0] if len(found) == 1 else None


def release_names(data: KnowledgeData) -> list[str]:
    """Every name ``--release`` accepts short of tags: ``family:release`` of each record and of each release the pages
    name without a record, and ``family:release#variant`` of each variant."""
    names: list[str] = []
    for record in data.records:
        names.append(record.ref)
        names.extend(f"{record.ref}#{variant.id}" for variant in record.variants if variant.id)
    for family in data.raw.get("families", []):
        names.extend(f"{family.get('id')}:{entry.get('version')}" for entry in family.get("unrecorded_releases") or [])
    return names


def close_matches(data: KnowledgeData, value: str, limit: int = 3) -> list[str]:
    """Up to ``limit`` names ``value`` is likely a misspelling of, best first (:mod:`difflib` ratio 0.8 or more).

    ``family:release[#variant]``: with a known family, its release names (:func:`release_names`) whose part after
    the ``:`` is close (``training-xpu-pytorch:2026-10-2`` -> ``training-xpu-pytorch:2026-10-20``,
    ``inference-nv-pytorch:25.04#vlm`` -> ``inference-nv-pytorch:25.04#vllm``); with a misspelled family, the
    same release of the close families (``inference-nv-pytorh:25.04`` -> ``inference-nv-pytorch:25.04``).  A value
    without ``:`` is compared with the image tags.  Only the closest few are kept, never a list of everything.
    """
    import difflib  # deferred: a plain or live check never needs it

    def closest(word: str, choices: list[str]) -> list[str]:
        scored = sorted(((difflib.SequenceMatcher(None, word, c).ratio(), c) for c in dict.fromkeys(choices)),
                        key=lambda item: -item[0])
        scored = [item for item in scored if item[0] >= 0.8]
        # only those about as close as the best: a typo names one thing, not every release of a family
        return [c for r, c in scored if r >= scored[0][0] - 0.05][:limit] if scored else []

    text = value.strip()
    names = release_names(data)
    if ":" not in text:
        tags = [entry.tag for record in data.records for _, entry in image_tags(record)]
        tags += [tag for family in data.raw.get("families", []) for entry in family.get("unrecorded_releases") or []
                 for tag in entry.get("image_tags") or []]
        return closest(text, tags + names)
    family, _, rest = text.partition(":")
    families = [str(f.get("id")) for f in data.raw.get("families", [])]
    if family in families:
        tails = [n.partition(":")[2] for n in names if n.partition(":")[0] == family]
        return [f"{family}:{tail}" for tail in closest(rest, tails)]
    out = []
    for other in closest(family, families):
        if f"{other}:{rest}" in names:
            out.append(f"{other}:{rest}")
        else:
            out.extend(f"{other}:{tail}" for tail in closest(rest, [n.partition(":")[2] for n in names
                                                                     if n.partition(":")[0] == other]))
    return out[:limit]


def unknown_release_hint(exc: UnknownReleaseError, data: KnowledgeData) -> str:
    """What to say after "unknown release" (one line): "did you mean X or Y?" with :attr:`UnknownReleaseError.suggestions`,
    else the releases of the family named when it is a known one, else the families and the forms ``--release`` takes."""
    if exc.suggestions:
        return "did you mean " + " or ".join(exc.suggestions) + "?"
    family = exc.ref.strip().partition(":")[0]
    if data.family(family) is not None:
        of_family = [name for name in release_names(data) if name.startswith(family + ":")]
        return f"{family} releases: {', '.join(of_family) or '(none)'}"
    families = sorted(str(f.get("id")) for f in data.raw.get("families", []))
    return "give FAMILY:RELEASE, FAMILY:RELEASE#VARIANT or one of the release's image tags; families: " + ", ".join(families)


def find_release(data: KnowledgeData, value: str) -> "Optional[tuple[str, Release, Optional[str]]]":
    """``(family:release, record, variant id or None)`` of the release ``value`` names, or None (nothing, or
    several releases: a bare tag two of them publish).

    ``value`` (surrounding blanks ignored) is ``family:release`` or ``family:release#variant`` (the variant
    must exist; an empty one, ``family:release#``, names nothing: :func:`release_ref_problem`), or one of a
    record's image tags (a variant's tags included; the tag names the variant) written alone, as
    ``<image>:<tag>`` (``<image>`` the family's ``image_name`` or id), as the tag's ``reference``, or as the
    family's ``public_registry_pattern``/``vpc_registry_pattern`` filled with that image and tag (``{region-id}``
    any region id).  Matching is exact;
    ``training-nv-pytorch:25.07-serverless`` names 25.07, ``training-nv-pytorch:25.07-server`` nothing.
    """
    found = find_releases(data, value)
    return found[0] if len(found) == 1 else None


def _installed(facts: Facts) -> dict[str, str]:
    installed: dict[str, str] = {}
    for dist in facts.distributions:
        if dist.version and normalise_name(dist.name) not in installed:
            installed[normalise_name(dist.name)] = dist.version
    return installed


def _scorer(facts: Facts, data: KnowledgeData, probed: bool = False) -> Any:
    """``image -> score_record(...)`` against the installed distributions; with ``probed``, ``image -> the
    number of entries the image lists that a pip probe reads on this architecture`` (installed or not)."""
    installed = _installed(facts)
    pypi = _pypi_components(data)

    absent_known = state(facts, "distributions") == OBSERVED
    arch = _MACHINE_ARCH.get((facts.host.machine or "").lower())
    if probed:
        return lambda image: score_record(image, {}, pypi, arch)[2]
    return lambda image: score_record(image, installed, pypi, arch, absent_known)


def _manifest(facts: Facts) -> Optional[ManifestFacts]:
    """The manifest facts, or None when there are none or the input says the manifest is not shown (a snapshot whose
    coverage says so): a release is never taken from a manifest the report lists as not shown."""
    return facts.manifest if facts.manifest is not None and available(facts, "manifest") else None


def _manifest_image(facts: Facts) -> Optional[str]:
    manifest = _manifest(facts)
    data = manifest.data if manifest is not None and isinstance(manifest.data, dict) else {}
    image = data.get("image")
    return image.strip() if isinstance(image, str) and image.strip() else None


def _image_releases(data: KnowledgeData, image: str) -> "list[tuple[str, Release, Optional[str]]]":
    """What a manifest's ``image`` names (:func:`find_releases`); an image copied to another registry
    (``registry.example.com/team/training-nv-pytorch:25.07-serverless``) names what its last part
    ``<image name>:<tag>`` names, so a mirror is never a contradiction."""
    found = find_releases(data, image)
    tail = image.rsplit("/", 1)[-1]
    if not found and tail != image and ":" in tail:
        found = find_releases(data, tail)
    return found


def manifest_image_problem(facts: Facts) -> Optional[str]:
    """What is wrong with the manifest's ``image`` when it is there but names no image at all (``"a list"``,
    ``"an empty string"``; it is then ignored), else None (no manifest, no ``image`` key, or a non-empty string)."""
    manifest = _manifest(facts)
    data = manifest.data if manifest is not None and isinstance(manifest.data, dict) else {}
    if "image" not in data or _manifest_image(facts):
        return None
    value = data["image"]
    if isinstance(value, str):
        return "an empty string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {int: "a number", float: "a number", list: "a list", dict: "an object"}.get(type(value), "not a string")


@dataclass(frozen=True)
class ManifestConflict:
    """The manifest's ``release`` and ``image`` disagree (:func:`manifest_conflict`).

    ``kind``: ``"other-release"`` (the image is an image of another release), ``"other-variant"`` (another
    variant's image of the release named) or ``"unknown-image"`` (no release in the data publishes it).
    ``release``, ``image``: the two values as written (stripped); ``named``: ``family:release[#variant]`` the
    ``release`` names; ``image_names``: ``family:release[#variant]`` of each image the ``image`` names (empty for
    ``unknown-image``)."""

    kind: str
    release: str
    image: str
    named: str
    image_names: tuple[str, ...]


def manifest_conflict(facts: Facts, data: KnowledgeData) -> Optional[ManifestConflict]:
    """How the manifest's ``image`` contradicts its ``release``, or None: no manifest, no ``image``, a ``release``
    that names no release (the ``release.identified`` rule reports it), or the two agree (the image is one of that
    release's, of the variant named, if one is; ``family:release`` of a release with variants and an image of one
    of them agree: the image names the variant)."""
    image, manifest = _manifest_image(facts), _manifest(facts)
    if not image or manifest is None or not isinstance(manifest.release, str) or not manifest.release.strip():
        return None
    release = manifest.release.strip()
    named = find_release(data, release)
    if named is None:
        return None
    ref, _, variant = named
    images = _image_releases(data, image)
    same = [v for r, _, v in images if r == ref]
    if any(variant is None or v is None or v == variant for v in same):
        return None
    kind = "other-variant" if same else "other-release" if images else "unknown-image"
    names = tuple(dict.fromkeys(r + (f"#{v}" if v else "") for r, _, v in images))
    return ManifestConflict(kind, release, image, ref + (f"#{variant}" if variant else ""), names)


def _choose_variant(facts: Facts, data: KnowledgeData, record: "Release",
                    use_image: bool = True) -> tuple[Optional[str], list[str]]:
    """``(variant id, [])`` when the manifest's ``image`` names one of the record's variants (unless ``use_image``
    is False: the manifest contradicts itself) or the installed components match one variant's list better than
    every other's, else ``(None, [the variants still possible, best first])``: a tie is never broken silently."""
    image = _manifest_image(facts) if use_image else None
    if image:
        for ref, found, variant_id in _image_releases(data, image):
            if found is record and variant_id:
                return variant_id, []
    score = _scorer(facts, data)
    ranked = sorted(((score(v)[:2], v.id) for v in record.variants), key=lambda item: (-item[0][0], -item[0][1]))
    if len(ranked) == 1 or (len(ranked) > 1 and ranked[0][0] > ranked[1][0] and ranked[0][0][1] >= 1):
        return ranked[0][1], []
    best = ranked[0][0] if ranked else None
    return None, [vid for key, vid in ranked if key == best] if best and best[1] >= 1 else [vid for _, vid in ranked]


def better_variant(facts: Facts, data: KnowledgeData, ref: str, variant: Optional[str]) -> "Optional[Variant]":
    """The variant of release ``ref`` whose component list the installed packages match better than ``variant``'s
    (a higher score, or the same score with more fully matched entries, and at least one full match), or None.

    For a variant named by ``--release``, a tag or a manifest: ``inference-nv-pytorch:25.04#sglang`` on a container
    whose packages are the vLLM image's gives the ``vllm`` variant.
    """
    record = data.record(ref)
    if record is None or not variant:
        return None
    score = _scorer(facts, data)
    scored = {v.id: score(v)[:2] for v in record.variants}
    named = scored.get(variant)
    if named is None:
        return None
    best_id = max(scored, key=lambda vid: scored[vid])
    best = scored[best_id]
    if best_id != variant and best > named and best[1] >= 1:
        return variant_of(record, best_id)
    return None


def _match(facts: Facts, data: KnowledgeData, how: str, ref: str, record: "Release", variant: Optional[str],
           use_image: bool = True, **kwargs: Any) -> ReleaseMatch:
    """The :class:`ReleaseMatch` of a release (and variant) found, with the variant chosen when the name left it
    open (``use_image`` False: not from the manifest's ``image``) and the runtime the running interpreter belongs to."""
    candidates: list[str] = []
    if variant is None and record.variants:
        variant, candidates = _choose_variant(facts, data, record, use_image)
    image = variant_of(record, variant) or record
    runtime = runtime_for(image, facts.python.prefix, facts.python.executable) if not candidates else None
    view = image_record(record.raw, variant, unknown_variant=bool(candidates), runtime_id=runtime.id if runtime else None)
    # a cut-off driver text is read with what the family's neighbouring releases state (as the finder and which read it)
    view = driver_view(view, data.releases)  # it reads the record's family only
    shown = {k: getattr(runtime, k) for k in ("id", "name", "path") if getattr(runtime, k)} if runtime else None
    return ReleaseMatch(ref=ref, how=how, record=view, variant=variant, variant_candidates=candidates, runtime=shown, **kwargs)


def identify(facts: Facts, data: KnowledgeData, option: Optional[str] = None) -> ReleaseMatch:
    """The release that applies (see the module docstring).

    Raises:
        UnknownReleaseError: when ``option`` names no known release, or several.
    """
    if option:
        return _from_option(facts, data, option)
    rejected: list[tuple[str, str]] = []
    for how, value in _named(facts):
        found_one = find_release(data, value)
        if found_one is None:
            rejected.append((how, value))
            continue
        conflict = manifest_conflict(facts, data) if how == "manifest" else None
        if conflict is not None and conflict.kind == "other-release":
            continue  # the manifest names two releases: neither is taken (release.manifest-image says so)
        if conflict is not None and conflict.kind == "other-variant":
            return _match(facts, data, how, found_one[0], found_one[1], None, use_image=False, rejected=rejected)
        return _match(facts, data, how, found_one[0], found_one[1], found_one[2], rejected=rejected)
    match = fingerprint(facts, data)
    match.rejected = rejected
    return match


def _from_option(facts: Facts, data: KnowledgeData, option: str) -> ReleaseMatch:
    """The release ``--release`` names (or the unrecorded one it names).

    Raises:
        UnknownReleaseError: when ``option`` names no known release, or several.
    """
    found = find_releases(data, option)
    if not found:
        unrecorded = find_unrecorded(data, option)
        if unrecorded is not None:
            return ReleaseMatch(ref=unrecorded["ref"], how="option", unrecorded=unrecorded)
    if len(found) != 1:
        ambiguous = len(found) > 1
        known = sorted(r for r, _, _ in found) if ambiguous else sorted(r.ref for r in data.records)
        problem = release_ref_problem(option)
        raise UnknownReleaseError(option, known, ambiguous=ambiguous, reason=problem,
                                  suggestions=[] if ambiguous or problem else close_matches(data, option))
    ref, record, variant = found[0]
    return _match(facts, data, "option", ref, record, variant)


def _named(facts: Facts) -> list[tuple[str, str]]:
    """``(how, name)`` of the releases the system names itself, in order: ``LINGJUN_RELEASE``, then the manifest's."""
    named = [("env", (facts.env.get("LINGJUN_RELEASE") or "").strip())]
    manifest = _manifest(facts)
    if manifest is not None and isinstance(manifest.release, str) and manifest.release.strip():
        named.append(("manifest", manifest.release.strip()))
    return [(how, value) for how, value in named if value]


#: one scored image: (score, components fully matched, entries it lists with a pip probe, record, variant id)
_Scored = tuple[float, int, int, "Release", Optional[str]]


def fingerprint(facts: Facts, data: KnowledgeData) -> ReleaseMatch:
    """Score every image of every record against the installed distributions (step 4 of the module docstring)."""
    scored = _scored_images(facts, data)
    candidates = [(_scored_name(item), round(item[0], 3)) for item in scored[:6] if item[0] > 0]
    if scored:
        points, matched, probed, record, variant = scored[0]
        if points >= THRESHOLD and matched >= min(MIN_MATCHED, probed):
            tied = [item for item in scored if item[3] is record and item[4] and round(item[0], 6) == round(points, 6)
                    and item[1] == matched]
            # two variants alike: the variant is left to _match, which names both (never the first silently)
            return _match(facts, data, "fingerprint", release_ref(record), record, variant if len(tied) < 2 else None,
                          score=round(points, 3), candidates=candidates[1:])
    return ReleaseMatch(how="none", score=round(scored[0][0], 3) if scored else None, candidates=candidates[:5])


def _scored_images(facts: Facts, data: KnowledgeData) -> list[_Scored]:
    """Every image that shares a compared entry with the system, best first."""
    score, probed_of = _scorer(facts, data), _scorer(facts, data, probed=True)
    bases = {f.get("id") for f in data.raw.get("families", []) if f.get("role") == "base"}
    scored: list[_Scored] = []
    for record in data.records:
        for image in record.variants or [record]:
            points, matched, compared = score(image)
            if compared:
                # (score, fully matched, entries the image lists with a pip probe: a partial list naming only one
                # of them, such as a collect_env paste showing torch, is one match, not "all of them")
                scored.append((points, matched, probed_of(image), record, image.id if image is not record else None))

    # best score first; then more components matched; then product families before base images; then the newer release
    scored.sort(key=lambda item: (round(-item[0], 6), -item[1], item[3].family in bases,
                                  [-p for p in order_key(item[3])]))
    return scored


def _scored_name(item: _Scored) -> str:
    return release_ref(item[3]) + (f"#{item[4]}" if item[4] else "")
