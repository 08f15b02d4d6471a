"""``lingjun-kb new FAMILY RELEASE``: start a release record from the family's previous release.

RELEASE is a month ``YY.MM`` (``25.11``), a date ``YYYY-MM-DD`` (``2026-10-20``) or the page's own
lower-case name (``sglang0.5.4.post3-250105``, which needs ``--release-date`` to be placed); a typo
such as ``25.13`` is refused.  The draft is based on the closest release older than RELEASE in date
order (:attr:`~lingjun.schema.models.ReleaseRecord.order_key`), never in text order.  Each field
is either a fact about the image that usually carries over, or something
the old page said about itself, which must not:

* carried over: the image tags of the release and of each variant (a tag that is exactly the
  old ``YY.MM``, or the old ``YY.MM`` plus a suffix that names no version or date, ``-serverless``,
  ``-py3``, gets the new one when RELEASE is a ``YY.MM`` too; any other tag, such as
  ``25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless`` whose engine, PyTorch and CUDA
  versions and build date belong to the old image, cannot be guessed and becomes a placeholder tag ``todo.lingjun-kb-new-<n>`` that the gate refuses; the
  reference is rebuilt from the family's registry pattern, digests dropped), the variants (ids,
  titles, scenarios, overrides, component lists; the variant's note put up for review), the
  runtimes (a runtime id's build part, ``cosmos-framework/20261015``, and the same part of its
  path become the placeholder ``todo.lingjun-kb-new``; its components carried over), CUDA,
  Python, PPU SDK, architectures, the base image, the driver requirement
  (minimum, forward-compatibility and must-upgrade branch lists with their
  resolutions, and ``text_truncated``: lists copied from a cut-off text are
  just as incomplete, so the site keeps saying "not stated" below the
  minimum until a reviewer who read the new page in full removes it), the
  GPU support lists, the component list and its
  ``component_list`` state (per-entry notes and ``introduced`` marks
  dropped: they are what the old page said), usage notes and the quick start (old image references replaced);
* set: ``recorded`` to today (the day the knowledge base starts recording the release);
* marked to be confirmed: every copied version (``carried_from`` names the old release; each component entry
  gets ``carried_over: true``, and the record's, each variant's and each runtime's ``carried_over`` lists the
  copied ``cuda``, ``python``, ``ppu_sdk``, ``driver``, ``base_image``, ``architectures``, ``component_list`` and
  ``gpu_support``): the gate rule ``data.carried-over``
  fails the record until each mark is deleted (confirmed) or its value changed;
* reset: ``released`` (the new release's date is not the old one's; a named release given
  ``--release-date`` gets ``released`` of kind ``page-published`` with a placeholder source), ``revised``, ``features``, ``acknowledged_downgrades``,
  ``source_conflicts``, ``presence_unknown`` (it rests on the old page's
  source conflicts, which are dropped), ``stated_none`` (the old page's "none" says nothing
  about the new page), ``not_captured`` (it describes the old copy) and the sources (with
  their notes and last-updated stamps);
* put up for review: the notes of ``driver``, ``gpu_support`` and
  ``base_image`` keep their text behind the ``TODO(lingjun-kb new)`` marker,
  so they fail validation until someone keeps (unmarks) or deletes them.

What must be written anew gets a placeholder that fails ``lingjun-kb
validate`` (see :mod:`lingjun.schema.placeholders`): the summary,
one highlight, one bug fix, one known-issue id and one source whose address
is in the reserved ``.invalid`` domain.  The status is ``current`` when no
release of the family is newer, else ``superseded`` (a release filling a gap).

The file is written atomically and never over an existing file.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import yaml

from lingjun.checks.core.atomic_write import check_output_file
from lingjun.checks.core.inert_text import quoted, shorten_words
from lingjun.checks.core.release_order import identifier_date, is_year_month, release_order_key
from lingjun.schema.fields import _check_release_id
from lingjun.schema.image_tags import expected_reference
from lingjun.schema.placeholders import PLACEHOLDER, PLACEHOLDER_ID, PLACEHOLDER_URL
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from lingjun.schema.loader import compose, load_knowledge_base, parse_yaml, read_text
from lingjun.schema.models import Family, ReleaseRecord, ReleaseStatus

__all__ = ["NewRelease", "NewReleaseError", "NewReleaseUsageError", "new_release", "draft_from", "SCHEMA_COMMENT",
           "render_block", "write_new"]

_FAMILY = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
_SCHEMA_COMMENT = "# yaml-language-server: $schema=../../schema/release.schema.json"
#: the first line of every release file this command (and ``lingjun-kb import``) writes
SCHEMA_COMMENT = _SCHEMA_COMMENT


class NewReleaseError(Exception):
    """Why ``lingjun-kb new`` refused: no previous release, the file exists (exit status 1)."""


class NewReleaseUsageError(NewReleaseError):
    """The arguments themselves are wrong (a release that is no identifier or a month/date typo, a family that is not
    an id or not in ``families.yaml``, a release date that is no date): exit status 2."""


def _text(en: str, zh: str) -> dict[str, str]:
    return {"en": f"{PLACEHOLDER}: {en}", "zh": f"{PLACEHOLDER}：{zh}"}


#: a part of a tag's suffix that names nothing version-specific: a word (``serverless``) or the
#: Python major version of NGC's ``-py3`` tags
_PLAIN_SUFFIX_PART = re.compile(r"[a-z]+|py\d")


def _retag(tag: str, old: str, new: str) -> Optional[str]:
    """``tag`` with the old ``YY.MM`` prefix replaced by ``new``, or None when it cannot be derived.

    Only a tag that is exactly the old release's ``YY.MM``, or that ``YY.MM`` followed by ``-`` and
    parts naming nothing version-specific (``25.10-serverless`` -> ``25.11-serverless``,
    ``25.01-py3``), is rewritten, and only into another ``YY.MM``.  A tag that carries other versions
    or a build date (``25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless``) names the old image's
    engine, PyTorch, CUDA and build: the new image's cannot be known, so None.  So is a dated or named
    tag (``ppu2.2-...-20261020``).
    """
    if not (is_year_month(old) and is_year_month(new)):
        return None
    if tag == old:
        return new
    if tag.startswith(old + "-") and all(_PLAIN_SUFFIX_PART.fullmatch(part)
                                         for part in tag[len(old) + 1:].split("-")):
        return new + tag[len(old):]
    return None


#: the placeholder a runtime id's build part and a tag that cannot be derived are given
_PLACEHOLDER_PART = PLACEHOLDER_ID


def _runtime(runtime: dict[str, Any]) -> dict[str, Any]:
    """A runtime of the previous release, carried over: its id's build part (after ``/``) and the same part of
    its path become :data:`_PLACEHOLDER_PART` (the new build cannot be known), per-entry notes dropped."""
    out = dict(runtime)
    rid = out.get("id")
    if isinstance(rid, str) and "/" in rid:
        name, _, build = rid.partition("/")
        out["id"] = f"{name}/{_PLACEHOLDER_PART}"
        path = out.get("path")
        if isinstance(path, str) and build and build in path:
            out["path"] = path.replace(build, _PLACEHOLDER_PART)
    if isinstance(out.get("components"), list):
        out["components"] = _components(out["components"])
    out.pop("note", None)
    return _mark_carried(out, _CARRIED_RUNTIME)


def _components(entries: list[Any]) -> list[Any]:
    """Component entries without what the old page said about them (``note``, ``introduced``), each marked
    ``carried_over: true``: its version is the old release's until someone confirms or changes it."""
    return [{**{k: v for k, v in c.items() if k not in ("note", "introduced", "carried_over")}, "carried_over": True}
            if isinstance(c, dict) else c for c in entries]


