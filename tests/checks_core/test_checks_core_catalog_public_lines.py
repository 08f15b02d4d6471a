"""Real error lines from public reports (tests/fixtures/catalog_lines/public_lines.yaml: Xid kernel messages, NCCL
WARN lines, CUDA and NVML errors, nvidia-container-cli's errors as GitHub issues and NVIDIA's forums and docs print them, each with its report's
URL) are recognised and named by the error catalogs (catalog_lines.recognise): the Xid number, the CUDA API and enum
name, the NCCL subsystem and, where the catalog holds the format that printed the line, the format's file.

A line recognise() does not read yet stays in the fixture with its correct expectation and an ``xfail`` reason; the
test then fails strictly (XPASS) the day it is read, so the reason is removed with the fix."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlparse

import pytest
import yaml

from lingjun.checks.knowledge.catalog_lines import recognise
from lingjun.checks.knowledge.error_catalogs import embedded

CATALOGS = embedded()
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "catalog_lines" / "public_lines.yaml"
CASES = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))


def _tail(url: str) -> str:
    """The test id part of a report's URL: ``nccl-1814`` for github.com/NVIDIA/nccl/issues/1814, ``forums-371272``
    for a forum thread (its number, not its slug), else the last two path segments."""
    host, parts = urlparse(url).netloc, [p for p in urlparse(url).path.split("/") if p]
    if host == "github.com" and len(parts) >= 4 and parts[2] in ("issues", "pull"):
        tail = f"{parts[1]}-{parts[3]}"
    elif parts and parts[-1].isdigit():
        tail = f"{host.split('.')[0]}-{parts[-1]}"
    else:
        tail = "-".join(parts[-2:]) or host
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", tail)


def _params() -> "list":
    seen: dict = {}
    params = []
    for case in CASES:
        base = f"{case['catalog']}-{_tail(case['source'])}"
        seen[base] = seen.get(base, 0) + 1
        case_id = base + (f"-{seen[base]}" if seen[base] > 1 else "")
        marks = [pytest.mark.xfail(strict=True, reason=case["xfail"])] if case.get("xfail") else []
        params.append(pytest.param(case, id=case_id, marks=marks))
    return params


def _fields(match) -> dict:
    """What a match states, in the fixture's ``expect`` keys."""
    if match.catalog == "xid":
        return {"number": match.number}
    if match.catalog == "cuda":
        return {"api": match.api, "name": match.info.name if match.info is not None else None}
    return {"subsystem": match.subsystem, "file": match.info.file if match.info is not None else None}


def _meets(match, expect: dict) -> bool:
    """Whether ``match`` is the entry ``expect`` describes (an Xid or CUDA match must carry the catalog's entry)."""
    if match.catalog == "xid" and match.info is not CATALOGS.xid(expect["number"]):
        return False
    if match.catalog == "cuda" and match.info is None:
        return False
    got = _fields(match)
    return all(got[key] == value for key, value in expect.items())


def test_the_fixture_holds_real_lines_of_every_catalog():
    assert all({"line", "source", "catalog", "expect"} <= set(case) for case in CASES)
    assert all(case["source"].startswith("https://") for case in CASES)
    count = {catalog: sum(case["catalog"] == catalog for case in CASES)
             for catalog in ("xid", "cuda", "nccl", "container-cli")}
    assert count["xid"] >= 12 and count["cuda"] >= 15 and count["nccl"] >= 15 and count["container-cli"] >= 10, count
    cli = {case["expect"]["subsystem"] for case in CASES if case["catalog"] == "container-cli"}
    assert {"mount", "cgroups", "ldcache", "driver", "devices", "requirement"} <= cli <= set(CATALOGS.cli_subsystems)
    subsystems = {case["expect"]["subsystem"] for case in CASES if case["catalog"] == "nccl"}
    assert subsystems <= set(CATALOGS.subsystems), subsystems - set(CATALOGS.subsystems)
    assert {"ib", "socket", "shm", "p2p", "proxy", "bootstrap", "init", "topology", "cuda", "nvls"} <= subsystems
    for case in CASES:  # an expectation names a catalog entry that exists
        expect = case["expect"]
        if case["catalog"] == "xid":
            assert CATALOGS.xid(expect["number"]) is not None, case
        elif case["catalog"] == "cuda":
            info = CATALOGS.cuda_by_name(expect["name"])
            assert info is not None and info.api == expect["api"], case
        elif case["catalog"] == "container-cli":
            assert "file" not in expect or any(info.file == expect["file"] for info in CATALOGS.cli), case
        elif "file" in expect:  # a header's format (a macro) is named by where it was used, its other formats by file
            entries = [info for info in CATALOGS.nccl if info.file == expect["file"]]
            assert entries, case
            if not expect["file"].startswith("include/"):
                assert all(info.subsystem == expect["subsystem"] for info in entries), case


@pytest.mark.parametrize("case", _params())
def test_a_public_line_is_named_by_its_catalog(case):
    found = [m for m in recognise(case["line"], CATALOGS) if m.catalog == case["catalog"]]
    assert any(_meets(m, case["expect"]) for m in found), (case["line"], case["expect"], [_fields(m) for m in found])
