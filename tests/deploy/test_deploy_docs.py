"""The documented flow (README "Across a cluster", docs/*/checker/fleet.md) avoids the traps of kubectl it names."""

from __future__ import annotations

import re

import pytest
import yaml

from _manifests import KUBERNETES, REPO

DOCS = ("README.md", "docs/en/checker/fleet.md", "docs/zh/checker/fleet.md")


def _shell_lines(doc: str) -> list[str]:
    text = (REPO / doc).read_text(encoding="utf-8")
    return [line for block in re.findall(r"```(?:sh|console|bash)\n(.*?)```", text, re.S) for line in block.splitlines()]


def _commands(line: str) -> list[str]:
    """The commands of one shell line (split at ``;``, ``&&``, ``|``), comments dropped."""
    return [part.strip() for part in re.split(r";|&&|\|", line.split("  #", 1)[0]) if part.strip()]


@pytest.mark.parametrize("doc", DOCS)
def test_flow_is_four_commands_bundle_apply_collect_fleet(doc):
    text = (REPO / doc).read_text(encoding="utf-8")
    (block,) = re.findall(r"<!-- fleet-flow -->\n```sh\n(.*?)```", text, re.S)
    lines = block.strip().splitlines()
    assert len(lines) <= 4
    assert lines[0].startswith("lingjun-kb bundle --configmap")
    assert lines[1].startswith("kubectl create ") and "deploy/kubernetes/lingjun-check-job.yaml" in lines[1]
    assert "kubectl logs " in lines[2]
    assert lines[3].startswith("lingjun-check fleet ") and "--expect" in lines[3]
    for line in lines:  # one command line per step: no second command hidden behind ; or &&
        assert not re.search(r";|&&", line.split("  #", 1)[0]), line
    completions = yaml.safe_load((KUBERNETES / "lingjun-check-job.yaml").read_text(encoding="utf-8"))["spec"]["completions"]
    assert f"--expect {completions}" in lines[3]  # the Job's node count, as the text says


@pytest.mark.parametrize("doc", DOCS)
def test_no_wait_that_hangs_on_a_failed_job(doc):
    for line in _shell_lines(doc):
        for command in _commands(line):
            assert not (command.startswith("kubectl wait") and "condition=complete" in command), command


@pytest.mark.parametrize("doc", DOCS)
def test_the_flow_lines_fit_a_code_block_on_the_site(doc):
    """Material shows about 80 monospace characters in a code block at 1280 px; the flow's lines are no wider."""
    text = (REPO / doc).read_text(encoding="utf-8")
    (block,) = re.findall(r"<!-- fleet-flow -->\n```sh\n(.*?)```", text, re.S)
    assert all(len(line.split("  #", 1)[0].rstrip()) <= 80 for line in block.splitlines())


@pytest.mark.parametrize("doc", DOCS)
def test_kubectl_logs_with_a_selector_takes_every_line_with_its_pod(doc):
    logs = [c for line in _shell_lines(doc) for c in _commands(line) if c.startswith("kubectl logs")]
    assert logs, doc
    for command in logs:
        assert "--prefix" in command, command
        if re.search(r"\s(-l|--selector)[\s=]", command):
            assert "--tail=-1" in command, command  # -l defaults --tail to 10 lines


@pytest.mark.parametrize("doc", DOCS)
def test_the_configmap_is_never_applied_client_side(doc):
    for line in _shell_lines(doc):
        for command in _commands(line):
            if command.startswith("kubectl apply"):
                assert "--server-side" in command, command


@pytest.mark.parametrize("doc", DOCS)
def test_every_manifest_is_documented(doc):
    text = (REPO / doc).read_text(encoding="utf-8")
    for path in KUBERNETES.iterdir():
        assert path.name in text, (doc, path.name)
    assert "lingjun-kb bundle --configmap" in text and "262144" in text


@pytest.mark.parametrize("doc", DOCS)
def test_the_failed_node_bound_is_documented_with_what_happens_when_it_is_reached(doc):
    text = (REPO / doc).read_text(encoding="utf-8")
    assert "`maxFailedIndexes`" in text and "5 %" in text and "250" in text
    assert "`FailedIndexes`" in text and "`MaxFailedIndexesExceeded`" in text and "--expect" in text
