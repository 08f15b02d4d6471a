"""Snapshots: the probed facts as a JSON file (``--collect FILE``) and back (``--from FILE``).

Format: ``Facts.to_dict()`` as a JSON object whose ``"schema"`` is
``"lingjun-check/snapshot/1"`` (:data:`lingjun.checks.facts.SNAPSHOT_SCHEMA`);
the JSON Schema is ``checks/snapshot.schema.json``.  Writing:

* redacts first (:func:`redact`): no host name, GPU or MIG UUID or PCI bus id, no RDMA node
  GUID or GID value (the GID entry types stay), no
  ``MASTER_ADDR``/``NCCL_COMM_ID`` or other variable naming a peer, no
  interface IPv4/IPv6 addresses (only whether an interface has one:
  ``has_ipv4``/``has_ipv6``), and in every string no IP address (a four-part
  dotted number in a field or variable named ``...version`` is a version and
  stays) and no home-directory user name
  (:func:`lingjun.checks.core.redaction.mask_identifiers`),
  unless ``include_ids``; the environment is filtered again through the
  allow-list of :mod:`lingjun.checks.probes.env_vars` (a snapshot read from
  elsewhere may carry more) and credentials and token-shaped secrets in every
  string are masked always (:func:`lingjun.checks.core.redaction.mask_secrets`);
* is atomic: a temporary file in the target directory, then ``os.replace``,
  so an interrupted run never leaves a half-written snapshot.

Reading is tolerant by design: unknown keys are ignored, missing keys take
their defaults, and a value of the wrong type or out of range (a negative size,
a count past 2**63-1, a CUDA version code past 999999) is dropped (its field
keeps the default) and reported as a problem naming the field, e.g.
``"nvml.gpus[0].index: expected an integer, got 'zero'"``.  A list or object
field of a section that was dropped (``"rdma": {"devices": "x"}``) or is missing
(``"rdma": {}``) makes the section not known: its empty default would read as
"observed none".  Only a file that
cannot be read, is not JSON, or is not a JSON object raises
:class:`SnapshotError`; when it is another input the checker reads (collect_env text, a JSON report, release
data...), the error says which and the option that reads it (:mod:`lingjun.checks.inputs.input_kind`).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
import re
import typing
from typing import Any, Optional

from lingjun.checks.core._dataclass_json import convert
from lingjun.checks.core.redaction import MASK, mask_identifiers, mask_secrets, mask_strings, mask_text
from lingjun.checks import facts as facts_module
from lingjun.checks.core.inert_text import escape_json_text
from lingjun.checks.coverage import SECTIONS, sections_from_snapshot_keys, sections_not_probed
from lingjun.checks.facts import SNAPSHOT_SCHEMA, Facts
from lingjun.checks.inputs.input_file import SNIFF_BYTES, InputFileError, is_utf8_start, read_input_file
from lingjun.checks.inputs import snapshot_json
from lingjun.checks.inputs.input_kind import describe_json, describe_text
from lingjun.checks.inputs.snapshot_json import DuplicateKeyError, LongNumber
from lingjun.checks.probes.env_vars import filter_env, is_secret_name, mask_device_ids

__all__ = ["SnapshotError", "redact", "write_snapshot", "snapshot_line", "is_previous_snapshot", "SNAPSHOT_KIND", "read_snapshot", "facts_from_snapshot_dict", "atomic_write_text"]

#: the largest snapshot read, in bytes (a --collect snapshot of an image with ~1000 packages is well under 2 MiB)
MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024


class SnapshotError(ValueError):
    """The snapshot file is unreadable, not JSON or not a JSON object."""


def redact(facts: Facts, include_ids: bool = False) -> Facts:
    """A copy of ``facts`` safe to share (see the module docstring)."""
    out = copy.deepcopy(facts)
    out.env = filter_env(out.env, include_ids)
    # credentials and token-shaped secrets, in every string of the snapshot, also with include_ids
    mask_strings(out, mask_secrets)
    if not include_ids:
        # peer addresses and home-directory user names, in every string of the snapshot
        mask_strings(out, mask_identifiers, functools.partial(mask_identifiers, keep_versions=True))
        out.env = mask_device_ids(out.env)  # GPU-/MIG- UUIDs in CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES
        out.host.hostname = None
        if out.node.source == "hostname":  # a node named after the host name is a host name
            out.node = facts_module.NodeFacts()
        for gpu in list(out.nvml.gpus) + list(out.nvidia_smi.gpus):
            gpu.uuid = None
            gpu.pci_bus_id = None
        for mig in out.mig_devices:
            mig.uuid = None
        for device in out.rdma.devices:
            device.node_guid = None
            for port in device.ports:
                port.gids = []
        for iface in out.network:
            iface.has_ipv4 = iface.carries_ipv4()
            iface.has_ipv6 = bool(iface.ipv6) or bool(iface.has_ipv6)
            iface.ipv4 = []
            iface.ipv6 = []
    return out


def atomic_write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically (temporary file + rename, mode 0644).

    Raises:
        OSError: when the directory is not writable; nothing is left behind.
    """
    from lingjun.checks.core.atomic_write import atomic_write  # deferred: a plain or live check never needs it

    atomic_write(path, text)


