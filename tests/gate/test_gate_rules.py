"""Every gate rule has a failing fixture that it reports exactly, and passes on the valid tree and its pass fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingjun.schema.gate.corpus import Corpus
from lingjun.generator.checker_ids import checker_rule_ids
from lingjun.schema.gate.runner import load_rules, run_gate
from lingjun.schema.loader import load_paths
from lingjun.schema.problems import Severity

GATE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gate"

# rule -> (overlay, file, line, col, message fragment, severity)
FAILING = {
    "data.unique-release": ("unique-release/fail", "demo-nv/25.02.yml", 3, 10, "demo-nv:25.02 is already recorded in", Severity.error),
    "data.release-path": ("release-path/fail", "demo-nv/25.04.yaml", 3, 10, "move it to demo-nv/25.03.yaml", Severity.error),
    "data.catalog-unique": ("catalog-unique/fail", "components.yaml", 22, 9, "component 'torch' is listed twice", Severity.error),
    "data.family-exists": ("family-exists/fail", "demo-ghost/25.02.yaml", 2, 9, "family 'demo-ghost' is not in the family catalog", Severity.error),
    "data.component-catalog": ("component-catalog/fail", "demo-nv/25.02.yaml", 13, 23, "'PyTorch2' is not a published name of 'torch'", Severity.error),
    "data.component-refs": ("component-refs/fail", "demo-nv/25.02.yaml", 18, 18, "component 'flash-attn' is not in releases/components.yaml", Severity.error),
    "data.duplicate-component": ("duplicate-component/fail", "demo-nv/25.02.yaml", 16, 10, "'torch' is already listed as components.0", Severity.error),
    "data.unique-image-tag": ("unique-image-tag/fail", "demo-nv/25.02.yaml", 9, 11, "tag '25.02-serverless' is already used by demo-nv:25.02 image_tags.0", Severity.error),
    "data.image-tag-pattern": ("image-tag-pattern/fail", "demo-nv/25.02.yaml", 9, 11, "tag 'v25.02' does not start with the release version '25.02'", Severity.error),
    "data.driver-minimum": ("driver-minimum/fail", "demo-nv/25.02.yaml", 11, 35, "driver minimum 560 is below 570.26, the minimum driver of CUDA 12.8", Severity.error),
    "data.driver-branch-conflict": ("driver-branch-conflict/fail", "demo-nv/25.01.yaml", 17, 32, "R545 is listed both under forward_compatibility and must_upgrade_branches", Severity.error),
    "data.component-downgrade": ("component-downgrade/fail", "demo-nv/25.02.yaml", 15, 37, "vllm goes down from 0.7.2 (demo-nv:25.01) to 0.6.0", Severity.warning),
    "data.known-issue-refs": ("known-issue-refs/fail", "demo-nv/25.01.yaml", 24, 16, "known issue 'demo-isue' does not exist; did you mean 'demo-issue'?", Severity.error),
    "data.known-issue-affects": ("known-issue-affects/fail", "known-issues/demo-issue.yaml", 12, 12, "fixed in demo-nv:25.01, but demo-nv:25.01 is listed as affected", Severity.error),
    "data.base-image": ("base-image/fail", "demo-nv/25.02.yaml", 6, 23, "family 'demo-nv' is not a family with role `base`", Severity.error),
    "data.single-current": ("single-current/fail", "demo-nv/25.01.yaml", 5, 9, "demo-nv:25.01 and demo-nv:25.02 are both `current`", Severity.error),
    "data.usage-note-rule": ("usage-note-rule/fail", "demo-nv/25.01.yaml", 28, 11, "'env.nccl-socket-ifnam' is not a lingjun-check rule; did you mean 'env.nccl-socket-ifname'?", Severity.error),
    "data.sources": ("sources/fail", "families.yaml", 14, 9, "family 'demo-base' cites no page", Severity.error),
    "data.cjk-spacing": ("cjk-spacing/fail", "demo-nv/25.02.yaml", 19, 11, "stray space in the Chinese text ('示 崩')", Severity.warning),
    "data.languages": ("languages/fail", "demo-nv/25.02.yaml", 5, 43, "the Chinese text has no Chinese characters", Severity.error),
    "data.placeholder": ("placeholder/fail", "demo-nv/25.02.yaml", 5, 15, "placeholder not filled in: 'TODO(lingjun-kb new): summary'", Severity.error),
    "data.reference-tables": ("reference-tables/fail", "reference/cuda-drivers.yaml", 8, 5, "12.8.0 is listed twice (first as toolkit_min_driver.0)", Severity.error),
    "data.carried-over": ("carried-over/fail", "demo-nv/25.02.yaml", 16, 61, "cuda 12.8.0 is carried over from demo-nv:25.01 by `lingjun-kb new` and not confirmed", Severity.error),
    "data.branch-eol-flag": ("branch-eol-flag/fail", "reference/driver-branches.yaml", 9, 18, "R535: end_of_life: false contradicts its own eol 2020-06, which has passed on ", Severity.error),
    "data.gpu-table": ("gpu-table/fail", "reference/gpus.yaml", 10, 12, "GPU 'geforce  rtx 4090' is listed twice (first as gpus.1)", Severity.error),
    "data.component-list-state": ("component-list-state/fail", "demo-nv/25.02.yaml", 14, 10, "component_list is `not-published` but components.0 is stated in the component list", Severity.error),
    "data.introduced": ("introduced/fail", "demo-nv/25.02.yaml", 15, 58, "vllm is marked new in demo-nv:25.02, but demo-nv:25.01 lists it (0.7.2)", Severity.warning),
    "data.not-captured": ("not-captured/fail", "demo-nv/25.02.yaml", 17, 26, "usage_notes is named in not_captured (the page's section was not seen) and in stated_none", Severity.error),
    "data.stated-none": ("stated-none/fail", "demo-nv/25.02.yaml", 16, 29, "stated_none says the page lists no bug fixes, but the record lists 1 (bug_fixes)", Severity.error),
    "data.presence-unknown": ("presence-unknown/fail", "demo-nv/25.02.yaml", 23, 12, "source conflict vllm-not-listed leaves vllm unknown (no value kept, not listed), but presence_unknown does not name it", Severity.error),
    "data.driver-recorded": ("driver-recorded/fail", "demo-nv/25.02.yaml", 1, 1, "demo-nv:25.02 records no driver requirement; the driver matrix shows every branch as not stated", Severity.warning),
    "data.release-order": ("release-order/fail", "demo-nv/sglang0.5.4-250105.yaml", 3, 10, "release demo-nv:sglang0.5.4-250105 cannot be placed among the family's other releases: its identifier names no date; add released: {date, kind, source}", Severity.error),
    "data.unrecorded-release": ("unrecorded-release/fail", "families.yaml", 18, 18, "demo-nv:25.02: it is recorded now: remove it from unrecorded_releases", Severity.error),
    "data.runtimes": ("runtimes/fail", "demo-nv/25.02.yaml", 24, 10, "runtime 'llamafactory/20250201' is already listed as runtimes.0 of demo-nv:25.02; keep one entry", Severity.error),
    "data.signature-regex": ("signature-regex/fail", "troubleshooting/demo-slow.yaml", 8, 12, "repeats a part that itself repeats without bound", Severity.error),
    "data.signature-examples": ("signature-examples/fail", "troubleshooting/demo-overlap.yaml", 12, 11, "example of 'demo-overlap' also matches signature 'demo-signature'; narrow a pattern, or list 'demo-signature' in overlaps", Severity.error),
    "data.signature-refs": ("signature-refs/fail", "troubleshooting/demo-refs.yaml", 19, 9, "'container.shm-sise' is not a lingjun-check rule; did you mean 'container.shm-size'?", Severity.error),
    "data.signature-identity": ("signature-identity/fail", "troubleshooting/demo-copy.yaml", 2, 5, "signature 'demo-signature' is written in demo-copy.yaml; rename the file to demo-signature.yaml", Severity.error),
    "data.acs-pod-labels": ("acs-pod-labels/fail", "troubleshooting/demo-acs.yaml", 16, 13, "ACS pins the driver with the pod label alibabacloud.com/gpu-driver-version, not an annotation", Severity.error),
    "data.error-catalog-refs": ("error-catalog-refs/fail", "errors/cuda-errors.yaml", 12, 16, "error signature 'demo-no-such-signature' does not exist", Severity.error),
    "data.version-agreement": ("version-agreement/fail", "demo-nv/25.02.yaml", 10, 7, "cuda 12.8.1 disagrees with the cuda component's version 12.8.0 (components.1)", Severity.warning),
}


def _gate(root: Path):
    result = load_paths([root])
    assert result.problems == [], [p.format() for p in result.problems]
    return run_gate(Corpus.from_documents(result.documents), checker_rules=checker_rule_ids())


def test_every_registered_rule_has_a_failing_fixture():
    # data.family-incomplete and data.catalog-not-loaded report files that fail to load: they are tested through
    # validate() (below, and in test_gate_catalog_not_loaded.py)
    assert set(load_rules()) == set(FAILING) | {"data.family-incomplete", "data.catalog-not-loaded"}


def test_every_rule_has_an_id_severity_and_one_line_description():
    for rule in load_rules().values():
        assert rule.id.startswith("data.") and rule.description and "\n" not in rule.description


def test_valid_tree_has_no_problem_at_all(tree):
    assert _gate(tree()) == []


@pytest.mark.parametrize("rule_id", sorted(FAILING))
def test_rule_reports_its_failing_fixture(rule_id, tree):
    overlay, file, line, col, fragment, severity = FAILING[rule_id]
    root = tree(overlay)
    found = [p for p in _gate(root) if p.rule == rule_id]
    matching = [p for p in found if p.path == str(root / file) and p.line == line and p.col == col and fragment in p.message]
    assert matching, [p.format() for p in found]
    assert matching[0].severity is severity


@pytest.mark.parametrize("overlay", sorted(str(p.relative_to(GATE_FIXTURES)) for p in GATE_FIXTURES.glob("*/pass")))
def test_pass_fixture_raises_nothing_for_its_rule(overlay, tree):
    rule_id = "data." + overlay.split("/")[0]
    assert [p.format() for p in _gate(tree(overlay)) if p.rule == rule_id] == []


def test_driver_minimum_above_toolkit_need_is_info(tree):
    found = [p for p in _gate(tree("driver-minimum/info")) if p.rule == "data.driver-minimum"]
    assert [(p.severity, p.line, p.col) for p in found] == [(Severity.info, 11, 35)]
    assert "driver minimum 575 is above 570.26" in found[0].message


def test_acknowledged_downgrade_that_matches_nothing_is_reported(tree):
    root = tree("component-downgrade/pass")
    path = root / "demo-nv" / "25.02.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace('from_version: "0.7.2"', 'from_version: "0.7.1"'), encoding="utf-8")
    messages = [p.message for p in _gate(root) if p.rule == "data.component-downgrade"]
    assert any("no downgrade of vllm from 0.7.1 to 0.6.0" in m for m in messages)
    assert any("vllm goes down from 0.7.2" in m for m in messages)


def test_unresolvable_rule_error_becomes_internal_problem(tree, monkeypatch):
    rules = load_rules()
    broken = rules["data.sources"]

    def explode(corpus):
        raise RuntimeError("boom")

    import dataclasses

    import lingjun.schema.gate.runner as runner

    patched = {**rules, "data.sources": dataclasses.replace(broken, func=explode)}
    monkeypatch.setattr(runner, "load_rules", lambda: patched)
    problems = _gate(tree())
    assert [(p.rule, p.message) for p in problems] == [("internal", "rule data.sources failed: RuntimeError: boom")]


def test_family_whose_newest_record_is_superseded_is_info_not_error(tree):
    # training-xpu-pytorch 25.05 links a later 25.06 we hold no facts for: no record is `current`.
    found = [p for p in _gate(tree("single-current/none")) if p.rule == "data.single-current"]
    assert [(p.severity, p.line, p.col) for p in found] == [(Severity.info, 4, 9)]
    assert "its newest record 25.02 is superseded" in found[0].message


def test_version_agreement_compares_python_at_the_precision_both_give(tree):
    found = [p for p in _gate(tree("version-agreement/python")) if p.rule == "data.version-agreement"]
    assert [(p.severity, p.line, p.col, p.field) for p in found] == [(Severity.warning, 11, 9, "python")]
    assert "python 3.12.7 disagrees with the python component's version 3.12.8 (components.3)" in found[0].message
    assert "source_conflicts entry whose field is `python` or `components.python`" in found[0].message


def test_version_agreement_holds_on_the_real_records():
    real = Path(__file__).resolve().parents[2] / "releases"
    result = load_paths([real])
    found = run_gate(Corpus.from_documents(result.documents), only=["data.version-agreement"])
    assert [p.format() for p in found] == []


def test_image_tag_typo_is_not_copied_into_the_expected_reference(tree):
    # 25.01-serverless written in the 25.02 record, reference built from the same typo
    found = [p for p in _gate(tree("image-tag-pattern/typo")) if p.rule == "data.image-tag-pattern"]
    by_field = {p.field: p.message for p in found}
    assert sorted(by_field) == ["image_tags.0.reference", "image_tags.0.tag"]
    assert "tag '25.01-serverless' does not start with the release version '25.02'" in by_field["image_tags.0.tag"]
    assert "should be '25.02-serverless'" in by_field["image_tags.0.tag"]
    assert ("reference should be 'registry.example.com/demo/demo-nv:25.02-serverless'"
            in by_field["image_tags.0.reference"])
    assert all("should be 'registry.example.com/demo/demo-nv:25.01" not in m for m in by_field.values())


def test_image_tag_that_cannot_be_corrected_gets_no_reference_suggestion(tree):
    # the fail fixture: tag 'v25.02' with a reference in another namespace
    found = [p for p in _gate(tree("image-tag-pattern/fail")) if p.rule == "data.image-tag-pattern"]
    reference = [p.message for p in found if p.field == "image_tags.1.reference"]
    assert len(reference) == 1
    assert "should be" not in reference[0]  # nothing built from the wrong tag is suggested
    assert "does not follow the family pattern 'registry.example.com/demo/{image}:{tag}'" in reference[0]


def test_placeholder_url_on_the_reserved_invalid_domain_is_an_error(tree):
    # RFC 2606 reserves .invalid: `lingjun-kb new` writes https://todo.invalid/... as the source to replace
    root = tree("placeholder/invalid-url")
    found = [p for p in _gate(root) if p.rule == "data.placeholder"]
    assert sorted((p.path, p.line, p.field, p.severity) for p in found) == [
        (str(root / "demo-nv" / "25.02.yaml"), 20, "sources.0.url", Severity.error),
        (str(root / "demo-nv" / "25.02.yaml"), 21, "sources.1.url", Severity.error),
        (str(root / "families.yaml"), 13, "families.0.sources.0.url", Severity.error),
    ]
    assert "placeholder address 'https://todo.invalid/official-release-note-page'" in found[0].message
    assert "the .invalid domain is reserved" in found[0].message


def _validate(root: Path):
    from lingjun.schema.gate.validate import validate

    return validate([root]).problems


@pytest.mark.parametrize("overlay,line", [("family-incomplete/fail", 1), ("family-incomplete/broken-yaml", None)])
def test_family_with_a_record_that_fails_the_schema_gets_no_family_wide_conclusion(overlay, line, tree):
    # 25.02 (the current one) does not load: single-current must not claim the family has no current release
    root = tree(overlay)
    problems = _validate(root)
    assert [p.rule for p in problems if p.rule == "data.single-current"] == []
    notes = [p for p in problems if p.rule == "data.family-incomplete"]
    assert [(p.path, p.line, p.severity) for p in notes] == [(str(root / "demo-nv" / "25.02.yaml"), line, Severity.info)]
    assert "family 'demo-nv': 1 of its records has errors" in notes[0].message
    assert "data.single-current" in notes[0].message and "data.component-downgrade" in notes[0].message
    assert any(p.is_error and p.path == str(root / "demo-nv" / "25.02.yaml") for p in problems)


def test_downgrades_are_not_judged_across_a_record_that_fails_the_schema(tree):
    # 25.03 acknowledges vllm 0.8.2 -> 0.7.0 against 25.02, which does not load: no comparison with 25.01
    problems = _validate(tree("family-incomplete/downgrade"))
    assert [p.format() for p in problems if p.rule == "data.component-downgrade"] == []
    assert len([p for p in problems if p.rule == "data.family-incomplete"]) == 1


def test_gpu_table_row_citing_an_unlisted_source_is_reported(tree):
    root = tree("gpu-table/fail")
    found = [p for p in _gate(root) if p.rule == "data.gpu-table" and p.line == 11]
    assert [(p.col, p.message) for p in found] == [(70, "source 'nvidia-list' is not listed under sources")]


def test_gpu_table_compute_capability_format_is_checked_by_the_schema(tmp_path):
    path = tmp_path / "gpus.yaml"
    path.write_text((GATE_FIXTURES / "gpu-table" / "fail" / "reference" / "gpus.yaml").read_text(encoding="utf-8")
                    .replace('{name: H20, compute_capability: "9.0"', '{name: H20, compute_capability: "9"'), encoding="utf-8")
    problems = load_paths([path]).problems
    assert [(p.line, p.field) for p in problems] == [(8, "gpus.0.compute_capability")]


def test_gpu_table_names_equal_under_the_lookup_blank_names_and_architecture_mismatches_are_reported(tree):
    """The gate reads names as the GPU lookup does (checks/core/gpu_models.lookup_key, blanks removed): 'NVIDIA H20'
    and 'H-20' are H20."""
    root = tree("gpu-table/fail")
    found = [(p.line, p.message) for p in _gate(root) if p.rule == "data.gpu-table" and p.line >= 12]
    assert found == [
        (12, "GPU 'NVIDIA H20' is listed twice (first as gpus.0)"),
        (13, "GPU 'H-20' is listed twice (first as gpus.0)"),
        (14, "GPU name ' - ' is blank once the lookup reads it"),
        (15, "compute capability 8.9 is ada, the row says hopper"),
    ]


def test_gpu_table_data_center_is_a_strict_boolean(tmp_path):
    path = tmp_path / "gpus.yaml"
    path.write_text((GATE_FIXTURES / "gpu-table" / "fail" / "reference" / "gpus.yaml").read_text(encoding="utf-8")
                    .replace('{name: H20, compute_capability: "9.0", data_center: true', '{name: H20, compute_capability: "9.0", data_center: "yes"'),
                    encoding="utf-8")
    problems = load_paths([path]).problems
    assert [(p.line, p.field) for p in problems] == [(8, "gpus.0.data_center")]


def test_rules_naming_checker_rules_do_not_run_without_their_ids(tree):
    """The gate receives the checker's rule ids from its caller; without them the two rules that check those names
    are not run (they cannot tell a real id from a typo), and every other rule reports as before."""
    result = load_paths([tree("usage-note-rule/fail")])
    without = run_gate(Corpus.from_documents(result.documents))
    with_ids = run_gate(Corpus.from_documents(result.documents), checker_rules=checker_rule_ids())
    assert "data.usage-note-rule" in {p.rule for p in with_ids}
    assert [p.format() for p in without] == [
        p.format() for p in with_ids if p.rule not in ("data.usage-note-rule", "data.signature-refs")]


def test_container_cli_catalog_names_read_versions_and_known_stages(tree):
    """A libnvidia-container catalog whose message names a version it did not read, or whose subsystem names a stage
    no context message has, is rejected with one line each, at the field."""
    root = tree("error-catalog-refs/container-cli")
    found = sorted((p.line, p.col, p.message) for p in _gate(root) if p.rule == "data.error-catalog-refs")
    assert found == [
        (12, 29, "stage 'ldcache error' is not the prefix of a context message (a CLI format 'STAGE: %s' with context: true)"),
        (18, 65, "version '1.18.0' is not one of the catalog's versions (1.14.0, 1.17.0)"),
    ]
