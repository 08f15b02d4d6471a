"""The ``lingjun-kb`` command.

Sub-commands::

    lingjun-kb validate [PATH ...]        check release data (default: releases/)
    lingjun-kb new FAMILY VERSION         start releases/FAMILY/VERSION.yaml from the previous release
    lingjun-kb import PAGE                draft a release record from an official release-note page
    lingjun-kb schema [--check]           write (or check) schema/<kind>.schema.json
    lingjun-kb which --driver V --gpu M   every release's verdict for a driver and GPU
    lingjun-kb build                      build the static site
    lingjun-kb serve                      build and serve the site locally
    lingjun-kb bundle [--configmap]       build the lingjun-check zipapp (or a ConfigMap manifest holding it)

Exit status: 0 success, 1 problems found (validation errors, stale schema,
refused ``new``), 2 usage errors (bad arguments, missing paths, a path the
system refuses, a refused output path or one whose folder cannot take a file:
a path through a file, a read-only file system; a sub-command whose
implementation is not installed), 130 interrupted (Ctrl-C): one line, never a traceback.

``validate --format json`` prints one JSON array, one object per problem
with the fields ``path``, ``line``, ``col`` (1-based; null when the file
could not be read), ``field`` (dotted path, "" for the whole file),
``message``, ``severity`` (error, warning, info) and ``rule``; see
:mod:`lingjun.schema.gate.report`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import stat
import sys
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence, TextIO

from lingjun.checks.core.arg_parser import InertArgumentParser
from lingjun.checks.core.atomic_write import UnsafeOutputPath, check_output_folder
from lingjun.checks.core.inert_text import NAME_LIMIT, capped, error_line, remember_inputs
from lingjun.checks.core.registry import RegistrationError
from lingjun.generator._interrupt import install, interrupted
from lingjun.generator._listen_address import check_host
from lingjun.generator.checker_ids import checker_rule_ids

__all__ = ["main", "build_parser"]

_VALIDATE_EPILOG = """\
Which problems are reported: with no PATH (or the releases folder itself) all
of them. With some files, the whole releases tree they belong to (nearest
folder above holding families.yaml, or --root) is still loaded so references
resolve, but only problems in the named files are reported and can fail the
run; problems elsewhere are counted. Naming a catalog or reference file
(families, components, cuda-drivers, driver-branches) reports everything.

Text format: path:line:col: field.path: message [severity rule]

JSON format (--format json): a JSON array on stdout, one object per problem:
  path      file as named on the command line
  line, col 1-based position, null when the file could not be read
  field     dotted field path inside the document ("" = whole file)
  message   what is wrong and how to fix it
  severity  "error" | "warning" | "info" (only errors fail validation)
  rule      file.*, yaml.*, schema.* (loader), data.* (gate rules), internal

GitHub format: ::error/::warning/::notice file=..,line=..,col=..,title=<rule>::message

