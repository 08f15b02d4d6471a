"""The error-signature gate rules: bounded regexes, examples that match their own signature only, references, identity."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.rules.signature_regex import BUDGET_S, LINE_LENGTH, hostile_lines, nested_quantifier, slowest_search
from lingjun.generator.checker_ids import checker_rule_ids
from lingjun.schema.gate.runner import run_gate
from lingjun.schema.loader import load_paths

SIGNATURE_RULES = ["data.signature-regex", "data.signature-examples", "data.signature-refs", "data.signature-identity"]
REAL = Path(__file__).resolve().parents[2] / "releases"


def _gate(root: Path, rule: str):
    result = load_paths([root])
    assert result.problems == [], [p.format() for p in result.problems]
    return [p for p in run_gate(Corpus.from_documents(result.documents), only=[rule], checker_rules=checker_rule_ids())]


@pytest.mark.parametrize("regex", [r"(a+)+b", r"(?:\w+\s?)*failed", r"(\d+){3}", r"((ab)*c)+", r"(?:x|(y+))*z"])
def test_nested_quantifiers_are_found(regex):
    assert nested_quantifier(regex)


@pytest.mark.parametrize("regex", [r"No space left on device", r"NET/IB ?: ?No device", r"Xid.{0,40}\b79\b",
                                   r"(?:ab){2,5}", r"error (\d+)", r"(?:foo|bar)+baz"])
def test_sound_expressions_are_not_nested(regex):
    assert not nested_quantifier(regex)


def test_hostile_lines_are_long_and_cover_the_pattern_characters_and_examples():
    lines = hostile_lines(r"Xid \d+", "NVRM: Xid", ["NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus."])
    assert all(len(line) == LINE_LENGTH for line in lines)
    assert "X" * LINE_LENGTH in lines and "\\" * LINE_LENGTH in lines
    assert any(line.startswith("NVRM: Xid (PCI") and line.count("fallen off") > 50 for line in lines)
    assert any(line.startswith("NVRM: Xid a") for line in lines)


def test_a_polynomial_backtracker_is_over_budget_and_a_literal_search_is_not():
    slow, line = slowest_search(re.compile(r".*x.*y.*z"), ["x" * LINE_LENGTH])
    assert slow > BUDGET_S and line is not None
    fast, _ = slowest_search(re.compile(r"No space left"), hostile_lines("No space left", "posix_fallocate failed", []))
    assert fast < BUDGET_S


def test_an_exponential_backtracker_is_interrupted_and_reported(tree):
    found = _gate(tree("signature-regex/fail"), "data.signature-regex")
    assert [(p.line, p.col) for p in found] == [(8, 12), (10, 12)]
    assert "'(x|x)*y' takes over 1 s (interrupted)" in found[1].message


def test_an_example_its_own_signature_does_not_match_is_reported(tree):
    found = _gate(tree("signature-examples/unmatched"), "data.signature-examples")
    assert [(p.line, p.col) for p in found] == [(10, 11)]
    assert "example does not match signature 'demo-overlap'" in found[0].message


def test_overlaps_allow_an_example_to_match_another_signature(tree):
    assert _gate(tree("signature-examples/pass"), "data.signature-examples") == []


def test_every_wrong_reference_of_a_signature_is_reported(tree):
    root = tree("signature-refs/fail")
    found = _gate(root, "data.signature-refs")
    by_place = {(Path(p.path).name, p.field): p.message for p in found}
    assert sorted(by_place) == sorted([
        ("demo-refs.yaml", "components.0"), ("demo-refs.yaml", "known_issues.0"), ("demo-refs.yaml", "overlaps.0"),
        ("demo-refs.yaml", "rules.0"), ("demo-refs.yaml", "causes.0.rules.0"), ("demo-refs.yaml", "causes.0.condition.components.vlm"),
        ("demo-issue.yaml", "signatures.0"),
    ])
    assert "did you mean 'demo-signature'?" in by_place[("demo-issue.yaml", "signatures.0")]


def test_a_duplicated_id_is_reported_on_the_later_file(tree):
    found = _gate(tree("signature-identity/fail"), "data.signature-identity")
    assert sorted((Path(p.path).name, p.message.split(";")[0]) for p in found) == [
        ("demo-copy.yaml", "signature 'demo-signature' is written in demo-copy.yaml"),
        ("demo-signature.yaml", "signature id 'demo-signature' is already used by " + str(Path(found[0].path).parent / "demo-copy.yaml")),
    ]


@pytest.mark.parametrize("rule", SIGNATURE_RULES)
def test_the_real_signatures_pass(rule):
    result = load_paths([REAL])
    found = run_gate(Corpus.from_documents(result.documents), only=[rule], checker_rules=checker_rule_ids())
    assert [p.format() for p in found] == []


def test_a_regex_anchored_to_the_line_start_is_reported(tree, tmp_path):
    """kubectl logs --prefix, torchrun's [rank0]: and time stamps come before the message: ^ would miss them."""
    root = tree("signature-regex/fail")
    target = root / "troubleshooting" / "demo-slow.yaml"
    text = target.read_text(encoding="utf-8")
    regex = re.search(r"regex: '([^']*)'", text).group(1)
    target.write_text(text.replace(f"regex: '{regex}'", "regex: '^Call to posix_fallocate'", 1), encoding="utf-8")
    found = _gate(root, "data.signature-regex")
    assert "is anchored to the start of the line" in found[0].message and (found[0].line, found[0].col) == (8, 12)


@pytest.mark.parametrize("regex", [r"WARN (?:[a-z]|[a-z][a-z])*!", r"Error: (?:[a-z]{1,2}){0,64}!"])
def test_a_backtracker_behind_its_own_words_is_over_budget(regex):
    """The hostile lines put the expression's own words before the run its classes take ("WARN " + "aaa...")."""
    took, _ = slowest_search(re.compile(regex), hostile_lines(regex, "NCCL WARN zzqq", []))
    assert took > BUDGET_S
