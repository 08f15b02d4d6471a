"""``lingjun-kb import PAGE``: a draft release record from an official release-note page.

The page is a "copy as Markdown" text (or the plainer text copies the seeds
in ``tests/fixtures/seeds/`` are) or a saved HTML page.  The steps, one
module each:

* :mod:`._reader` reads the file (size limit before parsing, UTF-8) into blocks
  (:mod:`._markdown`, :mod:`._html`);
* :mod:`._recognise` finds the title, family, release and language;
* :mod:`._sections` splits the page by its headings; :mod:`._contents`,
  :mod:`._components`, :mod:`._assets`, :mod:`._driver`, :mod:`._runtimes`, :mod:`._instances` and
  :mod:`._lists` read the sections;
* :mod:`._draft` builds the record (with :mod:`._inconsistencies` for the page's own contradictions and
  :mod:`._captured` for what its copy does not show), :mod:`._conflicts` compares it with an existing record;
* :mod:`._writer` renders the YAML and writes it, never over an existing file.

With no record of the release, the draft goes to ``releases/<family>/<release>.yaml``
(or ``-o FILE``; ``-o -`` prints it).  With a record, nothing is written
to it: the values that disagree are printed as ``source_conflicts`` entries
(or written to a new file with ``-o``), with the page as a source when the
record does not cite it.

Example::

    lingjun-kb import tests/fixtures/seeds/training-xpu-pytorch-25.05.en.txt -o /tmp/draft.yaml
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from lingjun.checks.core.inert_text import error_line, inert, quoted, shorten_words
from lingjun.generator.importer._assets import read_assets
from lingjun.generator.importer._captured import not_captured
from lingjun.generator.importer._components import package_key, read_components
from lingjun.generator.importer._contents import read_contents
from lingjun.generator.importer._driver import read_driver
from lingjun.generator.importer._errors import REFUSED, USAGE, ImportRefused
from lingjun.generator.importer._instances import read_instances
from lingjun.generator.importer._lists import read_list, read_quick_start
from lingjun.generator.importer._reader import MAX_PAGE_BYTES, Page, read_page
from lingjun.generator.importer._recognise import recognise
from lingjun.generator.importer._runtimes import read_runtimes
from lingjun.generator.importer._sections import split_sections
from lingjun.schema.placeholders import PLACEHOLDER_URL

__all__ = ["ImportRefused", "ImportResult", "MAX_PAGE_BYTES", "MAX_COMPONENTS", "MAX_LIST_ENTRIES", "import_page",
           "cli_import", "read_facts"]

#: the most components a page may list (real pages list under 100); more is refused, not drafted
MAX_COMPONENTS = 500
#: the most entries of one text list (features, bug fixes, usage notes, known issues, quick-start steps)
MAX_LIST_ENTRIES = 300
_PROSE_SECTIONS = frozenset({"quick_start", "usage_notes", "known_issues", "features"})


@dataclass
class ImportResult:
    """What :func:`import_page` found and made.

    Attributes:
        family, release, language: the page's identity (arguments applied).
        draft: the draft record (always built, also when a record exists).
        existing: the path of the record of the same release, None when there is none.
        conflicts: with an existing record, ``{"source_conflicts": [...], "sources": [...]}`` (non-empty keys).
        problems: what a reviewer must fix or check (unknown components, no address, a list cut off…).
        notes: page inconsistencies found (shifted header, duplicates).
        content: the YAML text to write (the draft, or the conflicts when a record exists).
        compared: False when the existing record's file does not load (nothing could be compared).
        to_supersede: ``(ref, file)`` of the family's ``current`` releases the draft (the newest release,
            so ``current``) replaces: each must be set to ``superseded``; empty when a release is newer.
    """

    family: str
    release: str
    language: str
    draft: dict[str, Any]
    existing: Optional[Path]
    conflicts: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    content: str = ""
    compared: bool = True
    to_supersede: list[tuple[str, Path]] = field(default_factory=list)


def read_facts(page: Page, family_hint: Optional[str] = None, kb=None):
    """Everything the page states (:class:`._draft.PageFacts`), read section by section.

    ``kb`` (a :class:`lingjun.schema.kb.KnowledgeBase`, optional): its catalog decides which names are one
    component (``flash-attn`` and ``flash_attn``); without it, names are compared as package names (PEP 503).
    """
    from lingjun.generator.importer._draft import PageFacts  # deferred: pulls in pydantic, which other commands do not need

    identity = recognise(page.blocks, page.text)
    sections = split_sections(page.blocks)
    contents_blocks = sections.get("contents", [])
    contents = read_contents(contents_blocks)
    components = read_components(sections.get("components", []), contents_blocks, _same_component(kb))
    # references anywhere but in the prose sections (a quick start's example may name another tag)
    assets = read_assets([b for key, blocks in sections.items() if key not in _PROSE_SECTIONS for b in blocks])
    family = family_hint or identity.family
    nvidia = bool(family and "-nv-" in family)
    driver = read_driver(contents.get("requirements", []), sections.get("driver", []), nvidia)
    return PageFacts(
        identity=identity, url=page.url, contents=contents, components=components, assets=assets, driver=driver,
        highlights=read_list(sections.get("highlights", [])), bug_fixes=read_list(sections.get("bug_fixes", [])),
        usage_notes=read_list(sections.get("usage_notes", [])),
        known_issues=read_list(sections.get("known_issues", []), leaf_prefix=True),
        quick_start=read_quick_start(sections.get("quick_start", [])),
        runtimes=read_runtimes(sections.get("runtimes", []), components.notes),
        instances=read_instances(sections.get("instances", [])),
        not_captured=[key for key in not_captured(sections)
                      if not (key == "driver" and driver is not None and driver.minimum)],
    )


#: the languages a page is recognised in, as notes name them
_LANGUAGE_NAMES = {"en": "English", "zh": "Chinese"}
#: a ``YY.MM`` at the start of an image tag (``25.11``, ``25.11-serverless``)
_TAG_MONTH = re.compile(r"^(\d{2}\.\d{2})(?:-|$)")


def _release_notes(given: str, named: Optional[str], facts) -> list[str]:
    """A note when ``--release`` differs from the release the page names (next to its family, or as the month its
    image tags start with); the tags themselves are never rewritten."""
    given = given.lower()
    tags = [r.tag for r in facts.assets.public] or [v for v, _ in facts.contents.get("tag", []) if v]
    months = sorted({m.group(1) for m in (_TAG_MONTH.match(t) for t in tags) if m} - {given})
    if named and named != given:
        where = "next to its family" + (" and in its image tags" if named in months else "")
    elif months:
        named, where = ", ".join(months), "in its image tags"
    else:
        return []
    return [f"the page names {named} ({where}), not {given} (--release {given}); its image tags were kept as "
            "printed: check --release, or the tags"]


def _same_component(kb):
    """The key of one component: its catalog id where the catalog knows the name, else its package name."""
    if kb is None:
        return package_key

    def key(name: str) -> str:
        found = kb.component_for_name(name)
        return f"id:{found.id}" if found is not None else package_key(name)
    return key


def _release_problem(release: str) -> Optional[str]:
    """Why ``release`` is not a release identifier of the schema (``YY.MM``, a date, a lower-case name), or None."""
    from pydantic import TypeAdapter, ValidationError  # deferred: pulls in pydantic, which other commands do not need

    from lingjun.schema.fields import ReleaseVersion  # deferred: pulls in pydantic, which other commands do not need

    try:
        TypeAdapter(ReleaseVersion).validate_python(release)
    except ValidationError as exc:
        return exc.errors()[0]["msg"]
    return None


def _image_family(facts, kb) -> Optional[str]:
    """The family whose image the page's public references name (when the page names no family in words)."""
    names = {ref.reference.rsplit("/", 1)[-1].split(":")[0] for ref in facts.assets.public}
    found = [f.id for f in kb.families.values() if f.image_name in names]
    return found[0] if len(found) == 1 else None


