"""lingjun.checks.cli: usage errors worded by argparse, and an empty value of a text option refused (exit 3)."""

from __future__ import annotations

import argparse

import pytest

from lingjun.checks.cli import TEXT_OPTIONS, build_parser, main


def test_main_words_usage_errors_through_argparse(capsys):
    assert main(["--format", "xml"]) == 3
    assert "invalid choice: 'xml'" in capsys.readouterr().err
    assert main(["--from", "a", "--from-collect-env", "b"]) == 3
    assert "not allowed with argument" in capsys.readouterr().err


#: --collect '' is refused by the output-path check ("cannot write: an empty name"), tests/checks_redteam
STRING_OPTIONS = sorted(option for option in TEXT_OPTIONS if option != "--collect")


def test_text_options_are_every_option_of_the_parser_taking_text():
    text = {next(o for o in a.option_strings if o.startswith("--")): a.dest for a in build_parser()._actions
            if isinstance(a, argparse._StoreAction) and a.type in (None, str) and not a.choices}
    assert TEXT_OPTIONS == text


def test_string_options_are_known():
    assert {"--release", "--data", "--from", "--from-collect-env", "--model", "--deepspeed-config"} <= set(STRING_OPTIONS)


@pytest.mark.parametrize("option", STRING_OPTIONS)
@pytest.mark.parametrize("form", ["separate", "equals", "blank"])
def test_an_empty_value_is_a_usage_error(option, form, capsys, monkeypatch):
    """``--release ''`` used to be the same as no --release; every empty value is refused (exit 3), one line."""
    monkeypatch.delenv("LINGJUN_RELEASE", raising=False)
    argv = {"separate": [option, ""], "equals": [f"{option}="], "blank": [f"{option}=  "]}[form]
    capsys.readouterr()
    assert main(argv) == 3
    err = capsys.readouterr().err
    assert err.startswith(f"lingjun-check: {option}: an empty value names no ") and err.count("\n") == 1, err
