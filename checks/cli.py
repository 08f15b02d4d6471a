"""``lingjun-check``: check this container against the release it claims to be.

Entry points: the console script ``lingjun-check``, ``python -m lingjun.checks``
and ``python3 lingjun-check.pyz``; all call :func:`main`.  Only the standard
library and :mod:`packaging` are imported.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import os
import sys
import time
from typing import Optional, Sequence

import lingjun.checks as package
from lingjun.checks._startup import pause_collection, resume_collection
from lingjun.checks.context import CheckContext, CheckOptions
from lingjun.checks.core.arg_parser import InertArgumentParser, ascii_int
from lingjun.checks.core.cluster_name import (
    CLUSTER_SOURCES,
    ClusterNameError,
    cluster_identity,
    cluster_problem,
)
from lingjun.checks.core.inert_text import NAME_LIMIT, capped, error_line, inert, remember_inputs
from lingjun.checks.core.node_name import clean_node_name, node_identity
from lingjun.checks.coverage import log_only_facts
from lingjun.checks.evidence import Evidence, nothing_to_read
from lingjun.checks.facts import MAX_GPUS_PER_POD, NODE_SOURCES, NodeFacts
from lingjun.checks.inputs.recorded_options import identify_with, merged_options
from lingjun.checks.knowledge.bundle import BundleError, KnowledgeData, embedded_signatures
from lingjun.checks.knowledge.identify import UnknownReleaseError
from lingjun.checks.report.model import EXIT_USAGE, exit_code
from lingjun.checks.report.render_json import render_json
from lingjun.checks.runner import CHECKER_RULE_IDS, load_rules, run_rules

__all__ = ["main", "__version__", "default_lang", "build_parser"]

__version__ = "0.1.0"

EPILOG = """\
exit codes:
  0  no error findings (warnings allowed unless --strict)
  1  at least one error finding (and with --require-gpu: no NVIDIA driver)
  2  warnings found and --strict given
  3  usage error (bad option, an empty option value, unknown --release, unreadable --from/--data file,
     a --collect or --output path that is not a new or regular file), a report standard output refuses, or internal failure
  130 interrupted (Ctrl-C)
  With --format npd they become node-problem-detector's: 0 -> 0, 1 and 2 -> 1, anything else -> 2 (Unknown).

