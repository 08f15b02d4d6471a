"""Component lists: list items, table cells, per image (variant) or per CPU architecture.

Three shapes are read:

* a list (``- Torch 2.6.0.7``, ``- Ubuntu : 24.04``, ``- flash-attn:2.8.2``), possibly in groups headed
  by a line naming an image tag or an architecture (``系统组件 (25.04-vllm…):``, ``aarch64:``);
* a table whose first column names the component and whose other columns hold each image's or
  architecture's version (a bare version, or ``name version`` when the columns' names differ);
* a contents-table cell holding the whole list (lines of ``name version``).

Page inconsistencies are handled and reported as :class:`Note`: a header
row one cell to the left of its data rows (shifted: the labels are moved to
sit over their columns); any other header that does not line up (shifted
right, two cells off: the table is not read, never turned into images);
cells beyond the header's last column (left out); a component listed twice
in one list, also under two spellings of one catalog id or package name
(the first is kept; differing versions also give a conflict; a whole list
printed twice gets one note); an entry that is not one name and one
version (``triton 3.2.0 3.3.0``: left out, the list partial); an entry cut
off (``…``, "not visible": the list is then partial).  A table of more than
:data:`MAX_COLUMNS` value columns is refused.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from packaging.utils import canonicalize_name

from lingjun.generator.importer._blocks import HEADING, ITEM, ROW, TEXT, Block
from lingjun.generator.importer._contents import is_content_label
from lingjun.generator.importer._errors import ImportRefused

__all__ = ["Entry", "Group", "ComponentLists", "Note", "parse_entry", "entry_problem", "package_key", "read_components",
           "arch_of", "merge_architectures",
           "add_entries", "table_runs"]

_ENTRY = re.compile(r"^(?P<name>[A-Za-z][\w .+/-]*?)\s*(?:==|[:：=]|\s)\s*v?(?P<version>\d[0-9A-Za-z.+_-]*)"
                    r"(?P<rest>\s.*)?$")
#: a second version right after the first (``triton 3.2.0 3.3.0``, ``triton: 1 3.2.0``)
_SECOND_VERSION = re.compile(r"^v?(\d[0-9A-Za-z.+_-]*)(?:\s|$)")
#: a name with a word that is a number (``pkg 1`` of ``pkg 1:30``): a version or an epoch, never a name
_NAME_NUMBER = re.compile(r"\s\d")
_CUT = re.compile(r"…|\.\.\.|不可见|not visible|\(the rest", re.I)
_ARCH = {"aarch64": "aarch64", "arm64": "aarch64", "arm": "aarch64", "amd64": "amd64", "x86_64": "amd64",
         "x86": "amd64"}
_ARCH_WORD = re.compile(r"(aarch64|arm64|amd64|x86[_-]64|x86)", re.I)
#: the most entries aligned across architectures (the alignment is quadratic; real lists hold under 100)
_ALIGN_LIMIT = 2000
#: the most value columns (images or architectures) of a component table; more is refused, like an over-long list
MAX_COLUMNS = 64
#: words of a header's corner cell (over the names): such a header is never read as shifted
_CORNER_WORDS = ("组件", "component", "name", "名称", "软件", "package", "komponen", "software")
_COMPONENT_LABELS = ("核心组件", "系统组件", "core components", "system components", "components", "komponen inti")


@dataclass(frozen=True)
class Entry:
    """One component as a list states it: the printed name and version, the line it is on."""

    name: str
    version: str
    line: int


@dataclass
class Group:
    """One list: the whole image's, one image's (``label`` names its tag or column) or one architecture's."""

    label: str = ""
    arch: Optional[str] = None
    entries: list[Entry] = field(default_factory=list)
    cut: bool = False


@dataclass(frozen=True)
class Note:
    """Something about the page worth a reviewer's eye.

    ``kind``: shifted-header, misaligned, beyond-header, duplicate, repeated (an entry of a list printed twice,
    under that list's one duplicate note), cut, unparsed, empty-cell.
    """

    kind: str
    line: int
    message: str
    name: str = ""
    versions: tuple[str, ...] = ()


