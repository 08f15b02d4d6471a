"""``lingjun-kb bundle``: compile the release data for the checker and build ``lingjun-check.pyz``.

Steps of :func:`cli_bundle`:

1. load ``releases/`` and run the data gate
   (:func:`lingjun.schema.gate.validate.validate`, as ``lingjun-kb build`` and
   ``validate`` do); refuse (exit 1, one line naming the error count and the
   first error, nothing written) when any problem is an error;
2. compile it (:func:`lingjun.generator.bundle.compile_bundle`, site URL from
   :func:`resolve_site_url`) and write
   ``checks/data/bundle.json`` (the package data the installed
   ``lingjun-check`` reads; committed);
3. write the zipapp (default ``dist/lingjun-check.pyz``) containing:
   ``__main__.py`` (the start-up tricks of :mod:`lingjun.checks._startup`: pauses the cyclic garbage
   collector, installs the one-pass archive finder so the modules are read from the archive once and
   the precompiled ``@dataclass`` methods, calls :func:`lingjun.checks.cli.main`, and freezes the
   collector's objects before exiting so the final collection has nothing to walk); a minimal
   ``lingjun/__init__.py``; every module of ``lingjun/checks/`` (the folder
   holds exactly what ships; docstrings blanked by :func:`lingjun.generator._docstrings.blank_docstrings`,
   line numbers kept); ``lingjun/checks/data/bundle.json``;
   and a vendored copy of the installed :mod:`packaging` with its licence
   files under ``packaging/`` so the archive runs on a bare Python 3.9+;
   next to each module, bytecode compiled by the interpreter running the
   build (:func:`with_bytecode`), and ``lingjun/checks/data/dataclass-code.bin``,
   the code of the methods ``@dataclass`` generates for the checker's classes
   (recorded by importing the archive's modules in a child interpreter, compiled
   by the builder); other Python versions ignore both.

The archive is deterministic for a given interpreter: entries sorted, every
timestamp 1980-01-01, fixed permissions, hash-based bytecode, no ``__pycache__``.  Files are written atomically.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import marshal
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Iterable, Optional

import packaging
from packaging.specifiers import SpecifierSet

import lingjun.checks
from lingjun.checks._startup import MEMBER, dump
from lingjun.checks.core.atomic_write import atomic_write, check_output_file, read_prefix
from lingjun.checks.core.inert_text import NAME_LIMIT, capped, inert
from lingjun.generator._docstrings import blank_docstrings
from lingjun.checks.knowledge.error_catalogs import CATALOGS_FILE
from lingjun.generator import configmap as cm
from lingjun.generator.checker_ids import checker_rule_ids
from lingjun.generator.site.site_url import resolve_site_url

__all__ = ["cli_bundle", "bundle_text", "bundle_texts", "build_zipapp", "zipapp_bytes", "zip_entries", "with_bytecode", "pyc_entry", "resolve_site_url",
           "other_checkout_problem"]

_EPOCH = (1980, 1, 1, 0, 0, 0)
_SHEBANG = b"#!/usr/bin/env python3\n"
_MAIN = """\
\"\"\"lingjun-check zipapp entry point: the start-up tricks of lingjun.checks._startup, then the check.\"\"\"
from lingjun.checks._startup import MEMBER, exit_frozen, install_archive_finder, install_dataclass_code, pause_collection

pause_collection()  # for the whole run
finder = install_archive_finder(getattr(__loader__, "archive", ""))
try:
    code = finder.get_data(MEMBER) if finder is not None else None
except OSError:
    code = None
install_dataclass_code(code)
from lingjun.checks.cli import main  # noqa: E402 - after the finder and the dataclass code are in place

