"""The literal pre-checks of ``checks/core/redaction.py`` change no result, and make long plain values cheap.

``mask_secrets`` and ``mask_identifiers`` skip a pattern when the value lacks the literal text the pattern cannot
match without (:data:`TOKEN_SHAPE_LITERALS` for the token shapes, a secret's name for the case-insensitive
patterns, a digit-dot-digit for IPv4 ...).  Here: every token shape has its literals (read from the pattern
itself); the case folding that the word checks assume is re's own; and the functions give what trying every
pattern gives (:func:`_plain_mask_secrets`, :func:`_plain_mask_identifiers`: the functions as they were before
the pre-checks) over the privacy tests' corpus, the documented examples and thousands of random and hostile
strings made of the fragments the patterns look for.
"""

from __future__ import annotations

import random
import re
import time

import pytest

from lingjun.checks.core import redaction as r
from lingjun.checks.core.redaction import TOKEN_SHAPE_LITERALS, TOKEN_SHAPES, mask_identifiers, mask_secrets

from test_checks_redteam_collect_privacy import IDENTIFIER_SHAPES, IDENTIFIERS, KEPT, SECRET_SHAPES, SECRETS

try:  # the parser of re: re._parser from Python 3.11, sre_parse before
    from re import _constants as _sre, _parser as _sre_parse
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

_ALL_TOKEN_SHAPES = re.compile("|".join(f"(?:{shape})" for shape in TOKEN_SHAPES), re.DOTALL)


def _plain_mask_secrets(text: str) -> str:
    """``mask_secrets`` as it was before the literal pre-checks: every pattern its old guard let through (the header
    credentials' patterns with no guard at all)."""
    if "@" in text:
        text = r._URL_USERINFO.sub(r.MASK + "@", text)
        text = r._BARE_USERINFO.sub(r.MASK + "@", text)
    if "=" in text:
        text = r._SECRET_PARAMETER.sub(r._masked_value, text)
        text = r._SECRET_PAIR.sub(r._masked_value, text)
    if ":" in text:
        text = r._SECRET_COLON.sub(r._masked_value, text)
    if "--" in text:
        text = r._SECRET_FLAG.sub(r._masked_value, text)
    # every pattern of a header credential tried, unguarded: the old guard (text.lower()) let "authorİzation: x",
    # which the case-insensitive pattern matches, through unmasked
    text = r._AUTHORIZATION.sub(lambda m: m.group(1) + r.MASK, text)
    text = r._BEARER.sub(lambda m: m.group(1) + r.MASK, text)
    text = r._BASIC.sub(r._basic_credential, text)
    text = r._mask_cookies(text)
    return _ALL_TOKEN_SHAPES.sub(r.MASK, text)


def _plain_mask_identifiers(text: str, keep_versions: bool = False) -> str:
    """``mask_identifiers`` as it was before the literal pre-checks."""
    text = r._DEVICE_UUID.sub(lambda m: f"{m.group(1) or m.group(2)}-{r.MASK}", text)
    text = r._PEER_IPV4.sub(r.MASK, text)
    if not keep_versions:
        text = r._BARE_IPV4.sub(r.MASK, text)
    if "[" in text:
        text = r._BRACKETED_IPV6.sub(lambda m: m.group() if m.group() in ("[::]", "[::1]") else f"[{r.MASK}]", text)
    if text.count(":") >= 2:
        text = r._BARE_IPV6.sub(r._ipv6_or_same, text)
    text = r._EMAIL.sub(r.MASK + "@", text)
    if "/home/" in text or "/Users/" in text:
        text = r._HOME_USER.sub(lambda m: m.group(1) + r.MASK, text)
    if ":\\" in text:
        text = r._WINDOWS_USER.sub(lambda m: m.group(1) + r.MASK, text)
    if "~" in text:
        text = r._TILDE_USER.sub("~" + r.MASK, text)
    return text


# ---------------------------------------------------------------------------- the tables the pre-checks read