#: what :func:`is_previous_snapshot` recognises, for refusal messages
SNAPSHOT_KIND = "a lingjun-check snapshot"

_SNAPSHOT_START = re.compile(rb'\A\s*\{\s*"schema"\s*:\s*"' + re.escape(SNAPSHOT_SCHEMA.encode("ascii")) + rb'"')


def is_previous_snapshot(path: str) -> bool:
    """True when the regular file ``path`` is a snapshot ``--collect`` wrote: a JSON object whose first
    key ``"schema"`` is ``"lingjun-check/snapshot/1"``.  Only its first 4 KiB are read (never following a link)."""
    from lingjun.checks.core.atomic_write import read_prefix  # deferred: a plain or live check never needs it

    return _SNAPSHOT_START.match(read_prefix(path, 4096)) is not None


def write_snapshot(facts: Facts, path: str, include_ids: bool = False) -> None:
    """Redact ``facts`` and write them as JSON to ``path`` atomically.

    Raises:
        UnsafeOutputPath: ``path`` exists and is not a snapshot (:func:`is_previous_snapshot`)
            or not a regular file; nothing is written.
        OSError: when the file cannot be written.
    """
    from lingjun.checks.core.atomic_write import atomic_write  # deferred: a plain or live check never needs it

    data = redact(facts, include_ids).to_dict()
    atomic_write(path, json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n",
                 replaceable=is_previous_snapshot, ours=SNAPSHOT_KIND)


def snapshot_line(facts: Facts, include_ids: bool = False) -> str:
    """Redacted ``facts`` (:func:`redact`) as ONE line of JSON ending with a newline (``--collect -``).

    Every string keeps its value; the characters :func:`json.dumps` leaves raw that could rewrite a
    terminal or reorder a line (C1 controls, bidi marks, U+2028/U+2029) are ``\\uNNNN`` escapes, so
    the line stays one line in ``kubectl logs`` and parses back to the same snapshot.
    """
    data = redact(facts, include_ids).to_dict()
    return escape_json_text(json.dumps(data, ensure_ascii=False, separators=(",", ":"))) + "\n"


