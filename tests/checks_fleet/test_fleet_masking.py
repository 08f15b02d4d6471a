"""fleet masks secrets as ``--from`` does (issue 36 red team): a snapshot written by hand, edited or taken by an older
checker, and a report given as an input, may hold secrets; none reaches a fleet report in any format."""

from __future__ import annotations

import copy
import json

import pytest

import fleet_corpus
from lingjun.checks.fleet._cli import main

CORE = "Qz7Wq9VxKp3Rt"
#: secrets in the forms a snapshot's strings can hold them
SECRETS = ["password=" + CORE, 'password: "Qz7Wq9 VxKp3Rt horse"', "ghp_" + CORE + "YbNcMdLfGhJkLzXcVbNmAsD",
           "https://alice:" + CORE + "@registry.example.com/v2", "--hf-token " + CORE]


def _leaks(text: str) -> bool:
    flat = "".join(text.split())
    return any(CORE[i:i + 8] in flat for i in range(len(CORE) - 7))


def _fleet(capsys, *args: str) -> str:
    capsys.readouterr()
    main(list(args))
    out, err = capsys.readouterr()
    return out + err


@pytest.fixture(scope="module")
def three_nodes():
    return fleet_corpus.node_snapshots(3)


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
@pytest.mark.parametrize("secret", SECRETS)
def test_fleet_masks_the_secrets_of_a_snapshot_in_every_format(tmp_path, capsys, three_nodes, secret, fmt):
    snaps = copy.deepcopy(three_nodes)
    for i, snap in enumerate(snaps):
        snap["env"]["NCCL_SOCKET_IFNAME"] = f"eth{i}," + secret  # differs between nodes: shown per node
        snap["env"]["NCCL_DEBUG_FILE"] = secret
        snap["node"]["name"] = f"node-{i} {secret}"
        snap["symptoms"]["errors"] = ["torch.OutOfMemoryError: CUDA out of memory. " + secret]
    for i, snap in enumerate(snaps):
        (tmp_path / f"n{i}.json").write_text(json.dumps(snap))
    out = _fleet(capsys, str(tmp_path), "--format", fmt)
    assert "node-0" in out and not _leaks(out)


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_fleet_masks_the_secrets_of_a_report_given_as_an_input(tmp_path, capsys, fmt):
    report = {"schema": "lingjun-check/report/1", "node": {"name": "node-1 --hf-token " + CORE, "source": "option"},
              "exit_code": 1, "summary": {"error": 1, "warning": 0, "info": 0, "ok": 0, "skipped": 0},
              "facts": {"driver_version": "570.124.06 password=" + CORE},
              "findings": [{"rule": "evidence.error-lines", "severity": "error",
                            "message": "job.log:1 shows: «" + "x " * 2000 + 'password: "Qz7Wq9 VxKp3Rt horse"»'}]}
    (tmp_path / "r.json").write_text(json.dumps(report))
    out = _fleet(capsys, str(tmp_path / "r.json"), "--format", fmt)
    assert "node-1" in out and not _leaks(out)


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_fleet_masks_the_value_of_a_secret_named_variable_and_a_token_in_a_name(tmp_path, capsys, three_nodes, fmt):
    """Red team F7, F8: a hand-written or older snapshot may hold NCCL_IB_TOKEN (a plain value, no shape to know it
    by) and a token pasted into a variable's name; --collect keeps neither, --from and fleet mask both."""
    snaps = copy.deepcopy(three_nodes)
    for i, snap in enumerate(snaps):
        snap["env"]["NCCL_IB_TOKEN"] = CORE + f"aa{i}"
        snap["env"]["NCCL_PASSWORD"] = CORE
        snap["env"]["NCCL_IB_HCA ghp_" + CORE + "YbNcMdLfGhJkLzXcVbNmAsD"] = "mlx5_0"
        (tmp_path / f"n{i}.json").write_text(json.dumps(snap))
    out = _fleet(capsys, str(tmp_path), "--format", fmt)
    assert "NCCL_IB_TOKEN" in out and not _leaks(out)


def test_from_masks_the_value_of_a_secret_named_variable(tmp_path, three_nodes):
    from lingjun.checks.inputs.snapshot import facts_from_snapshot_dict

    snap = copy.deepcopy(three_nodes[0])
    snap["env"]["NCCL_IB_TOKEN"] = CORE
    facts, _ = facts_from_snapshot_dict(snap)
    assert facts.env["NCCL_IB_TOKEN"] == "***" and facts.env.get("NCCL_SOCKET_IFNAME") == snap["env"].get("NCCL_SOCKET_IFNAME")
