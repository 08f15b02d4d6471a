"""Which release record applies to this container.

Order (first that gives an answer wins; ``ReleaseMatch.how`` says which):

1. ``option``: ``--release``.  An unknown value raises
   :class:`UnknownReleaseError` (the CLI turns it into exit code 3 listing
   the known releases).
2. ``env``: ``LINGJUN_RELEASE`` in the (allow-listed) environment facts.
3. ``manifest``: ``release`` of ``/etc/lingjun/release.json``.

Each of the three names a release as ``family:YY.MM`` or as one of the
release's image tags, exactly as users copy them (:func:`find_release`):
``training-nv-pytorch:25.07-serverless``, the full reference
``egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless``,
or the family's VPC form ``acs-registry-vpc.<region-id>.cr.aliyuncs.com/...``.
A tag must be one the record lists; nothing is guessed from prefixes.
4. ``fingerprint``: every release record is scored against the installed
   distributions.  For each component entry whose catalog probe is ``pypi``
   (and whose ``architectures``, when given, include this machine), the
   installed version of any of the component's PyPI names is compared with
   the published version using :mod:`packaging`:

   * same public version and compatible local label (equal, one missing, or
     one a ``.``-separated prefix of the other, so ``0.16.4+ali`` matches
     ``0.16.4+ali.1``): 1 point;
   * same public version, different local label (``2.7.1+cu128`` where the
     record says ``2.7.1+nv25.3``): 0.5 point;
   * otherwise, or not installed: 0.

   The score is points / compared entries (0.0-1.0).  The best record wins
   when its score is at least :data:`THRESHOLD` and at least
   :data:`MIN_MATCHED` entries (or all of them, for a record listing only one
   probed component, such as an NGC base image's torch build) matched fully; ties go to product families
   over base images, then to the newer release.  Up to five runners-up are
   kept in ``candidates``.
5. ``none``: no record applies; environment checks still run.

An env value or manifest naming a release the data does not know is passed
over: it is kept in ``ReleaseMatch.rejected`` (the ``release.identified``
rule warns about it, naming the known releases) and the next step decides.
"""

from __future__ import annotations

import re
from typing import Any, Optional

from lingjun.checks.context import ReleaseMatch
from lingjun.checks.facts import Facts, normalise_name
from lingjun.checks.knowledge.bundle import KnowledgeData

__all__ = ["UnknownReleaseError", "identify", "find_release", "score_record", "versions_match", "THRESHOLD", "MIN_MATCHED"]

#: minimum fingerprint score for a record to apply
THRESHOLD = 0.6
#: minimum number of fully matching components for a fingerprint
MIN_MATCHED = 2

_MACHINE_ARCH = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "aarch64", "arm64": "aarch64"}


class UnknownReleaseError(ValueError):
    """``--release`` names a release the data does not hold; ``known`` lists the valid refs."""

    def __init__(self, ref: str, known: list[str]) -> None:
        super().__init__(f"unknown release {ref!r}")
        self.ref = ref
        self.known = known


def release_ref(record: dict[str, Any]) -> str:
    """``family:version`` of a bundle release record."""
    return f"{record.get('family')}:{record.get('version')}"


def versions_match(installed: Optional[str], published: Optional[str]) -> float:
    """1.0, 0.5 or 0.0 for an installed vs published version (see the module docstring).

    >>> versions_match("0.16.4+ali.1", "0.16.4+ali"), versions_match("2.7.1+cu128", "2.7.1+nv25.3"), versions_match("2.6.0", "2.7.1")
    (1.0, 0.5, 0.0)
    """
    if not installed or not published:
        return 0.0
    from lingjun.checks.core.version_match import parse_version  # packaging.version only once versions are compared

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
    for component in data.components:
        probe = component.get("probe") or {}
        if probe.get("kind") == "pypi" and component.get("pypi"):
            out[component["id"]] = [normalise_name(n) for n in component["pypi"]]
    return out


def score_record(
    record: dict[str, Any], installed: dict[str, str], pypi: dict[str, list[str]], arch: Optional[str], absent_known: bool = True
) -> tuple[float, int, int]:
    """``(score, fully_matched, compared)`` of one release record against installed versions (normalised name -> version).

    ``absent_known`` False (a package list shown only in part, such as a collect_env paste) leaves out the record's
    components the list does not name: they are not known to be missing, so they neither count for nor against it.
    """
    points = 0.0
    matched = compared = 0
    for entry in record.get("components") or []:
        names = pypi.get(entry.get("id", ""))
        if not names:
            continue
        archs = entry.get("architectures") or []
        if arch and archs and arch not in archs:
            continue
        if not absent_known and not any(n in installed for n in names):
            continue
        compared += 1
        best = max((versions_match(installed.get(n), entry.get("version")) for n in names), default=0.0)
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