def _vpc_notes(facts, family) -> list[str]:
    """A note when the page's VPC address pattern is not the family's (the record has no field of its own for it)."""
    if facts.assets.vpc is None:
        return []
    stated = facts.assets.vpc.replace("{image:tag}", "{image}:{tag}")
    if family.vpc_registry_pattern is None:
        return [f"the page gives the VPC address pattern {facts.assets.vpc}; families.yaml has none for {family.id}"]
    if stated != family.vpc_registry_pattern:
        return [f"the page's VPC address pattern {facts.assets.vpc} differs from families.yaml's "
                f"{family.vpc_registry_pattern}"]
    return []


def _refuse_non_page(page: Any, facts: Any) -> None:
    """Raise :class:`ImportRefused` for a page with no release's structure, or with lists longer than any page's."""
    structure = bool(facts.components.groups or facts.assets.public or facts.components.empty_cell
                      or (facts.driver and facts.driver.minimum))
    families_named = {m.lower() for m in re.findall(r"(?:training|inference|pelatihan|inferensi)-(?:nv|xpu)-pytorch(?:-opt)?",
                                                    page.text, re.I)}
    if not structure:
        if len(families_named) > 1:
            raise ImportRefused("names several image families but no release's components, tags or driver: an index "
                                "page, not one release's notes")
        raise ImportRefused("not an image release-note page: no component list, image reference or driver "
                            "requirement found")
    listed = sum(len(g.entries) for g in facts.components.groups)
    prose = max(len(facts.highlights.entries), len(facts.bug_fixes.entries), len(facts.usage_notes.entries),
                len(facts.known_issues.entries), len(facts.quick_start))
    if listed > MAX_COMPONENTS or prose > MAX_LIST_ENTRIES:
        raise ImportRefused(f"lists {max(listed, prose)} entries in one list, more than any release-note page "
                            f"({MAX_COMPONENTS} components, {MAX_LIST_ENTRIES} entries of a text list)")


