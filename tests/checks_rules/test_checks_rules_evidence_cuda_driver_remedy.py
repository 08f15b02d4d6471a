"""A driver-API CUDA code with no remedy of its own takes the remedy of the runtime code with the same number and
message (one rule, :meth:`CudaErrorCatalog.remedy_of`, for the checker's data and the site's page)."""

from __future__ import annotations

from pathlib import Path

from checks_rules_kit import assert_bilingual, context, run
from lingjun.checks.cli import load_data
from lingjun.checks.facts import Facts
from lingjun.checks.inputs.log_file import gather_evidence
from lingjun.checks.knowledge.error_catalogs import embedded
from lingjun.schema.loader import assemble, load_paths

ROOT = Path(__file__).resolve().parents[2]


def _catalog():
    result = load_paths([ROOT / "releases" / "errors" / "cuda-errors.yaml"])
    return assemble(result.documents).cuda_errors


def test_remedy_of_gives_a_driver_code_its_runtime_twins_remedy():
    catalog = _catalog()
    driver_801 = next(e for e in catalog.driver if e.code == 801)
    runtime_801 = next(e for e in catalog.runtime if e.code == 801)
    assert driver_801.remedy is None and runtime_801.remedy is not None
    assert catalog.remedy_of("driver", driver_801) == runtime_801.remedy
    # a runtime code keeps its own (or none); a driver code whose number means another thing at runtime gets none
    assert catalog.remedy_of("runtime", runtime_801) == runtime_801.remedy
    other_meaning = driver_801.model_copy(update={"message": "a message the runtime's 801 does not print"})
    assert catalog.remedy_of("driver", other_meaning) is None
    assert catalog.remedy_of("driver", driver_801.model_copy(update={"message": None})) is None


def test_embedded_data_carries_the_twins_remedy_for_the_checker():
    assert embedded().cuda[("driver", 801)].remedy == embedded().cuda[("runtime", 801)].remedy


def test_torch_s_driver_error_line_gets_the_expandable_segments_advice(tmp_path):
    # unslothai/unsloth#1446: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True on a GPU without VMM
    log = tmp_path / "job.log"
    log.write_text("RuntimeError: CUDA driver error: operation not supported\n", encoding="utf-8")
    kd = load_data(None)
    ctx = context(Facts(), kd)
    ctx.evidence = gather_evidence(kd, Facts(), [str(log)])
    (finding,) = run("evidence.error-lines", ctx)
    assert_bilingual([finding])
    assert "CUDA_ERROR_NOT_SUPPORTED" in finding.message.en
    assert "expandable_segments:True" in finding.remedy.en and "expandable_segments:True" in finding.remedy.zh