def read_snapshot(path: str) -> tuple[Facts, list[str]]:
    """Read a snapshot file: ``(facts, problems)``; ``facts.origin`` becomes ``"snapshot"``.

    The file must be a regular file of at most :data:`MAX_SNAPSHOT_BYTES`, UTF-8 (a byte order mark is allowed);
    ``-`` reads standard input (``kubectl exec POD -- ... --collect - | lingjun-check --from -``).

    Raises:
        SnapshotError: when the file cannot be read (missing, not a regular file, too large)
            or is not a JSON object.
    """
    refused: list[str] = []

    def sniff(block: bytes) -> Optional[str]:
        """The first block: text goes on (the whole file is read); anything else is refused from it alone."""
        reason = _not_text(block)
        if reason:
            refused.append(reason)
        return reason

    path = "standard input" if path == "-" else path  # as the messages name it; read_input_file reads "-" itself
    try:
        raw = read_input_file("-" if path == "standard input" else path, MAX_SNAPSHOT_BYTES, sniff=sniff)
    except InputFileError as exc:
        if refused:
            raise SnapshotError(f"{path}: {refused[0]}") from None
        raise SnapshotError(f"{path}: cannot read snapshot: {exc.reason}") from None

    try:
        data = snapshot_json.loads(raw.decode("utf-8-sig"))
    except DuplicateKeyError as exc:
        raise SnapshotError(f"{path}: not a snapshot: {exc}") from None
    except RecursionError:
        raise SnapshotError(f"{path}: not a snapshot: JSON nested too deeply") from None
    except ValueError as exc:  # UnicodeDecodeError included
        from lingjun.checks.inputs.collect_env_text import decode_collect_env  # deferred: a plain or live check never needs it

        # UTF-16 too: a collect_env saved by PowerShell; its kind shows in the first block (a paste is a few KiB)
        kind = describe_text(decode_collect_env(raw[:SNIFF_BYTES]))
        if kind:
            raise SnapshotError(f"{path}: not a snapshot: {kind}") from None
        if isinstance(exc, UnicodeDecodeError):
            raise SnapshotError(f"{path}: snapshot is not UTF-8 text") from None
        raise SnapshotError(f"{path}: not JSON: {exc}") from None
    kind = describe_json(data)
    if kind:
        raise SnapshotError(f"{path}: not a snapshot: {kind}")
    if not isinstance(data, dict):
        raise SnapshotError(f"{path}: a snapshot is a JSON object, got {type(data).__name__}")
    facts, problems = facts_from_snapshot_dict(data)
    return facts, problems


def _not_text(block: bytes) -> Optional[str]:
    """Why a snapshot whose first bytes are ``block`` is refused without reading more, or None (UTF-8 text,
    :func:`lingjun.checks.inputs.input_file.is_utf8_start`).

    The words are those a whole file gets: the kind of input it is
    (:func:`lingjun.checks.inputs.input_kind.describe_text`), else "not UTF-8 text".
    """
    if is_utf8_start(block):
        return None
    from lingjun.checks.inputs.collect_env_text import decode_collect_env  # deferred: a plain or live check never needs it

    kind = describe_text(decode_collect_env(block))
    return f"not a snapshot: {kind}" if kind else "snapshot is not UTF-8 text"


def facts_from_snapshot_dict(data: dict[str, Any], shared: Optional[dict[str, tuple[Any, dict]]] = None,
                             keep: int = 64) -> tuple[Facts, list[str]]:
    """Tolerant :meth:`Facts.from_dict`: ``(facts, problems)`` (see the module docstring).

    ``shared`` (``lingjun-check fleet``): ``{section: (content id, kept)}`` for top-level sections whose
    content is known by an id; ``kept`` maps an id to the section read before, ``(value, its problems)``,
    reused (the same objects: facts are never changed by the rules) instead of reading the section again, and
    holds at most ``keep`` of them (the oldest dropped first).  The result is the same as without ``shared``.
    """
    problems: list[str] = []
    schema = data.get("schema")
    if schema != SNAPSHOT_SCHEMA:
        problems.append(f"schema: expected {SNAPSHOT_SCHEMA!r}, got {schema!r}; reading it anyway")
    if not shared or not isinstance(data, dict):
        facts = _masked_secrets(_lenient(Facts, data, "", problems))
    else:
        facts = _shared_top(data, problems, shared, keep)
    facts.schema = SNAPSHOT_SCHEMA
    facts.origin = "snapshot"
    _mark_coverage(facts, data, problems)
    problems[:] = [_mask_secrets_only(p) for p in problems]  # a problem may name a value
    return facts, problems


def _mask_secrets_only(text: str) -> str:
    return mask_text(text, identifiers=False)


