"""lingjun-check --log: the log reader streams any file into the scanner, refuses what is not text with one line."""

from __future__ import annotations

import codecs
from pathlib import Path
import os
import subprocess
import sys

import pytest

from lingjun.checks.evidence import Evidence
from lingjun.checks.inputs import log_file
from lingjun.checks.inputs.log_file import LogError, scan_log
from lingjun.checks.knowledge.signatures import SignatureSet

LINE = "include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device"
SIGNATURES = [{"id": "shm", "printed_by": "nccl", "patterns": [{"literal": "posix_fallocate failed", "regex": "No space left"}]},
              {"id": "ib", "printed_by": "nccl", "patterns": [{"literal": "NET/IB : No device found", "regex": None}]}]


def scan(tmp_path, content: bytes, name: str = "job.log") -> Evidence:
    path = tmp_path / name
    path.write_bytes(content)
    evidence = Evidence()
    scan_log(str(path), SignatureSet(SIGNATURES), evidence)
    return evidence


def test_a_plain_log_gives_the_line_number_and_count_of_each_signature(tmp_path):
    text = "start\n" + LINE + "\nmiddle\nNCCL INFO NET/IB : No device found.\n" + LINE + "\n"
    evidence = scan(tmp_path, text.encode())
    assert [(h.signature, h.first.number, h.count) for h in evidence.hits] == [("shm", 2, 2), ("ib", 4, 1)]
    assert evidence.lines == 5
    assert evidence.hits[0].first.text == LINE


def test_line_numbers_stay_right_across_blocks(tmp_path, monkeypatch):
    monkeypatch.setattr(log_file, "BLOCK", 64)
    filler = "".join(f"line {i} with some filler text\n" for i in range(100))
    evidence = scan(tmp_path, (filler + LINE + "\n" + filler + "NET/IB : No device found\n").encode())
    assert [(h.signature, h.first.number) for h in evidence.hits] == [("shm", 101), ("ib", 202)]
    assert evidence.lines == 202


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_utf16_and_utf32_logs_are_decoded(tmp_path, encoding):
    content = ("first\n" + LINE + "\n").encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):
        assert not content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))  # without a BOM
    evidence = scan(tmp_path, content)
    assert [(h.signature, h.first.number) for h in evidence.hits] == [("shm", 2)]


@pytest.mark.parametrize("content, words", [
    (os.urandom(1) * 0 + bytes(range(256)) * 400, "is not a text log"),
    (b"\x1f\x8b\x08\x00" + b"\x00" * 100, "is gzip-compressed, not a text log; read the text inside with zcat "),
])
def test_binary_and_compressed_logs_are_refused_with_one_line(tmp_path, content, words):
    with pytest.raises(LogError) as caught:
        scan(tmp_path, content)
    message = str(caught.value)
    assert words in message and "\n" not in message and message.startswith(str(tmp_path))


def test_a_few_nul_bytes_of_a_crashed_writer_do_not_make_a_log_binary(tmp_path):
    evidence = scan(tmp_path, ("ok\n" * 2000 + LINE + "\n").encode() + b"\x00" * 40 + b"\n")
    assert [h.first.number for h in evidence.hits] == [2001]


def test_a_line_longer_than_the_limit_is_cut_and_noted(tmp_path, monkeypatch):
    monkeypatch.setattr(log_file, "BLOCK", 4096)
    monkeypatch.setattr(log_file, "MAX_LINE", 10_000)
    content = b"x" * 50_000 + b" " + LINE.encode() + b"\n" + LINE.encode() + b"\n"
    evidence = scan(tmp_path, content)
    # the literal of line 1 lies past the cut: only line 2 matches, and the cut is noted
    assert [(h.signature, h.first.number, h.count) for h in evidence.hits] == [("shm", 2, 1)]
    assert evidence.lines == 2
    assert evidence.notes and "1 line(s) longer than 9 KiB" in evidence.notes[0][0]


