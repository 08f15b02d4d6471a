"""The error-signature gate rules: bounded regexes, examples that match their own signature only, references, identity."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lingjun.schema.gate.corpus import Corpus
from lingjun.schema.gate.rules.signature_regex import (BUDGET_S, LINE_LENGTH, MAX_ADVERSARIAL, adjacent_repeats,
                                                       adversarial_lines, ambiguous_repeat, empty_repeat, hidden_requirement,
                                                       hostile_lines,
                                                       nested_quantifier, slowest_search, static_refusal, timing_refusal)
from lingjun.generator.checker_ids import checker_rule_ids
from lingjun.generator.cli import main
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


def test_an_exponential_backtracker_is_reported_and_a_search_is_interrupted(tree):
    found = _gate(tree("signature-regex/fail"), "data.signature-regex")
    assert [(p.line, p.col) for p in found] == [(8, 12), (10, 12)]
    assert "'(x|x)*y' of signature 'demo-slow' repeats a part that reads 'x' in more than one way" in found[1].message
    took, line = slowest_search(re.compile(r"(x|x)*y"), ["x" * LINE_LENGTH])
    assert took == float("inf") and line == "x" * LINE_LENGTH


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


# -- repeats that backtrack without bound: proven by shape, and found by the adversarial lines ---------------------------

AMBIGUOUS_EXAMPLES = [(r"NCCL WARN (?:\d\.|\d|\.)* failed", "0."), (r"NCCL WARN (?:xy|x|y)*z", "xy")]

#: ten patterns of the real records (releases/troubleshooting/), of every shape they use
REAL_PATTERNS = [
    r"No such file or directory: '[^']*/bin/nvcc'",
    r"cannot find -l(?:cudart|curand|cublas(?:Lt)?|cusparse|cusolver|cufft|nvrtc|nvToolsExt)\b",
    r"NVRM: Xid \([^)]{0,48}\): 1(19|20),",
    r"NET/IB\w{0,8} ?: ?Got completion (from peer|with error)",
    r"\(size [1-9][0-9]{0,19}\)",
    r"NCCL WARN Attribute \S{1,60} of node \S{1,60} not found",
    r"Timed out after \d+ seconds waiting for clients\. \d+/\d+ clients joined",
    r"failed \(exitcode: (?!-9\)|-7\))-?\d+\)",
    r"exitcode\s*: (?!-9 |-7 )-?\d+ \(pid: \d+\)",
    r"\bSignal (?!9 |7 )\d+ \([^)]{1,40}\) received by PID \d+",
]


def _static_refusals(regex: str) -> list[str]:
    found = []
    if nested_quantifier(regex):
        found.append("nested quantifier")
    if empty_repeat(regex):
        found.append("repeated part matching empty")
    if ambiguous_repeat(regex) is not None:
        found.append(f"reads {ambiguous_repeat(regex)!r} two ways")
    if adjacent_repeats(regex) is not None:
        found.append(f"adjacent repeats share {adjacent_repeats(regex)!r}")
    return found


@pytest.mark.parametrize("regex", [regex for regex, _ in AMBIGUOUS_EXAMPLES]
                         + [r"(x|x)*y", r"(?:\d?\d)*x", r"W (?:x?x?)*y", r"(?:a|ab|b)+!", r"(x|x){0,64}y"])
def test_an_ambiguous_alternation_under_a_repeat_is_refused_statically(regex):
    assert not nested_quantifier(regex)
    assert ambiguous_repeat(regex) is not None


@pytest.mark.parametrize("regex, unit", AMBIGUOUS_EXAMPLES)
def test_an_ambiguous_alternation_is_over_budget_on_its_adversarial_lines(regex, unit):
    """The old hostile lines (one character repeated) miss "1.1.1." and "xyxy": the lines made of the pattern's own parts do not."""
    compiled = re.compile(regex)
    assert slowest_search(compiled, hostile_lines(regex, "NCCL WARN", []))[0] < BUDGET_S
    lines = adversarial_lines(regex)
    run = [line for line in lines if line.startswith("NCCL WARN " + unit * 100)]
    assert run and all(len(line) == LINE_LENGTH for line in lines) and len(lines) <= MAX_ADVERSARIAL
    took, line = slowest_search(compiled, run)
    assert took > BUDGET_S and line in run


@pytest.mark.parametrize("regex", [r"\d+\d+x", r"\w*\s?\w*failed", r".*.*x", r"\d+(?:\.)?\d+!",
                                   r"(?:user/\d+|enroot)\S*: Permission denied"])
def test_overlapping_unbounded_repeats_in_a_row_are_refused(regex):
    assert adjacent_repeats(regex) is not None