def _literal_starts(shape: str) -> set:
    """The literal texts a match of ``shape`` begins with (a lookbehind's literal text counted in): the pattern's
    leading literals, character sets and alternatives expanded, up to the first repeat or lookahead."""
    return _starts(_sre_parse.parse(shape))[0]


def _zero_width_lookbehinds(op, av) -> bool:
    """A lookbehind, or a group of alternative lookbehinds (``(?:(?<![A-Za-z0-9])|(?<=\\\\n))``): it adds no text."""
    if op is _sre.ASSERT_NOT or (op is _sre.ASSERT and av[0] == -1 and not all(o is _sre.LITERAL for o, _ in av[1])):
        return op is _sre.ASSERT_NOT or av[0] == -1
    if op is _sre.SUBPATTERN and len(av[3]) == 1 and av[3][0][0] is _sre.BRANCH:
        return all(len(branch) == 1 and branch[0][0] in (_sre.ASSERT, _sre.ASSERT_NOT) and branch[0][1][0] == -1
                   for branch in av[3][0][1][1])
    return False


def _starts(items) -> tuple:
    """``(starts, whole)``: the literal beginnings of the parsed sequence ``items``; ``whole``: they are all of it."""
    starts = {""}
    for op, av in items:
        if op is _sre.AT or _zero_width_lookbehinds(op, av):  # \b, or where a token may start: zero-width
            continue
        if op is _sre.ASSERT and av[0] == -1 and all(o is _sre.LITERAL for o, _ in av[1]):
            starts = {s + "".join(chr(c) for _, c in av[1]) for s in starts}
            continue
        whole = True
        if op is _sre.LITERAL:
            choices = {chr(av)}
        elif op is _sre.IN and all(o is _sre.LITERAL for o, _ in av):
            choices = {chr(c) for _, c in av}
        elif op is _sre.BRANCH or op is _sre.SUBPATTERN:
            parts = [_starts(branch) for branch in av[1]] if op is _sre.BRANCH else [_starts(av[3])]
            choices = set().union(*(part for part, _ in parts))
            whole = all(complete for _, complete in parts)
        else:
            return starts, False
        starts = {s + c for s in starts for c in choices}
        if not whole:
            return starts, False
    return starts, True


def test_every_token_shape_has_its_literals():
    """Each shape's literals: one of them is in every match (or just before it), and none is there for nothing."""
    assert len(TOKEN_SHAPE_LITERALS) == len(TOKEN_SHAPES)
    for shape, literals in zip(TOKEN_SHAPES, TOKEN_SHAPE_LITERALS):
        starts = _literal_starts(shape)
        assert starts and all(starts), shape  # a shape without a leading literal would need another pre-check
        assert all(any(literal in start for literal in literals) for start in starts), (shape, starts)
        assert all(any(literal in start for start in starts) for literal in literals), (shape, literals)