Exit status: 0 no errors, 1 errors, 2 usage problems, 130 interrupted.
"""

#: the largest ``validate --max-bytes`` accepted (1 GiB): a file is read whole into memory
MAX_BYTES_LIMIT = 1 << 30


def _max_bytes(value: str) -> int:
    """``validate --max-bytes``: a whole number from 1 to :data:`MAX_BYTES_LIMIT` (the text is never echoed whole)."""
    text = value.strip()
    number = int(text) if text.isdigit() and len(text) <= 12 else 0
    if not 0 < number <= MAX_BYTES_LIMIT:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MAX_BYTES_LIMIT} (1 GiB)")
    return number


def _host(value: str) -> str:
    """``serve --host``: an address or host name (:func:`lingjun.generator._listen_address.check_host`)."""
    try:
        return check_host(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _port(value: str) -> int:
    """``serve --port``: a whole number from 0 to 65535 (the text is never echoed whole)."""
    text = value.strip()
    number = int(text) if text.isdigit() and len(text) <= 5 else -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError("must be a whole number from 0 to 65535 (0: a free port)")
    return number


def _path_or_empty(value: str) -> "Path | str":
    """An output path option: a ``Path``, or ``""`` kept as is so it can be refused (``Path("")`` is ``.``)."""
    return Path(value) if value else ""


def _say(message: str, file: Optional[TextIO] = None) -> None:
    """Print one line whose values come from input (paths, names, exception texts) made inert, every name in it
    at most 256 characters (:func:`lingjun.checks.core.inert_text.error_line`)."""
    print(error_line(message), file=file)


def _add_site_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--releases", type=Path, default=Path("releases"), metavar="DIR",
                        help="releases folder (default: releases)")
    parser.add_argument("--site-dir", type=_path_or_empty, default=Path("site"), metavar="DIR",
                        help="output folder of the site (default: site); it must be absent or a site an earlier "
                             "build made (it holds a .lingjun-kb-site file): never the checkout, a source folder, "
                             "a link, a file or a device")
    parser.add_argument("--site-url", default=None, metavar="URL",
                        help="public URL of the site (Chinese at URL/zh/): absolute canonical links, sitemaps "
                             "and feed links (default: $LINGJUN_KB_SITE_URL, else site_url in mkdocs.yml, "
                             "else none: relative links, empty sitemaps)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``lingjun-kb`` (every sub-command and option)."""
    parser = InertArgumentParser(
        prog="lingjun-kb",
        description="Release notes and compatibility knowledge base of Alibaba Cloud Lingjun / ACS AI container images.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = sub.add_parser(
        "validate", help="check release data: schema per file, then cross-record rules",
        description="Validate release data files: YAML safety, the schema of each document, then the "
                    "cross-record rules of the release-data gate.",
        epilog=_VALIDATE_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    validate.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                          help="files or folders to validate (default: releases)")
    validate.add_argument("--root", type=Path, metavar="DIR",
                          help="releases root giving context to the named files (default: nearest folder with families.yaml)")
    validate.add_argument("--format", choices=("text", "github", "json"), default="text",
                          help="output format (default: text)")
    validate.add_argument("--max-bytes", type=_max_bytes, default=None, metavar="N",
                          help=f"largest file accepted, in bytes, 1 to {MAX_BYTES_LIMIT} (default: 1048576)")
    validate.add_argument("--quiet", "-q", action="store_true", help="do not print the release table on success")
    validate.add_argument("--list-rules", action="store_true", help="list the cross-record rules and exit")

    new = sub.add_parser("new", help="start a release record from the family's previous release",
                         description="Write releases/FAMILY/RELEASE.yaml from the newest older release of FAMILY (in date order): "
                                     "components, tags, driver and usage notes are copied; highlights, bug fixes, "
                                     "known issues and sources get placeholders that fail validation until filled in.")
    new.add_argument("family", help="family id, e.g. training-nv-pytorch")
    new.add_argument("version", metavar="release",
                     help="release: a month YY.MM (25.11), a date YYYY-MM-DD (2026-10-20) or the page's own "
                          "lower-case name (sglang0.5.4.post3-250105, with --release-date)")
    new.add_argument("--release-date", default=None, metavar="YYYY-MM-DD",
                     help="the date the page gives, for a release whose name gives none (places it among the "
                          "family's releases; written as released, of kind page-published)")
    new.add_argument("--releases", type=Path, default=Path("releases"), metavar="DIR",
                     help="releases folder (default: releases)")

    page = sub.add_parser("import", help="draft a release record from an official release-note page",
                          description="Read an official release-note page (its \"copy as Markdown\" text or saved "
                                      "HTML) and write a draft record with every value the page states; what the "
                                      "page cannot give (the other language, the summary) gets placeholders that "
                                      "fail validation until filled in. Never overwrites: when the release is "
                                      "already recorded, the values that disagree are printed as source_conflicts "
                                      "entries instead.")
    page.add_argument("page", type=Path, metavar="PAGE", help="the page file (.md/.txt copy or saved .html)")
    page.add_argument("--family", default=None, metavar="F", help="family id, when the page does not name it")
    page.add_argument("--release", default=None, metavar="R",
                      help="release identifier (25.11, 2026-10-20, a tag name), when the page does not name it")
    page.add_argument("--lang", choices=("en", "zh", "id"), default=None,
                      help="the page's language (default: recognised from the text)")
    page.add_argument("-o", "--output", type=_path_or_empty, default=None, metavar="FILE",
                      help="file to create (default: releases/FAMILY/RELEASE.yaml; with an existing record the "
                           "conflicts are printed); - prints; an existing file is never replaced")
    page.add_argument("--releases", type=Path, default=Path("releases"), metavar="DIR",
                      help="releases folder (default: releases)")

    schema = sub.add_parser("schema", help="write the JSON Schema of every document kind",
                            description="Write schema/<kind>.schema.json (draft-07) from the pydantic models.")
    schema.add_argument("--out", default=None, metavar="DIR",
                        help="output folder (default: the schema/ folder of this checkout)")
    schema.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a committed schema file differs from the models")

    build = sub.add_parser("build", help="build the static site")
    _add_site_args(build)
    serve = sub.add_parser("serve", help="build the site and serve it locally")
    _add_site_args(serve)
    serve.add_argument("--host", type=_host, default="127.0.0.1", metavar="ADDRESS",
                       help="address or host name to listen on (default: 127.0.0.1, this machine only); every "
                            "interface only when typed out as 0.0.0.0 or ::, never from an empty value")
    serve.add_argument("--port", type=_port, default=8000, metavar="N",
                       help="port, 0 to 65535 (default: 8000; 0 picks a free one, printed when serving)")
    bundle = sub.add_parser("bundle", help="build the lingjun-check zipapp with the knowledge base embedded")
    bundle.add_argument("--releases", type=Path, default=Path("releases"), metavar="DIR",
                        help="releases folder (default: releases)")
    bundle.add_argument("-o", "--output", type=_path_or_empty, default=None, metavar="FILE",
                        help="file to write (default: dist/lingjun-check.pyz, or dist/lingjun-check-configmap.yaml "
                             "with --configmap, where - is standard output); only a new file or one this command "
                             "wrote is replaced, never a folder, link, FIFO, socket, device or other file")
    bundle.add_argument("--configmap", action="store_true",
                        help="write the zipapp as a Kubernetes ConfigMap manifest (binaryData key lingjun-check.pyz) "
                             "instead; create it with `kubectl create -f` or `kubectl apply --server-side -f`")
    bundle.add_argument("--name", default=None, metavar="NAME",
                        help="with --configmap: the ConfigMap's name (default: lingjun-check)")
    bundle.add_argument("--namespace", default=None, metavar="NS",
                        help="with --configmap: the ConfigMap's namespace (default: none, kubectl's -n decides)")
    bundle.add_argument("--site-url", metavar="URL", default=None,
                        help="base URL of the published site the checker links to (default: $LINGJUN_KB_SITE_URL, "
                             "else mkdocs.yml site_url, else none: reports link to the official release pages "
                             "and upstream documents)")
    which = sub.add_parser("which", help="every release's verdict for a driver and a GPU model",
                           description="Print first, per product family for NVIDIA GPUs, the release to use on a driver "
                                       "and GPU (or the driver to install) and the driver branch's lifecycle; then, for "
                                       "every release of those families, whether it runs: native, forward-compat, "
                                       "minor-compat, unsupported or not-stated, with the reason. The same answer as the "
                                       "site's finder page.")
    which.add_argument("--driver", required=True, metavar="V", help="driver version (535.183.01) or branch (R535, 535)")
    which.add_argument("--gpu", required=True, metavar="MODEL", help="GPU model, e.g. H20 or 'RTX 4090' (see releases/reference/gpus.yaml)")
    which.add_argument("--family", default=None, metavar="F", help="only this family's releases")
    shown = which.add_mutually_exclusive_group()
    shown.add_argument("--all-families", action="store_true",
                       help="every family's releases, PPU images and base images (NGC PyTorch) too (default: the "
                            "product families for NVIDIA GPUs)")
    shown.add_argument("--accelerator", choices=("nvidia-gpu", "ppu"), default=None,
                       help="every family of this accelerator, products and base images")
    which.add_argument("--today", default=None, metavar="YYYY-MM-DD",
                       help="the day the driver branch's end of life is compared with (default: today)")
    which.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    which.add_argument("--releases", type=Path, default=Path("releases"), metavar="DIR",
                       help="releases folder (default: releases)")
    which.add_argument("--site-url", metavar="URL", default=None,
                       help="site the release links point to (default: $LINGJUN_KB_SITE_URL, else mkdocs.yml site_url, "
                            "else the official release pages)")
    return parser