def _masked_secrets(value: Any, section: str = "") -> Any:
    """``value`` (facts, or one section of them as read) with the secrets in every string masked, each string whole
    (:func:`~lingjun.checks.core.redaction.mask_text`, identifiers kept: rules match MIG UUIDs with the devices): a
    snapshot written by hand, edited or taken by an older checker may hold secrets ``--collect`` never keeps, and
    ``--from`` and ``lingjun-check fleet`` read it here, before any rule or report sees it. ``LD_LIBRARY_PATH``'s
    entries (``loader.ld_library_path``, split at its colons) are masked joined again, so that a secret an older
    checker split (``password``, ``x``) is known by its key."""
    value = mask_strings(value, _mask_secrets_only)
    if isinstance(value, Facts) and isinstance(value.env, dict):
        value.env = _masked_env(value.env)
    elif section == "env" and isinstance(value, dict):  # fleet reads the section alone
        value = _masked_env(value)
    loader = value.loader if isinstance(value, Facts) else value if isinstance(value, facts_module.LoaderFacts) else None
    if loader is not None and isinstance(loader.ld_library_path, list) and len(loader.ld_library_path) > 1 \
            and all(isinstance(p, str) for p in loader.ld_library_path):
        joined = ":".join(loader.ld_library_path)
        masked = _mask_secrets_only(joined)
        if masked != joined:
            loader.ld_library_path = [p for p in re.split(r"[:;]", masked) if p]
    return value


def _masked_env(env: dict) -> dict:
    """``env`` (a snapshot's variables as read) with the value of every variable whose name says secret masked whole
    (``NCCL_IB_TOKEN``: a plain value has no shape to know it by; ``--collect`` never records such a name) and every
    name masked as a value is (a token pasted into a name)."""
    out = {}
    for name, value in env.items():
        if isinstance(name, str):
            shown = _mask_secrets_only(name)
            out[shown] = MASK if is_secret_name(name) and isinstance(value, str) else value
        else:
            out[name] = value
    return out


def _mark_coverage(facts: Facts, data: dict[str, Any], problems: list[str] = ()) -> None:
    """Record which sections the snapshot does not carry (see :mod:`lingjun.checks.coverage`).

    A section is not available when the snapshot has none of its keys, when the
    snapshot's own ``coverage`` says so, when the snapshot carries probe records
    and the section's probe is not among them (or timed out), or when the
    section's whole value was unusable and dropped (``"env": null``).  A section
    with an unusable value inside (one bad list item, one non-string variable) is
    partial: what is left is observed, what was dropped is not known.
    """
    cov = facts.coverage
    known = [s for s in cov.not_available if s in SECTIONS]
    absent = set(known) | set(sections_from_snapshot_keys(data))
    damaged: set[str] = set()
    for problem in problems:
        _sort_problem(facts, problem, SECTIONS, absent, damaged)
    _missing_required(data, problems, absent)
    cov.partial = list(cov.partial) + [s for s in SECTIONS if s in damaged and s not in cov.partial]
    if facts.probes:
        names = {p.name for p in facts.probes}
        absent |= set(sections_not_probed(names, {p.name for p in facts.probes if p.timed_out}))
    cov.not_available = [s for s in SECTIONS if s in absent]
    cov.partial = [s for s in SECTIONS if s in set(cov.partial) and s not in absent]


def _sort_problem(facts: Facts, problem: str, sections: dict, absent: set[str], damaged: set[str]) -> None:
    """Add to ``absent`` or ``damaged`` the sections whose value one problem (``"path: ..."``) is about."""
    path = problem.split(":", 1)[0].strip()
    for section in sections.values():
        for key in section.keys:
            if path == key and "expected" in problem:
                absent.add(section.id)  # the section's own value was dropped
            elif path.startswith(key + ".") and _is_container(facts, path) and path not in _RAW_COPIES:
                absent.add(section.id)  # a list or object of it was dropped: its empty default is not "none"
            elif path == key or path.startswith((key + ".", key + "[")):
                damaged.add(section.id)


def _missing_required(data: dict[str, Any], problems: list[str], absent: set[str]) -> None:
    """Sections present without the fields of :data:`_REQUIRED` are not known (and a problem says why)."""
    for section_id, key, fields in _REQUIRED:
        value = data.get(key)
        if isinstance(value, dict) and any(f not in value for f in fields):
            absent.add(section_id)
            if isinstance(problems, list):
                problems.append(f"{key}: no {' / '.join(f for f in fields if f not in value)}; the section is not known")