@pytest.mark.parametrize("kind", ["directory", "fifo", "missing"])
def test_paths_that_are_not_log_files_are_refused(tmp_path, kind):
    path = tmp_path / "x"
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    with pytest.raises(LogError) as caught:
        scan_log(str(path), SignatureSet(SIGNATURES), Evidence())
    assert {"directory": "a directory", "fifo": "not a regular file", "missing": "No such file"}[kind] in str(caught.value)


def test_a_kubectl_prefix_log_states_that_the_job_ran_in_a_pod(tmp_path):
    evidence = scan(tmp_path, f"[pod/train-0/trainer] hello\n[pod/train-0/trainer] {LINE}\n".encode())
    assert evidence.stated["place"].value == "kubernetes"
    assert evidence.hits[0].first.number == 2


def _snapshot(tmp_path):
    snapshot = tmp_path / "s.json"
    snapshot.write_text('{"schema": "lingjun-check/snapshot/1", "origin": "snapshot", "shm": {"present": true, "size_bytes": 67108864}}')
    return snapshot


def test_the_cli_reads_a_log_from_standard_input(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--log", "-", "--from", str(_snapshot(tmp_path)),
                           "--no-color", "--lang", "en"], input=(LINE + "\n").encode(), capture_output=True)
    assert proc.returncode == 1, proc.stderr
    assert b"standard input:1 shows:" in proc.stdout


def test_the_cli_refuses_a_binary_log_with_one_line_and_exit_3(tmp_path):
    log = tmp_path / "core"
    log.write_bytes(bytes(range(256)) * 100)
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--log", str(log), "--from", str(_snapshot(tmp_path))],
                          capture_output=True, text=True)
    assert proc.returncode == 3 and proc.stdout == ""
    assert proc.stderr == f"lingjun-check: {log}: is not a text log (binary data: 100 NUL and 2600 other control bytes in its first 64 KiB)\n"


def test_the_cli_report_quotes_a_log_line_with_its_controls_escaped(tmp_path):
    log = tmp_path / "job.log"
    log.write_bytes(("\x1b]0;title\x07 \u202e " + LINE + "\n").encode())
    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", "--log", str(log), "--from", str(_snapshot(tmp_path)),
                           "--no-color", "--lang", "en"], capture_output=True, text=True,
                          env={**__import__("os").environ, "COLUMNS": "10000"})  # the quoted line on one line
    assert proc.returncode == 1, proc.stderr
    assert "\x1b" not in proc.stdout and "\u202e" not in proc.stdout and "\x07" not in proc.stdout
    assert f"{log}:1 shows:" in proc.stdout and "\\x1b]0;title\\x07" in proc.stdout


LOGS = __import__("pathlib").Path(__file__).resolve().parents[1] / "fixtures" / "logs"