def _cmd_validate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from lingjun.schema.gate.report import print_github, print_json, print_text  # deferred: pulls in pydantic, yaml, which other commands do not need
    from lingjun.schema.gate.runner import load_rules  # deferred: pulls in pydantic, yaml, which other commands do not need
    from lingjun.schema.gate.validate import validate  # deferred: pulls in pydantic, yaml, which other commands do not need
    from lingjun.schema.loader import DEFAULT_LIMITS, LoadLimits  # deferred: pulls in pydantic, yaml, which other commands do not need

    if args.list_rules:
        for rule in load_rules().values():
            print(f"{rule.id:32} {rule.severity.value:8} {rule.description}")
        return 0
    paths = args.paths or [Path("releases")]
    missing = [reason for reason in map(_unusable_reason, paths) if reason]
    if missing:
        parser.error("; ".join(missing))
    if args.root is not None and not _is_dir(args.root):
        parser.error(f"--root {_name(args.root)} is not a folder")
    limits = LoadLimits(max_bytes=args.max_bytes) if args.max_bytes else DEFAULT_LIMITS
    try:
        result = validate(paths, root=args.root, limits=limits, checker_rules=checker_rule_ids())
    except RegistrationError:
        raise  # main() words it: which module, and how to fix it
    except Exception as exc:  # noqa: BLE001 - a bug must end in one line and status 1, never a traceback
        _say(f"lingjun-kb validate: internal error: {type(exc).__name__}: {exc}; please report it", file=sys.stderr)
        return 1
    status = 0 if result.ok else 1
    with _closed_pipe_ok():
        if args.format == "json":
            print_json(result.problems, sys.stdout)
        elif args.format == "github":
            print_github(result, sys.stdout, summary=not args.quiet)
        else:
            print_text(result, sys.stdout, summary=not args.quiet)
        sys.stdout.flush()
    return status


