"""lingjun.checks.cli.fast_parse: the same options as argparse for plain command lines, None for the rest."""

from __future__ import annotations

import argparse

import pytest

from lingjun.checks.cli import FAST_DEFAULTS, FAST_FLAGS, FAST_LISTS, FAST_VALUES, build_parser, fast_parse, main


def _actions() -> list[argparse.Action]:
    return [a for a in build_parser()._actions if a.dest != "help"]


def test_fast_tables_describe_every_option_of_the_parser():
    actions = _actions()
    assert {a.dest for a in actions} == set(FAST_DEFAULTS)
    for action in actions:
        # one long option each; a short alias (-o) is left to argparse (fast_parse reads long options only)
        longs = [o for o in action.option_strings if o.startswith("--")]
        assert len(longs) == 1 and all(len(o) == 2 for o in action.option_strings if o not in longs), action.option_strings
        option = longs[0]
        assert FAST_DEFAULTS[action.dest] == action.default and type(FAST_DEFAULTS[action.dest]) is type(action.default)
        if isinstance(action, argparse._StoreTrueAction):
            assert FAST_FLAGS[option] == action.dest and option not in FAST_VALUES
        elif isinstance(action, argparse._AppendAction):  # --log FILE, repeatable
            assert FAST_LISTS[option] == action.dest and option not in FAST_VALUES and action.type is None
        else:
            assert isinstance(action, argparse._StoreAction) and action.nargs is None
            dest, kind = FAST_VALUES[option]
            assert dest == action.dest and option not in FAST_FLAGS
            if action.choices is not None:
                assert kind == tuple(action.choices) and action.type is None
            else:
                assert kind is (action.type or str)
    assert len(FAST_FLAGS) + len(FAST_VALUES) + len(FAST_LISTS) == len(actions)


PLAIN = [
    [],
    ["--format", "json"],
    ["--format=json", "--lang", "zh", "--strict", "--no-color"],
    ["--from", "snap.json", "--release", "training-nv-pytorch:25.07", "--format", "text"],
    ["--from-collect-env", "env.txt", "--lang=en"],
    ["--log", "a.log", "--log=-", "--from", "snap.json"],
    ["--root", "/tmp/root", "--timeout", "0.5", "--gpus-per-pod", "8", "--require-gpu"],
    ["--timeout=1e400", "--timeout", "2"],
    ["--deepspeed-config", "ds.json", "--model", "Qwen2.5-7B", "--collect", "out.json", "--include-ids"],
    ["--model=a=b", "--data", "bundle.json", "--list-rules", "--version"],
    ["--timeout", "nan", "--gpus-per-pod", " 4 "],
    ["--format", "prometheus", "--output", "/tmp/x/lingjun.prom"],
    ["--format=npd", "--output=line.txt", "--strict"],
]

NOT_PLAIN = [
    ["-h"],
    ["--help"],
    ["--form", "json"],
    ["--format", "xml"],
    ["--format"],
    ["--format="],
    ["--timeout", "-1"],
    ["--timeout", "soon"],
    ["--gpus-per-pod", "two"],
    ["--gpus-per-pod", "1.5"],
    ["--model=-x"],
    ["--strict=yes"],
    ["--from", "a", "--from-collect-env", "b"],
    ["stray"],
    ["--", "--strict"],
    ["--strict", "--release", "--format"],
    ["-o", "report.txt"],
    ["--output", "-"],
    ["--format", "Prometheus"],
]


@pytest.mark.parametrize("argv", PLAIN, ids=" ".join)
def test_plain_command_lines_parse_as_argparse_does(argv):
    fast = fast_parse(argv)
    assert fast is not None
    expected = vars(build_parser().parse_args(argv))
    assert {k: repr(v) for k, v in vars(fast).items()} == {k: repr(v) for k, v in expected.items()}  # repr: nan == nan
    assert {k: type(v) for k, v in vars(fast).items()} == {k: type(v) for k, v in expected.items()}


@pytest.mark.parametrize("argv", NOT_PLAIN, ids=" ".join)
def test_other_command_lines_are_left_to_argparse(argv):
    assert fast_parse(argv) is None


def test_main_still_words_usage_errors_through_argparse(capsys):
    assert main(["--format", "xml"]) == 3
    assert "invalid choice: 'xml'" in capsys.readouterr().err
    assert main(["--from", "a", "--from-collect-env", "b"]) == 3
    assert "not allowed with argument" in capsys.readouterr().err


#: --collect '' is refused by the output-path check ("cannot write: an empty name"), tests/checks_redteam
STRING_OPTIONS = sorted(option for option, (_, kind) in FAST_VALUES.items() if kind is str and option != "--collect")


def test_string_options_are_known():
    assert {"--release", "--data", "--from", "--from-collect-env", "--model", "--deepspeed-config"} <= set(STRING_OPTIONS)


@pytest.mark.parametrize("option", STRING_OPTIONS)
@pytest.mark.parametrize("form", ["separate", "equals", "blank"])
def test_an_empty_value_is_a_usage_error_on_both_parsers(option, form, capsys, monkeypatch):
    """``--release ''`` used to be the same as no --release; every empty value is refused (exit 3), one line."""
    monkeypatch.delenv("LINGJUN_RELEASE", raising=False)
    argv = {"separate": [option, ""], "equals": [f"{option}="], "blank": [f"{option}=  "]}[form]
    capsys.readouterr()
    assert main(argv) == 3
    err = capsys.readouterr().err
    assert err.startswith(f"lingjun-check: {option}: an empty value names no ") and err.count("\n") == 1, err
    assert fast_parse(argv) is None or form == "blank"
    if form == "blank":  # the fast parser takes it; the same refusal follows
        assert getattr(fast_parse(argv), FAST_VALUES[option][0]).strip() == ""
