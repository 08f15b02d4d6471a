"""What torch expects of cuDNN and NCCL, shared by the libraries rules.

Private helper: the version torch was built against or pins in its
``Requires-Dist`` (``nvidia-cudnn-cu12==8.9.2.26``, ``nvidia-nccl-cu12==2.19.3``),
else the release record's component.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from lingjun.checks.context import CheckContext
from lingjun.checks.core.requirement_name import leading_name, normalise
from lingjun.checks.report.findings import Text
from lingjun.checks.core.native_version import Triple
from lingjun.checks.coverage import source_label
from lingjun.checks.knowledge.record_view import record_components

__all__ = ["expected_version", "resolved_text"]


def _torch_pin(ctx: CheckContext, wheel_prefix: str) -> Optional[str]:
    torch = ctx.facts.distribution("torch")
    wheel = re.compile(rf"^{wheel_prefix}-cu\d+$")
    for line in (torch.requires if torch else []):
        name = leading_name(line)
        if name is None or not wheel.match(name):
            continue  # a valid requirement has this name (see requirement_name): not a pin on the wheel
        from packaging.requirements import InvalidRequirement, Requirement  # deferred: a plain or live check never needs it

        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if wheel.match(normalise(req.name)):
            for spec in req.specifier:
                if spec.operator in ("==", "==="):
                    return spec.version
    return None


_TORCH_BUILD = Text("torch build", "torch 构建信息")
_REQUIRES_DIST = Text("torch's Requires-Dist", "torch 的 Requires-Dist")
_RELEASE_RECORD = Text("release record", "发布记录")


def resolved_text(version: str, path: str, via: "Optional[str]") -> Text:
    """The report's "observed" for a library the loader resolves: version, path and how it was found."""
    if via:
        return Text(f"{version} ({path} via {via})", f"{version}（{path}，经由 {via}）")
    return Text(f"{version} ({path})", f"{version}（{path}）")


def expected_version(ctx: CheckContext, kind: str, parse: Callable[[object], Optional[Triple]]) -> tuple[Optional[Triple], Text]:
    """``(version, source)`` torch (or the release) expects for ``kind`` (``cudnn`` or ``nccl``); ``source`` names where
    the value came from in both languages: torch's build or Requires-Dist (live), the snapshot field, or the release record."""
    lib = ctx.facts.cudnn if kind == "cudnn" else ctx.facts.nccl
    torch = ctx.facts.torch

    facts = ctx.facts
    candidates: list[tuple[str, Text]] = []
    if kind == "cudnn" and torch is not None and torch.cudnn_version:
        candidates.append((torch.cudnn_version, source_label(facts, "torch.cudnn_version", _TORCH_BUILD)))
    if lib.expected_by_torch:
        candidates.append((lib.expected_by_torch, source_label(facts, f"{kind}.expected_by_torch", _REQUIRES_DIST)))
    pin = _torch_pin(ctx, f"nvidia-{kind}")
    if pin:
        # read from the torch distribution's own Requires-Dist lines, whatever the input
        candidates.append((pin, _REQUIRES_DIST))
    for entry in record_components(ctx.record, facts.host.machine):
        comp = ctx.data.catalog_entry(entry.id)
        if comp is not None and comp.probe.kind == kind and entry.version:
            candidates.append((entry.version, _RELEASE_RECORD))
    for text, source in candidates:
        version = parse(text)
        if version is not None:
            return version, source
    return None, Text("", "")