#: the version fields of a record, a variant and a runtime that are copied and marked ``carried_over``
_CARRIED_RECORD = ("cuda", "python", "ppu_sdk", "driver", "base_image", "architectures", "component_list", "gpu_support")
_CARRIED_VARIANT = ("cuda", "python", "ppu_sdk", "architectures", "component_list")
_CARRIED_RUNTIME = ("python", "component_list")


def _mark_carried(section: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """``section`` with ``carried_over`` naming the fields of ``fields`` it holds (left out when none)."""
    out = {k: v for k, v in section.items() if k != "carried_over"}
    held = [name for name in fields if out.get(name) not in (None, [], {})]
    if held:
        out["carried_over"] = held
    return out


def draft_from(previous: dict[str, Any], version: str, pattern: str | None, image: str | None,
               status: str = "current", release_date: Optional[dt.date] = None) -> dict[str, Any]:
    """The new record's data, built from the previous record's data as written (key order kept).

    Args:
        previous: the previous release file's mapping.
        version: the new release identifier (``25.11``, ``2026-10-20``, a page's own name).
        pattern: the family's ``public_registry_pattern`` (None: references keep their old tag replaced).
        image: the family's ``image_name``.
        status: the new record's status (``superseded`` when a newer release of the family exists).
        release_date: written as ``released`` (kind ``page-published``, its source a placeholder to replace)
            when given (a named release is placed by it).
    """
    old_version = previous["version"]
    references: dict[str, str] = {}
    unknown_tags = 0

    def tags_of(entries: Any) -> list[Any]:
        nonlocal unknown_tags
        out = []
        for entry in entries if isinstance(entries, list) else []:
            tag = _retag(entry["tag"], old_version, version)
            if tag is None:
                unknown_tags += 1
                tag = f"{_PLACEHOLDER_PART}-{unknown_tags}"
            if pattern and image:
                reference = expected_reference(pattern, image, tag)
            else:
                reference = entry["reference"].replace(f":{entry['tag']}", f":{tag}")
            references[entry["reference"]] = reference
            out.append({k: v for k, v in {**entry, "tag": tag, "reference": reference}.items() if k != "digest"})
        return out

    def swap_refs(command: str) -> str:
        for old, new in references.items():
            command = command.replace(old, new)
        return command

    old_ref = f"{previous.get('family')}:{old_version}"

    def reviewed(section: Any) -> Any:
        """A mapping section with its page-specific ``note`` put up for review (``text_truncated`` kept)."""
        if not isinstance(section, dict):
            return section
        out = dict(section)
        note = out.get("note")
        if isinstance(note, dict) and isinstance(note.get("en"), str) and isinstance(note.get("zh"), str):
            out["note"] = {
                "en": f"{PLACEHOLDER}: check that this note from {old_ref} still holds, then remove this marker, "
                      f"or delete the note: {note['en']}",
                "zh": f"{PLACEHOLDER}：请确认这条沿用自 {old_ref} 的说明仍然成立后删去此标记，否则删除该说明：{note['zh']}",
            }
        return out

    def variant(entry: Any) -> Any:
        if not isinstance(entry, dict):
            return entry
        out: dict[str, Any] = {}
        for key, value in entry.items():
            if key == "presence_unknown":
                continue  # it rests on the old page's source conflicts, which are dropped
            if key == "image_tags":
                out[key] = tags_of(value)
            elif key == "components":
                out[key] = _components(value)
            elif key == "runtimes":
                out[key] = [_runtime(r) if isinstance(r, dict) else r for r in value]
            else:
                out[key] = value
        return _mark_carried(reviewed(out), _CARRIED_VARIANT)

    carried = {
        "driver": reviewed(previous.get("driver")),
        "gpu_support": reviewed(previous.get("gpu_support")),
        "base_image": reviewed(previous.get("base_image")),
        "image_tags": tags_of(previous.get("image_tags", [])),
        "variants": [variant(v) for v in previous.get("variants", [])],
        "runtimes": [_runtime(r) if isinstance(r, dict) else r for r in previous.get("runtimes", [])],
        "components": _components(previous.get("components", [])),
        "quick_start": [{**step, "commands": [swap_refs(c) for c in step.get("commands", [])]}
                        for step in previous.get("quick_start", [])],
    }
    placeholders = {
        "summary": _text("one-sentence summary of this release", "本版本的一句话概述"),
        "highlights": [{"text": _text("main change of this release (one per entry)", "本版本的主要变化（每条一项）")}],
        "bug_fixes": [{"text": _text("bug fixed in this release, or delete this list", "本版本修复的问题；没有则删除此列表")}],
        "known_issues": [PLACEHOLDER_ID],
        "sources": [{"url": PLACEHOLDER_URL, "language": "en",
                     "title": f"{PLACEHOLDER}: the official release-note page(s) of this release"}],
    }
    record_marks = [name for name in _CARRIED_RECORD if previous.get(name) not in (None, [], {})]

    def _carried(out: dict[str, Any]) -> None:
        """Name the release the versions were copied from, and the record's copied fields (once)."""
        if "carried_from" not in out:
            out["carried_from"] = old_version
            if record_marks:
                out["carried_over"] = record_marks

    dropped = {"released", "revised", "features", "acknowledged_downgrades", "source_conflicts",
               "presence_unknown", "stated_none", "not_captured"}
    draft: dict[str, Any] = {}
    for key, value in previous.items():
        if key in dropped:
            continue
        if key == "version":
            draft[key] = version
        elif key == "status":
            draft[key] = status
        elif key == "recorded":
            draft[key] = dt.date.today()  # the day this knowledge base starts recording the release
            if release_date is not None:
                draft["released"] = _released(release_date)
            _carried(draft)
        elif key in ("carried_from", "carried_over"):
            continue  # the old draft's own marks: this draft's are set from the old record below
        elif key in placeholders:
            draft[key] = placeholders.pop(key)
        elif key in carried:
            draft[key] = carried[key]
        else:
            draft[key] = value
    draft.update(placeholders)  # sections the previous release did not have
    draft.setdefault("recorded", dt.date.today())
    if release_date is not None:
        draft.setdefault("released", _released(release_date))
    _carried(draft)
    return draft


def _released(day: dt.date) -> dict[str, Any]:
    """``released`` for a date given on the command line: the date its page gives, the page still to be named."""
    return {"date": day, "kind": "page-published", "source": PLACEHOLDER_URL}


# --------------------------------------------------------------------------
# writing the draft: the previous file's text, edited
# --------------------------------------------------------------------------

_HEADER = [
    "# Started by `lingjun-kb new` from {ref}: replace every " + PLACEHOLDER + " value",
    "# (or delete the entry) before `lingjun-kb validate` passes.",
]
_PLAIN_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
_FLOW_WIDTH = 120


class _CannotEdit(Exception):
    """The text edit does not handle this change; the whole draft is written out instead."""


def _scalar(value: Any, plain_ok: bool = False) -> str:
    """``value`` as a YAML scalar: strings double-quoted (JSON escapes are valid YAML), a plain
    word only when ``plain_ok`` and YAML reads it back as the same string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value)
    if plain_ok and _PLAIN_WORD.match(text) and yaml.safe_load(text) == text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _is_flat(value: Any) -> bool:
    return isinstance(value, dict) and all(
        not isinstance(v, (dict, list)) or (isinstance(v, list) and all(not isinstance(i, (dict, list)) for i in v))
        for v in value.values())


def _flow(value: Any) -> str:
    """One-line flow form: ``{id: torch, version: "2.8.0"}``, ``[amd64, aarch64]``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value, plain_ok=True)


