"""--lang zh reports carry no English words the checker wrote itself (values such as 'unset', source labels, condition words).

Every real-world case (tests/fixtures/cases) and every red-team case (tests/fixtures/redteam) is rendered
in Chinese; English left in them must be names, versions, paths or quoted error strings, never one of
the words below, which rules and renderers produce.
"""

from __future__ import annotations

import json
import re
import sys

import pytest

from checks_redteam_kit import REDTEAM, REPO
from lingjun.checks.cli import main
from lingjun.checks.report.render_text import render_text

sys.path.insert(0, str(REPO / "tests" / "checks_rules"))
import checks_rules_kit as kit  # noqa: E402
from test_checks_rules_cases import CASE_IDS, _context  # noqa: E402

#: English the checker itself writes; none of it may reach a Chinese report
LEAKS = re.compile(
    r"\b(unset|not installed|None|none found|via|vs|not given|version unknown|release record|torch build|"
    r"Requires-Dist\)|no IPv4|on driver|not probed|observed|expected|more|built after|matches|cannot tell|"
    r"not in the component catalog|unreadable|architecture unknown|no GPU visible)\b"
)
REDTEAM_CASES = sorted(k for k in json.loads((REDTEAM / "expected.json").read_text(encoding="utf-8")) if not k.startswith("_"))


#: rule ids (cuda.torch-build-vs-driver) and other dotted names are names, not prose
_DOTTED = re.compile(r"[\w-]+(?:\.[\w-]+)+")


def _leaks(text: str) -> list[str]:
    return [f"{m.group(0)!r} in: {line.strip()[:160]}" for line in text.splitlines() if "http" not in line
            for m in LEAKS.finditer(_DOTTED.sub(" ", line))]


@pytest.mark.parametrize("case_id", CASE_IDS)
def test_real_world_case_in_chinese(case_id):
    ctx = _context(case_id)
    ctx.options.lang = "zh"
    assert _leaks(render_text(kit.all_findings(ctx), ctx.release, lang="zh")) == []


def _cli_zh(monkeypatch, capsys, *args):
    for name in ("LINGJUN_RELEASE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LINGJUN_CHECK_DEBUG", "1")
    capsys.readouterr()
    main(["--lang", "zh", "--no-color", *args])
    return capsys.readouterr().out


@pytest.mark.parametrize("case_id", REDTEAM_CASES)
def test_redteam_case_in_chinese(case_id, monkeypatch, capsys):
    spec = json.loads((REDTEAM / "expected.json").read_text(encoding="utf-8"))[case_id]
    args = ["--from", str(REDTEAM / spec["from"])] if "from" in spec else ["--from-collect-env", str(REDTEAM / spec["from_collect_env"])]
    if "deepspeed_config" in spec:
        args += ["--deepspeed-config", str(REDTEAM / spec["deepspeed_config"])]
    out = _cli_zh(monkeypatch, capsys, *args)
    assert "汇总" in out and _leaks(out) == []


@pytest.mark.parametrize("ref", ["training-nv-pytorch:25.07", "training-xpu-pytorch:25.05"])
def test_release_checks_in_chinese(ref, monkeypatch, capsys):
    """Against a real record (usage notes: CHECKPOINT_OPTIMIZATION, NCCL_SOCKET_IFNAME by pod size; packages missing here)."""
    out = _cli_zh(monkeypatch, capsys, "--release", ref, "--gpus-per-pod", "16")
    assert "发布版本" in out and _leaks(out) == []
    assert "[实际 未设置" in out or ref.startswith("training-xpu")
