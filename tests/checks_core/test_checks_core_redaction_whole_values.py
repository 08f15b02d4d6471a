"""One masking function (``mask_text``) on whole values, on every output path but fleet's (tests/checks_fleet/
test_fleet_masking.py): the issue 36 red team's findings, each a secret that reached a report or a snapshot.

The secret's distinctive core is ``Qz7Wq9VxKp3Rt``; no eight characters of it may reach the output.
"""

from __future__ import annotations

import base64
import json

import pytest

from lingjun.checks import cli
from lingjun.checks.core.redaction import mask_text
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict
from lingjun.checks.probes.loader import split_ld_library_path

CORE = "Qz7Wq9VxKp3Rt"
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _leaks(text: str, core: str = CORE) -> bool:
    flat = "".join(text.split())
    return any(core[i:i + 8] in flat for i in range(len(core) - 7))


def _check(capsys, *args: str) -> str:
    capsys.readouterr()
    cli.main(list(args))
    out, err = capsys.readouterr()
    return out + err


#: (text, what mask_text makes of it): the forms the red team found kept
MASKED = [
    # a quoted value with blanks after a colon, in JSON and YAML
    ('{"password": "Qz7Wq9 VxKp3Rt horse"}', '{"password": "***"}'),
    ('password: "correct Qz7Wq9VxKp3Rt battery" x', 'password: "***" x'),
    # an escaped quote inside a quoted value
    ('password="Qz7Wq\\"9VxKp3Rt" x', 'password="***" x'),
    # a quoted value longer than 512 characters
    ('token="' + CORE * 50 + '" x', 'token="***" x'),
    # JSON-escaped quotes of a JSON log line: a pair, a JSON key, an escaped quote inside, Docker's "auth"
    (json.dumps({"msg": 'password="Qz7Wq9VxKp3Rt" x'}), '{"msg": "password=\\"***\\" x"}'),
    (json.dumps({"msg": 'password="Qz7Wq\\"9VxKp3Rt" x'}), '{"msg": "password=\\"***\\" x"}'),
    (json.dumps({"msg": '{"auth": "YWxpY2U6UXo3V3E5VnhLcDNSdA=="}'}), '{"msg": "{\\"auth\\": \\"***\\"}"}'),
    # a key longer than 64 characters
    ("LINGJUN_SERVICE_ACCOUNT_FOR_THE_INTERNAL_REGISTRY_MIRROR_IN_REGION_CN_HANGZHOU_PASSWORD=" + CORE,
     "LINGJUN_SERVICE_ACCOUNT_FOR_THE_INTERNAL_REGISTRY_MIRROR_IN_REGION_CN_HANGZHOU_PASSWORD=***"),
    # a flag whose name ends in a secret's name
    ("vllm serve m --hf-token Qz7Wq9VxKp3Rt --api-key Qz7Wq9VxKp3Ru", "vllm serve m --hf-token *** --api-key ***"),
    ("node---password Qz7Wq9VxKp3Rt", "node---password ***"),
    # after a colon, as in a path list
    ("/opt/lib:password=Qz7Wq9VxKp3Rt", "/opt/lib:password=***"),
    ("/opt:alice:Qz7Wq9VxKp3Rt@proxy.internal:3128:/usr/lib", "/opt:***@proxy.internal:3128:/usr/lib"),
    # a URL whose password holds an "@"
    ("https://alice:Qz7W@q9VxKp3Rt@registry.example.com/v2", "https://***@registry.example.com/v2"),
    # a query parameter after ";" with a quoted value
    (';--password="Qz7Wq9 VxKp3Rt" x', ';--password="***" x'),
]


@pytest.mark.parametrize("text,masked", MASKED)
def test_mask_text_masks_every_form_the_red_team_found_kept(text, masked):
    assert mask_text(text, identifiers=False) == masked


@pytest.mark.parametrize("text", [
    "--max-num-batched-tokens 8192 --tokenizer meta-llama/Llama-3 --skip-special-tokens",
    "NCCL_IB_HCA=mlx5_0:1,mlx5_1:1", "/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu",
    '{"max_tokens": 128, "tokenizer": "x"}',
])
def test_mask_text_keeps_settings_near_the_new_forms(text):
    assert mask_text(text, identifiers=False) == text


def test_mask_text_is_linear_on_hostile_values():
    import time

    values = ['password: "' + "x " * 500_000, ";password=" * 100_000, 'password="' + "\\" * 1_000_000,
              '\\"password\\": \\"' + "\\\\" * 500_000, "--token " * 125_000]
    start = time.perf_counter()
    for value in values:
        mask_text(value)
    assert time.perf_counter() - start < 5.0


# --log: the line masked whole before the 8 KiB window, the 32 KiB window and the quote cut it
LONG_LINES = {
    "key before an 8 KiB word": "x" * 9000 + ";password: Qz7Wq9VxKp3Rt " + OOM,
    "bearer before a 32 KiB word": "x" * 33000 + ";Bearer Qz7Wq9VxKp3Rt " + OOM,
    "quoted value cut at the 8 KiB window's end": OOM + ' password="Qz7 Qz7Wq9VxKp3Rt horse";' + "x" * 9000,
    "quoted value cut at the 32 KiB window's end": OOM + ' --password="Qz7 Qz7Wq9VxKp3Rt horse";' + "x" * 40000,
    "JSON log line": json.dumps({"level": "error", "msg": OOM + ' password="Qz7Wq9VxKp3Rt"'}),
    "JSON log line, Docker auths": json.dumps({"msg": OOM + ' {"auths": {"r": {"auth": "'
                                              + base64.b64encode(b"alice:Qz7Wq9VxKp3Rt").decode() + '"}}}'}),
}


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("case", sorted(LONG_LINES))
def test_log_quotes_mask_the_whole_line_before_any_cut(tmp_path, capsys, case, fmt):
    log = tmp_path / "job.log"
    log.write_text(LONG_LINES[case] + "\n")
    out = _check(capsys, "--log", str(log), "--log-only", "--format", fmt)
    assert "CUDA out of memory" in " ".join(out.split())  # the line is quoted
    core = base64.b64encode(b"alice:Qz7Wq9VxKp3Rt").decode()[:16] if "auths" in case else CORE
    assert not _leaks(out, core)