def _name(path: object) -> str:
    """A path as quoted inside an error line: cut to NAME_LIMIT characters, so the reason after it is always seen."""
    return capped(os.fspath(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path), NAME_LIMIT)


def _unusable_reason(path: Path) -> Optional[str]:
    """Why a path given on the command line cannot be used (None when it exists).

    Only ``stat``/``lstat`` are used: a name the system refuses (too long, a
    loop of links, no permission) is a reason, never an exception.
    """
    try:
        os.stat(path)
        return None
    except OSError as exc:
        error = exc
    shown = _name(path)
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            return f"{shown} is a symbolic link to nothing (broken, or a loop of links)"
    except OSError:
        pass
    if isinstance(error, FileNotFoundError):
        return f"no such file or folder: {shown}"
    return f"{shown}: {error.strerror or error}"


def _is_dir(path: Path) -> bool:
    """``path.is_dir()`` that is False, not an OSError, for a name the system refuses."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


@contextlib.contextmanager
def _closed_pipe_ok() -> Iterator[None]:
    """Let the reader of standard output stop early (``lingjun-kb validate | head``) without a traceback.

    The exit status stays what validation decided; Python's own flush at
    exit is pointed at /dev/null so it does not fail a second time.
    """
    try:
        yield
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _cmd_new(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from lingjun.generator.new_release import NewReleaseError, NewReleaseUsageError, new_release  # deferred: pulls in pydantic, yaml, which other commands do not need

    if not args.releases.is_dir():
        parser.error(f"--releases {_name(args.releases)} is not a folder")
    try:
        made = new_release(args.releases, args.family, args.version, args.release_date)
    except NewReleaseUsageError as exc:
        parser.error(str(exc))
    except UnsafeOutputPath as exc:  # the record's folder cannot take it: refused before any work, exit 2
        _say(f"lingjun-kb new: {_name(exc.filename)}: {exc.strerror}", file=sys.stderr)
        return 2
    except NewReleaseError as exc:
        _say(f"lingjun-kb new: {exc}", file=sys.stderr)
        return 1
    _say(f"wrote {made.path} from {made.previous}")
    if made.newer:
        _say(f"status: superseded, because {made.newer[-1]} is newer (only a family's newest release is current)")
    steps = [f"replace the {made.placeholders} placeholders marked TODO(lingjun-kb new) (or delete those entries)"]
    if made.carried:
        steps.append(f"confirm against this release's page the {made.carried} values marked carried_over (copied from "
                     f"{made.previous.stem}), deleting each mark or changing the value")
    steps += [f"set `status: superseded` in {ref} ({path})" for ref, path in made.to_supersede]
    _say(f"next: {', '.join(steps)}, then run `lingjun-kb validate {made.path}`")
    return 0


def _cmd_schema(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    if args.out == "":
        _say("lingjun-kb schema: --out is empty; give the folder the schema files go to", file=sys.stderr)
        return 2
    if args.out is not None and not args.check:  # before the models are loaded: a refused folder costs no work
        try:
            if os.path.lexists(args.out) and not _is_dir(Path(args.out)):
                parser.error(f"--out {_name(args.out)} is not a folder")
            check_output_folder(args.out)
        except UnsafeOutputPath as exc:
            _say(f"lingjun-kb schema: --out {_name(args.out)}: {exc.strerror}; nothing was written", file=sys.stderr)
            return 2
    from lingjun.schema.export import SCHEMA_DIR, check_schema_targets, render_schema, schema_file_name, write_schemas  # deferred: pulls in pydantic, which other commands do not need
    from lingjun.schema.models import DOCUMENT_MODELS  # deferred: pulls in pydantic, which other commands do not need

    out = SCHEMA_DIR if args.out is None else Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"--out {_name(out)} is not a folder")
    if args.check:
        stale = []
        for kind in sorted(DOCUMENT_MODELS):
            path = out / schema_file_name(kind)
            reason = _schema_file_state(path, render_schema(kind))
            if reason:
                stale.append(path)
                _say(f"{path} is stale or missing ({reason}); run `lingjun-kb schema`", file=sys.stderr)
        if not stale:
            _say(f"schemas in {out} are up to date")
        return 1 if stale else 0
    try:
        check_schema_targets(out)  # every target before the first is written
        written = write_schemas(out)
    except UnsafeOutputPath as exc:
        _say(f"lingjun-kb schema: --out {_name(out)}: {_name(exc.filename or out)} {exc.strerror}; "
             "nothing was written", file=sys.stderr)
        return 2
    except OSError as exc:  # the system refused a write after the checks (a full disk): a path it refuses, exit 2
        _say(f"lingjun-kb schema: cannot write into {_name(out)}: {exc.strerror or exc} "
             f"({_name(exc.filename or out)}); files already there are unchanged or fully replaced", file=sys.stderr)
        return 2
    for path in written:
        _say(f"wrote {path}")
    return 0


def _schema_file_state(path: Path, expected: str) -> Optional[str]:
    """None when ``path`` holds ``expected``; otherwise why not (missing, unreadable, not UTF-8, differs)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    try:
        current = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8 text: corrupted"
    return None if current == expected else "differs from what the models give"