@dataclass
class ComponentLists:
    """Every component list the page carries, and what was odd about them.

    Attributes:
        groups: the lists in page order (one group: the image's single list).
        by_arch: True when the groups are architectures of one image (25.10), not separate images.
        notes: page inconsistencies found while reading.
        empty_cell: the contents table has a core-components row whose cell is empty (the copy lost the list).
    """

    groups: list[Group] = field(default_factory=list)
    by_arch: bool = False
    notes: list[Note] = field(default_factory=list)
    empty_cell: bool = False


def arch_of(text: str) -> Optional[str]:
    """The CPU architecture a label names (``aarch64架构`` -> ``aarch64``), or None."""
    found = _ARCH_WORD.search(text or "")
    return _ARCH.get(found.group(1).lower().replace("-", "_")) if found else None


def _ambiguity(match: re.Match) -> Optional[str]:
    """Why an entry's match is not one name and one version (``triton 3.2.0 3.3.0``, ``pkg 1:30``), or None."""
    rest = (match.group("rest") or "").strip()
    second = _SECOND_VERSION.match(rest)
    if second:
        return f"two versions, {match.group('version')} and {second.group(1)}"
    if _NAME_NUMBER.search(match.group("name")):
        return "a number inside the name"
    return None


def parse_entry(text: str, line: int) -> Optional[Entry]:
    """``Torch 2.6.0.7``, ``Ubuntu : 24.04``, ``deepspeed==0.15.4`` -> an :class:`Entry`; None when no version, or
    when the text is not one name and one version (``triton 3.2.0 3.3.0``, ``triton: 1 3.2.0``, ``pkg 1:30``)."""
    if len(text) > 200:  # no component entry is that long
        return None
    match = _ENTRY.match(text.strip().rstrip(";；,，。"))
    if not match or _ambiguity(match):
        return None
    return Entry(match.group("name").strip(), match.group("version").rstrip(".,;"), line)


def entry_problem(text: str) -> str:
    """Why ``text`` gives no :class:`Entry`: no version, or more than one name-and-version reading."""
    match = _ENTRY.match(text.strip().rstrip(";；,，。")) if len(text) <= 200 else None
    why = _ambiguity(match) if match else None
    if why:
        return (f"{text[:60]!r} is not one name and one version ({why}); not understood, left out (the list is "
                "drafted partial)")
    return f"no version found in {text[:60]!r}; left out"


def _is_label(block: Block) -> bool:
    """A line that heads a group of items rather than being one (``aarch64:``, ``系统组件 (tag):``)."""
    text = block.text.strip()
    return block.kind in (TEXT, HEADING) and (
        arch_of(text) is not None or text.rstrip(":：").endswith(")") or text.endswith((":", "："))
        or any(label in text.lower() for label in _COMPONENT_LABELS))


def add_entries(group: Group, text: str, line: int, notes: list[Note]) -> None:
    """Add the entries of ``text`` (one, or several separated by line breaks or ``;``) to ``group``; a cut-off
    entry marks the group partial, an entry without a version is left out (each with a note)."""
    for piece in re.split(r"\n|;\s+|；", text):
        piece = piece.strip()
        if not piece:
            continue
        if _CUT.search(piece):
            group.cut = True
            notes.append(Note("cut", line, f"the entry {piece[:60]!r} is cut off in this copy; the list is partial"))
            continue
        entry = parse_entry(piece, line)
        if entry is None and _ENTRY.match(piece.rstrip(";；,，。")):  # a component whose version is not clear
            group.cut = True
        if entry is None:
            notes.append(Note("unparsed", line, entry_problem(piece)))
            continue
        group.entries.append(entry)


def _from_items(blocks: list[Block], notes: list[Note]) -> list[Group]:
    groups: list[Group] = []
    current: Optional[Group] = None
    for block in blocks:
        if block.kind == ROW:
            continue
        if block.kind == ITEM:
            # an item without a version that has nested items under it heads a group
            if parse_entry(block.text, block.line) is None and not _CUT.search(block.text) and (
                    arch_of(block.text) or block.text.endswith((":", "："))):
                current = Group(label=block.text.rstrip(":："), arch=arch_of(block.text))
                groups.append(current)
                continue
            if current is None:
                current = Group()
                groups.append(current)
            add_entries(current, block.text, block.line, notes)
        elif _is_label(block) and parse_entry(block.text, block.line) is None:
            if current is not None and not current.entries and not current.label:
                groups.remove(current)
            current = Group(label=block.text.rstrip(":："), arch=arch_of(block.text))
            groups.append(current)
    return [g for g in groups if g.entries or g.cut]