def _family_of(family: Optional[str], facts: Any, kb: Any, releases: Path) -> tuple[str, list[str]]:
    """The family (``--family``, else the page's, else its images') and the note when ``--family`` overrides."""
    identity = facts.identity
    if family and identity.family and family != identity.family:
        notes = [f"the page names the family {identity.family}; read as --family {family}"]
    else:
        notes = []
    family = family or identity.family or _image_family(facts, kb)
    if family is None:
        raise ImportRefused("the page names no image family; give --family")
    if family not in kb.families:
        known = ", ".join(sorted(kb.families)) or "none"
        raise ImportRefused(f"family {quoted(family)} is not in {releases}/families.yaml (known: {known}); add the family "
                            "first", REFUSED)
    return family, notes


def _release_of(release: Optional[str], facts: Any, notes: list[str]) -> str:
    """The release (``--release``, else the page's, its dated title or its only image tag), lower case.

    Appends to ``notes`` where the release came from; raises :class:`ImportRefused` when there is none or it is
    not a release identifier.
    """
    identity = facts.identity
    if release:
        notes += _release_notes(release, identity.release, facts)
    release = release or identity.release
    if release is None:
        dated = re.search(r"\b(20\d{2}-\d{2}-\d{2})\b", identity.title or "")
        tags = [r.tag for r in facts.assets.public] or [v for v, _ in facts.contents.get("tag", []) if v]
        if dated:
            release = dated.group(1)
            notes.append(f"release {release} taken from the page title")
        elif len(tags) == 1 and _release_problem(tags[0].lower()) is None:
            release = tags[0].lower()
            notes.append(f"release {release} taken from the page's only image tag")
    if release is None:
        raise ImportRefused("the page names no release next to its family; give --release")
    release = release.lower()
    problem = _release_problem(release)
    if problem:
        raise ImportRefused(f"release {quoted(release)} is not a release identifier: {shorten_words(str(problem))}")
    return release