def test_log_quote_of_a_line_past_max_line_is_cut_at_a_blank_not_inside_a_token(tmp_path, capsys):
    from lingjun.checks.inputs.log_file import MAX_LINE

    token = "ghp_" + "Qz7Wq9VxKp3RtYbNcMdLfGhJkLzXcVbNmAsD"
    head = ("pad " * (MAX_LINE // 4))[:MAX_LINE - len(OOM) - 12] + OOM + " "
    log = tmp_path / "job.log"
    log.write_text(head + token + " " + "y" * (5 << 20) + "\n")  # no line end within 4 MiB: cut at MAX_LINE
    out = _check(capsys, "--log", str(log), "--log-only", "--format", "json")
    assert "CUDA out of memory" in out
    assert "ghp_Qz7W" not in out


def test_a_log_named_with_a_token_is_named_masked(tmp_path, capsys):
    log = tmp_path / "ghp_Qz7Wq9VxKp3RtYbNcMdLfGhJkLzXcVbNmAsD.log"
    log.write_text(OOM + "\n")
    out = _check(capsys, "--log", str(log), "--log-only")
    assert "***.log (1 line)" in " ".join(out.split()) and not _leaks(out)


def test_ld_library_path_is_masked_whole_before_the_split_whatever_it_holds():
    # (the value after a secret's name runs to a blank: the entries after it go with it)
    assert split_ld_library_path("/opt/lib:DB_PASSWORD:Qz7Wq9VxKp3Rt:/usr/lib") == ["/opt/lib", "DB_PASSWORD", "***"]
    entries = split_ld_library_path("/opt/lib:Authorization: token Qz7Wq9VxKp3Rt:/usr/lib")
    assert not _leaks(":".join(entries)) and entries[0] == "/opt/lib"


def test_a_snapshot_whose_ld_library_path_an_older_checker_split_is_masked_joined_again():
    data = Facts().to_dict()
    data["loader"]["ld_library_path"] = ["/opt/lib", "password", " Qz7Wq9VxKp3Rt", "/usr/lib"]
    facts, _ = facts_from_snapshot_dict(data)
    assert not _leaks(repr(facts.loader.ld_library_path))
    assert facts.loader.ld_library_path[0] == "/opt/lib"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_from_masks_flags_long_keys_and_quoted_values_with_blanks_in_every_string(tmp_path, capsys, fmt):
    data = Facts().to_dict()
    data["node"]["name"] = "node-1 --hf-token Qz7Wq9VxKp3Rt"
    data["symptoms"]["errors"] = [OOM + ' {"password": "Qz7Wq9 VxKp3Rt horse"}']
    data["env"] = {"CUDA_VISIBLE_DEVICES": "LINGJUN_SERVICE_ACCOUNT_FOR_THE_INTERNAL_REGISTRY_MIRROR_IN_REGION_CN_PASSWORD="
                   + CORE}
    snapshot = tmp_path / "s.json"
    snapshot.write_text(json.dumps(data))
    out = _check(capsys, "--from", str(snapshot), "--format", fmt)
    assert "CUDA out of memory" in " ".join(out.split()) and not _leaks(out)


def test_collect_from_a_snapshot_writes_ld_library_path_masked(tmp_path, capsys):
    data = Facts().to_dict()
    data["env"] = {"LD_LIBRARY_PATH": "/opt/lib:password=Qz7Wq9VxKp3Rt:/usr/lib"}
    snapshot = tmp_path / "s.json"
    snapshot.write_text(json.dumps(data))
    _check(capsys, "--from", str(snapshot), "--collect", str(tmp_path / "out.json"))
    written = (tmp_path / "out.json").read_text()
    assert "/opt/lib:password=***" in written and not _leaks(written)


def test_a_collect_env_paste_has_its_secrets_masked(tmp_path, capsys):
    from pathlib import Path

    fixtures = sorted(Path(__file__).resolve().parents[1].joinpath("fixtures").rglob("*collect_env*.txt"))
    if not fixtures:
        pytest.skip("no collect_env paste fixture")
    paste = fixtures[0].read_text(encoding="utf-8", errors="replace")
    paste = paste.replace("[pip3] ", "[pip3] torch @ git+https://alice:Qz7Wq9VxKp3Rt@github.com/pytorch/pytorch\n[pip3] ", 1)
    path = tmp_path / "paste.txt"
    path.write_text(paste)
    out = _check(capsys, "--from-collect-env", str(path), "--format", "json")
    assert not _leaks(out)


def test_a_long_run_of_colons_before_an_at_sign_masks_in_linear_time():
    """Red team RT39 F1.1: ``a:a:a:...@`` (125 KiB) took 13.8 s, the bare userinfo pattern's password part scanning to
    the end from every colon; with no colon in the password part it is one pass (a bound 100x the measured time)."""
    import time

    line = "a:" * 64_000 + "@x"
    start = time.process_time()
    masked = mask_text(line)
    assert time.process_time() - start < 2.0
    assert masked.endswith("***@x") or masked.endswith("@x")
    assert mask_text("u:pa:ss@host.internal") == "u:***@host.internal"  # the password whole
