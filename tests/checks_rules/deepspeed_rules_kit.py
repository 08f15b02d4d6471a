"""Running one DeepSpeed config rule on a config written to a temporary file."""

from __future__ import annotations

import json
from typing import Any, Optional

import checks_rules_kit as kit
from lingjun.checks.facts import Facts


def run(rule_id: str, tmp_path, config: Any, facts: Optional[Facts] = None, raw: Optional[str] = None):
    """Findings of ``rule_id`` for ``config`` (or the text ``raw``) given with --deepspeed-config; checked bilingual."""
    path = tmp_path / "ds_config.json"
    path.write_text(raw if raw is not None else json.dumps(config), encoding="utf-8")
    findings = kit.run(rule_id, kit.context(facts if facts is not None else Facts(), deepspeed_config=str(path)))
    kit.assert_bilingual(findings)
    return findings
