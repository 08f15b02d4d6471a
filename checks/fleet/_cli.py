"""The command line of ``lingjun-check fleet`` (see :data:`EPILOG` for inputs and exit codes)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Optional, Sequence

from lingjun.checks.cli import OutputError, __version__, _write, default_lang, load_data
from lingjun.checks.core.arg_parser import InertArgumentParser, ascii_int
from lingjun.checks.core.atomic_write import check_output_file
from lingjun.checks.core.cluster_name import cluster_problem
from lingjun.checks.core.inert_text import NAME_LIMIT, capped, inert
from lingjun.checks.facts import Facts
from lingjun.checks.fleet._check import Checker, field_notes
from lingjun.checks.fleet._compare import compare
from lingjun.checks.fleet._identity import cluster_warnings, disambiguate, qualify
from lingjun.checks.fleet._inputs import InputProblem, RecordError, iter_records
from lingjun.checks.fleet._model import EXIT_NO_NODES, fleet_dict, render_json
from lingjun.checks.fleet._output import FLEET_KIND, is_previous_fleet_output, write_output
from lingjun.checks.fleet._render_html import render_html
from lingjun.checks.knowledge.bundle import BundleError
from lingjun.checks.knowledge.identify import UnknownReleaseError, identify
from lingjun.checks.report.model import EXIT_USAGE

__all__ = ["main", "build_parser", "EPILOG"]

EPILOG = """\
inputs (PATH):
  a snapshot (lingjun-check --collect FILE) or a JSON report (lingjun-check --format json) file;
  a folder, walked for *.json, *.jsonl and *.log files; or - for standard input. Files of lines and
  standard input are read as JSON lines, such as the output of
      kubectl logs -l app=lingjun-check --prefix --tail=-1 | lingjun-check fleet -
  of pods that ran `lingjun-check --collect -`: a "[pod/<pod>/<container>] " prefix and an RFC 3339
  time stamp (--timestamps) are accepted; lines that are not JSON objects (the text report) are skipped.
  Files of lines and standard input are read to their end, however large (one line at a time, never
  held whole); a line longer than 16 MiB is refused, and so is a one-object file larger than 16 MiB
  (one line each: write such snapshots as JSON lines, `--collect -`).

nodes:
  each node is named by its snapshot or report ("node": --node-name or NODE_NAME when it was written),
  else by the pod of its log line, else by its host name (only with --include-ids), else by its input
  name (and line). Two inputs with the same name and the same facts (a retried or rescheduled pod) count once,
  with a note naming both (not a problem: the exit code is not changed); two with the same name and different facts
  are both reported, as "NAME (input)", with a problem. A line of `kubectl logs --prefix` is named
  "pod/POD (stdin:LINE)" in messages.
  A report holds only a summary of the facts: what it does not show is "not known" for that node, never
  a difference.

clusters:
  node names are unique within one cluster only: each node's cluster is the one its snapshot or report
  records ("node": {"cluster": ...}, from lingjun-check --cluster or LINGJUN_CLUSTER), else --cluster
  given here, else none. Nodes of one name in two clusters are two nodes, never a retried pod. With more
  than one cluster, nodes are listed as CLUSTER/NAME, the report counts each cluster apart and lists the
  facts whose majority value differs between clusters. A recorded cluster that is not a cluster name
  (1-63 letters, digits and . _ : -, starting with a letter or digit) is an input problem; its nodes are
  kept apart under it as written. Two warnings (one line each, naming the inputs; the exit code is
  unchanged): nodes whose cluster is my-cluster, the manifests' placeholder LINGJUN_CLUSTER, and inputs
  that claim one cluster and give one node name with different facts (two clusters under one name?).

output:
  --format json prints a report of schema lingjun-check/fleet/1; its JSON Schema is checks/fleet.schema.json
  (lingjun/checks/fleet.schema.json in the package). --format html writes one self-contained page.

options:
  a snapshot is checked with the options its own run recorded ("check_options": --require-gpu, --strict,
  --gpus-per-pod, --release as given, --model), so a node reads as its pod did; --require-gpu, --strict and
  --release given here apply to every node on top of them (--release replaces a recorded one). A JSON
  report's findings are taken as written.

