"""GPU and MIG UUIDs in CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES are masked in shared snapshots (try9 finding 5)."""

from __future__ import annotations

import json

from lingjun.checks.facts import Facts
from lingjun.checks.inputs.snapshot import redact, write_snapshot
from lingjun.checks.probes.env_vars import mask_device_ids

UUID = "GPU-1234abcd-1111-2222-3333-444455556666"


def test_uuids_become_placeholders_and_indices_stay():
    env = {"CUDA_VISIBLE_DEVICES": f"0,{UUID}, MIG-5678efgh-aaaa", "NVIDIA_VISIBLE_DEVICES": "all", "NCCL_DEBUG": "GPU-x"}
    assert mask_device_ids(env) == {"CUDA_VISIBLE_DEVICES": "0,GPU-***, MIG-***", "NVIDIA_VISIBLE_DEVICES": "all",
                                    "NCCL_DEBUG": "GPU-x"}


def test_snapshot_without_include_ids_masks_the_uuid(tmp_path):
    facts = Facts(env={"CUDA_VISIBLE_DEVICES": UUID, "NVIDIA_VISIBLE_DEVICES": f"{UUID},3"})
    path = tmp_path / "s.json"
    write_snapshot(facts, str(path))
    text = path.read_text(encoding="utf-8")
    assert "1234abcd" not in text
    env = json.loads(text)["env"]
    assert env["CUDA_VISIBLE_DEVICES"] == "GPU-***" and env["NVIDIA_VISIBLE_DEVICES"] == "GPU-***,3"


def test_include_ids_keeps_the_uuid():
    assert redact(Facts(env={"CUDA_VISIBLE_DEVICES": UUID}), include_ids=True).env["CUDA_VISIBLE_DEVICES"] == UUID


def test_a_5000_digit_number_drops_the_field_not_the_snapshot(tmp_path):
    from lingjun.checks.inputs.snapshot import read_snapshot
    path = tmp_path / "s.json"
    path.write_text('{"schema": "lingjun-check/snapshot/1", "origin": "snapshot", "shm": {"present": true, "size_bytes": '
                    + "9" * 5000 + ', "fs_type": "tmpfs"}, "host": {"hostname": ' + "7" * 30 + '}}', encoding="utf-8")
    facts, problems = read_snapshot(str(path))
    assert facts.shm.size_bytes is None and facts.shm.fs_type == "tmpfs"
    assert "shm.size_bytes: a number of 5000 digits is not a usable value; ignored" in problems
    assert "host.hostname: a number of 30 digits is not a usable value; ignored" in problems