exit_frozen(main())
"""
_NAMESPACE_INIT = '"""lingjun: only the in-container checker is packed in this archive."""\n'


def _checks_dir() -> Path:
    return Path(lingjun.checks.__file__).resolve().parent


def _is_checkout(folder: Path) -> bool:
    """Whether ``folder`` is a checkout of this project (its ``pyproject.toml``, ``checks/`` and ``generator/``)."""
    return all((Path(folder) / name).is_file() for name in ("pyproject.toml", "checks/cli.py", "generator/zipapp.py"))


def other_checkout_problem(cwd: Path, checks_dir: Optional[Path] = None) -> Optional[str]:
    """Why ``bundle`` run in ``cwd`` may not write its data file, or None.

    The data file goes into the installed package (``<checks_dir>/data/bundle.json``, default the installed
    ``lingjun.checks``): in an editable install, the tracked file of the checkout installed.  When ``cwd`` is a
    checkout of this project and that package is not its own (the editable install of another checkout, or a
    regular install), writing would change a file of another checkout, and this checkout's data file would stay
    stale: refused, naming both.
    """
    installed = Path(checks_dir or _checks_dir()).resolve()
    here = Path(cwd).resolve()
    if not _is_checkout(here) or (here / "checks").resolve() == installed:
        return None
    which = (f"the editable install of the checkout {installed.parent}" if _is_checkout(installed.parent)
             else f"installed at {installed.parent}")
    return (f"this folder is a checkout ({here}), but the lingjun-kb that runs is {which}: bundle would rewrite "
            f"{installed / 'data' / 'bundle.json'}, not this checkout's; run this checkout's own "
            f"(`python3 -m venv .venv && .venv/bin/pip install -e .` here, then `.venv/bin/lingjun-kb bundle`); "
            "nothing was written")


def bundle_text(releases: Path, site_url: Optional[str] = None) -> tuple[Optional[str], list]:
    """``(bundle JSON text, problems)`` for a releases folder; the text is None when a problem is an error.

    Raises:
        ValueError: from :func:`resolve_site_url`.
    """
    text, _, problems = bundle_texts(releases, site_url)
    return text, problems


def bundle_texts(releases: Path, site_url: Optional[str] = None) -> tuple[Optional[str], Optional[str], list]:
    """``(bundle JSON text, error catalogs JSON text, problems)`` for a releases folder; both texts are None when a
    problem is an error, the catalogs' text also when ``releases/errors/`` holds no catalog.

    Raises:
        ValueError: from :func:`resolve_site_url`.
    """
    from lingjun.generator.bundle import bundle_json, compile_bundle, compile_error_catalogs  # deferred: pulls in pydantic, which other commands do not need
    from lingjun.schema.gate.validate import validate  # deferred: pulls in pydantic, which other commands do not need

    # the same gate as `lingjun-kb build` and `validate`: the loader's schema checks and every cross-record
    # rule (a draft from `lingjun-kb new` still holding placeholders is refused here too)
    result = validate([Path(releases)], root=Path(releases), checker_rules=checker_rule_ids())
    kb, problems = result.kb, result.problems
    if not result.ok:
        return None, None, problems
    base = resolve_site_url(Path(releases).resolve().parent, site_url)  # None: links to official pages
    catalogs = compile_error_catalogs(kb)
    return (bundle_json(compile_bundle(kb, site_url=base)) + "\n",
            bundle_json(catalogs) + "\n" if catalogs is not None else None, problems)


def _runtime_files(checks: Path) -> list[tuple[str, Path]]:
    out = []
    for path in sorted(checks.rglob("*")):
        rel = path.relative_to(checks)
        if not path.is_file() or "__pycache__" in rel.parts:
            continue
        if path.suffix == ".py" or rel.as_posix() in ("data/bundle.json", "data/" + CATALOGS_FILE):
            out.append(("lingjun/checks/" + rel.as_posix(), path))
    return out


#: parts of packaging the checker never imports: core metadata parsing and the SPDX licence-expression tables
#: (``packaging.metadata`` is the only module that imports ``packaging.licenses``); leaving them out keeps
#: about 30 KB of the archive's size budget for release data
_PACKAGING_UNUSED = ("metadata.py", "licenses/")


def _packaging_files() -> list[tuple[str, Path]]:
    pkg = Path(packaging.__file__).resolve().parent
    out = [("packaging/" + p.relative_to(pkg).as_posix(), p) for p in sorted(pkg.rglob("*.py"))
           if "__pycache__" not in p.parts and not p.relative_to(pkg).as_posix().startswith(_PACKAGING_UNUSED)]
    typed = pkg / "py.typed"
    if typed.exists():
        out.append(("packaging/py.typed", typed))
    licences = []
    for dist_info in pkg.parent.glob("packaging-*.dist-info"):
        licences += [p for p in sorted(dist_info.rglob("LICENSE*")) if p.is_file()]
        _require_py39(dist_info)
    if not licences:
        raise FileNotFoundError("the licence files of the installed packaging distribution were not found")
    out += [(f"packaging/{p.name}", p) for p in licences]
    return out


def _require_py39(dist_info: Path) -> None:
    """Refuse a packaging release that does not run on Python 3.9 (the checker's floor)."""
    try:
        text = (dist_info / "METADATA").read_text(encoding="utf-8")
    except OSError:
        return
    match = re.search(r"^Requires-Python:\s*(.+)$", text, re.MULTILINE)
    if match and "3.9" not in SpecifierSet(match.group(1).strip()):
        raise RuntimeError(
            f"installed packaging ({dist_info.name}) requires Python {match.group(1).strip()}; "
            "lingjun-check.pyz must run on Python 3.9: install packaging<26 (as pyproject.toml pins)"
        )


def _xz(content: bytes) -> bytes:
    """``content`` compressed with xz (the standard library's ``lzma``, preset 9 extreme; deterministic)."""
    import lzma  # deferred: only the archive's error catalogs use it

    return lzma.compress(content, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=9 | lzma.PRESET_EXTREME)


def zip_entries(bundle: Optional[str] = None, catalogs: Optional[str] = None) -> list[tuple[str, bytes]]:
    """``[(archive name, content)]`` of the zipapp, sorted by name.

    ``bundle`` replaces the content of ``checks/data/bundle.json`` when given, ``catalogs`` that of
    ``checks/data/error-catalogs.json``.

    Raises:
        FileNotFoundError: when the bundle or packaging's licence is missing.
    """
    entries: dict[str, bytes] = {"__main__.py": _MAIN.encode(), "lingjun/__init__.py": _NAMESPACE_INIT.encode()}
    for name, path in _runtime_files(_checks_dir()) + _packaging_files():
        content = path.read_bytes()
        # the checker's own modules without their docstrings (a quarter of the source, never read at run time;
        # the ConfigMap's 1 MiB), every line number kept for tracebacks
        entries[name] = blank_docstrings(content) if name.startswith("lingjun/") and name.endswith(".py") else content
    if bundle is not None:
        entries["lingjun/checks/data/bundle.json"] = bundle.encode("utf-8")
    if catalogs is not None:
        entries["lingjun/checks/data/" + CATALOGS_FILE] = catalogs.encode("utf-8")
    plain = entries.pop("lingjun/checks/data/" + CATALOGS_FILE, None)
    if plain is not None:  # xz: a quarter smaller than deflate; read only with a log (3.5 ms to unpack)
        entries["lingjun/checks/data/" + CATALOGS_FILE + ".xz"] = _xz(plain)
    if "lingjun/checks/data/bundle.json" not in entries:
        raise FileNotFoundError("checks/data/bundle.json is missing: run `lingjun-kb bundle`")
    _signatures_apart(entries)
    return sorted(entries.items())


def _signatures_apart(entries: dict[str, bytes]) -> None:
    """The bundle's error signatures (nine tenths of it) moved to ``signatures.json.xz``
    (:data:`lingjun.checks.knowledge.bundle.SIGNATURES_FILE`): read, and unpacked, only when a log is, so a check
    without one parses a tenth of the bundle, and xz keeps the archive a fifth smaller than deflate would."""
    from lingjun.checks.knowledge.bundle import SIGNATURES_FILE  # deferred: with the archive

    name = "lingjun/checks/data/bundle.json"
    bundle = json.loads(entries[name].decode("utf-8"))
    signatures = bundle.pop("signatures", None)
    if signatures is None:
        return
    entries[name] = (json.dumps(bundle, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    entries["lingjun/checks/data/" + SIGNATURES_FILE + ".xz"] = _xz(
        json.dumps(signatures, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


#: Modules shipped as source only: bytecode saves start-up time of the per-container check (bench/check.py,
#: target 0.2 s), while ``lingjun-check fleet`` runs once on an operator's machine over many snapshots, where
#: compiling its modules costs tens of milliseconds of seconds; without its bytecode the archive stays
#: within its size budget (tests/checks_core/test_checks_core_zipapp.py).
SOURCE_ONLY_PREFIXES = ("lingjun/checks/fleet/",)


def with_bytecode(entries: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """``entries`` plus, for each ``x.py`` outside :data:`SOURCE_ONLY_PREFIXES`, an ``x.pyc`` compiled by this
    interpreter, and the precompiled dataclass methods (:data:`lingjun.checks._startup.MEMBER`), sorted.

    The bytecode is an *unchecked hash-based* pyc (PEP 552): no timestamp, so
    the archive stays deterministic, and zipimport uses it without comparing
    it with the source.  zipimport ignores a ``.pyc`` whose magic number is
    not its own and compiles the ``.py`` instead, so other Python versions
    still run the archive, only without the start-up saving (the same holds
    for the dataclass code, see :mod:`lingjun.checks._startup`).

    Raises:
        RuntimeError: when the child interpreter that records the dataclass texts fails.
    """

    out = [(name, content) for name, content in entries if name != MEMBER]
    out += _compiled([(name, content) for name, content in entries
                      if name.endswith(".py") and not name.startswith(SOURCE_ONLY_PREFIXES)])
    out.append((MEMBER, dump(_dataclass_texts(entries))))
    return sorted(out)


#: compiles the sources it reads (JSON ``[[name, source], ...]`` on standard input) in a fresh interpreter and writes
#: ``[[name, marshalled code in hex], ...]``: marshal writes a string once and refers back to it only when the string
#: has other references, so code compiled in a process whose earlier work interned some of its names (a test run, a
#: site build) marshals differently; a fresh child interns the same names every time
_COMPILE = """import json, marshal, sys
rows = json.load(sys.stdin)
json.dump([[name, marshal.dumps(compile(text.encode("utf-8", "surrogateescape"), name, "exec", dont_inherit=True,
                                        optimize=0)).hex()] for name, text in rows], sys.stdout)
"""


def _compiled(sources: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """``[(name + "c", unchecked hash-based pyc)]`` of each ``(name, source)``, compiled by a child of this interpreter
    (``-I -S -B``: see :data:`_COMPILE`), so the bytes do not depend on what this process did before.

    Raises:
        RuntimeError: when the child fails (a source that does not compile).
    """
    rows = [[name, content.decode("utf-8", "surrogateescape")] for name, content in sources]
    result = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", _COMPILE], input=json.dumps(rows),
                            capture_output=True, text=True, timeout=120, cwd=tempfile.gettempdir())
    if result.returncode != 0:
        raise RuntimeError(f"compiling the archive's bytecode failed: {result.stderr.strip().splitlines()[-1:] or result.returncode}")
    content = dict(sources)
    return [(name + "c", _pyc_header(content[name]) + bytes.fromhex(code)) for name, code in json.loads(result.stdout)]


def _pyc_header(source: bytes) -> bytes:
    """The 16-byte header of an unchecked hash-based pyc of ``source`` (PEP 552) for this interpreter."""
    return importlib.util.MAGIC_NUMBER + (0b01).to_bytes(4, "little") + importlib.util.source_hash(source)


def pyc_entry(name: str, content: bytes) -> tuple[str, bytes]:
    """``(name + "c", bytecode)``: the unchecked hash-based pyc of the source ``content`` that :func:`with_bytecode`
    puts beside ``name`` (``bench/startup.py`` swaps one archive's ``__main__`` with it)."""
    code = compile(content, name, "exec", dont_inherit=True, optimize=0)
    return name + "c", _pyc_header(content) + marshal.dumps(code)


_RECORD = """\
import json, sys
sys.path.insert(0, sys.argv[1])
from lingjun.checks._startup import record_texts
json.dump(record_texts(sys.argv[2:]), sys.stdout)
"""


def _dataclass_texts(entries: list[tuple[str, bytes]]) -> list[str]:
    """The texts ``@dataclass`` compiles when the archive's modules are imported (see :mod:`lingjun.checks._startup`).

    The archive's files are written to a temporary folder and every module but ``__main__`` is
    imported there by a child of this interpreter, isolated (``-I -S``) so it sees only those files.

    Raises:
        RuntimeError: when the child fails.
    """

    modules = []
    with tempfile.TemporaryDirectory(prefix="lingjun-zipapp-") as folder:
        for name, content in entries:
            # os.path, not pathlib: pathlib interns the names, which would change how the
            # bytecode of a later build marshals its file names (the archive must stay deterministic)
            target = os.path.join(folder, *name.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(content)
            if name.endswith(".py") and name != "__main__.py" and not name.endswith("/__main__.py"):
                modules.append(name[:-3].replace("/", ".").removesuffix(".__init__"))
        result = subprocess.run(
            [sys.executable, "-I", "-S", "-B", "-c", _RECORD, folder, *sorted(modules)],
            capture_output=True, text=True, timeout=120, cwd=folder,
        )
    if result.returncode != 0:
        raise RuntimeError(f"recording the dataclass methods failed: {result.stderr.strip().splitlines()[-1:] or result.returncode}")
    return json.loads(result.stdout)


#: what :func:`is_previous_zipapp` recognises, for refusal messages
ZIPAPP_KIND = "a lingjun-check zipapp"
#: what :func:`lingjun.generator.configmap.is_previous_configmap` recognises, for refusal messages
CONFIGMAP_KIND = "a ConfigMap manifest written by `lingjun-kb bundle --configmap`"


def is_previous_zipapp(path: str) -> bool:
    """True when the regular file ``path`` is a zipapp this builder wrote: it starts with the
    builder's shebang line and is a zip archive holding ``lingjun/checks/`` modules.

    Only the first bytes and the zip directory are read; the file is opened without following a link.
    """
    if not read_prefix(path, len(_SHEBANG)) == _SHEBANG:
        return False
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        with os.fdopen(os.open(path, flags), "rb") as handle, zipfile.ZipFile(handle) as archive:
            return any(name.startswith("lingjun/checks/") for name in archive.namelist())
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return False


def zipapp_bytes(entries: Iterable[tuple[str, bytes]]) -> bytes:
    """The deterministic zipapp holding ``entries``: the shebang line, then a zip archive
    (deflated at level 9, an ``.xz`` entry stored as it is; every timestamp 1980-01-01, mode 0644)."""
    buffer = io.BytesIO()
    buffer.write(_SHEBANG)
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in entries:
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            # an entry compressed already (xz) is stored: deflate would only add its own overhead
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".xz") else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            archive.writestr(info, content, compresslevel=9)
    return buffer.getvalue()


def build_zipapp(output: Path, entries: Iterable[tuple[str, bytes]]) -> int:
    """Write a deterministic zipapp to ``output`` atomically; returns its size in bytes.

    Raises:
        UnsafeOutputPath: ``output`` exists and is not a zipapp this builder wrote
            (:func:`is_previous_zipapp`), or is not a regular file.
        OSError: the file cannot be written.
    """
    data = zipapp_bytes(entries)
    atomic_write(output, data, mode=0o755, make_parents=True, replaceable=is_previous_zipapp, ours=ZIPAPP_KIND)
    return len(data)


def cli_bundle(args: argparse.Namespace) -> int:
    """``lingjun-kb bundle [--releases DIR] [-o/--output FILE] [--site-url URL] [--configmap [--name N] [--namespace NS]]``.

    Without ``--configmap`` the zipapp is written to ``--output`` (default ``dist/lingjun-check.pyz``).
    With it, the same zipapp without the bytecode (:func:`with_bytecode`) goes into a ConfigMap
    manifest instead (:mod:`lingjun.generator.configmap`; default ``dist/lingjun-check-configmap.yaml``; ``-o -``
    prints it on standard output and the other lines go to standard error).

    The data file ``checks/data/bundle.json`` is written into the installed package; run in a checkout whose
    package is not the one installed, the command refuses (:func:`other_checkout_problem`).

    Returns the exit code: 0 ok, 1 data errors or a ConfigMap above 1 MiB, 2 I/O, a bad site URL,
    another checkout's package installed,
    a bad ``--name``/``--namespace`` (or either without ``--configmap``), or an ``--output`` that is not a new file or one this command
    wrote before (:func:`~lingjun.checks.core.atomic_write.check_output_file` with
    :func:`is_previous_zipapp` or :func:`~lingjun.generator.configmap.is_previous_configmap`: a folder,
    link, FIFO, socket, device or any other file is never replaced; checked before any work).
    """

    releases = Path(getattr(args, "releases", None) or "releases")
    given = getattr(args, "output", None)
    as_configmap = bool(getattr(args, "configmap", False))
    default = "dist/lingjun-check-configmap.yaml" if as_configmap else "dist/lingjun-check.pyz"
    output = Path(default) if given is None else given
    to_stdout = as_configmap and os.fspath(output) == "-"
    say = sys.stderr if to_stdout else sys.stdout
    replaceable, kind = (cm.is_previous_configmap, CONFIGMAP_KIND) if as_configmap else (is_previous_zipapp, ZIPAPP_KIND)
    given_name, namespace = getattr(args, "name", None), getattr(args, "namespace", None)
    name = "lingjun-check" if given_name is None else given_name
    if not as_configmap and (given_name is not None or namespace is not None):
        print("lingjun-kb bundle: --name and --namespace name the ConfigMap: use them with --configmap", file=sys.stderr)
        return 2
    for flag, value, check in (("--name", name, cm.check_name), ("--namespace", namespace, cm.check_namespace)):
        try:
            if value is not None:
                check(value)
        except ValueError as exc:
            print(inert(f"lingjun-kb bundle: {flag} {capped(value, NAME_LIMIT)}: {exc}"), file=sys.stderr)
            return 2
    problem = other_checkout_problem(Path.cwd())
    if problem:
        print(inert(f"lingjun-kb bundle: {problem}"), file=sys.stderr)
        return 2
    target = _checks_dir() / "data" / "bundle.json"
    catalogs_target = _checks_dir() / "data" / CATALOGS_FILE
    try:  # the data files, before any work too
        check_output_file(target)
        check_output_file(catalogs_target)
    except OSError as exc:
        print(inert(f"lingjun-kb bundle: {capped(str(target), NAME_LIMIT)}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    if not to_stdout:
        try:
            check_output_file(output, replaceable, kind)
        except OSError as exc:
            print(inert(f"lingjun-kb bundle: --output {capped(os.fspath(output), NAME_LIMIT)}: {exc.strerror or exc}"), file=sys.stderr)
            return 2
        output = Path(output)
    try:
        text, catalogs, problems = bundle_texts(releases, getattr(args, "site_url", None))
    except ValueError as exc:
        print(inert(f"lingjun-kb bundle: {exc}"), file=sys.stderr)
        return 2
    if text is None:
        errors = [p for p in problems if getattr(p, "is_error", False)]
        first = errors[0].format() if errors and hasattr(errors[0], "format") else str(errors[0]) if errors else ""
        print(inert(f"lingjun-kb bundle: {releases} has {len(errors)} error(s), first {first}; nothing written "
                    f"(`lingjun-kb validate {releases}` lists them all)"), file=sys.stderr)
        return 1
    for problem in problems:  # warnings: the bundle is written (the gate's notes are `validate`'s to show)
        if str(getattr(getattr(problem, "severity", None), "value", "")) != "info":
            line = problem.format() if hasattr(problem, "format") else inert(str(problem))
            print(line, file=sys.stderr)
    try:
        atomic_write(target, text.encode("utf-8"), make_parents=True)
        if catalogs is not None:
            atomic_write(catalogs_target, catalogs.encode("utf-8"), make_parents=True)
        if as_configmap:
            # no bytecode: with it the archive is above the 1 MiB a ConfigMap may hold, and the image's
            # Python, usually not the one building this, would ignore it anyway (see lingjun.generator.configmap)
            pyz = zipapp_bytes(zip_entries(text, catalogs))
            manifest = cm.configmap_yaml(cm.configmap_object(pyz, name, namespace))
            if to_stdout:
                sys.stdout.write(manifest)
                sys.stdout.flush()
            else:
                atomic_write(output, manifest.encode("utf-8"), make_parents=True, replaceable=replaceable, ours=kind)
            size = len(manifest.encode("utf-8"))
        else:
            size = build_zipapp(output, with_bytecode(zip_entries(text, catalogs)))
    except cm.ConfigMapTooLarge as exc:
        print(inert(f"lingjun-kb bundle: {exc}; nothing written"), file=sys.stderr)
        return 1
    except OSError as exc:
        print(inert(f"lingjun-kb bundle: {capped(str(exc.filename or output), NAME_LIMIT)}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    except RuntimeError as exc:
        print(inert(f"lingjun-kb bundle: {exc}"), file=sys.stderr)
        return 2
    print(inert(f"wrote {target} ({len(text.encode('utf-8'))} bytes)"), file=say)
    if catalogs is not None:
        print(inert(f"wrote {catalogs_target} ({len(catalogs.encode('utf-8'))} bytes)"), file=say)
    if as_configmap:
        where = "standard output" if to_stdout else str(output)
        share = 100 * cm.payload_bytes(cm.configmap_object(pyz, name, namespace)) / cm.CONFIGMAP_LIMIT
        print(inert(f"wrote {where} ({size} bytes: ConfigMap {name} holding {len(pyz)} bytes of {cm.PYZ_KEY}, "
                    f"{share:.1f} % of the limit of {cm.CONFIGMAP_LIMIT}; create it with `kubectl create -f`, not client-side `kubectl apply`)"),
              file=say)
    else:
        print(inert(f"wrote {output} ({size} bytes)"), file=say)
    return 0