def table_runs(blocks: list[Block]) -> list[list[Block]]:
    """Runs of table rows not interrupted by another block (a Markdown separator line yields no block)."""
    tables: list[list[Block]] = []
    run: list[Block] = []
    for block in blocks:
        if block.kind == ROW:
            run.append(block)
        elif run:
            tables.append(run)
            run = []
    if run:
        tables.append(run)
    return tables


def _value_columns(data: list[Block]) -> set[int]:
    """Positions (after the name column) where some data row holds a value."""
    return {i for row in data if not is_content_label(row.cells[0] if row.cells else "")
            for i, cell in enumerate(row.cells) if i and cell}


def _alignment(labels: list[str], values: set[int]) -> Optional[tuple[list[int], bool]]:
    """``(value columns, shifted)`` that fit the header, or None when the labels cannot sit over the values.

    The labels sit over their columns (a corner label over the names allowed), or one cell to the left of them
    (the 25.10 copies); value cells past the header's last column are left to the caller (reported, not read).
    The reading with fewer cells past the header wins; the labels in place win a tie.
    """
    placed = [i for i, c in enumerate(labels) if c]
    fits = []
    corner = labels[0].strip().lower() if labels else ""
    readings = [([i for i in placed if i], False)]
    if placed and placed[0] == 0 and not any(w in corner for w in _CORNER_WORDS):
        readings.append(([i + 1 for i in placed], True))
    for columns, shifted in readings:
        if not columns:
            continue
        inside = {v for v in values if v <= max(columns)}
        if inside and min(values) == columns[0] and inside <= set(columns):  # the values start under the first label
            fits.append((len(values - inside), shifted, columns))
    if not fits:
        return None
    _beyond, shifted, columns = min(fits, key=lambda f: (f[0], f[1]))
    return columns, shifted


def _misaligned(header: Block, shown: str, labels: list[str], values: set[int]) -> Note:
    """The note for a header row that no reading lines up with its data rows."""
    where = ", ".join(str(i + 1) for i in sorted(values)[:8])
    over = ", ".join(str(i + 1) for i, c in enumerate(labels) if c)
    return Note("misaligned", header.line,
                f"the header row ({shown[:120]}) does not line up with its data rows (labels over cells "
                f"{over}, values in cells {where}); no component list is taken from this table: read it "
                "by hand", name=shown)


def _beyond_note(header: Block, data: list[Block], columns: list[int], names: list[str]) -> Optional[Note]:
    """The note for rows with cells right of the last labelled column (None when there are none)."""
    last = max(columns)
    beyond = [(r.line, [c for c in r.cells[last + 1:] if c]) for r in data if any(r.cells[last + 1:])
              and not is_content_label(r.cells[0])]
    if not beyond:
        return None
    lines = ", ".join(str(line) for line, _ in beyond[:5]) + (", …" if len(beyond) > 5 else "")
    cells = "; ".join(", ".join(c[:40] for c in cut[:3]) for _, cut in beyond[:3])
    return Note("beyond-header", beyond[0][0],
                f"{len(beyond)} row(s) of the table under line {header.line} have cells beyond its header's "
                f"{len(names)} value column(s) (line {lines}: {cells}); those cells sit under no "
                "label, so they are left out (no image or architecture is made of them)")


def _fill_groups(groups: list[Group], columns: list[int], data: list[Block], width: int, notes: list[Note]) -> None:
    """Add each data row's cells to the group of its column (a bare version cell gets the row's name)."""
    for row in data:
        cells = list(row.cells) + [""] * (width - len(row.cells))
        name = cells[0]
        if is_content_label(name):  # a tag, use-case or requirements row of the same table
            continue
        for group, index in zip(groups, columns):
            cell = cells[index]
            if not cell or cell in ("-", "—", "/"):
                continue
            if parse_entry(cell, row.line) is None and re.match(r"^v?\d", cell) and name:
                add_entries(group, f"{name} {cell.lstrip('v')}", row.line, notes)
            else:
                add_entries(group, cell, row.line, notes)


