"""Masking, issue 36's fifth red team (F4-F6): a token right after a JSON or C escape, a URL-encoded byte or an
underscore; the colon form of secret keys YAML and JSON dumps write (``SECRET_KEY: x``, ``"private_key": "x"``);
Perl's and Ruby's ``password => 'x'``. Counts and sizes that merely contain a secret's word stay."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from lingjun.checks.core.redaction import mask_text

GHP = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
AKIA = "AKIAIOSFODNN7EXAMPLE"
HF = "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"


@pytest.mark.parametrize("text, secret", [
    ('"msg": "pw\\n' + GHP + '"', GHP),
    ('"key:\\t' + AKIA + '"', AKIA),
    ("x_" + GHP, GHP),
    ("https://h/?q=%20" + HF, HF),
    ("a=%3D" + AKIA, AKIA),
    ("SECRET_KEY: hunter2", "hunter2"),
    ('{"secret_key": "hunter2"}', "hunter2"),
    ("private_key: hunter2", "hunter2"),
    ("privateKey: hunter2", "hunter2"),
    ("jwt_secret_key: hunter2", "hunter2"),
    ("encryption_key: hunter2", "hunter2"),
    ("credentials: hunter2", "hunter2"),
    ("passphrase: hunter2", "hunter2"),
    ("password => 'hunter2'", "hunter2"),
    ('$db_password => "hunter2",', "hunter2"),
    # the second red team (M1-M6): Go's JSON escapes, aligned colons, camelCase AWS and Alibaba keys, quoted keys
    # before => and =, DB_PASS:, key=value after a bracket or a bar
    ('"url":"https://h/x?a=1\\u0026access_token=hunter2"', "hunter2"),
    ('"msg":"\\u003c' + GHP + '"', GHP),
    ("password:      hunter2", "hunter2"),
    ("Password     : hunter2", "hunter2"),
    ('"SecretAccessKey": "hunter2"', "hunter2"),
    ('"AccessKeySecret": "hunter2"', "hunter2"),
    ("'password' => 'hunter2'", "hunter2"),
    ('"password" = "hunter2"', "hunter2"),
    ("DB_PASS: hunter2", "hunter2"),
    ("[password=hunter2]", "hunter2"),
    ("| token=hunter2 |", "hunter2"),
    ("access_tokens=hunter2", "hunter2"),
])
def test_secret_is_masked(text, secret):
    assert secret not in mask_text(text)


@pytest.mark.parametrize("text", [
    "max_tokens: 512",
    "max_num_batched_tokens: 8192",
    "prompt tokens: 12",
    "key: value",
    "disk-1234567890abcdefghijkl",
    "sort by key: name",
    # M8: values a reader needs, whose keys hold a secret's word
    "max_tokens=512",
    "max_num_batched_tokens=8192",
    "tokenizer=llama",
    "signal=9",
    "num_key_value_heads=8",
    "compass: north",
    "Pass: 12",
])
def test_counts_and_ordinary_keys_stay(text):
    assert mask_text(text) == text


def test_log_quotes_in_json_keep_no_token_after_an_escape(tmp_path):
    log = tmp_path / "job.log"
    log.write_text('{"level": "error", "msg": "RuntimeError: CUDA error: out of memory\\n' + GHP + '"}\n'
                   "RuntimeError: boom SECRET_KEY: hunter2\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--log-only", "--log", str(log), "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    json.loads(proc.stdout)
    assert GHP not in proc.stdout and "hunter2" not in proc.stdout


@pytest.mark.parametrize("text, identifier", [
    ('"msg":"peer\\\\n10.0.0.5:80 down"', "10.0.0.5"),
    ('"x":"\\\\t10.1.2.3"', "10.1.2.3"),
    ('"g":"\\\\nGPU-12345678-1234-1234-1234-123456789abc"', "12345678-1234"),
    # the third red team's M11: after Go's \u003c / \u003d escapes, an IPv6 address after \n
    (r'"m":"\u003c10.0.0.5:80\u003e"', "10.0.0.5"),
    (r'"m":"a\u003d10.1.2.3"', "10.1.2.3"),
    (r'"g":"\u003cGPU-12345678-1234-1234-1234-123456789abc"', "12345678-1234"),
    (r'"m":"\n2001:db8::1"', "2001:db8"),
])
def test_an_identifier_after_a_json_escape_is_masked(text, identifier):
    """The second red team's M7: addresses and GPU UUIDs right after a JSON log line's \\n or \\t."""
    assert identifier not in mask_text(text)


@pytest.mark.parametrize("text", [
    r'{\\\"password\\\":\\\"hunter2\\\"}',  # JSON escaped twice (the third red team's M9)
    r'{"user":"a","password\u003dhunter2"}',  # Gson's default escapes
    r"{\u0027password\u0027: \u0027hunter2\u0027}",
    r'"x":"\nCookie: sid=hunter2"',
    r'"x":"\nAuthorization: token hunter2"',
    'password := hunter2',  # M10: Go
    r'"m":"\x01ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"',
])
def test_escaped_and_go_forms_are_masked(text):
    out = mask_text(text)
    assert "hunter2" not in out and "A1b2C3d4E5f6G7h8I9j0" not in out


def test_an_escaped_count_of_tokens_is_kept():
    assert mask_text(r'"max_tokens\u003d512"') == r'"max_tokens\u003d512"'