def _language_notes(language: Optional[str], identity: Any, family: str) -> list[str]:
    """Notes on a ``--lang`` the text does not read as, and on an Indonesian family name."""
    notes = []
    if language and language != identity.language and identity.language in _LANGUAGE_NAMES:
        notes.append(f"the page's text reads as {_LANGUAGE_NAMES[identity.language]}, not "
                     f"{_LANGUAGE_NAMES.get(language, language)} (--lang {language}); the draft's texts are filed "
                     f"under {language}: check that --lang names the page's language")
    if identity.named_as:
        notes.append(f"the page calls the family {identity.named_as!r} (Indonesian for {family}); read as {family}")
    return notes


def _against_existing(result: ImportResult, kb: Any, releases: Path, page_path: Path, newer: bool) -> None:
    """Fill ``result.content``: the conflicts when the release is recorded (or its file exists), else the draft."""
    from lingjun.generator.importer._conflicts import compare_with_record  # deferred: pulls in pydantic, which other commands do not need
    from lingjun.generator.importer._writer import render_conflicts, render_draft  # deferred: pulls in pydantic, yaml, which other commands do not need
    from lingjun.schema.models import ReleaseStatus  # deferred: pulls in pydantic, which other commands do not need

    family, release, draft = result.family, result.release, result.draft
    record = kb.release(f"{family}:{release}")
    target = Path(releases) / family / f"{release}.yaml"
    if record is not None or target.exists() or target.is_symlink():
        result.existing = kb.paths.get(f"{family}:{release}", target)
        if record is not None:
            result.conflicts = compare_with_record(draft, record, result.language)
        result.content = render_conflicts(result.conflicts, f"{family}:{release}", str(result.existing), page_path.name,
                                          compared=record is not None,
                                          cited=draft["sources"][0]["url"] != PLACEHOLDER_URL)
        if record is None:
            result.compared = False
            result.problems.append(f"{result.existing} exists but does not load; fix it, then import again to compare")
    else:
        result.content = render_draft(draft, page_path.name)
        if not newer:
            result.to_supersede = [(r.ref, kb.paths[r.ref]) for r in kb.releases_of(family, newest_first=False)
                                   if r.status is ReleaseStatus.current and r.version != release]


def import_page(page_path: Path, releases: Path = Path("releases"), family: Optional[str] = None,
                release: Optional[str] = None, language: Optional[str] = None) -> ImportResult:
    """Read ``page_path`` and build its draft (and, when the release is recorded, the conflicts).

    Writes nothing.

    Raises:
        ImportRefused: the page cannot be read or is not an image release-note page (status 2), or its family
            is not in ``families.yaml`` (status 1).
    """
    from lingjun.generator.importer._draft import build_draft, is_newer  # deferred: pulls in pydantic, which other commands do not need
    from lingjun.schema.loader import load_knowledge_base  # deferred: pulls in pydantic, yaml, which other commands do not need

    page = read_page(page_path)
    kb, _problems = load_knowledge_base(releases)
    facts = read_facts(page, family, kb)
    identity = facts.identity
    _refuse_non_page(page, facts)
    family, notes = _family_of(family, facts, kb, releases)
    release = _release_of(release, facts, notes)
    notes += _language_notes(language, identity, family)
    language = language or identity.language
    notes += [n.message if n.line == 0 else f"line {n.line}: {n.message}" for n in facts.components.notes
              if n.kind in ("shifted-header", "duplicate")]
    problems = [f"line {n.line}: {n.message}" for n in facts.components.notes
                if n.kind in ("cut", "unparsed", "misaligned", "beyond-header")]
    facts.problems = problems
    notes += _vpc_notes(facts, kb.families[family])
    newer = is_newer(kb, family, release)
    draft, problems = build_draft(facts, kb, family, release, language, newer)
    result = ImportResult(family=family, release=release, language=language, draft=draft, existing=None,
                          problems=problems, notes=notes)
    _against_existing(result, kb, releases, page_path, newer)
    return result