def _table_data(rows: list[Block]) -> tuple[list[Block], int]:
    """The table's data rows (empty ones left out) and its width in cells.

    Raises:
        ImportRefused: the table has more value columns than :data:`MAX_COLUMNS`.
    """
    header = rows[0]
    data = [r for r in rows[1:] if any(r.cells)]
    if not data:
        return data, 0
    width = max(len(r.cells) for r in [header] + data)
    if width - 1 > MAX_COLUMNS:
        raise ImportRefused(f"line {header.line}: a table of {width - 1} value columns, more than any release-note "
                            f"page ({MAX_COLUMNS} images or architectures)")
    return data, width


def _labelled_columns(header: Block, values: set[int], notes: list[Note]) -> Optional[tuple[list[int], list[str]]]:
    """The value columns and their labels as the header lines up with them (None, with a note, when it does not)."""
    labels = list(header.cells)
    shown = " | ".join(c or "(empty)" for c in header.cells)
    found = _alignment(labels, values)
    if found is None:
        notes.append(_misaligned(header, shown, labels, values))
        return None
    columns, shifted = found
    if shifted:
        notes.append(Note("shifted-header", header.line,
                          f"the header row ({shown}) is one cell off its data rows; its labels are read as the "
                          "labels of the value columns, in order", name=shown))
    return columns, [labels[i - 1] if shifted else labels[i] for i in columns]


def _from_table(rows: list[Block], notes: list[Note]) -> Optional[tuple[list[Group], bool]]:
    """Groups from a component table (None when the table is not one).

    Raises:
        ImportRefused: the table has more value columns than :data:`MAX_COLUMNS`.
    """
    header = rows[0]
    data, width = _table_data(rows)
    if not data:
        return None
    values = _value_columns(data)
    if not values:  # only contents rows (tag, use case, requirements): not a component table
        return None
    found = _labelled_columns(header, values, notes)
    if found is None:
        return None
    columns, names = found
    beyond = _beyond_note(header, data, columns, names)
    if beyond is not None:
        notes.append(beyond)
    arches = [arch_of(c) for c in names]
    by_arch = len(names) > 1 and all(arches)
    groups = [Group(label=c, arch=a if by_arch else None) for c, a in zip(names, arches)]
    _fill_groups(groups, columns, data, width, notes)
    groups = [g for g in groups if g.entries or g.cut]
    return (groups, by_arch) if groups else None


def package_key(name: str) -> str:
    """The name two spellings of one package share: PEP 503 normalisation (``flash_attn`` -> ``flash-attn``)."""
    return canonicalize_name(name)


def _dedupe(group: Group, notes: list[Note], same: Callable[[str], str]) -> None:
    """Keep the first of each component listed twice, with a note each; a whole list printed twice gets one note
    (its repeated entries are kept as ``repeated`` notes, for the conflicts of the versions that differ)."""
    seen: dict[str, Entry] = {}
    kept = []
    found: list[Note] = []
    for entry in group.entries:
        key = same(entry.name)
        first = seen.get(key)
        if first is None:
            seen[key] = entry
            kept.append(entry)
            continue
        where = f" in the {group.label} list" if group.label else ""
        spelled = f" (as {first.name} and as {entry.name})" if first.name != entry.name else ""
        if first.version == entry.version:
            found.append(Note("duplicate", entry.line, f"{first.name} {entry.version} is listed twice{where}{spelled} "
                              f"(lines {first.line} and {entry.line}); kept once", first.name, (first.version,)))
        else:
            found.append(Note("duplicate", entry.line,
                              f"{first.name} is listed twice{where}{spelled} with different versions ({first.version} "
                              f"on line {first.line}, {entry.version} on line {entry.line}); the first is kept and "
                              "a source_conflicts entry is drafted", first.name, (first.version, entry.version)))
    group.entries = kept
    if len(found) >= 3 and len(found) == len(kept):  # every entry again: the list is printed twice
        differ = [n.name for n in found if len(set(n.versions)) > 1]
        where = f"the {group.label} list" if group.label else "the component list"
        also = (f"; {len(differ)} {'entry differs' if len(differ) == 1 else 'entries differ'} ({', '.join(differ[:5])}): the "
                "first is kept and a source_conflicts entry is drafted for each" if differ else "")
        notes.append(Note("duplicate", found[0].line, f"{where} is printed twice (lines {kept[0].line}-{kept[-1].line} "
                          f"and {found[0].line}-{found[-1].line}); the first copy is kept{also}"))
        found = [Note("repeated", n.line, n.message, n.name, n.versions) for n in found]
    notes.extend(found)