def find_release(data: KnowledgeData, value: str) -> Optional[tuple[str, dict[str, Any]]]:
    """``(family:YY.MM, record)`` of the release ``value`` names, or None.

    ``value`` (surrounding blanks ignored) is ``family:YY.MM``, or one of a
    record's ``image_tags`` written as ``<image>:<tag>`` (``<image>`` the
    family's ``image_name`` or id), as the tag's ``reference``, or as the
    family's ``public_registry_pattern``/``vpc_registry_pattern`` filled with
    that image and tag (``{region-id}`` any region id).  Matching is exact;
    ``training-nv-pytorch:25.07-serverless`` names 25.07,
    ``training-nv-pytorch:25.07-server`` nothing.
    """
    text = value.strip()
    if not text:
        return None
    record = data.release(text)
    if record is not None:
        return text, record
    for record in data.releases:
        family = data.family(str(record.get("family"))) or {}
        images = {str(name) for name in (family.get("image_name"), record.get("family")) if name}
        patterns = [p for p in (family.get("public_registry_pattern"), family.get("vpc_registry_pattern")) if isinstance(p, str)]
        for entry in record.get("image_tags") or []:
            tag = entry.get("tag") if isinstance(entry, dict) else None
            if not tag:
                continue
            if text == entry.get("reference") or any(text == f"{image}:{tag}" for image in images) or any(
                _pattern_matches(pattern, image, tag, text) for pattern in patterns for image in images
            ):
                return release_ref(record), record
    return None


def identify(facts: Facts, data: KnowledgeData, option: Optional[str] = None) -> ReleaseMatch:
    """The release that applies (see the module docstring).

    Raises:
        UnknownReleaseError: when ``option`` names no known release.
    """
    if option:
        found = find_release(data, option)
        if found is None:
            raise UnknownReleaseError(option, sorted(release_ref(r) for r in data.releases))
        return ReleaseMatch(ref=found[0], how="option", record=found[1])
    rejected: list[tuple[str, str]] = []
    named = [("env", (facts.env.get("LINGJUN_RELEASE") or "").strip())]
    if facts.manifest is not None and facts.manifest.release:
        named.append(("manifest", facts.manifest.release.strip()))
    for how, value in named:
        if not value:
            continue
        found = find_release(data, value)
        if found is not None:
            return ReleaseMatch(ref=found[0], how=how, record=found[1], rejected=rejected)
        rejected.append((how, value))
    match = fingerprint(facts, data)
    match.rejected = rejected
    return match


def fingerprint(facts: Facts, data: KnowledgeData) -> ReleaseMatch:
    """Score every record against the installed distributions (step 4 of the module docstring)."""
    installed: dict[str, str] = {}
    for dist in facts.distributions:
        if dist.version and normalise_name(dist.name) not in installed:
            installed[normalise_name(dist.name)] = dist.version
    pypi = _pypi_components(data)
    from lingjun.checks.coverage import OBSERVED, state

    absent_known = state(facts, "distributions") == OBSERVED
    arch = _MACHINE_ARCH.get((facts.host.machine or "").lower())
    bases = {f.get("id") for f in data.raw.get("families", []) if f.get("role") == "base"}
    scored: list[tuple[float, int, dict[str, Any]]] = []
    compared_by_id: dict[int, int] = {}
    for record in data.releases:
        score, matched, compared = score_record(record, installed, pypi, arch, absent_known)
        if compared:
            scored.append((score, matched, record))
            compared_by_id[id(record)] = compared

    def compared_of(record: dict[str, Any]) -> int:
        return compared_by_id[id(record)]

    # best score first; then more components matched; then product families before base images; then the newer release
    scored.sort(key=lambda item: (round(-item[0], 6), -item[1], item[2].get("family") in bases,
                                  [-p for p in _version_key(item[2].get("version"))]))
    candidates = [(release_ref(r), round(s, 3)) for s, _, r in scored[:6] if s > 0]
    if scored:
        score, matched, record = scored[0]
        if score >= THRESHOLD and matched >= min(MIN_MATCHED, compared_of(record)):
            return ReleaseMatch(ref=release_ref(record), how="fingerprint", score=round(score, 3), record=record, candidates=candidates[1:])
    return ReleaseMatch(how="none", score=round(scored[0][0], 3) if scored else None, candidates=candidates[:5])


def _version_key(version: Any) -> list[int]:
    return [int(p) for p in re.findall(r"\d+", str(version or ""))]
