"""``lingjun-kb which --driver V --gpu MODEL [--family F | --all-families | --accelerator A] [--format json]``.

The answer first: per product family for NVIDIA GPUs (PPU images and base images with ``--all-families`` or
``--accelerator``), the release to use on this node or the driver to install
(:mod:`lingjun.generator.site.recommend`), and the driver branch's lifecycle against today (``--today`` to choose
the day); then every release's verdict.  The verdicts are the checker's (:mod:`lingjun.checks.core.release_compat`), the
same the ``/finder/`` page shows.  Exit status: 0 answered (also when the
reader of the output stops early, ``which ... | head -1``); 1 the release data
has errors (printed one per line); 2 a usage error: a malformed driver, an
unknown GPU or family (one line with close matches), a ``--today`` that is not a date, a ``--releases`` that is
not a folder, or a site URL that is not an http(s) URL.  Echoed input is cut
with a marker (:func:`lingjun.checks.core.inert_text.capped`).
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

from lingjun.checks.core.inert_text import capped, inert
from lingjun.checks.core.terminal_text import terminal_width, wrap_block
from lingjun.generator.cli import _closed_pipe_ok

__all__ = ["cli_which", "format_table", "TEXT"]


#: the text form's own words (the reasons come with the answer)
TEXT = {
    "header": "driver {driver}, GPU {gpu} (compute capability {cc}, {kind})",
    "answer": "{family}: {reason}",
}


def format_table(answer: dict[str, Any]) -> str:
    """The text form of :func:`lingjun.generator.site.finder.which`'s answer: the answer first (one line per family's
    recommendation, then the driver branch's lifecycle), the header line, then one row per release (release, verdict,
    English reason), columns padded, each variant's tags under a release with variants, and a last line naming the
    releases the pages name without a record; every value made inert for the terminal."""
    gpu = answer["gpu"]
    kind = "data center" if gpu["data_center"] else "not data center"
    lines = [inert(TEXT["answer"].format(family=r["family"], reason=r["reason"]["en"])) for r in answer.get("recommendations") or []]
    branch = answer.get("driver_branch")
    if branch:
        lines.append(inert(branch["text"]["en"]))
    if lines:
        lines.append("")
    lines.append(inert(TEXT["header"].format(driver=capped(answer["driver"]), gpu=gpu["name"], cc=gpu["compute_capability"], kind=kind)))
    rows = [(r["release"], r["verdict"], r["reason"]["en"]) for r in answer["releases"]]
    unrecorded = answer.get("unrecorded") or []
    named = [f"{u['family']}:{u['version']}" for u in unrecorded]
    if not rows:
        lines.append("no recorded releases")
    else:
        width = [max(len(row[i]) for row in rows + [("RELEASE", "VERDICT", "")]) for i in range(2)]
        lines.append(f"{'RELEASE':<{width[0]}}  {'VERDICT':<{width[1]}}  REASON")
        for row, (release, verdict, reason) in zip(answer["releases"], rows):
            lines.append(inert(f"{release:<{width[0]}}  {verdict:<{width[1]}}  {reason}"))
            images = row.get("images") or []
            if len(images) > 1:  # one verdict for the release; each variant's tags below it
                for image in images:
                    label = (image.get("title") or {}).get("en") or f"#{image['variant']}"
                    lines.append(inert(f"{'':<{width[0]}}    {label}: {', '.join(image['tags'])}"))
    if named:
        lines.append(inert("published, not yet recorded (no verdict): " + ", ".join(named)))
    return "\n".join(lines)


def cli_which(args: Any) -> int:
    """Run ``lingjun-kb which`` for parsed ``args`` (``driver``, ``gpu``, ``family``, ``format``, ``releases``, ``site_url``)."""
    from lingjun.generator.site._commands import format_problem, resolve_site_url  # deferred: pulls in jinja2, pydantic, yaml, which other commands do not need
    from lingjun.generator.site.finder import WhichError, which  # deferred: pulls in pydantic, yaml, which other commands do not need
    from lingjun.schema.loader import load_knowledge_base  # deferred: pulls in pydantic, yaml, which other commands do not need

    releases = Path(getattr(args, "releases", "releases"))
    if not releases.is_dir():
        print(inert(f"lingjun-kb which: --releases {capped(str(releases))} is not a folder"), file=sys.stderr)
        return 2
    try:
        site_url = resolve_site_url(args)
    except FileNotFoundError:
        site_url = None  # no mkdocs.yml here: links go to the official release pages
    except ValueError as exc:
        print(inert(f"lingjun-kb which: {exc}"), file=sys.stderr)
        return 2
    kb, problems = load_knowledge_base(releases)
    errors = [p for p in problems if p.is_error]
    if errors:
        for problem in errors:
            print(format_problem(problem), file=sys.stderr)
        print(inert(f"lingjun-kb which: {len(errors)} error(s) in {releases}; no answer"), file=sys.stderr)
        return 1
    today = None
    if getattr(args, "today", None):
        try:
            today = dt.date.fromisoformat(args.today)
        except ValueError:
            print(inert(f"lingjun-kb which: --today {capped(args.today, 60)!r} is not a date (write it as YYYY-MM-DD)"), file=sys.stderr)
            return 2
    try:
        answer = which(kb, args.driver, args.gpu, family=args.family, site_url=site_url,
                       all_families=getattr(args, "all_families", False), accelerator=getattr(args, "accelerator", None),
                       today=today)
    except WhichError as exc:
        print(inert(f"lingjun-kb which: {exc}"), file=sys.stderr)
        return 2
    with _closed_pipe_ok():
        if args.format == "json":
            print(json.dumps(answer, ensure_ascii=False, indent=2))
        else:
            print(wrap_block(format_table(answer), terminal_width()))  # COLUMNS, else the terminal's, else 80
        sys.stdout.flush()
    return 0
