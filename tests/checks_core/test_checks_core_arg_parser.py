"""``InertArgumentParser``: one inert error line and the command's own usage status, sub-commands included."""

from __future__ import annotations

import pytest

from lingjun.checks.core.arg_parser import InertArgumentParser
from lingjun.checks.cli import build_parser as checker_parser
from lingjun.checks.fleet._cli import build_parser as fleet_parser
from lingjun.generator.cli import build_parser as kb_parser


def test_a_usage_error_exits_with_the_status_given_and_one_escaped_line(capsys):
    parser = InertArgumentParser(prog="demo", usage_exit=3)
    with pytest.raises(SystemExit) as ended:
        parser.parse_args(["--colour\x1b[31m\u202e"])
    err = capsys.readouterr().err.splitlines()
    assert ended.value.code == 3
    assert err[-1] == "demo: error: unrecognized arguments: --colour\\x1b[31m\\u202e"
    assert len(err) == 2 and err[0].startswith("usage: demo")


def test_sub_command_parsers_inherit_the_usage_status(capsys):
    parser = InertArgumentParser(prog="demo", usage_exit=5)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run").add_argument("--count", type=int)
    with pytest.raises(SystemExit) as ended:
        parser.parse_args(["run", "--count", "many\n"])
    assert ended.value.code == 5
    assert capsys.readouterr().err.splitlines()[-1] == "demo run: error: argument --count: invalid int value: 'many\\n'"


@pytest.mark.parametrize("build,status", [(checker_parser, 3), (fleet_parser, 3), (kb_parser, 2)])
def test_every_command_line_uses_it_with_its_own_status(build, status):
    parser = build()
    assert isinstance(parser, InertArgumentParser) and parser.usage_exit == status
