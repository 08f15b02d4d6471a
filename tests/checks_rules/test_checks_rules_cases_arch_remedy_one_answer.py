"""One remedy for a GPU torch has no kernels for: torch's own warning (pytorch-arch-not-compatible) and the CUDA
error it leads to (cuda-no-kernel-image) give the same words, so a report holding both lines says one thing: in a
Lingjun image a fresh container or a release that supports the GPU, never another torch over the image's packages
(issue 33; tests/fixtures/cases/rtx5090/ is the report that showed both)."""

from __future__ import annotations

from signature_cases_kit import signature


def _cause(sig_id: str, cause_id: str) -> dict:
    return next(c for c in signature(sig_id)["causes"] if c["id"] == cause_id)


def test_both_lines_give_one_remedy_for_a_torch_without_the_gpu_s_kernels():
    warning = _cause("pytorch-arch-not-compatible", "torch-arch-list-lacks-gpu")["remedies"]["image"]
    error = next(c for c in signature("cuda-no-kernel-image")["causes"] if "get_arch_list" in c["remedies"]["image"]["en"])
    assert warning == error["remedies"]["image"]
    assert "start a fresh container from the image tag" in warning["en"]
    assert "lingjun-kb which --driver VERSION --gpu MODEL" in warning["en"] and "lingjun-kb which" in warning["zh"]
    assert "rather than install another torch over the image's other packages" in warning["en"]