@pytest.mark.parametrize("regex", [r".*?x.*", r"\d+\.\d+", r"\S+ of node \S+", r"exitcode\s*: -?\d+", r"\w+\s+\d+",
                                   r"[^ ]+ \S+"])
def test_unbounded_repeats_with_a_required_character_between_are_accepted(regex):
    assert adjacent_repeats(regex) is None


@pytest.mark.parametrize("regex, text", [(r"(?:a\d)+(?:b\d)+!", None), (r"(?:ab)+(?:ba)+!", None), (r"(?:a\d)+\d+!", None),
                                         (r"(?:ab)+(?:ab)+!", "ba"), (r"[^ ]+ ?\S+!", "a")])
def test_adjacent_repeats_are_refused_only_when_both_repeat_one_text(regex, text):
    """Sharing a character is not enough: ``(?:a\\d)+(?:b\\d)+`` shares "0" but a run splits between its repeats one way."""
    assert adjacent_repeats(regex) == text


@pytest.mark.parametrize("regex", [r"(?:x|)*y", r"(?:x?)+y", r"(?:a|b?)*c"])
def test_a_repeated_part_that_can_match_empty_is_refused(regex):
    assert empty_repeat(regex)


@pytest.mark.parametrize("regex", [r"(?:foo|bar)+baz", r"(?:ab|ac)*d", r"(?i)(?:a|A)*b", r"(?:\d{1,3}\.){3}\d{1,3}",
                                   r"(?:a{2})+b", r"(?:ab){2,5}", r"(?:\d+,)?\d"])
def test_unambiguous_repeats_are_accepted(regex):
    assert _static_refusals(regex) == []


@pytest.mark.parametrize("regex", REAL_PATTERNS)
def test_real_world_patterns_are_accepted(regex):
    assert _static_refusals(regex) == []
    took, line = slowest_search(re.compile(regex), adversarial_lines(regex))
    assert took < BUDGET_S, line[:40]


#: the pattern of container-enroot-runtime-dir-denied before it was rewritten: \\d+ then \\S* both take a run of digits
ENROOT_BEFORE = (r"(?:pyxis: +mkdir: cannot create directory \S?/run/user/\d+|cannot create directory \S?/run/enroot)\S*: "
                 r"Permission denied")
#: one example of each shape refused without running it, and the words its reason starts with
STATIC_REFUSALS = [
    (r"NCCL WARN (?:\w+\s?)* failed", "repeats a part that itself repeats without bound"),
    (r"NCCL WARN (?:\d|)* failed", "repeats without bound a part that can match the empty string"),
    (r"NCCL WARN (?:\d\.|\d|\.)* failed", "repeats a part that reads '0..' in more than one way"),
    (r"NCCL WARN (?:xy|x|y)*z", "repeats a part that reads 'xyy' in more than one way"),
    (r"Timed out after (?:\d?\d)* seconds", "repeats a part that reads"),
    (ENROOT_BEFORE, "has two unbounded repeats in a row that both take '0'"),
]


@pytest.mark.parametrize("regex, reason", STATIC_REFUSALS)
def test_each_refused_shape_is_named(regex, reason):
    assert static_refusal(regex).startswith(reason)


def test_the_rewritten_enroot_pattern_matches_what_it_did_and_passes():
    result = load_paths([REAL / "troubleshooting" / "container-enroot-runtime-dir-denied.yaml"])
    signature = result.documents[0].model
    regex = signature.patterns[0].regex
    assert regex != ENROOT_BEFORE and static_refusal(regex) is None
    assert timing_refusal(regex, signature.patterns[0].literal, [e.line for e in signature.examples]) is None
    lines = [e.line for e in signature.examples] + [
        "mkdir: cannot create directory '/run/user/1000': Permission denied",
        "error: pyxis:     mkdir: cannot create directory /run/user/42/enroot: Permission denied",
        "error: pyxis:     mkdir: cannot create directory '/run/user/': Permission denied",
        "mkdir: cannot create directory '/run/enroot/user-1000': Permission denied",
        "mkdir: cannot create directory '/home/user/data': Permission denied",
        "pyxis: mkdir: cannot create directory /run/user/1000 (Permission denied)"]
    assert [bool(re.search(regex, line)) for line in lines] == [bool(re.search(ENROOT_BEFORE, line)) for line in lines]