def _block(key: str, value: Any, indent: int) -> list[str]:
    """Lines of ``key: value`` at ``indent`` spaces: short flat mappings and scalar lists on one line."""
    pad = " " * indent
    if not isinstance(value, (dict, list)):
        return [f"{pad}{key}: {_scalar(value, plain_ok=key not in _ALWAYS_QUOTED)}"]
    if not value or (isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value)) or (
            _is_flat(value) and len(pad + key + _flow(value)) < _FLOW_WIDTH):
        return [f"{pad}{key}: {_flow(value)}"]
    lines = [f"{pad}{key}:"]
    if isinstance(value, dict):
        for k, v in value.items():
            lines += _block(k, v, indent + 2)
        return lines
    for item in value:
        if not isinstance(item, dict):
            lines.append(f"{pad}  - {_flow(item)}")
        elif _is_flat(item) and len(pad + _flow(item)) + 4 < _FLOW_WIDTH:
            lines.append(f"{pad}  - {_flow(item)}")
        else:
            inner = [line for k, v in item.items() for line in _block(k, v, indent + 4)]
            lines += [f"{pad}  - {inner[0].lstrip()}", *inner[1:]]
    return lines


#: fields whose values are versions or numbers-as-text: always quoted, whatever they look like
_ALWAYS_QUOTED = frozenset({"version", "cuda", "python", "ppu_sdk", "minimum", "recommended", "tag", "reference",
                            "from_version", "to_version", "url"})