#: objects that copy the raw input beside the facts read from it (``manifest.data``: the file, next to its
#: ``release``): one dropped leaves its section partial, not absent, as a dropped ``manifest.release`` does
_RAW_COPIES = ("manifest.data",)

#: ``(section id, key, fields)``: a section present without these fields does not show what it is about
_REQUIRED = (("rdma", "rdma", ("devices",)), ("nccl", "nccl", ("files",)))


def _is_container(facts: Facts, path: str) -> bool:
    """Whether ``path`` ("rdma.devices", no index) names a list or object field of ``facts``."""
    if "[" in path:
        return False
    value: Any = facts
    for part in path.split("."):
        if not dataclasses.is_dataclass(value) or not hasattr(value, part):
            return False
        value = getattr(value, part)
    return isinstance(value, (list, dict))


def _lenient(cls: type, data: Any, where: str, problems: list[str]) -> Any:
    if not isinstance(data, dict):
        problems.append(f"{where or 'snapshot'}: expected an object, got {_kind(data)}; ignored")
        return cls() if _constructible(cls) else None
    kwargs: dict[str, Any] = {}
    for name, shape in _plan(cls):
        if name not in data:
            continue
        path = f"{where}.{name}" if where else name
        value = _field(shape, data[name], path, problems)
        if value is not _DROP:
            kwargs[name] = value
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in kwargs
               and (f.name in _IDENTITY.get(cls.__name__, ()) and f.name in data
                    or f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)]
    if missing:  # the entry cannot be told apart without them (a device's name, a port's number)
        problems.append(f"{where}: no usable {' / '.join(missing)}, so the entry was ignored")
        return _DROP
    return cls(**kwargs)


def _shared_top(data: dict[str, Any], problems: list[str], shared: dict[str, tuple[Any, dict]], keep: int) -> Facts:
    """:func:`_lenient` of :class:`Facts` with the sections of ``shared`` reused (see :func:`facts_from_snapshot_dict`)."""
    kwargs: dict[str, Any] = {}
    for name, shape in _plan(Facts):
        if name not in data:
            continue
        if name in shared:
            content, kept = shared[name]
            hit = kept.get(content)
            if hit is None:
                own: list[str] = []
                hit = kept[content] = (_masked_secrets(_field(shape, data[name], name, own), name), own)
                if len(kept) > keep:
                    del kept[next(iter(kept))]
            value = hit[0]
            problems.extend(hit[1])
        else:
            value = _masked_secrets(_field(shape, data[name], name, problems), name)
        if value is not _DROP:
            kwargs[name] = value
    return Facts(**kwargs)


#: fields that identify an entry: when the value is there but unusable, the entry is dropped rather than defaulted
_IDENTITY = {"RdmaPortFacts": ("port",), "RdmaDeviceFacts": ("name",)}