exit codes:
  0  no node has error findings (warnings allowed unless --strict)
  1  a node has error findings, or an input could not be read or named a node twice (one line each
     on standard error; the other nodes are still reported)
  2  warnings on a node and --strict given, here or recorded in its snapshot (and no error, no input problem)
  With --expect N, fewer or more than N nodes read is an input problem (exit 1).
  3  usage error, unreadable --data, unknown --release, an --output path that is refused, or no input
     held a single readable node
"""


def _parser() -> "argparse.ArgumentParser":
    parser = InertArgumentParser(
        usage_exit=EXIT_USAGE,
        prog="lingjun-check fleet",
        description="Check the snapshots or reports of many nodes (one per node of a job or node pool) and report "
        "the facts that differ between them (driver, CUDA, GPUs, torch, NCCL, release, NCCL_* settings, RDMA, "
        "/dev/shm, limits): the majority value and the outliers by node name, and which rules fail on which nodes.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="snapshot or report file, folder, or - (standard input)")
    parser.add_argument("--format", choices=["text", "json", "html"], default="text", help="report format (default text)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE (atomic; only a new file or a previous fleet report "
                        "is replaced; - : standard output, as without --output)")
    parser.add_argument("--lang", choices=["en", "zh"], help="report language (default from LC_ALL/LC_MESSAGES/LANG)")
    parser.add_argument("--release", metavar="FAMILY:RELEASE", help="check every node against this release (as lingjun-check --release)")
    parser.add_argument("--data", metavar="FILE", help="release data bundle to use instead of the embedded one")
    parser.add_argument("--require-gpu", action="store_true", help="every node must show an NVIDIA driver (as lingjun-check --require-gpu; "
                        "a snapshot written with --require-gpu is checked with it anyway)")
    parser.add_argument("--strict", action="store_true", help="a node with warnings makes the exit code 2")
    parser.add_argument("--cluster", metavar="NAME", help="the cluster of the inputs that record none (snapshots written "
                        "before lingjun-check --cluster); inputs that record one keep theirs")
    parser.add_argument("--expect", type=ascii_int, metavar="N", help="the number of nodes you expected (the Job's completions, the "
                        "node pool's size): fewer or more nodes read is a problem, in every format (exit 1)")
    parser.add_argument("--no-color", action="store_true", help="no ANSI colours (also when NO_COLOR is set)")
    return parser


def build_parser() -> "argparse.ArgumentParser":
    """The argument parser of ``lingjun-check fleet`` (usage errors exit 3)."""
    return _parser()


#: the most nodes --expect may name: twenty clusters at Kubernetes' documented limit of 5,000 nodes each
#: (https://kubernetes.io/docs/setup/best-practices/cluster-large/)
MAX_EXPECT = 100_000


def _fail(message: str) -> int:
    sys.stderr.write(f"lingjun-check fleet: {inert(message)}\n")
    return 3


def main(argv: Optional[Sequence[str]] = None, stdin: Optional[IO[bytes]] = None) -> int:
    """Run the fleet command with ``argv``; returns the exit code (see :data:`EPILOG`).  Never raises
    (an internal error is one line and exit 3, unless ``LINGJUN_CHECK_DEBUG`` is set)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        return _run(args, stdin)
    except KeyboardInterrupt:
        _fail("interrupted")
        return 130
    except Exception as exc:
        if os.environ.get("LINGJUN_CHECK_DEBUG"):
            raise
        return _fail(f"internal error: {type(exc).__name__}: {exc} (set LINGJUN_CHECK_DEBUG=1 for details)")