def test_the_literal_starts_are_read_from_the_pattern():
    assert _literal_starts(r"\bgh[pousr]_[A-Za-z0-9]{20,}") == {"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}
    assert _literal_starts(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b") == {"AKIA", "ASIA"}
    assert _literal_starts(r"(?<=hooks\.slack\.com/services/)[^\s]+") == {"hooks.slack.com/services/"}
    assert _literal_starts(r"\bhf_(?=[A-Za-z]*[0-9])[A-Za-z0-9]{30,}") == {"hf_"}
    assert _literal_starts(r"\bsk-(?:proj-)?(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}") == {"sk-"}
    assert _literal_starts(r"a(?:bc|d[ef]+)g") == {"abc", "ad"}
    assert _literal_starts(r"[a-z]+x") == {""}


def _first_letters(items) -> set:
    """The letters (lower case) a match of the parsed sequence ``items`` can begin with, zero-width parts passed over."""
    for op, av in items:
        if op in (_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT):
            continue
        if op is _sre.LITERAL:
            return {chr(av).lower()}
        if op is _sre.IN and all(o is _sre.LITERAL for o, _ in av):
            return {chr(c).lower() for _, c in av}
        if op is _sre.BRANCH:
            return set().union(*(_first_letters(branch) for branch in av[1]))
        if op is _sre.SUBPATTERN:
            return _first_letters(av[3])
        if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT) and av[0] >= 1:
            return _first_letters(av[2])
        raise AssertionError(f"a key's word that does not start with a letter: {op}")
    return set()


def test_the_letters_secret_keys_are_looked_for_at_are_the_first_letters_of_their_words():
    """A position at another letter than :data:`_KEY_WORD_LETTERS` is passed over before the words are tried: every
    word must start with one of them, and none is there for nothing."""
    words = [r._SECRET_KEY_WORDS, r._SECRET_KEY_ENDINGS, r._QUALIFIED_KEY, r._LAST_KEY_WORD]
    letters = set().union(*(_first_letters(_sre_parse.parse(f"(?:{word})")) for word in words))
    assert letters == set(r._KEY_WORD_LETTERS)


def test_the_case_twins_are_all_that_re_takes_for_an_ascii_letter():
    """The word pre-checks lower-case the value and replace these; re's case-insensitive matching knows no others."""
    every = "".join(chr(c) for c in range(128, 0x110000) if not 0xD800 <= c < 0xE000)
    found = {}
    for twin in re.findall("(?i)[a-z]", every):
        (letter,) = [a for a in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch("(?i)" + a, twin)]
        if twin.lower() != letter:
            found[twin] = letter
    assert found == {twin: letter for twin, letter in r._ASCII_CASE_TWINS.items() if twin.lower() != letter}
    assert all(re.fullmatch("(?i)" + letter, twin) for twin, letter in r._ASCII_CASE_TWINS.items())


# ---------------------------------------------------------------------------- same results as every pattern

#: what the patterns look for, and what comes near it: joined at random into the hostile strings
FRAGMENTS = [
    "@", ":", "=", "==", ">=", "?", "&", "#", ";", ",", "/", "//", "://", "--", "-", "_", ".", " ", "\n", "'", '"', "(",
    ")", "{", "}", "[", "]", "%", "~", "\\", "*", "***", "user:pw@", "https://u:p@h", "alice:s3cret@proxy.internal:3128",
    "password", "PassWord", "pa\u017fsword", "\u017fecret", "to\u212aen", "ses\u0131on", "S\u0130G", "pwd", "secret", "token",
    "api_key", "x-api-key", "X-Api-Key", "key", "cred", "auth", "cookie", "private", "sig", "hunter2", "--password ",
    "--token", "Authorization: ", "authorization=", "Bearer ", "bearer abcdefgh12", "Basic ", "basic dXNlcjpwYXNz",
    "QWxhZGRpbg==", "ghp_", "gho_", "github_pat_", "AKIA", "ASIA", "IOSFODNN7EXAMPLE", "LTAI", "5tQ9exampleKey01", "hf_",
    "abcdefghijklmnopqrstuvwxyz012345", "sk-", "proj-", "sk-learn", "xoxb-", "xoxz-", "eyJ", "eyJhbGciOiJIUzI1NiJ9",
    "hooks.slack.com/services/", "T000/B000/X", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
    "STS.", "NUgYrLnoC37mZZCNnAbez2Ezu", "AIza", "SyD-EXAMPLEexample1234567890abcdefg", "ms-", "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d",
    "a1" * 12, "0123456789", "9", "1.2", "10.0.0.5", "192.0.2.44", "9.1.0.70", ":29500", "/16", "::", "2001:db8::1",
    "fe80::1%eth0", "2001:0db8:0000:0000:0000:ff00:0042:8329", "02:42:ac:11:00:02", "12:30:45",
    "GPU-8932f937-d72c-4e30-b24c-4f8a1a0a2b3c", "MIG-GPU-7a6b5c4d-3e2f-1a0b-9c8d-7e6f5a4b3c2d/1/0", "MIG-", "gpu-",
    "/home/", "/Users/", "/homework/", "alice", "C:\\Users\\", "c:\\u\u017fers\\", "D:\\Documents and Settings\\",
    "~grace/", "~***", "key_len", "num_keys", "passed", "tokens_per_sec", "dbPassword", "OSSAccessKeyId", "HF_TOKEN",
    "apiKey", "monkey", "libnccl-net-1.2.3.4.so", "1.2.3.4-1ubuntu", "-1+cuda", "TensorRT-", "<43891>", "\u0130", "\u0131", "\u017f", "\u212a", "\u00e9", "中文", "\x1b[31m", "\u202e", "G" * 50,
]


def _random_strings(count: int, seed: int) -> list:
    rng = random.Random(seed)
    return ["".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 12))) for _ in range(count)]