def _kind(value: Any) -> str:
    """What a JSON value is, in words ("null", "a string", "a number", ...), for the problem lines."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "a string", list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


_DROP = object()


@functools.lru_cache(maxsize=None)
def _plan(cls: type) -> tuple[tuple[str, tuple], ...]:
    """``(field name, _shape(field type))`` of each field of ``cls``, computed once per class.

    ``typing.get_type_hints`` evaluates every annotation string; called per object it took most of the
    96 s of reading 300,000 distributions (bench/snapshot_scale.py prints the times now).
    """
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _shape(hints[f.name])) for f in dataclasses.fields(cls))


def _constructible(cls: type) -> bool:
    return all(f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING for f in dataclasses.fields(cls))


@functools.lru_cache(maxsize=None)
def _shape(hint: Any) -> tuple[bool, Any, Any, tuple, bool]:
    """``(optional, hint, origin, args, is_dataclass)`` of a field's type, ``Optional[X]`` unwrapped to ``X``;
    computed once per type (typing's introspection per value was most of reading a large snapshot)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    optional = origin is typing.Union
    if optional:
        hint = next(a for a in args if a is not type(None))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    return optional, hint, origin, args, dataclasses.is_dataclass(hint)


def _field(shape: tuple, value: Any, where: str, problems: list[str]) -> Any:
    optional, hint, origin, args, is_dataclass = shape
    if optional and value is None:
        return None
    if isinstance(value, LongNumber):
        problems.append(f"{where}: {value!r} is not a usable value; ignored")
        return _DROP
    if hint is str and isinstance(value, str):  # the common case, without the converter's look-up
        return value
    if is_dataclass:
        return _object_field(hint, value, where, problems)
    if origin is list:
        return _list_field(args, value, where, problems)
    if origin is dict:
        return _dict_field(args, value, where, problems)
    return _scalar_field(hint, value, where, problems)


def _object_field(hint: type, value: Any, where: str, problems: list[str]) -> Any:
    if not isinstance(value, dict):
        problems.append(f"{where}: expected an object, got {_kind(value)}; ignored")
        return _DROP
    return _lenient(hint, value, where, problems)


def _list_field(args: tuple, value: Any, where: str, problems: list[str]) -> Any:
    """A list field: each item read on its own, an unusable one dropped (and named) while the rest are kept."""
    if not isinstance(value, list):
        problems.append(f"{where}: expected a list, got {_kind(value)}; ignored")
        return _DROP
    items = []
    item_shape = _shape(args[0])
    for i, item in enumerate(value):
        converted = _field(item_shape, item, f"{where}[{i}]", problems)
        if converted is not _DROP:
            items.append(converted)
    return items


def _dict_field(args: tuple, value: Any, where: str, problems: list[str]) -> Any:
    """An object field with free keys; for ``dict[str, str]`` values that are not strings are dropped (and named)."""
    if not isinstance(value, dict):
        problems.append(f"{where}: expected an object, got {_kind(value)}; ignored")
        return _DROP
    if args and args[1] is str:
        bad = sorted(str(k) for k, v in value.items() if not isinstance(v, str))
        if bad:
            problems.append(f"{where}: values of {', '.join(bad)} are not strings; ignored")
        return {str(k): v for k, v in value.items() if isinstance(v, str)}
    return {str(k): v for k, v in value.items()}


def _scalar_field(hint: Any, value: Any, where: str, problems: list[str]) -> Any:
    """A number, bool or string field through :func:`lingjun.checks.core._dataclass_json.convert`, numbers that cannot be real dropped."""
    try:
        converted = convert(hint, value, where)
    except ValueError as exc:
        problems.append(f"{exc}; ignored")
        return _DROP
    if hint in (int, float) and converted is not None:
        reason = _out_of_range(where, converted)
        if reason:
            problems.append(f"{where}: {reason}; ignored")
            return _DROP
    return converted


#: integer fields where -1 is a value (RLIM_INFINITY as getrlimit's callers print it: no limit)
_MINUS_ONE_ALLOWED = ("memlock_soft", "memlock_hard", "nofile_soft", "nofile_hard")
#: integer fields holding a CUDA version as 1000 * major + 10 * minor (12080): at most CUDA 999.99
_CUDA_CODES = ("cuda_driver_version", "driver_api_version")
#: the largest integer of any count, size or index a snapshot holds (a signed 64-bit value, as the kernel reports sizes)
_INT_MAX = 2 ** 63 - 1


def _out_of_range(where: str, value: Any) -> str:
    """Why the number ``value`` of the field ``where`` cannot be real ("" when it can): a negative count, size,
    index or version (-1 is "no limit" for the resource limits), an integer past 2**63-1, a CUDA version code past
    999999, a time that is negative or not finite.  Out-of-range numbers are unusable, like values of the wrong type."""
    field = where.rsplit(".", 1)[-1].split("[", 1)[0]
    if isinstance(value, float):
        return "" if math.isfinite(value) and value >= 0 else f"{value!r} is out of range (a non-negative number)"
    low = -1 if field in _MINUS_ONE_ALLOWED else 0
    high = 999_999 if field in _CUDA_CODES else _INT_MAX
    if value < low or value > high:
        return f"{value if len(str(value)) <= 30 else 'a number of %d digits' % len(str(abs(value)))} is out of range ({low} to {high})"
    return ""
