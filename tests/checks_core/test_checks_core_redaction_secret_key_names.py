"""Which keys ``mask_text`` reads as a secret's (issue 36 red team, O1): a key names a secret by a word of it (``HF_TOKEN``,
``aws_secret_access_key``, ``dbPassword``), not by a secret's word inside another word (``key_len``, ``num_keys``,
``passed``, ``tokens_per_sec``): those hold counts and flags a reader of a report needs as evidence.

Each key is tried in the three forms whose key decides: ``key=value`` in free text, a URL's query parameter, and
Gson's escaped ``key\\u003dvalue``.
"""

from __future__ import annotations

import json

import pytest

from lingjun.checks import cli
from lingjun.checks.core.redaction import mask_text

#: keys that name a secret: their value is masked in every form
SECRET_KEYS = [
    "password", "passwd", "pwd", "passphrase", "secret", "token", "api_key", "apikey", "APIKEY", "apiKey", "api-key",
    "X-Api-Key", "access_token", "auth_token", "refresh_token", "id_token", "access_tokens", "private_key", "privateKey",
    "credentials", "cred", "creds", "auth", "oauth", "HF_TOKEN", "GITHUB_TOKEN", "token2", "aws_secret_access_key",
    "secretaccesskey", "AccessKeySecret", "OSSAccessKeyId", "client_secret", "dbPassword", "DB_PASSWORD", "mypassword",
    "NCCL_IB_PASSWD", "DB_PASS", "UCX_IB_KEY", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "sig",
    "session", "sessionid", "jsessionid", "cookie", "signing_key", "encryption_key",
]
#: keys whose words only contain a secret's word: counts, sizes, flags and rates, kept with their values
KEPT_KEYS = [
    ("passed", "10"), ("key_len", "128"), ("num_keys", "4"), ("sort_keys", "True"), ("tokens_per_sec", "1234.5"),
    ("max_tokens", "auto"), ("max_new_tokens", "512"), ("tokenizer", "llama"), ("keyword", "nccl"), ("monkey", "patched"),
    ("passthrough", "1"), ("key_size", "2048"), ("token_ids", "5"), ("num_sessions", "2"), ("credit", "3"),
    ("author", "Alice"), ("authority", "ca.example.com"), ("signal", "9"), ("sigma", "0.5"),
    ("num_key_value_heads", "8"), ("bypass", "yes"), ("compass", "north"), ("secretary", "bob"),
]


def _forms(key: str, value: str) -> "list[tuple[str, str]]":
    """``(text, masked)`` for ``key`` and ``value`` in each form, ``masked`` with the value masked."""
    return [(f"INFO {key}={value} next", f"INFO {key}=*** next"),
            (f"https://h.example.com/x?a=1&{key}={value}&b=2", f"https://h.example.com/x?a=1&{key}=***&b=2"),
            (f'{{"a":"{key}\\u003d{value}"}}', f'{{"a":"{key}\\u003d***"}}')]


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_a_key_that_names_a_secret_has_its_value_masked_in_every_form(key):
    for text, masked in _forms(key, "hunter2"):
        assert mask_text(text) == masked


@pytest.mark.parametrize("key,value", KEPT_KEYS, ids=[key for key, _ in KEPT_KEYS])
def test_a_key_that_only_contains_a_secrets_word_keeps_its_value_in_every_form(key, value):
    for text, _ in _forms(key, value):
        assert mask_text(text) == text


def test_the_red_teams_line_of_counts_and_flags_is_kept_whole():
    line = "INFO passed=10 key_len=128 num_keys=4 sort_keys=True tokens_per_sec=1234.5"
    assert mask_text(line) == line


def test_counts_beside_a_secret_are_kept_and_the_secret_masked():
    assert mask_text("step passed=10 max_tokens=512 HF_TOKEN=hunter2 key_len=128 dbPassword=hunter3") == \
        "step passed=10 max_tokens=512 HF_TOKEN=*** key_len=128 dbPassword=***"


def test_a_quoted_log_line_keeps_its_counts_and_masks_its_secret(tmp_path, capsys):
    log = tmp_path / "job.log"
    log.write_text("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB; passed=10 key_len=128 "
                   "num_keys=4 tokens_per_sec=1234.5 api_key=hunter2\n")
    capsys.readouterr()
    cli.main(["--log", str(log), "--log-only", "--format", "json"])
    out = capsys.readouterr().out
    quotes = [line for line in json.dumps(json.loads(out)).split('"') if "CUDA out of memory" in line]
    assert quotes and all("passed=10 key_len=128 num_keys=4 tokens_per_sec=1234.5 api_key=***" in q for q in quotes)
    assert "hunter2" not in out