CORPUS = sorted({
    *(value for _, value, _ in SECRETS), *(value for _, value, _ in IDENTIFIERS), *(value for _, value in KEPT),
    *(planted for _, planted, _ in SECRET_SHAPES + IDENTIFIER_SHAPES),
    "https://u:p@h/x?access_token=abc&x=1", "alice:s3cret@proxy.internal:3128", "198.51.100.7:5000,/home/alice/venv/lib",
    "peer=10.0.0.5 cudnn==9.1.0.70", "Basic Configuration", "basic troubleshooting steps", "Basic QWxhZGRpbg==",
    "STS.short", "ms-swift", "AIza-too-short", "tokens: 2048", "max_tokens:16", "", " ", "=", ":", "@",
}) + sorted(FRAGMENTS)


@pytest.mark.parametrize("seed", range(3))
def test_mask_secrets_gives_what_every_pattern_gives(seed):
    texts = CORPUS + _random_strings(1000, seed)
    for text in texts:
        assert mask_secrets(text) == _plain_mask_secrets(text), repr(text)


@pytest.mark.parametrize("seed", range(3))
def test_mask_identifiers_gives_what_every_pattern_gives(seed):
    texts = CORPUS + _random_strings(1000, 100 + seed)
    for text in texts + [mask_secrets(t) for t in texts]:
        for keep in (False, True):
            assert mask_identifiers(text, keep) == _plain_mask_identifiers(text, keep), (repr(text), keep)


@pytest.mark.parametrize("filler", ["G", "9", "a b ", "a:b ", "x=y;", "1.2.", "::", "~/", "@", "\u017f", "中"])
def test_long_values_give_what_every_pattern_gives(filler):
    """Long runs of one fragment, alone and around a secret and an address."""
    run = filler * (4_000 // len(filler))
    for text in (run, run + " password=hunter2 " + run, run + "ghp_" + "a1" * 12 + run, run + " 10.0.0.5:80 " + run):
        assert mask_secrets(text) == _plain_mask_secrets(text)
        assert mask_identifiers(text) == _plain_mask_identifiers(text)
        assert mask_identifiers(text, True) == _plain_mask_identifiers(text, True)


def test_a_long_value_with_nothing_to_mask_is_cheap():
    """Eight 2 MB GPU names masked in well under a second (every pattern tried took about 3 s for each)."""
    name = "NVIDIA " + "G" * 2_000_000
    started = time.process_time()
    for _ in range(8):
        assert mask_identifiers(mask_secrets(name)) == name
    assert time.process_time() - started < 2.0


@pytest.mark.parametrize("text, masked", [
    ("authorİzation: tok3n-value", "authorİzation: ***"),  # U+0130, an "i" to the case-insensitive pattern
    ("AUTHORİZATION=Bearer abcdefgh123", "AUTHORİZATION=Bearer ***"),
    # a header set as key=value (OTEL_EXPORTER_OTLP_HEADERS): the scheme kept, the credential after it masked
    ("Authorization=Bearer abcdefgh123,x-team=ml", "Authorization=Bearer ***,x-team=ml"),
    ("api-key=Token 0123456789abcdef", "api-key=Token ***"),
    ("baſic dXNlcjpwYXNzd29yZA==", "baſic ***"),  # U+017F, an "s"; the word is base64 of user:password
])
def test_a_header_credential_is_masked_after_its_scheme_and_with_a_look_alike_letter(text, masked):
    assert mask_secrets(text) == masked