def _delegate(module: str, function: str) -> Callable[[argparse.Namespace, argparse.ArgumentParser], int]:
    """A handler importing ``module.function(args) -> int`` only when the sub-command runs."""

    def handler(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
        try:
            func = getattr(importlib.import_module(module), function)
        except (ImportError, AttributeError) as exc:
            print(f"lingjun-kb {args.command}: not available in this installation ({module}.{function}: {exc})",
                  file=sys.stderr)
            return 2
        return int(func(args))

    return handler


_HANDLERS = {
    "validate": _cmd_validate,
    "new": _cmd_new,
    "import": _delegate("lingjun.generator.importer", "cli_import"),
    "schema": _cmd_schema,
    "build": _delegate("lingjun.generator.site", "cli_build"),
    "serve": _delegate("lingjun.generator.site", "cli_serve"),
    "bundle": _delegate("lingjun.generator.zipapp", "cli_bundle"),
    "which": _delegate("lingjun.generator.which", "cli_which"),
}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``lingjun-kb`` with ``argv`` (default: the process arguments); returns the exit status."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            # a terminal or CI log that is not UTF-8 gets \uXXXX for what it cannot show, not a UnicodeEncodeError
            stream.reconfigure(errors="backslashreplace")

    install()

    remember_inputs(list(sys.argv[1:] if argv is None else argv))  # long values shortened in every error line
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = _HANDLERS[args.command](args, parser)
        if interrupted() and status == 0:  # a Ctrl-C whose KeyboardInterrupt was swallowed: still not a success
            print(f"lingjun-kb {args.command}: interrupted", file=sys.stderr)
            return 130
        return status
    except RegistrationError as exc:  # a rule module without its decorator: the contributor's fix, in one line
        _say(f"lingjun-kb {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: one line and the shell's status for SIGINT, not a traceback
        print(f"lingjun-kb {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a path the system refuses (name too long, loop of links, no permission): one line
        where = f"{_name(exc.filename)}: " if exc.filename is not None else ""
        _say(f"lingjun-kb {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