def _cli_json(*args: str) -> dict:
    import json

    proc = subprocess.run([sys.executable, "-m", "lingjun.checks", *args, "--format", "json", "--lang", "en"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_a_kubectl_prefix_nccl_log_names_its_lines_its_facts_and_the_pod_remedy(tmp_path):
    report = _cli_json("--log", str(LOGS / "kubectl-nccl-shm.log"), "--from", str(_snapshot(tmp_path)))
    evidence = report["evidence"]
    assert [(m["signature"], m["where"].rsplit(":", 1)[1]) for m in evidence["matches"]] == [
        ("nccl-libibverbs-not-found", "7"), ("nccl-shm-no-space", "10"), ("nccl-shm-create-failed", "12"),
        ("nccl-unhandled-system-error", "19")]
    stated = {name: fact["value"] for name, fact in evidence["stated"].items()}
    assert stated["place"] == "kubernetes" and stated["nccl.version"] == "2.21.5" and stated["vllm.version"] == "0.9.1"
    assert stated["nccl.network"] == "socket" and stated["driver.cuda"] == "12.8"
    assert evidence["lines"] == 19
    # the address NCCL printed is masked in what the report quotes
    assert "10.244.0.233" not in json_text(report)
    lines = {f["observed"].rsplit(":", 1)[1]: f for f in report["findings"] if f["rule"] == "evidence.error-lines"}
    # NCCL prints the libibverbs line on every node without RDMA: whether it matters is not shown here
    assert lines["7"]["severity"] == "warning"
    shm = lines["10"]
    assert shm["severity"] == "error" and shm["remedy"].startswith("Kubernetes: Mount an emptyDir volume")
    assert "Docker:" not in shm["remedy"]


def test_a_dmesg_log_states_the_xid_and_matches_its_signature(tmp_path):
    report = _cli_json("--log", str(LOGS / "dmesg-xid.log"), "--from", str(_snapshot(tmp_path)))
    assert report["evidence"]["xids"] == [79]
    assert [m["signature"] for m in report["evidence"]["matches"]] == ["kernel-xid-79-fallen-off-bus"]


def test_a_python_traceback_matches_the_line_that_names_the_failure(tmp_path):
    report = _cli_json("--log", str(LOGS / "traceback-driver-too-old.log"), "--from", str(_snapshot(tmp_path)))
    assert [(m["signature"], m["where"]) for m in report["evidence"]["matches"]] == [
        ("pytorch-driver-too-old", f"{LOGS / 'traceback-driver-too-old.log'}:6")]


def json_text(report: dict) -> str:
    import json

    return json.dumps(report)


def test_a_million_lines_are_read_in_one_pass(tmp_path):
    path = tmp_path / "big.log"
    with open(path, "wb") as out:
        out.write(b"node-1:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n" * 999_999)
        out.write((LINE + "\n").encode())
    evidence = Evidence()
    scan_log(str(path), SignatureSet(SIGNATURES), evidence)
    assert evidence.lines == 1_000_000
    assert [(h.signature, h.first.number) for h in evidence.hits] == [("shm", 1_000_000)]


# --- hostile logs of the red-team trial -------------------------------------------------------------------------


def test_a_line_of_question_marks_is_masked_in_linear_time(tmp_path):
    import time

    start = time.perf_counter()
    evidence = scan(tmp_path, ((LINE + " =" + "?" * 8150 + "\n") * 10).encode())
    assert time.perf_counter() - start < 5 and evidence.hits[0].count == 10


@pytest.mark.parametrize("secret, kept", [
    ("password: hunter2xyz", "hunter2xyz"), ('{"password": "hunter3xyz"}', "hunter3xyz"),
    ("--token tok5xyzabc", "tok5xyzabc"), ("X-Api-Key: hunter10xyz", "hunter10xyz"),
    ("aws_secret_access_key: wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"),
])
def test_secrets_beside_an_error_line_are_masked(tmp_path, secret, kept):
    evidence = scan(tmp_path, f"{LINE} {secret}\n".encode())
    assert kept not in evidence.hits[0].first.text and "***" in evidence.hits[0].first.text


def test_a_secret_across_the_examined_window_is_masked_whole(tmp_path):
    token = "ghp_" + "A" * 36
    evidence = scan(tmp_path, ("x" * 8106 + " " + LINE + " " + token + "\n").encode())
    assert "ghp_" not in evidence.hits[0].first.text


def test_a_literal_past_the_first_8192_characters_of_a_long_line_is_found(tmp_path):
    evidence = scan(tmp_path, ("y" * 9000 + " " + LINE + "\n").encode())
    assert [(h.signature, h.first.number) for h in evidence.hits] == [("shm", 1)]


def test_a_progress_bar_log_of_carriage_returns_is_read_line_by_line(tmp_path):
    evidence = scan(tmp_path, b"progress 10%\r" * 200_000 + LINE.encode() + b"\r")
    assert [(h.signature, h.first.number) for h in evidence.hits] == [("shm", 200_001)]
    assert evidence.lines == 200_001 and not evidence.notes


def test_crlf_split_across_blocks_is_one_line_end(tmp_path, monkeypatch):
    monkeypatch.setattr(log_file, "BLOCK", 64)
    text = b"".join(b"line %02d padded to fill the block.....\r\n" % i for i in range(40)) + LINE.encode() + b"\r\n"
    evidence = scan(tmp_path, text)
    assert [(h.signature, h.first.number) for h in evidence.hits] == [("shm", 41)] and evidence.lines == 41


def test_a_run_of_nul_bytes_a_crash_left_is_not_binary(tmp_path):
    evidence = scan(tmp_path, b"step 1 loss 2.3\n" * 1000 + b"\x00" * 4096 + LINE.encode() + b"\n")
    assert [h.signature for h in evidence.hits] == ["shm"]


def test_a_log_given_twice_is_read_once(tmp_path):
    from lingjun.checks.facts import Facts
    from lingjun.checks.inputs.log_file import gather_evidence

    log = tmp_path / "job.log"
    log.write_text(LINE + "\n")
    data = type("Data", (), {"signatures": SIGNATURES})()
    evidence = gather_evidence(data, Facts(), [str(log)] * 50)
    assert evidence.lines == 1 and evidence.hits[0].count == 1
    assert evidence.notes == [(f"{log} was given more than once and is read once", f"{log} 被多次给出，只读取一次")]


def test_the_user_name_in_a_log_path_is_masked(tmp_path):
    from lingjun.checks.inputs.log_file import log_name

    assert log_name("/home/alice/runs/job.log") == "/home/***/runs/job.log"


def test_facts_a_log_states_are_masked_as_its_lines_are(tmp_path):
    token = "ghp_" + "B" * 36
    evidence = scan(tmp_path, (f"NVIDIA {token} with CUDA capability sm_90 is not compatible with the current PyTorch "
                               "installation.\nNCCL INFO Bootstrap : Using 10.20.30.40<0>\n").encode())
    assert token not in str(evidence.stated) and "10.20.30.40" not in str(evidence.stated)


def test_a_hand_made_bundle_with_a_broken_or_backtracking_expression(tmp_path):
    import json
    import time

    from lingjun.checks.knowledge.bundle import BundleError, KnowledgeData

    bundle = json.loads((Path(log_file.__file__).parents[1] / "data" / "bundle.json").read_text(encoding="utf-8"))
    bundle["signatures"][0]["patterns"][0]["regex"] = "("
    with pytest.raises(BundleError) as caught:
        KnowledgeData.from_dict(bundle, "b.json")
    assert str(caught.value).startswith("b.json: unusable release data: signatures[0].patterns[0].regex: does not compile")
    # a backtracking expression that compiles is bounded by the scanner's time limit on each search
    literal = bundle["signatures"][0]["patterns"][0]["literal"]
    sigset = SignatureSet([{"id": "slow", "printed_by": "nccl", "patterns": [{"literal": literal, "regex": "(a|a)*b"}]}])
    start = time.perf_counter()
    sigset.scanner(Evidence(), "x").feed_line(literal + " " + "a" * 60, 1)
    assert time.perf_counter() - start < 2


def test_a_log_read_on_a_machine_without_an_nvidia_driver_is_judged_alone(tmp_path):
    """`lingjun-check --log job.log` on a laptop or bastion host (the probed root shows no NVIDIA driver): this
    machine's /dev/shm, interfaces and toolkit are not the job's, so they never decide the log's causes."""
    log = tmp_path / "job.log"
    log.write_text("node1:1:1 [0] NCCL WARN Error: failed to extend /dev/shm/nccl-abc to 9637892 bytes\n", encoding="utf-8")
    root = tmp_path / "root"
    root.mkdir()
    report = _cli_json("--root", str(root), "--log", str(log))
    assert any("shows no NVIDIA driver" in note for note in report["evidence"]["notes"])
    (line,) = [f for f in report["findings"] if f["rule"] == "evidence.error-lines"]
    # the leading cause is the line's own, not one this machine's roomy /dev/shm would pick ("already filled")
    assert line["severity"] == "error" and "Most likely cause here: /dev/shm is smaller" in line["message"]