def _run(args: "argparse.Namespace", stdin: Optional[IO[bytes]]) -> int:
    lang = args.lang or default_lang()
    if args.expect is not None and not 1 <= args.expect <= MAX_EXPECT:
        return _fail(f"--expect must be between 1 and {MAX_EXPECT:,} (nodes of the clusters read)")
    if args.output == "-":  # standard output, as without --output (as lingjun-check --output -)
        args.output = None
    if args.output is None and sys.stdout is None:  # started with standard output closed (>&-)
        return _fail("cannot write the report: standard output is closed; give --output FILE")
    if args.cluster is not None:
        reason = cluster_problem(args.cluster)
        if reason is not None:
            return _fail(f"--cluster {capped(args.cluster, 80)!r}: not a cluster name: {reason}")
    for option, value in (("--output", args.output), ("--release", args.release), ("--data", args.data)):
        if value is not None and not value.strip() and option != "--output":
            return _fail(f"{option}: an empty value names nothing")
    if args.output is not None:
        try:
            check_output_file(args.output, is_previous_fleet_output, FLEET_KIND, make_parents=False)
        except OSError as exc:
            return _fail(f"--output {capped(args.output, NAME_LIMIT)}: cannot write: {exc.strerror or exc}")
    try:
        data = load_data(args.data)
    except BundleError as exc:
        return _fail(str(exc))
    if args.release:
        try:
            identify(Facts(), data, args.release)
        except UnknownReleaseError as exc:
            if exc.ambiguous:
                return _fail(f"--release {capped(exc.ref, NAME_LIMIT)}: ambiguous release; it names: {', '.join(exc.known)}")
            from lingjun.checks.knowledge.identify import unknown_release_hint

            return _fail(f"--release {capped(exc.ref, NAME_LIMIT)}: unknown release; {unknown_release_hint(exc, data)}")


    problems: list[InputProblem] = []
    checker = Checker(data=data, release_option=args.release, lang=lang, strict=args.strict, require_gpu=args.require_gpu,
                      cluster=args.cluster)
    nodes = []
    for record in iter_records(list(args.paths), problems, stdin):  # one record in memory at a time
        try:
            node = checker.check(record)
        except RecordError as exc:
            problems.append(InputProblem(record.input, record.line, str(exc), record.pod))
            continue
        nodes.append(node)
        problems += field_notes(record, node.field_problems)  # unusable fields: notes, the node is still checked
        if node.cluster_problem:
            problems.append(InputProblem(record.input, record.line, node.cluster_problem, record.pod))
    warnings = cluster_warnings(nodes, lang)  # before disambiguate renames the nodes of one name
    problems += disambiguate(nodes)
    problems += warnings
    qualify(nodes)
    if args.expect is not None and nodes and len(nodes) != args.expect:
        problems.append(InputProblem("--expect", None, _expect_reason(args.expect, len(nodes))))
    for problem in problems:  # one line each, whatever the format
        kind = "note: " if problem.note else "warning: " if problem.warning else ""
        sys.stderr.write(f"lingjun-check fleet: {kind}{_inert(str(problem))}\n")
    if not nodes:
        _fail("no readable node in the inputs")
        return EXIT_NO_NODES
    shared = checker.shared
    report = fleet_dict(nodes, compare(nodes), problems, lang=lang, strict=args.strict, version=__version__, checked=checker.runs,
                        expected=args.expect, rule_runs=(shared.rules_run, shared.rules_reused) if shared is not None else (0, 0))
    if args.format == "json":
        text = render_json(report)
    elif args.format == "html":
        text = render_html(report)
    else:
        from lingjun.checks.fleet._render_text import render_text

        color = args.output is None and not args.no_color and not os.environ.get("NO_COLOR") and _is_terminal(sys.stdout)
        text = render_text(report, color=color)
    if args.output is not None:
        try:
            write_output(args.output, text)
        except OSError as exc:
            return _fail(f"--output {capped(args.output, NAME_LIMIT)}: cannot write: {exc.strerror or exc}")
        sys.stderr.write(f"lingjun-check fleet: report written to {_inert(capped(args.output, NAME_LIMIT))}\n")
    else:
        try:
            _write(text)
        except OutputError as exc:
            return _fail(f"cannot write the report: {exc}")
    return int(report["exit_code"])


def _expect_reason(expected: int, read: int) -> str:
    """Why ``read`` nodes are not the ``expected`` ones, one line."""
    if read < expected:
        return (f"{expected} nodes expected, {read} read: {expected - read} missing (a pod that did not run or "
                f"whose log was not collected; compare the node names with the node pool)")
    return f"{expected} nodes expected, {read} read: {read - expected} more than expected (inputs of another job or node pool?)"


def _is_terminal(stream: Optional[IO[str]]) -> bool:
    """Whether ``stream`` is an open terminal (False for a closed or missing stream)."""
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def _inert(text: str) -> str:
    return inert(text)
