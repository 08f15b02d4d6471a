"""collect_env pastes as people post them: fragments, truncations, other platforms."""

from __future__ import annotations

import pytest

from lingjun.checks.collect_env_text import CollectEnvError, parse_collect_env


def test_a_fragment_of_only_package_lines_is_read():
    # rwth-i6/returnn#1802 quotes just these two lines of collect_env
    facts = parse_collect_env("[pip3] nvidia-nccl-cu11==2.14.3\n[pip3] nvidia-nccl-cu12==2.27.3\n")
    assert [(d.name, d.version, d.installer) for d in facts.distributions] == [
        ("nvidia-nccl-cu11", "2.14.3", "pip"), ("nvidia-nccl-cu12", "2.27.3", "pip")]


def test_conda_lines_alone_are_read():
    facts = parse_collect_env("[conda] pytorch                   2.1.0           py3.10_cuda12.1_cudnn8.9.2_0    pytorch\n")
    assert [(d.name, d.version, d.installer) for d in facts.distributions] == [("pytorch", "2.1.0", "conda")]


@pytest.mark.parametrize("text", ["", "hello world\n", "Length: 31107 (30K) [text/plain]\n", "[pip3] \n"])
def test_text_without_collect_env_keys_or_packages_is_refused(text):
    with pytest.raises(CollectEnvError):
        parse_collect_env(text)