release:
  --release, LINGJUN_RELEASE and the image's /etc/lingjun/release.json name a release as
  FAMILY:RELEASE (training-nv-pytorch:25.07, training-xpu-pytorch:2026-10-20,
  inference-xpu-pytorch-opt:sglang0.5.4.post3-250105), FAMILY:RELEASE#VARIANT
  (inference-nv-pytorch:25.04#vllm) or as one of its image tags, exactly as published:
  25.04-vllm0.8.5-pytorch2.6-cu124-20250430-serverless, training-nv-pytorch:25.07-serverless,
  egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/training-nv-pytorch:25.07-serverless
  or the acs-registry-vpc.<region-id>.cr.aliyuncs.com/... form; a tag also names the image (variant)
  of a release that publishes several. An unknown or ambiguous --release is a usage
  error (exit 3) that names the close spellings ("did you mean ...?"); a release the official pages name
  but the data does not record yet is reported as such and checked as an unidentified one; an unknown LINGJUN_RELEASE or manifest value is a release.identified warning
  naming the known releases, and the release is then chosen from installed component versions.

fleet:
  lingjun-check fleet PATH... checks the snapshots (--collect) or JSON reports of many nodes and
  reports the facts that differ between them; see lingjun-check fleet --help.

node:
  --node-name NAME, else the NODE_NAME variable (Kubernetes downward API, fieldRef spec.nodeName), else
  the host name (only with --include-ids) names the node in the snapshot and the JSON report ("node").
  A snapshot read with --from keeps the node it names unless --node-name is given.
  --cluster NAME, else the LINGJUN_CLUSTER variable (the manifests set it), names the node's cluster there
  too ("node": {"cluster": ...}), so `lingjun-check fleet` keeps nodes of one name in two clusters apart:
  1 to 63 letters, digits and . _ : -, starting with a letter or digit; any other value is refused with one
  line (exit 3). A snapshot read with --from keeps its cluster unless --cluster is given.

recorded options:
  A snapshot records the options that change findings or the exit code ("check_options": --require-gpu,
  --strict, --gpus-per-pod, --release as given, --model). --from and lingjun-check fleet re-check it with them,
  as its own run did; options given with --from add to them (a flag turns it on, a value replaces the recorded one).

files:
  --collect - writes the snapshot as one JSON line to standard output and the report (text, or
  --format json) to standard error instead, so `kubectl logs` carries both and
  `lingjun-check --collect - > snap.json` keeps only the snapshot.
  --collect writes a snapshot (schema lingjun-check/snapshot/1, see snapshot.schema.json) and
  says where on stderr; it creates FILE or replaces a regular file, never a folder, link, FIFO,
  socket or device (/dev/null, /dev/stdout). Never in it: variables named like secrets (*TOKEN*, *KEY*, *PASS*, *PW*...),
  credentials in values (user:password@, ?access_token=...). Not in it unless --include-ids: host
  names, GPU UUIDs, MASTER_ADDR, NCCL_COMM_ID and other variables naming a peer, IP addresses
  (only whether an interface has one) and the user names of home directories (/home/***/).
  --format json prints a report of schema lingjun-check/report/1 (see report.schema.json).
  -o/--output FILE writes the report (any format) to FILE atomically (a temporary file in the same
  folder, then a rename) instead of standard output; like --collect it replaces only a regular file
  that holds an earlier report of ours, never a folder, link, FIFO, socket, device or other file.

monitoring:
  --format prometheus prints gauges for node-exporter's textfile collector (no sample timestamps), at
  most 20 series plus one per GPU: lingjun_check_run_success, _exit_code, _last_run_timestamp_seconds,
  _last_success_timestamp_seconds, _findings_by_severity{severity} (5), _findings{rule,severity} (errors
  and warnings only, at most 10), _info{version,release,...} and _gpu_info{gpu,model_name}. hostname and
  uuid labels only with --include-ids; hostname is the node name (--node-name, NODE_NAME) when known, else
  the host name. Use: --format prometheus -o /var/lib/node_exporter/textfile/lingjun.prom
  With -o: one writer per folder (a lock on it; a second run waits up to 30 s), refused when another *.prom
  file there holds these metrics, and a failed run (exit 3) replaces the file with run_success 0, its exit
  code and the time of the last good run.
  --format npd prints one line of at most 80 bytes for a node-problem-detector custom plugin, the key
  finding first (ERROR driver.minimum: ... (+2)), and exits as NPD expects: 0 OK; 1 a problem (errors,
  or warnings with --strict); 2 Unknown (usage error, unreadable input, internal error), with an
  "UNKNOWN lingjun-check: ..." line. Config: deploy/node-problem-detector/lingjun-check-monitor.json.
"""


#: The options taking a file name or other text (option -> dest): an empty value names nothing, a usage error.
TEXT_OPTIONS = {
    "--from": "from_file",
    "--from-collect-env": "from_collect_env",
    "--root": "root",
    "--release": "release",
    "--data": "data",
    "--deepspeed-config": "deepspeed_config",
    "--model": "model",
    "--collect": "collect",
    "--output": "output",
    "--node-name": "node_name",
    "--cluster": "cluster",
}


def default_lang(environ: Optional[dict] = None) -> str:
    """``"zh"`` when the first set of LC_ALL, LC_MESSAGES, LANG starts with ``zh``, else ``"en"``."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def build_parser() -> "argparse.ArgumentParser":
    """The argument parser (usage errors exit with code 3)."""
    parser = InertArgumentParser(
        usage_exit=EXIT_USAGE,
        prog="lingjun-check",
        description="Check a Lingjun / ACS AI container (driver, CUDA, libraries, packages, environment, configuration) "
        "against the release record it was built from. Reads files and metadata only; never imports torch.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_argument_group("what to check")
    exclusive = source.add_mutually_exclusive_group()
    exclusive.add_argument("--from", dest="from_file", metavar="FILE",
                           help="check a snapshot written by --collect instead of this system (- reads it from standard input)")
    exclusive.add_argument("--from-collect-env", metavar="FILE", help="check the text printed by `python -m torch.utils.collect_env`")
    source.add_argument("--log", action="append", metavar="FILE",
                        help="a log of the failed job (plain, kubectl logs --prefix, NCCL_DEBUG=INFO, a traceback, dmesg); "
                             "its error lines are matched to known causes. Repeatable; - : standard input")
    source.add_argument("--log-only", action="store_true",
                        help="judge the logs alone, without probing this machine (for a log of another machine or pod; "
                             "also chosen by itself for a kubectl logs --prefix log read outside a pod)")
    source.add_argument("--root", default="/", metavar="DIR",
                        help="filesystem root to probe (default /). Only for / are libraries loaded (ctypes) and "
                             "programs run: with another DIR, DIR/usr/bin/nvidia-smi is looked for but not run "
                             "unless --run-root-programs is given")
    source.add_argument("--run-root-programs", action="store_true",
                        help="with --root DIR, run programs found on PATH inside DIR (nvidia-smi) on this host; "
                             "only for a DIR whose programs you trust")
    source.add_argument("--release", metavar="FAMILY:RELEASE", help="the release to check against, e.g. training-nv-pytorch:25.07 or inference-nv-pytorch:25.04#vllm, or one of its image tags or references (see below)")
    source.add_argument("--data", metavar="FILE", help="release data bundle to use instead of the embedded one")
    source.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS", help="time limit of each probe (default 3)")
    opts = parser.add_argument_group("checks")
    opts.add_argument("--deepspeed-config", metavar="FILE", help="DeepSpeed JSON config to pre-flight")
    opts.add_argument("--model", metavar="NAME", help="model you will train or serve (known issues match on it)")
    opts.add_argument("--gpus-per-pod", type=ascii_int, metavar="N", help="GPUs the pod requests (default: GPUs visible)")
    opts.add_argument("--require-gpu", action="store_true", help="fail when there is no NVIDIA driver in the container")
    opts.add_argument("--strict", action="store_true", help="exit 2 when there are warnings but no errors")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=["text", "json", "prometheus", "npd"], default="text",
                     help="report format (default text); prometheus: node-exporter textfile metrics; "
                          "npd: one line and exit code for node-problem-detector (see below)")
    out.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE atomically instead of standard output (- : standard output)")
    out.add_argument("--lang", choices=["en", "zh"], help="report language (default from LC_ALL/LC_MESSAGES/LANG)")
    out.add_argument("--no-color", action="store_true", help="no ANSI colours (also when NO_COLOR is set)")
    out.add_argument("--collect", metavar="FILE", help="also write the probed facts as a JSON snapshot (atomic); "
                     "- : as one JSON line on standard output, the report then goes to standard error")
    out.add_argument("--node-name", metavar="NAME", help="name of the node (machine) checked, for `lingjun-check fleet` "
                     "(default: the NODE_NAME variable, else the host name with --include-ids)")
    out.add_argument("--cluster", metavar="NAME", help="name of the node's cluster, for `lingjun-check fleet` over several clusters "
                     "(default: the LINGJUN_CLUSTER variable; 1-63 letters, digits and . _ : -)")
    out.add_argument("--include-ids", action="store_true", help="keep host name, GPU UUIDs, MASTER_ADDR and interface IP addresses in the snapshot "
                     "(also NCCL_COMM_ID and other peer addresses, home-directory user names; never secrets), "
                     "and the hostname and GPU uuid labels of --format prometheus")
    out.add_argument("--list-rules", action="store_true", help="list the rules and exit")
    out.add_argument("--version", action="store_true", help="print the version and the release data it carries, and exit")
    return parser


def _fail(message: str) -> int:
    """Write ``lingjun-check: MESSAGE`` as one inert line on stderr (controls escaped, every name at most 256
    characters: :func:`lingjun.checks.core.inert_text.error_line`); returns 3."""
    sys.stderr.write(f"lingjun-check: {error_line(message)}\n")
    return 3


def _name(value: str) -> str:
    """A value from the command line as quoted in a message: shortened to NAME_LIMIT characters."""
    return capped(value, NAME_LIMIT)


def _write(text: str, to_stderr: bool = False) -> None:
    """Write ``text`` to standard output and flush it; a reader that went away is not an error.

    When the reading end of a pipe is closed (``lingjun-check --list-rules | head``) the
    rest of the output is dropped quietly and the run keeps the exit status it decided:
    standard output is pointed at /dev/null so neither later writes nor Python's own
    flush at exit fail again.

    With ``to_stderr`` the text goes to standard error instead (the report of ``--collect -``),
    with the same handling.

    Raises:
        OutputError: when standard output cannot take the text (a full disk, /dev/full, an I/O error);
            standard output is then pointed at /dev/null too, so Python's flush at exit stays quiet.
    """
    stream = sys.stderr if to_stderr else sys.stdout
    if stream is None:  # started with the stream closed (>&-)
        raise OutputError(f"standard {'error' if to_stderr else 'output'} is closed")
    try:
        try:
            stream.write(text)
        except UnicodeEncodeError:
            stream.buffer.write(text.encode("utf-8", "replace"))
        stream.flush()
    except BrokenPipeError:
        if not to_stderr:
            _drop_stdout()
    except OSError as exc:
        if not to_stderr:
            _drop_stdout()
        raise OutputError(exc.strerror or str(exc)) from None


class OutputError(Exception):
    """Standard output refused the report (the message is the system's reason); :func:`main` exits 3."""


def _drop_stdout() -> None:
    """Point standard output (the file descriptor, so also Python's buffered object) at /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no file descriptor behind sys.stdout (captured in tests)
        pass


def _no_nvidia_here(facts) -> bool:
    """Whether the live probe found no sign of an NVIDIA driver on this machine (no GPU, no kernel module, no device
    node): a log of a GPU job read here comes from another machine."""
    driver = facts.driver
    return not facts.gpus and not driver.kernel_module_version and not driver.device_nodes


def _log_of_another_pod(facts: object, evidence: object) -> bool:
    """True when a log states it comes from a Kubernetes pod (``kubectl logs --prefix``) and this live run is not
    in one (no ``KUBERNETES_SERVICE_HOST``): the live facts then describe another machine."""
    stated = evidence.value("place") if hasattr(evidence, "value") else None
    env = getattr(facts, "env", {}) or {}
    return stated is not None and stated.value == "kubernetes" and "KUBERNETES_SERVICE_HOST" not in env


def load_data(path: Optional[str]):  # -> KnowledgeData
    """The release data: ``path`` if given, else the bundle embedded as package data.

    Raises:
        BundleError: when the data cannot be read.
    """
    if path:
        return KnowledgeData.from_file(path)

    # the package's own loader reads the file both from a directory and from inside the zipapp
    try:
        raw = package.__loader__.get_data(os.path.join(os.path.dirname(package.__file__), "data", "bundle.json"))  # type: ignore[union-attr]
    except (OSError, AttributeError):
        raw = None
    if raw is None:
        raise BundleError("the embedded release data (lingjun/checks/data/bundle.json) is missing; run `lingjun-kb bundle` or pass --data FILE")
    try:
        data = KnowledgeData.from_dict(json.loads(raw.decode("utf-8")), "embedded bundle", check_shape=False)
    except ValueError as exc:
        raise BundleError(f"embedded bundle: {exc}") from None
    if "signatures" not in data.raw:  # the zipapp's: kept apart, read when a log needs them
        data.signatures_from = embedded_signatures
    return data


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the checker; returns the exit code (see ``--help``).

    The cyclic garbage collector is paused while it runs and restored as it was on return
    (:func:`lingjun.checks._startup.pause_collection`, which states what that earns).
    """
    collecting = pause_collection()
    try:
        return _main(argv)
    finally:
        resume_collection(collecting)


def _main(argv: Optional[Sequence[str]]) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if any(len(word) > 256 for word in words):  # such a value is shortened in every error line (blanks and all)
        remember_inputs(words)
    if words[:1] == ["fleet"]:  # the fleet command: its modules are imported only here
        from lingjun.checks.fleet import main as fleet_main  # deferred: a plain or live check never needs it

        return fleet_main(words[1:])
    try:
        args = build_parser().parse_args(words)
    except SystemExit as exc:  # --help exits 0, usage errors 3
        code = int(exc.code or 0)
        if code and _asks_npd(words):  # node-problem-detector reads stdout and 0/1/other
            zh = default_lang() == "zh"
            return _npd_unknown("用法错误（见标准错误输出）" if zh else "usage error (see stderr)", None)
        return code
    except BrokenPipeError:  # --help into a closed pipe
        _drop_stdout()
        return 0
    if args.format == "npd":
        return _run_npd(args)
    if args.format == "prometheus" and args.output not in (None, "-") and not args.list_rules and not args.version:
        return _run_textfile(args)
    return _guarded_run(args)


def _run_textfile(args: "argparse.Namespace") -> int:
    """:func:`_guarded_run` for ``--format prometheus -o FILE`` (:mod:`lingjun.checks.report.textfile`): one writer
    per folder at a time (a lock on the folder), no second file of our metrics beside FILE, and a run that fails
    (exit 3 or more) replaces FILE with metrics saying so and the time of the last good run."""
    from lingjun.checks.report import textfile  # deferred: a plain or live check never needs it

    problem = _output_problem(args.output, args.collect)  # an unusable path is refused first, as for any format
    if problem is not None:
        return _fail(problem)
    try:
        lock = textfile.lock_folder(args.output)
    except textfile.TextfileBusy as exc:
        return _fail(f"--output {_name(args.output)}: {exc}")
    except OSError:  # a folder that is missing or unreadable: the run names the problem
        return _guarded_run(args)
    try:
        others = textfile.other_writers(args.output)
        if others:
            return _fail(f"--output {_name(args.output)}: {_name(others[0])} in the same folder already holds lingjun-check "
                         "metrics, and node-exporter would serve both as duplicate series; write to that file, or remove it")
        status = _guarded_run(args)
        if status not in (0, 1, 2):
            from lingjun.checks.core.node_name import node_identity

            hostname = None
            if args.include_ids:
                import socket  # deferred: a plain or live check never needs it

                hostname, _ = node_identity(args.node_name, os.environ, socket.gethostname())
            if textfile.write_failure(args.output, status, hostname):
                from lingjun.checks.core.inert_text import inert

                sys.stderr.write(f"lingjun-check: the failed run is recorded in {inert(_name(args.output))} "
                                 "(lingjun_check_run_success 0)\n")
        return status
    finally:
        textfile.unlock_folder(lock)


def _asks_npd(words: Sequence[str]) -> bool:
    """True when the command line asks for ``--format npd`` (looked for word by word, for a line argparse refused)."""
    return "--format=npd" in words or any(a == "--format" and b == "npd" for a, b in zip(words, words[1:]))


def _npd_unknown(reason: Optional[str], lang: Optional[str]) -> int:
    """Print node-problem-detector's Unknown line for ``reason`` on stdout (best effort) and return its status 2."""
    from lingjun.checks.report.render_npd import NPD_UNKNOWN, unknown_line  # deferred: a plain or live check never needs it

    try:
        _write(unknown_line(reason, lang or default_lang()))
    except OutputError:
        pass
    return NPD_UNKNOWN


def _run_npd(args: "argparse.Namespace") -> int:
    """:func:`_guarded_run` for ``--format npd``: our exit code mapped to NPD's (0 OK, 1 problem, 2 Unknown), and
    when no report came out, the checker's one-line reason (it still goes to stderr, which NPD logs) as an
    ``UNKNOWN`` line on stdout, the message NPD shows."""
    from lingjun.checks.report.render_npd import npd_exit_code  # deferred: a plain or live check never needs it

    real_stderr, captured = sys.stderr, io.StringIO()
    sys.stderr = captured
    try:
        status = _guarded_run(args)
    finally:
        sys.stderr = real_stderr
    said = captured.getvalue()
    real_stderr.write(said)
    if npd_exit_code(status) not in (0, 1):
        lines = [line for line in said.splitlines() if line.strip()]
        return _npd_unknown(lines[-1] if lines else None, args.lang)
    return npd_exit_code(status)


def _guarded_run(args: "argparse.Namespace") -> int:
    """:func:`_run` with every failure turned into one line on stderr and exit code 3 (130 when interrupted)."""
    try:
        return _run(args)
    except OutputError as exc:  # not an internal error: the place the report goes to refused it
        return _fail(f"cannot write the report: {exc}")
    except KeyboardInterrupt:  # one line, and the shell's status for SIGINT
        _fail("interrupted")
        return 130
    except Exception as exc:  # the last line of defence: never a traceback
        if os.environ.get("LINGJUN_CHECK_DEBUG"):
            raise
        from lingjun.checks.core.registry import RegistrationError

        if isinstance(exc, RegistrationError):  # a rule or probe module without its decorator: say which and how
            return _fail(str(exc))
        return _fail(f"internal error: {type(exc).__name__}: {exc} (set LINGJUN_CHECK_DEBUG=1 for details)")


def _run(args: "argparse.Namespace") -> int:
    lang = args.lang or default_lang()
    for option, dest in TEXT_OPTIONS.items():  # an empty value names nothing: never silently the default
        value = getattr(args, dest)
        if value is not None and not value.strip() and dest != "collect":  # --collect '': the output-path check words it
            return _fail(f"{option}: an empty value names no {'release' if dest == 'release' else 'file or value'}")
    output = None if args.output in (None, "-") else args.output  # "-": standard output, as without --output
    # the report goes to standard error with --collect - (standard output carries the snapshot)
    shown_on = sys.stderr if args.collect == "-" else sys.stdout
    if shown_on is None and output is None:  # started with that stream closed (>&-): the report has nowhere to go
        raise OutputError(f"standard {'error' if args.collect == '-' else 'output'} is closed; give --output FILE")
    color = not args.no_color and not os.environ.get("NO_COLOR") and shown_on is not None and shown_on.isatty() and output is None
    if args.timeout is not None and not (0 < args.timeout <= 600):
        return _fail("--timeout must be between 0 and 600 seconds")
    if args.gpus_per_pod is not None and not (1 <= args.gpus_per_pod <= MAX_GPUS_PER_POD):
        return _fail(f"--gpus-per-pod must be between 1 and {MAX_GPUS_PER_POD} (the GPUs of one node)")
    problem = cluster_usage_problem(args)  # before probing: a refused name costs no probe time
    if problem:
        return _fail(problem)

    if args.list_rules:
        from lingjun.checks.core.terminal_text import ljust, terminal_width, wrap_block  # deferred: a plain or live check never needs it

        specs = load_rules()
        id_width = max((len(spec.id) for spec in specs), default=0)
        area_width = max((len(spec.area) for spec in specs), default=0)
        rows = [f"{ljust(spec.id, id_width)}  {ljust(spec.area, area_width)}  {spec.title.get(lang)}"
                f"{' [gpu]' if spec.needs_gpu else ''}" for spec in specs]
        # one rule a row, its title continuing under itself on a narrow terminal (COLUMNS, else 80 off a terminal)
        _write(wrap_block("\n".join(rows), terminal_width()) + "\n" if rows else "")
        return 0

    try:
        data = load_data(args.data)
    except BundleError as exc:
        return _fail(str(exc))

    if args.version:
        _write(f"lingjun-check {__version__} (release data: {len(data.releases)} releases, {len(data.known_issues)} known issues)\n")
        return 0

    if args.root != "/" and not os.path.isdir(args.root):
        return _fail(f"--root {_name(args.root)}: not a directory")
    if args.deepspeed_config:
        from lingjun.checks.inputs.input_file import unusable_reason  # deferred: not every check needs it

        config = args.deepspeed_config  # read under --root, as the DeepSpeed rules read it
        if args.root not in ("", "/"):
            config = os.path.join(args.root, config.lstrip("/"))
        problem = unusable_reason(config)
        if problem:
            under = f" (under --root {_name(args.root)})" if config != args.deepspeed_config else ""
            return _fail(f"--deepspeed-config {_name(args.deepspeed_config)}{under}: {problem}")

    if args.collect is not None and args.collect != "-":  # checked before probing: a refused path costs no probe time ("" included)
        from lingjun.checks.core.atomic_write import check_output_file  # deferred: a plain or live check never needs it
        from lingjun.checks.inputs.snapshot import SNAPSHOT_KIND, is_previous_snapshot  # deferred: not every check needs it

        try:
            check_output_file(args.collect, is_previous_snapshot, SNAPSHOT_KIND, make_parents=False)
        except OSError as exc:
            return _fail(f"--collect {_name(args.collect)}: cannot write: {exc.strerror or exc}")
    if args.collect == "-" and args.output == "-":
        return _fail("--collect - and --output - both name standard output; the snapshot takes it, the report goes to standard error without --output")
    if output is not None:  # the same, for the report
        problem = _output_problem(output, args.collect)
        if problem:
            return _fail(problem)

    if getattr(args, "log_only", False) and not args.log:
        return _fail("--log-only: give the log with --log FILE (- for standard input)")
    if getattr(args, "log_only", False) and (args.from_file or args.from_collect_env):
        return _fail("--log-only judges the logs without other facts; it cannot be combined with --from or --from-collect-env")
    for log in args.log or []:
        if not log.strip():
            return _fail("--log: an empty value names no file (give a path, or - for standard input)")
    readers = [option for option, value in (("--from", args.from_file), ("--from-collect-env", args.from_collect_env),
                                            ("--deepspeed-config", args.deepspeed_config), ("--data", args.data))
               if value == "-"] + ["--log"] * (args.log or []).count("-")
    if len(readers) > 1:
        named = list(dict.fromkeys(readers))
        given = " and ".join(f"{option} -" for option in named) if len(named) > 1 else f"{named[0]} - twice"
        return _fail(f"{given}: standard input can be read once")
    snapshot_problems: list[str] = []
    paste_text: Optional[str] = None
    if args.from_file:
        from lingjun.checks.inputs.snapshot import SnapshotError, read_snapshot  # deferred: not every check needs it

        try:
            facts, snapshot_problems = read_snapshot(args.from_file)
        except SnapshotError as exc:
            return _fail(str(exc))
        # (its secrets are masked as it is read, as fleet reads it: lingjun.checks.inputs.snapshot._masked_secrets)
    elif args.from_collect_env:
        from lingjun.checks.inputs.collect_env_text import CollectEnvError, decode_collect_env, parse_collect_env  # deferred: a plain or live check never needs it

        from lingjun.checks.inputs.input_file import InputFileError, read_input_file  # deferred: not every check needs it

        try:
            # a paste longer than 8 MiB is read for its first 8 MiB (collect_env prints a few KiB)
            raw = read_input_file(args.from_collect_env, 8 * 1024 * 1024, truncate=True)
            paste_text = decode_collect_env(raw)
            facts = parse_collect_env(paste_text, args.from_collect_env)
        except InputFileError as exc:
            return _fail(str(exc))
        except CollectEnvError as exc:
            return _fail(str(exc))
        from lingjun.checks.core.redaction import mask_strings, mask_text  # deferred: with the paste

        # a paste's pip lines may carry a credential (torch @ git+https://user:token@host/...): masked whole, as a
        # snapshot's strings are when it is read
        mask_strings(facts, functools.partial(mask_text, identifiers=False))
    elif getattr(args, "log_only", False) and args.log:
        facts = log_only_facts()
    else:
        from lingjun.checks.probes._collect import collect  # deferred: not every check needs it
        from lingjun.checks.probes._base import ProbeEnv

        facts = collect(ProbeEnv(root=args.root, timeout=args.timeout, include_ids=args.include_ids,
                                 run_root_programs=args.run_root_programs))

    _name_node(facts, args)

    # the options that change findings: recorded in the snapshot; a snapshot re-checks with its own, flags add to them
    chosen = merged_options(facts.check_options if args.from_file else None, require_gpu=args.require_gpu, strict=args.strict,
                            gpus_per_pod=args.gpus_per_pod, release=args.release, model=args.model)
    facts.check_options = chosen
    to_stderr = args.collect == "-"
    if to_stderr:  # the snapshot is standard output's one line; the report follows on stderr
        from lingjun.checks.inputs.snapshot import snapshot_line  # deferred: not every check needs it

        _write(snapshot_line(facts, include_ids=args.include_ids))
    elif args.collect is not None:
        from lingjun.checks.inputs.snapshot import write_snapshot  # deferred: not every check needs it

        try:
            write_snapshot(facts, args.collect, include_ids=args.include_ids)
        except OSError as exc:
            return _fail(f"--collect {_name(args.collect)}: cannot write: {exc.strerror or exc}")
        # on stderr: stdout is the report (and must stay parseable JSON with --format json)

        sys.stderr.write(f"lingjun-check: snapshot written to {inert(_name(args.collect))}\n")


    try:
        release = identify_with(facts, data, chosen.release, args.release, snapshot_problems)
    except UnknownReleaseError as exc:
        known = ", ".join(exc.known) or "(none)"
        if exc.ambiguous:
            return _fail(f"--release {_name(exc.ref)}: ambiguous: several releases publish this tag (give FAMILY:TAG or the full reference); it names: {known}")
        if exc.reason:
            return _fail(f"--release {_name(exc.ref)}: {exc.reason}")
        from lingjun.checks.knowledge.identify import unknown_release_hint

        return _fail(f"--release {_name(exc.ref)}: unknown release; {unknown_release_hint(exc, data)}")

    options = CheckOptions(
        lang=lang,
        deepspeed_config=args.deepspeed_config,
        served_model=chosen.model,
        gpus_per_pod=chosen.gpus_per_pod,
        require_gpu=bool(chosen.require_gpu),
        root=args.root,
    )

    if nothing_to_read(facts, args.log or [], paste_text):
        evidence = Evidence()  # a plain check: the log reader and its knowledge are not even imported
    else:
        from lingjun.checks.inputs.log_file import LogError, gather_evidence  # deferred: only with a log or errors

        try:
            evidence = gather_evidence(data, facts, args.log or [], args.from_file or args.from_collect_env,
                                       paste=paste_text)
        except (LogError, BundleError) as exc:  # BundleError: the zipapp's signatures file is damaged
            return _fail(str(exc))
    if facts.origin == "live" and args.log and _log_of_another_pod(facts, evidence):
        # a pod's log (kubectl logs --prefix) read outside a pod: this machine's facts are not the pod's

        facts = log_only_facts()
        facts.check_options = chosen
        evidence.notes.append(("The log comes from a pod and this run is outside one, so it is judged alone "
                               "(this machine's facts are not the pod's; give the pod's snapshot with --from to use its facts)",
                               "日志来自 Pod，而本次运行不在 Pod 中，因此仅凭日志判断（本机的事实不是该 Pod 的；如需使用其事实，请用 --from 提供该 Pod 的快照）"))
    elif facts.origin == "live" and args.log and not getattr(args, "log_only", False) and _no_nvidia_here(facts):
        # a GPU job's log read on a machine without an NVIDIA driver (a laptop, a bastion host): its /dev/shm,
        # interfaces and toolkit are not the job's, and they must not decide the log's causes

        facts = log_only_facts()
        facts.check_options = chosen
        evidence.notes.append(("This machine shows no NVIDIA driver, so it is not the node the log comes from: the log is "
                               "judged alone (run the checker inside the job's container, or give its snapshot with --from, "
                               "to use the node's facts)",
                               "本机没有 NVIDIA 驱动，不是日志所在的节点：因此仅凭日志判断（如需使用该节点的事实，请在作业容器内运行"
                               "检查工具，或用 --from 提供其快照）"))
    ctx = CheckContext(facts=facts, data=data, release=release, options=options, evidence=evidence)

    findings = run_rules(ctx, snapshot_problems=snapshot_problems)
    status = exit_code(findings, strict=bool(chosen.strict))
    if args.format == "json":
        from lingjun.checks.rules.evidence_error_lines import diagnoses  # deferred: a plain or live check never needs it

        report = render_json(findings, release, facts, data, lang=lang, version=__version__, exit_status=status,
                             evidence=evidence, diagnoses=diagnoses(ctx))
    elif args.format == "prometheus":
        from lingjun.checks.report.render_prometheus import render_prometheus  # deferred: a plain or live check never needs it

        rule_ids = [spec.id for spec in load_rules()] + list(CHECKER_RULE_IDS)
        report = render_prometheus(findings, release, facts, rule_ids, version=__version__, exit_status=status, now=time.time(),
                                   hostname=(facts.node.name or facts.host.hostname) if args.include_ids else None, gpu_uuids=args.include_ids)
    elif args.format == "npd":
        from lingjun.checks.report.render_npd import render_npd  # deferred: a plain or live check never needs it

        report = render_npd(findings, status, lang=lang)
    else:
        from lingjun.checks.coverage import summary as coverage_summary
        from lingjun.checks.core.terminal_text import terminal_width  # deferred: a plain or live check never needs it
        from lingjun.checks.report.render_text import render_text  # deferred: a plain or live check never needs it

        # wrapped to the terminal (COLUMNS, else its width, else 80 for a file or a pipe)
        report = render_text(findings, release, lang=lang, color=color, version=__version__, origin=facts.origin, exit_status=status,
                             coverage=coverage_summary(facts), evidence=evidence, width=terminal_width())
    if output is None:
        _write(report, args.collect == "-")
        return status
    from lingjun.checks.report.report_file import write_report  # deferred: a plain or live check never needs it

    try:
        write_report(output, report)
    except OSError as exc:
        return _fail(f"--output {_name(output)}: cannot write: {exc.strerror or exc}")
    sys.stderr.write(f"lingjun-check: report written to {inert(_name(output))}\n")
    return status


def _output_problem(output: str, collect: Optional[str]) -> Optional[str]:
    """Why the report cannot be written to ``output`` (checked before probing, as ``--collect`` is); None when it can."""
    from lingjun.checks.report.report_file import check_report_path  # deferred: a plain or live check never needs it

    if collect is not None and os.path.abspath(collect) == os.path.abspath(output):
        return f"--output {_name(output)}: names the same file as --collect; give the report and the snapshot two names"
    try:
        check_report_path(output)
    except OSError as exc:
        return f"--output {_name(output)}: cannot write: {exc.strerror or exc}"
    if not os.path.isdir(os.path.dirname(os.path.abspath(output))):
        return f"--output {_name(output)}: cannot write: its folder does not exist"
    return None


def _name_node(facts, args: "argparse.Namespace") -> None:
    """Set ``facts.node`` (see the epilog): ``--node-name``; for a snapshot (``--from``) its own node;
    else ``NODE_NAME``, else the probed host name (present only with ``--include-ids``)."""

    cluster, cluster_source = _cluster_of(facts, args)
    if args.from_file and not args.node_name:
        name = clean_node_name(facts.node.name)  # the snapshot's own node, as input text
        if name:
            facts.node = NodeFacts(name=name, source=facts.node.source if facts.node.source in NODE_SOURCES else None,
                                   cluster=cluster, cluster_source=cluster_source)
            return
    name, source = node_identity(args.node_name, {} if args.from_file else os.environ, facts.host.hostname if args.include_ids else None)
    facts.node = NodeFacts(name=name, source=source, cluster=cluster, cluster_source=cluster_source)


def _cluster_of(facts, args: "argparse.Namespace") -> "tuple[Optional[str], Optional[str]]":
    """``(cluster, source)`` of the node (see the epilog): ``--cluster``; for a snapshot (``--from``) its own
    cluster when that is one (else none); else ``LINGJUN_CLUSTER``.  ``--cluster`` and the variable are checked
    before anything is probed (:func:`cluster_usage_problem`)."""
    if args.from_file and not getattr(args, "cluster", None):
        own = facts.node.cluster
        if own is not None and cluster_problem(own) is None:
            return own, facts.node.cluster_source if facts.node.cluster_source in CLUSTER_SOURCES else None
        return None, None
    return cluster_identity(getattr(args, "cluster", None), {} if args.from_file else os.environ)


def cluster_usage_problem(args: "argparse.Namespace") -> Optional[str]:
    """Why ``--cluster`` (or, without ``--from``, ``LINGJUN_CLUSTER``) is not a cluster name, one line; None when it
    is one or none is given."""
    try:
        cluster_identity(getattr(args, "cluster", None), {} if args.from_file else os.environ)
    except ClusterNameError as exc:
        return str(exc)
    return None