def test_the_issue_examples_fail_validate_with_one_line_each(tree, capsys):
    """``lingjun-kb validate`` exits 1 and names the file, the field and the signature of each ambiguous regex."""
    root = _demo_slow(tree("signature-regex/fail"), r"NCCL WARN (?:\d\.|\d|\.)* failed", r"NCCL WARN (?:xy|x|y)*z")
    code = main(["validate", str(root)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    found = [line for line in out if "data.signature-regex" in line]
    target = root / "troubleshooting" / "demo-slow.yaml"
    assert [line.split(": regex ")[0] for line in found] == [f"{target}:8:12: patterns.0.regex",
                                                              f"{target}:10:12: patterns.1.regex"]
    assert all("of signature 'demo-slow' repeats a part that reads" in line and "backtracks exponentially" in line
               and line.endswith("[error data.signature-regex]") for line in found)


def _demo_slow(root: Path, first: str, second: str) -> Path:
    """``root`` (a tree with the signature-regex/fail overlay) with the two regexes of demo-slow replaced by ``first``
    and ``second``."""
    target = root / "troubleshooting" / "demo-slow.yaml"
    text = target.read_text(encoding="utf-8")
    text = text.replace(r"regex: 'error: (\w+\s?)*failed'", f"regex: '{first}'")
    text = text.replace(r"regex: '(x|x)*y'", f"regex: '{second}'")
    target.write_text(text, encoding="utf-8")
    return root


def test_every_real_pattern_passes_the_static_rules():
    result = load_paths([REAL])
    refused = [(signature.id, pattern.regex, _static_refusals(pattern.regex))
               for _, signature in Corpus.from_documents(result.documents).signatures()
               for pattern in signature.patterns if pattern.regex is not None and _static_refusals(pattern.regex)]
    assert refused == []


def test_each_static_refusal_is_reported_with_the_signature_and_the_reason(tree):
    root = _demo_slow(tree("signature-regex/fail"), r"NCCL WARN (?:xy|x|y)*z", r"\d+\d+x")
    found = _gate(root, "data.signature-regex")
    assert [(p.line, p.col) for p in found] == [(8, 12), (10, 12)]
    assert ("regex 'NCCL WARN (?:xy|x|y)*z' of signature 'demo-slow' repeats a part that reads" in found[0].message
            and "backtracks exponentially" in found[0].message)
    assert (r"regex '\\d+\\d+x' of signature 'demo-slow' has two unbounded repeats in a row that both take '0'"
            in found[1].message and "backtracks polynomially" in found[1].message)


# -- what the proofs and the timed lines cannot see through (issue 36, the red team's F1) ------------------------------

#: a cubic tail (``.*:.*:.*!`` on a line of colons) behind a text the timed lines never hold
CUBIC_BEHIND = [r"NCCL WARN (?=Q).*:.*:.*!", r"NCCL WARN (?<=N)Q.*:.*:.*!", r"NCCL WARN (Q)\1.*:.*:.*!",
                r"NCCL WARN (Q)?(?(1).*:.*:.*!|x)", r"NCCL WARN (?!(?!Q)).*:.*:.*!"]


@pytest.mark.parametrize("regex", CUBIC_BEHIND)
def test_a_slow_part_behind_a_required_text_is_refused_before_it_is_timed(regex):
    assert static_refusal(regex).startswith("holds a ")
    # why it must be refused by shape: timed, it stays within budget, since no timed line holds the required text
    # (a negative lookaround is also timed left out, which catches the double negative even without the shape test)
    timed = timing_refusal(regex, "NCCL WARN", [])
    assert timed is None if "(?!" not in regex else "negative lookarounds and word boundaries left out" in timed
    # while the same tail written out plainly is refused by timing
    assert timing_refusal(r"NCCL WARN Q.*:.*:.*!", "NCCL WARN", []).startswith("takes over")


def test_the_cubic_tail_itself_is_slow_on_a_line_that_holds_the_required_text():
    """What a crafted log line does to the pattern the gate let through before: seconds, not milliseconds."""
    line = "NCCL WARN Q" + ":" * 1500
    took, _ = slowest_search(re.compile(CUBIC_BEHIND[0]), [line])
    assert took > BUDGET_S


@pytest.mark.parametrize("regex, hidden", [(r"x(?=y)", "a positive lookaround"), (r"(?<=x)y", "a positive lookaround"),
                                           (r"(a)\1", "a backreference"), (r"(a)?(?(1)b|c)", "a conditional on a group"),
                                           (r"(?!(?!a))b", "a lookaround inside a lookaround"),
                                           (r"(?!a+b)c", "a lookaround that repeats without bound"),
                                           (r"(?!x{1,80})c", "a lookaround that repeats without bound")])
def test_hidden_requirement_names_the_part(regex, hidden):
    assert hidden_requirement(regex) == hidden


@pytest.mark.parametrize("regex", [r"failed \(exitcode: (?!-9\)|-7\))-?\d+\)", r"(?<![\"'])Ninja is required",
                                   r"https://(?!registry-1\.docker\.io/v2/[\w-]{1,63}\.)\S+ returned"])
def test_a_bounded_negative_lookaround_is_accepted(regex):
    assert hidden_requirement(regex) is None and static_refusal(regex) is None


def test_no_record_regex_hides_a_requirement():
    from lingjun.schema.loader import load_paths as load
    paths = sorted((REAL / "troubleshooting").glob("*.yaml"))
    regexes = [p.regex for doc in load(paths).documents for p in doc.model.patterns if p.regex]
    assert len(regexes) > 20 and [r for r in regexes if hidden_requirement(r)] == []


@pytest.mark.parametrize("regex", [
    r"RTSLOW failure(?![^b]).*Q.*Q.*!",  # a negative lookahead of a negated class demands a "b"
    r"XYZ(?!a)\w.*=.*=.*!",  # narrows \w to what the gate's lines do not pick
    r"(?i)XYZ(?![^k]).*Q.*Q.*!",
])
def test_a_slow_part_behind_a_negative_lookaround_is_timed_without_it(regex):
    from lingjun.schema.gate.rules.signature_regex import static_refusal, timing_refusal

    assert static_refusal(regex) is None
    reason = timing_refusal(regex, regex[:6], [])
    assert reason is not None and "with its negative lookarounds and word boundaries left out" in reason


def test_bounded_repeats_in_a_row_are_timed_from_every_start_of_a_line():
    from lingjun.schema.gate.rules.signature_regex import timing_refusal

    reason = timing_refusal(r"XYZ[a-z]{0,64}[a-z]{0,64}[a-z]{0,64}[a-z]{0,64}!", "XYZ", [])
    assert reason is not None and "takes" in reason


@pytest.mark.parametrize("regex, stripped", [
    (r"failed \(exitcode: (?!-9\)|-7\))-?\d+\)", r"failed \(exitcode: -?\d+\)"),
    (r"(?<![\"'])Ninja is required", r"Ninja is required"),
    (r"a(?![)\]])b\(c", r"ab\(c"),
    (r"no lookaround", None),
])
def test_without_negative_lookarounds_leaves_the_rest_as_written(regex, stripped):
    from lingjun.schema.gate.rules.signature_regex import timing_refusal, without_negative_lookarounds

    assert without_negative_lookarounds(regex) == stripped
    assert timing_refusal(regex, regex[:4], []) is None


@pytest.mark.parametrize("regex", [
    r"RTSLOW failure\b.*Q.*Q.*!",  # the second red team's G1: a word boundary the gate's letters never pass
    r"XYZ\b[a-z]{0,64}[a-z]{0,64}[a-z]{0,64}[a-z]{0,64}!",
])
def test_a_slow_part_behind_a_word_boundary_is_timed_without_it(regex):
    from lingjun.schema.gate.rules.signature_regex import static_refusal, timing_refusal

    assert static_refusal(regex) is None
    assert "takes over" in timing_refusal(regex, regex[:6], [])


@pytest.mark.parametrize("regex, stripped", [
    (r"RTSLOW [(?!]x.*Q", None),  # G2: '(?!' inside a class is no lookaround: nothing to leave out
    (r"RTSLOW (?#c(?!)x", r"RTSLOW x"),  # G2: a comment left out whole
    (r"\bSignal (?!9 |7 )\d+", r"Signal \d+"),
])
def test_assertions_are_read_outside_classes_and_comments(regex, stripped):
    from lingjun.schema.gate.rules.signature_regex import without_negative_lookarounds

    assert without_negative_lookarounds(regex) == stripped


def test_a_group_with_flags_of_its_own_is_refused():
    """The third red team's H1: '(?i:b)' made the gate read the whole expression as case-insensitive."""
    from lingjun.schema.gate.rules.signature_regex import static_refusal

    assert static_refusal(r"RTSLOW failure(?i:b).*Q.*Q.*!").startswith("holds a group with flags of its own")
    assert static_refusal(r"(?i)RTSLOW failure b") is None


@pytest.mark.parametrize("regex", [r"RTSLOW failure(?:$|b).*Q.*Q.*!", r"RTSLOW failure(?:\Z|b).*Q.*Q.*!",
                                   r"RTSLOW failure(?:^|b).*Q.*Q.*!"])
def test_a_slow_part_behind_an_anchor_branch_is_timed_without_it(regex):
    """H2: the gate's shortest branch was an anchor no line passes in the middle, so the tail was never timed."""
    from lingjun.schema.gate.rules.signature_regex import timing_refusal

    assert "takes over" in timing_refusal(regex, "RTSLOW", [])
