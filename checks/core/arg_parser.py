"""The argument parser of every command line (``lingjun-check``, ``lingjun-check fleet``, ``lingjun-kb``).

:class:`InertArgumentParser` is :class:`argparse.ArgumentParser` whose error line is made inert: the words argparse
quotes from the command line (``unrecognized arguments: ...``, a value of a ``choices`` option) have their control
and bidirectional characters escaped and each name shortened to 256 characters
(:func:`lingjun.checks.core.inert_text.error_line`), so a hostile argument cannot rewrite the terminal or forge a
second line; its help fits the terminal's width.  The exit status of a usage error is the command's own: 2 for ``lingjun-kb`` (argparse's), 3 for the
checker, whose 2 means "warnings under --strict".  Sub-command parsers made by ``add_subparsers().add_parser``
inherit the class and the status.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from lingjun.checks.core.inert_text import error_line

__all__ = ["InertArgumentParser", "ascii_int"]


def ascii_int(text: str) -> int:
    """An option's whole number written in ASCII digits, an optional ``-`` first (``int()`` also takes ``٣`` and
    ``８``, which no shell user means as a number); raises :class:`ValueError`, which argparse reports as
    ``invalid int value``."""
    digits = text[1:] if text.startswith("-") else text
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 30:
        raise ValueError(text)
    return int(text)


ascii_int.__name__ = "int"  # argparse names the type in its error: "invalid int value: '٣'"


class InertArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser(..., usage_exit=N)``: a usage error prints the usage and one inert line
    ``PROG: error: MESSAGE`` to standard error, then exits with status ``usage_exit`` (default 2)."""

    def __init__(self, *args: Any, usage_exit: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.usage_exit = usage_exit

    def add_subparsers(self, **kwargs: Any) -> Any:
        """As argparse's, with each sub-command parser given this parser's ``usage_exit``."""
        action = super().add_subparsers(**kwargs)
        usage_exit = self.usage_exit
        parser_class = action._parser_class

        def make(**parser_kwargs: Any) -> argparse.ArgumentParser:
            return parser_class(**parser_kwargs, usage_exit=usage_exit)

        action._parser_class = make
        return action

    def format_help(self) -> str:
        """argparse's help with every line wider than the terminal wrapped to it (``COLUMNS``, else the terminal's,
        else 80 columns: :func:`~lingjun.checks.core.terminal_text.terminal_width`): the descriptions and epilogs are
        written unwrapped (``RawDescriptionHelpFormatter`` keeps their own line breaks), so no line runs past it."""
        from lingjun.checks.core.terminal_text import terminal_width, wrap_block  # deferred: only --help needs it

        return wrap_block(super().format_help(), terminal_width())

    def error(self, message: str) -> NoReturn:
        """Print the usage and the inert error line, and exit with ``usage_exit``."""
        self.print_usage(sys.stderr)
        self.exit(self.usage_exit, f"{self.prog}: error: {error_line(message)}\n")