def _write(args: argparse.Namespace) -> tuple[ImportResult, Any]:
    """Import ``args.page`` and write its file where one is due; the result and the output (None, ``-`` or a path).

    Raises:
        ImportRefused: a usage problem, an output that may not be written, or a page that cannot be imported.
    """
    from lingjun.generator.importer._writer import check_output, check_output_folder, write_output  # deferred: pulls in pydantic, yaml, which other commands do not need

    if not Path(args.releases).is_dir():
        raise ImportRefused(f"--releases {args.releases} is not a folder", USAGE)
    if args.output is not None and str(args.output) != "-":  # before any work: the page is read after
        check_output(Path(args.output))
        check_output_folder(Path(args.output))
    result = import_page(args.page, Path(args.releases), args.family, args.release, args.lang)
    output = args.output
    if output is not None and str(output) != "-":
        check_output_folder(Path(output))
    if output is None and result.existing is None:
        output = Path(args.releases) / result.family / f"{result.release}.yaml"
    if output is not None and str(output) != "-":
        write_output(Path(output), result.content)
    return result, output


def _report(result: ImportResult, output: Any, say: Callable[[str], None], releases: Path = Path("releases")) -> int:
    """Say the notes, the outcome and what to fix on stderr; the exit status."""
    printed = output is None or str(output) == "-"
    ref = f"{result.family}:{result.release}"
    for note in result.notes:
        say(f"note: {note}")
    if result.existing is not None and not result.compared:
        say(f"{ref}: {result.existing} exists but does not load; it was not changed and nothing was compared "
            f"(run `lingjun-kb validate {result.existing}`)")
        return REFUSED
    if result.existing is not None:
        count = len(result.conflicts.get("source_conflicts", []))
        where = "printed above" if printed else f"written to {output}"
        say(f"{ref} already has a record ({result.existing}); it was not changed. {count} source_conflicts "
            f"entr{'y' if count == 1 else 'ies'}{' and the page as a source' if 'sources' in result.conflicts else ''} "
            f"{where}")
        return 0
    for problem in result.problems:
        say(f"to fix: {problem}")
    for old_ref, old_path in result.to_supersede:
        say(f"to fix: set `status: superseded` in {old_ref} ({old_path}): {ref} is the family's newest release")
    if not printed:
        say(f"wrote {output} ({ref}, {result.language} page): fill in the placeholders, then run "
            f"{_validate_command(Path(output), releases, result)}")
    return 0


def _validate_command(output: Path, releases: Path, result: ImportResult) -> str:
    """The validate command for a draft written to ``output``: inside the releases tree, the file alone (the tree
    gives it context); outside it, with ``--root`` so its family and references resolve, since a draft away from
    the tree would otherwise read as a family nobody catalogues; then where the record belongs."""
    def resolved(path: Path) -> Path:
        try:
            return path.resolve()
        except (OSError, RuntimeError):
            return path.absolute()
    root = resolved(releases)
    if root == resolved(output).parent or root in resolved(output).parents:
        return f"`lingjun-kb validate {shlex.quote(str(output))}`"
    home = releases / result.family / f"{result.release}.yaml"
    return (f"`lingjun-kb validate --root {shlex.quote(str(releases))} {shlex.quote(str(output))}` (then move it to "
            f"{home} to land it)")


def cli_import(args: argparse.Namespace) -> int:
    """``lingjun-kb import``: print or write the draft (or the conflicts); one line per problem on stderr."""
    shown = inert(str(args.page), 256)

    def say(message: str) -> None:
        print(inert(message), file=sys.stderr)

    try:
        result, output = _write(args)
    except ImportRefused as exc:
        print(f"lingjun-kb import: {shown}: {error_line(exc.reason)}", file=sys.stderr)
        return exc.status
    except Exception as exc:  # noqa: BLE001 - a bug ends in one line, never a traceback
        print(f"lingjun-kb import: {shown}: internal error: {type(exc).__name__}: {inert(str(exc), 300)}; please "
              "report it", file=sys.stderr)
        return REFUSED
    if output is None or str(output) == "-":
        sys.stdout.write(inert(result.content, None, keep_line_breaks=True))
        sys.stdout.flush()
    return _report(result, output, say, Path(args.releases))