def _render(draft: dict[str, Any], previous_ref: str) -> str:
    """The whole draft written out (used when the previous file's text cannot be edited)."""
    lines = [_SCHEMA_COMMENT, *(h.format(ref=previous_ref) for h in _HEADER)]
    for key, value in draft.items():
        lines += _block(key, value, 0)
    return "\n".join(lines) + "\n"


def _editable(old: Any, new: Any) -> bool:
    """True when ``new`` differs from ``old`` only in scalars, removed mapping keys and keys added after the kept
    ones (the ``carried_over`` marks), with the same list lengths."""
    if isinstance(old, dict) and isinstance(new, dict):
        kept = [k for k in new if k in old]
        return list(new)[:len(kept)] == kept and all(_editable(old[k], new[k]) for k in kept)
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_editable(a, b) for a, b in zip(old, new))
    return not isinstance(old, (dict, list)) and not isinstance(new, (dict, list))


class _TextEditor:
    """Edits the previous record's text into the draft, keeping the layout and comments of what stays.

    Scalars are replaced in place (keeping a plain or quoted style, quoting
    whatever is not a plain word), removed entries lose their lines, flow
    mappings are rebuilt from their own text, and a value whose shape
    changes is written out again with :func:`_block`.  Raises
    :class:`_CannotEdit` for changes it does not handle.
    """

    def __init__(self, text: str):
        self.text = text
        self.edits: list[tuple[int, int, str]] = []

    def line_start(self, index: int) -> int:
        return self.text.rfind("\n", 0, index) + 1

    def entry_end(self, node: Node) -> int:
        """End of the lines a value occupies (after its newline), trailing blank and comment lines left out."""
        end = node.end_mark.index
        start = self.line_start(end)
        if self.text[start:end].strip():
            newline = self.text.find("\n", end)
            end = len(self.text) if newline < 0 else newline + 1
        else:
            end = start
        floor = self.line_start(node.start_mark.index)
        while end > floor:
            previous = self.line_start(end - 1)
            if previous <= floor or self.text[previous:end].strip() and not self.text[previous:end].lstrip().startswith("#"):
                break
            end = previous
        return end

    def key_region(self, key: Node, value: Node) -> tuple[int, int]:
        start = self.line_start(key.start_mark.index)
        if self.text[start:key.start_mark.index].strip():
            raise _CannotEdit("key does not start its line")
        return start, self.entry_end(value)

    def mapping(self, node: MappingNode, old: dict, new: dict, top: bool = False) -> None:
        if node.flow_style:
            self.flow_mapping(node, old, new)
            return
        names = [k.value for k, _ in node.value]
        if [k for k in new if k in old] != [k for k in names if k in new]:
            raise _CannotEdit("keys reordered")
        for key, value in node.value:
            if key.value not in new:
                start, end = self.key_region(key, value)
                self.edits.append((start, end, ""))
            else:
                self.value(key, value, old[key.value], new[key.value])
        added = [k for k in new if k not in old]
        if added:
            keys = list(new)
            regions = {k.value: (k, v) for k, v in node.value}
            indent = node.value[0][0].start_mark.column if node.value else 0
            if not top and not node.value:
                raise _CannotEdit("new key inside an empty section")
            inserts: dict[int, list[str]] = {}  # position -> lines, in the draft's order
            for name in added:
                # after the nearest kept key before it in the draft's order (the end, at the top, when none)
                before = next((k for k in reversed(keys[:keys.index(name)]) if k in regions and k in new), None)
                if before is None and top:
                    at = len(self.text)
                else:
                    _, value_node = regions[before] if before else node.value[-1]
                    at = self.entry_end(value_node)
                inserts.setdefault(at, []).extend(_block(name, new[name], indent))
            for at, lines in inserts.items():
                tail = "\n" if at and self.text[at - 1] != "\n" else ""
                self.edits.append((at, at, tail + "\n".join(lines) + "\n"))

    def flow_mapping(self, node: MappingNode, old: dict, new: dict) -> None:
        kept = [k.value for k, _ in node.value if k.value in new]
        if list(new)[:len(kept)] != kept:
            raise _CannotEdit("keys added to a flow mapping before its kept keys")
        pieces = []
        for key, value in node.value:
            if key.value not in new:
                continue
            if old[key.value] == new[key.value] and type(old[key.value]) is type(new[key.value]):
                pieces.append(self.text[key.start_mark.index:value.end_mark.index])
            elif isinstance(value, ScalarNode) and not isinstance(new[key.value], (dict, list)):
                pieces.append(f"{key.value}: {self.scalar_text(value, key.value, new[key.value])}")
            else:
                pieces.append(f"{key.value}: {_flow(new[key.value])}")
        pieces += [f"{name}: {_flow(new[name])}" for name in list(new)[len(kept):]]
        self.edits.append((node.start_mark.index, node.end_mark.index, "{" + ", ".join(pieces) + "}"))

    def scalar_text(self, node: ScalarNode, key: Optional[str], value: Any) -> str:
        return _scalar(value, plain_ok=not node.style and key not in _ALWAYS_QUOTED)  # libyaml: plain is "" or None

    def value(self, key: Optional[Node], node: Node, old: Any, new: Any) -> None:
        if old == new and type(old) is type(new):
            return
        name = key.value if key is not None else None
        if isinstance(node, ScalarNode) and not isinstance(new, (dict, list)):
            if node.style in ("|", ">"):
                self.edits.append((node.start_mark.index, self.entry_end(node), self.scalar_text(node, name, new) + "\n"))
            else:
                self.edits.append((node.start_mark.index, node.end_mark.index, self.scalar_text(node, name, new)))
        elif isinstance(node, MappingNode) and _editable(old, new):
            self.mapping(node, old, new)
        elif isinstance(node, SequenceNode) and _editable(old, new):
            for item, before, after in zip(node.value, old, new):
                self.value(None, item, before, after)
        elif isinstance(node, SequenceNode) and node.flow_style and all(not isinstance(v, (dict, list)) for v in new):
            self.edits.append((node.start_mark.index, node.end_mark.index, _flow(new)))
        elif key is not None:
            start, end = self.key_region(key, node)
            indent = key.start_mark.column
            self.edits.append((start, end, "\n".join(_block(name, new, indent)) + "\n"))
        else:
            raise _CannotEdit("a list item changed shape")

    def result(self) -> str:
        text = self.text
        last = len(text) + 1
        for start, end, replacement in sorted(self.edits, key=lambda e: (e[0], e[1]), reverse=True):
            if end > last:
                raise _CannotEdit("overlapping edits")
            text = text[:start] + replacement + text[end:]
            last = start
        return text


