"""The draft release record: every value the page states, placeholders for the rest.

Taken from the page: the tags and their products, the architectures, the
component lists (one per image variant, or one per architecture merged into
``ComponentEntry.architectures``), Python, CUDA and PPU SDK, the driver
requirement, the main features, bug fixes, usage notes, quick start, the
known issues (as text in the page source's note: each needs a known-issue
file), the lists the page says are empty (``stated_none``), and the page
itself as a source.  Text is the page's own, in the page's language, kept
behind the placeholder of :mod:`lingjun.schema.placeholders` ("reword: the
page says …"): the project takes facts from the pages but never their prose,
so validation fails until a reviewer has put each sentence in their own
words.  The other language and the summary get the bare placeholder.  Component names are mapped to catalog ids through
:meth:`KnowledgeBase.component_for_name`; an unknown name gets the id
``todo.lingjun-kb-new.<name>``, which fails validation until the catalog has it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from lingjun.checks.core.release_order import release_order_key
from lingjun.generator.importer._assets import Assets
from lingjun.generator.importer._components import ComponentLists, Entry, Group, merge_architectures
from lingjun.generator.importer._driver import DriverText
from lingjun.generator.importer._inconsistencies import (duplicate_conflict, features_version, shift_conflict,
                                                         stated_conflict, title_conflict, versions_agree)
from lingjun.generator.importer._lists import ProseList, Step
from lingjun.generator.importer._recognise import Identity
from lingjun.schema.kb import KnowledgeBase
from lingjun.schema.placeholders import PLACEHOLDER, PLACEHOLDER_ID, PLACEHOLDER_URL

__all__ = ["PageFacts", "build_draft", "component_id", "localized", "other_language_placeholder"]


@dataclass
class PageFacts:
    """Everything read from one page, before it becomes a record."""

    identity: Identity
    url: Optional[str]
    contents: dict[str, list[tuple[str, int]]]
    components: ComponentLists
    assets: Assets
    driver: Optional[DriverText]
    highlights: ProseList
    bug_fixes: ProseList
    usage_notes: ProseList
    known_issues: ProseList
    quick_start: list[Step]
    runtimes: list[dict[str, Any]] = field(default_factory=list)
    instances: list[str] = field(default_factory=list)
    not_captured: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def other_language_placeholder(language: str) -> dict[str, str]:
    """The placeholder pair for text the page gives only in ``language``: the other side to be written."""
    return {"en": f"{PLACEHOLDER}: the English text of this entry", "zh": f"{PLACEHOLDER}：本条的中文内容"}


def localized(text: str, language: str, prose: bool = True) -> dict[str, str]:
    """``{en, zh}`` with the page's text, behind the "reword" placeholder, on its language's side and the
    bare placeholder on the other (validation fails until both are written in the project's own words).
    ``prose=False`` is for labels (a variant's title, a use case, a step title): kept as the page prints them.

    An Indonesian page's text goes on the English side behind the placeholder (it must be translated).
    """
    out = other_language_placeholder(language)
    if language == "zh":
        out["zh"] = f"{PLACEHOLDER}：请用自己的话改写，页面原文为：{text}" if prose else text
    elif language == "en":
        out["en"] = f"{PLACEHOLDER}: reword in your own words; the page says: {text}" if prose else text
    else:
        out["en"] = f"{PLACEHOLDER}: translate from the page ({language}): {text}"
    return out


_SLUG = re.compile(r"[^a-z0-9]+")


def component_id(kb: KnowledgeBase, name: str) -> tuple[str, bool]:
    """``(id, known)``: the catalog id for a published name, else ``todo.lingjun-kb-new.<slug>`` and False."""
    found = kb.component_for_name(name)
    if found is not None:
        return found.id, True
    slug = _SLUG.sub("-", name.lower()).strip("-") or "component"
    return f"{PLACEHOLDER_ID}.{slug}"[:64].rstrip("-."), False


def _entries(kb: KnowledgeBase, entries: list[tuple[Entry, list[str]]], unknown: dict[str, int]) -> list[dict]:
    out = []
    for entry, arches in entries:
        cid, known = component_id(kb, entry.name)
        if not known:
            unknown.setdefault(entry.name, entry.line)
        item: dict[str, Any] = {"id": cid, "name": entry.name, "version": entry.version}
        if arches:
            item["architectures"] = arches
        out.append(item)
    return out


def _list_state(groups: list[Group]) -> str:
    return "partial" if any(g.cut for g in groups) else "complete"


def _variant_id(tag: str, release: str, taken: set[str]) -> str:
    rest = tag[len(release):].lstrip("-_.") if tag.startswith(release) else tag
    word = re.match(r"[a-z]+", rest.lower())
    base = word.group() if word else "image"
    vid, n = base, 2
    while vid in taken:
        vid, n = f"{base}-{n}", n + 1
    return vid


def _tag_entry(ref, arches: list[str]) -> dict[str, Any]:
    item: dict[str, Any] = {"tag": ref.tag, "reference": ref.reference}
    if ref.products:
        item["products"] = ref.products
    if ref.not_for:
        item["not_for"] = ref.not_for
    if arches:
        item["architectures"] = arches
    return item


def _architectures(facts: PageFacts) -> list[str]:
    stated = " ".join(v for v, _ in facts.contents.get("architectures", []))
    found = []
    for word, arch in (("amd64", "amd64"), ("x86", "amd64"), ("aarch64", "aarch64"), ("arm64", "aarch64")):
        if word in stated.lower() and arch not in found:
            found.append(arch)
    if facts.components.by_arch:
        for group in facts.components.groups:
            if group.arch and group.arch not in found:
                found.append(group.arch)
    return found


def _component_value(groups: list[Group], *names: str) -> Optional[str]:
    for group in groups:
        for entry in group.entries:
            if entry.name.lower() in names:
                return entry.version
    return None


def _ppu_sdk(facts: PageFacts) -> Optional[str]:
    for value, _ in facts.contents.get("requirements", []):
        found = re.search(r"PPU\s*SDK\s*v?(\d[\w.+-]*)", value, re.I)
        if found:
            return found.group(1)
    return None


def _ppu_sdk_entry(cid: str, version: str, in_features: Optional[tuple[str, int]]) -> dict[str, Any]:
    """The PPU SDK as a component: the Requirements row's value, which the component list does not name.

    There is no ``stated_in`` value for the Requirements row: as the curated records do (training-xpu-pytorch
    25.05), the features text is named where it states the same version, else the driver text (the importer
    reads the Requirements row as the driver requirement), and a note says where the value is printed.
    """
    if in_features is not None and versions_agree(in_features[0], version):
        return {"id": cid, "name": "PPU SDK", "version": version, "stated_in": "features-text", "note": {
            "en": "Named in the main features and as the Requirements value, not in the core-components list.",
            "zh": "出现在主要特性与 Requirements 中，未出现在核心组件列表里。"}}
    return {"id": cid, "name": "PPU SDK", "version": version, "stated_in": "driver-text", "note": {
        "en": "Stated as the Requirements value, not in the core-components list.",
        "zh": "出现在 Requirements 中，未出现在核心组件列表里。"}}


def _features_conflicts(facts: PageFacts, ppu_sdk: Optional[str], url: str, per_image: bool) -> list[dict[str, Any]]:
    """The versions the features text states differently from the component lists or the Requirements row."""
    texts = facts.highlights.entries
    if not texts:
        return []
    out = []
    stated = features_version(texts, "PPU SDK")
    if ppu_sdk and stated and not versions_agree(ppu_sdk, stated[0]):
        out.append(stated_conflict("PPU SDK", "ppu_sdk", (ppu_sdk, "driver-text"), (stated[0], "features-text"), url))
    done: set[str] = set()
    for group in facts.components.groups:
        for entry in group.entries:
            key = entry.name.lower()
            if key in done:
                continue
            stated = features_version(texts, entry.name)
            if stated and not versions_agree(entry.version, stated[0]):
                done.add(key)
                out.append(stated_conflict(entry.name, "components", (entry.version, "component-list"),
                                           (stated[0], "features-text"), url, group.label if per_image else ""))
    return out


def _variant_ref(public: list, groups: list, column_tags: list[str], index: int, label: str):
    """The public reference of the image in column ``index``: by its label, its tag row, else by position."""
    ref = next((r for r in public if r.tag in label), None)
    if ref is None and index < len(column_tags):
        ref = next((r for r in public if r.tag == column_tags[index]), None)
    if ref is None and len(public) == len(groups):
        ref = public[index]
    return ref


def _variants(facts: PageFacts, kb: KnowledgeBase, release: str, language: str, arches: list,
              unknown: dict[str, int], problems: list[str]) -> list[dict[str, Any]]:
    """One variant per image column of a page with several images (none when the page has one list)."""
    groups = facts.components.groups
    if not (len(groups) > 1 and not facts.components.by_arch):
        return []
    public = facts.assets.public
    column_tags = [v for v, _ in facts.contents.get("tag", [])]
    use_cases = [v for v, _ in facts.contents.get("use_case", [])]
    taken: set[str] = set()
    variants: list[dict[str, Any]] = []
    for index, group in enumerate(groups):
        ref = _variant_ref(public, groups, column_tags, index, group.label)
        tag = ref.tag if ref else (column_tags[index] if index < len(column_tags) else "")
        vid = _variant_id(tag, release, taken) if tag else f"image-{index + 1}"
        taken.add(vid)
        variant: dict[str, Any] = {"id": vid, "title": localized(group.label or tag or vid, language, prose=False)}
        if index < len(use_cases) and use_cases[index]:
            variant["use_case"] = localized(use_cases[index], language, prose=False)
        if ref is not None:
            variant["image_tags"] = [_tag_entry(ref, arches)]
        else:
            variant["image_tags"] = [{"tag": f"{PLACEHOLDER_ID}", "reference": f"{PLACEHOLDER}: this image's reference"}]
            problems.append(f"no public reference found for the image {group.label or vid!r}; fill in its tag")
        variant["component_list"] = _list_state([group])
        variant["components"] = _entries(kb, [(e, []) for e in group.entries], unknown)
        variants.append(variant)
    return variants


def _add_versions(draft: dict[str, Any], facts: PageFacts, kb: KnowledgeBase, family: str,
                  variants: list[dict[str, Any]]) -> None:
    """``cuda`` (NVIDIA families only), ``ppu_sdk`` and ``python``: release-wide, or per variant when they differ."""
    groups = facts.components.groups
    accelerator = kb.families[family].accelerator.value if family in kb.families else ""
    for key, names, wanted in (("cuda", ("cuda",), accelerator == "nvidia-gpu"), ("ppu_sdk", (), True),
                               ("python", ("python",), True)):
        if not wanted:
            continue
        if key == "ppu_sdk":
            value = _ppu_sdk(facts)
            if value:
                draft[key] = value
            continue
        values = [_component_value([g], *names) for g in groups]
        if variants and len(set(values)) > 1:  # the images differ: each variant states its own
            for variant, value in zip(variants, values):
                if value:
                    variant[key] = value
        elif values and values[0]:
            draft[key] = values[0]


def _add_driver(draft: dict[str, Any], facts: PageFacts, problems: list[str]) -> None:
    """``driver`` as the page states it, or the problem saying why the draft has none."""
    if facts.driver is not None and facts.driver.minimum:
        driver: dict[str, Any] = {"vendor": facts.driver.vendor, "minimum": facts.driver.minimum}
        if facts.driver.stated_as:
            driver["stated_as"] = facts.driver.stated_as
        if facts.driver.forward_compatibility:
            driver["forward_compatibility"] = [{"branch": b, "minimum": m} for b, m in facts.driver.forward_compatibility]
        if facts.driver.must_upgrade_branches:
            driver["must_upgrade_branches"] = facts.driver.must_upgrade_branches
        draft["driver"] = driver
        both = sorted({b for b, _ in facts.driver.forward_compatibility} & set(facts.driver.must_upgrade_branches))
        for branch in both:
            problems.append(f"the page lists R{branch} both as usable through forward compatibility and as a branch to "
                            "upgrade; add a driver.branch_resolutions entry saying which holds, and why")
    elif "driver" in facts.not_captured:
        problems.append("this copy ends before the page's driver requirement (not_captured: driver); add `driver` "
                        "from a copy that shows it, and remove driver from not_captured")
    else:
        problems.append("the page states no driver requirement in this copy; add `driver` if another copy states one")


def _add_components(draft: dict[str, Any], facts: PageFacts, kb: KnowledgeBase, variants: list[dict[str, Any]],
                    unknown: dict[str, int], problems: list[str]) -> None:
    """``variants``, or the release-wide ``component_list``/``components``, or the problem saying why neither."""
    groups = facts.components.groups
    ppu_sdk = draft.get("ppu_sdk")
    if variants:
        draft["variants"] = variants
    elif groups:
        merged = merge_architectures(groups) if facts.components.by_arch else [(e, []) for e in groups[0].entries]
        draft["component_list"] = _list_state(groups)
        draft["components"] = _entries(kb, merged, unknown)
        if ppu_sdk and not any(c["id"] == "ppu-sdk" for c in draft["components"]):
            cid, known = component_id(kb, "PPU SDK")
            if known:
                draft["components"].append(_ppu_sdk_entry(cid, ppu_sdk, features_version(facts.highlights.entries,
                                                                                         "PPU SDK")))
    elif facts.components.empty_cell:  # the page has the row; this copy shows none of it
        draft["component_list"] = "not-captured"
        problems.append("the page's core-components cell is empty in this copy (component_list: not-captured); "
                        "take the list from another copy if one shows it")
    elif not any(n.kind == "misaligned" for n in facts.components.notes):  # else: already a problem of its own
        problems.append("the page copy carries no component list; components are not recorded from it")


def _add_texts(draft: dict[str, Any], facts: PageFacts, language: str) -> None:
    """``stated_none``, ``not_captured`` and the page's lists of texts (highlights to quick start)."""
    stated_none = [name for name, found in (("bug_fixes", facts.bug_fixes), ("known_issues", facts.known_issues),
                                             ("usage_notes", facts.usage_notes), ("highlights", facts.highlights))
                   if found.stated_none]
    if stated_none:
        draft["stated_none"] = stated_none
    if facts.not_captured:
        draft["not_captured"] = facts.not_captured
    if facts.highlights.entries:
        draft["highlights"] = [{"text": localized(t, language)} for t, _ in facts.highlights.entries]
    if facts.bug_fixes.entries:
        draft["bug_fixes"] = [{"text": localized(t, language)} for t, _ in facts.bug_fixes.entries]
    if facts.usage_notes.entries:
        draft["usage_notes"] = [{"id": f"note-{n}", "text": localized(t, language)}
                                for n, (t, _) in enumerate(facts.usage_notes.entries, start=1)]
    if facts.known_issues.entries:
        draft["known_issues"] = [PLACEHOLDER_ID]
    if facts.quick_start:
        draft["quick_start"] = [{"title": localized(s.title, language, prose=False), "commands": s.commands}
                                for s in facts.quick_start]


def _runtimes(facts: PageFacts, kb: KnowledgeBase, unknown: dict[str, int]) -> list[dict[str, Any]]:
    """The page's runtimes, each with its components resolved against the catalog."""
    runtimes = []
    for runtime in facts.runtimes:
        entries = runtime.pop("_entries", [])
        if entries:
            runtime["components"] = _entries(kb, [(e, []) for e in entries], unknown)
        runtimes.append(runtime)
    return runtimes


def _source(facts: PageFacts, url: str, language: str) -> dict[str, Any]:
    """The draft's one ``sources`` entry; the known issues go into its note until each has its file."""
    source: dict[str, Any] = {"url": url, "language": language}
    if facts.identity.title:
        source["title"] = facts.identity.title[:300]
    if facts.known_issues.entries:
        listed = "; ".join(f"({n}) {t}" for n, (t, _) in enumerate(facts.known_issues.entries, start=1))
        text = f"{PLACEHOLDER}: the page's known issues, each to become a file in releases/known-issues/ " \
               f"whose id goes into known_issues: {listed}"
        source["note"] = {"en": text, "zh": f"{PLACEHOLDER}：页面列出的已知问题，每条需在 releases/known-issues/ "
                                             f"建立文件并把其 id 写入 known_issues：{listed}"}
    return source


def _page_conflicts(facts: PageFacts, language: str, url: str, ppu_sdk: Any, per_image: bool) -> list[dict[str, Any]]:
    """The ``source_conflicts`` the page holds within itself (duplicates, features text, shifted header, title)."""
    conflicts = [duplicate_conflict(n, language, url) for n in facts.components.notes
                 if n.kind in ("duplicate", "repeated") and len(set(n.versions)) > 1]
    conflicts += _features_conflicts(facts, ppu_sdk, url, per_image)
    conflicts += [shift_conflict(n, url) for n in facts.components.notes if n.kind == "shifted-header"][:1]
    if facts.identity.named_as:
        conflicts.append(title_conflict(facts.identity, url))
    return conflicts


def build_draft(facts: PageFacts, kb: KnowledgeBase, family: str, release: str, language: str,
                newer: bool, today: Optional[dt.date] = None) -> tuple[dict[str, Any], list[str]]:
    """The draft record (key order as the curated records) and the problems a reviewer must solve.

    Args:
        facts: what the page states.
        kb: the knowledge base (catalog lookups).
        family, release, language: the page's identity (arguments applied).
        newer: a release of the family newer than this one is recorded (the draft is then ``superseded``).
        today: the ``recorded`` date (default: today).
    """
    problems = list(facts.problems)
    url = facts.url or PLACEHOLDER_URL
    unknown: dict[str, int] = {}
    draft: dict[str, Any] = {
        "kind": "release", "schema_version": 1, "family": family, "version": release,
        "status": "superseded" if newer else "current",
        "recorded": today or dt.date.today(),
        "summary": {"en": f"{PLACEHOLDER}: one-sentence summary of this release", "zh": f"{PLACEHOLDER}：本版本的一句话概述"},
    }
    arches = _architectures(facts)
    if arches:
        draft["architectures"] = arches
    variants = _variants(facts, kb, release, language, arches, unknown, problems)
    if not variants:
        if facts.assets.public:
            draft["image_tags"] = [_tag_entry(r, arches) for r in facts.assets.public]
        else:
            problems.append("the page shows no public image reference; add image_tags by hand")
    _add_versions(draft, facts, kb, family, variants)
    ppu_sdk = draft.get("ppu_sdk")
    if facts.instances:
        draft["gpu_support"] = {"models": facts.instances}
    _add_driver(draft, facts, problems)
    _add_components(draft, facts, kb, variants, unknown, problems)
    _add_texts(draft, facts, language)
    if facts.runtimes:
        draft["runtimes"] = _runtimes(facts, kb, unknown)
    draft["sources"] = [_source(facts, url, language)]
    if facts.url is None:
        problems.append("the page copy names no address; replace the placeholder source URL with the page's address")
    conflicts = _page_conflicts(facts, language, url, ppu_sdk, bool(variants))
    if conflicts:
        draft["source_conflicts"] = conflicts
    for name, line in unknown.items():
        problems.append(f"line {line}: component {name!r} is not in releases/components.yaml; add a catalog entry "
                        f"(published_names: [{name}]) and replace its placeholder id")
    return draft, problems


def is_newer(kb: KnowledgeBase, family: str, release: str) -> bool:
    """True when a recorded release of ``family`` comes after ``release`` in date order."""
    mine = release_order_key(release, None)
    if mine is None:
        return False
    return any(r.order_key is not None and r.order_key > mine for r in kb.releases_of(family) if r.version != release)