def _from_contents_table(rows: list[Block], result: ComponentLists) -> None:
    """Take the list from one contents table: its component row, or the table itself when it is the list."""
    notes = result.notes
    component_rows = [r for r in rows if r.cells and any(l in r.cells[0].lower() for l in _COMPONENT_LABELS)]
    for row in component_rows:
        values = [c for c in row.cells[1:] if c]
        if not values:
            result.empty_cell = True
            notes.append(Note("empty-cell", row.line, "the core-components cell of the contents table is "
                              "empty in this copy; no component list can be taken from it"))
        elif any(parse_entry(v.split("\n")[0], row.line) for v in values):
            at = rows.index(row)
            found = _from_table([rows[0]] + rows[at:], notes) if at else None
            if found:
                result.groups, result.by_arch = found
                return  # the list runs from its first row (a rowspan label repeats on the rows below)
    if not component_rows and not result.groups:  # the table is the list: name | version per image
        found = _from_table(rows, notes)
        if found:
            result.groups, result.by_arch = found


def read_components(section: list[Block], contents: list[Block],
                    same: Callable[[str], str] = package_key) -> ComponentLists:
    """The component lists of the core-components section and of the contents table.

    Args:
        section: the blocks of the core-components section (may be empty).
        contents: the blocks of the contents section (its table may hold the list or the columns).
        same: the key two names of one component share (default :func:`package_key`; the importer passes the
            catalog id, so ``flash-attn`` and ``flash_attn`` are one component listed twice).
    """
    result = ComponentLists()
    notes = result.notes
    for rows in table_runs(section):
        found = _from_table(rows, notes)
        if found:
            result.groups, result.by_arch = found
            break
    if not result.groups:
        # a contents table whose component row holds the list, or that is the list (arch columns)
        for rows in table_runs(contents):
            _from_contents_table(rows, result)
    if not result.groups:
        result.groups = _from_items(section + [b for b in contents if b.kind != ROW], notes)
        arches = [g.arch for g in result.groups]
        result.by_arch = len(result.groups) > 1 and all(arches)
    for group in result.groups:
        _dedupe(group, notes, same)
    return result


def merge_architectures(groups: list[Group]) -> list[tuple[Entry, list[str]]]:
    """One list from per-architecture lists: entries all lists share once (no architectures), the others
    with the architectures that list them, in the lists' common order (a sequence alignment)."""
    merged: list[tuple[Entry, list[str]]] = [(e, [groups[0].arch or ""]) for e in groups[0].entries]
    if sum(len(g.entries) for g in groups) > _ALIGN_LIMIT:  # no page lists that many: skip the alignment
        return [(e, [g.arch or ""]) for g in groups for e in g.entries]
    for group in groups[1:]:
        left = [(e.name.lower(), e.version) for e, _ in merged]
        right = [(e.name.lower(), e.version) for e in group.entries]
        out: list[tuple[Entry, list[str]]] = []
        matcher = difflib.SequenceMatcher(a=left, b=right, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                out += [(merged[i][0], merged[i][1] + [group.arch or ""]) for i in range(i1, i2)]
            else:
                out += merged[i1:i2]
                out += [(group.entries[j], [group.arch or ""]) for j in range(j1, j2)]
        merged = out
    every = {g.arch for g in groups}
    return [(entry, [] if set(arches) == every else arches) for entry, arches in merged]