def _edited(previous_text: str, previous: dict[str, Any], draft: dict[str, Any], previous_ref: str) -> Optional[str]:
    """The previous file's text edited into ``draft``, or None when that cannot be done faithfully.

    The result is parsed again and must give exactly ``draft``.
    """
    try:
        root = compose(previous_text)
        if not isinstance(root, MappingNode):
            return None
        editor = _TextEditor(previous_text)
        editor.mapping(root, previous, draft, top=True)
        text = editor.result()
    except (_CannotEdit, yaml.YAMLError):
        return None
    header = [h.format(ref=previous_ref) for h in _HEADER]
    lines = text.splitlines(keepends=True)
    at = 1 if lines and lines[0].startswith("# yaml-language-server:") else 0
    if at == 0:
        header.insert(0, _SCHEMA_COMMENT)
    text = "".join(lines[:at]) + "\n".join(header) + "\n" + "".join(lines[at:])
    data, _, problems = parse_yaml(Path("<draft>"), text)
    return text if data == draft and not problems else None


def _write_new(path: Path, content: str) -> None:
    """Write ``content`` to ``path`` atomically; refuse when ``path`` exists (even if created meanwhile).

    Raises:
        NewReleaseError: the file exists, or the folder cannot be made or written
            (nothing is left behind: no partial file, no temporary file).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise NewReleaseError(f"cannot write into {path.parent}: {exc.strerror or exc}") from None
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.fchmod(fd, 0o666 & ~mask)  # a record file like any other (mkstemp makes it 0600)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, path)  # fails if the target exists: no overwrite, never half-written
        except FileExistsError:
            raise NewReleaseError(f"{path} already exists; refusing to overwrite it") from None
    except OSError as exc:
        raise NewReleaseError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)


@dataclass(frozen=True)
class NewRelease:
    """What :func:`new_release` wrote.

    Attributes:
        path: the new file.
        placeholders: number of placeholder values to fill in.
        carried: number of ``carried_over`` marks (a component's ``true``, each field a ``carried_over`` list names):
            values copied from the previous release that ``lingjun-kb validate`` refuses until confirmed.
        previous: file of the release the draft was started from (the closest older one).
        status: ``current`` when the new release is the family's newest, else ``superseded``.
        newer: refs of the family's releases newer than the new one (``family:YY.MM``), oldest first.
        to_supersede: ``(ref, file)`` of the releases marked `current` that the new (current) one replaces;
            empty when the new release is not the newest.
    """

    path: Path
    placeholders: int
    previous: Path
    status: str
    newer: list[str] = field(default_factory=list)
    to_supersede: list[tuple[str, Path]] = field(default_factory=list)
    carried: int = 0


OrderKey = tuple[int, int, int]


def _newer_versions(releases: Path, records: list[ReleaseRecord], family: Family, key: OrderKey) -> list[str]:
    """Releases of ``family`` after ``key`` in date order, oldest first: loaded records, the files of the
    family's folder (even broken ones) whose name is a ``YY.MM`` or ``YYYY-MM-DD`` identifier, and the
    family's ``unrecorded_releases`` (the pages name them: the new release is not the newest)."""
    found: dict[str, OrderKey] = {r.version: r.order_key for r in records if r.order_key is not None}
    for entry in family.unrecorded_releases:
        entry_key = release_order_key(entry.version, entry.release_date)
        if entry_key is not None:
            found.setdefault(entry.version, entry_key)
    folder = Path(releases) / family.id
    if folder.is_dir():
        for path in folder.iterdir():
            stem_key = release_order_key(path.stem) if path.suffix in (".yaml", ".yml") else None
            if stem_key is not None:
                found.setdefault(path.stem, stem_key)
    return [v for v, k in sorted(found.items(), key=lambda item: (item[1], item[0])) if k > key]


def _parse_release(version: str, release_date: Optional[str]) -> tuple[OrderKey, Optional[dt.date]]:
    """The new release's order key and the release date to write, or :class:`NewReleaseUsageError` (one line)."""
    try:
        _check_release_id(version)
    except ValueError as exc:
        raise NewReleaseUsageError(shorten_words(f"release {exc}")) from None
    day: Optional[dt.date] = None
    if release_date is not None:
        try:
            day = dt.date.fromisoformat(release_date)
        except ValueError:
            raise NewReleaseUsageError(f"--release-date {quoted(release_date)} is not a date; write YYYY-MM-DD") from None
    if day is not None and is_year_month(version):
        raise NewReleaseUsageError(f"--release-date is for releases whose name gives no date; {quoted(version)} names its month")
    key = release_order_key(version, day)
    if key is None:
        raise NewReleaseUsageError(f"release {quoted(version)} names no date, so it cannot be placed among the family's "
                                   "releases; give --release-date YYYY-MM-DD (the date its page gives)")
    named_day = identifier_date(version)
    if day is not None and named_day is not None and day != named_day:
        raise NewReleaseUsageError(f"--release-date {day} differs from the date the release is named by ({version})")
    return key, (day if release_order_key(version) is None else None)


def new_release(releases: Path, family: str, version: str, release_date: Optional[str] = None) -> NewRelease:
    """Create ``releases/<family>/<version>.yaml`` from the closest older release of ``family``.

    "Older" is date order (:func:`~lingjun.checks.core.release_order.release_order_key`): ``25.10`` is
    older than ``2026-10-20``.  The new record is ``current`` only when no release of the family is newer
    (filling a gap between two releases gives a ``superseded`` record).

    Args:
        releases: the releases folder.
        family: the family id.
        version: the new release identifier: ``YY.MM``, ``YYYY-MM-DD`` or the page's own name.
        release_date: ``YYYY-MM-DD``; required for a name that gives no date, refused for one that does.

    Returns:
        :class:`NewRelease`.

    Raises:
        NewReleaseUsageError: a release identifier that is not one (``25.13``), a bad family id or date.
        NewReleaseError: unknown family, no older release, a previous release that does not load, or the
            file already exists.
        UnsafeOutputPath: the record's folder cannot take a new file (a read-only file system, no permission),
            checked before anything is loaded.
    """
    key, day = _parse_release(version, release_date)
    if not _FAMILY.fullmatch(family) or family.strip(".") == "":
        raise NewReleaseUsageError(f"family {quoted(family)} is not a family id (lower-case letters, digits, '.', '_', '-')")
    target = Path(releases) / family / f"{version}.yaml"
    if target.exists() or target.is_symlink():
        raise NewReleaseError(f"{target} already exists; refusing to overwrite it")
    # before any work: a releases folder on a read-only file system, or not writable, is refused in one line
    check_output_file(target, replaceable=lambda _path: False, ours="a file to replace")
    kb, _problems = load_knowledge_base(releases)
    family_entry = kb.families.get(family)
    if family_entry is None:
        known = ", ".join(sorted(kb.families)) or "none"
        raise NewReleaseUsageError(f"family {quoted(family)} is not in {releases}/families.yaml (known: {known})")
    older = [r for r in kb.releases_of(family) if r.order_key is not None and r.order_key < key]
    folder = Path(releases) / family
    if not kb.releases_of(family) and not (folder.is_dir() and any(folder.glob("*.y*ml"))):
        raise NewReleaseError(f"{family} has no release record yet, so there is no previous release to start from; "
                              f"draft its first record from its page with `lingjun-kb import PAGE --family {family}`, "
                              "or write it by hand")
    if not older:
        undated = [r.ref for r in kb.releases_of(family) if r.order_key is None]
        hint = (f"{', '.join(undated)} cannot be placed by date: add its released date" if undated
                else f"run `lingjun-kb validate {releases}` or write the first record by hand")
        raise NewReleaseError(f"no release of {family} older than {version} loads without errors; {hint}")
    previous = older[0]
    newer = _newer_versions(releases, kb.releases_of(family), family_entry, key)
    status = "superseded" if newer else "current"
    previous_path = kb.paths[previous.ref]
    text, _ = read_text(previous_path)
    data, _, problems = parse_yaml(previous_path, text or "")
    if data is None:  # pragma: no cover - it loaded a moment ago
        raise NewReleaseError(f"cannot read {previous_path}: {problems[0].format() if problems else 'unknown error'}")
    draft = draft_from(data, version, family_entry.public_registry_pattern, family_entry.image_name, status, day)
    content = _edited(text or "", data, draft, previous.ref) or _render(draft, previous.ref)
    _write_new(target, content)
    # the header names the marker once
    placeholders = content.count(PLACEHOLDER) + content.count(PLACEHOLDER_ID) + content.count(PLACEHOLDER_URL) - 1
    to_supersede = [] if newer else [(r.ref, kb.paths[r.ref]) for r in kb.releases_of(family, newest_first=False)
                                     if r.status is ReleaseStatus.current]
    return NewRelease(path=target, placeholders=placeholders, previous=previous_path, status=status,
                      newer=[f"{family}:{v}" for v in newer], to_supersede=to_supersede, carried=_carried_marks(draft))


def _carried_marks(value: Any) -> int:
    """How many ``carried_over`` marks ``value`` (the draft) holds: one per ``carried_over: true`` and one per field
    a ``carried_over`` list names, at any depth (record, variants, runtimes, components)."""
    if isinstance(value, list):
        return sum(_carried_marks(v) for v in value)
    if not isinstance(value, dict):
        return 0
    mark = value.get("carried_over")
    own = len(mark) if isinstance(mark, list) else int(mark is True)
    return own + sum(_carried_marks(v) for k, v in value.items() if k != "carried_over")


#: ``render_block(key, value, indent) -> lines``: one ``key: value`` in the style of the release files
#: (shared with ``lingjun-kb import``)
render_block = _block
#: ``write_new(path, content)``: create ``path`` atomically, never over an existing file (raises NewReleaseError)
write_new = _write_new
